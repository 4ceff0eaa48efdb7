/*
 * ring_broadcast: HPL's panel broadcast along a ring, overlapped with the trailing update.
 *
 *   ring_broadcast [--panel-bytes B] [--rounds R] [--slices S] [--slice-flops F]
 *
 * Round k: rank k % size (the root) fills a panel and sends it to its right neighbour with
 * MPI_Issend; every other rank receives it from its left and passes it on, with MPI_Issend,
 * until it has gone round. Meanwhile every rank runs S slices of its own update (F
 * multiply-adds each), and between two slices polls: MPI_Iprobe for the panel until it has
 * come, then MPI_Test for its own send, as HPL's "1ring" variants do. A rank whose slices are
 * done waits for what is left. An ordinary MPI program: built with mpicc it measures the MPI
 * library, built with bamboocc the Bamboo runtime.
 *
 * Rank 0 prints the time per round of the slowest rank and a checksum of every panel received
 * and of the updates (the same for any number of processes and tasks per process):
 *
 *   # ring_broadcast ranks=8 panel_bytes=65536 rounds=200 slices=20 slice_flops=20000
 *   RESULT round_us 123.4
 *   CHECK 1234567.000000 0.123456
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG = 70 };

struct options {
    long panel_bytes, rounds, slices, slice_flops;
};

static int parse(int argc, char **argv, struct options *opt)
{
    opt->panel_bytes = 64 << 10;
    opt->rounds = 200;
    opt->slices = 20;
    opt->slice_flops = 20000;
    for (int i = 1; i < argc; i++) {
        long *field = NULL;
        if (!strcmp(argv[i], "--panel-bytes")) field = &opt->panel_bytes;
        else if (!strcmp(argv[i], "--rounds")) field = &opt->rounds;
        else if (!strcmp(argv[i], "--slices")) field = &opt->slices;
        else if (!strcmp(argv[i], "--slice-flops")) field = &opt->slice_flops;
        else if (!strncmp(argv[i], "--bamboo-", 9)) continue; /* the runtime's, under plain MPI */
        if (!field || i + 1 == argc || (*field = atol(argv[++i])) < 0) {
            fprintf(stderr, "usage: ring_broadcast [--panel-bytes B] [--rounds R] [--slices S] "
                            "[--slice-flops F]\n");
            return 0;
        }
    }
    opt->panel_bytes -= opt->panel_bytes % sizeof(double);
    return 1;
}

/* One slice of the trailing update: y += a x over a small block, like a DGEMM tile. */
static void update_slice(double *y, const double *x, long flops, double a)
{
    enum { BLOCK = 512 };
    for (long done = 0; done < flops; done += BLOCK)
        for (int i = 0; i < BLOCK; i++)
            y[i] = y[i] * 0.999 + a * x[i];
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    struct options opt;
    if (!parse(argc, argv, &opt)) {
        MPI_Finalize();
        return 1;
    }
    int n = (int)(opt.panel_bytes / sizeof(double));
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    double *panel = malloc((size_t)(n > 0 ? n : 1) * sizeof *panel);
    double y[512], x[512];
    for (int i = 0; i < 512; i++) {
        y[i] = 0;
        x[i] = (rank + 1) * 0.001 * (i % 7);
    }
    double received_sum = 0;

    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    for (long round = 0; round < opt.rounds; round++) {
        int root = (int)(round % size);
        int have = rank == root, forwarded = rank == root || right == root || size == 1;
        MPI_Request send = MPI_REQUEST_NULL;
        if (rank == root) {
            for (int i = 0; i < n; i++)
                panel[i] = (double)(round * 31 + i % 101);
            if (size > 1)
                MPI_Issend(panel, n, MPI_DOUBLE, right, TAG, MPI_COMM_WORLD, &send);
        }
        for (long s = 0; s < opt.slices; s++) {
            update_slice(y, x, opt.slice_flops, 1e-3 * (double)(s + 1));
            if (!have) {
                int there = 0;
                MPI_Iprobe(left, TAG, MPI_COMM_WORLD, &there, MPI_STATUS_IGNORE);
                if (there) {
                    MPI_Recv(panel, n, MPI_DOUBLE, left, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    have = 1;
                    if (!forwarded) {
                        MPI_Issend(panel, n, MPI_DOUBLE, right, TAG, MPI_COMM_WORLD, &send);
                        forwarded = 1;
                    }
                }
            } else if (send != MPI_REQUEST_NULL) {
                int done = 0;
                MPI_Test(&send, &done, MPI_STATUS_IGNORE);
            }
        }
        if (!have) {
            MPI_Recv(panel, n, MPI_DOUBLE, left, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (!forwarded)
                MPI_Issend(panel, n, MPI_DOUBLE, right, TAG, MPI_COMM_WORLD, &send);
        }
        MPI_Wait(&send, MPI_STATUS_IGNORE);
        if (rank != root)
            for (int i = 0; i < n; i += 97)
                received_sum += panel[i];
    }
    double elapsed = MPI_Wtime() - start, slowest = 0;
    MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

    double update_sum = 0, sums[2], totals[2];
    for (int i = 0; i < 512; i++)
        update_sum += y[i];
    sums[0] = received_sum;
    sums[1] = update_sum;
    MPI_Reduce(sums, totals, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("# ring_broadcast ranks=%d panel_bytes=%ld rounds=%ld slices=%ld slice_flops=%ld\n",
               size, opt.panel_bytes, opt.rounds, opt.slices, opt.slice_flops);
        printf("RESULT round_us %.3f\n", slowest / (double)opt.rounds * 1e6);
        printf("CHECK %.6f %.6f\n", totals[0], totals[1]);
    }
    free(panel);
    MPI_Finalize();
    return 0;
}
