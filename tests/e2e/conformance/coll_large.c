/* Collectives on large messages, where implementations switch algorithms (segmented
 * pipelines, rendezvous, ring and Rabenseifner variants):
 *   MPI_Bcast            4 MB from three different roots; 1000, 16 Ki and 64 Ki+1 ints
 *   MPI_Allreduce        4 MB of doubles and of ints (MPI_SUM, exact), also IN_PLACE
 *   MPI_Reduce           4 MB of ints to a middle root
 *   MPI_Allgather        4 MB in total, split over the ranks
 *   MPI_Alltoall         4 MB per rank in total, every block different
 *   MPI_Gather, MPI_Scatter        4 MB in total
 *   MPI_Reduce_scatter_block       4 MB in total
 *   MPI_Allgather        across an intercommunicator, 80 kB per rank
 *   MPI_Bcast, MPI_Reduce  64 times in a row with 64 Ki ints: messages between tasks
 *                        that big are lent by their sender until received
 * Usage: coll_large [MB], the size of the large cases (default 4). */
#include "conformance.h"

#define WORLD MPI_COMM_WORLD

/* Rank r's element i: the sum over ranks has a closed form, so checking 4 MB against
 * 16 contributions costs no more than reading it. */
static int elem(int r, long i)
{
    return 3 * r + (int)(i % 10007);
}

static int elem_sum(int size, long i)
{
    return 3 * size * (size - 1) / 2 + size * (int)(i % 10007);
}

/* Alltoall data depends on sender, receiver and position. */
static int pair_elem(int from, int to, long i)
{
    return (int)((from * 37L + to * 11L + i) % 100003);
}

static int *alloc_ints(long n)
{
    int *p = malloc((n ? n : 1) * sizeof *p);
    if (!p)
        MPI_Abort(WORLD, 99);
    return p;
}

/* Reports the first wrong element of a large result and hashes the whole of it. */
static int check_large(const char *what, const int *got, long n, int (*want)(long, const int *), const int *ctx,
                       uint32_t *h)
{
    int bad = 0;
    for (long i = 0; i < n && !bad; i++)
        if (got[i] != want(i, ctx))
            bad = expect(0, "%s: element %ld is %d, want %d", what, i, got[i], want(i, ctx));
    *h = hash_ints(*h, got, n);
    return bad;
}

/* ctx: {rank or root, size, offset} */
static int want_elem(long i, const int *ctx)
{
    return elem(ctx[0], i + ctx[2]);
}

static int want_sum(long i, const int *ctx)
{
    return elem_sum(ctx[1], i + ctx[2]);
}

static int want_gathered(long i, const int *ctx)
{
    const long block = ctx[2];
    return elem((int)(i / block), i % block);
}

static int want_alltoall(long i, const int *ctx)
{
    const long block = ctx[2];
    return pair_elem((int)(i / block), ctx[0], i % block);
}

static int test_bcast(int rank, int size, long big)
{
    int bad = 0;
    uint32_t h = HASH_INIT;
    const long counts[] = {1000, 16384, 65537, big};
    const int roots[] = {0, size - 1, size / 2};
    for (int c = 0; c < 4; c++)
        for (int k = 0; k < 3; k++) {
            const long n = counts[c];
            const int root = roots[k];
            int *buf = alloc_ints(n);
            for (long i = 0; i < n; i++)
                buf[i] = rank == root ? elem(root, i) : -1;
            MPI_Bcast(buf, (int)n, MPI_INT, root, WORLD);
            char what[64];
            snprintf(what, sizeof what, "bcast %ld ints from %d", n, root);
            bad += check_large(what, buf, n, want_elem, (const int[]){root, size, 0}, &h);
            free(buf);
        }
    say("bcast rank %d: hash %08x", rank, h);
    return bad;
}

static int test_allreduce(int rank, int size, long big)
{
    int bad = 0;
    uint32_t h = HASH_INIT;
    const long counts[] = {1000, 65537, big};
    for (int c = 0; c < 3; c++) {
        const long n = counts[c];
        const long nd = c == 2 ? n / 2 : n; /* 4 MB of doubles too */
        int *send = alloc_ints(n), *recv = alloc_ints(n);
        double *dsend = malloc(nd * sizeof *dsend), *drecv = malloc(nd * sizeof *drecv);
        for (long i = 0; i < n; i++)
            send[i] = elem(rank, i);
        for (long i = 0; i < nd; i++)
            dsend[i] = elem(rank, i) * 0.5;
        char what[64];
        MPI_Allreduce(send, recv, (int)n, MPI_INT, MPI_SUM, WORLD);
        snprintf(what, sizeof what, "allreduce %ld ints", n);
        bad += check_large(what, recv, n, want_sum, (const int[]){rank, size, 0}, &h);

        MPI_Allreduce(dsend, drecv, (int)nd, MPI_DOUBLE, MPI_SUM, WORLD);
        for (long i = 0; i < nd; i++)
            if (drecv[i] != elem_sum(size, i) * 0.5) {
                bad += expect(0, "allreduce %ld doubles: element %ld is %g", nd, i, drecv[i]);
                break;
            }
        h = hash_bytes(h, drecv, nd * sizeof *drecv);

        memcpy(recv, send, n * sizeof *recv);
        MPI_Allreduce(MPI_IN_PLACE, recv, (int)n, MPI_INT, MPI_SUM, WORLD);
        snprintf(what, sizeof what, "allreduce in place %ld ints", n);
        bad += check_large(what, recv, n, want_sum, (const int[]){rank, size, 0}, &h);
        free(send), free(recv), free(dsend), free(drecv);
    }
    say("allreduce rank %d: hash %08x", rank, h);
    return bad;
}

static int test_reduce(int rank, int size, long big)
{
    int bad = 0;
    uint32_t h = HASH_INIT;
    const int root = size / 2;
    int *send = alloc_ints(big), *recv = alloc_ints(big);
    for (long i = 0; i < big; i++)
        send[i] = elem(rank, i);
    MPI_Reduce(send, recv, (int)big, MPI_INT, MPI_SUM, root, WORLD);
    if (rank == root)
        bad += check_large("reduce", recv, big, want_sum, (const int[]){rank, size, 0}, &h);
    /* The send buffer is only read (Bamboo combines into the root's receive buffer and sends
     * a leaf's operand from where it lies). */
    for (long i = 0; i < big; i++)
        if (send[i] != elem(rank, i) && bad++ < 3)
            say("reduce rank %d: send[%ld] = %d after the call, was %d", rank, i, send[i], elem(rank, i));
    free(send), free(recv);
    say("reduce rank %d: hash %08x", rank, h);
    return bad;
}

static int test_allgather(int rank, int size, long big)
{
    int bad = 0;
    uint32_t h = HASH_INIT;
    const long block = big / size;
    int *send = alloc_ints(block), *recv = alloc_ints(block * size);
    for (long i = 0; i < block; i++)
        send[i] = elem(rank, i);
    MPI_Allgather(send, (int)block, MPI_INT, recv, (int)block, MPI_INT, WORLD);
    bad += check_large("allgather", recv, block * size, want_gathered, (const int[]){rank, size, (int)block}, &h);
    free(send), free(recv);
    say("allgather rank %d: hash %08x", rank, h);
    return bad;
}

static int test_alltoall(int rank, int size, long big)
{
    int bad = 0;
    uint32_t h = HASH_INIT;
    const long block = big / size;
    int *send = alloc_ints(block * size), *recv = alloc_ints(block * size);
    for (int d = 0; d < size; d++)
        for (long i = 0; i < block; i++)
            send[d * block + i] = pair_elem(rank, d, i);
    MPI_Alltoall(send, (int)block, MPI_INT, recv, (int)block, MPI_INT, WORLD);
    bad += check_large("alltoall", recv, block * size, want_alltoall, (const int[]){rank, size, (int)block}, &h);
    free(send), free(recv);
    say("alltoall rank %d: hash %08x", rank, h);
    return bad;
}

static int test_gather_scatter(int rank, int size, long big)
{
    int bad = 0;
    uint32_t h = HASH_INIT;
    const long block = big / size;
    const int groot = size - 1, sroot = 0;
    int *mine = alloc_ints(block), *all = alloc_ints(block * size);
    for (long i = 0; i < block; i++)
        mine[i] = elem(rank, i);
    MPI_Gather(mine, (int)block, MPI_INT, all, (int)block, MPI_INT, groot, WORLD);
    if (rank == groot)
        bad += check_large("gather", all, block * size, want_gathered, (const int[]){rank, size, (int)block}, &h);

    if (rank == sroot)
        for (int d = 0; d < size; d++)
            for (long i = 0; i < block; i++)
                all[d * block + i] = elem(d, i + 5);
    MPI_Scatter(all, (int)block, MPI_INT, mine, (int)block, MPI_INT, sroot, WORLD);
    bad += check_large("scatter", mine, block, want_elem, (const int[]){rank, size, 5}, &h);
    free(mine), free(all);
    say("gather_scatter rank %d: hash %08x", rank, h);
    return bad;
}

static int test_reduce_scatter_block(int rank, int size, long big)
{
    int bad = 0;
    uint32_t h = HASH_INIT;
    const long block = big / size;
    int *send = alloc_ints(block * size), *recv = alloc_ints(block);
    for (long i = 0; i < block * size; i++)
        send[i] = elem(rank, i);
    MPI_Reduce_scatter_block(send, recv, (int)block, MPI_INT, MPI_SUM, WORLD);
    bad += check_large("reduce_scatter_block", recv, block, want_sum, (const int[]){rank, size, (int)(rank * block)},
                       &h);
    free(send), free(recv);
    say("reduce_scatter_block rank %d: hash %08x", rank, h);
    return bad;
}

/* Many large collectives in a row, on one buffer: each lends (or sends) the previous
 * result, so a message taken from a stale buffer, or a lent send the runtime forgot to
 * forget, shows here. */
static int test_repeated(int rank, int size)
{
    enum { N = 65536, ROUNDS = 64 };
    int *buf = alloc_ints(N), *sum = alloc_ints(N);
    uint32_t h = HASH_INIT;
    int bad = 0;
    for (int round = 0; round < ROUNDS; round++) {
        const int root = round % size;
        for (long i = 0; i < N; i++)
            buf[i] = rank == root ? elem(root, i + round) : -1;
        MPI_Bcast(buf, N, MPI_INT, root, WORLD);
        for (long i = 0; i < N; i++)
            buf[i] = elem(rank, i + round);
        MPI_Reduce(buf, sum, N, MPI_INT, MPI_SUM, root, WORLD);
        if (rank == root)
            for (long i = 0; i < N; i += 4099)
                if (sum[i] != elem_sum(size, i + round) && bad++ < 3)
                    say("repeated round %d: sum[%ld] = %d, want %d", round, i, sum[i], elem_sum(size, i + round));
        h = hash_int(h, buf[round]);
    }
    say("repeated rank %d: hash %08x", rank, h);
    free(buf);
    free(sum);
    return bad;
}

/* An allgather across an intercommunicator of the two halves: each group first gathers its
 * members' blocks, of sizes the leader does not know, at its leader; blocks that large come
 * lent from tasks of the leader's process. */
static int test_inter_allgather(int rank, int size)
{
    if (size < 2)
        return 0;
    enum { N = 20000 };
    MPI_Comm half, inter;
    const int low = rank < size / 2;
    MPI_Comm_split(WORLD, low, rank, &half);
    MPI_Intercomm_create(half, 0, WORLD, low ? size / 2 : 0, 7, &inter);
    int remote = 0;
    MPI_Comm_remote_size(inter, &remote);
    int *mine = alloc_ints(N), *theirs = alloc_ints((long)N * remote);
    for (long i = 0; i < N; i++)
        mine[i] = elem(rank, i);
    MPI_Allgather(mine, N, MPI_INT, theirs, N, MPI_INT, inter);
    const int first = low ? size / 2 : 0;
    int bad = 0;
    uint32_t h = HASH_INIT;
    for (int r = 0; r < remote; r++)
        for (long i = 0; i < N; i += 997) {
            if (theirs[(long)r * N + i] != elem(first + r, i) && bad++ < 3)
                say("inter allgather: block %d element %ld = %d, want %d", r, i, theirs[(long)r * N + i],
                    elem(first + r, i));
            h = hash_int(h, theirs[(long)r * N + i]);
        }
    say("inter allgather rank %d: hash %08x", rank, h);
    free(mine);
    free(theirs);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    return bad;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(WORLD, &rank);
    MPI_Comm_size(WORLD, &size);
    const double mb = argc > 1 ? atof(argv[1]) : 4.0;
    const long big = (long)(mb * 1024 * 1024 / sizeof(int)) + 3; /* not a round number */

    int bad = 0;
    bad += test_bcast(rank, size, big);
    bad += test_allreduce(rank, size, big);
    bad += test_reduce(rank, size, big);
    bad += test_allgather(rank, size, big);
    bad += test_alltoall(rank, size, big);
    bad += test_gather_scatter(rank, size, big);
    bad += test_reduce_scatter_block(rank, size, big);
    bad += test_repeated(rank, size);
    bad += test_inter_allgather(rank, size);

    const int status = report_failures(rank, bad);
    MPI_Finalize();
    return status;
}
