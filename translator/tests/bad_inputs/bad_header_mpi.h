#include <mpi.h>
static inline void sync_all(void) { MPI_Request r; MPI_Ibarrier(MPI_COMM_WORLD, &r); }
