/* MPI_Win_allocate_shared and MPI_Win_shared_query, on the communicator of a host
 * (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED; the tests run on one host).
 *   - each rank's segment is as long as it asked (rank r: r + 1 ints, the last rank none),
 *     and by default the segments follow each other in rank order;
 *   - plain loads and stores reach every rank's segment through the address shared_query
 *     gives, once MPI_Win_sync and a barrier order them;
 *   - MPI_Put and MPI_Get on the same window, in fences, see the same memory;
 *   - shared_query of MPI_PROC_NULL names the lowest rank whose segment is not empty;
 *   - the window's attributes say MPI_WIN_FLAVOR_SHARED and MPI_WIN_UNIFIED;
 *   - a window of another communicator (reversed ranks, a second window at once);
 *   - with the alloc_shared_noncontig hint, an empty part's address is NULL. */
#include "conformance.h"

static int ints_of(int rank, int size) { return rank == size - 1 && size > 1 ? 0 : rank + 1; }

static int check_window(MPI_Comm comm, const char *what)
{
    int rank, size, bad = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int *mine = NULL;
    MPI_Win win;
    MPI_Win_allocate_shared((MPI_Aint)ints_of(rank, size) * (MPI_Aint)sizeof(int), sizeof(int), MPI_INFO_NULL,
                            comm, &mine, &win);

    int *flavor = NULL, *model = NULL, flag = 0;
    MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
    bad += expect(flag && *flavor == MPI_WIN_FLAVOR_SHARED, "%s rank %d: flavor %d", what, rank, flag ? *flavor : -1);
    MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag);
    bad += expect(flag && *model == MPI_WIN_UNIFIED, "%s rank %d: model %d", what, rank, flag ? *model : -1);

    /* Every segment where MPI says it is, the segments back to back. */
    int **bases = malloc((size_t)size * sizeof *bases);
    for (int r = 0; r < size; r++) {
        MPI_Aint bytes;
        int unit;
        MPI_Win_shared_query(win, r, &bytes, &unit, &bases[r]);
        bad += expect(bytes == (MPI_Aint)ints_of(r, size) * (MPI_Aint)sizeof(int) && unit == (int)sizeof(int),
                      "%s rank %d: rank %d's segment has %ld bytes of unit %d", what, rank, r, (long)bytes, unit);
        if (r > 0 && ints_of(r - 1, size) > 0)
            bad += expect(bases[r] == bases[r - 1] + ints_of(r - 1, size),
                          "%s rank %d: rank %d's segment does not follow rank %d's", what, rank, r, r - 1);
    }
    if (ints_of(rank, size) > 0)
        bad += expect(bases[rank] == mine, "%s rank %d: its own segment is not where allocate put it", what, rank);

    MPI_Aint first_bytes;
    int first_unit;
    int *first = NULL;
    MPI_Win_shared_query(win, MPI_PROC_NULL, &first_bytes, &first_unit, &first);
    bad += expect(first == bases[0] && first_bytes == (MPI_Aint)sizeof(int),
                  "%s rank %d: MPI_PROC_NULL names %ld bytes, not rank 0's", what, rank, (long)first_bytes);

    /* Stores into the own segment, loads from every other. */
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    for (int i = 0; i < ints_of(rank, size); i++) mine[i] = 1000 * rank + i;
    MPI_Win_sync(win);
    MPI_Barrier(comm);
    MPI_Win_sync(win);
    uint32_t h = HASH_INIT;
    for (int r = 0; r < size; r++) {
        h = hash_ints(h, bases[r], (size_t)ints_of(r, size));
        for (int i = 0; i < ints_of(r, size); i++)
            bad += expect(bases[r][i] == 1000 * r + i, "%s rank %d: loaded %d from rank %d's element %d", what,
                          rank, bases[r][i], r, i);
    }
    MPI_Win_unlock_all(win);
    say("%s rank %d of %d: loads hash %08x", what, rank, size, h);

    /* Puts into the next rank's first element, read back by the rank before it with a get
     * and by its owner with a load. */
    MPI_Win_fence(0, win);
    int next = (rank + 1) % size, value = -rank - 1;
    if (ints_of(next, size) > 0) MPI_Put(&value, 1, MPI_INT, next, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    int got = 0;
    if (ints_of(next, size) > 0) MPI_Get(&got, 1, MPI_INT, next, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (ints_of(next, size) > 0)
        bad += expect(got == value, "%s rank %d: got %d back from rank %d", what, rank, got, next);
    int prev = (rank + size - 1) % size;
    if (ints_of(rank, size) > 0)
        bad += expect(mine[0] == -prev - 1, "%s rank %d: holds %d after rank %d's put", what, rank, mine[0], prev);
    say("%s rank %d: first element %d", what, rank, ints_of(rank, size) > 0 ? mine[0] : 0);

    free(bases);
    MPI_Win_free(&win);
    return bad;
}

int main(int argc, char **argv)
{
    int rank, size, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MPI_Comm host;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
    bad += check_window(host, "host");

    MPI_Comm reversed;
    MPI_Comm_split(host, 0, size - rank, &reversed);
    bad += check_window(reversed, "reversed");

    /* Two windows alive at once, on the world. */
    MPI_Win first, second;
    double *a = NULL, *b = NULL;
    MPI_Win_allocate_shared(sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &a, &first);
    MPI_Win_allocate_shared(2 * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &b, &second);
    *a = rank + 0.5;
    b[0] = b[1] = -rank;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Aint bytes;
    int unit;
    double *a0, *b_last;
    MPI_Win_shared_query(first, 0, &bytes, &unit, &a0);
    MPI_Win_shared_query(second, size - 1, &bytes, &unit, &b_last);
    say("world rank %d: rank 0's a %.1f, rank %d's b %.1f %.1f", rank, *a0, size - 1, b_last[0], b_last[1]);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&second);
    MPI_Win_free(&first);

    /* Empty parts under the alloc_shared_noncontig hint (whose other parts Open MPI rounds up
     * to pages, so their sizes are not printed). */
    MPI_Info noncontig;
    MPI_Info_create(&noncontig);
    MPI_Info_set(noncontig, "alloc_shared_noncontig", "true");
    MPI_Win sparse;
    int *part = NULL, has_part = rank % 2 == 0;
    MPI_Win_allocate_shared(has_part ? sizeof(int) : 0, sizeof(int), noncontig, MPI_COMM_WORLD, &part, &sparse);
    bad += expect((part == NULL) == !has_part, "noncontig rank %d: own address %p", rank, (void *)part);
    if (has_part) *part = 10 * rank;
    MPI_Win_fence(0, sparse);
    for (int r = 0; r < size; r++) {
        int *theirs;
        MPI_Win_shared_query(sparse, r, &bytes, &unit, &theirs);
        if (r % 2)
            bad += expect(theirs == NULL && bytes == 0, "noncontig rank %d: rank %d's empty part at %p", rank, r,
                          (void *)theirs);
        else
            bad += expect(theirs != NULL && *theirs == 10 * r, "noncontig rank %d: rank %d's part holds %d", rank,
                          r, theirs ? *theirs : -1);
    }
    say("noncontig rank %d: %d parts checked", rank, size);
    MPI_Win_fence(0, sparse);
    MPI_Win_free(&sparse);
    MPI_Info_free(&noncontig);

    MPI_Comm_free(&reversed);
    MPI_Comm_free(&host);
    int status = report_failures(rank, bad);
    MPI_Finalize();
    return status;
}
