#include <stdlib.h>

#include "calibrate.h"
#include "jacobi3d_kernels.h"

/* jacobi3d_sweep: the cost of a point, the same in every block and box of every variant (the
 * kernel's key has no shape): what a sweep of a whole block costs per point, with tiles 4 x 8
 * (the program's default), by default of a 96^3 block (bench/smpi's jacobi3d at 64 ranks,
 * its largest), or of the block nz x ny x nx a key of three integers gives (bench/smpi/lab
 * asks for the lab's). Smaller blocks sweep faster here, as far as this machine's caches
 * hold them (a 48 x 96 x 96 block: 0.67 ns per point against 1.05), and the slabs that
 * MPI-olap cuts its block into would, timed one by one, run from cache; the simulated nodes'
 * caches, 1 MB or less per core, hold none of these blocks. */
struct sweep_case {
    struct block g;
    int box[6];
    double *u, *v, *b;
};

static void run_sweep(void *data)
{
    struct sweep_case *c = data;
    sweep_box(&c->g, c->v, c->u, c->b, c->box[0], c->box[1], c->box[2], c->box[3], c->box[4], c->box[5]);
}

double jacobi3d_sweep_cost(const int *shape, int count)
{
    int nz = 96, ny = 96, nx = 96;
    if (count == 3) {
        nz = shape[0];
        ny = shape[1];
        nx = shape[2];
    } else if (count != 0) {
        return -1;
    }
    if (nz < 1 || ny < 1 || nx < 1)
        return -1;
    struct sweep_case c = {.g = {.nz = nz, .ny = ny, .nx = nx, .bz = 4, .by = 8}, .box = {1, nz + 1, 1, ny + 1, 1, nx + 1}};
    size_t cells = block_cells(&c.g);
    c.u = malloc(cells * sizeof *c.u);
    c.v = malloc(cells * sizeof *c.v);
    c.b = malloc(cells * sizeof *c.b);
    if (!c.u || !c.v || !c.b)
        return -1;
    for (size_t i = 0; i < cells; i++) { /* values like a run's: no zeros, no subnormals */
        c.u[i] = 1.0 + 1e-3 * (double)(i % 97);
        c.v[i] = 0.5;
        c.b[i] = 1e-4 * (double)(i % 89);
    }
    double points = (double)(c.box[1] - c.box[0]) * (c.box[3] - c.box[2]) * (c.box[5] - c.box[4]);
    double seconds = median_run(run_sweep, &c) / points;
    free(c.u);
    free(c.v);
    free(c.b);
    return seconds;
}

