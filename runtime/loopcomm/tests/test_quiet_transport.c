/* Unit test of bamboo_shmem_may_use_shared_memory (runtime/commdir/src/shmem_quiet.c): the
 * quiet's read-back, a round trip per PE, is paid only where UCX_TLS lets UCX move data
 * through shared memory, where quiet alone left transfers undone. */
#include "bamboo_commdir.h"
#include "check.h"

int main(void)
{
    CHECK(bamboo_shmem_may_use_shared_memory(0));             /* unset: UCX picks, sm included */
    CHECK(bamboo_shmem_may_use_shared_memory(""));
    CHECK(bamboo_shmem_may_use_shared_memory("all"));
    CHECK(bamboo_shmem_may_use_shared_memory("rc,sm,self"));
    CHECK(bamboo_shmem_may_use_shared_memory("tcp,posix"));
    CHECK(bamboo_shmem_may_use_shared_memory("cma"));
    CHECK(bamboo_shmem_may_use_shared_memory("^tcp"));         /* excludes the network only */
    CHECK(!bamboo_shmem_may_use_shared_memory("tcp,self"));    /* the network lab */
    CHECK(!bamboo_shmem_may_use_shared_memory("rc_x,ud"));
    CHECK(!bamboo_shmem_may_use_shared_memory("^sm"));
    CHECK(!bamboo_shmem_may_use_shared_memory("^tcp,shm"));
    CHECK(!bamboo_shmem_may_use_shared_memory("smx,posixx,tcp")); /* whole names only */
    return CHECK_DONE("test_quiet_transport");
}
