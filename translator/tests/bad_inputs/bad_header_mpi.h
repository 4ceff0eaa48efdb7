#include <mpi.h>
static inline void spawn_one(void) { MPI_Comm c; MPI_Comm_spawn("worker", MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &c, MPI_ERRCODES_IGNORE); }
