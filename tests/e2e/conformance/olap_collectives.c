/* Collectives inside olap regions, next to point-to-point receives.
 *   Region A: a 1D halo exchange (MPI_Isend in the send block, MPI_Recv from
 *     MPI_PROC_NULL at the ends) with a global MPI_Allreduce (MPI_MAX) in the receive block.
 *   Region B: MPI_COMM_WORLD collectives in one receive block, roots moving with the
 *     iteration: MPI_Bcast, MPI_Reduce, MPI_Allgather, MPI_Alltoall, MPI_Scan, MPI_Gather,
 *     MPI_Scatter, MPI_Barrier, next to an MPI_ANY_SOURCE ring receive and rank 0
 *     collecting MPI_Send reports with MPI_ANY_SOURCE.
 *   Region C: collectives on an MPI_Comm_split communicator (MPI_Allreduce, and its ring
 *     of point-to-point messages) and on an MPI_Cart_sub row (MPI_Bcast, MPI_Allreduce).
 *   Region D: the 2.5D Cannon pattern on a 3D Cartesian grid: every iteration broadcasts
 *     A along the depth axis from layer 0 (MPI_Bcast on an MPI_Cart_sub fiber), shifts B
 *     around the periodic y axis (MPI_Isend / MPI_Recv), multiplies, and reduces C back
 *     to layer 0 along the fiber (MPI_Reduce), which feeds it into the next A.
 * All arithmetic is on integers modulo a prime, so results are exact. After each region
 * every rank replays the whole computation serially, for all ranks, and compares its
 * own state with the replay: a wrong collective shows as a FAIL line and a non-zero exit,
 * and as a different checksum line. Send blocks hold only sends; collectives sit in
 * receive blocks, as docs/directives.md requires. */
#include "conformance.h"

#define WORLD MPI_COMM_WORLD
#define P 1000003LL
#define ITERS 5

static long long mod(long long x)
{
    return ((x % P) + P) % P;
}

/* ---- Region A: 1D halo exchange plus a global maximum ---- */
#define NA 8

static long long a_initial(int r, int i)
{
    return (r * 131 + i * 17 + 5) % P;
}

static long long max_of(const long long *u, int n)
{
    long long m = u[0];
    for (int i = 1; i < n; i++)
        m = u[i] > m ? u[i] : m;
    return m;
}

/* One update of a block whose halos are filled. */
static void a_update(const long long *u, long long *next, long long global_max)
{
    for (int i = 1; i <= NA; i++)
        next[i] = mod(u[i - 1] + 2 * u[i] + u[i + 1] + global_max);
}

/* The serial replay: every rank's block, halos exchanged by copying. */
static void a_replay(int size, long long *all /* size x (NA + 2) */)
{
    long long *next = calloc((size_t)size * (NA + 2), sizeof *next), *maxes = malloc(size * sizeof *maxes);
    for (int p = 0; p < size; p++) {
        for (int i = 1; i <= NA; i++)
            all[p * (NA + 2) + i] = a_initial(p, i);
        all[p * (NA + 2)] = all[p * (NA + 2) + NA + 1] = 0;
        maxes[p] = max_of(&all[p * (NA + 2) + 1], NA);
    }
    for (int it = 0; it < ITERS; it++) {
        long long global_max = max_of(maxes, size);
        for (int p = 0; p < size; p++) {
            if (p > 0)
                all[p * (NA + 2)] = all[(p - 1) * (NA + 2) + NA];
            if (p + 1 < size)
                all[p * (NA + 2) + NA + 1] = all[(p + 1) * (NA + 2) + 1];
        }
        for (int p = 0; p < size; p++) {
            a_update(&all[p * (NA + 2)], &next[p * (NA + 2)], global_max);
            memcpy(&all[p * (NA + 2) + 1], &next[p * (NA + 2) + 1], NA * sizeof *next);
            maxes[p] = max_of(&all[p * (NA + 2) + 1], NA);
        }
    }
    free(next), free(maxes);
}

static int region_a(int rank, int size)
{
    const int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
    long long u[NA + 2], next[NA + 2], local_max, global_max = -1;
    u[0] = u[NA + 1] = 0; /* MPI_PROC_NULL leaves the outer halos alone */
    for (int i = 1; i <= NA; i++)
        u[i] = a_initial(rank, i);
    local_max = max_of(&u[1], NA);

#pragma bamboo olap
    for (int it = 0; it < ITERS; it++) {
        MPI_Request sends[2];
#pragma bamboo send
        {
            MPI_Isend(&u[1], 1, MPI_LONG_LONG, left, 1, WORLD, &sends[0]);
            MPI_Isend(&u[NA], 1, MPI_LONG_LONG, right, 2, WORLD, &sends[1]);
        }
#pragma bamboo receive
        {
            MPI_Recv(&u[0], 1, MPI_LONG_LONG, left, 2, WORLD, MPI_STATUS_IGNORE);
            MPI_Recv(&u[NA + 1], 1, MPI_LONG_LONG, right, 1, WORLD, MPI_STATUS_IGNORE);
            MPI_Allreduce(&local_max, &global_max, 1, MPI_LONG_LONG, MPI_MAX, WORLD);
        }
        MPI_Waitall(2, sends, MPI_STATUSES_IGNORE);
        a_update(u, next, global_max);
        memcpy(&u[1], &next[1], NA * sizeof *u);
        local_max = max_of(&u[1], NA);
    }

    long long *all = malloc((size_t)size * (NA + 2) * sizeof *all);
    a_replay(size, all);
    const int bad = expect(memcmp(&u[1], &all[rank * (NA + 2) + 1], NA * sizeof *u) == 0,
                           "region A rank %d: block differs from the replay", rank);
    say("region A rank %d: block %lld %lld ... %lld, last global max %lld, hash %08x", rank, u[1], u[2], u[NA],
        global_max, hash_bytes(HASH_INIT, &u[1], NA * sizeof *u));
    free(all);
    return bad;
}

/* ---- Region B: world collectives with moving roots ---- */

struct b_roots {
    int bcast, reduce, gather, scatter;
};

static struct b_roots b_roots_of(int it, int size)
{
    return (struct b_roots){it % size, (it + 1) % size, (it * 3 + 2) % size, size - 1 - it % size};
}

static long long b_initial(int r)
{
    return (r * 7919 + 11) % P;
}

static long long alltoall_value(long long v, int to, int it)
{
    return mod(v * (to + 1) + it);
}

static long long scatter_value(long long v, int to)
{
    return mod(v + 7 * to);
}

/* Rank p's new value, from what the iteration's communication gave it. */
static long long b_combine(long long v, long long from_left, long long bcast, long long prefix, long long mine,
                           long long alltoall_sum, long long allgather_weighted)
{
    return mod(v + 3 * from_left + bcast + prefix + mine + alltoall_sum + allgather_weighted);
}

static void b_replay(int size, long long *v)
{
    long long *nv = malloc(size * sizeof *nv);
    for (int p = 0; p < size; p++)
        v[p] = b_initial(p);
    for (int it = 0; it < ITERS; it++) {
        const struct b_roots roots = b_roots_of(it, size);
        long long weighted = 0, total = 0;
        for (int k = 0; k < size; k++)
            weighted = mod(weighted + v[k] * (k + 1)), total = mod(total + v[k]);
        for (int p = 0; p < size; p++) {
            long long prefix = 0, a2a = 0;
            for (int k = 0; k <= p; k++)
                prefix += v[k];
            for (int s = 0; s < size; s++)
                a2a = mod(a2a + alltoall_value(v[s], p, it));
            nv[p] = b_combine(v[p], v[(p + size - 1) % size], v[roots.bcast], prefix,
                              scatter_value(v[roots.scatter], p), a2a, weighted);
            if (p == roots.reduce)
                nv[p] = mod(nv[p] + total);
            if (p == roots.gather) {
                long long g = 0;
                for (int k = 0; k < size; k++)
                    g = mod(g + v[k] * (k + 2));
                nv[p] = mod(nv[p] + g);
            }
            if (p == 0)
                nv[p] = mod(nv[p] + total - v[0]); /* the MPI_Send reports of all the others */
        }
        memcpy(v, nv, size * sizeof *v);
    }
    free(nv);
}

static int region_b(int rank, int size)
{
    const int left = (rank + size - 1) % size, right = (rank + 1) % size;
    long long v = b_initial(rank), from_left = -1, bcast = -1, reduced = -1, prefix = -1, mine = -1;
    long long *all_v = malloc(size * sizeof *all_v), *gathered = malloc(size * sizeof *gathered);
    long long *a2a_out = malloc(size * sizeof *a2a_out), *a2a_in = malloc(size * sizeof *a2a_in);
    long long *scatter_out = malloc(size * sizeof *scatter_out);
    int bad = 0, wrong_source = 0;

#pragma bamboo olap
    for (int it = 0; it < ITERS; it++) {
        const struct b_roots roots = b_roots_of(it, size);
        MPI_Request ring;
        long long reports = 0;
        bcast = v;
        for (int d = 0; d < size; d++) {
            a2a_out[d] = alltoall_value(v, d, it);
            scatter_out[d] = scatter_value(v, d);
        }
#pragma bamboo send
        {
            MPI_Isend(&v, 1, MPI_LONG_LONG, right, 50, WORLD, &ring);
            if (rank != 0)
                MPI_Send(&v, 1, MPI_LONG_LONG, 0, 51, WORLD);
        }
#pragma bamboo receive
        {
            MPI_Status status;
            MPI_Recv(&from_left, 1, MPI_LONG_LONG, MPI_ANY_SOURCE, 50, WORLD, &status);
            wrong_source += status.MPI_SOURCE != left;
            if (rank == 0)
                for (int k = 1; k < size; k++) {
                    long long report;
                    MPI_Recv(&report, 1, MPI_LONG_LONG, MPI_ANY_SOURCE, 51, WORLD, MPI_STATUS_IGNORE);
                    reports = mod(reports + report);
                }
            MPI_Bcast(&bcast, 1, MPI_LONG_LONG, roots.bcast, WORLD);
            MPI_Reduce(&v, &reduced, 1, MPI_LONG_LONG, MPI_SUM, roots.reduce, WORLD);
            MPI_Allgather(&v, 1, MPI_LONG_LONG, all_v, 1, MPI_LONG_LONG, WORLD);
            MPI_Alltoall(a2a_out, 1, MPI_LONG_LONG, a2a_in, 1, MPI_LONG_LONG, WORLD);
            MPI_Scan(&v, &prefix, 1, MPI_LONG_LONG, MPI_SUM, WORLD);
            MPI_Gather(&v, 1, MPI_LONG_LONG, gathered, 1, MPI_LONG_LONG, roots.gather, WORLD);
            MPI_Scatter(scatter_out, 1, MPI_LONG_LONG, &mine, 1, MPI_LONG_LONG, roots.scatter, WORLD);
            MPI_Barrier(WORLD);
        }
        MPI_Wait(&ring, MPI_STATUS_IGNORE);
        long long a2a = 0, weighted = 0;
        for (int k = 0; k < size; k++) {
            a2a = mod(a2a + a2a_in[k]);
            weighted = mod(weighted + all_v[k] * (k + 1));
        }
        long long nv = b_combine(v, from_left, bcast, prefix, mine, a2a, weighted);
        if (rank == roots.reduce)
            nv = mod(nv + reduced);
        if (rank == roots.gather)
            for (int k = 0; k < size; k++)
                nv = mod(nv + gathered[k] * (k + 2));
        if (rank == 0)
            nv = mod(nv + reports);
        v = nv;
    }

    long long *replay = malloc(size * sizeof *replay);
    b_replay(size, replay);
    bad += expect(v == replay[rank] && wrong_source == 0, "region B rank %d: %lld, replay %lld, %d wrong sources", rank,
                  v, replay[rank], wrong_source);
    say("region B rank %d: value %lld, last prefix %lld, last scattered %lld", rank, v, prefix, mine);
    free(all_v), free(gathered), free(a2a_out), free(a2a_in), free(scatter_out), free(replay);
    return bad;
}

/* ---- Region C: a split communicator and a Cartesian row ---- */

static long long c_initial(int r)
{
    return (r * 104729 + 3) % P;
}

/* The halves: parity of the world rank, ordered by descending world rank (key -rank).
 * Returns the members of p's half in half-rank order. */
static int half_members(int size, int p, int *members)
{
    int n = 0;
    for (int q = size - 1; q >= 0; q--)
        if (q % 2 == p % 2)
            members[n++] = q;
    return n;
}

static void c_replay(int size, int row_len, long long *w)
{
    long long *nw = malloc(size * sizeof *nw);
    int *members = malloc(size * sizeof *members);
    for (int p = 0; p < size; p++)
        w[p] = c_initial(p);
    for (int it = 0; it < ITERS; it++) {
        for (int p = 0; p < size; p++) {
            const int n = half_members(size, p, members);
            int me = 0;
            while (members[me] != p)
                me++;
            long long half_sum = 0, row_max = -1;
            for (int k = 0; k < n; k++)
                half_sum += w[members[k]];
            const int row_start = p / row_len * row_len;
            for (int q = row_start; q < row_start + row_len; q++)
                row_max = w[q] > row_max ? w[q] : row_max;
            const long long from = w[members[(me + n - 1) % n]], row_root = w[row_start + it % row_len];
            nw[p] = mod(3 * w[p] + from + half_sum + row_root + row_max + it);
        }
        memcpy(w, nw, size * sizeof *w);
    }
    free(nw), free(members);
}

static int region_c(int rank, int size)
{
    MPI_Comm half, grid, row;
    MPI_Comm_split(WORLD, rank % 2, -rank, &half);
    int dims[2] = {0, 0}, periods[2] = {0, 0}, keep[2] = {0, 1};
    MPI_Dims_create(size, 2, dims);
    MPI_Cart_create(WORLD, 2, dims, periods, 0, &grid);
    MPI_Cart_sub(grid, keep, &row);
    int hrank, hsize, row_len;
    MPI_Comm_rank(half, &hrank);
    MPI_Comm_size(half, &hsize);
    MPI_Comm_size(row, &row_len);
    const int hright = (hrank + 1) % hsize, hleft = (hrank + hsize - 1) % hsize;
    long long w = c_initial(rank), from = -1, half_sum = -1, row_root = -1, row_max = -1;

#pragma bamboo olap
    for (int it = 0; it < ITERS; it++) {
        MPI_Request ring;
        row_root = w;
#pragma bamboo send
        {
            MPI_Isend(&w, 1, MPI_LONG_LONG, hright, 60, half, &ring);
        }
#pragma bamboo receive
        {
            MPI_Recv(&from, 1, MPI_LONG_LONG, hleft, 60, half, MPI_STATUS_IGNORE);
            MPI_Allreduce(&w, &half_sum, 1, MPI_LONG_LONG, MPI_SUM, half);
            MPI_Bcast(&row_root, 1, MPI_LONG_LONG, it % row_len, row);
            MPI_Allreduce(&w, &row_max, 1, MPI_LONG_LONG, MPI_MAX, row);
        }
        MPI_Wait(&ring, MPI_STATUS_IGNORE);
        w = mod(3 * w + from + half_sum + row_root + row_max + it);
    }

    long long *replay = malloc(size * sizeof *replay);
    c_replay(size, row_len, replay);
    const int bad = expect(w == replay[rank], "region C rank %d: %lld, replay %lld", rank, w, replay[rank]);
    say("region C rank %d: half rank %d of %d, row of %d, value %lld, last half sum %lld", rank, hrank, hsize, row_len,
        w, half_sum);
    free(replay);
    MPI_Comm_free(&row);
    MPI_Comm_free(&grid);
    MPI_Comm_free(&half);
    return bad;
}

/* ---- Region D: 2.5D Cannon ---- */
#define BS 3 /* block edge */

static void block_initial(long long *m, int salt, int x, int y, int z)
{
    for (int i = 0; i < BS * BS; i++)
        m[i] = (salt * 1000003LL + x * 7919 + y * 104729 + z * 1299709 + i * 31) % P;
}

/* c += a b, modulo P */
static void multiply_add(long long *c, const long long *a, const long long *b)
{
    for (int i = 0; i < BS; i++)
        for (int j = 0; j < BS; j++) {
            long long s = c[i * BS + j];
            for (int k = 0; k < BS; k++)
                s = (s + a[i * BS + k] * b[k * BS + j]) % P;
            c[i * BS + j] = s;
        }
}

/* Layer 0 feeds the fiber's sum of C back into its A. */
static void next_a(long long *a, const long long *c_sum)
{
    for (int i = 0; i < BS * BS; i++)
        a[i] = mod(a[i] + c_sum[i]);
}

struct grid3 {
    int d[3];
};

static int rank_of(struct grid3 g, int x, int y, int z)
{
    return (x * g.d[1] + y) * g.d[2] + z;
}

static void d_replay(int size, struct grid3 g, long long *a, long long *b, long long *c)
{
    const size_t bytes = (size_t)size * BS * BS * sizeof(long long);
    long long *b_in = malloc(bytes), *c_sum = malloc(BS * BS * sizeof *c_sum);
    for (int x = 0; x < g.d[0]; x++)
        for (int y = 0; y < g.d[1]; y++)
            for (int z = 0; z < g.d[2]; z++) {
                const int p = rank_of(g, x, y, z);
                block_initial(&a[p * BS * BS], 1, x, y, z);
                block_initial(&b[p * BS * BS], 2, x, y, z);
                memset(&c[p * BS * BS], 0, BS * BS * sizeof *c);
            }
    for (int it = 0; it < ITERS; it++) {
        for (int x = 0; x < g.d[0]; x++)
            for (int y = 0; y < g.d[1]; y++)
                for (int z = 0; z < g.d[2]; z++) {
                    const int p = rank_of(g, x, y, z), east = rank_of(g, x, (y + 1) % g.d[1], z);
                    memcpy(&b_in[p * BS * BS], &b[east * BS * BS], BS * BS * sizeof *b);
                    memcpy(&a[p * BS * BS], &a[rank_of(g, x, y, 0) * BS * BS], BS * BS * sizeof *a);
                }
        memcpy(b, b_in, bytes);
        for (int p = 0; p < size; p++)
            multiply_add(&c[p * BS * BS], &a[p * BS * BS], &b[p * BS * BS]);
        for (int x = 0; x < g.d[0]; x++)
            for (int y = 0; y < g.d[1]; y++) {
                memset(c_sum, 0, BS * BS * sizeof *c_sum);
                for (int z = 0; z < g.d[2]; z++)
                    for (int i = 0; i < BS * BS; i++)
                        c_sum[i] += c[rank_of(g, x, y, z) * BS * BS + i];
                next_a(&a[rank_of(g, x, y, 0) * BS * BS], c_sum);
            }
    }
    free(b_in), free(c_sum);
}

static int region_d(int rank, int size)
{
    /* Layers along z (2 or 3 where the size allows, as 2.5D wants c > 1), and the
     * longer side of each layer along y, the axis B travels around. */
    const int depth = size % 2 == 0 ? 2 : size % 3 == 0 ? 3 : 1;
    int plane[2] = {0, 0}, periods[3] = {0, 1, 0}, coords[3];
    MPI_Dims_create(size / depth, 2, plane);
    int dims[3] = {plane[1], plane[0], depth};
    MPI_Comm cube, fiber;
    MPI_Cart_create(WORLD, 3, dims, periods, 0, &cube);
    const int depth_only[3] = {0, 0, 1};
    MPI_Cart_sub(cube, depth_only, &fiber);
    MPI_Cart_coords(cube, rank, 3, coords);
    int west, east, layer;
    MPI_Cart_shift(cube, 1, 1, &west, &east);
    MPI_Comm_rank(fiber, &layer);

    long long a[BS * BS], b[BS * BS], b_in[BS * BS], c[BS * BS], c_sum[BS * BS];
    block_initial(a, 1, coords[0], coords[1], coords[2]);
    block_initial(b, 2, coords[0], coords[1], coords[2]);
    memset(c, 0, sizeof c);

#pragma bamboo olap
    for (int it = 0; it < ITERS; it++) {
        MPI_Request shift;
#pragma bamboo send
        {
            MPI_Isend(b, BS * BS, MPI_LONG_LONG, west, 70, cube, &shift);
        }
#pragma bamboo receive
        {
            MPI_Recv(b_in, BS * BS, MPI_LONG_LONG, east, 70, cube, MPI_STATUS_IGNORE);
            MPI_Bcast(a, BS * BS, MPI_LONG_LONG, 0, fiber);
        }
        MPI_Wait(&shift, MPI_STATUS_IGNORE);
        memcpy(b, b_in, sizeof b);
        multiply_add(c, a, b);
#pragma bamboo receive
        {
            MPI_Reduce(c, c_sum, BS * BS, MPI_LONG_LONG, MPI_SUM, 0, fiber);
        }
        if (layer == 0)
            next_a(a, c_sum);
    }

    struct grid3 g = {{dims[0], dims[1], dims[2]}};
    const size_t bytes = (size_t)size * BS * BS * sizeof(long long);
    long long *ra = malloc(bytes), *rb = malloc(bytes), *rc = malloc(bytes);
    d_replay(size, g, ra, rb, rc);
    int bad = expect(memcmp(c, &rc[rank * BS * BS], sizeof c) == 0 && memcmp(b, &rb[rank * BS * BS], sizeof b) == 0,
                     "region D rank %d: C or B differs from the replay", rank);
    if (layer == 0)
        bad += expect(memcmp(a, &ra[rank * BS * BS], sizeof a) == 0, "region D rank %d: A differs from the replay",
                      rank);
    say("region D rank %d: coords (%d,%d,%d) of %dx%dx%d, C %lld %lld ... %lld, hash %08x", rank, coords[0],
        coords[1], coords[2], dims[0], dims[1], dims[2], c[0], c[1], c[BS * BS - 1],
        hash_bytes(HASH_INIT, c, sizeof c));
    if (layer == 0)
        say("region D rank %d: A %lld %lld ... %lld", rank, a[0], a[1], a[BS * BS - 1]);
    free(ra), free(rb), free(rc);
    MPI_Comm_free(&fiber);
    MPI_Comm_free(&cube);
    return bad;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(WORLD, &rank);
    MPI_Comm_size(WORLD, &size);

    int bad = region_a(rank, size);
    bad += region_b(rank, size);
    bad += region_c(rank, size);
    bad += region_d(rank, size);

    const int status = report_failures(rank, bad);
    MPI_Finalize();
    return status;
}
