/* A program that never includes <errno.h> and so may name a variable `errno`, as the OSU
 * one-sided benchmarks' CHECK macro does; the runtime's own errno must stay out of its way.
 * The exchange around it gives the translation work to do. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(stmt)                                                       \
    do {                                                                  \
        int errno = (stmt);                                               \
        if (errno != MPI_SUCCESS) {                                       \
            fprintf(stderr, "%s:%d: call failed with %d\n", __FILE__, __LINE__, errno); \
            exit(EXIT_FAILURE);                                           \
        }                                                                 \
    } while (0)

static int errno_count = 0; /* a global whose name starts alike */

int main(int argc, char **argv)
{
    int rank, size, left, right, token;
    CHECK(MPI_Init(&argc, &argv));
    CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    for (int round = 0; round < 3; round++) {
        CHECK(MPI_Sendrecv(&rank, 1, MPI_INT, right, round, &token, 1, MPI_INT, left, round, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
        errno_count += token;
    }
    printf("rank %d: sum of tokens %d\n", rank, errno_count);
    CHECK(MPI_Finalize());
    return 0;
}
