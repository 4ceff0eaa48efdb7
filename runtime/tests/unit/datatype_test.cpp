// Moving data between user buffers of MPI datatypes (messaging/datatype.hpp): packing,
// unpacking and copying between layouts of the same type signature, each checked against
// the elements the datatype selects, worked out by hand.
#include "messaging/datatype.hpp"

#include <mpi.h>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "typed_buffer.hpp"

namespace bamboo {
namespace {

// A committed derived datatype, freed at the end of the test.
class Derived {
public:
    explicit Derived(MPI_Datatype type) : type_(type) { MPI_Type_commit(&type_); }
    ~Derived() {
        forget_datatype(type_);
        MPI_Type_free(&type_);
    }
    Derived(const Derived&) = delete;
    Derived& operator=(const Derived&) = delete;
    operator MPI_Datatype() const { return type_; }

private:
    MPI_Datatype type_;
};

Derived vector_type() {  // 3 blocks of 2 ints, 4 ints apart: ints 0 1, 4 5, 8 9 (extent 10 ints)
    MPI_Datatype type;
    MPI_Type_vector(3, 2, 4, MPI_INT, &type);
    return Derived(type);
}

Derived subarray_type() {  // rows 1-2, columns 1-3 of a 4x5 int array: ints 6 7 8, 11 12 13
    int sizes[2] = {4, 5}, subsizes[2] = {2, 3}, starts[2] = {1, 1};
    MPI_Datatype type;
    MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &type);
    return Derived(type);
}

std::vector<int> counting(std::size_t n) {
    std::vector<int> values(n);
    std::iota(values.begin(), values.end(), 0);
    return values;
}

// `n` ints, zero but at `indexes`, which hold `values` in order.
std::vector<int> placed(std::size_t n, const std::vector<int>& indexes, const std::vector<int>& values) {
    std::vector<int> out(n, 0);
    for (std::size_t i = 0; i < indexes.size(); ++i) out[static_cast<std::size_t>(indexes[i])] = values[i];
    return out;
}

// All of `buffer`, packed (a datatype of ints).
std::vector<int> packed_ints(const TypedBuffer& buffer) {
    std::vector<int> out(buffer.bytes() / sizeof(int), -1);
    pack(buffer, reinterpret_cast<char*>(out.data()));
    return out;
}

TEST(Datatype, ContiguousPacksAsAMemcpy) {
    std::vector<int> from = counting(5), to(5, 0);
    TypedBuffer buffer = typed(from.data(), 5, MPI_INT);
    EXPECT_TRUE(buffer.layout.contiguous);
    EXPECT_EQ(buffer.bytes(), 5 * sizeof(int));
    std::vector<int> packed = packed_ints(buffer);
    EXPECT_EQ(packed, from);
    unpack(reinterpret_cast<const char*>(packed.data()), 5 * sizeof(int), typed(to.data(), 5, MPI_INT));
    EXPECT_EQ(to, from);
}

TEST(Datatype, ContiguousWithALowerBoundStartsAtItsFirstDataByte) {
    // 3 ints 8 bytes into each element: an element is ints 2 3 4, the next 5 6 7.
    int length = 3;
    MPI_Aint displacement = 2 * sizeof(int);
    MPI_Datatype raw;
    MPI_Type_create_hindexed(1, &length, &displacement, MPI_INT, &raw);
    Derived type(raw);
    std::vector<int> from = counting(8);
    TypedBuffer buffer = typed(from.data(), 2, type);
    EXPECT_TRUE(buffer.layout.contiguous);
    EXPECT_EQ(packed_ints(buffer), (std::vector<int>{2, 3, 4, 5, 6, 7}));
}

TEST(Datatype, VectorPacksTheSelectedElementsInOrder) {
    Derived type = vector_type();
    std::vector<int> from = counting(20);
    TypedBuffer buffer = typed(from.data(), 2, type);  // the second element starts at int 10
    EXPECT_FALSE(buffer.layout.contiguous);
    EXPECT_EQ(buffer.bytes(), 12 * sizeof(int));
    std::vector<int> packed = packed_ints(buffer);
    EXPECT_EQ(packed, (std::vector<int>{0, 1, 4, 5, 8, 9, 10, 11, 14, 15, 18, 19}));

    std::vector<int> to(20, 0);
    unpack(reinterpret_cast<const char*>(packed.data()), buffer.bytes(), typed(to.data(), 2, type));
    EXPECT_EQ(to, placed(20, {0, 1, 4, 5, 8, 9, 10, 11, 14, 15, 18, 19}, {0, 1, 4, 5, 8, 9, 10, 11, 14, 15, 18, 19}));
}

TEST(Datatype, SubarrayPacksItsBlock) {
    Derived type = subarray_type();
    std::vector<int> from = counting(20);
    TypedBuffer buffer = typed(from.data(), 1, type);
    EXPECT_FALSE(buffer.layout.contiguous);
    EXPECT_EQ(packed_ints(buffer), (std::vector<int>{6, 7, 8, 11, 12, 13}));
}

TEST(Datatype, StructWithAGapPacksWithoutIt) {
    struct Pair {
        char c;
        double d;
    };
    int lengths[2] = {1, 1};
    MPI_Aint displacements[2] = {offsetof(Pair, c), offsetof(Pair, d)};
    MPI_Datatype types[2] = {MPI_CHAR, MPI_DOUBLE}, raw;
    MPI_Type_create_struct(2, lengths, displacements, types, &raw);
    Derived type(raw);
    Pair from[2] = {{'a', 1.5}, {'b', -2.25}};
    TypedBuffer buffer = typed(from, 2, type);
    EXPECT_FALSE(buffer.layout.contiguous);
    ASSERT_EQ(buffer.bytes(), 2 * (1 + sizeof(double)));
    std::vector<char> packed(buffer.bytes());
    pack(buffer, packed.data());
    double d0, d1;
    std::memcpy(&d0, packed.data() + 1, sizeof d0);
    std::memcpy(&d1, packed.data() + 10, sizeof d1);
    EXPECT_EQ(packed[0], 'a');
    EXPECT_EQ(d0, 1.5);
    EXPECT_EQ(packed[9], 'b');
    EXPECT_EQ(d1, -2.25);

    Pair to[2] = {};
    unpack(packed.data(), packed.size(), typed(to, 2, type));
    EXPECT_EQ(to[0].c, 'a');
    EXPECT_EQ(to[0].d, 1.5);
    EXPECT_EQ(to[1].c, 'b');
    EXPECT_EQ(to[1].d, -2.25);
}

// Without gaps, but with its blocks in the other order: not a memcpy.
TEST(Datatype, StructWithBlocksOutOfOrderIsNotContiguous) {
    int lengths[2] = {1, 1};
    MPI_Aint displacements[2] = {sizeof(int), 0};
    MPI_Datatype types[2] = {MPI_INT, MPI_INT}, raw;
    MPI_Type_create_struct(2, lengths, displacements, types, &raw);
    Derived type(raw);
    std::vector<int> from = {10, 20, 30, 40};
    TypedBuffer buffer = typed(from.data(), 2, type);
    EXPECT_FALSE(buffer.layout.contiguous);
    EXPECT_EQ(packed_ints(buffer), (std::vector<int>{20, 10, 40, 30}));
}

// HPL sends each panel as a struct of one block per column of the panel and one more, at
// absolute addresses from MPI_BOTTOM: decoded into runs (the runtime's own packing), and
// one run where the columns abut.
TEST(Datatype, StructOfAPanelsColumnsDecodesIntoRuns) {
    constexpr int kColumns = 65, kRows = 4;
    for (int lda : {kRows, kRows + 3}) {
        std::vector<double> panel(static_cast<std::size_t>(kColumns * lda));
        std::iota(panel.begin(), panel.end(), 0.0);
        std::vector<int> lengths(kColumns, kRows);
        std::vector<MPI_Aint> addresses(kColumns);
        std::vector<MPI_Datatype> types(kColumns, MPI_DOUBLE);
        for (int j = 0; j < kColumns; ++j) MPI_Get_address(&panel[static_cast<std::size_t>(j * lda)], &addresses[j]);
        MPI_Datatype raw;
        MPI_Type_create_struct(kColumns, lengths.data(), addresses.data(), types.data(), &raw);
        Derived type(raw);
        TypedBuffer buffer = typed(MPI_BOTTOM, 1, type);
        EXPECT_EQ(buffer.layout.contiguous, lda == kRows) << "lda " << lda;
        if (lda != kRows) EXPECT_TRUE(buffer.layout.map) << "left to the MPI library";
        std::vector<double> packed(static_cast<std::size_t>(kColumns * kRows)), expected;
        pack(buffer, reinterpret_cast<char*>(packed.data()));
        for (int j = 0; j < kColumns; ++j)
            for (int i = 0; i < kRows; ++i) expected.push_back(panel[static_cast<std::size_t>(j * lda + i)]);
        EXPECT_EQ(packed, expected) << "lda " << lda;
    }
}

TEST(Datatype, CopyBetweenLayoutsOfOneSignature) {
    Derived vector = vector_type(), subarray = subarray_type();
    std::vector<int> source = counting(20);
    const std::vector<int> picked = {0, 1, 4, 5, 8, 9};  // what the vector selects, in order

    std::vector<int> contiguous(6, 0);  // non-contiguous to contiguous: a pack
    copy(typed(source.data(), 1, vector), typed(contiguous.data(), 6, MPI_INT));
    EXPECT_EQ(contiguous, picked);

    std::vector<int> scattered(20, 0);  // contiguous to non-contiguous: an unpack
    copy(typed(contiguous.data(), 6, MPI_INT), typed(scattered.data(), 1, vector));
    EXPECT_EQ(scattered, placed(20, picked, picked));

    std::vector<int> block(20, 0);  // both non-contiguous: through a staging buffer
    copy(typed(source.data(), 1, vector), typed(block.data(), 1, subarray));
    EXPECT_EQ(block, placed(20, {6, 7, 8, 11, 12, 13}, picked));
}

TEST(Datatype, AMessageEndingInsideAnElementFillsItsFirstBytes) {
    Derived type = vector_type();
    std::vector<int> packed = {1, 2, 3, 4, 5, 6, 7, 8, 9};  // one element and a half
    std::vector<int> to(20, 0);
    unpack(reinterpret_cast<const char*>(packed.data()), packed.size() * sizeof(int), typed(to.data(), 2, type));
    EXPECT_EQ(to, placed(20, {0, 1, 4, 5, 8, 9, 10, 11, 14}, packed));
}

TEST(Datatype, ZeroElementsMoveNothing) {
    Derived vector = vector_type();
    std::vector<int> untouched(20, 7);
    for (MPI_Datatype type : {static_cast<MPI_Datatype>(MPI_INT), static_cast<MPI_Datatype>(vector)}) {
        TypedBuffer none = typed(nullptr, 0, type);
        EXPECT_EQ(none.bytes(), 0u);
        pack(none, reinterpret_cast<char*>(untouched.data()));
        unpack(nullptr, 0, typed(untouched.data(), 2, type));
        copy(none, typed(untouched.data(), 2, type));
        copy(typed(untouched.data(), 0, type), none);
    }
    EXPECT_EQ(untouched, std::vector<int>(20, 7));
}

// Datatypes the runtime moves by their decoded runs (messaging/type_map.hpp), each built by
// `make`, with how many elements to move: packing, unpacking and copying must give what the
// MPI library's own engine gives, byte for byte.
struct MappedCase {
    std::string name;
    std::function<MPI_Datatype()> make;
    int count;
};

MPI_Datatype subarray3d(int axis, int order) {  // one face of a 6x5x4 block of doubles with a ghost layer
    int sizes[3] = {6, 5, 4}, subsizes[3] = {4, 3, 2}, starts[3] = {1, 1, 1};
    subsizes[axis] = 1;
    MPI_Datatype type;
    MPI_Type_create_subarray(3, sizes, subsizes, starts, order, MPI_DOUBLE, &type);
    return type;
}

std::vector<MappedCase> mapped_cases() {
    return {
        {"vector of ints", [] { MPI_Datatype t; MPI_Type_vector(3, 2, 4, MPI_INT, &t); return t; }, 2},
        {"hvector of doubles", [] { MPI_Datatype t; MPI_Type_create_hvector(4, 1, 24, MPI_DOUBLE, &t); return t; }, 3},
        {"vector of vectors (three nested loops)", [] {
             MPI_Datatype inner, t;
             MPI_Type_vector(2, 1, 3, MPI_INT, &inner);
             MPI_Type_vector(3, 2, 4, inner, &t);
             MPI_Type_free(&inner);
             return t;
         }, 2},
        {"4D subarray (three nested loops)", [] {
             int sizes[4] = {3, 4, 5, 2}, subsizes[4] = {2, 2, 3, 1}, starts[4] = {1, 0, 2, 1};
             MPI_Datatype t;
             MPI_Type_create_subarray(4, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t);
             return t;
         }, 1},
        {"x face, C order", [] { return subarray3d(2, MPI_ORDER_C); }, 1},
        {"y face, C order", [] { return subarray3d(1, MPI_ORDER_C); }, 1},
        {"z face, C order", [] { return subarray3d(0, MPI_ORDER_C); }, 1},
        {"face, Fortran order", [] { return subarray3d(0, MPI_ORDER_FORTRAN); }, 1},
        {"indexed", [] {
             int lengths[3] = {2, 1, 3}, displacements[3] = {5, 0, 9};
             MPI_Datatype t;
             MPI_Type_indexed(3, lengths, displacements, MPI_INT, &t);
             return t;
         }, 2},
        {"indexed block", [] {
             int displacements[3] = {4, 1, 7};
             MPI_Datatype t;
             MPI_Type_create_indexed_block(3, 2, displacements, MPI_SHORT, &t);
             return t;
         }, 2},
        {"struct with a gap", [] {
             int lengths[2] = {1, 2};
             MPI_Aint displacements[2] = {0, 8};
             MPI_Datatype types[2] = {MPI_CHAR, MPI_DOUBLE}, t;
             MPI_Type_create_struct(2, lengths, displacements, types, &t);
             return t;
         }, 3},
        {"resized vector", [] {
             MPI_Datatype inner, t;
             MPI_Type_vector(2, 1, 3, MPI_FLOAT, &inner);
             MPI_Type_create_resized(inner, 0, 5 * sizeof(float), &t);
             MPI_Type_free(&inner);
             return t;
         }, 4},
    };
}

TEST(Datatype, DecodedRunsMoveWhatTheMpiLibraryMoves) {
    for (const MappedCase& c : mapped_cases()) {
        SCOPED_TRACE(c.name);
        Derived type(c.make());
        std::vector<unsigned char> source(2048), mpi_packed(1024), ours(1024);
        for (std::size_t i = 0; i < source.size(); ++i) source[i] = static_cast<unsigned char>(i * 7 + 3);
        TypedBuffer from = typed(source.data(), c.count, type);
        ASSERT_FALSE(from.layout.contiguous);
        ASSERT_TRUE(from.layout.map) << "not decoded: the test would not exercise the runs";
        ASSERT_LE(from.bytes(), mpi_packed.size());
        int position = 0;
        MPI_Pack(source.data(), c.count, type, mpi_packed.data(), static_cast<int>(mpi_packed.size()), &position,
                 MPI_COMM_SELF);
        ASSERT_EQ(static_cast<std::size_t>(position), from.bytes());
        pack(from, reinterpret_cast<char*>(ours.data()));
        EXPECT_EQ(0, std::memcmp(ours.data(), mpi_packed.data(), from.bytes())) << "pack";

        std::vector<unsigned char> by_mpi(2048, 0), by_us(2048, 0);
        position = 0;
        MPI_Unpack(mpi_packed.data(), static_cast<int>(from.bytes()), &position, by_mpi.data(), c.count, type,
                   MPI_COMM_SELF);
        unpack(reinterpret_cast<const char*>(mpi_packed.data()), from.bytes(), typed(by_us.data(), c.count, type));
        EXPECT_EQ(by_us, by_mpi) << "unpack";

        std::vector<unsigned char> copied(2048, 0);  // the same shape on both sides: one pass
        copy(from, typed(copied.data() + 64, c.count, type));
        EXPECT_EQ(0, std::memcmp(copied.data() + 64, by_mpi.data(), 2048 - 64)) << "copy";
    }
}

TEST(Datatype, FacesOfOneBlockShapeDecodeIntoFewLongRuns) {
    Derived z_face(subarray3d(0, MPI_ORDER_C)), x_face(subarray3d(2, MPI_ORDER_C));
    std::vector<double> grid(6 * 5 * 4);
    TypedBuffer z = typed(grid.data(), 1, z_face), x = typed(grid.data(), 1, x_face);
    ASSERT_TRUE(z.layout.map && x.layout.map);
    // The z face: 3 rows of 2 doubles; the x face: 4 x 3 single doubles, rows of a plane
    // folded into one loop.
    ASSERT_EQ(z.layout.map->pieces.size(), 1u);
    EXPECT_EQ(z.layout.map->pieces[0].run, 2 * sizeof(double));
    EXPECT_EQ(z.layout.map->pieces[0].runs(), 3u);
    ASSERT_EQ(x.layout.map->pieces.size(), 1u);
    EXPECT_EQ(x.layout.map->pieces[0].run, sizeof(double));
    EXPECT_EQ(x.layout.map->pieces[0].runs(), 12u);
    EXPECT_FALSE(z.layout.map->same_shape(*x.layout.map));
}

TEST(Datatype, AMessageEndingInsideAMappedElementFillsItsFirstRuns) {
    Derived type(subarray3d(2, MPI_ORDER_C));
    std::vector<double> packed(12 + 5);
    std::iota(packed.begin(), packed.end(), 1.0);
    std::vector<double> by_mpi(2 * 120, 0), by_us(2 * 120, 0);
    int position = 0;
    MPI_Unpack(packed.data(), static_cast<int>(12 * sizeof(double)), &position, by_mpi.data(), 1, type, MPI_COMM_SELF);
    // The rest of the message goes into the next element's first five runs, in packing order.
    TypedBuffer one = typed(by_mpi.data() + 120, 1, type);
    unpack(reinterpret_cast<const char*>(packed.data() + 12), 5 * sizeof(double), one);
    unpack(reinterpret_cast<const char*>(packed.data()), packed.size() * sizeof(double), typed(by_us.data(), 2, type));
    EXPECT_EQ(by_us, by_mpi);
}

}  // namespace
}  // namespace bamboo

