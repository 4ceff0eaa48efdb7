/* The last rank computes, sleeps or writes a file for SECONDS before it sends; everyone
   else waits for it in MPI_Recv or MPI_Barrier meanwhile. Nothing is wrong: no deadlock
   may be reported however short the deadlock timeout.
   slow_peer compute|sleep|io SECONDS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static double keep_busy(const char *how, double seconds) {
    double end = now() + seconds, sum = 0;
    if (strcmp(how, "sleep") == 0) {
        while (now() < end) usleep(10000);
    } else if (strcmp(how, "io") == 0) {
        char name[] = "/tmp/slow_peer_XXXXXX";
        int fd = mkstemp(name);
        char block[4096] = {0};
        while (now() < end)
            if (write(fd, block, sizeof block) < 0 || fsync(fd) < 0) break;
        close(fd);
        unlink(name);
    } else {
        for (long i = 1; now() < end; i++) sum += 1.0 / i;
    }
    return sum;
}

int main(int argc, char **argv) {
    int rank, size, value = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 3) {
        if (rank == 0) fprintf(stderr, "usage: slow_peer compute|sleep|io SECONDS\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (rank == size - 1) {
        keep_busy(argv[1], atof(argv[2]));
        value = 42;
        MPI_Send(&value, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    } else if (rank == 0) {
        MPI_Recv(&value, 1, MPI_INT, size - 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d of %d: value %d\n", rank, size, rank == 0 ? value : 0);
    MPI_Finalize();
    return 0;
}
