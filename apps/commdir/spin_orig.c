/* setEvec's spin distribution by hand (seed 003, Listing 6): rank 0 posts an MPI_Isend per atom,
 * then waits for them one by one (a loop of MPI_Wait); each owner posts an MPI_Irecv per atom
 * it owns and waits for them one by one. The core states follow
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
            for (int i = 0; i < n_req; i++)
                MPI_Wait(&request[i], &status);
        } else {
            for (int p = 0; p < nlocal; p++)
                MPI_Irecv(&evec[(size_t)k * p], k, MPI_DOUBLE, 0, p, MPI_COMM_WORLD, &request[p]);
            for (int i = 0; i < s.nlocal; i++)
                MPI_Wait(&request[i], &status);
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
