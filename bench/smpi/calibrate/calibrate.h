/* What calibrate's kernels share: timing one run of a kernel, and each application's cost
 * function (calibrate_APP.c: one file per application, for the applications' kernel
 * headers cannot all be included in one file). A cost function takes the integers of the
 * key after the kernel's name and returns the seconds per unit of work, or -1 for a shape it
 * does not know. */
#ifndef BAMBOO_BENCH_CALIBRATE_H
#define BAMBOO_BENCH_CALIBRATE_H

double median_run(void (*run)(void *), void *data);

double jacobi3d_sweep_cost(const int *shape, int count);
double cannon_dgemm_cost(const int *shape, int count);
double multigrid_zero_cost(const int *shape, int count);
double multigrid_pack_cost(const int *shape, int count);
double multigrid_unpack_cost(const int *shape, int count);
double multigrid_gsrb_cost(const int *shape, int count);
double multigrid_residual_cost(const int *shape, int count);
double multigrid_restrict_cost(const int *shape, int count);
double multigrid_interpolate_cost(const int *shape, int count);

#endif
