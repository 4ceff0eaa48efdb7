/* Loops whose remote reads are indexed in ways no LMAD describes, which the loop
 * communication optimizer runs through an inspector: CSR rows read through column numbers (CG
 * as NAS writes it), a triangular nest, an index that multiplies loop variables, indices that
 * change between executions (the executor's check then reads the changed elements at once, and
 * the site inspects anew), one nest run for several index arrays (one cached inspection each),
 * and indices too far apart to buffer.  Built as written (oshcc) and by bamboocc, it must print
 * the same at every PE count, strip count and transfer kind. */
#include <shmem.h>
#include <stdio.h>

#define N 400
#define ROWS 50
#define NNZ 7
#define WIDE (5L << 20)   /* past the runtime's widest buffered span */

double x[N];
char far[WIDE];
int colidx[2][ROWS * NNZ];
long rowstr[2][ROWS + 1];
long spread[ROWS];
double q[ROWS];

static double checksum(const double *a, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * (1 + i % 5);
    return s;
}

/* q = the rows of one CSR times x on PE b */
static void product(const long *start, const int *col, int b, int rows)
{
    for (int i = 0; i < rows; i++) {
        double sum = 0;
        for (long k = start[i]; k < start[i + 1]; k++)
            sum += (k % 3 + 1) * shmem_double_g(&x[col[k]], b);
        q[i] = sum;
    }
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    for (int i = 0; i < N; i++)
        x[i] = me * 100000 + i;
    far[0] = (char)(me + 1);
    far[WIDE - 1] = (char)(me + 2);
    for (int m = 0; m < 2; m++) {
        rowstr[m][0] = 0;
        for (int i = 0; i < ROWS; i++) {
            int entries = (i * (m + 3)) % NNZ;   /* rows of 0 to NNZ - 1 entries */
            for (int e = 0; e < entries; e++)
                colidx[m][rowstr[m][i] + e] = (i * 37 + e * 101 + m * 13) % N;
            rowstr[m][i + 1] = rowstr[m][i] + entries;
        }
    }
    shmem_barrier_all();
    int next = (me + 1) % npes;

    /* CG as NAS writes it, each PE's block in turn, twice: the second time from the cache */
    for (int pass = 0; pass < 2; pass++) {
        double total = 0;
        for (int b = 0; b < npes; b++) {
            product(rowstr[b % 2], colidx[b % 2], b, ROWS);
            total += (b + 1) * checksum(q, ROWS);
        }
        printf("pe %d csr pass %d %.1f\n", me, pass, total);
    }

    /* the same index array, changed in place: the key is the same, the elements are not */
    for (int round = 0; round < 3; round++) {
        for (int k = 0; k < ROWS * NNZ; k++)
            colidx[0][k] = (colidx[0][k] + 7 * round) % N;
        product(rowstr[0], colidx[0], next, ROWS);
        printf("pe %d changed %d %.1f\n", me, round, checksum(q, ROWS));
    }

    /* triangular: row i reads x[i .. N) */
    for (int i = 0; i < ROWS; i++) {
        double sum = 0;
        for (int j = i; j < N; j += 3)
            sum += shmem_double_g(&x[j], next);
        q[i] = sum;
    }
    printf("pe %d triangle %.1f\n", me, checksum(q, ROWS));

    /* an index that multiplies the loop variables */
    for (int i = 0; i < ROWS; i++) {
        double sum = 0;
        for (int j = 0; j < 7; j++)
            sum += shmem_double_g(&x[(i * j) % N], next);
        q[i] = sum;
    }
    printf("pe %d product %.1f\n", me, checksum(q, ROWS));

    /* two elements megabytes apart: read as written */
    for (int i = 0; i < ROWS; i++)
        spread[i] = i % 2 ? WIDE - 1 : 0;
    long total = 0;
    for (int i = 0; i < ROWS; i++)
        total += shmem_char_g(&far[spread[i]], next);
    printf("pe %d wide %ld\n", me, total);

    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
