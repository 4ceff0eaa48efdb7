/* One-sided atomics and synchronization beyond fences and locks; every rank checks what it
 * got against what MPI defines.
 *   atomics      MPI_Fetch_and_op (MPI_SUM into a slot of the right neighbour, MPI_NO_OP to
 *                read it back), MPI_Get_accumulate of a vector (MPI_SUM, then MPI_REPLACE),
 *                MPI_Compare_and_swap that succeeds and one that does not; a counter on rank
 *                0 that every rank raises with MPI_Fetch_and_op, read after the epoch
 *   flush local  MPI_Win_lock_all, gets and fetches from the left neighbour completed by
 *                MPI_Win_flush_local and MPI_Win_flush_local_all
 *   requests     MPI_Rput, MPI_Raccumulate to the right neighbour and MPI_Rget,
 *                MPI_Rget_accumulate from the left one inside MPI_Win_lock_all, completed by
 *                MPI_Wait, MPI_Waitall and MPI_Test polled; MPI_PROC_NULL's request
 *   pscw         general active target around the ring: each rank exposes its part to its
 *                left neighbour (MPI_Win_post) and reaches the right one's (MPI_Win_start),
 *                puts and accumulates, MPI_Win_complete, then MPI_Win_wait; a second round
 *                ends with MPI_Win_test polled until it succeeds; rank 0 then exposes its part
 *                to every rank at once
 * Ranks of one process and of others are targets alike. */
#include "conformance.h"

#define WORLD MPI_COMM_WORLD

static int atomics(int rank, int size)
{
    int bad = 0;
    long *mem = NULL;
    const int cells = 8;  /* 0: fetch slot, 1..4: vector, 5: swap slot, 6: counter */
    MPI_Win win;
    MPI_Win_allocate((MPI_Aint)(cells * sizeof(long)), sizeof(long), MPI_INFO_NULL, WORLD, &mem, &win);
    for (int i = 0; i < cells; i++)
        mem[i] = 1000L * rank + i;
    mem[6] = 0;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    long one = 1, add = rank + 10, fetched = -1, read = -1, vector[4], before[4], swap = 7000 + rank;
    long compare = 1000L * right + 5, found = -1, again = -1;
    for (int i = 0; i < 4; i++)
        vector[i] = rank * 10 + i;
    MPI_Win_fence(0, win);
    MPI_Fetch_and_op(&add, &fetched, MPI_LONG, right, 0, MPI_SUM, win);
    MPI_Get_accumulate(vector, 4, MPI_LONG, before, 4, MPI_LONG, right, 1, 4, MPI_LONG, MPI_SUM, win);
    MPI_Compare_and_swap(&swap, &compare, &found, MPI_LONG, right, 5, win);
    MPI_Fetch_and_op(&one, &read, MPI_LONG, 0, 6, MPI_SUM, win);
    MPI_Win_fence(0, win);
    bad += expect(fetched == 1000L * right, "fetched %ld from rank %d", fetched, right);
    bad += expect(found == 1000L * right + 5, "compare-and-swap found %ld", found);
    for (int i = 0; i < 4; i++)
        bad += expect(before[i] == 1000L * right + 1 + i, "get_accumulate saw %ld at %d", before[i], i);
    bad += expect(mem[0] == 1000L * rank + left + 10, "slot 0 holds %ld", mem[0]);
    bad += expect(mem[5] == 7000 + left, "swap slot holds %ld", mem[5]);
    /* a compare that does not match leaves the target alone; MPI_NO_OP only reads */
    MPI_Compare_and_swap(&swap, &compare, &again, MPI_LONG, right, 5, win);
    MPI_Fetch_and_op(NULL, &read, MPI_LONG, right, 0, MPI_NO_OP, win);
    MPI_Get_accumulate(vector, 4, MPI_LONG, before, 4, MPI_LONG, right, 1, 4, MPI_LONG, MPI_REPLACE, win);
    MPI_Win_fence(0, win);
    bad += expect(again == 7000 + rank, "second compare-and-swap found %ld", again);
    bad += expect(read == 1000L * right + rank + 10, "MPI_NO_OP read %ld", read);
    for (int i = 0; i < 4; i++) {
        bad += expect(before[i] == 1000L * right + 1 + i + vector[i], "second get_accumulate saw %ld", before[i]);
        bad += expect(mem[1 + i] == left * 10 + i, "vector cell %d holds %ld", i, mem[1 + i]);
    }
    if (rank == 0)
        bad += expect(mem[6] == size, "counter %ld, %d ranks", mem[6], size);
    say("atomics rank %d: fetched %ld found %ld again %ld read %ld slot %ld swap %ld vector %ld %ld counter %ld",
        rank, fetched, found, again, read, mem[0], mem[5], mem[1], mem[4], rank == 0 ? mem[6] : -1L);
    MPI_Win_free(&win);
    return bad;
}

static int flush_local(int rank, int size)
{
    int bad = 0;
    int *mem = NULL;
    MPI_Win win;
    MPI_Win_allocate((MPI_Aint)(4 * sizeof(int)), sizeof(int), MPI_INFO_NULL, WORLD, &mem, &win);
    for (int i = 0; i < 4; i++)
        mem[i] = rank * 100 + i;
    MPI_Barrier(WORLD);
    int left = (rank + size - 1) % size, got[2] = {-1, -1}, fetched = -1, zero = 0;
    MPI_Win_lock_all(0, win);
    MPI_Get(got, 2, MPI_INT, left, 1, 2, MPI_INT, win);
    MPI_Win_flush_local(left, win);
    MPI_Fetch_and_op(&zero, &fetched, MPI_INT, left, 3, MPI_SUM, win);
    MPI_Win_flush_local_all(win);
    MPI_Win_unlock_all(win);
    bad += expect(got[0] == left * 100 + 1 && got[1] == left * 100 + 2, "got %d %d", got[0], got[1]);
    bad += expect(fetched == left * 100 + 3, "fetched %d", fetched);
    say("flush_local rank %d: got %d %d fetched %d", rank, got[0], got[1], fetched);
    MPI_Barrier(WORLD);
    MPI_Win_free(&win);
    return bad;
}

static int requests(int rank, int size)
{
    int bad = 0;
    int *mem = NULL;
    MPI_Win win;
    MPI_Win_allocate((MPI_Aint)(6 * sizeof(int)), sizeof(int), MPI_INFO_NULL, WORLD, &mem, &win);
    for (int i = 0; i < 6; i++)
        mem[i] = rank * 100 + i;
    MPI_Barrier(WORLD);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int mine = rank + 50, add = 3, got[2] = {-1, -1}, before = -1, flag = 0, nothing = -7;
    MPI_Request put, acc, reads[2], none;
    MPI_Win_lock_all(0, win);
    MPI_Rput(&mine, 1, MPI_INT, right, 0, 1, MPI_INT, win, &put);
    MPI_Raccumulate(&add, 1, MPI_INT, right, 1, 1, MPI_INT, MPI_SUM, win, &acc);
    MPI_Rget(got, 2, MPI_INT, left, 4, 2, MPI_INT, win, &reads[0]);
    MPI_Rget_accumulate(&add, 1, MPI_INT, &before, 1, MPI_INT, left, 2, 1, MPI_INT, MPI_SUM, win, &reads[1]);
    MPI_Rget(&nothing, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win, &none);
    MPI_Wait(&put, MPI_STATUS_IGNORE);
    while (!flag)
        MPI_Test(&acc, &flag, MPI_STATUS_IGNORE);
    MPI_Waitall(2, reads, MPI_STATUSES_IGNORE);
    MPI_Wait(&none, MPI_STATUS_IGNORE);
    MPI_Win_flush_all(win);
    MPI_Win_unlock_all(win);
    MPI_Barrier(WORLD);
    bad += expect(got[0] == left * 100 + 4 && got[1] == left * 100 + 5, "got %d %d", got[0], got[1]);
    bad += expect(before == left * 100 + 2, "get_accumulate saw %d", before);
    bad += expect(mem[0] == left + 50 && mem[1] == rank * 100 + 1 + 3 && mem[2] == rank * 100 + 2 + 3,
                  "part holds %d %d %d", mem[0], mem[1], mem[2]);
    bad += expect(nothing == -7 && put == MPI_REQUEST_NULL && none == MPI_REQUEST_NULL, "requests freed");
    say("requests rank %d: got %d %d before %d part %d %d %d", rank, got[0], got[1], before, mem[0], mem[1], mem[2]);
    MPI_Barrier(WORLD);
    MPI_Win_free(&win);
    return bad;
}

static MPI_Group single(MPI_Group world, int member)
{
    MPI_Group one;
    MPI_Group_incl(world, 1, &member, &one);
    return one;
}

static int pscw(int rank, int size)
{
    int bad = 0;
    int *mem = NULL;
    MPI_Win win;
    MPI_Win_allocate((MPI_Aint)(4 * sizeof(int)), sizeof(int), MPI_INFO_NULL, WORLD, &mem, &win);
    for (int i = 0; i < 4; i++)
        mem[i] = -1;
    MPI_Group world, origin, target;
    MPI_Comm_group(WORLD, &world);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    origin = single(world, left);
    target = single(world, right);
    for (int round = 0; round < 2; round++) {
        int value = rank * 10 + round, sum = 1;
        MPI_Win_post(origin, 0, win);
        MPI_Win_start(target, 0, win);
        MPI_Put(&value, 1, MPI_INT, right, round, 1, MPI_INT, win);
        MPI_Accumulate(&sum, 1, MPI_INT, right, 3, 1, MPI_INT, MPI_SUM, win);
        MPI_Win_complete(win);
        if (round == 0) {
            MPI_Win_wait(win);
        } else {
            int flag = 0;
            while (!flag)
                MPI_Win_test(win, &flag);
        }
        bad += expect(mem[round] == left * 10 + round, "round %d got %d", round, mem[round]);
    }
    bad += expect(mem[3] == -1 + 2, "accumulated %d", mem[3]);
    /* rank 0 exposed to everyone, everyone (rank 0 too) puts its rank into its own cell */
    int cells = size < 4 ? size : 4;
    if (rank == 0) {
        MPI_Win_post(world, 0, win);
    }
    MPI_Group zero = single(world, 0);
    if (rank < cells) {
        MPI_Win_start(zero, 0, win);
        MPI_Put(&rank, 1, MPI_INT, 0, rank, 1, MPI_INT, win);
        MPI_Win_complete(win);
    } else {
        MPI_Win_start(zero, 0, win);
        MPI_Win_complete(win);
    }
    if (rank == 0) {
        MPI_Win_wait(win);
        for (int i = 0; i < cells; i++)
            bad += expect(mem[i] == i, "cell %d holds %d", i, mem[i]);
    }
    say("pscw rank %d: from left %d %d sum %d cells %d %d", rank, left * 10, left * 10 + 1, mem[3],
        rank == 0 ? mem[0] : -2, rank == 0 ? mem[cells - 1] : -2);
    MPI_Group_free(&zero);
    MPI_Group_free(&origin);
    MPI_Group_free(&target);
    MPI_Group_free(&world);
    MPI_Win_free(&win);
    return bad;
}

int main(int argc, char **argv)
{
    int rank, size, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(WORLD, &rank);
    MPI_Comm_size(WORLD, &size);
    bad += atomics(rank, size);
    bad += flush_local(rank, size);
    bad += requests(rank, size);
    bad += pscw(rank, size);
    int status = report_failures(rank, bad);
    MPI_Finalize();
    return status;
}
