/* Floating-point reductions whose result depends on the order of the additions:
 * MPI_Reduce (roots 0 and the last rank), MPI_Allreduce, MPI_Scan and
 * MPI_Reduce_scatter_block with MPI_SUM on doubles drawn from a fixed generator, with
 * magnitudes from 2^-20 to 2^20, so that a different association changes the last bits.
 *
 * Each line is "<what>: <hex floats>" (printed with %a, so exactly) or "<what> bits:
 * <hash of every result bit>". MPI only bounds such results, so test_conformance.py
 * compares them with plain MPI within a tolerance, and requires Bamboo to print the very
 * same lines every time it runs at a given processes x VF, and the same Allreduce bits
 * on every rank. The program itself checks each result against a serial sum, with a
 * tolerance, and exits non-zero if one is off. */
#include "conformance.h"

#define WORLD MPI_COMM_WORLD
#define N 1000    /* elements reduced by Reduce, Allreduce, Scan */
#define BLOCK 64  /* elements per rank in Reduce_scatter_block */
#define TOLERANCE 1e-12

/* Rank r's element i: a 64-bit LCG step from a seed per (r, i), turned into a positive
 * double with a random binary exponent. */
static double operand(int r, int i)
{
    uint64_t x = (uint64_t)(r + 1) * 0x9E3779B97F4A7C15ull ^ (uint64_t)(i + 1) * 0xD1B54A32D192ED03ull;
    for (int k = 0; k < 3; k++)
        x = x * 6364136223846793005ull + 1442695040888963407ull;
    double v = 0.5 + (double)(x >> 11) * 0x1p-53;
    /* times 2^e, e in -20..20, by exact doublings (no libm: the builds do not link it) */
    for (int e = (int)((x >> 3) % 41) - 20; e != 0; e += e > 0 ? -1 : 1)
        v = e > 0 ? v * 2 : v * 0.5;
    return v;
}

/* The serial sum over ranks [0, upto), for the tolerance check only. */
static double serial_sum(int upto, int i)
{
    double s = 0;
    for (int r = 0; r < upto; r++)
        s += operand(r, i);
    return s;
}

/* Prints "<what>: total e0 e1 elast" and "<what> bits: hash", and checks every element
 * against the serial sum over the ranks [0, upto). */
static int report(const char *what, const double *v, int n, int upto, int offset)
{
    int bad = 0;
    double total = 0; /* summed here, in a fixed order: a function of MPI's bits */
    for (int i = 0; i < n; i++) {
        total += v[i];
        const double want = serial_sum(upto, offset + i);
        const double error = v[i] > want ? v[i] - want : want - v[i];
        if (!bad && error > TOLERANCE * want)
            bad = expect(0, "%s: element %d is %a, the serial sum is %a", what, i, v[i], want);
    }
    say("%s: %a %a %a %a", what, total, v[0], v[1], v[n - 1]);
    say("%s bits: %08x", what, hash_bytes(HASH_INIT, v, n * sizeof *v));
    return bad;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(WORLD, &rank);
    MPI_Comm_size(WORLD, &size);

    double *send = malloc(N * sizeof *send), *recv = malloc(N * sizeof *recv);
    for (int i = 0; i < N; i++)
        send[i] = operand(rank, i);
    int bad = 0;
    char what[64];

    const int roots[2] = {0, size - 1};
    for (int k = 0; k < (size > 1 ? 2 : 1); k++) {
        MPI_Reduce(send, recv, N, MPI_DOUBLE, MPI_SUM, roots[k], WORLD);
        if (rank == roots[k]) {
            snprintf(what, sizeof what, "reduce root %d", roots[k]);
            bad += report(what, recv, N, size, 0);
        }
    }

    MPI_Allreduce(send, recv, N, MPI_DOUBLE, MPI_SUM, WORLD);
    snprintf(what, sizeof what, "allreduce rank %d", rank);
    bad += report(what, recv, N, size, 0);

    MPI_Scan(send, recv, N, MPI_DOUBLE, MPI_SUM, WORLD);
    snprintf(what, sizeof what, "scan rank %d", rank);
    bad += report(what, recv, N, rank + 1, 0);

    double *all = malloc(BLOCK * size * sizeof *all);
    for (int i = 0; i < BLOCK * size; i++)
        all[i] = operand(rank, i);
    MPI_Reduce_scatter_block(all, recv, BLOCK, MPI_DOUBLE, MPI_SUM, WORLD);
    snprintf(what, sizeof what, "reduce_scatter_block rank %d", rank);
    bad += report(what, recv, BLOCK, size, rank * BLOCK);

    free(send), free(recv), free(all);
    const int status = report_failures(rank, bad);
    MPI_Finalize();
    return status;
}
