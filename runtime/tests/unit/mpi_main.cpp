// main() of the unit tests that need the MPI library itself (datatype_test.cpp): they run as
// one MPI process (tests/CMakeLists.txt starts them with the MPI launcher).
#include <mpi.h>

#include <gtest/gtest.h>

#include "messaging/datatype.hpp"

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    ::testing::InitGoogleTest(&argc, argv);
    bamboo::init_datatypes();  // as the runtime does at start
    int result = RUN_ALL_TESTS();
    MPI_Finalize();
    return result;
}
