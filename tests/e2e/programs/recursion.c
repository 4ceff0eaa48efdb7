/* Helpers and recursion: a recursive tree sum over ranks (each call level sends or
 * receives), a helper called from several places, and a function-local static
 * counter that each rank keeps for itself. */
#include <mpi.h>
#include <stdio.h>

static int exchanges(void)
{
    static int calls = 0;   /* function-local static: privatized per rank */
    return ++calls;
}

static void send_value(long value, int to, int tag)
{
    exchanges();
    MPI_Send(&value, 1, MPI_LONG, to, tag, MPI_COMM_WORLD);
}

static long receive_value(int from, int tag)
{
    long value;
    exchanges();
    MPI_Recv(&value, 1, MPI_LONG, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return value;
}

/* Sum of f(rank) over ranks [lo, hi): the lower half's first rank receives the upper
 * half's partial sum, recursively, so the call depth is log2 of the range. */
static long tree_sum(int rank, int lo, int hi, long mine)
{
    if (hi - lo <= 1)
        return mine;
    int mid = lo + (hi - lo) / 2;
    if (rank < mid) {
        long sum = tree_sum(rank, lo, mid, mine);
        if (rank == lo)
            sum += receive_value(mid, hi - lo);
        return sum;
    }
    long sum = tree_sum(rank, mid, hi, mine);
    if (rank == mid)
        send_value(sum, lo, hi - lo);
    return sum;
}

static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long total = tree_sum(rank, 0, size, fib(10 + rank % 7));
    if (rank == 0)
        printf("tree sum over %d ranks: %ld\n", size, total);
    /* The same helpers again, from another place: a shift to the right. */
    if (rank + 1 < size)
        send_value(rank * 11L, rank + 1, 0);
    long from_left = rank > 0 ? receive_value(rank - 1, 0) : -1;
    printf("rank %d: from left %ld, %d exchanges\n", rank, from_left, exchanges() - 1);
    MPI_Finalize();
    return 0;
}
