/* Reduction operations, built in and user defined.
 *   MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN on every C integer type (signed char ... unsigned
 *     long long and the fixed-width MPI_INT8_T ... MPI_UINT64_T) and on float, double and
 *     long double; values chosen so that results are exact, reach past 32 bits in the
 *     64-bit types and past the signed range in the unsigned ones;
 *   MPI_BAND, MPI_BOR, MPI_BXOR on the integer types and MPI_BYTE;
 *   MPI_LAND, MPI_LOR, MPI_LXOR on the integer types and MPI_C_BOOL (operands other
 *     than 0 and 1, results 0 or 1);
 *   MPI_MAXLOC, MPI_MINLOC on MPI_2INT, MPI_SHORT_INT, MPI_LONG_INT, MPI_FLOAT_INT,
 *     MPI_DOUBLE_INT and MPI_LONG_DOUBLE_INT, with ties (the smaller index wins);
 * each through MPI_Allreduce and MPI_Reduce (roots and printing ranks spread over the
 * ranks, every rank checks every result), MAXLOC also
 * through MPI_Scan, and MPI_Reduce_local.
 *   MPI_Op_create / MPI_Op_commutative / MPI_Op_free with
 *     - a commutative op (addition modulo a prime on long long),
 *     - a non-commutative op on a derived type (concatenation of hex digits: the result
 *       spells the order in which ranks were combined),
 *     - a non-commutative op on plain MPI_INT (first non-zero operand wins), with counts
 *       large enough that an implementation may split the vector;
 *   in MPI_Reduce (every root, also IN_PLACE), MPI_Allreduce (also IN_PLACE), MPI_Scan,
 *   MPI_Exscan, MPI_Reduce_scatter_block, MPI_Reduce_scatter and MPI_Reduce_local. */
#include "conformance.h"

#include <stdbool.h>

#define WORLD MPI_COMM_WORLD
#define NE 6 /* elements per built-in reduction */

enum kind { SIGNED, UNSIGNED, FLOATING };

struct ctype {
    const char *name;
    MPI_Datatype mpi;
    size_t size;
    enum kind kind;
    long long scale; /* integer types: how far the values reach */
};

enum op_id { SUM, PROD, MAX, MIN, BAND, BOR, BXOR, LAND, LOR, LXOR, NOPS };
static const char *const op_names[NOPS] = {"sum", "prod", "max", "min", "band", "bor", "bxor", "land", "lor", "lxor"};

static MPI_Op mpi_op(enum op_id op)
{
    const MPI_Op ops[NOPS] = {MPI_SUM,  MPI_PROD, MPI_MAX,  MPI_MIN, MPI_BAND,
                              MPI_BOR,  MPI_BXOR, MPI_LAND, MPI_LOR, MPI_LXOR};
    return ops[op];
}

/* ---- integer elements, stored through their width so one code path serves all ---- */

static void put_int(const struct ctype *t, void *buf, int i, unsigned long long v)
{
    char *p = (char *)buf + i * t->size;
    switch (t->size) {
    case 1: { uint8_t x = (uint8_t)v; memcpy(p, &x, 1); break; }
    case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
    case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
    default: { uint64_t x = v; memcpy(p, &x, 8); break; }
    }
}

static void format_int(const struct ctype *t, const void *buf, int i, char *out, size_t n)
{
    const char *p = (const char *)buf + i * t->size;
    long long s;
    unsigned long long u;
    switch (t->size) {
    case 1: { int8_t a; uint8_t b; memcpy(&a, p, 1); memcpy(&b, p, 1); s = a; u = b; break; }
    case 2: { int16_t a; uint16_t b; memcpy(&a, p, 2); memcpy(&b, p, 2); s = a; u = b; break; }
    case 4: { int32_t a; uint32_t b; memcpy(&a, p, 4); memcpy(&b, p, 4); s = a; u = b; break; }
    default: { int64_t a; uint64_t b; memcpy(&a, p, 8); memcpy(&b, p, 8); s = a; u = b; break; }
    }
    if (t->kind == SIGNED)
        snprintf(out, n, " %lld", s);
    else
        snprintf(out, n, " %llu", u);
}

static unsigned long long mix(int r, int i)
{
    unsigned long long x = (unsigned long long)(r + 1) * 0x9E3779B97F4A7C15ull +
                           (unsigned long long)i * 0xBF58476D1CE4E5B9ull;
    x ^= x >> 31;
    x *= 0x94D049BB133111EBull;
    return x ^ (x >> 29);
}

/* Rank r's element i for op. Signed types get negative operands too. The 2s of PROD
 * are spread so that at most four meet in one element, and one rank per element
 * contributes the type's scale: products stay in range but need the full width. */
static long long int_operand(enum op_id op, const struct ctype *t, int r, int i, int size)
{
    const int sgn = t->kind == SIGNED, bits = 8 * (int)t->size;
    switch (op) {
    case SUM: return ((r * 3 + i) % 7 - (sgn ? 2 : 0)) * t->scale;
    case PROD:
        if (r == i % size)
            return sgn && i % 2 ? -t->scale : t->scale;
        return (r + i) % 5 == 1 ? 2 : sgn && (r + 2 * i) % 7 == 3 ? -1 : 1;
    case MAX:
    case MIN: return ((r * 5 + i * 3) % 11 - (sgn ? 5 : 0)) * t->scale;
    case BAND: return (long long)~((1ull << ((r * 3 + i) % bits)) | (1ull << ((r + 5 * i) % bits)));
    case BOR: return (long long)(1ull << ((r * 5 + i) % bits));
    case BXOR: return (long long)mix(r, i);
    default: {
        /* Logical: element 0 all true, element 1 all false, the rest mixed. True
         * operands are 1 to 4, and the result must still be 0 or 1; except on a single
         * rank, where MPI applies no operation and returns the operand as it is. */
        const long long v = i == 0 ? r % 3 + 1 : i == 1 ? 0 : (r + i) % 3 ? (r * 7 + i) % 4 + 1 : 0;
        return size == 1 ? v != 0 : v;
    }
    }
}

/* What MPI must return: folded here over the ranks in plain C. Sums and products wrap
 * like the C type does (unsigned arithmetic, truncated when stored). */
static unsigned long long int_expected(enum op_id op, const struct ctype *t, int i, int size)
{
    unsigned long long acc = (unsigned long long)int_operand(op, t, 0, i, size);
    long long best = int_operand(op, t, 0, i, size);
    int truths = int_operand(op, t, 0, i, size) != 0, all = truths;
    for (int r = 1; r < size; r++) {
        const long long x = int_operand(op, t, r, i, size);
        switch (op) {
        case SUM: acc += (unsigned long long)x; break;
        case PROD: acc *= (unsigned long long)x; break;
        case MAX: best = x > best ? x : best; break;
        case MIN: best = x < best ? x : best; break;
        case BAND: acc &= (unsigned long long)x; break;
        case BOR: acc |= (unsigned long long)x; break;
        case BXOR: acc ^= (unsigned long long)x; break;
        default: truths += x != 0, all &= x != 0; break;
        }
    }
    switch (op) {
    case MAX:
    case MIN: return (unsigned long long)best;
    case LAND: return all;
    case LOR: return truths > 0;
    case LXOR: return truths % 2;
    default: return acc;
    }
}

/* One built-in op on one integer type: Allreduce, then Reduce to a root that depends on
 * the pair, so that every rank is a root for some of them. */
static int test_int_op(int rank, int size, const struct ctype *t, enum op_id op, int root, int printer, uint32_t *h)
{
    int bad = 0;
    unsigned char send[NE * 8], recv[NE * 8], want[NE * 8];
    for (int i = 0; i < NE; i++) {
        put_int(t, send, i, (unsigned long long)int_operand(op, t, rank, i, size));
        put_int(t, want, i, int_expected(op, t, i, size));
    }
    char line[512];
    int len = snprintf(line, sizeof line, "allreduce %s %s:", t->name, op_names[op]);
    MPI_Allreduce(send, recv, NE, t->mpi, mpi_op(op), WORLD);
    for (int i = 0; i < NE; i++)
        format_int(t, recv, i, line + len, sizeof line - len), len = strlen(line);
    bad += expect(memcmp(recv, want, NE * t->size) == 0, "rank %d: %s", rank, line);
    if (rank == printer)
        say("%s", line);
    *h = hash_bytes(*h, recv, NE * t->size);

    memset(recv, 0, sizeof recv);
    MPI_Reduce(send, recv, NE, t->mpi, mpi_op(op), root, WORLD);
    if (rank == root) {
        bad += expect(memcmp(recv, want, NE * t->size) == 0, "reduce %s %s at root %d: wrong result", t->name,
                      op_names[op], root);
        *h = hash_bytes(*h, recv, NE * t->size);
    }
    return bad;
}

/* ---- floating point: dyadic operands, so every result is exact in any order ---- */

static long double float_operand(enum op_id op, int r, int i)
{
    switch (op) {
    case SUM: return ((r * 3 + i) % 7 - 2) * 0.25L;
    case PROD: return (r + i) % 5 == 1 ? 2.0L : (r + 2 * i) % 7 == 3 ? -0.5L : 1.0L;
    default: return ((r * 5 + i * 3) % 11 - 5) * 0.125L;
    }
}

static void put_float(const struct ctype *t, void *buf, int i, long double v)
{
    if (t->size == sizeof(float))
        ((float *)buf)[i] = (float)v;
    else if (t->size == sizeof(double))
        ((double *)buf)[i] = (double)v;
    else
        ((long double *)buf)[i] = v;
}

static long double get_float(const struct ctype *t, const void *buf, int i)
{
    if (t->size == sizeof(float))
        return ((const float *)buf)[i];
    if (t->size == sizeof(double))
        return ((const double *)buf)[i];
    return ((const long double *)buf)[i];
}

static int test_float_op(int rank, int size, const struct ctype *t, enum op_id op, int root, int printer, uint32_t *h)
{
    int bad = 0;
    /* long double has padding bytes: compare and hash values, never raw memory. */
    long double send_space[NE], recv_space[NE];
    void *send = send_space, *recv = recv_space;
    long double want[NE];
    for (int i = 0; i < NE; i++) {
        put_float(t, send, i, float_operand(op, rank, i));
        long double acc = float_operand(op, 0, i);
        for (int r = 1; r < size; r++) {
            const long double x = float_operand(op, r, i);
            acc = op == SUM ? acc + x : op == PROD ? acc * x : op == MAX ? (x > acc ? x : acc) : (x < acc ? x : acc);
        }
        want[i] = acc;
    }
    char line[512];
    int len = snprintf(line, sizeof line, "allreduce %s %s:", t->name, op_names[op]);
    MPI_Allreduce(send, recv, NE, t->mpi, mpi_op(op), WORLD);
    for (int i = 0; i < NE; i++) {
        const double v = (double)get_float(t, recv, i);
        len += snprintf(line + len, sizeof line - len, " %g", v);
        bad += expect(get_float(t, recv, i) == want[i], "rank %d: %s element %d", rank, line, i);
        *h = hash_bytes(*h, &v, sizeof v);
    }
    if (rank == printer)
        say("%s", line);

    MPI_Reduce(send, recv, NE, t->mpi, mpi_op(op), root, WORLD);
    if (rank == root)
        for (int i = 0; i < NE; i++) {
            const double v = (double)get_float(t, recv, i);
            bad += expect(get_float(t, recv, i) == want[i], "reduce %s %s root %d element %d: %g", t->name,
                          op_names[op], root, i, v);
            *h = hash_bytes(*h, &v, sizeof v);
        }
    return bad;
}

/* ---- MPI_C_BOOL and MPI_BYTE, the types that take only logical or bitwise ops ---- */

static int test_bool_and_byte(int rank, int size, uint32_t *h)
{
    int bad = 0;
    const struct ctype byte = {"byte", MPI_BYTE, 1, UNSIGNED, 1};
    for (enum op_id op = LAND; op <= LXOR; op++) {
        bool send[NE], recv[NE];
        for (int i = 0; i < NE; i++)
            send[i] = int_operand(op, &byte, rank, i, size) != 0;
        MPI_Allreduce(send, recv, NE, MPI_C_BOOL, mpi_op(op), WORLD);
        char line[256];
        int len = snprintf(line, sizeof line, "allreduce bool %s:", op_names[op]);
        for (int i = 0; i < NE; i++) {
            len += snprintf(line + len, sizeof line - len, " %d", (int)recv[i]);
            bad += expect(recv[i] == (int_expected(op, &byte, i, size) != 0), "rank %d: %s", rank, line);
        }
        *h = hash_bytes(*h, recv, sizeof recv);
        if (rank == (int)op % size)
            say("%s", line);
    }
    for (enum op_id op = BAND; op <= BXOR; op++)
        bad += test_int_op(rank, size, &byte, op, (op * 5) % size, (op * 3) % size, h);
    return bad;
}

/* ---- MAXLOC and MINLOC on the pair types ---- */

/* Values tie often across ranks; indexes are not in rank order, so that "the smaller
 * index wins a tie" differs from "the lower rank wins". */
static int pair_value(int r, int e)
{
    return (r * 7 + e * 3) % 5;
}

static int pair_index(int r, int e)
{
    return (r * 11 + e) % 17 + 20 * r;
}

static void pair_expected(int size, int e, int maxloc, int *value, int *index)
{
    *value = pair_value(0, e), *index = pair_index(0, e);
    for (int r = 1; r < size; r++) {
        const int v = pair_value(r, e), i = pair_index(r, e);
        if (maxloc ? v > *value : v < *value)
            *value = v, *index = i;
        else if (v == *value && i < *index)
            *index = i;
    }
}

/* One function per pair type: the layouts differ (padding, long double), the logic not. */
#define PAIR_TEST(NAME, VT, MT, SCALE)                                                                  \
    struct pair_##NAME {                                                                                \
        VT v;                                                                                           \
        int i;                                                                                          \
    };                                                                                                  \
    static int test_pairs_##NAME(int rank, int size, uint32_t *h)                                       \
    {                                                                                                   \
        int bad = 0;                                                                                    \
        struct pair_##NAME send[NE], recv[NE];                                                          \
        memset(send, 0, sizeof send);                                                                   \
        for (int e = 0; e < NE; e++)                                                                    \
            send[e].v = (VT)(pair_value(rank, e) * (SCALE)), send[e].i = pair_index(rank, e);           \
        for (int kind = 0; kind < 4; kind++) {                                                          \
            /* 0: Allreduce MAXLOC, 1: Allreduce MINLOC, 2: Reduce MINLOC, 3: Scan MAXLOC */            \
            const int maxloc = kind == 0 || kind == 3, root = (kind + size / 2) % size;                 \
            const int upto = kind == 3 ? rank + 1 : size;                                               \
            const MPI_Op op = maxloc ? MPI_MAXLOC : MPI_MINLOC;                                         \
            memset(recv, 0, sizeof recv);                                                               \
            if (kind < 2)                                                                               \
                MPI_Allreduce(send, recv, NE, MT, op, WORLD);                                           \
            else if (kind == 2)                                                                         \
                MPI_Reduce(send, recv, NE, MT, op, root, WORLD);                                        \
            else                                                                                        \
                MPI_Scan(send, recv, NE, MT, op, WORLD);                                                \
            if (kind == 2 && rank != root)                                                              \
                continue;                                                                               \
            char line[512];                                                                             \
            int len = snprintf(line, sizeof line, "%s %s rank %d:", #NAME,                              \
                               (const char *[]){"allreduce maxloc", "allreduce minloc", "reduce minloc",   \
                                                "scan maxloc"}[kind],                                   \
                               kind == 3 ? rank : 0);                                                   \
            for (int e = 0; e < NE; e++) {                                                              \
                int value, index;                                                                       \
                pair_expected(upto, e, maxloc, &value, &index);                                         \
                const double got = (double)recv[e].v / (SCALE);                                         \
                len += snprintf(line + len, sizeof line - len, " (%g,%d)", got, recv[e].i);             \
                bad += expect(got == value && recv[e].i == index, "%s: element %d wants (%d,%d)", line, \
                              e, value, index);                                                         \
                *h = hash_bytes(*h, &got, sizeof got);                                                  \
                *h = hash_int(*h, recv[e].i);                                                           \
            }                                                                                           \
            /* Everybody checks; rank 0 and the root print, and each rank its scan. */                  \
            if ((kind < 2 && rank == 0) || kind == 2 || kind == 3)                                      \
                say("%s", line);                                                                        \
        }                                                                                               \
        return bad;                                                                                     \
    }

PAIR_TEST(2int, int, MPI_2INT, 1)
PAIR_TEST(short_int, short, MPI_SHORT_INT, 1000)
PAIR_TEST(long_int, long, MPI_LONG_INT, 1000000000000L)
PAIR_TEST(float_int, float, MPI_FLOAT_INT, 0.5f)
PAIR_TEST(double_int, double, MPI_DOUBLE_INT, 0.25)
PAIR_TEST(long_double_int, long double, MPI_LONG_DOUBLE_INT, 0.125L)

static int test_reduce_local_builtin(int rank, uint32_t *h)
{
    int in[NE], inout[NE], bad = 0;
    for (int i = 0; i < NE; i++)
        in[i] = rank * 10 + i, inout[i] = 100 * i;
    MPI_Reduce_local(in, inout, NE, MPI_INT, MPI_SUM);
    for (int i = 0; i < NE; i++)
        bad += expect(inout[i] == rank * 10 + i + 100 * i, "reduce_local sum: element %d is %d", i, inout[i]);
    struct pair_2int a[2] = {{3, 7}, {5, 9}}, b[2] = {{3, 4}, {6, 1}};
    MPI_Reduce_local(a, b, 2, MPI_2INT, MPI_MAXLOC);
    bad += expect(b[0].v == 3 && b[0].i == 4 && b[1].v == 6 && b[1].i == 1, "reduce_local maxloc: (%d,%d) (%d,%d)",
                  b[0].v, b[0].i, b[1].v, b[1].i);
    *h = hash_ints(*h, inout, NE);
    say("reduce_local rank %d: sum %d %d maxloc (%d,%d) (%d,%d)", rank, inout[0], inout[NE - 1], b[0].v, b[0].i,
        b[1].v, b[1].i);
    return bad;
}

/* ---- user-defined operations ---- */

#define PRIME 1000000007LL

static void mod_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    const long long *a = in;
    long long *b = inout;
    for (int i = 0; i < *len; i++)
        b[i] = (a[i] + b[i]) % PRIME;
}

/* A string of hex digits and 16^length: (a, p) . (b, q) = (a q + b, p q), associative
 * (also modulo 2^64, where 16^16 wraps to 0) and not commutative. MPI computes
 * inout = in . inout, `in` holding the lower ranks. Rank r contributes digit r + e for
 * element e, so a result printed as "0123" says ranks 0, 1, 2, 3 were combined in order. */
struct digits {
    unsigned long long value, power;
};

static void concat(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    const struct digits *a = in;
    struct digits *b = inout;
    for (int i = 0; i < *len; i++) {
        b[i].value = a[i].value * b[i].power + b[i].value;
        b[i].power *= a[i].power;
    }
}

/* The leftmost non-zero operand: associative, not commutative, on a basic type whose
 * vector an implementation is free to cut anywhere. */
static void first_nonzero(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    const int *a = in;
    int *b = inout;
    for (int i = 0; i < *len; i++)
        if (a[i] != 0)
            b[i] = a[i];
}

static struct digits digit_of(int r, int e)
{
    return (struct digits){(unsigned long long)((r + e) % 16), 16};
}

static struct digits digits_over(int from, int to, int e)
{
    struct digits acc = {0, 1};
    for (int r = from; r < to; r++) {
        const struct digits d = digit_of(r, e);
        acc.value = acc.value * d.power + d.value;
        acc.power *= d.power;
    }
    return acc;
}

static int nonzero_operand(int r, int e)
{
    /* Most ranks hold 0 for most elements, so the winner varies with the element. */
    return (r * 7 + e) % 5 == 0 ? (r + 1) * 1000 + e % 1000 : 0;
}

static int nonzero_over(int from, int to, int e)
{
    for (int r = from; r < to; r++)
        if (nonzero_operand(r, e))
            return nonzero_operand(r, e);
    return 0;
}

static int check_digits(const char *what, const struct digits *got, int count, int from, int to, uint32_t *h)
{
    int bad = 0;
    for (int e = 0; e < count; e++) {
        const struct digits want = digits_over(from, to, e);
        if (!bad && (got[e].value != want.value || got[e].power != want.power))
            bad = expect(0, "%s: element %d is %llx (power %llx), want %llx", what, e, got[e].value, got[e].power,
                         want.value);
        *h = hash_bytes(*h, &got[e].value, sizeof got[e].value);
        *h = hash_bytes(*h, &got[e].power, sizeof got[e].power);
    }
    return bad;
}

static int test_user_ops(int rank, int size)
{
    int bad = 0;
    MPI_Op sum_op, concat_op, nonzero_op;
    MPI_Op_create(mod_sum, 1, &sum_op);
    MPI_Op_create(concat, 0, &concat_op);
    MPI_Op_create(first_nonzero, 0, &nonzero_op);
    MPI_Datatype digits_type;
    MPI_Type_contiguous(2, MPI_UNSIGNED_LONG_LONG, &digits_type);
    MPI_Type_commit(&digits_type);

    int flags[6];
    const MPI_Op queried[6] = {MPI_SUM, MPI_MAXLOC, MPI_BXOR, sum_op, concat_op, nonzero_op};
    for (int k = 0; k < 6; k++)
        MPI_Op_commutative(queried[k], &flags[k]);
    bad += expect(flags[0] && flags[1] && flags[2] && flags[3] && !flags[4] && !flags[5],
                  "op_commutative: %d %d %d %d %d %d", flags[0], flags[1], flags[2], flags[3], flags[4], flags[5]);
    say("op_commutative rank %d: sum %d maxloc %d bxor %d mod_sum %d concat %d first_nonzero %d", rank, flags[0],
        flags[1], flags[2], flags[3], flags[4], flags[5]);

    /* Commutative: Allreduce of a long vector, and Reduce to every root. */
    {
        const int n = 5000;
        long long *send = malloc(n * sizeof *send), *recv = malloc(n * sizeof *recv);
        uint32_t h = HASH_INIT;
        for (int i = 0; i < n; i++)
            send[i] = ((long long)(rank + 1) * 999999937LL + (long long)i * 123456791LL) % PRIME;
        MPI_Allreduce(send, recv, n, MPI_LONG_LONG, sum_op, WORLD);
        for (int root = 0; root < size; root++) {
            long long *out = malloc(n * sizeof *out);
            MPI_Reduce(send, out, n, MPI_LONG_LONG, sum_op, root, WORLD);
            if (rank == root)
                bad += expect(memcmp(out, recv, n * sizeof *out) == 0, "mod_sum reduce at root %d differs", root);
            free(out);
        }
        for (int i = 0; i < n; i++) {
            long long want = 0;
            for (int r = 0; r < size; r++)
                want = (want + ((long long)(r + 1) * 999999937LL + (long long)i * 123456791LL) % PRIME) % PRIME;
            if (recv[i] != want) {
                bad += expect(0, "mod_sum allreduce element %d: %lld, want %lld", i, recv[i], want);
                break;
            }
        }
        h = hash_bytes(h, recv, n * sizeof *recv);
        say("mod_sum rank %d: first %lld last %lld hash %08x", rank, recv[0], recv[n - 1], h);
        free(send), free(recv);
    }

    /* Non-commutative on a derived type: small counts are printed as digit strings. */
    {
        enum { SMALL = 3, LARGE = 2000 };
        struct digits *send = malloc(LARGE * size * sizeof *send), *recv = malloc(LARGE * size * sizeof *recv);
        uint32_t h = HASH_INIT;
        char what[96];
        for (int e = 0; e < LARGE * size; e++)
            send[e] = digit_of(rank, e);
        for (int c = 0; c < 2; c++) {
            const int n = c ? LARGE : SMALL;
            for (int root = 0; root < size; root++) {
                MPI_Reduce(send, recv, n, digits_type, concat_op, root, WORLD);
                snprintf(what, sizeof what, "concat reduce count %d root %d", n, root);
                if (rank == root)
                    bad += check_digits(what, recv, n, 0, size, &h);
                /* In place at the root: its operand still sits at its rank's position. */
                if (rank == root) {
                    memcpy(recv, send, n * sizeof *recv);
                    MPI_Reduce(MPI_IN_PLACE, recv, n, digits_type, concat_op, root, WORLD);
                    snprintf(what, sizeof what, "concat reduce in place count %d root %d", n, root);
                    bad += check_digits(what, recv, n, 0, size, &h);
                } else {
                    MPI_Reduce(send, recv, n, digits_type, concat_op, root, WORLD);
                }
            }
            MPI_Allreduce(send, recv, n, digits_type, concat_op, WORLD);
            snprintf(what, sizeof what, "concat allreduce count %d", n);
            bad += check_digits(what, recv, n, 0, size, &h);
            if (n == SMALL)
                say("concat allreduce rank %d: %0*llx %0*llx %0*llx", rank, size, recv[0].value, size, recv[1].value,
                    size, recv[2].value);
            memcpy(recv, send, n * sizeof *recv);
            MPI_Allreduce(MPI_IN_PLACE, recv, n, digits_type, concat_op, WORLD);
            snprintf(what, sizeof what, "concat allreduce in place count %d", n);
            bad += check_digits(what, recv, n, 0, size, &h);

            MPI_Scan(send, recv, n, digits_type, concat_op, WORLD);
            snprintf(what, sizeof what, "concat scan count %d", n);
            bad += check_digits(what, recv, n, 0, rank + 1, &h);
            if (n == SMALL)
                say("concat scan rank %d: %0*llx %0*llx %0*llx", rank, rank + 1, recv[0].value, rank + 1,
                    recv[1].value, rank + 1, recv[2].value);
            memcpy(recv, send, n * sizeof *recv);
            MPI_Scan(MPI_IN_PLACE, recv, n, digits_type, concat_op, WORLD);
            snprintf(what, sizeof what, "concat scan in place count %d", n);
            bad += check_digits(what, recv, n, 0, rank + 1, &h);

            MPI_Exscan(send, recv, n, digits_type, concat_op, WORLD);
            if (rank > 0) {
                snprintf(what, sizeof what, "concat exscan count %d", n);
                bad += check_digits(what, recv, n, 0, rank, &h);
                if (n == SMALL)
                    say("concat exscan rank %d: %0*llx %0*llx %0*llx", rank, rank, recv[0].value, rank, recv[1].value,
                        rank, recv[2].value);
            }
            memcpy(recv, send, n * sizeof *recv);
            MPI_Exscan(MPI_IN_PLACE, recv, n, digits_type, concat_op, WORLD);
            if (rank > 0) {
                snprintf(what, sizeof what, "concat exscan in place count %d", n);
                bad += check_digits(what, recv, n, 0, rank, &h);
            }
        }

        /* Reduce_scatter_block: block b of every rank's vector is combined for rank b.
         * digit_of depends on the element's index in the whole vector. */
        const int block = 2;
        MPI_Reduce_scatter_block(send, recv, block, digits_type, concat_op, WORLD);
        for (int e = 0; e < block; e++) {
            const struct digits want = digits_over(0, size, rank * block + e);
            bad += expect(recv[e].value == want.value && recv[e].power == want.power,
                          "concat reduce_scatter_block element %d: %llx", e, recv[e].value);
            h = hash_bytes(h, &recv[e].value, sizeof recv[e].value);
        }
        say("concat reduce_scatter_block rank %d: %0*llx %0*llx", rank, size, recv[0].value, size, recv[1].value);
        memcpy(recv, send, size * block * sizeof *recv);
        MPI_Reduce_scatter_block(MPI_IN_PLACE, recv, block, digits_type, concat_op, WORLD);
        for (int e = 0; e < block; e++) {
            const struct digits want = digits_over(0, size, rank * block + e);
            bad += expect(recv[e].value == want.value && recv[e].power == want.power,
                          "concat reduce_scatter_block in place element %d: %llx", e, recv[e].value);
        }

        /* Reduce_scatter with uneven counts, zero for some ranks. */
        int *counts = malloc(size * sizeof *counts), total = 0, offset = 0;
        for (int r = 0; r < size; r++) {
            counts[r] = (r * 2 + 1) % 3;
            offset += r < rank ? counts[r] : 0;
            total += counts[r];
        }
        MPI_Reduce_scatter(send, recv, counts, digits_type, concat_op, WORLD);
        char line[256];
        int len = snprintf(line, sizeof line, "concat reduce_scatter rank %d:", rank);
        for (int e = 0; e < counts[rank]; e++) {
            const struct digits want = digits_over(0, size, offset + e);
            bad += expect(recv[e].value == want.value && recv[e].power == want.power,
                          "concat reduce_scatter element %d: %llx", e, recv[e].value);
            len += snprintf(line + len, sizeof line - len, " %0*llx", size, recv[e].value);
        }
        say("%s", line);
        memcpy(recv, send, total * sizeof *recv);
        MPI_Reduce_scatter(MPI_IN_PLACE, recv, counts, digits_type, concat_op, WORLD);
        for (int e = 0; e < counts[rank]; e++) {
            const struct digits want = digits_over(0, size, offset + e);
            bad += expect(recv[e].value == want.value && recv[e].power == want.power,
                          "concat reduce_scatter in place element %d: %llx", e, recv[e].value);
        }
        free(counts);

        /* Reduce_local: inout = in . inout, `in` on the left. */
        struct digits left[2] = {{0xab, 0x100}, {0x1, 0x10}}, right[2] = {{0xcd, 0x100}, {0x23, 0x100}};
        MPI_Reduce_local(left, right, 2, digits_type, concat_op);
        bad += expect(right[0].value == 0xabcd && right[1].value == 0x123 && right[1].power == 0x1000,
                      "concat reduce_local: %llx %llx", right[0].value, right[1].value);
        say("concat reduce_local rank %d: %llx %llx", rank, right[0].value, right[1].value);
        say("concat rank %d: hash %08x", rank, h);
        free(send), free(recv);
    }

    /* Non-commutative on MPI_INT with a long vector. */
    {
        const int n = 100000;
        int *send = malloc(n * sizeof *send), *recv = malloc(n * sizeof *recv), *want = malloc(n * sizeof *want);
        uint32_t h = HASH_INIT;
        for (int e = 0; e < n; e++) {
            send[e] = nonzero_operand(rank, e);
            want[e] = nonzero_over(0, size, e);
        }
        MPI_Allreduce(send, recv, n, MPI_INT, nonzero_op, WORLD);
        bad += check_ints("first_nonzero allreduce", recv, want, n);
        h = hash_ints(h, recv, n);
        MPI_Reduce(send, recv, n, MPI_INT, nonzero_op, size - 1, WORLD);
        if (rank == size - 1) {
            bad += check_ints("first_nonzero reduce", recv, want, n);
            h = hash_ints(h, recv, n);
        }
        MPI_Scan(send, recv, n, MPI_INT, nonzero_op, WORLD);
        for (int e = 0; e < n; e++)
            want[e] = nonzero_over(0, rank + 1, e);
        bad += check_ints("first_nonzero scan", recv, want, n);
        h = hash_ints(h, recv, n);
        say("first_nonzero rank %d: scan %d %d %d %d hash %08x", rank, recv[0], recv[1], recv[2], recv[n - 1], h);
        free(send), free(recv), free(want);
    }

    MPI_Op_free(&sum_op);
    MPI_Op_free(&concat_op);
    MPI_Op_free(&nonzero_op);
    MPI_Type_free(&digits_type);
    bad += expect(sum_op == MPI_OP_NULL && concat_op == MPI_OP_NULL && nonzero_op == MPI_OP_NULL,
                  "MPI_Op_free did not set the handles to MPI_OP_NULL");
    return bad;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(WORLD, &rank);
    MPI_Comm_size(WORLD, &size);
    const int long_is_64 = sizeof(long) == 8;
    const struct ctype ints[] = {
        {"schar", MPI_SIGNED_CHAR, 1, SIGNED, 1},
        {"uchar", MPI_UNSIGNED_CHAR, 1, UNSIGNED, 2},
        {"short", MPI_SHORT, sizeof(short), SIGNED, 300},
        {"ushort", MPI_UNSIGNED_SHORT, sizeof(unsigned short), UNSIGNED, 600},
        {"int", MPI_INT, sizeof(int), SIGNED, 10000000},
        {"unsigned", MPI_UNSIGNED, sizeof(unsigned), UNSIGNED, 40000000},
        {"long", MPI_LONG, sizeof(long), SIGNED, long_is_64 ? 10000000000000000LL : 10000000},
        {"ulong", MPI_UNSIGNED_LONG, sizeof(unsigned long), UNSIGNED, long_is_64 ? 150000000000000000LL : 40000000},
        {"longlong", MPI_LONG_LONG, sizeof(long long), SIGNED, 10000000000000000LL},
        {"ulonglong", MPI_UNSIGNED_LONG_LONG, sizeof(unsigned long long), UNSIGNED, 150000000000000000LL},
        {"int8", MPI_INT8_T, 1, SIGNED, 1},
        {"int16", MPI_INT16_T, 2, SIGNED, 300},
        {"int32", MPI_INT32_T, 4, SIGNED, 10000000},
        {"int64", MPI_INT64_T, 8, SIGNED, 10000000000000000LL},
        {"uint8", MPI_UINT8_T, 1, UNSIGNED, 2},
        {"uint16", MPI_UINT16_T, 2, UNSIGNED, 600},
        {"uint32", MPI_UINT32_T, 4, UNSIGNED, 40000000},
        {"uint64", MPI_UINT64_T, 8, UNSIGNED, 150000000000000000LL},
    };
    const struct ctype floats[] = {
        {"float", MPI_FLOAT, sizeof(float), FLOATING, 0},
        {"double", MPI_DOUBLE, sizeof(double), FLOATING, 0},
        {"longdouble", MPI_LONG_DOUBLE, sizeof(long double), FLOATING, 0},
    };
    const int nints = sizeof ints / sizeof ints[0], nfloats = sizeof floats / sizeof floats[0];

    int bad = 0;
    uint32_t h = HASH_INIT;
    for (int t = 0; t < nints; t++)
        for (enum op_id op = SUM; op < NOPS; op++)
            bad += test_int_op(rank, size, &ints[t], op, (t * 3 + op) % size, (t * NOPS + op) % size, &h);
    for (int t = 0; t < nfloats; t++)
        for (enum op_id op = SUM; op <= MIN; op++)
            bad += test_float_op(rank, size, &floats[t], op, (t * 5 + op) % size, (t * 7 + op + 1) % size, &h);
    bad += test_bool_and_byte(rank, size, &h);
    say("builtin ops rank %d: hash %08x", rank, h);

    h = HASH_INIT;
    bad += test_pairs_2int(rank, size, &h);
    bad += test_pairs_short_int(rank, size, &h);
    bad += test_pairs_long_int(rank, size, &h);
    bad += test_pairs_float_int(rank, size, &h);
    bad += test_pairs_double_int(rank, size, &h);
    bad += test_pairs_long_double_int(rank, size, &h);
    bad += test_reduce_local_builtin(rank, &h);
    say("loc ops rank %d: hash %08x", rank, h);

    bad += test_user_ops(rank, size);

    const int status = report_failures(rank, bad);
    MPI_Finalize();
    return status;
}
