// A datatype's bytes as runs (messaging/byte_runs.hpp): the packed data scattered into the
// runs lands where MPI_Unpack puts it, and gathering reads back what MPI_Pack packs, for
// datatypes of every path (contiguous, decoded into strided pieces, left to MPI's engine).
#include "messaging/byte_runs.hpp"

#include <mpi.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace bamboo {
namespace {

struct Committed {
    explicit Committed(MPI_Datatype made) : type(made) { MPI_Type_commit(&type); }
    ~Committed() {
        forget_datatype(type);
        MPI_Type_free(&type);
    }
    MPI_Datatype type;
};

// `count` elements of `type` in a buffer of `bytes` bytes, starting `lead` bytes in.
void expect_runs_move_what_mpi_moves(MPI_Datatype type, int count, std::size_t bytes, MPI_Aint lead) {
    TypeLayout layout;
    ASSERT_TRUE(describe_datatype(type, &layout));
    std::size_t packed_bytes = layout.size * static_cast<std::size_t>(count);
    std::vector<unsigned char> packed(packed_bytes);
    for (std::size_t i = 0; i < packed_bytes; ++i) packed[i] = static_cast<unsigned char>(i * 7 + 1);

    std::vector<unsigned char> by_mpi(bytes, 0), by_runs(bytes, 0);
    int position = 0;
    MPI_Unpack(packed.data(), static_cast<int>(packed_bytes), &position, by_mpi.data() + lead, count, type,
               MPI_COMM_SELF);
    std::vector<ByteRun> runs = byte_runs(type, layout, count);
    scatter_runs(reinterpret_cast<const char*>(packed.data()), runs, reinterpret_cast<char*>(by_runs.data()) + lead);
    EXPECT_EQ(by_runs, by_mpi);

    std::vector<char> gathered(packed_bytes);
    gather_runs(runs, reinterpret_cast<const char*>(by_runs.data()) + lead, gathered.data());
    EXPECT_EQ(std::vector<unsigned char>(gathered.begin(), gathered.end()), packed);
}

TEST(ByteRuns, ContiguousIsOneRun) {
    TypeLayout layout;
    ASSERT_TRUE(describe_datatype(MPI_DOUBLE, &layout));
    std::vector<ByteRun> runs = byte_runs(MPI_DOUBLE, layout, 5);
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].offset, 0);
    EXPECT_EQ(runs[0].bytes, 40u);
    expect_runs_move_what_mpi_moves(MPI_DOUBLE, 5, 40, 0);
}

TEST(ByteRuns, AVectorIsItsBlocks) {
    MPI_Datatype vector;
    MPI_Type_vector(3, 2, 4, MPI_INT, &vector);  // ints 0 1, 4 5, 8 9
    Committed type(vector);
    TypeLayout layout;
    ASSERT_TRUE(describe_datatype(type.type, &layout));
    std::vector<ByteRun> runs = byte_runs(type.type, layout, 1);
    ASSERT_EQ(runs.size(), 3u);
    EXPECT_EQ(runs[1].offset, 16);
    EXPECT_EQ(runs[1].bytes, 8u);
    expect_runs_move_what_mpi_moves(type.type, 2, 2 * 10 * sizeof(int), 0);
}

TEST(ByteRuns, AStructWithAGapAndANegativeLowerBound) {
    int lengths[2] = {1, 2};
    MPI_Aint displacements[2] = {-8, 8};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Datatype made;
    MPI_Type_create_struct(2, lengths, displacements, types, &made);
    Committed type(made);
    expect_runs_move_what_mpi_moves(type.type, 3, 200, 16);
}

TEST(ByteRuns, ADatatypeLeftToTheMpiEngine) {
    // Thousands of irregular blocks are not decoded into pieces (messaging/type_map.hpp).
    const int blocks = 3000;
    std::vector<int> lengths(blocks), displacements(blocks);
    for (int i = 0; i < blocks; ++i) {
        lengths[i] = 1 + i % 3;
        displacements[i] = 5 * i + i % 2;
    }
    MPI_Datatype made;
    MPI_Type_indexed(blocks, lengths.data(), displacements.data(), MPI_SHORT, &made);
    Committed type(made);
    TypeLayout layout;
    ASSERT_TRUE(describe_datatype(type.type, &layout));
    ASSERT_FALSE(layout.map);
    ASSERT_FALSE(layout.contiguous);
    expect_runs_move_what_mpi_moves(type.type, 2, 2 * static_cast<std::size_t>(layout.extent), 0);
}

}  // namespace
}  // namespace bamboo
