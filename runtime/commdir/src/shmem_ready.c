/* Whether SHMEM runs, for the checks at the start of each SHMEM region: OpenSHMEM 1.4 has no
 * query for it (shmem_query_initialized is 1.5's), so this file takes over the calls that start
 * and end it through the profiling interface (pshmem_*) and notes the state. They also make and
 * free the synchronization's counters (shmem_sync.c): symmetric memory is allocated by all PEs
 * together, which these calls are. */
#include <pshmem.h>
#include <pshmemx.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

#include "bamboo_commdir.h"

static enum { NOT_STARTED, RUNNING, FINALIZED } state = NOT_STARTED;

void shmem_init(void)
{
    pshmem_init();
    state = RUNNING;
    bamboo_comm_shmem_sync_init();
}

int shmem_init_thread(int requested, int *provided)
{
    int code = pshmem_init_thread(requested, provided);
    if (code == 0) {
        state = RUNNING;
        bamboo_comm_shmem_sync_init();
    }
    return code;
}

void start_pes(int npes)   /* deprecated, still in use */
{
    pstart_pes(npes);
    state = RUNNING;
    bamboo_comm_shmem_sync_init();
}

void shmem_finalize(void)
{
    state = FINALIZED;
    bamboo_comm_shmem_sync_end();
    pshmem_finalize();
}

void bamboo_comm_shmem_ready(const char *file, int line)
{
    if (state == RUNNING)
        return;
    fprintf(stderr, "%s:%d: error: a comm_parameters region with TARGET_COMM_SHMEM ran %s\n",
            file, line, state == NOT_STARTED ? "before shmem_init" : "after shmem_finalize");
    exit(1);
}
