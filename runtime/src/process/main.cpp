// The program's real main(): starts MPI, the tasks (one per virtual rank, each running the
// user's main() renamed bamboo_main()), the workers and the comm engine, and ends them.
#include <mpi.h>

#include "process/runtime.hpp"

int main(int argc, char** argv) {
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    bamboo::Runtime runtime;
    int exit_code = 0;
    if (runtime.start(argc, argv, provided, &exit_code)) {
        runtime.run();
        exit_code = runtime.finish();
    }
    MPI_Finalize();
    return exit_code;
}
