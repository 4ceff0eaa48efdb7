/* shmem_quiet made whole, for comm directives' SHMEM target and loop communication alike
 * (its library is built with this file too: each library must stand alone).
 *
 * On this machine's Open MPI 4.1.4 over UCX 1.13 shared memory (posix, sysv, cma; not tcp),
 * shmem_quiet returned with getmem_nbi data still missing: after a few hundred small gets, a
 * whole batch stayed unwritten even 0.1 s later, until the next blocking get progressed it;
 * putmem_nbi data was missing after quiet and a barrier in some runs too
 * (docs/loop-communication.md, "SHMEM on this machine").  So after the quiet, one blocking
 * one-byte get from every PE data moved with since the last one.  Runs with wrong data: loop
 * communication's end-to-end tests, 19 of 48 with the quiet alone, 6 of 32 with the get after
 * GETs only (all of them PUT cases), 0 of 80 with it after both; the directives' rounds of
 * puts (tests/e2e/comm_directives/shmem_rounds.c, 4 PEs): 11 of 50 with the quiet alone.
 *
 * The get is a round trip, and over TCP one the target serves only when it next enters SHMEM,
 * possibly a whole strip of computation later: where UCX_TLS leaves UCX no shared-memory
 * transport (the network lab sets tcp,self) the quiet alone is used. */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>
#include <stdlib.h>
#include <string.h>

#include "bamboo_commdir.h"

/* PEs with transfers since the last quiet, and a symmetric address on each. */
#define MOST_PENDING 64
static struct {
    int pe;
    const void *symmetric;
} pending[MOST_PENDING];
static int npending, overflow;

void bamboo_shmem_moved(int pe, const void *symmetric)
{
    for (int i = 0; i < npending; i++)
        if (pending[i].pe == pe)
            return;
    if (npending == MOST_PENDING) {
        overflow = 1;   /* then every PE, at pending[0]'s address */
        return;
    }
    pending[npending].pe = pe;
    pending[npending].symmetric = symmetric;
    npending++;
}

static int listed(const char *list, const char *const *names, size_t nnames)
{
    for (const char *p = list; *p; p += *p == ',') {
        size_t len = strcspn(p, ",");
        for (size_t i = 0; i < nnames; i++)
            if (strlen(names[i]) == len && strncmp(p, names[i], len) == 0)
                return 1;
        p += len;
    }
    return 0;
}

/* Whether UCX may move data through shared memory: UCX_TLS unset, a list naming a
 * shared-memory transport or an alias that includes one, or an exclusion list ("^...") that
 * does not exclude sm/shm. */
int bamboo_shmem_may_use_shared_memory(const char *ucx_tls)
{
    static const char *const shared[] = {"all", "sm", "shm", "mm", "posix", "sysv", "cma", "knem", "xpmem"};
    static const char *const all_shared[] = {"sm", "shm"};
    if (!ucx_tls || !*ucx_tls)
        return 1;
    if (ucx_tls[0] == '^')
        return !listed(ucx_tls + 1, all_shared, 2);
    return listed(ucx_tls, shared, sizeof shared / sizeof *shared);
}

int bamboo_shmem_quiet_reads_back(void)
{
    static int reads_back = -1;  /* from UCX_TLS, read once */
    if (reads_back < 0)
        reads_back = bamboo_shmem_may_use_shared_memory(getenv("UCX_TLS"));
    return reads_back;
}

void bamboo_shmem_quiet(void)
{
    int read_back = bamboo_shmem_quiet_reads_back();
    shmem_quiet();
    static char scratch;
    if (read_back && overflow) {
        int n = shmem_n_pes();
        for (int pe = 0; pe < n; pe++)
            shmem_getmem(&scratch, pending[0].symmetric, 1, pe);
    } else if (read_back) {
        for (int i = 0; i < npending; i++)
            shmem_getmem(&scratch, pending[i].symmetric, 1, pending[i].pe);
    }
    npending = 0;
    overflow = 0;
}
