/*
 * bamboo.h - the C interface between translated programs and the Bamboo runtime.
 *
 * `bamboo translate` makes every translated file include this header first.  It is
 * the whole contract between the translator and the runtime:
 *
 *   - the program entry: the user's main() is renamed bamboo_main() and the runtime's
 *     own main() starts one task per virtual rank, each running bamboo_main();
 *   - privatized globals: each task has its own copy of every mutable global and
 *     static variable, reached through BAMBOO_PRIVATE();
 *   - the MPI subset the runtime implements over virtual ranks: after this header, a
 *     call such as MPI_Recv(...) in user code (or in a user macro or header) becomes
 *     bamboo_recv(BAMBOO_AT, ...); the translator rejects MPI calls not listed here;
 *   - firing rules: bamboo_expect() / bamboo_fire() at each evaluation point;
 *   - exit() ends the calling task, not the process its task shares with others, and
 *     rand()/random() draw from the task's own generator.
 *
 * Types and constants (MPI_Comm, MPI_Datatype, MPI_Status, MPI_Request, MPI_ANY_SOURCE,
 * ...) are the MPI library's own, so user code keeps compiling unchanged.
 */
#ifndef BAMBOO_H
#define BAMBOO_H

#include <mpi.h>
#include <stddef.h>
#include <stdlib.h> /* before the redirections of exit() and rand() below: not of their prototypes */

#ifdef __cplusplus
extern "C" {
#endif

/* Where in the user's source a call stands; reported when a task waits too long. */
typedef struct bamboo_site {
    const char *file;
    int line;
} bamboo_site;

#define BAMBOO_AT ((bamboo_site){__FILE__, __LINE__})

/* ---- Program entry ------------------------------------------------------------ */

/* The user's main(), renamed by the translator. Always this signature: the translator
 * adapts `int main(void)`. */
int bamboo_main(int argc, char **argv);

/* exit() in user code ends the calling task only, as under MPI it ends only the calling
 * process: its status becomes the task's exit status, as if main() had returned it. */
void bamboo_exit(int status) __attribute__((noreturn));

/* rand(), srand(), random() and srandom() in user code use the calling task's own
 * generator (the C library's, so each task sees the numbers its process would see). */
int bamboo_rand(void);
void bamboo_srand(unsigned seed);
long bamboo_random(void);
void bamboo_srandom(unsigned seed);

/* ---- Privatized globals ------------------------------------------------------- */

/* The running task's block of privatized globals. Set by the scheduler whenever a
 * task is switched in; tasks never move between worker threads, so a value cached by
 * the compiler across a yield stays right. */
extern __thread char *bamboo_globals __attribute__((tls_model("initial-exec")));

/* One privatized variable. `initial` is the renamed original definition, whose bytes
 * every task's copy starts from; the runtime writes the variable's place in the
 * block to *offset at registration. */
typedef struct bamboo_global {
    const char *name;
    size_t *offset;
    const void *initial;
    size_t size;
    size_t align;
} bamboo_global;

/* Called from a constructor in each translated file, before main(). */
void bamboo_register_globals(const bamboo_global *globals, size_t count);

/* The running task's copy of the privatized variable `name`. The translator renames
 * the definition to bamboo_initial_<name> and declares bamboo_offset_<name>. */
#define BAMBOO_PRIVATE(name) \
    (*(__typeof__(bamboo_initial_##name) *)(bamboo_globals + bamboo_offset_##name))

/* ---- MPI over virtual ranks --------------------------------------------------- */
/* Same arguments and results as the MPI functions they replace; calls that can wait
 * take the call site first. Ranks are virtual ranks. */

int bamboo_init(int *argc, char ***argv);
int bamboo_init_thread(int *argc, char ***argv, int required, int *provided);
int bamboo_initialized(int *flag);
int bamboo_finalize(void);
int bamboo_finalized(int *flag);
int bamboo_abort(MPI_Comm comm, int errorcode);
double bamboo_wtime(void);

int bamboo_comm_rank(MPI_Comm comm, int *rank);
int bamboo_comm_size(MPI_Comm comm, int *size);

int bamboo_send(bamboo_site at, const void *buf, int count, MPI_Datatype type, int dest,
                int tag, MPI_Comm comm);
int bamboo_isend(bamboo_site at, const void *buf, int count, MPI_Datatype type, int dest,
                 int tag, MPI_Comm comm, MPI_Request *request);
int bamboo_recv(bamboo_site at, void *buf, int count, MPI_Datatype type, int source,
                int tag, MPI_Comm comm, MPI_Status *status);
int bamboo_irecv(bamboo_site at, void *buf, int count, MPI_Datatype type, int source,
                 int tag, MPI_Comm comm, MPI_Request *request);
int bamboo_sendrecv(bamboo_site at, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                    int dest, int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                    int source, int recvtag, MPI_Comm comm, MPI_Status *status);

int bamboo_wait(bamboo_site at, MPI_Request *request, MPI_Status *status);
/* `MPI_Status *statuses`, not `statuses[]`: GCC warns (-Wstringop-overflow) when an array
 * parameter gets MPICH's MPI_STATUSES_IGNORE, (MPI_Status *)1. */
int bamboo_waitall(bamboo_site at, int count, MPI_Request requests[], MPI_Status *statuses);
int bamboo_waitany(bamboo_site at, int count, MPI_Request requests[], int *index,
                   MPI_Status *status);
int bamboo_test(bamboo_site at, MPI_Request *request, int *flag, MPI_Status *status);
int bamboo_testall(bamboo_site at, int count, MPI_Request requests[], int *flag,
                   MPI_Status *statuses);
int bamboo_probe(bamboo_site at, int source, int tag, MPI_Comm comm, MPI_Status *status);
int bamboo_iprobe(bamboo_site at, int source, int tag, MPI_Comm comm, int *flag,
                  MPI_Status *status);
int bamboo_get_count(const MPI_Status *status, MPI_Datatype type, int *count);

/* ---- Firing rules --------------------------------------------------------------- */
/* At an evaluation point the translator emits one bamboo_expect() per message the
 * following receive blocks will take (guarded by the same conditions and loops), then
 * bamboo_fire(): the task waits, off its worker, until every expected message has
 * arrived. Wildcards (MPI_ANY_SOURCE, MPI_ANY_TAG) are allowed. */
void bamboo_expect(int source, int tag, MPI_Comm comm);
void bamboo_fire(bamboo_site at);

/* `#pragma bamboo priority EXPR`: the running task's scheduling priority from here on
 * (higher runs first; -1 yields at the end of each region). */
void bamboo_set_priority(int priority);

#ifdef __cplusplus
}
#endif

/* ---- Redirection of user MPI calls ----------------------------------------------- */
/* Only for translated C code: the runtime itself, written in C++, calls the real MPI. */
#ifndef __cplusplus
#undef MPI_Init
#undef MPI_Init_thread
#undef MPI_Initialized
#undef MPI_Finalize
#undef MPI_Finalized
#undef MPI_Abort
#undef MPI_Wtime
#undef MPI_Comm_rank
#undef MPI_Comm_size
#undef MPI_Send
#undef MPI_Isend
#undef MPI_Recv
#undef MPI_Irecv
#undef MPI_Sendrecv
#undef MPI_Wait
#undef MPI_Waitall
#undef MPI_Waitany
#undef MPI_Test
#undef MPI_Testall
#undef MPI_Probe
#undef MPI_Iprobe
#undef MPI_Get_count
#undef exit
#undef rand
#undef srand
#undef random
#undef srandom
#define exit(status) bamboo_exit(status)
#define rand() bamboo_rand()
#define srand(seed) bamboo_srand(seed)
#define random() bamboo_random()
#define srandom(seed) bamboo_srandom(seed)
#define MPI_Init(argc, argv) bamboo_init(argc, argv)
#define MPI_Init_thread(argc, argv, required, provided) \
    bamboo_init_thread(argc, argv, required, provided)
#define MPI_Initialized(flag) bamboo_initialized(flag)
#define MPI_Finalize() bamboo_finalize()
#define MPI_Finalized(flag) bamboo_finalized(flag)
#define MPI_Abort(comm, errorcode) bamboo_abort(comm, errorcode)
#define MPI_Wtime() bamboo_wtime()
#define MPI_Comm_rank(comm, rank) bamboo_comm_rank(comm, rank)
#define MPI_Comm_size(comm, size) bamboo_comm_size(comm, size)
#define MPI_Send(...) bamboo_send(BAMBOO_AT, __VA_ARGS__)
#define MPI_Isend(...) bamboo_isend(BAMBOO_AT, __VA_ARGS__)
#define MPI_Recv(...) bamboo_recv(BAMBOO_AT, __VA_ARGS__)
#define MPI_Irecv(...) bamboo_irecv(BAMBOO_AT, __VA_ARGS__)
#define MPI_Sendrecv(...) bamboo_sendrecv(BAMBOO_AT, __VA_ARGS__)
#define MPI_Wait(...) bamboo_wait(BAMBOO_AT, __VA_ARGS__)
#define MPI_Waitall(...) bamboo_waitall(BAMBOO_AT, __VA_ARGS__)
#define MPI_Waitany(...) bamboo_waitany(BAMBOO_AT, __VA_ARGS__)
#define MPI_Test(...) bamboo_test(BAMBOO_AT, __VA_ARGS__)
#define MPI_Testall(...) bamboo_testall(BAMBOO_AT, __VA_ARGS__)
#define MPI_Probe(...) bamboo_probe(BAMBOO_AT, __VA_ARGS__)
#define MPI_Iprobe(...) bamboo_iprobe(BAMBOO_AT, __VA_ARGS__)
#define MPI_Get_count(status, type, count) bamboo_get_count(status, type, count)
#endif

#endif /* BAMBOO_H */
