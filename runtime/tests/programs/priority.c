/* Scheduling priorities. Run with one worker. The last task of each process (the controller)
 * wakes the other tasks of its process, in vrank order, by sending each a message they wait
 * for; each task has set its priority to (local index % 3) beforehand. The order in which the
 * woken tasks then run must be: higher priority first, wake order among equals. The
 * controller has priority -1 (lowest), so it does not run in between. Tasks of a process
 * share this program's plain globals (they are not privatized here), which record the order. */
#include "bamboo.h"
#include "check.h"

static int run_order[4096];
static int run_count;

int bamboo_main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size, failures = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int vf = int_arg(argc, argv, "--vf", 1);
    int first = rank - rank % vf, controller = first + vf - 1, local = rank - first;
    int token = 0;

    if (rank != controller) {
        bamboo_set_priority(local % 3);
        MPI_Recv(&token, 1, MPI_INT, controller, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        run_order[run_count++] = local;
        MPI_Send(&token, 1, MPI_INT, controller, 1, MPI_COMM_WORLD);
    } else {
        bamboo_set_priority(-1);
        for (int t = first; t < controller; ++t) MPI_Send(&token, 1, MPI_INT, t, 0, MPI_COMM_WORLD);
        for (int t = first; t < controller; ++t)
            MPI_Recv(&token, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        /* Expected: stable sort of 0..vf-2 by decreasing priority. */
        int expected[4096], n = 0;
        for (int p = 2; p >= 0; --p)
            for (int t = 0; t < vf - 1; ++t)
                if (t % 3 == p) expected[n++] = t;
        CHECK(failures, rank, run_count == vf - 1, "%d tasks ran, expected %d", run_count, vf - 1);
        for (int i = 0; i < n && i < run_count; ++i)
            CHECK(failures, rank, run_order[i] == expected[i], "position %d: task %d ran, expected %d", i,
                  run_order[i], expected[i]);
        if (failures == 0) printf("priority ok: process of vrank %d ran %d tasks in priority order\n", rank, run_count);
    }
    MPI_Finalize();
    return failures != 0;
}
