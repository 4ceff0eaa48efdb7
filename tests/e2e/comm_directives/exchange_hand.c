/* exchange.c's transfers written by hand in MPI: its ground truth. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define MAX_RANKS 16
#define ATOMS 3

struct cell { int id; double centre[3]; char label[12]; short flags[2]; };

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int prev = (rank - 1 + size) % size, next = (rank + 1) % size;
    MPI_Comm world = MPI_COMM_WORLD;

    double ring_out[6], ring_in[6];
    int ring_index_out[6], ring_index_in[6];
    struct cell cell_out, cell_in;
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
    MPI_Sendrecv(ring_out, 6, MPI_DOUBLE, next, 1, ring_in, 6, MPI_DOUBLE, prev, 1, world, MPI_STATUS_IGNORE);
    MPI_Sendrecv(ring_index_out, 6, MPI_INT, next, 2, ring_index_in, 6, MPI_INT, prev, 2, world, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&cell_out, sizeof cell_out, MPI_BYTE, next, 3, &cell_in, sizeof cell_in, MPI_BYTE, prev, 3,
                 world, MPI_STATUS_IGNORE);
    printf("rank %d ring %g %g %d %d cell %d %g %g %g %s %d %d\n", rank, ring_in[0], ring_in[5],
           ring_index_in[0], ring_index_in[5], cell_in.id, cell_in.centre[0], cell_in.centre[1],
           cell_in.centre[2], cell_in.label, cell_in.flags[0], cell_in.flags[1]);

    int pair_out[4] = {rank, rank * rank, -rank, 7}, pair_in[4];
    if (rank % 2 == 0 && rank + 1 < size)
        MPI_Send(pair_out, 4, MPI_INT, rank + 1, 4, world);
    if (rank % 2 == 1) {
        MPI_Recv(pair_in, 4, MPI_INT, rank - 1, 4, world, MPI_STATUS_IGNORE);
        printf("rank %d pair %d %d %d %d\n", rank, pair_in[0], pair_in[1], pair_in[2], pair_in[3]);
    }
    double second_in[6];
    MPI_Sendrecv(ring_out, 6, MPI_DOUBLE, prev, 10, second_in, 6, MPI_DOUBLE, next, 10, world, MPI_STATUS_IGNORE);
    printf("rank %d second %g %g\n", rank, second_in[0], second_in[5]);

    static double all_spins[MAX_RANKS * ATOMS][3];
    double spins[ATOMS][3];
    int atoms = (size - 1) * ATOMS;
    double work = 0;
    for (int step = 0; step < 3; step++) {
        if (rank == 0) {
            for (int a = 0; a < atoms; a++) {
                for (int d = 0; d < 3; d++)
                    all_spins[a][d] = step * 1000 + a * 10 + d;
                MPI_Send(all_spins[a], 3, MPI_DOUBLE, 1 + a / ATOMS, 5, world);
                work += 0.5 * a;
            }
        } else {
            for (int a = 0; a < ATOMS; a++) {
                MPI_Recv(spins[a], 3, MPI_DOUBLE, 0, 5, world, MPI_STATUS_IGNORE);
                work += 0.5 * a;
            }
            for (int a = 0; a < ATOMS; a++)
                printf("rank %d step %d atom %d spin %g %g %g\n", rank, step, a, spins[a][0],
                       spins[a][1], spins[a][2]);
        }
    }
    printf("rank %d work %g\n", rank, work);

    double early_out[5], late_out[5], a_out[4], b_out[4], early_in[5], late_in[5], adjacent_a[4], adjacent_b[4];
    for (int i = 0; i < 5; i++) {
        early_out[i] = rank * 10 + i;
        late_out[i] = -rank * 10 - i;
    }
    for (int i = 0; i < 4; i++) {
        a_out[i] = rank + i / 8.0;
        b_out[i] = rank - i / 8.0;
    }
    MPI_Sendrecv(early_out, 5, MPI_DOUBLE, prev, 6, early_in, 5, MPI_DOUBLE, next, 6, world, MPI_STATUS_IGNORE);
    double between = 0;
    for (int i = 0; i < 1000; i++)
        between += i * 1e-3;
    MPI_Sendrecv(late_out, 5, MPI_DOUBLE, next, 7, late_in, 5, MPI_DOUBLE, prev, 7, world, MPI_STATUS_IGNORE);
    printf("rank %d early %g %g late %g %g between %g\n", rank, early_in[0], early_in[4], late_in[0],
           late_in[4], between);
    MPI_Sendrecv(a_out, 4, MPI_DOUBLE, next, 8, adjacent_a, 4, MPI_DOUBLE, prev, 8, world, MPI_STATUS_IGNORE);
    MPI_Sendrecv(b_out, 4, MPI_DOUBLE, prev, 9, adjacent_b, 4, MPI_DOUBLE, next, 9, world, MPI_STATUS_IGNORE);
    printf("rank %d adjacent %g %g %g %g\n", rank, adjacent_a[0], adjacent_a[3], adjacent_b[0],
           adjacent_b[3]);
    MPI_Finalize();
    return 0;
}
