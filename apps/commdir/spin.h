/* setEvec of WL-LSMS (seed 003, Listings 6-7): in every step of the main loop rank 0, the
 * privileged process, sends each atom's spin (a random direction: 3 doubles in WL-LSMS;
 * here BYTES/8 doubles, so that the message size can be swept) to the rank that owns the
 * atom; ranks 1..P-1 own ATOMS atoms each. Meanwhile each owner computes its atoms' core
 * states, which do not depend on the spins (calculateCoreState); then, with the spins, each
 * atom's energy.
 *
 *   spin_VARIANT [BYTES [STEPS [ATOMS [WORK]]]]    defaults 24 100 4 200
 *
 * BYTES per message (a multiple of 8), STEPS steps, ATOMS atoms per non-zero rank, WORK the
 * iterations of each core state. Rank 0 draws the spins of step s deterministically; each
 * owner redraws its own atoms' spins, counts the atoms whose spin arrived wrong, and adds
 * spins, core states and energies to a checksum. Timed: the distribution and the core states
 * (what the directive version overlaps), not the drawing, the energies or the checks. */
#ifndef BAMBOO_APPS_COMMDIR_SPIN_H
#define BAMBOO_APPS_COMMDIR_SPIN_H

#include "commdir.h"

#define SPIN_MAX_DOUBLES (1 << 19)  /* what an owner receives per step: ATOMS * BYTES/8 at most */
#define SPIN_USAGE "[BYTES (multiple of 8) [STEPS [ATOMS per rank [WORK]]]]"

struct spin_setup {
    int bytes, k, steps, nlocal, work, natoms;
};

static inline struct spin_setup spin_arguments(int argc, char **argv, int rank, int size)
{
    struct spin_setup s;
    s.bytes = app_int_arg(argc, argv, 1, 24, SPIN_USAGE);
    s.steps = app_int_arg(argc, argv, 2, 100, SPIN_USAGE);
    s.nlocal = app_int_arg(argc, argv, 3, 4, SPIN_USAGE);
    s.work = app_int_arg(argc, argv, 4, 200, SPIN_USAGE);
    s.k = s.bytes / 8;
    s.natoms = (size - 1) * s.nlocal;
    if (s.bytes % 8 != 0 || (long)s.k * s.nlocal > SPIN_MAX_DOUBLES || size < 2) {
        if (rank == 0)
            fprintf(stderr, "usage: %s %s; ATOMS * BYTES <= %d; at least 2 ranks\n", argv[0], SPIN_USAGE,
                    8 * SPIN_MAX_DOUBLES);
        app_refuse();
    }
    return s;
}

/* Component i of atom a's spin in step `step`. */
static inline double spin_value(int step, int a, int i)
{
    return commdir_real(commdir_key(step, a, 30, i));
}

/* Rank 0 draws the spins of every atom for this step. */
static inline void spin_draw(double *ev, const struct spin_setup *s, int step)
{
    for (int a = 0; a < s->natoms; a++)
        for (int i = 0; i < s->k; i++)
            ev[(size_t)s->k * a + i] = spin_value(step, a, i);
}

/* calculateCoreState's stand-in: WORK steps of an integer recurrence on the atom's own data,
 * independent of the spins (so it may overlap their transfer). */
static inline uint64_t spin_core_state(int step, int a, int work)
{
    uint64_t x = commdir_key(step, a, 40, 0) | 1;
    for (int i = 0; i < work; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    return x;
}

/* After the step: each owner checks the spins of its atoms (at evec[k*p]) against its own
 * draw, computes their energies from the spins and the core states, and adds all to its
 * checksum. */
static inline void spin_use(const double *evec, const uint64_t *core, const struct spin_setup *s, int step, int rank,
                            uint64_t *checksum, long long *wrong)
{
    if (rank == 0)
        return;
    for (int p = 0; p < s->nlocal; p++) {
        int a = (rank - 1) * s->nlocal + p;
        const double *spin = &evec[(size_t)s->k * p];
        double energy = 0;
        int bad = 0;
        for (int i = 0; i < s->k; i++) {
            bad |= spin[i] != spin_value(step, a, i);
            energy += spin[i] * commdir_real(commdir_key(core[p], a, 41, i));
        }
        *wrong += bad;
        *checksum += commdir_hash(spin, (size_t)s->k * sizeof(double), (uint64_t)a) + core[p] +
                     commdir_hash(&energy, sizeof energy, (uint64_t)a + 1);
    }
}

/* The verification line and the time; returns the exit status. */
static inline int spin_finish(const struct spin_setup *s, int size, uint64_t checksum, long long wrong, double seconds)
{
    commdir_totals(&checksum, &wrong);
    char what[200];
    snprintf(what, sizeof what, "commdir-spin ranks=%d bytes=%d steps=%d atoms=%d work=%d checksum=%016llx wrong=%lld",
             size, s->bytes, s->steps, s->natoms, s->work, (unsigned long long)checksum, wrong);
    int status = app_verified(what, wrong == 0);
    commdir_report_time(seconds);
    return status;
}

#endif
