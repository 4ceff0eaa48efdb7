/* MG, fine-grained: the ghost-plane exchange puts the boundary planes into the neighbours'
 * ghost planes element by element with shmem_double_p (mg.h has the problem, the sweeps and
 * the check). */
#include <shmem.h>

#include "mg.h"

static double *u;   /* symmetric: nz × (nyl+2) × nx, ghost planes j = 0 and nyl+1 */

static void mg_exchange(const mg_problem *pr)
{
    const int nx = (int)pr->nx, nyl = (int)pr->nyl, nz = (int)pr->nz, me = pr->me;
    /* comm begin */
    if (me > 0)   /* my first plane into the lower neighbour's upper ghost plane */
        for (int k = 0; k < nz; k++)
            for (int i = 0; i < nx; i++)
                shmem_double_p(&u[(k * (nyl + 2) + nyl + 1) * nx + i], u[(k * (nyl + 2) + 1) * nx + i], me - 1);
    if (me < pr->npes - 1)   /* my last plane into the upper neighbour's lower ghost plane */
        for (int k = 0; k < nz; k++)
            for (int i = 0; i < nx; i++)
                shmem_double_p(&u[(k * (nyl + 2) + 0) * nx + i], u[(k * (nyl + 2) + nyl) * nx + i], me + 1);
    /* comm end */
}

int main(int argc, char **argv)
{
    lc_world *world = lc_init();
    mg_problem pr;
    mg_setup(&pr, world, argc, argv);
    u = shmem_malloc(mg_local_size(&pr) * sizeof(double));
    if (!u)
        lc_refuse("symmetric heap exhausted");
    return mg_main(&pr, u, mg_exchange);
}
