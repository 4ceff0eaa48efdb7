/* Single-atom data as WL-LSMS sends it by hand (seed 003, Listing 4): rank 0 packs every
 * scalar and matrix of an atom into one buffer (MPI_Pack), sends it with MPI_Send, and the
 * receiver takes it with MPI_Recv and unpacks it field by field; one atom after the other. */
#include "atom.h"

static struct atom_scalars scalars;
static double vr[2 * ATOM_T_MAX], rhotot[2 * ATOM_T_MAX], ec[2 * ATOM_T_MAX];
static int nc[2 * ATOM_T_MAX], lc[2 * ATOM_T_MAX], kc[2 * ATOM_T_MAX];

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
    /* The pack buffer: the size MPI says the fields take packed. */
    int s = 0, part;
    MPI_Comm comm = MPI_COMM_WORLD;
    MPI_Pack_size(7, MPI_INT, comm, &part), s += part;
    MPI_Pack_size(10, MPI_DOUBLE, comm, &part), s += part;
    MPI_Pack_size(80, MPI_CHAR, comm, &part), s += part;
    MPI_Pack_size((int)(3 * m), MPI_DOUBLE, comm, &part), s += part;
    MPI_Pack_size((int)(3 * m), MPI_INT, comm, &part), s += part;
    s += 64 * (int)sizeof(double);   /* each call may round up */
    char *buf = malloc(s);
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
        for (int to = 1; to < nprocs; to++) {
            int from = 0;
            if (rank == from) {
                struct atom_view a = atom_at(&out_s[to], out_vr, out_rhotot, out_ec, out_nc, out_lc, out_kc, to * m);
                int pos = 0, rows;
                MPI_Pack(&a.s->local_id, 1, MPI_INT, buf, s, &pos, comm);
                MPI_Pack(&a.s->jmt, 1, MPI_INT, buf, s, &pos, comm);
                MPI_Pack(&a.s->jws, 1, MPI_INT, buf, s, &pos, comm);
                MPI_Pack(&a.s->xstart, 1, MPI_DOUBLE, buf, s, &pos, comm);
                MPI_Pack(&a.s->rmt, 1, MPI_DOUBLE, buf, s, &pos, comm);
                MPI_Pack(a.s->header, 80, MPI_CHAR, buf, s, &pos, comm);
                MPI_Pack(&a.s->alat, 1, MPI_DOUBLE, buf, s, &pos, comm);
                MPI_Pack(&a.s->efermi, 1, MPI_DOUBLE, buf, s, &pos, comm);
                MPI_Pack(&a.s->vdif, 1, MPI_DOUBLE, buf, s, &pos, comm);
                MPI_Pack(&a.s->ztotss, 1, MPI_DOUBLE, buf, s, &pos, comm);
                MPI_Pack(&a.s->zcorss, 1, MPI_DOUBLE, buf, s, &pos, comm);
                MPI_Pack(a.s->evec, 3, MPI_DOUBLE, buf, s, &pos, comm);
                MPI_Pack(&a.s->nspin, 1, MPI_INT, buf, s, &pos, comm);
                MPI_Pack(&a.s->nmc, 1, MPI_INT, buf, s, &pos, comm);
                rows = a.s->t_vr;
                MPI_Pack(&rows, 1, MPI_INT, buf, s, &pos, comm);
                MPI_Pack(a.vr, 2 * rows, MPI_DOUBLE, buf, s, &pos, comm);
                MPI_Pack(a.rhotot, 2 * rows, MPI_DOUBLE, buf, s, &pos, comm);
                rows = a.s->t_ec;
                MPI_Pack(&rows, 1, MPI_INT, buf, s, &pos, comm);
                MPI_Pack(a.ec, 2 * rows, MPI_DOUBLE, buf, s, &pos, comm);
                MPI_Pack(a.nc, 2 * rows, MPI_INT, buf, s, &pos, comm);
                MPI_Pack(a.lc, 2 * rows, MPI_INT, buf, s, &pos, comm);
                MPI_Pack(a.kc, 2 * rows, MPI_INT, buf, s, &pos, comm);
                MPI_Send(buf, pos, MPI_PACKED, to, 0, comm);
            }
            if (rank == to) {
                MPI_Status status;
                int pos = 0, rows;
                MPI_Recv(buf, s, MPI_PACKED, from, 0, comm, &status);
                MPI_Unpack(buf, s, &pos, &scalars.local_id, 1, MPI_INT, comm);
                MPI_Unpack(buf, s, &pos, &scalars.jmt, 1, MPI_INT, comm);
                MPI_Unpack(buf, s, &pos, &scalars.jws, 1, MPI_INT, comm);
                MPI_Unpack(buf, s, &pos, &scalars.xstart, 1, MPI_DOUBLE, comm);
                MPI_Unpack(buf, s, &pos, &scalars.rmt, 1, MPI_DOUBLE, comm);
                MPI_Unpack(buf, s, &pos, scalars.header, 80, MPI_CHAR, comm);
                MPI_Unpack(buf, s, &pos, &scalars.alat, 1, MPI_DOUBLE, comm);
                MPI_Unpack(buf, s, &pos, &scalars.efermi, 1, MPI_DOUBLE, comm);
                MPI_Unpack(buf, s, &pos, &scalars.vdif, 1, MPI_DOUBLE, comm);
                MPI_Unpack(buf, s, &pos, &scalars.ztotss, 1, MPI_DOUBLE, comm);
                MPI_Unpack(buf, s, &pos, &scalars.zcorss, 1, MPI_DOUBLE, comm);
                MPI_Unpack(buf, s, &pos, scalars.evec, 3, MPI_DOUBLE, comm);
                MPI_Unpack(buf, s, &pos, &scalars.nspin, 1, MPI_INT, comm);
                MPI_Unpack(buf, s, &pos, &scalars.nmc, 1, MPI_INT, comm);
                MPI_Unpack(buf, s, &pos, &rows, 1, MPI_INT, comm);
                scalars.t_vr = rows;
                MPI_Unpack(buf, s, &pos, vr, 2 * rows, MPI_DOUBLE, comm);
                MPI_Unpack(buf, s, &pos, rhotot, 2 * rows, MPI_DOUBLE, comm);
                MPI_Unpack(buf, s, &pos, &rows, 1, MPI_INT, comm);
                scalars.t_ec = rows;
                MPI_Unpack(buf, s, &pos, ec, 2 * rows, MPI_DOUBLE, comm);
                MPI_Unpack(buf, s, &pos, nc, 2 * rows, MPI_INT, comm);
                MPI_Unpack(buf, s, &pos, lc, 2 * rows, MPI_INT, comm);
                MPI_Unpack(buf, s, &pos, kc, 2 * rows, MPI_INT, comm);
            }
        }
        /* comm end */
        seconds += MPI_Wtime() - start;
        atom_check(got, expected, t, round, rank, &checksum, &wrong);
    }
    int status = atom_finish(t, reps, nprocs, checksum, wrong, seconds);
    free(buf);
    free(out_s), free(out_vr), free(out_rhotot), free(out_ec), free(out_nc), free(out_lc), free(out_kc);
    commdir_finish();
    return status;
}
