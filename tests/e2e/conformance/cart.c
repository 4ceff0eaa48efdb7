/* Cartesian topologies.
 *   MPI_Dims_create      free and fixed dimensions, 1 to 4 of them
 *   MPI_Cart_create      periodic and not, reorder 0 and 1, grids smaller than the
 *                        communicator (the ranks left over get MPI_COMM_NULL)
 *   MPI_Cart_coords, MPI_Cart_rank (row-major order; coordinates beyond a periodic
 *   dimension wrap), MPI_Cart_shift (MPI_PROC_NULL at non-periodic edges, displacements
 *   1, -1 and 2), MPI_Cart_get, MPI_Cartdim_get, MPI_Topo_test (MPI_CART, MPI_UNDEFINED),
 *   MPI_Cart_sub (rows, planes; collectives on them), MPI_Cart_map (the rank MPI_Cart_create
 *   with reorder 1 gives, MPI_UNDEFINED beyond the grid)
 *   halo exchanges with MPI_Sendrecv on a 2D grid (periodic in one dimension, reorder 1)
 *   and on a 3D grid (periodic in two, reorder 0), checked against the same integer
 *   stencil computed serially over the whole domain.
 * With reorder 1 the implementation may renumber the ranks: what those parts print is
 * keyed by Cartesian coordinates and computed from them, never from world ranks. */
#include "conformance.h"

#define WORLD MPI_COMM_WORLD
#define MOD 1000003LL

static const char *rank_text(int r, char *buf)
{
    if (r == MPI_PROC_NULL)
        return "null";
    sprintf(buf, "%d", r);
    return buf;
}

static int test_dims_create(int rank, int size)
{
    /* (nnodes, ndims, preset dims): presets of 0 are free. */
    struct {
        int nnodes, ndims, dims[4];
    } cases[] = {
        {size, 1, {0}},         {size, 2, {0, 0}},   {size, 3, {0, 0, 0}},  {16, 2, {0, 0}},
        {12, 3, {0, 0, 0}},     {7, 2, {0, 0}},      {30, 3, {0, 0, 0}},    {24, 3, {0, 2, 0}},
        {36, 4, {0, 0, 0, 0}},  {1, 3, {0, 0, 0}},   {6, 2, {3, 0}},        {64, 3, {0, 0, 0}},
        {18, 2, {0, 0}},        {60, 3, {0, 0, 5}},  {2 * size, 2, {0, 2}}, {8, 3, {2, 2, 2}},
    };
    int bad = 0;
    uint32_t h = HASH_INIT;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int dims[4];
        memcpy(dims, cases[c].dims, sizeof dims);
        MPI_Dims_create(cases[c].nnodes, cases[c].ndims, dims);
        char line[128];
        int len = snprintf(line, sizeof line, "dims_create %d nodes %d dims (preset", cases[c].nnodes, cases[c].ndims);
        for (int d = 0; d < cases[c].ndims; d++)
            len += snprintf(line + len, sizeof line - len, " %d", cases[c].dims[d]);
        len += snprintf(line + len, sizeof line - len, "):");
        int product = 1;
        for (int d = 0; d < cases[c].ndims; d++) {
            len += snprintf(line + len, sizeof line - len, " %d", dims[d]);
            product *= dims[d];
            bad += expect(cases[c].dims[d] == 0 || dims[d] == cases[c].dims[d], "%s: preset changed", line);
        }
        bad += expect(product == cases[c].nnodes, "%s: product %d", line, product);
        h = hash_ints(h, dims, cases[c].ndims);
        if (rank == (int)c % size)
            say("%s", line);
    }
    say("dims_create rank %d: hash %08x", rank, h);
    return bad;
}

/* A 2D grid without wrap-around and without reordering: Cartesian rank = world rank, so
 * everything can be printed per world rank. */
static int test_cart2d_basic(int rank, int size)
{
    int bad = 0, dims[2] = {0, 0}, periods[2] = {0, 0};
    MPI_Dims_create(size, 2, dims);
    MPI_Comm cart;
    MPI_Cart_create(WORLD, 2, dims, periods, 0, &cart);
    int crank, topo, world_topo, ndims;
    MPI_Comm_rank(cart, &crank);
    MPI_Topo_test(cart, &topo);
    MPI_Topo_test(WORLD, &world_topo);
    MPI_Cartdim_get(cart, &ndims);
    bad += expect(crank == rank && topo == MPI_CART && world_topo == MPI_UNDEFINED && ndims == 2,
                  "cart2d: rank %d topo %d world topo %d ndims %d", crank, topo, world_topo, ndims);

    int coords[2], gdims[2], gperiods[2], gcoords[2];
    MPI_Cart_coords(cart, crank, 2, coords);
    MPI_Cart_get(cart, 2, gdims, gperiods, gcoords);
    bad += expect(coords[0] == rank / dims[1] && coords[1] == rank % dims[1], "cart2d: coords not row-major");
    bad += expect(gdims[0] == dims[0] && gdims[1] == dims[1] && !gperiods[0] && !gperiods[1] &&
                      gcoords[0] == coords[0] && gcoords[1] == coords[1],
                  "cart2d: cart_get disagrees");

    /* Every rank's coordinates map back to it. */
    for (int r = 0; r < size; r++) {
        int c[2], back;
        MPI_Cart_coords(cart, r, 2, c);
        MPI_Cart_rank(cart, c, &back);
        bad += expect(back == r, "cart2d: rank %d -> (%d,%d) -> %d", r, c[0], c[1], back);
    }

    char line[256], a[16], b[16];
    int len = snprintf(line, sizeof line, "cart2d rank %d: dims %dx%d coords (%d,%d) topo cart %d world undefined %d",
                       rank, gdims[0], gdims[1], coords[0], coords[1], topo == MPI_CART, world_topo == MPI_UNDEFINED);
    const int disps[3] = {1, -1, 2};
    for (int d = 0; d < 2; d++)
        for (int k = 0; k < 3; k++) {
            int src, dst;
            MPI_Cart_shift(cart, d, disps[k], &src, &dst);
            len += snprintf(line + len, sizeof line - len, " s%d%+d(%s,%s)", d, disps[k], rank_text(src, a),
                            rank_text(dst, b));
            /* No wrap-around: a neighbour exists only inside the grid. */
            int c[2] = {coords[0], coords[1]}, want_dst, want_src;
            c[d] = coords[d] + disps[k];
            want_dst = c[d] >= 0 && c[d] < dims[d] ? c[0] * dims[1] + c[1] : MPI_PROC_NULL;
            c[d] = coords[d] - disps[k];
            want_src = c[d] >= 0 && c[d] < dims[d] ? c[0] * dims[1] + c[1] : MPI_PROC_NULL;
            bad += expect(src == want_src && dst == want_dst, "cart2d shift dim %d disp %d: (%d,%d)", d, disps[k], src,
                          dst);
        }
    say("%s", line);

    /* Neighbours talk over the Cartesian communicator: the sum of the existing
     * neighbours' ranks along dimension 1. */
    int left, right, from_left = -1, from_right = -1;
    MPI_Cart_shift(cart, 1, 1, &left, &right);
    MPI_Sendrecv(&rank, 1, MPI_INT, right, 1, &from_left, 1, MPI_INT, left, 1, cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&rank, 1, MPI_INT, left, 2, &from_right, 1, MPI_INT, right, 2, cart, MPI_STATUS_IGNORE);
    bad += expect((left == MPI_PROC_NULL ? from_left == -1 : from_left == left) &&
                      (right == MPI_PROC_NULL ? from_right == -1 : from_right == right),
                  "cart2d sendrecv: %d %d", from_left, from_right);
    MPI_Comm_free(&cart);
    return bad;
}

/* Periodic in dimension 1, reordering allowed: printed per Cartesian rank only. */
static int test_cart2d_periodic(int size)
{
    int bad = 0, dims[2] = {0, 0}, periods[2] = {0, 1};
    MPI_Dims_create(size, 2, dims);
    MPI_Comm cart;
    MPI_Cart_create(WORLD, 2, dims, periods, 1, &cart);
    int crank, coords[2], gdims[2], gperiods[2], gcoords[2];
    MPI_Comm_rank(cart, &crank);
    MPI_Cart_coords(cart, crank, 2, coords);
    MPI_Cart_get(cart, 2, gdims, gperiods, gcoords);
    bad += expect(!gperiods[0] && gperiods[1] && gcoords[0] == coords[0] && gcoords[1] == coords[1],
                  "periodic cart_get: periods %d %d", gperiods[0], gperiods[1]);

    /* Coordinates beyond a periodic dimension wrap around. */
    int wrapped[3], c[2];
    c[0] = coords[0], c[1] = coords[1] + dims[1];
    MPI_Cart_rank(cart, c, &wrapped[0]);
    c[1] = coords[1] - dims[1];
    MPI_Cart_rank(cart, c, &wrapped[1]);
    c[1] = -1;
    MPI_Cart_rank(cart, c, &wrapped[2]);
    const int last_in_row = coords[0] * dims[1] + dims[1] - 1;
    bad += expect(wrapped[0] == crank && wrapped[1] == crank && wrapped[2] == last_in_row,
                  "periodic cart_rank: %d %d %d", wrapped[0], wrapped[1], wrapped[2]);

    char line[256], a[16], b[16];
    int len = snprintf(line, sizeof line, "cart2d periodic cart rank %d: coords (%d,%d) wrap (%d,%d,%d)", crank,
                       coords[0], coords[1], wrapped[0], wrapped[1], wrapped[2]);
    const int disps[3] = {1, -1, 2};
    for (int d = 0; d < 2; d++)
        for (int k = 0; k < 3; k++) {
            int src, dst;
            MPI_Cart_shift(cart, d, disps[k], &src, &dst);
            len += snprintf(line + len, sizeof line - len, " s%d%+d(%s,%s)", d, disps[k], rank_text(src, a),
                            rank_text(dst, b));
            if (d == 1) {
                const int shift = ((disps[k] % dims[1]) + dims[1]) % dims[1];
                const int want_dst = coords[0] * dims[1] + (coords[1] + shift) % dims[1];
                const int want_src = coords[0] * dims[1] + (coords[1] + dims[1] - shift) % dims[1];
                bad += expect(src == want_src && dst == want_dst, "periodic shift disp %d: (%d,%d)", disps[k],
                              src, dst);
            }
        }
    say("%s", line);
    MPI_Comm_free(&cart);
    return bad;
}

/* Grids smaller than the communicator. */
static int test_cart_small(int rank, int size)
{
    int bad = 0;
    /* One rank short, no reordering: the last world rank is left out. */
    const int n = size > 1 ? size - 1 : 1, periods[1] = {1};
    MPI_Comm ring;
    MPI_Cart_create(WORLD, 1, &n, periods, 0, &ring);
    if (rank >= n) {
        bad += expect(ring == MPI_COMM_NULL, "cart small: rank %d should get MPI_COMM_NULL", rank);
        say("cart small rank %d: MPI_COMM_NULL %d", rank, ring == MPI_COMM_NULL);
    } else {
        int crank, csize, src, dst;
        MPI_Comm_rank(ring, &crank);
        MPI_Comm_size(ring, &csize);
        MPI_Cart_shift(ring, 0, 1, &src, &dst);
        int sum = 0;
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, ring);
        say("cart small rank %d: cart rank %d of %d, shift (%d,%d), sum of members %d", rank, crank, csize, src, dst,
            sum);
        bad += expect(crank == rank && csize == n && sum == n * (n - 1) / 2, "cart small: wrong ring");
        MPI_Comm_free(&ring);
    }

    /* Half the ranks (rounded up), reordering allowed: who is left out is up to MPI,
     * how many is not. */
    int dims2[2] = {(size + 1) / 2, 1}, periods2[2] = {0, 0}, member, members = 0;
    MPI_Comm half;
    MPI_Cart_create(WORLD, 2, dims2, periods2, 1, &half);
    member = half != MPI_COMM_NULL;
    MPI_Allreduce(&member, &members, 1, MPI_INT, MPI_SUM, WORLD);
    if (half != MPI_COMM_NULL) {
        int crank, csize;
        MPI_Comm_rank(half, &crank);
        MPI_Comm_size(half, &csize);
        say("cart half cart rank %d: of %d", crank, csize);
        MPI_Comm_free(&half);
    }
    if (rank == 0)
        say("cart half: %d members of %d", members, size);
    bad += expect(members == (size + 1) / 2, "cart half: %d members", members);
    return bad;
}

static int test_cart_sub(int rank, int size)
{
    int bad = 0, dims[3] = {0, 0, 0}, periods[3] = {1, 0, 1};
    MPI_Dims_create(size, 3, dims);
    MPI_Comm cart;
    MPI_Cart_create(WORLD, 3, dims, periods, 0, &cart);
    int coords[3];
    MPI_Cart_coords(cart, rank, 3, coords);

    const int remains[3][3] = {{1, 0, 0}, {0, 1, 1}, {0, 0, 1}};
    for (int k = 0; k < 3; k++) {
        MPI_Comm sub;
        MPI_Cart_sub(cart, remains[k], &sub);
        int srank, ssize, ndims, topo;
        MPI_Comm_rank(sub, &srank);
        MPI_Comm_size(sub, &ssize);
        MPI_Cartdim_get(sub, &ndims);
        MPI_Topo_test(sub, &topo);
        int sdims[3] = {0, 0, 0}, speriods[3] = {0, 0, 0}, scoords[3] = {0, 0, 0};
        MPI_Cart_get(sub, ndims, sdims, speriods, scoords);

        /* What MPI must produce: the kept dimensions, in order, and a row-major rank
         * over them. */
        int want_ndims = 0, want_size = 1, want_rank = 0, ok = 1;
        for (int d = 0; d < 3; d++)
            if (remains[k][d]) {
                ok &= sdims[want_ndims] == dims[d] && speriods[want_ndims] == periods[d] &&
                      scoords[want_ndims] == coords[d];
                want_ndims++;
                want_size *= dims[d];
                want_rank = want_rank * dims[d] + coords[d];
            }
        bad += expect(ok && ndims == want_ndims && ssize == want_size && srank == want_rank && topo == MPI_CART,
                      "cart_sub %d: rank %d size %d ndims %d", k, srank, ssize, ndims);

        /* A collective over the sub-grid: the world ranks of its members, in order. */
        int *members = malloc(ssize * sizeof *members);
        MPI_Allgather(&rank, 1, MPI_INT, members, 1, MPI_INT, sub);
        char line[256];
        int len = snprintf(line, sizeof line, "cart_sub %d%d%d rank %d: subrank %d of %d, dims", remains[k][0],
                           remains[k][1], remains[k][2], rank, srank, ssize);
        for (int d = 0; d < ndims; d++)
            len += snprintf(line + len, sizeof line - len, " %d%s", sdims[d], speriods[d] ? "p" : "");
        len += snprintf(line + len, sizeof line - len, ", members");
        for (int i = 0; i < ssize; i++)
            len += snprintf(line + len, sizeof line - len, " %d", members[i]);
        say("%s", line);
        free(members);
        MPI_Comm_free(&sub);
    }
    MPI_Comm_free(&cart);
    return bad;
}

/* ---- halo exchanges against a serial reference ---- */

/* One step of the stencil on a (nx+2) x (ny+2) x (nz+2) block with filled halos:
 * v' = (3 v + sum of the face neighbours) mod MOD. nz = 0 means 2D. */
static void stencil(const long long *u, long long *v, int nx, int ny, int nz)
{
    const int sy = nz ? nz + 2 : 1, sx = (ny + 2) * sy, zlo = nz ? 1 : 0, zhi = nz ? nz : 0;
    for (int i = 1; i <= nx; i++)
        for (int j = 1; j <= ny; j++)
            for (int k = zlo; k <= zhi; k++) {
                const long p = (long)i * sx + (long)j * sy + k;
                long long s = 3 * u[p] + u[p - sx] + u[p + sx] + u[p - sy] + u[p + sy];
                if (nz)
                    s += u[p - 1] + u[p + 1];
                v[p] = s % MOD;
            }
}

static long long initial(long gx, long gy, long gz)
{
    return (gx * 7919 + gy * 104729 + gz * 1299709 + 17) % MOD;
}

/* Fills the halos of a serial domain: copies across periodic dimensions, 0 elsewhere. */
static void serial_halos(long long *u, const int *n, const int *periodic, int ndims)
{
    const int nz = ndims == 3 ? n[2] : 0, sy = nz ? nz + 2 : 1, sx = (n[1] + 2) * sy;
    const int ext[3] = {n[0] + 2, n[1] + 2, nz ? nz + 2 : 1};
    const int stride[3] = {sx, sy, 1};
    for (int d = 0; d < ndims; d++) {
        /* Faces perpendicular to d: loop over the other two coordinates. */
        const int a = d == 0 ? 1 : 0, b = d == 2 ? 1 : 2;
        for (int x = 0; x < ext[a]; x++)
            for (int y = 0; y < (ndims == 3 || b < 2 ? ext[b] : 1); y++) {
                const long base = (long)x * stride[a] + (ndims == 3 || b < 2 ? (long)y * stride[b] : 0);
                const long lo = base, hi = base + (long)(n[d] + 1) * stride[d];
                u[lo] = periodic[d] ? u[base + (long)n[d] * stride[d]] : 0;
                u[hi] = periodic[d] ? u[base + (long)stride[d]] : 0;
            }
    }
}

/* Exchanges the faces of a local block along every dimension with MPI_Sendrecv. */
static void exchange(MPI_Comm cart, long long *u, const int *n, int ndims, long long *sendbuf, long long *recvbuf)
{
    const int nz = ndims == 3 ? n[2] : 0, sy = nz ? nz + 2 : 1, sx = (n[1] + 2) * sy;
    const int ext[3] = {n[0] + 2, n[1] + 2, nz ? nz + 2 : 1};
    const int stride[3] = {sx, sy, 1};
    for (int d = 0; d < ndims; d++) {
        const int a = d == 0 ? 1 : 0, b = d == 2 ? 1 : 2;
        const int na = ext[a], nb = ndims == 3 || b < 2 ? ext[b] : 1;
        int lo, hi;
        MPI_Cart_shift(cart, d, 1, &lo, &hi);
        for (int dir = 0; dir < 2; dir++) {
            /* dir 0: my last interior plane goes up, my low halo comes from below;
             * dir 1: the other way round. */
            const long from = (long)(dir == 0 ? n[d] : 1) * stride[d];
            const long into = (long)(dir == 0 ? 0 : n[d] + 1) * stride[d];
            int m = 0;
            for (int x = 0; x < na; x++)
                for (int y = 0; y < nb; y++)
                    sendbuf[m++] = u[from + (long)x * stride[a] + (nb > 1 ? (long)y * stride[b] : 0)];
            for (int i = 0; i < m; i++)
                recvbuf[i] = 0; /* stays 0 from MPI_PROC_NULL */
            MPI_Sendrecv(sendbuf, m, MPI_LONG_LONG, dir == 0 ? hi : lo, 10 + dir, recvbuf, m, MPI_LONG_LONG,
                         dir == 0 ? lo : hi, 10 + dir, cart, MPI_STATUS_IGNORE);
            m = 0;
            for (int x = 0; x < na; x++)
                for (int y = 0; y < nb; y++)
                    u[into + (long)x * stride[a] + (nb > 1 ? (long)y * stride[b] : 0)] = recvbuf[m++];
        }
    }
}

static int test_halo(int ndims, const int *periods, int reorder, const int *local, int steps, const char *name)
{
    int size, dims[3] = {0, 0, 0}, bad = 0;
    MPI_Comm_size(WORLD, &size);
    MPI_Dims_create(size, ndims, dims);
    MPI_Comm cart;
    MPI_Cart_create(WORLD, ndims, dims, periods, reorder, &cart);
    int crank, coords[3] = {0, 0, 0};
    MPI_Comm_rank(cart, &crank);
    MPI_Cart_coords(cart, crank, ndims, coords);

    const int n[3] = {local[0], local[1], ndims == 3 ? local[2] : 1};
    const int nz = ndims == 3 ? n[2] : 0;
    const long cells = (long)(n[0] + 2) * (n[1] + 2) * (nz ? nz + 2 : 1);
    long long *u = calloc(cells, sizeof *u), *v = calloc(cells, sizeof *v);
    long long *sendbuf = malloc(cells * sizeof *sendbuf), *recvbuf = malloc(cells * sizeof *recvbuf);
    const int sy = nz ? nz + 2 : 1, sx = (n[1] + 2) * sy;
    for (int i = 1; i <= n[0]; i++)
        for (int j = 1; j <= n[1]; j++)
            for (int k = nz ? 1 : 0; k <= nz; k++)
                u[(long)i * sx + (long)j * sy + k] =
                    initial((long)coords[0] * n[0] + i - 1, (long)coords[1] * n[1] + j - 1,
                            nz ? (long)coords[2] * n[2] + k - 1 : 0);

    for (int s = 0; s < steps; s++) {
        exchange(cart, u, n, ndims, sendbuf, recvbuf);
        stencil(u, v, n[0], n[1], nz);
        long long *t = u;
        u = v, v = t;
    }

    /* The same steps over the whole domain, serially. */
    const int g[3] = {dims[0] * n[0], dims[1] * n[1], nz ? dims[2] * n[2] : 1};
    const int gz = nz ? g[2] : 0, gsy = gz ? gz + 2 : 1, gsx = (g[1] + 2) * gsy;
    const long gcells = (long)(g[0] + 2) * (g[1] + 2) * (gz ? gz + 2 : 1);
    long long *gu = calloc(gcells, sizeof *gu), *gv = calloc(gcells, sizeof *gv);
    for (int i = 1; i <= g[0]; i++)
        for (int j = 1; j <= g[1]; j++)
            for (int k = gz ? 1 : 0; k <= gz; k++)
                gu[(long)i * gsx + (long)j * gsy + k] = initial(i - 1, j - 1, gz ? k - 1 : 0);
    for (int s = 0; s < steps; s++) {
        serial_halos(gu, g, periods, ndims);
        stencil(gu, gv, g[0], g[1], gz);
        long long *t = gu;
        gu = gv, gv = t;
    }

    unsigned long long checksum = 0;
    long wrong = 0;
    for (int i = 1; i <= n[0]; i++)
        for (int j = 1; j <= n[1]; j++)
            for (int k = nz ? 1 : 0; k <= nz; k++) {
                const long gi = (long)coords[0] * n[0] + i, gj = (long)coords[1] * n[1] + j,
                           gk = nz ? (long)coords[2] * n[2] + k : 0;
                const long long mine = u[(long)i * sx + (long)j * sy + k];
                checksum = checksum * 31 + (unsigned long long)mine;
                wrong += mine != gu[gi * gsx + gj * gsy + gk];
            }
    bad += expect(wrong == 0, "%s coords (%d,%d,%d): %ld cells differ from the serial reference", name, coords[0],
                  coords[1], coords[2], wrong);
    unsigned long long total = 0;
    MPI_Allreduce(&checksum, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, cart);
    say("%s coords (%d,%d,%d) of %dx%dx%d: block checksum %016llx, total %016llx", name, coords[0], coords[1],
        coords[2], dims[0], dims[1], ndims == 3 ? dims[2] : 1, checksum, total);
    free(u), free(v), free(sendbuf), free(recvbuf), free(gu), free(gv);
    MPI_Comm_free(&cart);
    return bad;
}

/* Open MPI 4.1's MPI_Cart_map gives ranks beyond a smaller grid a rank of their own, not
 * MPI_UNDEFINED: only ranks inside the grid are compared. */
static int test_cart_map(int rank, int size)
{
    int bad = 0, checked = 0;
    for (int spare = 0; spare < 2 && spare < size; spare++) {
        int dims[2] = {0, 0}, periods[2] = {1, 0}, mapped = -2, created = MPI_UNDEFINED;
        MPI_Dims_create(size - spare, 2, dims);
        MPI_Cart_map(WORLD, 2, dims, periods, &mapped);
        MPI_Comm cart;
        MPI_Cart_create(WORLD, 2, dims, periods, 1, &cart);
        if (cart != MPI_COMM_NULL) {
            MPI_Comm_rank(cart, &created);
            MPI_Comm_free(&cart);
            bad += expect(mapped == created, "MPI_Cart_map gave %d, MPI_Cart_create %d", mapped, created);
            checked++;
        }
    }
    say("cart_map rank %d: %d grids checked", rank, checked);
    return bad;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(WORLD, &rank);
    MPI_Comm_size(WORLD, &size);

    int bad = test_dims_create(rank, size);
    bad += test_cart2d_basic(rank, size);
    bad += test_cart2d_periodic(size);
    bad += test_cart_small(rank, size);
    bad += test_cart_sub(rank, size);
    bad += test_cart_map(rank, size);
    const int periods2[2] = {1, 0}, local2[2] = {6, 5};
    bad += test_halo(2, periods2, 1, local2, 6, "halo2d");
    const int periods3[3] = {1, 0, 1}, local3[3] = {4, 3, 5};
    bad += test_halo(3, periods3, 0, local3, 4, "halo3d");

    const int status = report_failures(rank, bad);
    MPI_Finalize();
    return status;
}
