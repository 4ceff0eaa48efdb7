#include <mpi.h>
static inline void sync_all(void) { MPI_Barrier(MPI_COMM_WORLD); }
