/* setEvec's spin distribution by hand with one MPI_Waitall (the change the seed made
 * to its original to check where the directive version gained): as spin_orig.c, but each
 * side completes its transfers with one MPI_Waitall. The core states follow
 * the transfers. */
#include "spin.h"

static double evec[SPIN_MAX_DOUBLES];

int main(int argc, char **argv)
{
    int rank, nprocs;
    commdir_start(&argc, &argv, &rank, &nprocs);
    struct spin_setup s = spin_arguments(argc, argv, rank, nprocs);
    int k = s.k, nlocal = s.nlocal;
    double *ev = rank == 0 ? malloc(sizeof(double) * k * s.natoms) : NULL;
    uint64_t *core = calloc(nlocal, sizeof *core);
    MPI_Request *request = malloc(sizeof(MPI_Request) * (s.natoms > nlocal ? s.natoms : nlocal));
    MPI_Status status;
    uint64_t checksum = 0;
    long long wrong = 0;
    double seconds = 0;
    (void)status;
    for (int step = 0; step < s.steps; step++) {
        if (rank == 0)
            spin_draw(ev, &s, step);
        MPI_Barrier(MPI_COMM_WORLD);
        double start = MPI_Wtime();
        /* comm begin */
        if (rank == 0) {
            int n_req = 0;
            for (int a = 0; a < s.natoms; a++)
                MPI_Isend(&ev[(size_t)k * a], k, MPI_DOUBLE, 1 + a / nlocal, a % nlocal, MPI_COMM_WORLD,
                          &request[n_req++]);
            MPI_Waitall(n_req, request, MPI_STATUSES_IGNORE);
        } else {
            for (int p = 0; p < nlocal; p++)
                MPI_Irecv(&evec[(size_t)k * p], k, MPI_DOUBLE, 0, p, MPI_COMM_WORLD, &request[p]);
            MPI_Waitall(s.nlocal, request, MPI_STATUSES_IGNORE);
        }
        /* comm end */
        if (rank != 0)
            for (int p = 0; p < nlocal; p++)
                core[p] = spin_core_state(step, (rank - 1) * nlocal + p, s.work);
        seconds += MPI_Wtime() - start;
        spin_use(evec, core, &s, step, rank, &checksum, &wrong);
    }
    int status_code = spin_finish(&s, nprocs, checksum, wrong, seconds);
    free(ev), free(core), free(request);
    commdir_finish();
    return status_code;
}
