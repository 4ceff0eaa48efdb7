/* Nonblocking collectives and MPI_Alltoallw.
 *   each of MPI_Ibarrier, Ibcast, Ireduce, Iallreduce, Igather(v), Iscatter(v),
 *   Iallgather(v), Ialltoall(v,w), Ireduce_scatter(_block), Iscan, Iexscan gives what its
 *   blocking twin gives (checked here, and a checksum printed)
 *   many in progress at once on one communicator, completed in the opposite order, by
 *   MPI_Waitall, MPI_Testall polling, MPI_Waitany and MPI_Waitsome
 *   point-to-point messages exchanged while a collective is in progress
 *   a rank that only polls MPI_Test on its MPI_Ibarrier while the others wait
 *   nonblocking collectives on a split communicator, with roots other than 0
 *   two MPI_Comm_idup in progress together with an MPI_Ibarrier
 *   MPI_Alltoallw with a different datatype for every peer (contiguous ints and strided
 *   vectors), and with MPI_IN_PLACE; with contiguous datatypes only, blocks in descending
 *   order, and with MPI_IN_PLACE */
#include "conformance.h"

#define WORLD MPI_COMM_WORLD
#define N 6

static int check_same(const char *what, int rank, const int *got, const int *want, int n)
{
    uint32_t h = hash_ints(HASH_INIT, got, (size_t)n);
    say("rank %d: %s hash %08x", rank, what, h);
    return check_ints(what, got, want, (size_t)n);
}

/* Every nonblocking collective against its blocking twin on `comm`, with `root`. */
static int each_against_blocking(MPI_Comm comm, const char *name, int root)
{
    int rank, size, bad = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int *in = malloc(sizeof(int) * N * size), *out = malloc(sizeof(int) * N * size),
        *want = malloc(sizeof(int) * N * size), *counts = malloc(sizeof(int) * size),
        *displs = malloc(sizeof(int) * size), *pair_counts = malloc(sizeof(int) * size);
    char what[64];
    MPI_Request request;
    for (int i = 0; i < N * size; i++)
        in[i] = value_of(rank, i, 5);
    for (int r = 0; r < size; r++) {
        counts[r] = 1 + r % N;
        pair_counts[r] = 1 + (r + rank) % N;  /* what this rank and r exchange, either way */
        displs[r] = r * N;
    }
#define BOTH(label, n, blocking, nonblocking)                                     \
    do {                                                                           \
        memset(want, 0, sizeof(int) * N * size);                                   \
        memset(out, 0, sizeof(int) * N * size);                                    \
        blocking;                                                                  \
        nonblocking;                                                               \
        MPI_Wait(&request, MPI_STATUS_IGNORE);                                     \
        snprintf(what, sizeof what, "%s %s", name, label);                         \
        bad += check_same(what, rank, out, want, n);                               \
    } while (0)

    MPI_Ibarrier(comm, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    memcpy(want, in, sizeof(int) * N);
    memcpy(out, in, sizeof(int) * N);
    MPI_Bcast(want, N, MPI_INT, root, comm);
    MPI_Ibcast(out, N, MPI_INT, root, comm, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    snprintf(what, sizeof what, "%s ibcast", name);
    bad += check_same(what, rank, out, want, N);
    BOTH("ireduce", rank == root ? N : 0, MPI_Reduce(in, want, N, MPI_INT, MPI_SUM, root, comm),
         MPI_Ireduce(in, out, N, MPI_INT, MPI_SUM, root, comm, &request));
    BOTH("iallreduce", N, MPI_Allreduce(in, want, N, MPI_INT, MPI_MAX, comm),
         MPI_Iallreduce(in, out, N, MPI_INT, MPI_MAX, comm, &request));
    BOTH("igather", rank == root ? N * size : 0, MPI_Gather(in, N, MPI_INT, want, N, MPI_INT, root, comm),
         MPI_Igather(in, N, MPI_INT, out, N, MPI_INT, root, comm, &request));
    BOTH("igatherv", rank == root ? N * size : 0,
         MPI_Gatherv(in, counts[rank], MPI_INT, want, counts, displs, MPI_INT, root, comm),
         MPI_Igatherv(in, counts[rank], MPI_INT, out, counts, displs, MPI_INT, root, comm, &request));
    BOTH("iscatter", N, MPI_Scatter(in, N, MPI_INT, want, N, MPI_INT, root, comm),
         MPI_Iscatter(in, N, MPI_INT, out, N, MPI_INT, root, comm, &request));
    BOTH("iscatterv", counts[rank], MPI_Scatterv(in, counts, displs, MPI_INT, want, counts[rank], MPI_INT, root, comm),
         MPI_Iscatterv(in, counts, displs, MPI_INT, out, counts[rank], MPI_INT, root, comm, &request));
    BOTH("iallgather", N * size, MPI_Allgather(in, N, MPI_INT, want, N, MPI_INT, comm),
         MPI_Iallgather(in, N, MPI_INT, out, N, MPI_INT, comm, &request));
    BOTH("iallgatherv", N * size, MPI_Allgatherv(in, counts[rank], MPI_INT, want, counts, displs, MPI_INT, comm),
         MPI_Iallgatherv(in, counts[rank], MPI_INT, out, counts, displs, MPI_INT, comm, &request));
    BOTH("ialltoall", N * size, MPI_Alltoall(in, N, MPI_INT, want, N, MPI_INT, comm),
         MPI_Ialltoall(in, N, MPI_INT, out, N, MPI_INT, comm, &request));
    BOTH("ialltoallv", N * size,
         MPI_Alltoallv(in, pair_counts, displs, MPI_INT, want, pair_counts, displs, MPI_INT, comm),
         MPI_Ialltoallv(in, pair_counts, displs, MPI_INT, out, pair_counts, displs, MPI_INT, comm, &request));
    BOTH("ireduce_scatter", counts[rank], MPI_Reduce_scatter(in, want, counts, MPI_INT, MPI_SUM, comm),
         MPI_Ireduce_scatter(in, out, counts, MPI_INT, MPI_SUM, comm, &request));
    BOTH("ireduce_scatter_block", 2, MPI_Reduce_scatter_block(in, want, 2, MPI_INT, MPI_SUM, comm),
         MPI_Ireduce_scatter_block(in, out, 2, MPI_INT, MPI_SUM, comm, &request));
    BOTH("iscan", N, MPI_Scan(in, want, N, MPI_INT, MPI_SUM, comm),
         MPI_Iscan(in, out, N, MPI_INT, MPI_SUM, comm, &request));
    BOTH("iexscan", rank == 0 ? 0 : N, MPI_Exscan(in, want, N, MPI_INT, MPI_SUM, comm),
         MPI_Iexscan(in, out, N, MPI_INT, MPI_SUM, comm, &request));
#undef BOTH
    free(in);
    free(out);
    free(want);
    free(counts);
    free(pair_counts);
    free(displs);
    return bad;
}

/* Several collectives in progress on one communicator, completed in the opposite order. */
static int many_at_once(int rank, int size, int how)
{
    enum { K = 5 };
    int bad = 0, sums[K][N], maxima[N], root_data[N], gathered_ranks[64];
    MPI_Request requests[K + 3];
    int mine[N];
    for (int i = 0; i < N; i++)
        mine[i] = value_of(rank, i, how);
    int contributions[K][N];  /* one send buffer per call: each is read until its call completes */
    for (int k = 0; k < K; k++) {
        for (int i = 0; i < N; i++)
            contributions[k][i] = mine[i] * (k + 1);
        MPI_Iallreduce(contributions[k], sums[k], N, MPI_INT, MPI_SUM, WORLD, &requests[k]);
    }
    for (int i = 0; i < N; i++)
        root_data[i] = rank == size - 1 ? value_of(rank, i, 9) : -1;
    MPI_Ibcast(root_data, N, MPI_INT, size - 1, WORLD, &requests[K]);
    MPI_Iallreduce(mine, maxima, N, MPI_INT, MPI_MAX, WORLD, &requests[K + 1]);
    int my_rank = rank;
    MPI_Iallgather(&my_rank, 1, MPI_INT, gathered_ranks, 1, MPI_INT, WORLD, &requests[K + 2]);

    /* point-to-point while they are in progress */
    int right = (rank + 1) % size, left = (rank + size - 1) % size, token = -1;
    MPI_Sendrecv(&my_rank, 1, MPI_INT, right, 77, &token, 1, MPI_INT, left, 77, WORLD, MPI_STATUS_IGNORE);
    bad += expect(token == left, "sendrecv during collectives got %d", token);

    int total = K + 3, done = 0;
    if (how == 0) {
        for (int k = total - 1; k >= 0; k--)
            MPI_Wait(&requests[k], MPI_STATUS_IGNORE);
    } else if (how == 1) {
        int flag = 0;
        while (!flag)
            MPI_Testall(total, requests, &flag, MPI_STATUSES_IGNORE);
    } else if (how == 2) {
        for (int k = 0; k < total; k++) {
            int index;
            MPI_Waitany(total, requests, &index, MPI_STATUS_IGNORE);
        }
    } else {
        int indices[K + 3];
        while (done < total) {
            int outcount;
            MPI_Waitsome(total, requests, &outcount, indices, MPI_STATUSES_IGNORE);
            done += outcount;
        }
    }
    for (int k = 0; k < total; k++)
        bad += expect(requests[k] == MPI_REQUEST_NULL, "request %d left", k);
    uint32_t h = HASH_INIT;
    for (int k = 0; k < K; k++)
        for (int i = 0; i < N; i++) {
            long long want = 0;
            for (int r = 0; r < size; r++)
                want += (long long)value_of(r, i, how) * (k + 1);
            bad += expect(sums[k][i] == want, "allreduce %d element %d is %d, want %lld", k, i, sums[k][i], want);
            h = hash_int(h, sums[k][i]);
        }
    for (int i = 0; i < N; i++) {
        bad += expect(root_data[i] == value_of(size - 1, i, 9), "ibcast element %d is %d", i, root_data[i]);
        bad += expect(maxima[i] == value_of(size - 1, i, how), "max element %d is %d", i, maxima[i]);
    }
    for (int r = 0; r < size && r < 64; r++)
        bad += expect(gathered_ranks[r] == r, "allgather %d is %d", r, gathered_ranks[r]);
    h = hash_ints(hash_ints(h, root_data, N), maxima, N);
    say("rank %d: many at once (way %d): hash %08x", rank, how, h);
    return bad;
}

/* Rank 0 only polls its barrier; the others block in MPI_Wait. */
static int polled_barrier(int rank)
{
    MPI_Request request;
    int flag = 0, polls = 0;
    MPI_Ibarrier(WORLD, &request);
    if (rank == 0)
        while (!flag) {
            MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
            polls++;
        }
    else
        MPI_Wait(&request, MPI_STATUS_IGNORE);
    say("rank %d: polled barrier done", rank);
    return 0;
}

/* Two MPI_Comm_idup in progress with a barrier: the duplicates work, apart from each other. */
static int nonblocking_dups(int rank, int size)
{
    int bad = 0;
    MPI_Comm dups[2];
    MPI_Request requests[3];
    MPI_Comm_idup(WORLD, &dups[0], &requests[0]);
    MPI_Comm_idup(WORLD, &dups[1], &requests[1]);
    MPI_Ibarrier(WORLD, &requests[2]);
    MPI_Waitall(3, requests, MPI_STATUSES_IGNORE);
    int right = (rank + 1) % size, left = (rank + size - 1) % size, got[2] = {-1, -1}, sent[2] = {10, 20};
    MPI_Request receives[2];
    MPI_Irecv(&got[1], 1, MPI_INT, left, 0, dups[1], &receives[1]);
    MPI_Irecv(&got[0], 1, MPI_INT, left, 0, dups[0], &receives[0]);
    MPI_Send(&sent[0], 1, MPI_INT, right, 0, dups[0]);
    MPI_Send(&sent[1], 1, MPI_INT, right, 0, dups[1]);
    MPI_Waitall(2, receives, MPI_STATUSES_IGNORE);
    bad += expect(got[0] == 10 && got[1] == 20, "idup'ed communicators crossed: %d %d", got[0], got[1]);
    int sum = 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, dups[1]);
    bad += expect(sum == size * (size - 1) / 2, "allreduce on an idup'ed communicator: %d", sum);
    MPI_Comm_free(&dups[0]);
    MPI_Comm_free(&dups[1]);
    say("rank %d: idup'ed %d and %d, sum %d", rank, got[0], got[1], sum);
    return bad;
}

/* Every peer gets its block in a datatype of its own: a run of ints from even ranks, every
 * other int of a strided vector from odd ranks. */
static int alltoallw(int rank, int size)
{
    int bad = 0;
    int *send = calloc((size_t)(2 * N * size), sizeof(int)), *recv = calloc((size_t)(2 * N * size), sizeof(int));
    int *counts = malloc(sizeof(int) * size), *displs = malloc(sizeof(int) * size);
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * size), strided;
    MPI_Type_vector(N, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    for (int i = 0; i < 2 * N * size; i++)
        send[i] = value_of(rank, i, 8);
    for (int r = 0; r < size; r++) {
        /* the same datatype on both sides of every pair: decided by the pair, not the rank */
        int odd_pair = (r + rank) % 2;
        types[r] = odd_pair ? strided : MPI_INT;
        counts[r] = odd_pair ? 1 : N;
        displs[r] = (int)(r * 2 * N * sizeof(int));
    }
    MPI_Alltoallw(send, counts, displs, types, recv, counts, displs, types, WORLD);
    for (int r = 0; r < size; r++) {
        int odd_pair = (r + rank) % 2;
        for (int j = 0; j < N; j++) {
            int at = r * 2 * N + (odd_pair ? 2 * j : j);
            int sent_from = rank * 2 * N + (odd_pair ? 2 * j : j);
            bad += expect(recv[at] == value_of(r, sent_from, 8), "alltoallw from %d element %d is %d", r, j, recv[at]);
        }
    }
    uint32_t h = hash_ints(HASH_INIT, recv, (size_t)(2 * N * size));
    /* in place, and nonblocking */
    MPI_Request request;
    MPI_Ialltoallw(MPI_IN_PLACE, NULL, NULL, NULL, recv, counts, displs, types, WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    for (int r = 0; r < size; r++) {
        int odd_pair = (r + rank) % 2;
        for (int j = 0; j < N; j++) {
            int at = r * 2 * N + (odd_pair ? 2 * j : j);
            bad += expect(recv[at] == value_of(rank, at, 8), "in-place alltoallw back from %d element %d is %d", r, j,
                          recv[at]);
        }
    }
    h = hash_ints(h, recv, (size_t)(2 * N * size));
    say("rank %d: alltoallw hash %08x", rank, h);
    MPI_Type_free(&strided);
    free(send);
    free(recv);
    free(counts);
    free(displs);
    free(types);
    return bad;
}

/* Only contiguous datatypes, of two kinds (ints, and pairs of ints), with the blocks in
 * descending order of rank in the buffers; then in place. */
static int alltoallw_contiguous(int rank, int size)
{
    int bad = 0;
    int *send = malloc(sizeof(int) * N * size), *recv = malloc(sizeof(int) * N * size);
    int *counts = malloc(sizeof(int) * size), *displs = malloc(sizeof(int) * size);
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * size), pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    for (int i = 0; i < N * size; i++)
        send[i] = value_of(rank, i, 9);
    for (int r = 0; r < size; r++) {
        int pairs = (r + rank) % 2 == 0;
        types[r] = pairs ? pair : MPI_INT;
        counts[r] = pairs ? N / 2 : N;
        displs[r] = (int)((size - 1 - r) * N * sizeof(int));
    }
    MPI_Alltoallw(send, counts, displs, types, recv, counts, displs, types, WORLD);
    for (int r = 0; r < size; r++)
        for (int j = 0; j < N; j++) {
            int at = (size - 1 - r) * N + j, sent_from = (size - 1 - rank) * N + j;
            bad += expect(recv[at] == value_of(r, sent_from, 9), "contiguous alltoallw from %d element %d is %d", r, j,
                          recv[at]);
        }
    uint32_t h = hash_ints(HASH_INIT, recv, (size_t)(N * size));
    MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, recv, counts, displs, types, WORLD);
    for (int at = 0; at < N * size; at++)
        bad += expect(recv[at] == value_of(rank, at, 9), "contiguous in-place alltoallw element %d is %d", at, recv[at]);
    h = hash_ints(h, recv, (size_t)(N * size));
    say("rank %d: contiguous alltoallw hash %08x", rank, h);
    MPI_Type_free(&pair);
    free(send);
    free(recv);
    free(counts);
    free(displs);
    free(types);
    return bad;
}

int main(int argc, char **argv)
{
    int rank, size, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(WORLD, &rank);
    MPI_Comm_size(WORLD, &size);
    bad += each_against_blocking(WORLD, "world", 0);
    bad += each_against_blocking(WORLD, "world", size - 1);
    MPI_Comm half;
    MPI_Comm_split(WORLD, rank % 2, -rank, &half);
    int half_size;
    MPI_Comm_size(half, &half_size);
    bad += each_against_blocking(half, rank % 2 ? "odd" : "even", half_size / 2);
    MPI_Comm_free(&half);
    for (int how = 0; how < 4; how++)
        bad += many_at_once(rank, size, how);
    bad += polled_barrier(rank);
    bad += nonblocking_dups(rank, size);
    bad += alltoallw(rank, size);
    bad += alltoallw_contiguous(rank, size);
    int status = report_failures(rank, bad);
    MPI_Finalize();
    return status;
}
