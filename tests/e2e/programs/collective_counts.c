/* One collective, repeated: `collective_counts NAME COUNT REPEATS` runs MPI_NAME on
 * MPI_COMM_WORLD REPEATS times with COUNT ints per rank (per block), and nothing else, so
 * that --bamboo-stats shows exactly the messages of that collective. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Not commutative: forces the rank-ordered reduction. */
static void first_wins(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)in, (void)inout, (void)len, (void)type;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc < 4) {
        fprintf(stderr, "usage: %s NAME COUNT REPEATS\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const char *name = argv[1];
    int count = atoi(argv[2]), repeats = atoi(argv[3]), rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *in = calloc((size_t)count * size + 1, sizeof *in), *out = calloc((size_t)count * size + 1, sizeof *out);
    int *counts = malloc(sizeof *counts * size), *displs = malloc(sizeof *displs * size);
    for (int r = 0; r < size; r++) counts[r] = count, displs[r] = r * count;
    MPI_Op ordered;
    MPI_Op_create(first_wins, 0, &ordered);
    int root = size - 1;
    for (int i = 0; i < repeats; i++) {
        if (!strcmp(name, "barrier")) MPI_Barrier(MPI_COMM_WORLD);
        else if (!strcmp(name, "bcast")) MPI_Bcast(in, count, MPI_INT, root, MPI_COMM_WORLD);
        else if (!strcmp(name, "reduce")) MPI_Reduce(in, out, count, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
        else if (!strcmp(name, "reduce_ordered")) MPI_Reduce(in, out, count, MPI_INT, ordered, root, MPI_COMM_WORLD);
        else if (!strcmp(name, "allreduce")) MPI_Allreduce(in, out, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        else if (!strcmp(name, "gather")) MPI_Gather(in, count, MPI_INT, out, count, MPI_INT, root, MPI_COMM_WORLD);
        else if (!strcmp(name, "scatter")) MPI_Scatter(in, count, MPI_INT, out, count, MPI_INT, root, MPI_COMM_WORLD);
        else if (!strcmp(name, "allgather")) MPI_Allgather(in, count, MPI_INT, out, count, MPI_INT, MPI_COMM_WORLD);
        else if (!strcmp(name, "alltoall")) MPI_Alltoall(in, count, MPI_INT, out, count, MPI_INT, MPI_COMM_WORLD);
        else if (!strcmp(name, "alltoallv")) MPI_Alltoallv(in, counts, displs, MPI_INT, out, counts, displs, MPI_INT, MPI_COMM_WORLD);
        else if (!strcmp(name, "scan")) MPI_Scan(in, out, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        else if (!strcmp(name, "reduce_scatter_block")) MPI_Reduce_scatter_block(in, out, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        else {
            fprintf(stderr, "unknown collective %s\n", name);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    MPI_Op_free(&ordered);
    free(in), free(out), free(counts), free(displs);
    MPI_Finalize();
    return 0;
}
