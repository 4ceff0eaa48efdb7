/* Derived datatypes.
 *   Constructors: MPI_Type_contiguous, MPI_Type_vector, MPI_Type_create_hvector,
 *   MPI_Type_indexed, MPI_Type_create_hindexed, MPI_Type_create_indexed_block,
 *   MPI_Type_create_struct (displacements from MPI_Get_address),
 *   MPI_Type_create_subarray (C and Fortran order), MPI_Type_create_resized, MPI_Type_dup;
 *   MPI_Type_commit, MPI_Type_free (handle becomes MPI_DATATYPE_NULL; a type built on a
 *   freed one still works).
 *   Queries: MPI_Type_size, MPI_Type_get_extent, MPI_Type_get_true_extent.
 *   Point-to-point: every type sent and received as plain ints/doubles and the other
 *   way round; MPI_Get_count and MPI_Get_elements after receiving fewer elements than
 *   the buffer holds, and MPI_UNDEFINED from Get_count when the data is not a whole
 *   number of the type; MPI_Probe + MPI_Get_count on a derived type.
 *   MPI_Pack, MPI_Unpack, MPI_Pack_size, and MPI_PACKED messages.
 *   Collectives: MPI_Bcast of a vector (a matrix column), MPI_Gather of a struct,
 *   MPI_Allreduce (a user sum) on a contiguous type of doubles, MPI_Alltoall with a
 *   resized column type (a distributed transpose), MPI_Gather into columns.
 * Not printed: the extent of an unresized struct (its alignment padding is up to the
 * implementation), Pack_size and packed positions (implementations may add headers). */
#include "conformance.h"

#include <stddef.h>

#define WORLD MPI_COMM_WORLD
#define UNTOUCHED (-7)

static void neighbours(int rank, int size, int *left, int *right)
{
    *right = (rank + 1) % size;
    *left = (rank + size - 1) % size;
}

/* Prints size, extent and true extent, and checks them against what MPI defines. */
static int describe_type(int rank, const char *name, MPI_Datatype t, int want_size, long want_lb, long want_extent,
                         long want_true_lb, long want_true_extent, int print_extent)
{
    int size;
    MPI_Aint lb, extent, true_lb, true_extent;
    MPI_Type_size(t, &size);
    MPI_Type_get_extent(t, &lb, &extent);
    MPI_Type_get_true_extent(t, &true_lb, &true_extent);
    int bad = expect(size == want_size && true_lb == want_true_lb && true_extent == want_true_extent,
                     "type %s: size %d true lb %ld true extent %ld", name, size, (long)true_lb, (long)true_extent);
    if (print_extent)
        bad += expect(lb == want_lb && extent == want_extent, "type %s: lb %ld extent %ld", name, (long)lb,
                      (long)extent);
    else
        bad += expect(extent >= true_extent, "type %s: extent %ld below true extent", name, (long)extent);
    if (rank == 0) {
        if (print_extent)
            say("type %s: size %d lb %ld extent %ld true lb %ld true extent %ld", name, size, (long)lb, (long)extent,
                (long)true_lb, (long)true_extent);
        else
            say("type %s: size %d true lb %ld true extent %ld", name, size, (long)true_lb, (long)true_extent);
    }
    return bad;
}

struct record {
    char c;
    double d;
    int i[3];
};

static MPI_Datatype record_type(void)
{
    struct record r = {0};
    MPI_Aint base, disp[3];
    MPI_Get_address(&r, &base);
    MPI_Get_address(&r.c, &disp[0]);
    MPI_Get_address(&r.d, &disp[1]);
    MPI_Get_address(&r.i, &disp[2]);
    for (int k = 0; k < 3; k++)
        disp[k] -= base;
    const int lens[3] = {1, 1, 3};
    const MPI_Datatype types[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};
    MPI_Datatype t;
    MPI_Type_create_struct(3, lens, disp, types, &t);
    return t;
}

/* ---- the types and their geometry ---- */
static int test_geometry(int rank)
{
    int bad = 0;
    MPI_Datatype t;
    MPI_Type_contiguous(3, MPI_INT, &t);
    bad += describe_type(rank, "contiguous(3,int)", t, 12, 0, 12, 0, 12, 1);
    MPI_Type_free(&t);
    bad += expect(t == MPI_DATATYPE_NULL, "type_free did not set MPI_DATATYPE_NULL");

    MPI_Type_vector(4, 2, 5, MPI_INT, &t);
    bad += describe_type(rank, "vector(4,2,5,int)", t, 32, 0, 68, 0, 68, 1);
    MPI_Datatype resized, dup;
    MPI_Type_create_resized(t, 0, 8, &resized);
    bad += describe_type(rank, "resized(vector,0,8)", resized, 32, 0, 8, 0, 68, 1);
    MPI_Type_dup(t, &dup);
    bad += describe_type(rank, "dup(vector)", dup, 32, 0, 68, 0, 68, 1);
    MPI_Type_free(&resized), MPI_Type_free(&dup), MPI_Type_free(&t);

    MPI_Type_create_hvector(3, 1, 24, MPI_DOUBLE, &t);
    bad += describe_type(rank, "hvector(3,1,24B,double)", t, 24, 0, 56, 0, 56, 1);
    MPI_Type_free(&t);

    const int lens[3] = {2, 1, 3}, displs[3] = {5, 0, 9};
    MPI_Type_indexed(3, lens, displs, MPI_INT, &t);
    bad += describe_type(rank, "indexed({2,1,3},{5,0,9},int)", t, 24, 0, 48, 0, 48, 1);
    MPI_Type_free(&t);

    const int hlens[2] = {1, 2};
    const MPI_Aint hdispls[2] = {16, 0};
    MPI_Type_create_hindexed(2, hlens, hdispls, MPI_DOUBLE, &t);
    bad += describe_type(rank, "hindexed({1,2},{16B,0B},double)", t, 24, 0, 24, 0, 24, 1);
    MPI_Type_free(&t);

    const int bdispls[3] = {6, 0, 3};
    MPI_Type_create_indexed_block(3, 2, bdispls, MPI_INT, &t);
    bad += describe_type(rank, "indexed_block(2,{6,0,3},int)", t, 24, 0, 32, 0, 32, 1);
    MPI_Type_free(&t);

    t = record_type();
    bad += describe_type(rank, "struct(char,double,int[3])", t, 1 + 8 + 12, 0, 0, 0,
                         (long)(offsetof(struct record, i) + 3 * sizeof(int)), 0);
    MPI_Type_create_resized(t, 0, sizeof(struct record), &resized);
    bad += describe_type(rank, "resized(struct)", resized, 21, 0, (long)sizeof(struct record), 0,
                         (long)(offsetof(struct record, i) + 3 * sizeof(int)), 1);
    MPI_Type_free(&resized), MPI_Type_free(&t);

    const int sizes[3] = {4, 5, 6}, subsizes[3] = {2, 3, 2}, starts[3] = {1, 1, 3};
    MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t);
    /* first element (1,1,3) at 1*30+1*6+3 = 39, last (2,3,4) at 2*30+3*6+4 = 82 */
    bad += describe_type(rank, "subarray C", t, 48, 0, 480, 39 * 4, (82 - 39 + 1) * 4, 1);
    MPI_Type_free(&t);
    MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_INT, &t);
    /* first (1,1,3) at 1+1*4+3*20 = 65, last (2,3,4) at 2+3*4+4*20 = 94 */
    bad += describe_type(rank, "subarray Fortran", t, 48, 0, 480, 65 * 4, (94 - 65 + 1) * 4, 1);
    MPI_Type_free(&t);
    return bad;
}

/* ---- point-to-point: derived on one side, plain on the other ---- */

/* Sends `count` of `type` from sendbuf to the right neighbour and receives `n` ints (or
 * doubles, by `basic`) from the left one; returns what came in, hashed, and checks it
 * against the ints at `positions` of the left neighbour's buffer. */
static int send_derived_receive_plain(int rank, int size, const char *name, MPI_Datatype type, int count,
                                      MPI_Datatype basic, const int *positions, int n, int (*value)(int, int),
                                      uint32_t *h)
{
    int left, right, bad = 0;
    neighbours(rank, size, &left, &right);
    int sendbuf[256];
    double dsend[256];
    for (int k = 0; k < 256; k++)
        sendbuf[k] = value(rank, k), dsend[k] = value(rank, k) + 0.5;
    int recvbuf[64];
    double drecv[64];
    const int is_double = basic == MPI_DOUBLE;
    MPI_Request req;
    MPI_Isend(is_double ? (void *)dsend : (void *)sendbuf, count, type, right, 20, WORLD, &req);
    MPI_Status status;
    MPI_Recv(is_double ? (void *)drecv : (void *)recvbuf, 64, basic, left, 20, WORLD, &status);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    int got;
    MPI_Get_count(&status, basic, &got);
    bad += expect(got == n, "%s: received %d elements, want %d", name, got, n);
    for (int k = 0; k < n && k < got; k++) {
        const double want = is_double ? value(left, positions[k]) + 0.5 : value(left, positions[k]);
        const double have = is_double ? drecv[k] : recvbuf[k];
        if (have != want) {
            bad += expect(0, "%s: element %d is %g, want %g", name, k, have, want);
            break;
        }
    }
    *h = is_double ? hash_bytes(*h, drecv, got * sizeof(double)) : hash_ints(*h, recvbuf, got);
    return bad;
}

static int plain_value(int r, int k)
{
    return r * 1000 + k;
}

/* A record's contents for rank r, compared field by field (never its padding). */
static void fill_record(struct record *x, int r, int k)
{
    memset(x, 0, sizeof *x);
    x->c = (char)('a' + (r + k) % 26);
    x->d = r * 10.25 + k;
    for (int j = 0; j < 3; j++)
        x->i[j] = r * 100 + k * 10 + j;
}

static int same_record(const struct record *a, const struct record *b)
{
    return a->c == b->c && a->d == b->d && a->i[0] == b->i[0] && a->i[1] == b->i[1] && a->i[2] == b->i[2];
}

static int test_point_to_point(int rank, int size)
{
    int bad = 0, left, right;
    uint32_t h = HASH_INIT;
    neighbours(rank, size, &left, &right);

    MPI_Datatype vec, vec_dup, hvec, idx, hidx, blk, sub_c, sub_f;
    MPI_Type_vector(4, 2, 5, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Type_dup(vec, &vec_dup); /* a dup of a committed type is committed */
    MPI_Type_create_hvector(3, 2, 40, MPI_DOUBLE, &hvec);
    MPI_Type_commit(&hvec);
    const int lens[3] = {2, 1, 3}, displs[3] = {5, 0, 9};
    MPI_Type_indexed(3, lens, displs, MPI_INT, &idx);
    MPI_Type_commit(&idx);
    const int hlens[2] = {1, 2};
    const MPI_Aint hdispls[2] = {16, 0};
    MPI_Type_create_hindexed(2, hlens, hdispls, MPI_DOUBLE, &hidx);
    MPI_Type_commit(&hidx);
    const int bdispls[3] = {6, 0, 3};
    MPI_Type_create_indexed_block(3, 2, bdispls, MPI_INT, &blk);
    MPI_Type_commit(&blk);
    const int sizes[3] = {4, 5, 6}, subsizes[3] = {2, 3, 2}, starts[3] = {1, 1, 3};
    MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &sub_c);
    MPI_Type_commit(&sub_c);
    MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_INT, &sub_f);
    MPI_Type_commit(&sub_f);

    /* Where the data of each type lies, in elements of the base type, in order. */
    const int vec_pos[16] = {0, 1, 5, 6, 10, 11, 15, 16, 17, 18, 22, 23, 27, 28, 32, 33}; /* 2 vectors: extent 17 */
    const int hvec_pos[6] = {0, 1, 5, 6, 10, 11};
    const int idx_pos[6] = {5, 6, 0, 9, 10, 11};
    const int hidx_pos[3] = {2, 0, 1};
    const int blk_pos[6] = {6, 7, 0, 1, 3, 4};
    int sub_c_pos[12], sub_f_pos[12], m = 0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 2; k++)
                sub_c_pos[m++] = (1 + i) * 30 + (1 + j) * 6 + (3 + k);
    m = 0;
    for (int k = 0; k < 2; k++) /* Fortran: the first index runs fastest */
        for (int j = 0; j < 3; j++)
            for (int i = 0; i < 2; i++)
                sub_f_pos[m++] = (1 + i) + (1 + j) * 4 + (3 + k) * 20;

    bad += send_derived_receive_plain(rank, size, "vector x2", vec, 2, MPI_INT, vec_pos, 16, plain_value, &h);
    bad += send_derived_receive_plain(rank, size, "dup(vector)", vec_dup, 1, MPI_INT, vec_pos, 8, plain_value, &h);
    bad += send_derived_receive_plain(rank, size, "hvector", hvec, 1, MPI_DOUBLE, hvec_pos, 6, plain_value, &h);
    bad += send_derived_receive_plain(rank, size, "indexed", idx, 1, MPI_INT, idx_pos, 6, plain_value, &h);
    bad += send_derived_receive_plain(rank, size, "hindexed", hidx, 1, MPI_DOUBLE, hidx_pos, 3, plain_value, &h);
    bad += send_derived_receive_plain(rank, size, "indexed_block", blk, 1, MPI_INT, blk_pos, 6, plain_value, &h);
    bad += send_derived_receive_plain(rank, size, "subarray C", sub_c, 1, MPI_INT, sub_c_pos, 12, plain_value, &h);
    bad += send_derived_receive_plain(rank, size, "subarray Fortran", sub_f, 1, MPI_INT, sub_f_pos, 12, plain_value,
                                      &h);

    /* Plain ints into a vector and an indexed type: the gaps stay untouched. */
    {
        int out[16], in[40], want[40];
        for (int k = 0; k < 16; k++)
            out[k] = plain_value(rank, k);
        for (int k = 0; k < 40; k++)
            in[k] = want[k] = UNTOUCHED;
        for (int k = 0; k < 16; k++)
            want[vec_pos[k]] = plain_value(left, k);
        MPI_Sendrecv(out, 16, MPI_INT, right, 21, in, 2, vec, left, 21, WORLD, MPI_STATUS_IGNORE);
        bad += check_ints("plain into vector", in, want, 40);
        h = hash_ints(h, in, 40);

        for (int k = 0; k < 40; k++)
            in[k] = want[k] = UNTOUCHED;
        for (int k = 0; k < 6; k++)
            want[idx_pos[k]] = plain_value(left, k);
        MPI_Sendrecv(out, 6, MPI_INT, right, 22, in, 1, idx, left, 22, WORLD, MPI_STATUS_IGNORE);
        bad += check_ints("plain into indexed", in, want, 40);
        h = hash_ints(h, in, 40);
    }

    /* Fewer elements than the receive buffer holds; a partial derived type. */
    {
        int out[8], in[40], count, elements, count2, elements2, probed;
        for (int k = 0; k < 8; k++)
            out[k] = plain_value(rank, k);
        MPI_Status status;
        MPI_Sendrecv(out, 5, MPI_INT, right, 23, in, 40, MPI_INT, left, 23, WORLD, &status);
        MPI_Get_count(&status, MPI_INT, &count);
        MPI_Get_elements(&status, MPI_INT, &elements);

        /* 5 ints into pairs of ints: not a whole number of pairs. */
        MPI_Datatype pair;
        MPI_Type_contiguous(2, MPI_INT, &pair);
        MPI_Type_commit(&pair);
        MPI_Sendrecv(out, 5, MPI_INT, right, 24, in, 4, pair, left, 24, WORLD, &status);
        MPI_Get_count(&status, pair, &count2);
        MPI_Get_elements(&status, pair, &elements2);

        /* 5 ints into a vector of 8: they land in its first 5 places. The message is
         * probed first, and Get_count on the probe's status with the pair type is
         * MPI_UNDEFINED too; a second message (tag 26) waits behind it. */
        for (int k = 0; k < 40; k++)
            in[k] = UNTOUCHED;
        MPI_Request reqs[2];
        MPI_Isend(out, 5, MPI_INT, right, 25, WORLD, &reqs[0]);
        MPI_Isend(out, 5, MPI_INT, right, 26, WORLD, &reqs[1]);
        MPI_Probe(left, 25, WORLD, &status);
        MPI_Get_count(&status, pair, &probed);
        MPI_Recv(in, 1, vec, left, 25, WORLD, &status);
        int vcount, velements;
        MPI_Get_count(&status, vec, &vcount);
        MPI_Get_elements(&status, vec, &velements);
        int placed = 1;
        for (int k = 0; k < 5; k++)
            placed &= in[vec_pos[k]] == plain_value(left, k);
        placed &= in[vec_pos[5]] == UNTOUCHED;
        int sink[5];
        MPI_Recv(sink, 5, MPI_INT, left, 26, WORLD, MPI_STATUS_IGNORE);
        MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);

        /* Only the int of a {int, double} struct. */
        struct {
            int a;
            double b;
        } pairs[2];
        MPI_Datatype int_double;
        const int ld_lens[2] = {1, 1};
        MPI_Aint ld_disp[2], base;
        MPI_Get_address(&pairs[0], &base);
        MPI_Get_address(&pairs[0].a, &ld_disp[0]);
        MPI_Get_address(&pairs[0].b, &ld_disp[1]);
        ld_disp[0] -= base, ld_disp[1] -= base;
        const MPI_Datatype ld_types[2] = {MPI_INT, MPI_DOUBLE};
        MPI_Type_create_struct(2, ld_lens, ld_disp, ld_types, &int_double);
        MPI_Type_commit(&int_double);
        pairs[0].a = -1;
        MPI_Sendrecv(out, 1, MPI_INT, right, 27, pairs, 2, int_double, left, 27, WORLD, &status);
        int scount, selements;
        MPI_Get_count(&status, int_double, &scount);
        MPI_Get_elements(&status, int_double, &selements);

        char c2[16], vc[16], sc[16];
        snprintf(c2, sizeof c2, "%d", count2);
        snprintf(vc, sizeof vc, "%d", vcount);
        snprintf(sc, sizeof sc, "%d", scount);
        say("get_count rank %d: ints %d/%d, pairs %s/%d (probed %s), vector %s/%d placed %d, struct %s/%d a=%d", rank,
            count, elements, count2 == MPI_UNDEFINED ? "undefined" : c2, elements2,
            probed == MPI_UNDEFINED ? "undefined" : "defined", vcount == MPI_UNDEFINED ? "undefined" : vc, velements,
            placed, scount == MPI_UNDEFINED ? "undefined" : sc, selements, pairs[0].a);
        bad += expect(count == 5 && elements == 5 && count2 == MPI_UNDEFINED && elements2 == 5 &&
                          probed == MPI_UNDEFINED && vcount == MPI_UNDEFINED && velements == 5 && placed &&
                          scount == MPI_UNDEFINED && selements == 1 && pairs[0].a == plain_value(left, 0),
                      "get_count/get_elements rank %d: wrong", rank);
        MPI_Type_free(&pair);
        MPI_Type_free(&int_double);
    }

    /* A type built on a freed one keeps working. */
    {
        MPI_Datatype triple, column;
        MPI_Type_contiguous(3, MPI_INT, &triple);
        MPI_Type_vector(2, 1, 2, triple, &column);
        MPI_Type_free(&triple);
        MPI_Type_commit(&column);
        int out[12], in[6];
        for (int k = 0; k < 12; k++)
            out[k] = plain_value(rank, k);
        MPI_Sendrecv(out, 1, column, right, 28, in, 6, MPI_INT, left, 28, WORLD, MPI_STATUS_IGNORE);
        const int want[6] = {plain_value(left, 0), plain_value(left, 1), plain_value(left, 2),
                             plain_value(left, 6), plain_value(left, 7), plain_value(left, 8)};
        bad += check_ints("vector of a freed contiguous", in, want, 6);
        h = hash_ints(h, in, 6);
        MPI_Type_free(&column);
    }

    /* Structs both ways. */
    {
        MPI_Datatype rec = record_type(), rec_resized;
        MPI_Type_create_resized(rec, 0, sizeof(struct record), &rec_resized);
        MPI_Type_commit(&rec_resized);
        struct record out[3], in[3], want;
        for (int k = 0; k < 3; k++)
            fill_record(&out[k], rank, k);
        memset(in, 0, sizeof in);
        MPI_Sendrecv(out, 3, rec_resized, right, 29, in, 3, rec_resized, left, 29, WORLD, MPI_STATUS_IGNORE);
        for (int k = 0; k < 3; k++) {
            fill_record(&want, left, k);
            bad += expect(same_record(&in[k], &want), "struct sendrecv: record %d differs", k);
            h = hash_bytes(h, &in[k].c, 1);
            h = hash_bytes(h, &in[k].d, sizeof in[k].d);
            h = hash_ints(h, in[k].i, 3);
        }
        MPI_Type_free(&rec);
        MPI_Type_free(&rec_resized);
    }

    say("p2p types rank %d: hash %08x", rank, h);
    MPI_Datatype all[] = {vec, vec_dup, hvec, idx, hidx, blk, sub_c, sub_f};
    for (int k = 0; k < 8; k++)
        MPI_Type_free(&all[k]);
    return bad;
}

static int test_pack(int rank, int size)
{
    int bad = 0, left, right;
    neighbours(rank, size, &left, &right);
    MPI_Datatype vec;
    MPI_Type_vector(4, 2, 5, MPI_INT, &vec);
    MPI_Type_commit(&vec);

    int ints[5], matrix[20];
    double doubles[3];
    for (int k = 0; k < 5; k++)
        ints[k] = plain_value(rank, k);
    for (int k = 0; k < 20; k++)
        matrix[k] = plain_value(rank, 100 + k);
    for (int k = 0; k < 3; k++)
        doubles[k] = rank + k / 4.0;

    int s1, s2, s3;
    MPI_Pack_size(5, MPI_INT, WORLD, &s1);
    MPI_Pack_size(1, vec, WORLD, &s2);
    MPI_Pack_size(3, MPI_DOUBLE, WORLD, &s3);
    const int capacity = s1 + s2 + s3;
    bad += expect(s1 >= 20 && s2 >= 32 && s3 >= 24, "pack_size below the data size: %d %d %d", s1, s2, s3);
    char *packed = malloc(capacity), *incoming = malloc(capacity);
    int position = 0;
    MPI_Pack(ints, 5, MPI_INT, packed, capacity, &position, WORLD);
    MPI_Pack(matrix, 1, vec, packed, capacity, &position, WORLD);
    MPI_Pack(doubles, 3, MPI_DOUBLE, packed, capacity, &position, WORLD);
    bad += expect(position <= capacity, "pack: position %d beyond pack_size %d", position, capacity);

    /* Locally: unpack the vector as 8 plain ints, which has the same type signature. */
    int check_ints5[5], flat[8];
    double check_doubles3[3];
    int at = 0;
    MPI_Unpack(packed, capacity, &at, check_ints5, 5, MPI_INT, WORLD);
    MPI_Unpack(packed, capacity, &at, flat, 8, MPI_INT, WORLD);
    MPI_Unpack(packed, capacity, &at, check_doubles3, 3, MPI_DOUBLE, WORLD);
    bad += expect(at == position, "unpack ended at %d, pack at %d", at, position);
    const int vec_pos[8] = {0, 1, 5, 6, 10, 11, 15, 16};
    int ok = memcmp(check_ints5, ints, sizeof ints) == 0 && memcmp(check_doubles3, doubles, sizeof doubles) == 0;
    for (int k = 0; k < 8; k++)
        ok &= flat[k] == matrix[vec_pos[k]];
    bad += expect(ok, "pack/unpack round trip differs");

    /* Over the wire as MPI_PACKED, unpacked into the original layout. */
    MPI_Request req;
    MPI_Isend(packed, position, MPI_PACKED, right, 30, WORLD, &req);
    MPI_Status status;
    int bytes;
    MPI_Probe(left, 30, WORLD, &status);
    MPI_Get_count(&status, MPI_PACKED, &bytes);
    MPI_Recv(incoming, bytes, MPI_PACKED, left, 30, WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    int got_ints[5], got_matrix[20];
    double got_doubles[3];
    for (int k = 0; k < 20; k++)
        got_matrix[k] = UNTOUCHED;
    at = 0;
    MPI_Unpack(incoming, bytes, &at, got_ints, 5, MPI_INT, WORLD);
    MPI_Unpack(incoming, bytes, &at, got_matrix, 1, vec, WORLD);
    MPI_Unpack(incoming, bytes, &at, got_doubles, 3, MPI_DOUBLE, WORLD);
    ok = 1;
    for (int k = 0; k < 5; k++)
        ok &= got_ints[k] == plain_value(left, k);
    for (int k = 0, v = 0; k < 20; k++) {
        const int in_vector = v < 8 && vec_pos[v] == k;
        ok &= got_matrix[k] == (in_vector ? plain_value(left, 100 + k) : UNTOUCHED);
        v += in_vector;
    }
    for (int k = 0; k < 3; k++)
        ok &= got_doubles[k] == left + k / 4.0;
    bad += expect(ok, "packed message from %d: contents differ", left);
    uint32_t h = hash_ints(HASH_INIT, got_ints, 5);
    h = hash_ints(h, got_matrix, 20);
    h = hash_bytes(h, got_doubles, sizeof got_doubles);
    say("pack rank %d: from %d ints %d..%d matrix[16] %d doubles %g %g, hash %08x", rank, left, got_ints[0],
        got_ints[4], got_matrix[16], got_doubles[0], got_doubles[2], h);
    free(packed), free(incoming);
    MPI_Type_free(&vec);
    return bad;
}

/* ---- derived types in collectives ---- */

static void add_triples(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    const double *a = in;
    double *b = inout;
    for (int k = 0; k < 3 * *len; k++)
        b[k] += a[k];
}
static int test_collectives(int rank, int size)
{
    int bad = 0;
    uint32_t h = HASH_INIT;

    /* Bcast of column 2 of a 6x5 matrix: the other columns stay as they were. */
    {
        enum { ROWS = 6, COLS = 5 };
        const int root = size - 1;
        int m[ROWS * COLS], want[ROWS * COLS];
        MPI_Datatype column;
        MPI_Type_vector(ROWS, 1, COLS, MPI_INT, &column);
        MPI_Type_commit(&column);
        for (int k = 0; k < ROWS * COLS; k++) {
            m[k] = plain_value(rank, k);
            want[k] = k % COLS == 2 ? plain_value(root, k) : plain_value(rank, k);
        }
        MPI_Bcast(&m[2], 1, column, root, WORLD);
        bad += check_ints("bcast column", m, want, ROWS * COLS);
        h = hash_ints(h, m, ROWS * COLS);
        MPI_Type_free(&column);
    }

    /* Gather of structs to rank 0. */
    {
        MPI_Datatype rec = record_type(), rec_resized;
        MPI_Type_create_resized(rec, 0, sizeof(struct record), &rec_resized);
        MPI_Type_commit(&rec_resized);
        struct record mine[2], *all = calloc(2 * size, sizeof *all), want;
        fill_record(&mine[0], rank, 0);
        fill_record(&mine[1], rank, 1);
        MPI_Gather(mine, 2, rec_resized, all, 2, rec_resized, 0, WORLD);
        if (rank == 0) {
            for (int r = 0; r < size; r++)
                for (int k = 0; k < 2; k++) {
                    fill_record(&want, r, k);
                    bad += expect(same_record(&all[2 * r + k], &want), "gather struct: record %d of %d differs", k, r);
                    h = hash_bytes(h, &all[2 * r + k].c, 1);
                    h = hash_bytes(h, &all[2 * r + k].d, sizeof(double));
                    h = hash_ints(h, all[2 * r + k].i, 3);
                }
            say("gather struct: last record %c %g %d %d %d", all[2 * size - 1].c, all[2 * size - 1].d,
                all[2 * size - 1].i[0], all[2 * size - 1].i[1], all[2 * size - 1].i[2]);
        }
        free(all);
        MPI_Type_free(&rec), MPI_Type_free(&rec_resized);
    }

    /* Allreduce on triples of doubles. MPI defines its predefined ops on predefined
     * types only (Open MPI 4.1 rejects MPI_SUM on a contiguous type), so the sum is a
     * user op, which sees the derived type: count is in triples. */
    {
        MPI_Datatype triple;
        MPI_Type_contiguous(3, MPI_DOUBLE, &triple);
        MPI_Type_commit(&triple);
        MPI_Op sum_triples;
        MPI_Op_create(add_triples, 1, &sum_triples);
        double in[12], out[12];
        for (int k = 0; k < 12; k++)
            in[k] = rank * 0.5 + k;
        MPI_Allreduce(in, out, 4, triple, sum_triples, WORLD);
        for (int k = 0; k < 12; k++)
            bad += expect(out[k] == 0.25 * size * (size - 1) + (double)k * size, "allreduce triple: element %d is %g",
                          k, out[k]);
        h = hash_bytes(h, out, sizeof out);
        MPI_Op_free(&sum_triples);
        MPI_Type_free(&triple);
    }

    /* A transpose with Alltoall: rank r holds a ROWS x size matrix M_r; column d goes
     * to rank d through a column type resized to one int, so that block d starts d
     * ints in. Rank d receives, from every s, column d of M_s as plain ints, and sends
     * them back the other way, plain ints out, columns in, which rebuilds M_d. Blocks
     * are 1 KB: for blocks below 512 bytes on 16 ranks, Open MPI 4.1.4 picks its Bruck
     * alltoall, which scrambles resized types. */
    {
        enum { ROWS = 256 };
        int *m = malloc(ROWS * size * sizeof *m), *in = malloc(ROWS * size * sizeof *in);
        for (int i = 0; i < ROWS; i++)
            for (int j = 0; j < size; j++)
                m[i * size + j] = rank * 10000 + i * 100 + j;
        MPI_Datatype column, column_resized;
        MPI_Type_vector(ROWS, 1, size, MPI_INT, &column);
        MPI_Type_create_resized(column, 0, sizeof(int), &column_resized);
        MPI_Type_commit(&column_resized);
        MPI_Alltoall(m, 1, column_resized, in, ROWS, MPI_INT, WORLD);
        int wrong = 0;
        for (int s = 0; s < size; s++)
            for (int i = 0; i < ROWS; i++)
                wrong += in[s * ROWS + i] != s * 10000 + i * 100 + rank;
        bad += expect(wrong == 0, "alltoall transpose: %d elements wrong", wrong);
        h = hash_ints(h, in, ROWS * size);
        int *back = malloc(ROWS * size * sizeof *back);
        MPI_Alltoall(in, ROWS, MPI_INT, back, 1, column_resized, WORLD);
        bad += expect(memcmp(back, m, ROWS * size * sizeof *m) == 0, "alltoall transpose back: differs");
        h = hash_ints(h, back, ROWS * size);

        /* Gather into columns: rank 0 puts rank s's ROWS ints into its column s. */
        int row[ROWS];
        for (int i = 0; i < ROWS; i++)
            row[i] = rank * 10000 + i;
        MPI_Gather(row, ROWS, MPI_INT, back, 1, column_resized, 0, WORLD);
        if (rank == 0) {
            wrong = 0;
            for (int i = 0; i < ROWS; i++)
                for (int s = 0; s < size; s++)
                    wrong += back[i * size + s] != s * 10000 + i;
            bad += expect(wrong == 0, "gather into columns: %d elements wrong", wrong);
            h = hash_ints(h, back, ROWS * size);
        }
        free(m), free(in), free(back);
        MPI_Type_free(&column), MPI_Type_free(&column_resized);
    }
    say("collective types rank %d: hash %08x", rank, h);
    return bad;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(WORLD, &rank);
    MPI_Comm_size(WORLD, &size);

    int bad = test_geometry(rank);
    bad += test_point_to_point(rank, size);
    bad += test_pack(rank, size);
    bad += test_collectives(rank, size);

    const int status = report_failures(rank, bad);
    MPI_Finalize();
    return status;
}
