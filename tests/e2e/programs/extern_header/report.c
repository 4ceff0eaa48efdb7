#include "globals.h"

double report(void)
{
    return energy / nsteps + calls;
}
