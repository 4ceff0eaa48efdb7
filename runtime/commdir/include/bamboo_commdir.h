/* What a plain MPI or OpenSHMEM program's lowered comm directives call besides the target
 * library (bamboocc --bamboo-comm-only, bamboo translate --comm-only; docs/comm-directives.md).
 * Under Bamboo tasks the runtime defines the same functions.  The lowering declares them
 * itself, so the lowered file needs no include; this header is for the library's own sources. */
#ifndef BAMBOO_COMMDIR_H
#define BAMBOO_COMMDIR_H

#ifdef __cplusplus
extern "C" {
#endif

#ifdef BAMBOO_COMMDIR_MPI
/* The communicator the directives' MPI messages and windows use: MPI_COMM_WORLD's ranks in a
 * context of their own, so that the program's own MPI_ANY_TAG receives never take their
 * messages.  A directive that runs before MPI_Init is an error located at file:line. */
MPI_Comm bamboo_comm_world(const char *file, int line);

/* The MPI one-sided target's point-to-point synchronization (src/mpi_sync.c), one per group,
 * made with its window: a receiver calls expect(sender) at each transfer whose receivewhen
 * holds, a sender before_put(receiver) ahead of its puts, and the group ends with complete,
 * which flushes the window. file:line locate MPI's reports and a peer out of range. */
struct bamboo_comm_sync;
struct bamboo_comm_sync *bamboo_comm_sync_new(MPI_Comm comm, int ready_tag, int arrived_tag,
                                              const char *file, int line);
void bamboo_comm_sync_expect(struct bamboo_comm_sync *s, int sender, const char *file, int line);
void bamboo_comm_sync_before_put(struct bamboo_comm_sync *s, int receiver, const char *file,
                                 int line);
void bamboo_comm_sync_complete(struct bamboo_comm_sync *s, MPI_Win win, const char *file,
                               int line);
void bamboo_comm_sync_free(struct bamboo_comm_sync *s);
#endif

/* At each SHMEM region's start: an error located at file:line, rather than a segmentation
 * fault in the first put, if the program has not called shmem_init or has finalized SHMEM. */
void bamboo_comm_shmem_ready(const char *file, int line);

/* The SHMEM target's point-to-point synchronization (src/shmem_sync.c). A region starts with
 * bamboo_comm_shmem_start; a sender calls before_put(pe) ahead of an instance's puts and
 * sent(pe, an rbuf address) after them; a receiver calls expect(sender) once per instance
 * whose receivewhen holds; the group ends with complete. file:line locate the reports. */
void bamboo_comm_shmem_start(const char *file, int line);
void bamboo_comm_shmem_before_put(int pe, const char *file, int line);
void bamboo_comm_shmem_sent(int pe, const void *symmetric);
void bamboo_comm_shmem_expect(int pe, const char *file, int line);
void bamboo_comm_shmem_complete(const char *file, int line);
/* Its counters, made and freed as SHMEM starts and ends (src/shmem_ready.c). */
void bamboo_comm_shmem_sync_init(void);
void bamboo_comm_shmem_sync_end(void);

/* shmem_quiet, made to complete on this machine's UCX shared memory (src/shmem_quiet.c):
 * bamboo_shmem_moved after each put or non-blocking get names the PE and a symmetric address
 * it touched there; bamboo_shmem_quiet quiets, then reads a byte from each such PE where
 * bamboo_shmem_quiet_reads_back says so: where UCX may use shared memory
 * (bamboo_shmem_may_use_shared_memory of $UCX_TLS). */
void bamboo_shmem_moved(int pe, const void *symmetric);
void bamboo_shmem_quiet(void);
int bamboo_shmem_quiet_reads_back(void);
int bamboo_shmem_may_use_shared_memory(const char *ucx_tls);

#ifdef __cplusplus
}
#endif

#endif
