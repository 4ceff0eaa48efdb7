/*
 * collectives: time MPI's collective operations at a small, a medium and a large message size.
 *
 *   collectives [--only NAME,...] [--sizes small,medium,large] [--iterations N] [--time SECONDS]
 *
 * An ordinary MPI program: built with mpicc it measures the MPI library, built with
 * bamboocc the Bamboo runtime. Arguments starting with --bamboo- belong to the runtime,
 * which removes them before main; plain MPI passes them through, so they are skipped here.
 *
 * One measurement: the collective runs once and its result is checked, then in doubling
 * batches until a batch lasts an eighth of the target time (warm-up and calibration in
 * one; with --iterations N, N/10 + 1 warm-up iterations instead), then K iterations back
 * to back after a single barrier. The time per iteration is the slowest rank's loop time
 * divided by K: a collective is over when its last rank is done with it.
 *
 * Rank 0 prints a header and one line per measurement:
 *
 *   # collectives ranks=64 time=0.2 iterations=auto
 *   RESULT bcast 1048576 B: 812.345 us iterations=246
 *
 * The bytes are the whole message for barrier (0), bcast, reduce and allreduce (doubles,
 * summed), each rank's block for gather, scatter and allgather(v), and each pair's block
 * for alltoall(v). A wrong result adds a line "ERROR <name> <bytes> B: ..." and makes
 * the exit status 1.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum op { BARRIER, BCAST, REDUCE, ALLREDUCE, GATHER, SCATTER, ALLGATHER, ALLGATHERV,
          ALLTOALL, ALLTOALLV, NOPS };

static const char *const op_names[NOPS] = {
    "barrier", "bcast", "reduce", "allreduce", "gather", "scatter", "allgather",
    "allgatherv", "alltoall", "alltoallv",
};

enum { SMALL, MEDIUM, LARGE, NSIZES };

static const char *const size_names[NSIZES] = { "small", "medium", "large" };

/*
 * Bytes per message, block or pair [small, medium, large]. The large gather-type and alltoall
 * blocks are smaller than the 1 MiB messages because their buffers hold one block per
 * rank: at 64 ranks a gather root or allgather receiver holds 4 MiB, an alltoall rank
 * 1 MiB each way, and Bamboo keeps all the tasks of a process in one address space.
 * The barrier has no payload and counts as small. Medium (a quarter of large) is measured
 * only on request (--sizes).
 */
static const size_t op_bytes[NOPS][NSIZES] = {
    [BARRIER] = { 0, 0, 0 },
    [BCAST] = { 8, 256 << 10, 1 << 20 },
    [REDUCE] = { 8, 256 << 10, 1 << 20 },
    [ALLREDUCE] = { 8, 256 << 10, 1 << 20 },
    [GATHER] = { 8, 16 << 10, 64 << 10 },
    [SCATTER] = { 8, 16 << 10, 64 << 10 },
    [ALLGATHER] = { 8, 16 << 10, 64 << 10 },
    [ALLGATHERV] = { 8, 16 << 10, 64 << 10 },
    [ALLTOALL] = { 8, 4 << 10, 16 << 10 },
    [ALLTOALLV] = { 8, 4 << 10, 16 << 10 },
};

enum { ROOT = 0 };
/* The dst of a block every rank receives alike (bcast, allgather). */
enum { EVERYONE = -1 };

#define MIN_ITERATIONS 5L
#define MAX_ITERATIONS (1L << 22)

struct options {
    int only[NOPS];
    int sizes[NSIZES];
    long iterations; /* 0: calibrate */
    double seconds;  /* target length of the timed loop */
};

struct run {
    enum op op;
    size_t bytes;
    int rank, size;
    unsigned char *send, *recv;
    /*
     * Where rank k's block lies in a buffer of one block per rank. The v-variants store
     * the blocks in reverse rank order, so an implementation that ignores displs is
     * caught by the check rather than timed.
     */
    int *counts, *displs;
};

static void *allocate(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "collectives: out of memory (%zu bytes)\n", bytes);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

/*
 * Byte i of the block rank src sends to rank dst. Distinct per (src, dst), so that a
 * block delivered to the wrong place, or from the wrong rank, shows.
 */
static unsigned char pattern(int src, int dst, size_t i)
{
    uint32_t x = (uint32_t)src * 2654435761u ^ (uint32_t)(dst + 1) * 40503u
                 ^ (uint32_t)i * 2246822519u;
    return (unsigned char)(x >> 24);
}

static void fill_block(unsigned char *p, size_t n, int src, int dst)
{
    for (size_t i = 0; i < n; i++)
        p[i] = pattern(src, dst, i);
}

static long wrong_in_block(const unsigned char *p, size_t n, int src, int dst)
{
    long wrong = 0;
    for (size_t i = 0; i < n; i++)
        wrong += p[i] != pattern(src, dst, i);
    return wrong;
}

/* Element i of rank r's reduction input; small integers, so any summation order is exact. */
static double addend(int r, size_t i)
{
    return r + (double)(i % 8);
}

static struct run prepare(enum op op, size_t bytes, int rank, int size)
{
    struct run r = { .op = op, .bytes = bytes, .rank = rank, .size = size };
    const size_t all = (size_t)size * bytes;
    const int root = rank == ROOT;
    size_t send = 0, recv = 0;
    switch (op) {
    case BARRIER: break;
    case BCAST: send = root ? bytes : 0; recv = root ? 0 : bytes; break;
    case REDUCE: send = bytes; recv = root ? bytes : 0; break;
    case ALLREDUCE: send = recv = bytes; break;
    case GATHER: send = bytes; recv = root ? all : 0; break;
    case SCATTER: send = root ? all : 0; recv = bytes; break;
    case ALLGATHER: case ALLGATHERV: send = bytes; recv = all; break;
    case ALLTOALL: case ALLTOALLV: send = recv = all; break;
    case NOPS: break;
    }
    r.send = allocate(send);
    r.recv = allocate(recv);
    r.counts = allocate(size * sizeof *r.counts);
    r.displs = allocate(size * sizeof *r.displs);
    const int reversed = op == ALLGATHERV || op == ALLTOALLV;
    for (int k = 0; k < size; k++) {
        r.counts[k] = (int)bytes;
        r.displs[k] = (int)((reversed ? size - 1 - k : k) * bytes);
    }
    return r;
}

static void release(struct run *r)
{
    free(r->send);
    free(r->recv);
    free(r->counts);
    free(r->displs);
}

static void call(const struct run *r)
{
    const MPI_Comm world = MPI_COMM_WORLD;
    const int n = (int)r->bytes;
    const int doubles = n / (int)sizeof(double);
    switch (r->op) {
    case BARRIER:
        MPI_Barrier(world);
        break;
    case BCAST:
        MPI_Bcast(r->rank == ROOT ? r->send : r->recv, n, MPI_BYTE, ROOT, world);
        break;
    case REDUCE:
        MPI_Reduce(r->send, r->recv, doubles, MPI_DOUBLE, MPI_SUM, ROOT, world);
        break;
    case ALLREDUCE:
        MPI_Allreduce(r->send, r->recv, doubles, MPI_DOUBLE, MPI_SUM, world);
        break;
    case GATHER:
        MPI_Gather(r->send, n, MPI_BYTE, r->recv, n, MPI_BYTE, ROOT, world);
        break;
    case SCATTER:
        MPI_Scatter(r->send, n, MPI_BYTE, r->recv, n, MPI_BYTE, ROOT, world);
        break;
    case ALLGATHER:
        MPI_Allgather(r->send, n, MPI_BYTE, r->recv, n, MPI_BYTE, world);
        break;
    case ALLGATHERV:
        MPI_Allgatherv(r->send, n, MPI_BYTE, r->recv, r->counts, r->displs, MPI_BYTE, world);
        break;
    case ALLTOALL:
        MPI_Alltoall(r->send, n, MPI_BYTE, r->recv, n, MPI_BYTE, world);
        break;
    case ALLTOALLV:
        MPI_Alltoallv(r->send, r->counts, r->displs, MPI_BYTE,
                      r->recv, r->counts, r->displs, MPI_BYTE, world);
        break;
    case NOPS:
        break;
    }
}

/*
 * Inputs for the check. The timed iterations reuse them: every iteration then moves the
 * same data, and a bcast receiver overwrites its buffer with what it already holds.
 */
static void fill(struct run *r)
{
    const size_t b = r->bytes;
    double *in = (double *)r->send;
    switch (r->op) {
    case BARRIER:
        break;
    case BCAST:
        if (r->rank == ROOT)
            fill_block(r->send, b, ROOT, EVERYONE);
        else
            memset(r->recv, 0, b);
        break;
    case REDUCE:
    case ALLREDUCE:
        for (size_t i = 0; i < b / sizeof(double); i++)
            in[i] = addend(r->rank, i);
        break;
    case GATHER:
        fill_block(r->send, b, r->rank, ROOT);
        break;
    case SCATTER:
        if (r->rank == ROOT)
            for (int k = 0; k < r->size; k++)
                fill_block(r->send + r->displs[k], b, ROOT, k);
        break;
    case ALLGATHER:
    case ALLGATHERV:
        fill_block(r->send, b, r->rank, EVERYONE);
        break;
    case ALLTOALL:
    case ALLTOALLV:
        for (int k = 0; k < r->size; k++)
            fill_block(r->send + r->displs[k], b, r->rank, k);
        break;
    case NOPS:
        break;
    }
}

/* Bytes (reductions: doubles) of this rank's result that differ from what MPI promises. */
static long check(const struct run *r)
{
    const size_t b = r->bytes;
    const double *out = (const double *)r->recv;
    long wrong = 0;
    switch (r->op) {
    case BARRIER:
        break;
    case BCAST:
        if (r->rank != ROOT)
            wrong = wrong_in_block(r->recv, b, ROOT, EVERYONE);
        break;
    case REDUCE:
    case ALLREDUCE:
        if (r->op == ALLREDUCE || r->rank == ROOT)
            for (size_t i = 0; i < b / sizeof(double); i++) {
                double expected = 0;
                for (int k = 0; k < r->size; k++)
                    expected += addend(k, i);
                wrong += out[i] != expected;
            }
        break;
    case GATHER:
        if (r->rank == ROOT)
            for (int k = 0; k < r->size; k++)
                wrong += wrong_in_block(r->recv + r->displs[k], b, k, ROOT);
        break;
    case SCATTER:
        wrong = wrong_in_block(r->recv, b, ROOT, r->rank);
        break;
    case ALLGATHER:
    case ALLGATHERV:
        for (int k = 0; k < r->size; k++)
            wrong += wrong_in_block(r->recv + r->displs[k], b, k, EVERYONE);
        break;
    case ALLTOALL:
    case ALLTOALLV:
        for (int k = 0; k < r->size; k++)
            wrong += wrong_in_block(r->recv + r->displs[k], b, k, r->rank);
        break;
    case NOPS:
        break;
    }
    return wrong;
}

/*
 * No barrier between iterations: back-to-back calls are how applications use
 * collectives, and a barrier would add its own latency to every sample.
 */
static double time_loop(const struct run *r, long iterations)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    for (long k = 0; k < iterations; k++)
        call(r);
    return MPI_Wtime() - start;
}

/* All ranks must run the same number of iterations, hence the slowest rank's view. */
static long calibrate(const struct run *r, double seconds)
{
    for (long n = 1;; n *= 2) {
        double mine = time_loop(r, n), slowest;
        MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (slowest >= seconds / 8 || n >= MAX_ITERATIONS) {
            double k = seconds / (slowest / n);
            return k < MIN_ITERATIONS ? MIN_ITERATIONS
                 : k > MAX_ITERATIONS ? MAX_ITERATIONS : (long)k;
        }
    }
}

/* Returns, on the root, whether the result was wrong. */
static int measure(enum op op, size_t bytes, const struct options *opt, int rank, int size)
{
    struct run r = prepare(op, bytes, rank, size);
    fill(&r);
    call(&r);
    long wrong = check(&r), wrong_total = 0;
    MPI_Reduce(&wrong, &wrong_total, 1, MPI_LONG, MPI_SUM, ROOT, MPI_COMM_WORLD);

    long iterations = opt->iterations;
    if (iterations > 0)
        time_loop(&r, iterations / 10 + 1);
    else
        iterations = calibrate(&r, opt->seconds);
    double mine = time_loop(&r, iterations), slowest = 0;
    MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, ROOT, MPI_COMM_WORLD);

    if (rank == ROOT) {
        printf("RESULT %s %zu B: %.3f us iterations=%ld\n",
               op_names[op], bytes, slowest / iterations * 1e6, iterations);
        if (wrong_total)
            printf("ERROR %s %zu B: %ld %s differ from the expected result\n",
                   op_names[op], bytes, wrong_total,
                   op == REDUCE || op == ALLREDUCE ? "doubles" : "bytes");
        fflush(stdout);
    }
    release(&r);
    return wrong_total != 0;
}

/*
 * Sets flags[i] for each comma-separated word of list that names[i] spells; 0 if a word
 * matches nothing. (No strtok: under Bamboo the tasks of a process share its state.)
 */
static int parse_list(const char *list, const char *const *names, int n, int *flags)
{
    memset(flags, 0, n * sizeof *flags);
    for (const char *word = list;;) {
        size_t len = strcspn(word, ",");
        int found = 0;
        for (int i = 0; i < n; i++)
            if (strlen(names[i]) == len && strncmp(word, names[i], len) == 0)
                flags[i] = found = 1;
        if (!found)
            return 0;
        if (!word[len])
            return 1;
        word += len + 1;
    }
}

static void usage(FILE *to)
{
    fprintf(to, "usage: collectives [--only NAME,...] [--sizes small,medium,large] "
                "[--iterations N] [--time SECONDS]\n  NAME:");
    for (int i = 0; i < NOPS; i++)
        fprintf(to, " %s", op_names[i]);
    fprintf(to, "\n  --iterations N  timed iterations per measurement (default: as many as"
                " fill --time)\n  --time SECONDS  target length of each timed loop"
                " (default 0.2)\n");
}

/* Returns -1 to go on, else the exit status. */
static int parse(int argc, char **argv, struct options *opt, int rank)
{
    for (int i = 0; i < NOPS; i++)
        opt->only[i] = 1;
    opt->sizes[SMALL] = opt->sizes[LARGE] = 1;
    opt->iterations = 0;
    opt->seconds = 0.2;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        const char *error = NULL;
        char *end = NULL;
        if (strncmp(arg, "--bamboo-", 9) == 0) {
            /* This program takes no operands, so a word after a runtime option is its value. */
            if (!strchr(arg, '=') && value && value[0] != '-')
                i++;
            continue;
        }
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            if (rank == ROOT)
                usage(stdout);
            return 0;
        }
        if (strcmp(arg, "--only") == 0)
            error = value && parse_list(value, op_names, NOPS, opt->only)
                  ? NULL : "expects collectives from the list below";
        else if (strcmp(arg, "--sizes") == 0)
            error = value && parse_list(value, size_names, NSIZES, opt->sizes)
                  ? NULL : "expects small, large or small,large";
        else if (strcmp(arg, "--iterations") == 0)
            error = value && (opt->iterations = strtol(value, &end, 10)) > 0 && !*end
                  ? NULL : "expects a positive count";
        else if (strcmp(arg, "--time") == 0)
            error = value && (opt->seconds = strtod(value, &end)) > 0 && !*end
                  ? NULL : "expects a positive number of seconds";
        else
            error = "unknown option";
        if (error) {
            if (rank == ROOT) {
                fprintf(stderr, "collectives: %s %s\n", arg, error);
                usage(stderr);
            }
            return 2;
        }
        i++;
    }
    return -1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    struct options opt;
    int status = parse(argc, argv, &opt, rank);
    if (status >= 0) {
        MPI_Finalize();
        return status;
    }
    if (rank == ROOT) {
        printf("# collectives ranks=%d time=%g iterations=", size, opt.seconds);
        if (opt.iterations)
            printf("%ld\n", opt.iterations);
        else
            printf("auto\n");
        fflush(stdout);
    }

    int failed = 0;
    for (int op = 0; op < NOPS; op++)
        for (int s = 0; s < NSIZES; s++) {
            if (!opt.only[op] || !opt.sizes[s] || (op == BARRIER && s != SMALL))
                continue;
            failed |= measure((enum op)op, op_bytes[op][s], &opt, rank, size);
        }

    MPI_Finalize();
    return failed;
}
