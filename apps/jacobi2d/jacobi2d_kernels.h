/* The computation of jacobi2d, shared by every variant (jacobi2d.c, jacobi2d_olap.c) and by
 * the serial reference that verifies them, so that every point is updated with the same
 * arithmetic. No MPI in here.
 *
 * A block: rows x cols points with one ghost layer on each side, rows contiguous: point
 * (j, i), 0 <= j <= rows+1, 0 <= i <= cols+1, is at j*(cols+2) + i. */
#ifndef JACOBI2D_KERNELS_H
#define JACOBI2D_KERNELS_H

#include <stddef.h>

/* Point (j, i) of a block `cols` points wide. */
#define AT(a, j, i) ((a)[(size_t)(j) * (cols + 2) + (i)])

/* One Jacobi sweep of rows [j0, j1) and columns [i0, i1) of a block `cols` points wide: each
 * point of v becomes the mean of its four neighbours in u. The sum runs in one fixed order,
 * so a point gets the same bits whichever block it is in and in whichever piece it is swept. */
static inline void sweep_box(int cols, double *restrict v, const double *restrict u, int j0, int j1, int i0, int i1)
{
    for (int j = j0; j < j1; j++)
        for (int i = i0; i < i1; i++)
            AT(v, j, i) = 0.25 * (AT(u, j - 1, i) + AT(u, j + 1, i) + AT(u, j, i - 1) + AT(u, j, i + 1));
}

#endif
