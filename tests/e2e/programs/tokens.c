/* A record split into fields with strtok, the way input decks are read, with a message to
 * the neighbours for each field: every rank must walk its own record, as under MPI. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size, fields = 0;
    char record[128];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    snprintf(record, sizeof record, "cell%d, %d;%d , %s", rank, rank * 3, rank * rank,
             rank % 2 ? "odd" : "even");
    for (char *field = strtok(record, ",;"); field; field = strtok(NULL, ",;")) {
        while (*field == ' ') field++;
        int length = (int)strlen(field), left_length;
        MPI_Sendrecv(&length, 1, MPI_INT, (rank + 1) % size, 0, &left_length, 1, MPI_INT,
                     (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank %d: field %d '%s', left neighbour's %d long\n", rank, fields++, field, left_length);
    }
    MPI_Finalize();
    return 0;
}
