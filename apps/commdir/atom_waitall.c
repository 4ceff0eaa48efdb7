/* Single-atom data by hand with nonblocking MPI: rank 0 posts an MPI_Isend of every field of
 * every rank's atom, each receiver an MPI_Irecv of every field of its own, and both finish
 * with one MPI_Waitall: no packing, one message per field. */
#include "atom.h"

static struct atom_scalars scalars;
static double vr[2 * ATOM_T_MAX], rhotot[2 * ATOM_T_MAX], ec[2 * ATOM_T_MAX];
static int nc[2 * ATOM_T_MAX], lc[2 * ATOM_T_MAX], kc[2 * ATOM_T_MAX];

#define ATOM_PARTS 22  /* messages per atom */

/* MPI_Isend's and MPI_Irecv's shape: the sender and the receivers post the same list. */
typedef int (*atom_post_fn)(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);

int main(int argc, char **argv)
{
    int rank, nprocs, t, reps;
    commdir_start(&argc, &argv, &rank, &nprocs);
    atom_arguments(argc, argv, rank, nprocs, &t, &reps);
    long m = 2L * t;
    int senders = rank == 0 ? nprocs : 1;
    struct atom_scalars *out_s = calloc(senders, sizeof *out_s);
    double *out_vr = calloc(senders * m, sizeof(double)), *out_rhotot = calloc(senders * m, sizeof(double));
    double *out_ec = calloc(senders * m, sizeof(double));
    int *out_nc = calloc(senders * m, sizeof(int)), *out_lc = calloc(senders * m, sizeof(int));
    int *out_kc = calloc(senders * m, sizeof(int));
    struct atom_view got = atom_at(&scalars, vr, rhotot, ec, nc, lc, kc, 0);
    struct atom_view expected = atom_at(&out_s[0], out_vr, out_rhotot, out_ec, out_nc, out_lc, out_kc, 0);
    MPI_Request *requests = malloc(sizeof(MPI_Request) * ATOM_PARTS * nprocs);
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
        MPI_Comm comm = MPI_COMM_WORLD;
        int n = 0, count = (int)m;
        for (int to = 1; to < nprocs; to++) {
            if (rank != 0 && rank != to)
                continue;
            /* The sender's copy of rank `to`'s atom, or the receiver's own. */
            struct atom_view a = rank == 0 ? atom_at(&out_s[to], out_vr, out_rhotot, out_ec, out_nc, out_lc, out_kc, to * m)
                                           : got;
            atom_post_fn post = rank == 0 ? (atom_post_fn)MPI_Isend : MPI_Irecv;
            int peer = rank == 0 ? to : 0;
            post(&a.s->local_id, 1, MPI_INT, peer, 0, comm, &requests[n++]);
            post(&a.s->jmt, 1, MPI_INT, peer, 1, comm, &requests[n++]);
            post(&a.s->jws, 1, MPI_INT, peer, 2, comm, &requests[n++]);
            post(&a.s->xstart, 1, MPI_DOUBLE, peer, 3, comm, &requests[n++]);
            post(&a.s->rmt, 1, MPI_DOUBLE, peer, 4, comm, &requests[n++]);
            post(a.s->header, 80, MPI_CHAR, peer, 5, comm, &requests[n++]);
            post(&a.s->alat, 1, MPI_DOUBLE, peer, 6, comm, &requests[n++]);
            post(&a.s->efermi, 1, MPI_DOUBLE, peer, 7, comm, &requests[n++]);
            post(&a.s->vdif, 1, MPI_DOUBLE, peer, 8, comm, &requests[n++]);
            post(&a.s->ztotss, 1, MPI_DOUBLE, peer, 9, comm, &requests[n++]);
            post(&a.s->zcorss, 1, MPI_DOUBLE, peer, 10, comm, &requests[n++]);
            post(a.s->evec, 3, MPI_DOUBLE, peer, 11, comm, &requests[n++]);
            post(&a.s->nspin, 1, MPI_INT, peer, 12, comm, &requests[n++]);
            post(&a.s->nmc, 1, MPI_INT, peer, 13, comm, &requests[n++]);
            post(&a.s->t_vr, 1, MPI_INT, peer, 14, comm, &requests[n++]);
            post(&a.s->t_ec, 1, MPI_INT, peer, 15, comm, &requests[n++]);
            post(a.vr, count, MPI_DOUBLE, peer, 16, comm, &requests[n++]);
            post(a.rhotot, count, MPI_DOUBLE, peer, 17, comm, &requests[n++]);
            post(a.ec, count, MPI_DOUBLE, peer, 18, comm, &requests[n++]);
            post(a.nc, count, MPI_INT, peer, 19, comm, &requests[n++]);
            post(a.lc, count, MPI_INT, peer, 20, comm, &requests[n++]);
            post(a.kc, count, MPI_INT, peer, 21, comm, &requests[n++]);
        }
        MPI_Waitall(n, requests, MPI_STATUSES_IGNORE);
        /* comm end */
        seconds += MPI_Wtime() - start;
        atom_check(got, expected, t, round, rank, &checksum, &wrong);
    }
    int status = atom_finish(t, reps, nprocs, checksum, wrong, seconds);
    free(requests);
    free(out_s), free(out_vr), free(out_rhotot), free(out_ec), free(out_nc), free(out_lc), free(out_kc);
    commdir_finish();
    return status;
}
