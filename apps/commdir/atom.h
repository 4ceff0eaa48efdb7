/* The single-atom data of WL-LSMS (seed 003, Listings 4-5): what rank 0, the privileged
 * process, sends to each other rank: scalars, a header, a spin vector, and six matrices of
 * 2*t values (vr and rhotot, the potential and the density; ec, nc, lc, kc, the core
 * states). Every variant keeps the same layout; only how it travels differs.
 *
 *   atom_VARIANT [T [REPS]]     T rows (default 64; 72*T + 188 bytes an atom), REPS rounds
 *
 * Each round rank 0 sends a fresh atom to every other rank (the values depend on the round
 * and the destination); each receiver recomputes the atom it should have got and counts the
 * values that differ, and adds what it got to a checksum. Only the transfers are timed. */
#ifndef BAMBOO_APPS_COMMDIR_ATOM_H
#define BAMBOO_APPS_COMMDIR_ATOM_H

#include "commdir.h"

#define ATOM_T_MAX 16384
#define ATOM_USAGE "[T (rows, 1..16384) [REPS]]"
/* The bytes of one atom as it travels: 7 ints, 10 doubles and 80 chars of scalars, and 2*t
 * values of each of 3 double and 3 int matrices. */
#define ATOM_BYTES(t) (7 * 4 + 10 * 8 + 80 + (long)(t) * 2 * (3 * 8 + 3 * 4))

/* The scalars, grouped in one struct as the seed's directive version does. */
struct atom_scalars {
    int local_id, jmt, jws;
    double xstart, rmt;
    char header[80];
    double alat, efermi, vdif, ztotss, zcorss;
    double evec[3];
    int nspin, nmc;
    int t_vr, t_ec;  /* rows of vr/rhotot and of ec/nc/lc/kc (the seed packs each) */
};

/* Where one atom lies: the scalars and the six matrices of 2*t values each. */
struct atom_view {
    struct atom_scalars *s;
    double *vr, *rhotot, *ec;
    int *nc, *lc, *kc;
};

static inline struct atom_view atom_at(struct atom_scalars *s, double *vr, double *rhotot, double *ec, int *nc,
                                       int *lc, int *kc, long offset)
{
    struct atom_view v = {s, vr + offset, rhotot + offset, ec + offset, nc + offset, lc + offset, kc + offset};
    return v;
}

/* The atom of round `round` for rank `to`, written into `a`. */
static inline void atom_fill(struct atom_view a, int t, int round, int to)
{
    struct atom_scalars *s = a.s;
    memset(s, 0, sizeof *s);
    s->local_id = to - 1;
    s->jmt = commdir_int(commdir_key(round, to, 1, 0));
    s->jws = commdir_int(commdir_key(round, to, 2, 0));
    s->xstart = commdir_real(commdir_key(round, to, 3, 0));
    s->rmt = commdir_real(commdir_key(round, to, 4, 0));
    snprintf(s->header, sizeof s->header, "atom %d of round %d: Fe bcc %016llx", to - 1, round,
             (unsigned long long)commdir_key(round, to, 5, 0));
    s->alat = commdir_real(commdir_key(round, to, 6, 0));
    s->efermi = commdir_real(commdir_key(round, to, 7, 0));
    s->vdif = commdir_real(commdir_key(round, to, 8, 0));
    s->ztotss = commdir_real(commdir_key(round, to, 9, 0));
    s->zcorss = commdir_real(commdir_key(round, to, 10, 0));
    for (int i = 0; i < 3; i++)
        s->evec[i] = commdir_real(commdir_key(round, to, 11, i));
    s->nspin = 1 + (commdir_int(commdir_key(round, to, 12, 0)) & 1);
    s->nmc = commdir_int(commdir_key(round, to, 13, 0));
    s->t_vr = s->t_ec = t;
    for (int i = 0; i < 2 * t; i++) {
        a.vr[i] = commdir_real(commdir_key(round, to, 20, i));
        a.rhotot[i] = commdir_real(commdir_key(round, to, 21, i));
        a.ec[i] = commdir_real(commdir_key(round, to, 22, i));
        a.nc[i] = commdir_int(commdir_key(round, to, 23, i));
        a.lc[i] = commdir_int(commdir_key(round, to, 24, i));
        a.kc[i] = commdir_int(commdir_key(round, to, 25, i));
    }
}

#define ATOM_SAME(field) (memcmp(&got->field, &want->field, sizeof got->field) == 0)

/* How many of the atom's scalars and matrices differ from `want`, the expected atom. */
static inline long long atom_wrong(struct atom_view a, struct atom_view e, int t)
{
    const struct atom_scalars *got = a.s, *want = e.s;
    long long wrong = !ATOM_SAME(local_id) + !ATOM_SAME(jmt) + !ATOM_SAME(jws) + !ATOM_SAME(xstart) +
                      !ATOM_SAME(rmt) + !ATOM_SAME(header) + !ATOM_SAME(alat) + !ATOM_SAME(efermi) +
                      !ATOM_SAME(vdif) + !ATOM_SAME(ztotss) + !ATOM_SAME(zcorss) + !ATOM_SAME(evec) +
                      !ATOM_SAME(nspin) + !ATOM_SAME(nmc) + !ATOM_SAME(t_vr) + !ATOM_SAME(t_ec);
    size_t d = 2 * (size_t)t * sizeof(double), n = 2 * (size_t)t * sizeof(int);
    wrong += (memcmp(a.vr, e.vr, d) != 0) + (memcmp(a.rhotot, e.rhotot, d) != 0) + (memcmp(a.ec, e.ec, d) != 0) +
             (memcmp(a.nc, e.nc, n) != 0) + (memcmp(a.lc, e.lc, n) != 0) + (memcmp(a.kc, e.kc, n) != 0);
    return wrong;
}

/* The checksum of what arrived (each field on its own: a struct's padding is never sent). */
static inline uint64_t atom_checksum(struct atom_view a, int t)
{
    const struct atom_scalars *s = a.s;
    uint64_t h = commdir_hash(&s->local_id, 3 * sizeof(int), 1) + commdir_hash(&s->xstart, 2 * sizeof(double), 2) +
                 commdir_hash(s->header, sizeof s->header, 3) + commdir_hash(&s->alat, 8 * sizeof(double), 4) +
                 commdir_hash(&s->nspin, 4 * sizeof(int), 5);
    size_t d = 2 * (size_t)t * sizeof(double), n = 2 * (size_t)t * sizeof(int);
    return h + commdir_hash(a.vr, d, 6) + commdir_hash(a.rhotot, d, 7) + commdir_hash(a.ec, d, 8) +
           commdir_hash(a.nc, n, 9) + commdir_hash(a.lc, n, 10) + commdir_hash(a.kc, n, 11);
}

/* The arguments: T and REPS (rank 0 explains a bad T; every rank refuses). */
static inline void atom_arguments(int argc, char **argv, int rank, int size, int *t, int *reps)
{
    *t = app_int_arg(argc, argv, 1, 64, ATOM_USAGE);
    *reps = app_int_arg(argc, argv, 2, 100, ATOM_USAGE);
    if (*t > ATOM_T_MAX || size < 2) {
        if (rank == 0)
            fprintf(stderr, "usage: %s %s; at least 2 ranks\n", argv[0], ATOM_USAGE);
        app_refuse();
    }
}

/* Receivers check the atom of this round against the one they recompute into `expected`. */
static inline void atom_check(struct atom_view got, struct atom_view expected, int t, int round, int rank,
                              uint64_t *checksum, long long *wrong)
{
    if (rank == 0)
        return;
    atom_fill(expected, t, round, rank);
    *wrong += atom_wrong(got, expected, t);
    *checksum += atom_checksum(got, t);
}

/* The verification line and the time; returns the exit status. */
static inline int atom_finish(int t, int reps, int size, uint64_t checksum, long long wrong, double seconds)
{
    commdir_totals(&checksum, &wrong);
    char what[200];
    snprintf(what, sizeof what, "commdir-atom ranks=%d t=%d bytes=%ld reps=%d checksum=%016llx wrong=%lld", size, t,
             ATOM_BYTES(t), reps, (unsigned long long)checksum, wrong);
    int status = app_verified(what, wrong == 0 && reps > 0);
    commdir_report_time(seconds);
    return status;
}

#endif
