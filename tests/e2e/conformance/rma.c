/* One-sided communication: every rank checks what it got against what MPI defines.
 *   fence        MPI_Win_allocate; MPI_Put to the right neighbour, MPI_Get from the left,
 *                MPI_Accumulate from every rank to every rank (MPI_SUM, MPI_MAX, MPI_REPLACE),
 *                over three fence epochs (MPI_MODE_NOPRECEDE on the first)
 *   datatypes    MPI_Win_create of doubles; a vector on the origin into contiguous target
 *                elements and back, a struct {int, double} put into a struct target, a vector
 *                of doubles accumulated (MPI_SUM) into a strided target
 *   disp units   MPI_Win_create with a displacement unit that differs between ranks
 *                (sizeof(int) on even ranks, 1 on odd ones); MPI_Get from every rank
 *   locks        a counter on rank 0 raised by every rank under MPI_LOCK_EXCLUSIVE (get,
 *                flush, put, unlock), a sum under MPI_LOCK_SHARED (accumulate), read back
 *                by every rank with MPI_Win_lock_all / MPI_Win_unlock_all
 *   dynamic      MPI_Win_create_dynamic; a static array and a stack array attached, their
 *                addresses (MPI_Get_address) exchanged with MPI_Allgather; puts into both
 *                parts of the right neighbour and a get from the left one's, one fence epoch;
 *                detached, then a part of the static array attached again
 * Ranks of one process and of others are targets alike (neighbours and all-to-all). */
#include "conformance.h"

#define WORLD MPI_COMM_WORLD

static int fence_epochs(int rank, int size)
{
    int bad = 0;
    const int cells = 16;
    int *mem = NULL;
    MPI_Win win;
    MPI_Win_allocate((MPI_Aint)(cells * sizeof(int)), sizeof(int), MPI_INFO_NULL, WORLD, &mem, &win);
    for (int i = 0; i < cells; i++)
        mem[i] = rank * 100 + i;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;

    /* Epoch 1: puts to the right neighbour's cells 0..3, a get of the left one's 4..7. */
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    int out[4], got[4];
    for (int i = 0; i < 4; i++)
        out[i] = rank * 10 + i;
    MPI_Put(out, 4, MPI_INT, right, 0, 4, MPI_INT, win);
    MPI_Get(got, 4, MPI_INT, left, 4, 4, MPI_INT, win);
    MPI_Win_fence(0, win);
    for (int i = 0; i < 4; i++) {
        bad += expect(mem[i] == left * 10 + i, "fence: cell %d is %d, want %d (put by rank %d)", i, mem[i],
                      left * 10 + i, left);
        bad += expect(got[i] == left * 100 + 4 + i, "fence: got %d, want %d", got[i], left * 100 + 4 + i);
    }

    /* Epoch 2: every rank accumulates into every rank: a sum into cell 8, a max into 9, and a
     * replace into 10 of its right neighbour only. */
    mem[8] = 0;
    mem[9] = -1;
    MPI_Win_fence(0, win);
    int one = rank + 1, score = (rank * 7) % size;
    for (int t = 0; t < size; t++) {
        MPI_Accumulate(&one, 1, MPI_INT, t, 8, 1, MPI_INT, MPI_SUM, win);
        MPI_Accumulate(&score, 1, MPI_INT, t, 9, 1, MPI_INT, MPI_MAX, win);
    }
    MPI_Accumulate(&rank, 1, MPI_INT, right, 10, 1, MPI_INT, MPI_REPLACE, win);
    MPI_Win_fence(0, win);
    int max_score = 0;
    for (int r = 0; r < size; r++)
        if ((r * 7) % size > max_score)
            max_score = (r * 7) % size;
    bad += expect(mem[8] == size * (size + 1) / 2, "fence: sum %d, want %d", mem[8], size * (size + 1) / 2);
    bad += expect(mem[9] == max_score, "fence: max %d, want %d", mem[9], max_score);
    bad += expect(mem[10] == left, "fence: replaced %d, want %d", mem[10], left);

    /* Epoch 3: gets of cell 8 from every rank (all to all). */
    int *sums = malloc(sizeof(int) * (size_t)size);
    for (int t = 0; t < size; t++)
        MPI_Get(&sums[t], 1, MPI_INT, t, 8, 1, MPI_INT, win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    for (int t = 0; t < size; t++)
        bad += expect(sums[t] == size * (size + 1) / 2, "fence: rank %d's sum is %d", t, sums[t]);
    say("rank %d: fence cells %08x", rank, (unsigned)hash_ints(HASH_INIT, mem, (size_t)cells));
    free(sums);
    MPI_Win_free(&win);
    return bad;
}

struct particle {
    int id;
    double weight;
};

static int derived_datatypes(int rank, int size)
{
    int bad = 0;
    enum { N = 12 };
    double mem[N];
    for (int i = 0; i < N; i++)
        mem[i] = rank * 1000 + i;
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, sizeof(double), MPI_INFO_NULL, WORLD, &win);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;

    /* Every other element of `strided` to the target's cells 0..3; cells 6, 8 and 10 (every
     * other one) of the left neighbour into a contiguous buffer. */
    MPI_Datatype every_other;
    MPI_Type_vector(4, 1, 2, MPI_DOUBLE, &every_other);
    MPI_Type_commit(&every_other);
    double strided[8], gathered[3];
    for (int i = 0; i < 8; i++)
        strided[i] = rank + i / 10.0;
    MPI_Datatype three_strided;
    MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &three_strided);
    MPI_Type_commit(&three_strided);
    MPI_Win_fence(0, win);
    MPI_Put(strided, 1, every_other, right, 0, 4, MPI_DOUBLE, win);
    MPI_Get(gathered, 3, MPI_DOUBLE, left, 6, 1, three_strided, win);
    MPI_Win_fence(0, win);
    for (int i = 0; i < 4; i++)
        bad += expect(mem[i] == left + 2 * i / 10.0, "datatypes: cell %d is %g, want %g", i, mem[i], left + 2 * i / 10.0);
    for (int i = 0; i < 3; i++)
        bad += expect(gathered[i] == left * 1000 + 6 + 2 * i, "datatypes: gathered %g, want %d", gathered[i],
                      left * 1000 + 6 + 2 * i);

    /* A struct {int, double} put into the same struct laid over cells 4..5 of the right
     * neighbour (the int in cell 4's first bytes). */
    MPI_Datatype particle_type;
    int lengths[2] = {1, 1};
    MPI_Aint displacements[2] = {offsetof(struct particle, id), offsetof(struct particle, weight)};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Type_create_struct(2, lengths, displacements, types, &particle_type);
    MPI_Type_commit(&particle_type);
    struct particle mine = {rank + 7, rank * 0.5};
    MPI_Win_fence(0, win);
    MPI_Put(&mine, 1, particle_type, right, 4, 1, particle_type, win);
    MPI_Win_fence(0, win);
    struct particle landed;
    memcpy(&landed, &mem[4], sizeof landed);
    bad += expect(landed.id == left + 7 && landed.weight == left * 0.5, "datatypes: particle {%d, %g}", landed.id,
                  landed.weight);

    /* A vector of doubles summed into cells 6, 8, 10 of every rank (strided on both sides). */
    double addends[6];
    for (int i = 0; i < 6; i++)
        addends[i] = i % 2 ? -1e9 : 1.0;  /* the odd ones are gaps */
    MPI_Datatype three_every_other;
    MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &three_every_other);
    MPI_Type_commit(&three_every_other);
    MPI_Win_fence(0, win);
    for (int t = 0; t < size; t++)
        MPI_Accumulate(addends, 1, three_every_other, t, 6, 1, three_strided, MPI_SUM, win);
    MPI_Win_fence(0, win);
    for (int i = 0; i < 3; i++)
        bad += expect(mem[6 + 2 * i] == rank * 1000 + 6 + 2 * i + size, "datatypes: summed cell %d is %g", 6 + 2 * i,
                      mem[6 + 2 * i]);
    bad += expect(mem[7] == rank * 1000 + 7, "datatypes: gap cell 7 is %g", mem[7]);
    say("rank %d: datatypes cells %08x", rank, (unsigned)hash_bytes(HASH_INIT, mem, sizeof mem));
    MPI_Win_free(&win);
    MPI_Type_free(&every_other);
    MPI_Type_free(&three_strided);
    MPI_Type_free(&three_every_other);
    MPI_Type_free(&particle_type);
    return bad;
}

static int disp_units(int rank, int size)
{
    int bad = 0;
    int mem[4] = {rank, rank * 2, rank * 3, rank * 4};
    int unit = rank % 2 ? 1 : (int)sizeof(int);
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, unit, MPI_INFO_NULL, WORLD, &win);
    int *third = malloc(sizeof(int) * (size_t)size);
    MPI_Win_fence(0, win);
    for (int t = 0; t < size; t++) {
        MPI_Aint disp = t % 2 ? 2 * sizeof(int) : 2;  /* cell 2 in the target's unit */
        MPI_Get(&third[t], 1, MPI_INT, t, disp, 1, MPI_INT, win);
    }
    MPI_Win_fence(0, win);
    for (int t = 0; t < size; t++)
        bad += expect(third[t] == t * 3, "disp units: rank %d's cell 2 is %d, want %d", t, third[t], t * 3);
    say("rank %d: disp units %08x", rank, (unsigned)hash_ints(HASH_INIT, third, (size_t)size));
    free(third);
    MPI_Win_free(&win);
    return bad;
}

static int locks(int rank, int size)
{
    int bad = 0;
    int *cells = NULL;  /* rank 0's: [0] the counter, [1] the shared sum */
    MPI_Win win;
    MPI_Win_allocate(rank == 0 ? 2 * sizeof(int) : 0, sizeof(int), MPI_INFO_NULL, WORLD, &cells, &win);
    if (rank == 0)
        cells[0] = cells[1] = 0;
    MPI_Barrier(WORLD);

    /* Read, then write: only exclusion keeps every rank's raise. */
    int counter;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    MPI_Get(&counter, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    MPI_Win_flush(0, win);
    counter++;
    MPI_Put(&counter, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    MPI_Win_unlock(0, win);

    int mine = rank + 1;
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    MPI_Accumulate(&mine, 1, MPI_INT, 0, 1, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_unlock(0, win);
    MPI_Barrier(WORLD);

    int seen[2];
    MPI_Win_lock_all(0, win);
    MPI_Get(seen, 2, MPI_INT, 0, 0, 2, MPI_INT, win);
    MPI_Win_unlock_all(win);
    bad += expect(seen[0] == size, "locks: counter %d, want %d", seen[0], size);
    bad += expect(seen[1] == size * (size + 1) / 2, "locks: shared sum %d, want %d", seen[1], size * (size + 1) / 2);
    say("rank %d: locks counter %d sum %d", rank, seen[0], seen[1]);
    MPI_Win_free(&win);
    return bad;
}

static double dynamic_static[6];

static int dynamic_windows(int rank, int size)
{
    int bad = 0;
    long on_stack[3] = {rank * 10L, rank * 10L + 1, rank * 10L + 2};
    for (int i = 0; i < 6; i++)
        dynamic_static[i] = -1.0;
    MPI_Win win;
    MPI_Win_create_dynamic(MPI_INFO_NULL, WORLD, &win);
    int flavor_found = 0, *flavor = NULL;
    MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flavor_found);
    bad += expect(flavor_found && *flavor == MPI_WIN_FLAVOR_DYNAMIC, "dynamic: flavor %d", flavor_found ? *flavor : -1);
    MPI_Win_attach(win, dynamic_static, sizeof dynamic_static);
    MPI_Win_attach(win, on_stack, sizeof on_stack);
    MPI_Aint mine[2], *all = malloc(2 * sizeof(MPI_Aint) * (size_t)size);
    MPI_Get_address(dynamic_static, &mine[0]);
    MPI_Get_address(&on_stack[1], &mine[1]);
    MPI_Allgather(mine, 2, MPI_AINT, all, 2, MPI_AINT, WORLD);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    double out[2] = {rank + 0.5, rank + 0.25};
    long got = -1, one = 1000L + rank;

    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    MPI_Put(out, 2, MPI_DOUBLE, right, all[2 * right] + 3 * (MPI_Aint)sizeof(double), 2, MPI_DOUBLE, win);
    MPI_Put(&one, 1, MPI_LONG, right, all[2 * right + 1] + (MPI_Aint)sizeof(long), 1, MPI_LONG, win);
    MPI_Get(&got, 1, MPI_LONG, left, all[2 * left + 1], 1, MPI_LONG, win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    bad += expect(dynamic_static[3] == left + 0.5 && dynamic_static[4] == left + 0.25 && dynamic_static[2] == -1.0,
                  "dynamic: static cells %g %g %g, want -1 %g %g", dynamic_static[2], dynamic_static[3],
                  dynamic_static[4], left + 0.5, left + 0.25);
    bad += expect(on_stack[2] == 1000L + left && on_stack[0] == rank * 10L, "dynamic: stack cells %ld %ld",
                  on_stack[0], on_stack[2]);
    bad += expect(got == left * 10L + 1, "dynamic: got %ld, want %ld", got, left * 10L + 1);
    say("rank %d: dynamic %g %ld %ld", rank, dynamic_static[3], on_stack[2], got);
    MPI_Win_detach(win, on_stack);
    MPI_Win_detach(win, dynamic_static);

    /* Attached again: a part of the static array only. */
    MPI_Win_attach(win, &dynamic_static[1], 2 * sizeof(double));
    MPI_Get_address(&dynamic_static[1], &mine[0]);
    MPI_Allgather(mine, 1, MPI_AINT, all, 1, MPI_AINT, WORLD);
    double two = rank * 2.0;
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    MPI_Put(&two, 1, MPI_DOUBLE, right, all[right] + (MPI_Aint)sizeof(double), 1, MPI_DOUBLE, win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    bad += expect(dynamic_static[2] == left * 2.0, "dynamic: reattached cell %g, want %g", dynamic_static[2], left * 2.0);
    MPI_Win_detach(win, &dynamic_static[1]);
    free(all);
    MPI_Win_free(&win);
    return bad;
}

int main(int argc, char **argv)
{
    int rank, size, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(WORLD, &rank);
    MPI_Comm_size(WORLD, &size);
    bad += fence_epochs(rank, size);
    bad += derived_datatypes(rank, size);
    bad += disp_units(rank, size);
    bad += locks(rank, size);
    bad += dynamic_windows(rank, size);
    int status = report_failures(rank, bad);
    MPI_Finalize();
    return status;
}
