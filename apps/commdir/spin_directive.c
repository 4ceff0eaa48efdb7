/* setEvec's spin distribution with the communication directives (seed 003, Listing 7): one
 * comm_parameters region per step says who sends (rank 0) to whom (each atom's owner); the
 * comm_p2p in the loop over atoms sends one atom's spin and overlaps it with that atom's core
 * state; the region completes once, at its end (place_sync(END_PARAM_REGION)), sized by
 * max_comm_iter. Built for each target with -DCOMMDIR_TARGET=... (commdir.h). Every rank
 * runs the region once a step, as the one-sided targets need. */
#include "spin.h"

/* What an owner receives into: global, so symmetric for one-sided MPI and SHMEM. */
static double evec[SPIN_MAX_DOUBLES];

int main(int argc, char **argv)
{
    int rank, nprocs;
    commdir_start(&argc, &argv, &rank, &nprocs);
    struct spin_setup s = spin_arguments(argc, argv, rank, nprocs);
    int k = s.k, nlocal = s.nlocal;
    double *ev = rank == 0 ? malloc(sizeof(double) * k * s.natoms) : NULL;
    uint64_t *core = calloc(nlocal, sizeof *core);
    uint64_t checksum = 0;
    long long wrong = 0;
    double seconds = 0;
    /* Rank 0 goes over every atom, an owner over its own. */
    int first = rank == 0 ? 0 : (rank - 1) * nlocal, last = rank == 0 ? s.natoms : rank * nlocal;
    for (int step = 0; step < s.steps; step++) {
        if (rank == 0)
            spin_draw(ev, &s, step);
        MPI_Barrier(MPI_COMM_WORLD);
        double start = MPI_Wtime();
        /* comm begin */
#pragma comm_parameters sendwhen(rank == 0) receivewhen(rank != 0) sender(0) count(k) \
    max_comm_iter(s.natoms) place_sync(END_PARAM_REGION) target(COMMDIR_TARGET)
        for (int a = first; a < last; a++) {
            int owner = 1 + a / nlocal, p = a % nlocal;
#pragma comm_p2p receiver(owner) sbuf(&ev[(size_t)k * a]) rbuf(&evec[(size_t)k * p])
            {
                if (rank != 0)
                    core[p] = spin_core_state(step, a, s.work);
            }
        }
        /* comm end */
        seconds += MPI_Wtime() - start;
        spin_use(evec, core, &s, step, rank, &checksum, &wrong);
    }
    int status = spin_finish(&s, nprocs, checksum, wrong, seconds);
    free(ev), free(core);
    commdir_finish();
    return status;
}
