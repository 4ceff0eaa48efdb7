/* Privatized globals, registered the way translated files do it: each task must see its own
 * copy, starting from the original initial value, and keep it across suspensions. */
#include <stdalign.h>

#include "bamboo.h"
#include "check.h"

static int bamboo_initial_counter = 100;
static size_t bamboo_offset_counter;
static double bamboo_initial_weights[3] = {0.5, 1.5, 2.5};
static size_t bamboo_offset_weights;
static char bamboo_initial_flag = 'x';
static size_t bamboo_offset_flag;

static const bamboo_global privatized[] = {
    {"counter", &bamboo_offset_counter, &bamboo_initial_counter, sizeof(int), alignof(int)},
    {"flag", &bamboo_offset_flag, &bamboo_initial_flag, sizeof(char), alignof(char)},
    {"weights", &bamboo_offset_weights, &bamboo_initial_weights, sizeof(double[3]), alignof(double)},
};
__attribute__((constructor)) static void register_privatized(void) {
    bamboo_register_globals(privatized, sizeof privatized / sizeof privatized[0]);
}
#define counter BAMBOO_PRIVATE(counter)
#define weights BAMBOO_PRIVATE(weights)
#define flag BAMBOO_PRIVATE(flag)

int bamboo_main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size, failures = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(failures, rank, counter == 100 && weights[2] == 2.5 && flag == 'x', "initial values");
    CHECK(failures, rank, ((size_t)&weights[0]) % alignof(double) == 0, "weights misaligned");
    for (int round = 0; round < 10; ++round) {
        counter += rank + 1;
        weights[round % 3] += rank;
        /* Every task suspends here while the others run and change their own copies. */
        int token = rank, got;
        MPI_Sendrecv(&token, 1, MPI_INT, (rank + 1) % size, round, &got, 1, MPI_INT,
                     (rank + size - 1) % size, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    CHECK(failures, rank, counter == 100 + 10 * (rank + 1), "counter %d", counter);
    CHECK(failures, rank, weights[0] == 0.5 + 4 * rank && weights[1] == 1.5 + 3 * rank && weights[2] == 2.5 + 3 * rank,
          "weights %g %g %g", weights[0], weights[1], weights[2]);
    CHECK(failures, rank, bamboo_initial_counter == 100, "the original definition changed");
    if (rank == 0 && failures == 0) printf("globals ok: %d ranks\n", size);
    MPI_Finalize();
    return failures != 0;
}
