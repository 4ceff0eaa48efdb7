/* Single-atom data with the communication directives (seed 003, Listing 5): the scalars in
 * one struct, the matrices grouped by payload into two buffer lists, three comm_p2p in one
 * comm_parameters region; the translator makes the datatypes, the transfers and one
 * completion for the region. Built for each target with -DCOMMDIR_TARGET=... (commdir.h). */
#include "atom.h"

/* What a receiver receives into: global, so symmetric for one-sided MPI and SHMEM. */
static struct atom_scalars scalars;
static double vr[2 * ATOM_T_MAX], rhotot[2 * ATOM_T_MAX], ec[2 * ATOM_T_MAX];
static int nc[2 * ATOM_T_MAX], lc[2 * ATOM_T_MAX], kc[2 * ATOM_T_MAX];

int main(int argc, char **argv)
{
    int rank, nprocs, t, reps;
    commdir_start(&argc, &argv, &rank, &nprocs);
    atom_arguments(argc, argv, rank, nprocs, &t, &reps);
    long m = 2L * t;
    /* Rank 0 holds the atoms of all ranks (one each) before it sends them. */
    int senders = rank == 0 ? nprocs : 1;
    struct atom_scalars *out_s = calloc(senders, sizeof *out_s);
    double *out_vr = calloc(senders * m, sizeof(double)), *out_rhotot = calloc(senders * m, sizeof(double));
    double *out_ec = calloc(senders * m, sizeof(double));
    int *out_nc = calloc(senders * m, sizeof(int)), *out_lc = calloc(senders * m, sizeof(int));
    int *out_kc = calloc(senders * m, sizeof(int));
    struct atom_view got = atom_at(&scalars, vr, rhotot, ec, nc, lc, kc, 0);
    struct atom_view expected = atom_at(&out_s[0], out_vr, out_rhotot, out_ec, out_nc, out_lc, out_kc, 0);
    uint64_t checksum = 0;
    long long wrong = 0;
    double seconds = 0;
    for (int round = 0; round < reps; round++) {
        if (rank == 0)
            for (int to = 1; to < nprocs; to++)
                atom_fill(atom_at(&out_s[to], out_vr, out_rhotot, out_ec, out_nc, out_lc, out_kc, to * m), t, round, to);
        MPI_Barrier(MPI_COMM_WORLD);
        double start = MPI_Wtime();
        /* comm begin */
#pragma comm_parameters sender(0) receiver(to) sendwhen(rank == 0) receivewhen(rank == to) \
    max_comm_iter(nprocs) target(COMMDIR_TARGET)
        for (int to = 1; to < nprocs; to++) {
#pragma comm_p2p sbuf(out_s[to]) rbuf(scalars) count(1)
            { }
#pragma comm_p2p sbuf(&out_vr[to * m], &out_rhotot[to * m]) rbuf(vr, rhotot) count(m)
            { }
#pragma comm_p2p sbuf(&out_ec[to * m], &out_nc[to * m], &out_lc[to * m], &out_kc[to * m]) \
    rbuf(ec, nc, lc, kc) count(m)
            { }
        }
        /* comm end */
        seconds += MPI_Wtime() - start;
        atom_check(got, expected, t, round, rank, &checksum, &wrong);
    }
    int status = atom_finish(t, reps, nprocs, checksum, wrong, seconds);
    free(out_s), free(out_vr), free(out_rhotot), free(out_ec), free(out_nc), free(out_lc), free(out_kc);
    commdir_finish();
    return status;
}
