/* The vector collectives, with irregular layouts: counts that are zero for some ranks,
 * displacements out of rank order, and gaps between blocks that must not be written.
 *   MPI_Scatterv     every root; IN_PLACE at the root
 *   MPI_Gatherv      every root; IN_PLACE at the root; gaps in recvbuf stay untouched
 *   MPI_Allgatherv   IN_PLACE
 *   MPI_Alltoallv    different counts each way; IN_PLACE with symmetric counts
 * Four shapes of counts, the last one with blocks of up to ~1000 ints. */
#include "conformance.h"

#define WORLD MPI_COMM_WORLD
#define UNTOUCHED (-55555)
#define NSHAPES 4

static int scale_of(int shape)
{
    return shape == NSHAPES - 1 ? 333 : 1;
}

/* How many ints rank r contributes (or receives) in a rooted or "all" v-collective:
 * 0 for some ranks in every shape. */
static int count_of(int r, int shape)
{
    return ((r * 3 + shape) % 4) * scale_of(shape);
}

/* How many ints rank `from` sends to rank `to` in Alltoallv. */
static int pair_count(int from, int to, int shape)
{
    return ((from + 2 * to + shape) % 4) * scale_of(shape);
}

/* Alltoallv in place needs pair counts that are the same both ways. */
static int symmetric_count(int a, int b, int shape)
{
    return ((a + b + shape) % 3) * scale_of(shape);
}

/* Lays out blocks of counts[] in reverse rank order with a gap of r % 3 ints after the
 * block of rank r; returns the buffer length. */
static int reverse_layout(int size, const int *counts, int *displs)
{
    int pos = 0;
    for (int r = size - 1; r >= 0; r--) {
        displs[r] = pos;
        pos += counts[r] + r % 3;
    }
    return pos;
}

/* Odd ranks first, then even ones, each followed by a gap of one int. */
static int shuffled_layout(int size, const int *counts, int *displs)
{
    int pos = 0;
    for (int parity = 1; parity >= 0; parity--)
        for (int r = parity; r < size; r += 2) {
            displs[r] = pos;
            pos += counts[r] + 1;
        }
    return pos;
}

static int *filled(int n, int value)
{
    int *p = malloc((n + 1) * sizeof *p);
    if (!p)
        MPI_Abort(WORLD, 99);
    for (int i = 0; i <= n; i++)
        p[i] = value;
    return p;
}

/* The whole buffer must match: blocks where they belong, UNTOUCHED in the gaps. */
static int verify(const char *test, int shape, int root, const int *got, const int *want, int n)
{
    char what[96];
    snprintf(what, sizeof what, "%s shape %d root %d", test, shape, root);
    return check_ints(what, got, want, n + 1);
}

static int test_scatterv(int rank, int size, int shape, uint32_t *h)
{
    int bad = 0;
    int *counts = malloc(size * sizeof *counts), *displs = malloc(size * sizeof *displs);
    for (int r = 0; r < size; r++)
        counts[r] = count_of(r, shape);
    const int len = reverse_layout(size, counts, displs), mine = counts[rank];
    for (int root = 0; root < size; root++) {
        const int salt = 17 * shape + root;
        int *send = filled(len, UNTOUCHED), *recv = filled(mine, UNTOUCHED), *want = filled(mine, UNTOUCHED);
        for (int r = 0; r < size; r++)
            for (int i = 0; i < counts[r]; i++)
                send[displs[r] + i] = value_of(r, i, salt);
        for (int i = 0; i < mine; i++)
            want[i] = value_of(rank, i, salt);
        MPI_Scatterv(rank == root ? send : NULL, counts, displs, MPI_INT, recv, mine, MPI_INT, root, WORLD);
        bad += verify("scatterv", shape, root, recv, want, mine);
        *h = hash_ints(*h, recv, mine);

        /* In place at the root: its block stays in sendbuf, which nobody writes. */
        if (rank == root) {
            const uint32_t before = hash_ints(HASH_INIT, send, len + 1);
            MPI_Scatterv(send, counts, displs, MPI_INT, MPI_IN_PLACE, mine, MPI_INT, root, WORLD);
            bad += expect(hash_ints(HASH_INIT, send, len + 1) == before,
                          "scatterv in place shape %d root %d: sendbuf changed", shape, root);
        } else {
            for (int i = 0; i < mine; i++)
                recv[i] = UNTOUCHED;
            MPI_Scatterv(NULL, counts, displs, MPI_INT, recv, mine, MPI_INT, root, WORLD);
            bad += verify("scatterv in place", shape, root, recv, want, mine);
            *h = hash_ints(*h, recv, mine);
        }
        free(send), free(recv), free(want);
    }
    free(counts), free(displs);
    return bad;
}

static int test_gatherv(int rank, int size, int shape, uint32_t *h)
{
    int bad = 0;
    int *counts = malloc(size * sizeof *counts), *displs = malloc(size * sizeof *displs);
    for (int r = 0; r < size; r++)
        counts[r] = count_of(r, shape);
    const int len = shuffled_layout(size, counts, displs), mine = counts[rank];
    for (int root = 0; root < size; root++) {
        const int salt = 19 * shape + root;
        int *send = filled(mine, UNTOUCHED), *recv = filled(len, UNTOUCHED), *want = filled(len, UNTOUCHED);
        for (int i = 0; i < mine; i++)
            send[i] = value_of(rank, i, salt);
        for (int r = 0; r < size; r++)
            for (int i = 0; i < counts[r]; i++)
                want[displs[r] + i] = value_of(r, i, salt);
        MPI_Gatherv(send, mine, MPI_INT, rank == root ? recv : NULL, counts, displs, MPI_INT, root, WORLD);
        if (rank == root) {
            bad += verify("gatherv", shape, root, recv, want, len);
            *h = hash_ints(*h, recv, len + 1);
        }

        /* In place at the root: its contribution is already at its displacement. */
        if (rank == root) {
            for (int i = 0; i <= len; i++)
                recv[i] = UNTOUCHED;
            memcpy(recv + displs[rank], send, mine * sizeof *send);
            MPI_Gatherv(MPI_IN_PLACE, mine, MPI_INT, recv, counts, displs, MPI_INT, root, WORLD);
            bad += verify("gatherv in place", shape, root, recv, want, len);
            *h = hash_ints(*h, recv, len + 1);
        } else {
            MPI_Gatherv(send, mine, MPI_INT, NULL, counts, displs, MPI_INT, root, WORLD);
        }
        free(send), free(recv), free(want);
    }
    free(counts), free(displs);
    return bad;
}

static int test_allgatherv(int rank, int size, int shape, uint32_t *h)
{
    int bad = 0;
    int *counts = malloc(size * sizeof *counts), *displs = malloc(size * sizeof *displs);
    for (int r = 0; r < size; r++)
        counts[r] = count_of(r, shape + 1);
    const int len = reverse_layout(size, counts, displs), mine = counts[rank], salt = 23 * shape;
    int *send = filled(mine, UNTOUCHED), *recv = filled(len, UNTOUCHED), *want = filled(len, UNTOUCHED);
    for (int i = 0; i < mine; i++)
        send[i] = value_of(rank, i, salt);
    for (int r = 0; r < size; r++)
        for (int i = 0; i < counts[r]; i++)
            want[displs[r] + i] = value_of(r, i, salt);
    MPI_Allgatherv(send, mine, MPI_INT, recv, counts, displs, MPI_INT, WORLD);
    bad += verify("allgatherv", shape, -1, recv, want, len);
    *h = hash_ints(*h, recv, len + 1);

    for (int i = 0; i <= len; i++)
        recv[i] = UNTOUCHED;
    memcpy(recv + displs[rank], send, mine * sizeof *send);
    MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recv, counts, displs, MPI_INT, WORLD);
    bad += verify("allgatherv in place", shape, -1, recv, want, len);
    *h = hash_ints(*h, recv, len + 1);
    free(send), free(recv), free(want), free(counts), free(displs);
    return bad;
}

static int test_alltoallv(int rank, int size, int shape, uint32_t *h)
{
    int bad = 0;
    int *scounts = malloc(size * sizeof(int)), *sdispls = malloc(size * sizeof(int));
    int *rcounts = malloc(size * sizeof(int)), *rdispls = malloc(size * sizeof(int));
    for (int p = 0; p < size; p++) {
        scounts[p] = pair_count(rank, p, shape);
        rcounts[p] = pair_count(p, rank, shape);
    }
    const int slen = reverse_layout(size, scounts, sdispls), rlen = shuffled_layout(size, rcounts, rdispls);
    const int salt = 29 * shape;
    int *send = filled(slen, UNTOUCHED), *recv = filled(rlen, UNTOUCHED), *want = filled(rlen, UNTOUCHED);
    /* The data from s to d depends on both, so a block delivered to the wrong peer or
     * from the wrong one shows. */
    for (int d = 0; d < size; d++)
        for (int i = 0; i < scounts[d]; i++)
            send[sdispls[d] + i] = value_of(rank, i, salt + 31 * d);
    for (int s = 0; s < size; s++)
        for (int i = 0; i < rcounts[s]; i++)
            want[rdispls[s] + i] = value_of(s, i, salt + 31 * rank);
    MPI_Alltoallv(send, scounts, sdispls, MPI_INT, recv, rcounts, rdispls, MPI_INT, WORLD);
    bad += verify("alltoallv", shape, -1, recv, want, rlen);
    *h = hash_ints(*h, recv, rlen + 1);
    free(send), free(recv), free(want);

    /* In place: recvbuf holds what goes to each peer and receives what comes from it,
     * the same amount each way. */
    for (int p = 0; p < size; p++)
        rcounts[p] = symmetric_count(rank, p, shape);
    const int len = shuffled_layout(size, rcounts, rdispls);
    int *buf = filled(len, UNTOUCHED);
    want = filled(len, UNTOUCHED);
    for (int p = 0; p < size; p++)
        for (int i = 0; i < rcounts[p]; i++) {
            buf[rdispls[p] + i] = value_of(rank, i, salt + 37 * p);
            want[rdispls[p] + i] = value_of(p, i, salt + 37 * rank);
        }
    MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, buf, rcounts, rdispls, MPI_INT, WORLD);
    bad += verify("alltoallv in place", shape, -1, buf, want, len);
    *h = hash_ints(*h, buf, len + 1);
    free(buf), free(want);
    free(scounts), free(sdispls), free(rcounts), free(rdispls);
    return bad;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(WORLD, &rank);
    MPI_Comm_size(WORLD, &size);

    int bad = 0;
    uint32_t h[4] = {HASH_INIT, HASH_INIT, HASH_INIT, HASH_INIT};
    for (int shape = 0; shape < NSHAPES; shape++) {
        bad += test_scatterv(rank, size, shape, &h[0]);
        bad += test_gatherv(rank, size, shape, &h[1]);
        bad += test_allgatherv(rank, size, shape, &h[2]);
        bad += test_alltoallv(rank, size, shape, &h[3]);
    }
    say("scatterv rank %d: hash %08x", rank, h[0]);
    say("gatherv rank %d: hash %08x", rank, h[1]);
    say("allgatherv rank %d: hash %08x", rank, h[2]);
    say("alltoallv rank %d: hash %08x", rank, h[3]);

    const int status = report_failures(rank, bad);
    MPI_Finalize();
    return status;
}
