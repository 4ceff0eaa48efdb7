/* Communication directives (docs/comm-directives.md) against exchange_hand.c, which does the
 * same transfers in hand-written MPI and prints the same lines:
 *   a ring of a buffer list (doubles and ints) and of a structure, consolidated in one region;
 *   a standalone comm_p2p from even to odd ranks (sendwhen/receivewhen), and a ring right
 *   after it that shares its completion;
 *   rank 0 distributing spins in a loop (max_comm_iter), the region inside a time loop;
 *   place_sync(BEGIN_NEXT_PARAM_REGION) and place_sync(END_ADJ_PARAM_REGIONS).
 * TARGET picks the library (-DTARGET=TARGET_COMM_MPI_1SIDE...); every buffer received into is
 * a static object, as the one-sided targets need. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#ifdef USE_SHMEM
#include <shmem.h>
#endif

#ifndef TARGET
#define TARGET TARGET_COMM_MPI_2SIDE
#endif
#define MAX_RANKS 16
#define ATOMS 3   /* per receiving rank */

struct cell { int id; double centre[3]; char label[12]; short flags[2]; };

static double ring_in[6];
static int ring_index_in[6];
static struct cell cell_in;
static int pair_in[4];
static double second_in[6];
static double spins[ATOMS][3];
static double early_in[5], late_in[5], adjacent_a[4], adjacent_b[4];

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
#ifdef USE_SHMEM
    shmem_init();
#endif
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int prev = (rank - 1 + size) % size, next = (rank + 1) % size;

    double ring_out[6];
    int ring_index_out[6];
    struct cell cell_out;
    for (int i = 0; i < 6; i++) {
        ring_out[i] = rank + 0.25 * i;
        ring_index_out[i] = 100 * rank + i;
    }
    memset(&cell_out, 0, sizeof cell_out);
    cell_out.id = rank;
    for (int d = 0; d < 3; d++)
        cell_out.centre[d] = rank * 1.5 + d;
    snprintf(cell_out.label, sizeof cell_out.label, "cell-%d", rank);
    cell_out.flags[0] = (short)(rank * 3);
    cell_out.flags[1] = (short)-rank;

#pragma comm_parameters sender(prev) receiver(next) target(TARGET)
    {
#pragma comm_p2p sbuf(ring_out, ring_index_out) rbuf(ring_in, ring_index_in)
        { }
#pragma comm_p2p sbuf(cell_out) rbuf(cell_in)
        { }
    }
    printf("rank %d ring %g %g %d %d cell %d %g %g %g %s %d %d\n", rank, ring_in[0], ring_in[5],
           ring_index_in[0], ring_index_in[5], cell_in.id, cell_in.centre[0], cell_in.centre[1],
           cell_in.centre[2], cell_in.label, cell_in.flags[0], cell_in.flags[1]);

    int pair_out[4] = {rank, rank * rank, -rank, 7};
#pragma comm_p2p sbuf(pair_out) rbuf(pair_in) sender(rank - 1) receiver(rank + 1) \
        sendwhen(rank % 2 == 0 && rank + 1 < size) receivewhen(rank % 2 == 1) target(TARGET)
    { }
#pragma comm_p2p sbuf(ring_out) rbuf(second_in) sender(next) receiver(prev) target(TARGET)
    { }
    printf("rank %d second %g %g\n", rank, second_in[0], second_in[5]);
    if (rank % 2 == 1)
        printf("rank %d pair %d %d %d %d\n", rank, pair_in[0], pair_in[1], pair_in[2], pair_in[3]);

    static double all_spins[MAX_RANKS * ATOMS][3];
    int atoms = (size - 1) * ATOMS;
    double work = 0;
    for (int step = 0; step < 3; step++) {
        if (rank == 0)
            for (int a = 0; a < atoms; a++)
                for (int d = 0; d < 3; d++)
                    all_spins[a][d] = step * 1000 + a * 10 + d;
        int owner = 0, local = 0;
#pragma comm_parameters sendwhen(rank == 0) receivewhen(rank != 0) sender(0) receiver(owner) \
        count(3) max_comm_iter(atoms) target(TARGET)
        {
            for (int a = 0; a < (rank == 0 ? atoms : ATOMS); a++) {
                owner = 1 + a / ATOMS;
                local = rank == 0 ? a % ATOMS : a;
#pragma comm_p2p sbuf(&all_spins[a][0]) rbuf(&spins[local][0])
                work += 0.5 * a;
            }
        }
        if (rank != 0)
            for (int a = 0; a < ATOMS; a++)
                printf("rank %d step %d atom %d spin %g %g %g\n", rank, step, a, spins[a][0],
                       spins[a][1], spins[a][2]);
    }
    printf("rank %d work %g\n", rank, work);

    double early_out[5], late_out[5], a_out[4], b_out[4];
    for (int i = 0; i < 5; i++) {
        early_out[i] = rank * 10 + i;
        late_out[i] = -rank * 10 - i;
    }
    for (int i = 0; i < 4; i++) {
        a_out[i] = rank + i / 8.0;
        b_out[i] = rank - i / 8.0;
    }
#pragma comm_parameters sender(next) receiver(prev) place_sync(BEGIN_NEXT_PARAM_REGION) target(TARGET)
    {
#pragma comm_p2p sbuf(early_out) rbuf(early_in)
        { }
    }
    double between = 0;
    for (int i = 0; i < 1000; i++)
        between += i * 1e-3;
#pragma comm_parameters sender(prev) receiver(next) target(TARGET)
    {
#pragma comm_p2p sbuf(late_out) rbuf(late_in)
        { }
    }
    printf("rank %d early %g %g late %g %g between %g\n", rank, early_in[0], early_in[4], late_in[0],
           late_in[4], between);

#pragma comm_parameters sender(prev) receiver(next) place_sync(END_ADJ_PARAM_REGIONS) target(TARGET)
    {
#pragma comm_p2p sbuf(a_out) rbuf(adjacent_a)
        { }
    }
#pragma comm_parameters sender(next) receiver(prev) place_sync(END_ADJ_PARAM_REGIONS) target(TARGET)
    {
#pragma comm_p2p sbuf(b_out) rbuf(adjacent_b)
        { }
    }
    printf("rank %d adjacent %g %g %g %g\n", rank, adjacent_a[0], adjacent_a[3], adjacent_b[0],
           adjacent_b[3]);

#ifdef USE_SHMEM
    shmem_finalize();   /* Open MPI's finalizes MPI too */
#else
    MPI_Finalize();
#endif
    return 0;
}
