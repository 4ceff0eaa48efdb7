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
 *     bamboo_recv(BAMBOO_AT, ...); the translator rejects MPI calls not listed here.
 *     Point-to-point calls are the core; collectives, communicators, topologies and
 *     datatypes are the utility layer, built on the same messages between tasks;
 *   - firing rules: bamboo_expect() / bamboo_fire() at each evaluation point;
 *   - exit() ends the calling task, not the process its task shares with others; the C
 *     library's hidden state (rand(), drand48(), strtok(), getopt() and its optind,
 *     optarg, opterr and optopt, errno) is the task's own; sleep() suspends the task only.
 *
 * Types and constants (MPI_Comm, MPI_Datatype, MPI_Status, MPI_Request, MPI_ANY_SOURCE,
 * ...) are the MPI library's own, so user code keeps compiling unchanged.
 */
#ifndef BAMBOO_H
#define BAMBOO_H

/* A translated C++ file defines BAMBOO_TRANSLATED_CXX before this header: the runtime,
 * also C++, includes it too but calls the real MPI (see the redirections below). */
#if defined __cplusplus && defined BAMBOO_TRANSLATED_CXX
/* Without MPI's C++ bindings (removed in MPI-3): they would call the MPI library behind the
 * virtual ranks' back. */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>
#include <stddef.h>
#include <stdlib.h> /* before the redirections of exit() and rand() below: not of their prototypes */
#if defined __cplusplus && defined BAMBOO_TRANSLATED_CXX
/* Likewise for the other functions redirected below: in C++, C library prototypes are
 * noexcept, which a second declaration of a bamboo_ function through the macro would
 * contradict. (g++ always defines _GNU_SOURCE, so including them first changes nothing.) */
#include <getopt.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Where in the user's source a call stands; reported when a task waits too long. */
typedef struct bamboo_site {
    const char *file;
    int line;
} bamboo_site;

#ifdef __cplusplus
#define BAMBOO_AT (bamboo_site{__FILE__, __LINE__})
#else
#define BAMBOO_AT ((bamboo_site){__FILE__, __LINE__})
#endif

/* ---- Program entry ------------------------------------------------------------ */

/* The user's main(), renamed by the translator. Always this signature: the translator
 * adapts `int main(void)`. */
int bamboo_main(int argc, char **argv);

/* exit() in user code ends the calling task only, as under MPI it ends only the calling
 * process: its status becomes the task's exit status, as if main() had returned it. */
void bamboo_exit(int status) __attribute__((noreturn));

/* errno in user code: the running thread's, which holds the calling task's own errno
 * (saved when the task suspends, restored wherever it resumes). Read through this call, not
 * the C library's __errno_location(), which is declared const: the compiler may keep its
 * result in a register across a call that suspends the task, and after the task has moved
 * to another worker thread that address is the other thread's errno. Pure: reads between
 * two calls may share one lookup. */
int *bamboo_errno(void) __attribute__((pure));

/* rand(), srand(), random() and srandom() in user code use the calling task's own
 * generator (the C library's, so each task sees the numbers its process would see). */
int bamboo_rand(void);
void bamboo_srand(unsigned seed);
long bamboo_random(void);
void bamboo_srandom(unsigned seed);

/* The drand48() family likewise: a generator per task, glibc's own. */
double bamboo_drand48(void);
long bamboo_lrand48(void);
long bamboo_mrand48(void);
double bamboo_erand48(unsigned short xsubi[3]);
long bamboo_nrand48(unsigned short xsubi[3]);
long bamboo_jrand48(unsigned short xsubi[3]);
void bamboo_srand48(long seed);
unsigned short *bamboo_seed48(unsigned short seed16v[3]);
void bamboo_lcong48(unsigned short param[7]);

/* strtok() continues where the calling task's last strtok() left off. */
char *bamboo_strtok(char *str, const char *delimiters);

/* getopt(), getopt_long() and getopt_long_only() parse the calling task's own argv with
 * glibc's getopt and the task's own optind, optarg, opterr and optopt, which the program
 * reaches through these functions (the translator rewrites each use of the library's
 * variables, `optarg` becoming `(*bamboo_optarg())`). glibc keeps more state than those,
 * so one task of a process parses at a time: from its first getopt() until getopt()
 * returns -1 or the task ends; another task's getopt() waits meanwhile. */
struct option;
int bamboo_getopt(int argc, char *const argv[], const char *optstring);
int bamboo_getopt_long(int argc, char *const argv[], const char *optstring,
                       const struct option *longopts, int *longindex);
int bamboo_getopt_long_only(int argc, char *const argv[], const char *optstring,
                            const struct option *longopts, int *longindex);
char **bamboo_optarg(void);
int *bamboo_optind(void);
int *bamboo_opterr(void);
int *bamboo_optopt(void);

/* sleep(), usleep() and nanosleep() suspend the calling task, not its worker thread. */
struct timespec;
unsigned bamboo_sleep(unsigned seconds);
int bamboo_usleep(unsigned microseconds);
int bamboo_nanosleep(const struct timespec *requested, struct timespec *remaining);

/* ---- Privatized globals ------------------------------------------------------- */

/* The running task's block of privatized globals, set by the worker that enters the task.
 * A task may resume on another worker thread than it suspended on (core/scheduler.hpp):
 * the compiler reloads the value after any call, and on x86-64 reads it through the
 * running thread's segment register every time, never from an address kept in a register.
 * Where that is not so, BAMBOO_GLOBALS asks the runtime, not inlined: on other processors,
 * and in sanitizer builds, whose checks need the variable's address, which the compiler
 * then computes once and keeps across a call that suspends (TSan saw a task read another
 * thread's bamboo_globals). */
#if defined __has_feature
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define BAMBOO_SANITIZED_BUILD 1
#endif
#endif
#if defined __x86_64__ && !defined __SANITIZE_ADDRESS__ && !defined __SANITIZE_THREAD__ && \
    !defined BAMBOO_SANITIZED_BUILD
#define BAMBOO_GLOBALS bamboo_globals
#else
#define BAMBOO_GLOBALS (bamboo_running_globals())
#endif
char *bamboo_running_globals(void);
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

/* Called from a constructor in each translated C file, before main(). */
void bamboo_register_globals(const bamboo_global *globals, size_t count);

/* One variable at a time, for C++: a translated C++ file registers each variable where it
 * defines its offset, `size_t bamboo_offset_x = bamboo_register_global({...});`, the one
 * place that can name a class's private static member. Returns the offset. */
size_t bamboo_register_global(bamboo_global global);

/* The running task's copy of the privatized variable `name`. The translator renames
 * the definition to bamboo_initial_<name> and declares bamboo_offset_<name>. */
#define BAMBOO_PRIVATE(name) \
    (*(__typeof__(bamboo_initial_##name) *)(BAMBOO_GLOBALS + bamboo_offset_##name))

/* C++: the same for a name used with a qualifier, `ns::x` or `Counter::count` (`::x` has an
 * empty scope); the template and the offset are declared in the variable's own scope. */
#define BAMBOO_PRIVATE_IN(scope, name) \
    (*(__typeof__(scope::bamboo_initial_##name) *)(BAMBOO_GLOBALS + scope::bamboo_offset_##name))

/* C++: a privatized variable of non-trivial type (a class with a constructor or destructor,
 * an array of one) cannot start as a copy of bytes: each task constructs its own object in
 * its block by running the variable's initializer, and destroys it when the task ends, in
 * reverse order of construction, as a process runs its static constructors and destructors.
 * The translator turns the declaration into `typedef T bamboo_initial_<name>;`, which
 * BAMBOO_PRIVATE() reads the type from, and registers the object where it is defined. */
typedef struct bamboo_object {
    const char *name;
    size_t *offset;
    size_t size;
    size_t align;
    /* Runs the initializer in the task's zeroed slot, when the task starts, before its main(),
     * in the order of registration (of definition within a file); NULL for a function-local
     * static, constructed at its first pass (BAMBOO_FIRST_PASS, bamboo_constructed). */
    void (*construct)(void *object);
    void (*destroy)(void *object);
} bamboo_object;

/* Where the offset is defined, like bamboo_register_global(); returns the offset. */
size_t bamboo_register_object(bamboo_object object);

/* A function-local static of non-trivial type: whether the running task has not constructed
 * its copy yet (the runtime keeps a guard byte right after a function-local object's slot). */
#define BAMBOO_FIRST_PASS(name) \
    (!BAMBOO_GLOBALS[bamboo_offset_##name + sizeof(bamboo_initial_##name)])

/* After the running task has constructed its copy of the function-local static whose offset
 * is *offset: sets the guard, and destroys the object when the task ends. */
void bamboo_constructed(const size_t *offset);

/* ---- MPI over virtual ranks --------------------------------------------------- */
/* Same arguments and results as the MPI functions they replace; calls that can wait
 * take the call site first. Ranks are virtual ranks. */

/* ---- Start and end (mpi/init.cpp) --------------------------------------------------- */
int bamboo_init(int *argc, char ***argv);
int bamboo_init_thread(int *argc, char ***argv, int required, int *provided);
int bamboo_initialized(int *flag);
int bamboo_finalize(void);
int bamboo_finalized(int *flag);
int bamboo_query_thread(int *provided);
int bamboo_is_thread_main(int *flag);
int bamboo_abort(MPI_Comm comm, int errorcode);
double bamboo_wtime(void);

double bamboo_wtick(void);

/* ---- Point-to-point (mpi/point_to_point.cpp) ---------------------------------------- */
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
int bamboo_sendrecv_replace(bamboo_site at, void *buf, int count, MPI_Datatype type, int dest,
                            int sendtag, int source, int recvtag, MPI_Comm comm,
                            MPI_Status *status);

/* Send modes: synchronous sends complete once a receive has matched them; ready sends are
 * standard sends; buffered sends must fit the attached buffer and complete at once. */
int bamboo_ssend(bamboo_site at, const void *buf, int count, MPI_Datatype type, int dest,
                 int tag, MPI_Comm comm);
int bamboo_rsend(bamboo_site at, const void *buf, int count, MPI_Datatype type, int dest,
                 int tag, MPI_Comm comm);
int bamboo_bsend(bamboo_site at, const void *buf, int count, MPI_Datatype type, int dest,
                 int tag, MPI_Comm comm);
int bamboo_issend(bamboo_site at, const void *buf, int count, MPI_Datatype type, int dest,
                  int tag, MPI_Comm comm, MPI_Request *request);
int bamboo_irsend(bamboo_site at, const void *buf, int count, MPI_Datatype type, int dest,
                  int tag, MPI_Comm comm, MPI_Request *request);
int bamboo_ibsend(bamboo_site at, const void *buf, int count, MPI_Datatype type, int dest,
                  int tag, MPI_Comm comm, MPI_Request *request);
int bamboo_buffer_attach(bamboo_site at, void *buffer, int size);
int bamboo_buffer_detach(bamboo_site at, void *buffer_addr, int *size);

/* Persistent requests: inactive until MPI_Start; a wait or test makes them inactive again. */
int bamboo_send_init(bamboo_site at, const void *buf, int count, MPI_Datatype type, int dest,
                     int tag, MPI_Comm comm, MPI_Request *request);
int bamboo_ssend_init(bamboo_site at, const void *buf, int count, MPI_Datatype type, int dest,
                      int tag, MPI_Comm comm, MPI_Request *request);
int bamboo_rsend_init(bamboo_site at, const void *buf, int count, MPI_Datatype type, int dest,
                      int tag, MPI_Comm comm, MPI_Request *request);
int bamboo_bsend_init(bamboo_site at, const void *buf, int count, MPI_Datatype type, int dest,
                      int tag, MPI_Comm comm, MPI_Request *request);
int bamboo_recv_init(bamboo_site at, void *buf, int count, MPI_Datatype type, int source,
                     int tag, MPI_Comm comm, MPI_Request *request);
int bamboo_start(bamboo_site at, MPI_Request *request);
int bamboo_startall(bamboo_site at, int count, MPI_Request requests[]);
int bamboo_request_free(bamboo_site at, MPI_Request *request);
int bamboo_cancel(bamboo_site at, MPI_Request *request);

int bamboo_probe(bamboo_site at, int source, int tag, MPI_Comm comm, MPI_Status *status);
int bamboo_iprobe(bamboo_site at, int source, int tag, MPI_Comm comm, int *flag,
                  MPI_Status *status);
int bamboo_mprobe(bamboo_site at, int source, int tag, MPI_Comm comm, MPI_Message *message,
                  MPI_Status *status);
int bamboo_improbe(bamboo_site at, int source, int tag, MPI_Comm comm, int *flag,
                   MPI_Message *message, MPI_Status *status);
int bamboo_mrecv(bamboo_site at, void *buf, int count, MPI_Datatype type, MPI_Message *message,
                 MPI_Status *status);
int bamboo_imrecv(bamboo_site at, void *buf, int count, MPI_Datatype type, MPI_Message *message,
                  MPI_Request *request);
int bamboo_get_count(const MPI_Status *status, MPI_Datatype type, int *count);

/* Generalized requests: completed by the program, their callbacks called by MPI. */
int bamboo_grequest_start(bamboo_site at, MPI_Grequest_query_function *query_fn,
                          MPI_Grequest_free_function *free_fn,
                          MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                          MPI_Request *request);
int bamboo_grequest_complete(bamboo_site at, MPI_Request request);

/* ---- Completion: waits and tests (mpi/completion.cpp) ------------------------------- */
int bamboo_wait(bamboo_site at, MPI_Request *request, MPI_Status *status);
/* `MPI_Status *statuses`, not `statuses[]`: GCC warns (-Wstringop-overflow) when an array
 * parameter gets MPICH's MPI_STATUSES_IGNORE, (MPI_Status *)1. */
int bamboo_waitall(bamboo_site at, int count, MPI_Request requests[], MPI_Status *statuses);
int bamboo_waitany(bamboo_site at, int count, MPI_Request requests[], int *index,
                   MPI_Status *status);
int bamboo_test(bamboo_site at, MPI_Request *request, int *flag, MPI_Status *status);
int bamboo_testall(bamboo_site at, int count, MPI_Request requests[], int *flag,
                   MPI_Status *statuses);
int bamboo_testany(bamboo_site at, int count, MPI_Request requests[], int *index, int *flag,
                   MPI_Status *status);
int bamboo_waitsome(bamboo_site at, int incount, MPI_Request requests[], int *outcount,
                    int indices[], MPI_Status *statuses);
int bamboo_testsome(bamboo_site at, int incount, MPI_Request requests[], int *outcount,
                    int indices[], MPI_Status *statuses);
int bamboo_request_get_status(bamboo_site at, MPI_Request request, int *flag,
                              MPI_Status *status);

/* ---- Collectives (utility layer) (mpi/collectives.cpp) ------------------------------ */
/* Point-to-point messages between the tasks of the communicator, on a context of its own,
 * combined within each process before they cross processes; see docs/mpi-support.md. */
int bamboo_barrier(bamboo_site at, MPI_Comm comm);
int bamboo_bcast(bamboo_site at, void *buffer, int count, MPI_Datatype type, int root,
                 MPI_Comm comm);
int bamboo_reduce(bamboo_site at, const void *sendbuf, void *recvbuf, int count,
                  MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm);
int bamboo_allreduce(bamboo_site at, const void *sendbuf, void *recvbuf, int count,
                     MPI_Datatype type, MPI_Op op, MPI_Comm comm);
int bamboo_gather(bamboo_site at, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int bamboo_gatherv(bamboo_site at, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                   void *recvbuf, const int recvcounts[], const int displs[],
                   MPI_Datatype recvtype, int root, MPI_Comm comm);
int bamboo_scatter(bamboo_site at, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int bamboo_scatterv(bamboo_site at, const void *sendbuf, const int sendcounts[],
                    const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm);
int bamboo_allgather(bamboo_site at, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                     void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int bamboo_allgatherv(bamboo_site at, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                      void *recvbuf, const int recvcounts[], const int displs[],
                      MPI_Datatype recvtype, MPI_Comm comm);
int bamboo_alltoall(bamboo_site at, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                    void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int bamboo_alltoallv(bamboo_site at, const void *sendbuf, const int sendcounts[],
                     const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                     MPI_Comm comm);
int bamboo_reduce_scatter(bamboo_site at, const void *sendbuf, void *recvbuf,
                          const int recvcounts[], MPI_Datatype type, MPI_Op op, MPI_Comm comm);
int bamboo_reduce_scatter_block(bamboo_site at, const void *sendbuf, void *recvbuf,
                                int recvcount, MPI_Datatype type, MPI_Op op, MPI_Comm comm);
int bamboo_scan(bamboo_site at, const void *sendbuf, void *recvbuf, int count,
                MPI_Datatype type, MPI_Op op, MPI_Comm comm);
int bamboo_exscan(bamboo_site at, const void *sendbuf, void *recvbuf, int count,
                  MPI_Datatype type, MPI_Op op, MPI_Comm comm);
int bamboo_alltoallw(bamboo_site at, const void *sendbuf, const int sendcounts[],
                     const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                     const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                     MPI_Comm comm);

int bamboo_reduce_local(bamboo_site at, const void *inbuf, void *inoutbuf, int count,
                        MPI_Datatype type, MPI_Op op);
int bamboo_op_create(bamboo_site at, MPI_User_function *function, int commute, MPI_Op *op);
int bamboo_op_free(bamboo_site at, MPI_Op *op);
int bamboo_op_commutative(bamboo_site at, MPI_Op op, int *commute);

/* ---- Neighbourhood collectives (mpi/neighbor_collectives.cpp) ----------------------- */
int bamboo_neighbor_allgather(bamboo_site at, const void *sendbuf, int sendcount,
                              MPI_Datatype sendtype, void *recvbuf, int recvcount,
                              MPI_Datatype recvtype, MPI_Comm comm);
int bamboo_neighbor_allgatherv(bamboo_site at, const void *sendbuf, int sendcount,
                               MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                               const int displs[], MPI_Datatype recvtype, MPI_Comm comm);
int bamboo_neighbor_alltoall(bamboo_site at, const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, void *recvbuf, int recvcount,
                             MPI_Datatype recvtype, MPI_Comm comm);
int bamboo_neighbor_alltoallv(bamboo_site at, const void *sendbuf, const int sendcounts[],
                              const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                              const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                              MPI_Comm comm);
int bamboo_neighbor_alltoallw(bamboo_site at, const void *sendbuf, const int sendcounts[],
                              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                              void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                              const MPI_Datatype recvtypes[], MPI_Comm comm);

/* ---- Nonblocking collectives (mpi/nonblocking_collectives.cpp) ---------------------- */
/* Nonblocking collectives: the blocking algorithm, run beside the task's own code (each on a
 * stack of its own); it goes on whenever the task calls MPI or waits. */
int bamboo_ibarrier(bamboo_site at, MPI_Comm comm, MPI_Request *request);
int bamboo_ibcast(bamboo_site at, void *buffer, int count, MPI_Datatype type, int root,
                  MPI_Comm comm, MPI_Request *request);
int bamboo_ireduce(bamboo_site at, const void *sendbuf, void *recvbuf, int count,
                   MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm, MPI_Request *request);
int bamboo_iallreduce(bamboo_site at, const void *sendbuf, void *recvbuf, int count,
                      MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *request);
int bamboo_igather(bamboo_site at, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                   MPI_Request *request);
int bamboo_igatherv(bamboo_site at, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                    void *recvbuf, const int recvcounts[], const int displs[],
                    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
int bamboo_iscatter(bamboo_site at, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                    void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                    MPI_Request *request);
int bamboo_iscatterv(bamboo_site at, const void *sendbuf, const int sendcounts[],
                     const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
int bamboo_iallgather(bamboo_site at, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                      void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                      MPI_Request *request);
int bamboo_iallgatherv(bamboo_site at, const void *sendbuf, int sendcount,
                       MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                       const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                       MPI_Request *request);
int bamboo_ialltoall(bamboo_site at, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                     void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                     MPI_Request *request);
int bamboo_ialltoallv(bamboo_site at, const void *sendbuf, const int sendcounts[],
                      const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                      MPI_Comm comm, MPI_Request *request);
int bamboo_ialltoallw(bamboo_site at, const void *sendbuf, const int sendcounts[],
                      const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                      const int recvcounts[], const int rdispls[],
                      const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request);
int bamboo_ireduce_scatter(bamboo_site at, const void *sendbuf, void *recvbuf,
                           const int recvcounts[], MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                           MPI_Request *request);
int bamboo_ireduce_scatter_block(bamboo_site at, const void *sendbuf, void *recvbuf,
                                 int recvcount, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                                 MPI_Request *request);
int bamboo_iscan(bamboo_site at, const void *sendbuf, void *recvbuf, int count,
                 MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *request);
int bamboo_iexscan(bamboo_site at, const void *sendbuf, void *recvbuf, int count,
                   MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *request);

int bamboo_comm_idup(bamboo_site at, MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request);

int bamboo_ineighbor_allgather(bamboo_site at, const void *sendbuf, int sendcount,
                               MPI_Datatype sendtype, void *recvbuf, int recvcount,
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int bamboo_ineighbor_allgatherv(bamboo_site at, const void *sendbuf, int sendcount,
                                MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Request *request);
int bamboo_ineighbor_alltoall(bamboo_site at, const void *sendbuf, int sendcount,
                              MPI_Datatype sendtype, void *recvbuf, int recvcount,
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int bamboo_ineighbor_alltoallv(bamboo_site at, const void *sendbuf, const int sendcounts[],
                               const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                               const int recvcounts[], const int rdispls[],
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int bamboo_ineighbor_alltoallw(bamboo_site at, const void *sendbuf, const int sendcounts[],
                               const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                               void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                               const MPI_Datatype recvtypes[], MPI_Comm comm,
                               MPI_Request *request);

/* ---- Communicators and groups (mpi/communicators.cpp) ------------------------------- */
int bamboo_comm_rank(MPI_Comm comm, int *rank);
int bamboo_comm_size(MPI_Comm comm, int *size);

int bamboo_comm_split(bamboo_site at, MPI_Comm comm, int color, int key, MPI_Comm *newcomm);
int bamboo_comm_dup(bamboo_site at, MPI_Comm comm, MPI_Comm *newcomm);
/* The communicator lowered comm directives send on (docs/comm-directives.md): MPI_COMM_WORLD's
 * tasks in a context of their own; file:line is the directive's, for the error before MPI_Init. */
MPI_Comm bamboo_comm_world(const char *file, int line);
int bamboo_comm_create(bamboo_site at, MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm);
int bamboo_comm_create_group(bamboo_site at, MPI_Comm comm, MPI_Group group, int tag,
                             MPI_Comm *newcomm);
int bamboo_comm_free(bamboo_site at, MPI_Comm *comm);
int bamboo_comm_compare(bamboo_site at, MPI_Comm comm1, MPI_Comm comm2, int *result);
int bamboo_comm_group(bamboo_site at, MPI_Comm comm, MPI_Group *group);
int bamboo_group_size(bamboo_site at, MPI_Group group, int *size);
int bamboo_group_rank(bamboo_site at, MPI_Group group, int *rank);
int bamboo_group_incl(bamboo_site at, MPI_Group group, int n, const int ranks[],
                      MPI_Group *newgroup);
int bamboo_group_excl(bamboo_site at, MPI_Group group, int n, const int ranks[],
                      MPI_Group *newgroup);
int bamboo_group_translate_ranks(bamboo_site at, MPI_Group group1, int n, const int ranks1[],
                                 MPI_Group group2, int ranks2[]);
int bamboo_group_compare(bamboo_site at, MPI_Group group1, MPI_Group group2, int *result);
int bamboo_group_free(bamboo_site at, MPI_Group *group);

int bamboo_group_range_incl(bamboo_site at, MPI_Group group, int n, int ranges[][3],
                            MPI_Group *newgroup);
int bamboo_group_range_excl(bamboo_site at, MPI_Group group, int n, int ranges[][3],
                            MPI_Group *newgroup);
int bamboo_group_union(bamboo_site at, MPI_Group group1, MPI_Group group2,
                       MPI_Group *newgroup);
int bamboo_group_intersection(bamboo_site at, MPI_Group group1, MPI_Group group2,
                              MPI_Group *newgroup);
int bamboo_group_difference(bamboo_site at, MPI_Group group1, MPI_Group group2,
                            MPI_Group *newgroup);

int bamboo_comm_dup_with_info(bamboo_site at, MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm);

int bamboo_comm_split_type(bamboo_site at, MPI_Comm comm, int split_type, int key, MPI_Info info,
                           MPI_Comm *newcomm);

/* ---- Topologies (mpi/topologies.cpp) ------------------------------------------------ */
int bamboo_dims_create(bamboo_site at, int nnodes, int ndims, int dims[]);
int bamboo_cart_create(bamboo_site at, MPI_Comm comm, int ndims, const int dims[],
                       const int periods[], int reorder, MPI_Comm *newcomm);
int bamboo_cart_map(bamboo_site at, MPI_Comm comm, int ndims, const int dims[],
                    const int periods[], int *newrank);
int bamboo_cart_coords(bamboo_site at, MPI_Comm comm, int rank, int maxdims, int coords[]);
int bamboo_cart_rank(bamboo_site at, MPI_Comm comm, const int coords[], int *rank);
int bamboo_cart_shift(bamboo_site at, MPI_Comm comm, int direction, int disp, int *source,
                      int *dest);
int bamboo_cart_sub(bamboo_site at, MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm);
int bamboo_cart_get(bamboo_site at, MPI_Comm comm, int maxdims, int dims[], int periods[],
                    int coords[]);
int bamboo_cartdim_get(bamboo_site at, MPI_Comm comm, int *ndims);
int bamboo_topo_test(bamboo_site at, MPI_Comm comm, int *status);

int bamboo_graph_create(bamboo_site at, MPI_Comm comm, int nnodes, const int index[],
                        const int edges[], int reorder, MPI_Comm *newcomm);
int bamboo_graph_map(bamboo_site at, MPI_Comm comm, int nnodes, const int index[],
                     const int edges[], int *newrank);
int bamboo_graphdims_get(bamboo_site at, MPI_Comm comm, int *nnodes, int *nedges);
int bamboo_graph_get(bamboo_site at, MPI_Comm comm, int maxindex, int maxedges, int index[],
                     int edges[]);
int bamboo_graph_neighbors_count(bamboo_site at, MPI_Comm comm, int rank, int *nneighbors);
int bamboo_graph_neighbors(bamboo_site at, MPI_Comm comm, int rank, int maxneighbors,
                           int neighbors[]);
int bamboo_dist_graph_create_adjacent(bamboo_site at, MPI_Comm comm, int indegree,
                                      const int sources[], const int sourceweights[],
                                      int outdegree, const int destinations[],
                                      const int destweights[], MPI_Info info, int reorder,
                                      MPI_Comm *newcomm);
int bamboo_dist_graph_create(bamboo_site at, MPI_Comm comm, int n, const int nodes[],
                             const int degrees[], const int targets[], const int weights[],
                             MPI_Info info, int reorder, MPI_Comm *newcomm);
int bamboo_dist_graph_neighbors_count(bamboo_site at, MPI_Comm comm, int *indegree,
                                      int *outdegree, int *weighted);
int bamboo_dist_graph_neighbors(bamboo_site at, MPI_Comm comm, int maxindegree, int sources[],
                                int sourceweights[], int maxoutdegree, int destinations[],
                                int destweights[]);

/* ---- Intercommunicators (mpi/intercommunicators.cpp) -------------------------------- */
/* Intercommunicators: point-to-point ranks name the remote group; the collectives but the
 * reduce-scatters and the scans work on them (docs/mpi-support.md). */
int bamboo_intercomm_create(bamboo_site at, MPI_Comm local_comm, int local_leader,
                            MPI_Comm peer_comm, int remote_leader, int tag,
                            MPI_Comm *newintercomm);
int bamboo_intercomm_merge(bamboo_site at, MPI_Comm intercomm, int high, MPI_Comm *newintracomm);
int bamboo_comm_test_inter(bamboo_site at, MPI_Comm comm, int *flag);
int bamboo_comm_remote_size(bamboo_site at, MPI_Comm comm, int *size);
int bamboo_comm_remote_group(bamboo_site at, MPI_Comm comm, MPI_Group *group);

/* ---- Derived datatypes and packing (mpi/datatypes.cpp) ------------------------------ */
/* The MPI library's own derived datatypes, under the runtime's MPI lock. The MPI-1 datatype
 * names (MPI_Type_extent/lb/ub/struct/hvector/hindexed, MPI_Address), removed by MPI-3, run
 * their MPI-2 calls, whether or not the library still declares them. */
int bamboo_type_contiguous(bamboo_site at, int count, MPI_Datatype oldtype,
                           MPI_Datatype *newtype);
int bamboo_type_vector(bamboo_site at, int count, int blocklength, int stride,
                       MPI_Datatype oldtype, MPI_Datatype *newtype);
int bamboo_type_create_hvector(bamboo_site at, int count, int blocklength, MPI_Aint stride,
                               MPI_Datatype oldtype, MPI_Datatype *newtype);
int bamboo_type_indexed(bamboo_site at, int count, const int blocklengths[],
                        const int displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype);
int bamboo_type_create_hindexed(bamboo_site at, int count, const int blocklengths[],
                                const MPI_Aint displacements[], MPI_Datatype oldtype,
                                MPI_Datatype *newtype);
int bamboo_type_create_indexed_block(bamboo_site at, int count, int blocklength,
                                     const int displacements[], MPI_Datatype oldtype,
                                     MPI_Datatype *newtype);
int bamboo_type_create_struct(bamboo_site at, int count, const int blocklengths[],
                              const MPI_Aint displacements[], const MPI_Datatype types[],
                              MPI_Datatype *newtype);
int bamboo_type_create_subarray(bamboo_site at, int ndims, const int sizes[],
                                const int subsizes[], const int starts[], int order,
                                MPI_Datatype oldtype, MPI_Datatype *newtype);
int bamboo_type_create_resized(bamboo_site at, MPI_Datatype oldtype, MPI_Aint lb,
                               MPI_Aint extent, MPI_Datatype *newtype);
int bamboo_type_dup(bamboo_site at, MPI_Datatype oldtype, MPI_Datatype *newtype);
int bamboo_type_commit(bamboo_site at, MPI_Datatype *type);
int bamboo_type_free(bamboo_site at, MPI_Datatype *type);
int bamboo_type_size(bamboo_site at, MPI_Datatype type, int *size);
int bamboo_type_get_extent(bamboo_site at, MPI_Datatype type, MPI_Aint *lb, MPI_Aint *extent);
int bamboo_type_get_true_extent(bamboo_site at, MPI_Datatype type, MPI_Aint *true_lb,
                                MPI_Aint *true_extent);
int bamboo_get_address(bamboo_site at, const void *location, MPI_Aint *address);
int bamboo_get_elements(bamboo_site at, const MPI_Status *status, MPI_Datatype type,
                        int *count);
int bamboo_pack(bamboo_site at, const void *inbuf, int incount, MPI_Datatype type,
                void *outbuf, int outsize, int *position, MPI_Comm comm);
int bamboo_unpack(bamboo_site at, const void *inbuf, int insize, int *position, void *outbuf,
                  int outcount, MPI_Datatype type, MPI_Comm comm);
int bamboo_pack_size(bamboo_site at, int incount, MPI_Datatype type, MPI_Comm comm, int *size);

int bamboo_type_get_envelope(bamboo_site at, MPI_Datatype type, int *num_integers,
                             int *num_addresses, int *num_datatypes, int *combiner);
int bamboo_type_get_contents(bamboo_site at, MPI_Datatype type, int max_integers,
                             int max_addresses, int max_datatypes, int integers[],
                             MPI_Aint addresses[], MPI_Datatype datatypes[]);
int bamboo_type_size_x(bamboo_site at, MPI_Datatype type, MPI_Count *size);
int bamboo_type_get_extent_x(bamboo_site at, MPI_Datatype type, MPI_Count *lb,
                             MPI_Count *extent);
int bamboo_type_get_true_extent_x(bamboo_site at, MPI_Datatype type, MPI_Count *true_lb,
                                  MPI_Count *true_extent);
int bamboo_type_get_name(bamboo_site at, MPI_Datatype type, char *name, int *length);
int bamboo_type_set_name(bamboo_site at, MPI_Datatype type, const char *name);
int bamboo_type_create_hindexed_block(bamboo_site at, int count, int blocklength,
                                      const MPI_Aint displacements[], MPI_Datatype oldtype,
                                      MPI_Datatype *newtype);
int bamboo_type_match_size(bamboo_site at, int typeclass, int size, MPI_Datatype *type);
int bamboo_type_extent(bamboo_site at, MPI_Datatype type, MPI_Aint *extent);
int bamboo_type_lb(bamboo_site at, MPI_Datatype type, MPI_Aint *lb);
int bamboo_type_ub(bamboo_site at, MPI_Datatype type, MPI_Aint *ub);
int bamboo_type_struct(bamboo_site at, int count, const int blocklengths[],
                       const MPI_Aint displacements[], const MPI_Datatype types[],
                       MPI_Datatype *newtype);
int bamboo_type_hvector(bamboo_site at, int count, int blocklength, MPI_Aint stride,
                        MPI_Datatype oldtype, MPI_Datatype *newtype);
int bamboo_type_hindexed(bamboo_site at, int count, const int blocklengths[],
                         const MPI_Aint displacements[], MPI_Datatype oldtype,
                         MPI_Datatype *newtype);
int bamboo_address(bamboo_site at, const void *location, MPI_Aint *address);

int bamboo_type_create_darray(bamboo_site at, int size, int rank, int ndims, const int gsizes[],
                              const int distribs[], const int dargs[], const int psizes[],
                              int order, MPI_Datatype oldtype, MPI_Datatype *newtype);
int bamboo_get_elements_x(bamboo_site at, const MPI_Status *status, MPI_Datatype type,
                          MPI_Count *count);

/* ---- Error handlers: each task's own, per communicator, file, window (mpi/errhandlers.cpp) ---- */
/* A check that fails on a communicator whose handler is MPI_ERRORS_RETURN, or the program's
 * own, returns its MPI error class instead of ending the job (docs/mpi-support.md, Errors).
 * MPI_Errhandler_set/get/create, removed by MPI-3, take the same functions as their MPI-2
 * names. */
int bamboo_comm_set_errhandler(bamboo_site at, MPI_Comm comm, MPI_Errhandler handler);
int bamboo_comm_get_errhandler(bamboo_site at, MPI_Comm comm, MPI_Errhandler *handler);
int bamboo_comm_create_errhandler(bamboo_site at, MPI_Comm_errhandler_function *function,
                                  MPI_Errhandler *handler);
int bamboo_errhandler_free(bamboo_site at, MPI_Errhandler *handler);
int bamboo_comm_call_errhandler(bamboo_site at, MPI_Comm comm, int errorcode);
int bamboo_errhandler_set(bamboo_site at, MPI_Comm comm, MPI_Errhandler handler);
int bamboo_errhandler_get(bamboo_site at, MPI_Comm comm, MPI_Errhandler *handler);
int bamboo_errhandler_create(bamboo_site at, MPI_Comm_errhandler_function *function,
                             MPI_Errhandler *handler);

int bamboo_file_set_errhandler(bamboo_site at, MPI_File file, MPI_Errhandler handler);
int bamboo_file_get_errhandler(bamboo_site at, MPI_File file, MPI_Errhandler *handler);
int bamboo_file_create_errhandler(bamboo_site at, MPI_File_errhandler_function *function,
                                  MPI_Errhandler *handler);
int bamboo_file_call_errhandler(bamboo_site at, MPI_File file, int errorcode);
int bamboo_win_set_errhandler(bamboo_site at, MPI_Win win, MPI_Errhandler handler);
int bamboo_win_get_errhandler(bamboo_site at, MPI_Win win, MPI_Errhandler *handler);
int bamboo_win_create_errhandler(bamboo_site at, MPI_Win_errhandler_function *function,
                                 MPI_Errhandler *handler);
int bamboo_win_call_errhandler(bamboo_site at, MPI_Win win, int errorcode);

/* ---- Names and cached attributes: each task's own (mpi/attributes.cpp) -------------- */
/* MPI_Keyval_create/free and MPI_Attr_put/get/delete, deprecated since MPI-2, take the same
 * functions as their MPI-2 names. */
int bamboo_comm_set_name(bamboo_site at, MPI_Comm comm, const char *name);
int bamboo_comm_get_name(bamboo_site at, MPI_Comm comm, char *name, int *length);
int bamboo_comm_create_keyval(bamboo_site at, MPI_Comm_copy_attr_function *copy,
                              MPI_Comm_delete_attr_function *remove, int *keyval,
                              void *extra_state);
int bamboo_comm_free_keyval(bamboo_site at, int *keyval);
int bamboo_comm_set_attr(bamboo_site at, MPI_Comm comm, int keyval, void *value);
int bamboo_comm_get_attr(bamboo_site at, MPI_Comm comm, int keyval, void *value, int *flag);
int bamboo_comm_delete_attr(bamboo_site at, MPI_Comm comm, int keyval);
int bamboo_keyval_create(bamboo_site at, MPI_Comm_copy_attr_function *copy,
                         MPI_Comm_delete_attr_function *remove, int *keyval,
                         void *extra_state);
int bamboo_keyval_free(bamboo_site at, int *keyval);
int bamboo_attr_put(bamboo_site at, MPI_Comm comm, int keyval, void *value);
int bamboo_attr_get(bamboo_site at, MPI_Comm comm, int keyval, void *value, int *flag);
int bamboo_attr_delete(bamboo_site at, MPI_Comm comm, int keyval);

int bamboo_comm_set_info(bamboo_site at, MPI_Comm comm, MPI_Info info);
int bamboo_comm_get_info(bamboo_site at, MPI_Comm comm, MPI_Info *info_used);

/* ---- The MPI library's own objects (mpi/library.cpp) -------------------------------- */
/* MPI_Error_string, MPI_Error_class, MPI_Get_version and MPI_Get_library_version are the
 * library's own and may be called before MPI_Init. */
int bamboo_get_processor_name(bamboo_site at, char *name, int *length);

int bamboo_error_string(bamboo_site at, int errorcode, char *string, int *length);
int bamboo_error_class(bamboo_site at, int errorcode, int *errorclass);

int bamboo_get_version(bamboo_site at, int *version, int *subversion);
int bamboo_get_library_version(bamboo_site at, char *version, int *length);
int bamboo_alloc_mem(bamboo_site at, MPI_Aint size, MPI_Info info, void *baseptr);
int bamboo_free_mem(bamboo_site at, void *base);
int bamboo_info_create(bamboo_site at, MPI_Info *info);
int bamboo_info_set(bamboo_site at, MPI_Info info, const char *key, const char *value);
int bamboo_info_get(bamboo_site at, MPI_Info info, const char *key, int valuelen, char *value,
                    int *flag);
int bamboo_info_get_nkeys(bamboo_site at, MPI_Info info, int *nkeys);
int bamboo_info_get_nthkey(bamboo_site at, MPI_Info info, int n, char *key);
int bamboo_info_get_valuelen(bamboo_site at, MPI_Info info, const char *key, int *valuelen,
                             int *flag);
int bamboo_info_dup(bamboo_site at, MPI_Info info, MPI_Info *newinfo);
int bamboo_info_delete(bamboo_site at, MPI_Info info, const char *key);
int bamboo_info_free(bamboo_site at, MPI_Info *info);
int bamboo_pack_external(bamboo_site at, const char *datarep, const void *inbuf, int incount,
                         MPI_Datatype type, void *outbuf, MPI_Aint outsize,
                         MPI_Aint *position);
int bamboo_unpack_external(bamboo_site at, const char *datarep, const void *inbuf,
                           MPI_Aint insize, MPI_Aint *position, void *outbuf, int outcount,
                           MPI_Datatype type);
int bamboo_pack_external_size(bamboo_site at, const char *datarep, int incount,
                              MPI_Datatype type, MPI_Aint *size);
int bamboo_status_set_elements(bamboo_site at, MPI_Status *status, MPI_Datatype type,
                               int count);
int bamboo_status_set_cancelled(bamboo_site at, MPI_Status *status, int flag);
int bamboo_test_cancelled(bamboo_site at, const MPI_Status *status, int *flag);

int bamboo_status_set_elements_x(bamboo_site at, MPI_Status *status, MPI_Datatype type,
                                 MPI_Count count);

/* ---- Windows (mpi/windows.cpp) ------------------------------------------------------ */
int bamboo_win_create(bamboo_site at, void *base, MPI_Aint size, int disp_unit, MPI_Info info,
                      MPI_Comm comm, MPI_Win *win);
int bamboo_win_create_dynamic(bamboo_site at, MPI_Info info, MPI_Comm comm, MPI_Win *win);
int bamboo_win_attach(bamboo_site at, MPI_Win win, void *base, MPI_Aint size);
int bamboo_win_detach(bamboo_site at, MPI_Win win, const void *base);
int bamboo_win_free(bamboo_site at, MPI_Win *win);
/* Not MPI: the displacement unit member `rank` gave its part of `win`, which MPI lets only
 * that member know. The loop optimizer's transfers (bamboo_loopcomm_mpi.h) need the target's. */
int bamboo_win_disp_unit_of(MPI_Win win, int rank);
int bamboo_win_get_group(bamboo_site at, MPI_Win win, MPI_Group *group);
int bamboo_win_set_name(bamboo_site at, MPI_Win win, const char *name);
int bamboo_win_get_name(bamboo_site at, MPI_Win win, char *name, int *length);
int bamboo_win_create_keyval(bamboo_site at, MPI_Win_copy_attr_function *copy,
                             MPI_Win_delete_attr_function *remove, int *keyval,
                             void *extra_state);
int bamboo_win_free_keyval(bamboo_site at, int *keyval);
int bamboo_win_set_attr(bamboo_site at, MPI_Win win, int keyval, void *value);
int bamboo_win_get_attr(bamboo_site at, MPI_Win win, int keyval, void *value, int *flag);
int bamboo_win_delete_attr(bamboo_site at, MPI_Win win, int keyval);
int bamboo_win_allocate(bamboo_site at, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                        void *baseptr, MPI_Win *win);
int bamboo_win_allocate_shared(bamboo_site at, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                               void *baseptr, MPI_Win *win);
int bamboo_win_shared_query(bamboo_site at, MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr);

/* ---- One-sided operations (mpi/one_sided.cpp) --------------------------------------- */
int bamboo_put(bamboo_site at, const void *origin_addr, int origin_count, MPI_Datatype origin_type,
               int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_type,
               MPI_Win win);
int bamboo_get(bamboo_site at, void *origin_addr, int origin_count, MPI_Datatype origin_type,
               int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_type,
               MPI_Win win);
int bamboo_accumulate(bamboo_site at, const void *origin_addr, int origin_count,
                      MPI_Datatype origin_type, int target_rank, MPI_Aint target_disp,
                      int target_count, MPI_Datatype target_type, MPI_Op op, MPI_Win win);
int bamboo_get_accumulate(bamboo_site at, const void *origin_addr, int origin_count,
                          MPI_Datatype origin_type, void *result_addr, int result_count,
                          MPI_Datatype result_type, int target_rank, MPI_Aint target_disp,
                          int target_count, MPI_Datatype target_type, MPI_Op op, MPI_Win win);
int bamboo_fetch_and_op(bamboo_site at, const void *origin_addr, void *result_addr,
                        MPI_Datatype type, int target_rank, MPI_Aint target_disp, MPI_Op op,
                        MPI_Win win);
int bamboo_compare_and_swap(bamboo_site at, const void *origin_addr, const void *compare_addr,
                            void *result_addr, MPI_Datatype type, int target_rank,
                            MPI_Aint target_disp, MPI_Win win);
int bamboo_rput(bamboo_site at, const void *origin_addr, int origin_count,
                MPI_Datatype origin_type, int target_rank, MPI_Aint target_disp, int target_count,
                MPI_Datatype target_type, MPI_Win win, MPI_Request *request);
int bamboo_rget(bamboo_site at, void *origin_addr, int origin_count, MPI_Datatype origin_type,
                int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_type,
                MPI_Win win, MPI_Request *request);
int bamboo_raccumulate(bamboo_site at, const void *origin_addr, int origin_count,
                       MPI_Datatype origin_type, int target_rank, MPI_Aint target_disp,
                       int target_count, MPI_Datatype target_type, MPI_Op op, MPI_Win win,
                       MPI_Request *request);
int bamboo_rget_accumulate(bamboo_site at, const void *origin_addr, int origin_count,
                           MPI_Datatype origin_type, void *result_addr, int result_count,
                           MPI_Datatype result_type, int target_rank, MPI_Aint target_disp,
                           int target_count, MPI_Datatype target_type, MPI_Op op, MPI_Win win,
                           MPI_Request *request);

/* ---- One-sided epochs: fences, locks, flushes (mpi/window_epochs.cpp) --------------- */
int bamboo_win_fence(bamboo_site at, int assert_, MPI_Win win);
int bamboo_win_lock(bamboo_site at, int lock_type, int rank, int assert_, MPI_Win win);
int bamboo_win_unlock(bamboo_site at, int rank, MPI_Win win);
int bamboo_win_lock_all(bamboo_site at, int assert_, MPI_Win win);
int bamboo_win_unlock_all(bamboo_site at, MPI_Win win);
int bamboo_win_flush(bamboo_site at, int rank, MPI_Win win);
int bamboo_win_flush_all(bamboo_site at, MPI_Win win);
int bamboo_win_flush_local(bamboo_site at, int rank, MPI_Win win);
int bamboo_win_flush_local_all(bamboo_site at, MPI_Win win);
int bamboo_win_post(bamboo_site at, MPI_Group group, int assert_, MPI_Win win);
int bamboo_win_start(bamboo_site at, MPI_Group group, int assert_, MPI_Win win);
int bamboo_win_complete(bamboo_site at, MPI_Win win);
int bamboo_win_wait(bamboo_site at, MPI_Win win);
int bamboo_win_test(bamboo_site at, MPI_Win win, int *flag);
int bamboo_win_sync(bamboo_site at, MPI_Win win);

/* ---- Files (MPI-IO) (mpi/files.cpp) ------------------------------------------------- */
/* Each task has its own handle of the MPI library's file; calls that MPI makes collective
 * are collective over the tasks (docs/mpi-support.md, MPI-IO). */
int bamboo_file_open(bamboo_site at, MPI_Comm comm, const char *filename, int amode, MPI_Info info,
                     MPI_File *fh);
int bamboo_file_close(bamboo_site at, MPI_File *fh);
int bamboo_file_delete(bamboo_site at, const char *filename, MPI_Info info);
int bamboo_file_set_size(bamboo_site at, MPI_File fh, MPI_Offset size);
int bamboo_file_preallocate(bamboo_site at, MPI_File fh, MPI_Offset size);
int bamboo_file_get_size(bamboo_site at, MPI_File fh, MPI_Offset *size);
int bamboo_file_get_group(bamboo_site at, MPI_File fh, MPI_Group *group);
int bamboo_file_get_amode(bamboo_site at, MPI_File fh, int *amode);
int bamboo_file_set_info(bamboo_site at, MPI_File fh, MPI_Info info);
int bamboo_file_get_info(bamboo_site at, MPI_File fh, MPI_Info *info_used);
int bamboo_file_set_view(bamboo_site at, MPI_File fh, MPI_Offset disp, MPI_Datatype etype,
                         MPI_Datatype filetype, const char *datarep, MPI_Info info);
int bamboo_file_get_view(bamboo_site at, MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype,
                         MPI_Datatype *filetype, char *datarep);
int bamboo_file_get_type_extent(bamboo_site at, MPI_File fh, MPI_Datatype type, MPI_Aint *extent);
int bamboo_file_set_atomicity(bamboo_site at, MPI_File fh, int flag);
int bamboo_file_get_atomicity(bamboo_site at, MPI_File fh, int *flag);
int bamboo_file_sync(bamboo_site at, MPI_File fh);

/* ---- Reading and writing files (mpi/file_access.cpp) -------------------------------- */
int bamboo_file_read_at(bamboo_site at, MPI_File fh, MPI_Offset offset, void *buf, int count,
                        MPI_Datatype type, MPI_Status *status);
int bamboo_file_write_at(bamboo_site at, MPI_File fh, MPI_Offset offset, const void *buf, int count,
                         MPI_Datatype type, MPI_Status *status);
int bamboo_file_read_at_all(bamboo_site at, MPI_File fh, MPI_Offset offset, void *buf, int count,
                            MPI_Datatype type, MPI_Status *status);
int bamboo_file_write_at_all(bamboo_site at, MPI_File fh, MPI_Offset offset, const void *buf,
                             int count, MPI_Datatype type, MPI_Status *status);
int bamboo_file_iread_at(bamboo_site at, MPI_File fh, MPI_Offset offset, void *buf, int count,
                         MPI_Datatype type, MPI_Request *request);
int bamboo_file_iwrite_at(bamboo_site at, MPI_File fh, MPI_Offset offset, const void *buf,
                          int count, MPI_Datatype type, MPI_Request *request);
int bamboo_file_iread_at_all(bamboo_site at, MPI_File fh, MPI_Offset offset, void *buf, int count,
                             MPI_Datatype type, MPI_Request *request);
int bamboo_file_iwrite_at_all(bamboo_site at, MPI_File fh, MPI_Offset offset, const void *buf,
                              int count, MPI_Datatype type, MPI_Request *request);
int bamboo_file_read_at_all_begin(bamboo_site at, MPI_File fh, MPI_Offset offset, void *buf,
                                  int count, MPI_Datatype type);
int bamboo_file_read_at_all_end(bamboo_site at, MPI_File fh, void *buf, MPI_Status *status);
int bamboo_file_write_at_all_begin(bamboo_site at, MPI_File fh, MPI_Offset offset, const void *buf,
                                   int count, MPI_Datatype type);
int bamboo_file_write_at_all_end(bamboo_site at, MPI_File fh, const void *buf, MPI_Status *status);
int bamboo_file_read(bamboo_site at, MPI_File fh, void *buf, int count, MPI_Datatype type,
                     MPI_Status *status);
int bamboo_file_write(bamboo_site at, MPI_File fh, const void *buf, int count, MPI_Datatype type,
                      MPI_Status *status);
int bamboo_file_read_all(bamboo_site at, MPI_File fh, void *buf, int count, MPI_Datatype type,
                         MPI_Status *status);
int bamboo_file_write_all(bamboo_site at, MPI_File fh, const void *buf, int count,
                          MPI_Datatype type, MPI_Status *status);
int bamboo_file_iread(bamboo_site at, MPI_File fh, void *buf, int count, MPI_Datatype type,
                      MPI_Request *request);
int bamboo_file_iwrite(bamboo_site at, MPI_File fh, const void *buf, int count, MPI_Datatype type,
                       MPI_Request *request);
int bamboo_file_iread_all(bamboo_site at, MPI_File fh, void *buf, int count, MPI_Datatype type,
                          MPI_Request *request);
int bamboo_file_iwrite_all(bamboo_site at, MPI_File fh, const void *buf, int count,
                           MPI_Datatype type, MPI_Request *request);
int bamboo_file_read_all_begin(bamboo_site at, MPI_File fh, void *buf, int count,
                               MPI_Datatype type);
int bamboo_file_read_all_end(bamboo_site at, MPI_File fh, void *buf, MPI_Status *status);
int bamboo_file_write_all_begin(bamboo_site at, MPI_File fh, const void *buf, int count,
                                MPI_Datatype type);
int bamboo_file_write_all_end(bamboo_site at, MPI_File fh, const void *buf, MPI_Status *status);
int bamboo_file_seek(bamboo_site at, MPI_File fh, MPI_Offset offset, int whence);
int bamboo_file_get_position(bamboo_site at, MPI_File fh, MPI_Offset *offset);
int bamboo_file_get_byte_offset(bamboo_site at, MPI_File fh, MPI_Offset offset, MPI_Offset *disp);
int bamboo_file_read_shared(bamboo_site at, MPI_File fh, void *buf, int count, MPI_Datatype type,
                            MPI_Status *status);
int bamboo_file_write_shared(bamboo_site at, MPI_File fh, const void *buf, int count,
                             MPI_Datatype type, MPI_Status *status);
int bamboo_file_iread_shared(bamboo_site at, MPI_File fh, void *buf, int count, MPI_Datatype type,
                             MPI_Request *request);
int bamboo_file_iwrite_shared(bamboo_site at, MPI_File fh, const void *buf, int count,
                              MPI_Datatype type, MPI_Request *request);
int bamboo_file_read_ordered(bamboo_site at, MPI_File fh, void *buf, int count, MPI_Datatype type,
                             MPI_Status *status);
int bamboo_file_write_ordered(bamboo_site at, MPI_File fh, const void *buf, int count,
                              MPI_Datatype type, MPI_Status *status);
int bamboo_file_read_ordered_begin(bamboo_site at, MPI_File fh, void *buf, int count,
                                   MPI_Datatype type);
int bamboo_file_read_ordered_end(bamboo_site at, MPI_File fh, void *buf, MPI_Status *status);
int bamboo_file_write_ordered_begin(bamboo_site at, MPI_File fh, const void *buf, int count,
                                    MPI_Datatype type);
int bamboo_file_write_ordered_end(bamboo_site at, MPI_File fh, const void *buf, MPI_Status *status);
int bamboo_file_seek_shared(bamboo_site at, MPI_File fh, MPI_Offset offset, int whence);
int bamboo_file_get_position_shared(bamboo_site at, MPI_File fh, MPI_Offset *offset);

/* ---- Firing rules --------------------------------------------------------------- */
/* At an evaluation point the translator emits one bamboo_expect() per message the
 * following receive blocks will take (guarded by the same conditions and loops), then
 * bamboo_fire(): the task waits, off its worker, until every expected message has
 * arrived. Wildcards (MPI_ANY_SOURCE, MPI_ANY_TAG) are allowed. */
void bamboo_expect(int source, int tag, MPI_Comm comm);
void bamboo_fire(bamboo_site at);
/* Instead of bamboo_expect() for every receive of a window that holds nothing but MPI_Recv,
 * MPI_Irecv and waits: each receive announced whole, in the window's order. The runtime
 * posts them at bamboo_fire(), so that their messages land in the receive buffers as they
 * arrive, and the window's receive calls take them over. */
void bamboo_expect_receive(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm);

/* Around a send block: between the two calls the task's messages to other processes that
 * complete at once (those it hands over whole, which is all but large, synchronous and
 * out-of-credit ones) may be held back, to leave together: one MPI message per destination
 * process when the block ends, or earlier if the task waits, yields or ends. */
void bamboo_send_block_begin(void);
void bamboo_send_block_end(void);
/* Instead of bamboo_send_block_begin() where the task leaves the block's send buffers
 * untouched until its next bamboo_fire() (the translator emits it for a block of sends only,
 * with side-effect-free arguments, right before its firing rule): a blocking send to a task
 * of this process may then lend its buffer until the fire, so that the receive copies the
 * data once, from the sender's buffer, rather than into a buffer and out again. */
void bamboo_send_block_begin_lending(void);

/* A collective in a receive block: the rule waits for the messages this task's part of it
 * receives before it first sends (for a broadcast, the one from its parent in the tree).
 * `root` is ignored by collectives without one, `op` by those that do not reduce. */
typedef enum bamboo_collective {
    BAMBOO_BARRIER, BAMBOO_BCAST, BAMBOO_REDUCE, BAMBOO_ALLREDUCE, BAMBOO_GATHER,
    BAMBOO_SCATTER, BAMBOO_ALLGATHER, BAMBOO_ALLTOALL, BAMBOO_ALLTOALLV, BAMBOO_REDUCE_SCATTER,
    BAMBOO_SCAN, BAMBOO_EXSCAN
} bamboo_collective;
void bamboo_expect_collective(bamboo_collective kind, int root, MPI_Op op, MPI_Comm comm);

/* `#pragma bamboo priority EXPR`: the running task's scheduling priority from here on
 * (higher runs first; -1 yields at the end of each region). */
void bamboo_set_priority(int priority);

#ifdef __cplusplus
}
#endif

#if defined __cplusplus && defined BAMBOO_TRANSLATED_CXX
/* bamboo_object.destroy of a privatized object of type T; an array's elements go last first,
 * as a static array's do. */
template <class T>
void bamboo_destroy_at(T &object) { object.~T(); }
template <class T, size_t N>
void bamboo_destroy_at(T (&array)[N]) {
    for (size_t i = N; i-- > 0;) bamboo_destroy_at(array[i]);
}
template <class T>
void bamboo_destroy(void *object) { bamboo_destroy_at(*static_cast<T *>(object)); }
#endif

/* ---- Redirection of user MPI calls ----------------------------------------------- */
/* Only for translated code: the runtime itself, written in C++, calls the real MPI. */
#if !defined __cplusplus || defined BAMBOO_TRANSLATED_CXX
#ifdef __cplusplus
/* `std::exit(1)`, `std::rand()` (also in the standard library's own headers) become
 * `std::bamboo_exit(1)` ...: the task's versions, like the unqualified calls. */
namespace std {
using ::bamboo_exit;
using ::bamboo_rand;
using ::bamboo_srand;
using ::bamboo_strtok;
}
#endif
#undef MPI_Init
#undef MPI_Init_thread
#undef MPI_Initialized
#undef MPI_Finalize
#undef MPI_Finalized
#undef MPI_Query_thread
#undef MPI_Is_thread_main
#undef MPI_Abort
#undef MPI_Wtime
#undef MPI_Wtick
#undef MPI_Send
#undef MPI_Isend
#undef MPI_Recv
#undef MPI_Irecv
#undef MPI_Sendrecv
#undef MPI_Sendrecv_replace
#undef MPI_Ssend
#undef MPI_Rsend
#undef MPI_Bsend
#undef MPI_Issend
#undef MPI_Irsend
#undef MPI_Ibsend
#undef MPI_Buffer_attach
#undef MPI_Buffer_detach
#undef MPI_Send_init
#undef MPI_Ssend_init
#undef MPI_Rsend_init
#undef MPI_Bsend_init
#undef MPI_Recv_init
#undef MPI_Start
#undef MPI_Startall
#undef MPI_Request_free
#undef MPI_Cancel
#undef MPI_Probe
#undef MPI_Iprobe
#undef MPI_Mprobe
#undef MPI_Improbe
#undef MPI_Mrecv
#undef MPI_Imrecv
#undef MPI_Get_count
#undef MPI_Grequest_start
#undef MPI_Grequest_complete
#undef MPI_Wait
#undef MPI_Waitall
#undef MPI_Waitany
#undef MPI_Test
#undef MPI_Testall
#undef MPI_Testany
#undef MPI_Waitsome
#undef MPI_Testsome
#undef MPI_Request_get_status
#undef MPI_Barrier
#undef MPI_Bcast
#undef MPI_Reduce
#undef MPI_Allreduce
#undef MPI_Gather
#undef MPI_Gatherv
#undef MPI_Scatter
#undef MPI_Scatterv
#undef MPI_Allgather
#undef MPI_Allgatherv
#undef MPI_Alltoall
#undef MPI_Alltoallv
#undef MPI_Reduce_scatter
#undef MPI_Reduce_scatter_block
#undef MPI_Scan
#undef MPI_Exscan
#undef MPI_Alltoallw
#undef MPI_Reduce_local
#undef MPI_Op_create
#undef MPI_Op_free
#undef MPI_Op_commutative
#undef MPI_Neighbor_allgather
#undef MPI_Neighbor_allgatherv
#undef MPI_Neighbor_alltoall
#undef MPI_Neighbor_alltoallv
#undef MPI_Neighbor_alltoallw
#undef MPI_Ibarrier
#undef MPI_Ibcast
#undef MPI_Ireduce
#undef MPI_Iallreduce
#undef MPI_Igather
#undef MPI_Igatherv
#undef MPI_Iscatter
#undef MPI_Iscatterv
#undef MPI_Iallgather
#undef MPI_Iallgatherv
#undef MPI_Ialltoall
#undef MPI_Ialltoallv
#undef MPI_Ialltoallw
#undef MPI_Ireduce_scatter
#undef MPI_Ireduce_scatter_block
#undef MPI_Iscan
#undef MPI_Iexscan
#undef MPI_Comm_idup
#undef MPI_Ineighbor_allgather
#undef MPI_Ineighbor_allgatherv
#undef MPI_Ineighbor_alltoall
#undef MPI_Ineighbor_alltoallv
#undef MPI_Ineighbor_alltoallw
#undef MPI_Comm_rank
#undef MPI_Comm_size
#undef MPI_Comm_split
#undef MPI_Comm_dup
#undef MPI_Comm_create
#undef MPI_Comm_create_group
#undef MPI_Comm_free
#undef MPI_Comm_compare
#undef MPI_Comm_group
#undef MPI_Group_size
#undef MPI_Group_rank
#undef MPI_Group_incl
#undef MPI_Group_excl
#undef MPI_Group_translate_ranks
#undef MPI_Group_compare
#undef MPI_Group_free
#undef MPI_Group_range_incl
#undef MPI_Group_range_excl
#undef MPI_Group_union
#undef MPI_Group_intersection
#undef MPI_Group_difference
#undef MPI_Comm_dup_with_info
#undef MPI_Comm_split_type
#undef MPI_Dims_create
#undef MPI_Cart_create
#undef MPI_Cart_map
#undef MPI_Cart_coords
#undef MPI_Cart_rank
#undef MPI_Cart_shift
#undef MPI_Cart_sub
#undef MPI_Cart_get
#undef MPI_Cartdim_get
#undef MPI_Topo_test
#undef MPI_Graph_create
#undef MPI_Graph_map
#undef MPI_Graphdims_get
#undef MPI_Graph_get
#undef MPI_Graph_neighbors_count
#undef MPI_Graph_neighbors
#undef MPI_Dist_graph_create_adjacent
#undef MPI_Dist_graph_create
#undef MPI_Dist_graph_neighbors_count
#undef MPI_Dist_graph_neighbors
#undef MPI_Intercomm_create
#undef MPI_Intercomm_merge
#undef MPI_Comm_test_inter
#undef MPI_Comm_remote_size
#undef MPI_Comm_remote_group
#undef MPI_Type_contiguous
#undef MPI_Type_vector
#undef MPI_Type_create_hvector
#undef MPI_Type_indexed
#undef MPI_Type_create_hindexed
#undef MPI_Type_create_indexed_block
#undef MPI_Type_create_struct
#undef MPI_Type_create_subarray
#undef MPI_Type_create_resized
#undef MPI_Type_dup
#undef MPI_Type_commit
#undef MPI_Type_free
#undef MPI_Type_size
#undef MPI_Type_get_extent
#undef MPI_Type_get_true_extent
#undef MPI_Get_address
#undef MPI_Get_elements
#undef MPI_Pack
#undef MPI_Unpack
#undef MPI_Pack_size
#undef MPI_Type_get_envelope
#undef MPI_Type_get_contents
#undef MPI_Type_size_x
#undef MPI_Type_get_extent_x
#undef MPI_Type_get_true_extent_x
#undef MPI_Type_get_name
#undef MPI_Type_set_name
#undef MPI_Type_create_hindexed_block
#undef MPI_Type_match_size
#undef MPI_Type_extent
#undef MPI_Type_lb
#undef MPI_Type_ub
#undef MPI_Type_struct
#undef MPI_Type_hvector
#undef MPI_Type_hindexed
#undef MPI_Address
#undef MPI_Type_create_darray
#undef MPI_Get_elements_x
#undef MPI_Comm_set_errhandler
#undef MPI_Comm_get_errhandler
#undef MPI_Comm_create_errhandler
#undef MPI_Errhandler_free
#undef MPI_Comm_call_errhandler
#undef MPI_Errhandler_set
#undef MPI_Errhandler_get
#undef MPI_Errhandler_create
#undef MPI_File_set_errhandler
#undef MPI_File_get_errhandler
#undef MPI_File_create_errhandler
#undef MPI_File_call_errhandler
#undef MPI_Win_set_errhandler
#undef MPI_Win_get_errhandler
#undef MPI_Win_create_errhandler
#undef MPI_Win_call_errhandler
#undef MPI_Comm_set_name
#undef MPI_Comm_get_name
#undef MPI_Comm_create_keyval
#undef MPI_Comm_free_keyval
#undef MPI_Comm_set_attr
#undef MPI_Comm_get_attr
#undef MPI_Comm_delete_attr
#undef MPI_Keyval_create
#undef MPI_Keyval_free
#undef MPI_Attr_put
#undef MPI_Attr_get
#undef MPI_Attr_delete
#undef MPI_Comm_set_info
#undef MPI_Comm_get_info
#undef MPI_Get_processor_name
#undef MPI_Error_string
#undef MPI_Error_class
#undef MPI_Get_version
#undef MPI_Get_library_version
#undef MPI_Alloc_mem
#undef MPI_Free_mem
#undef MPI_Info_create
#undef MPI_Info_set
#undef MPI_Info_get
#undef MPI_Info_get_nkeys
#undef MPI_Info_get_nthkey
#undef MPI_Info_get_valuelen
#undef MPI_Info_dup
#undef MPI_Info_delete
#undef MPI_Info_free
#undef MPI_Pack_external
#undef MPI_Unpack_external
#undef MPI_Pack_external_size
#undef MPI_Status_set_elements
#undef MPI_Status_set_cancelled
#undef MPI_Test_cancelled
#undef MPI_Status_set_elements_x
#undef MPI_Win_create
#undef MPI_Win_create_dynamic
#undef MPI_Win_attach
#undef MPI_Win_detach
#undef MPI_Win_free
#undef MPI_Win_get_group
#undef MPI_Win_set_name
#undef MPI_Win_get_name
#undef MPI_Win_create_keyval
#undef MPI_Win_free_keyval
#undef MPI_Win_set_attr
#undef MPI_Win_get_attr
#undef MPI_Win_delete_attr
#undef MPI_Win_allocate
#undef MPI_Win_allocate_shared
#undef MPI_Win_shared_query
#undef MPI_Put
#undef MPI_Get
#undef MPI_Accumulate
#undef MPI_Get_accumulate
#undef MPI_Fetch_and_op
#undef MPI_Compare_and_swap
#undef MPI_Rput
#undef MPI_Rget
#undef MPI_Raccumulate
#undef MPI_Rget_accumulate
#undef MPI_Win_fence
#undef MPI_Win_lock
#undef MPI_Win_unlock
#undef MPI_Win_lock_all
#undef MPI_Win_unlock_all
#undef MPI_Win_flush
#undef MPI_Win_flush_all
#undef MPI_Win_flush_local
#undef MPI_Win_flush_local_all
#undef MPI_Win_post
#undef MPI_Win_start
#undef MPI_Win_complete
#undef MPI_Win_wait
#undef MPI_Win_test
#undef MPI_Win_sync
#undef MPI_File_open
#undef MPI_File_close
#undef MPI_File_delete
#undef MPI_File_set_size
#undef MPI_File_preallocate
#undef MPI_File_get_size
#undef MPI_File_get_group
#undef MPI_File_get_amode
#undef MPI_File_set_info
#undef MPI_File_get_info
#undef MPI_File_set_view
#undef MPI_File_get_view
#undef MPI_File_get_type_extent
#undef MPI_File_set_atomicity
#undef MPI_File_get_atomicity
#undef MPI_File_sync
#undef MPI_File_read_at
#undef MPI_File_write_at
#undef MPI_File_read_at_all
#undef MPI_File_write_at_all
#undef MPI_File_iread_at
#undef MPI_File_iwrite_at
#undef MPI_File_iread_at_all
#undef MPI_File_iwrite_at_all
#undef MPI_File_read_at_all_begin
#undef MPI_File_read_at_all_end
#undef MPI_File_write_at_all_begin
#undef MPI_File_write_at_all_end
#undef MPI_File_read
#undef MPI_File_write
#undef MPI_File_read_all
#undef MPI_File_write_all
#undef MPI_File_iread
#undef MPI_File_iwrite
#undef MPI_File_iread_all
#undef MPI_File_iwrite_all
#undef MPI_File_read_all_begin
#undef MPI_File_read_all_end
#undef MPI_File_write_all_begin
#undef MPI_File_write_all_end
#undef MPI_File_seek
#undef MPI_File_get_position
#undef MPI_File_get_byte_offset
#undef MPI_File_read_shared
#undef MPI_File_write_shared
#undef MPI_File_iread_shared
#undef MPI_File_iwrite_shared
#undef MPI_File_read_ordered
#undef MPI_File_write_ordered
#undef MPI_File_read_ordered_begin
#undef MPI_File_read_ordered_end
#undef MPI_File_write_ordered_begin
#undef MPI_File_write_ordered_end
#undef MPI_File_seek_shared
#undef MPI_File_get_position_shared
#undef exit
#undef rand
#undef srand
#undef random
#undef srandom
#undef drand48
#undef lrand48
#undef mrand48
#undef erand48
#undef nrand48
#undef jrand48
#undef srand48
#undef seed48
#undef lcong48
#undef strtok
#undef getopt
#undef getopt_long
#undef getopt_long_only
#undef sleep
#undef usleep
#undef nanosleep
/* Under strict POSIX (-D_POSIX_C_SOURCE without _GNU_SOURCE), <unistd.h> without <getopt.h>
 * gives getopt an assembler name, __posix_getopt, that bamboo_getopt would take on behind
 * the macro below; <getopt.h> first prevents it (its getopt permutes, as with _GNU_SOURCE). */
#if defined __USE_POSIX2 && !defined __USE_POSIX_IMPLICITLY && !defined __USE_GNU
#include <getopt.h>
#endif
/* A translated file that never includes <errno.h> (BAMBOO_WITHOUT_ERRNO_H, from the
 * translator) may use `errno` as a name of its own: OSU's CHECK macro declares a local
 * `int errno`. */
#ifndef BAMBOO_WITHOUT_ERRNO_H
#include <errno.h> /* before the redirection: later inclusions change nothing */
#undef errno
#define errno (*bamboo_errno())
#endif
#define exit(status) bamboo_exit(status)
#define rand() bamboo_rand()
#define srand(seed) bamboo_srand(seed)
#define random() bamboo_random()
#define srandom(seed) bamboo_srandom(seed)
#define drand48() bamboo_drand48()
#define lrand48() bamboo_lrand48()
#define mrand48() bamboo_mrand48()
#define erand48(xsubi) bamboo_erand48(xsubi)
#define nrand48(xsubi) bamboo_nrand48(xsubi)
#define jrand48(xsubi) bamboo_jrand48(xsubi)
#define srand48(seed) bamboo_srand48(seed)
#define seed48(seed16v) bamboo_seed48(seed16v)
#define lcong48(param) bamboo_lcong48(param)
#define strtok(str, delimiters) bamboo_strtok(str, delimiters)
#define getopt(argc, argv, optstring) bamboo_getopt(argc, argv, optstring)
#define getopt_long(...) bamboo_getopt_long(__VA_ARGS__)
#define getopt_long_only(...) bamboo_getopt_long_only(__VA_ARGS__)
#define sleep(seconds) bamboo_sleep(seconds)
#define usleep(microseconds) bamboo_usleep(microseconds)
#define nanosleep(requested, remaining) bamboo_nanosleep(requested, remaining)
#define MPI_Init(argc, argv) bamboo_init(argc, argv)
#define MPI_Init_thread(argc, argv, required, provided) \
    bamboo_init_thread(argc, argv, required, provided)
#define MPI_Initialized(flag) bamboo_initialized(flag)
#define MPI_Finalize() bamboo_finalize()
#define MPI_Finalized(flag) bamboo_finalized(flag)
#define MPI_Query_thread(provided) bamboo_query_thread(provided)
#define MPI_Is_thread_main(flag) bamboo_is_thread_main(flag)
#define MPI_Abort(comm, errorcode) bamboo_abort(comm, errorcode)
#define MPI_Wtime() bamboo_wtime()
#define MPI_Wtick() bamboo_wtick()
#define MPI_Send(...) bamboo_send(BAMBOO_AT, __VA_ARGS__)
#define MPI_Isend(...) bamboo_isend(BAMBOO_AT, __VA_ARGS__)
#define MPI_Recv(...) bamboo_recv(BAMBOO_AT, __VA_ARGS__)
#define MPI_Irecv(...) bamboo_irecv(BAMBOO_AT, __VA_ARGS__)
#define MPI_Sendrecv(...) bamboo_sendrecv(BAMBOO_AT, __VA_ARGS__)
#define MPI_Sendrecv_replace(...) bamboo_sendrecv_replace(BAMBOO_AT, __VA_ARGS__)
#define MPI_Ssend(...) bamboo_ssend(BAMBOO_AT, __VA_ARGS__)
#define MPI_Rsend(...) bamboo_rsend(BAMBOO_AT, __VA_ARGS__)
#define MPI_Bsend(...) bamboo_bsend(BAMBOO_AT, __VA_ARGS__)
#define MPI_Issend(...) bamboo_issend(BAMBOO_AT, __VA_ARGS__)
#define MPI_Irsend(...) bamboo_irsend(BAMBOO_AT, __VA_ARGS__)
#define MPI_Ibsend(...) bamboo_ibsend(BAMBOO_AT, __VA_ARGS__)
#define MPI_Buffer_attach(...) bamboo_buffer_attach(BAMBOO_AT, __VA_ARGS__)
#define MPI_Buffer_detach(...) bamboo_buffer_detach(BAMBOO_AT, __VA_ARGS__)
#define MPI_Send_init(...) bamboo_send_init(BAMBOO_AT, __VA_ARGS__)
#define MPI_Ssend_init(...) bamboo_ssend_init(BAMBOO_AT, __VA_ARGS__)
#define MPI_Rsend_init(...) bamboo_rsend_init(BAMBOO_AT, __VA_ARGS__)
#define MPI_Bsend_init(...) bamboo_bsend_init(BAMBOO_AT, __VA_ARGS__)
#define MPI_Recv_init(...) bamboo_recv_init(BAMBOO_AT, __VA_ARGS__)
#define MPI_Start(...) bamboo_start(BAMBOO_AT, __VA_ARGS__)
#define MPI_Startall(...) bamboo_startall(BAMBOO_AT, __VA_ARGS__)
#define MPI_Request_free(...) bamboo_request_free(BAMBOO_AT, __VA_ARGS__)
#define MPI_Cancel(...) bamboo_cancel(BAMBOO_AT, __VA_ARGS__)
#define MPI_Probe(...) bamboo_probe(BAMBOO_AT, __VA_ARGS__)
#define MPI_Iprobe(...) bamboo_iprobe(BAMBOO_AT, __VA_ARGS__)
#define MPI_Mprobe(...) bamboo_mprobe(BAMBOO_AT, __VA_ARGS__)
#define MPI_Improbe(...) bamboo_improbe(BAMBOO_AT, __VA_ARGS__)
#define MPI_Mrecv(...) bamboo_mrecv(BAMBOO_AT, __VA_ARGS__)
#define MPI_Imrecv(...) bamboo_imrecv(BAMBOO_AT, __VA_ARGS__)
#define MPI_Get_count(status, type, count) bamboo_get_count(status, type, count)
#define MPI_Grequest_start(...) bamboo_grequest_start(BAMBOO_AT, __VA_ARGS__)
#define MPI_Grequest_complete(...) bamboo_grequest_complete(BAMBOO_AT, __VA_ARGS__)
#define MPI_Wait(...) bamboo_wait(BAMBOO_AT, __VA_ARGS__)
#define MPI_Waitall(...) bamboo_waitall(BAMBOO_AT, __VA_ARGS__)
#define MPI_Waitany(...) bamboo_waitany(BAMBOO_AT, __VA_ARGS__)
#define MPI_Test(...) bamboo_test(BAMBOO_AT, __VA_ARGS__)
#define MPI_Testall(...) bamboo_testall(BAMBOO_AT, __VA_ARGS__)
#define MPI_Testany(...) bamboo_testany(BAMBOO_AT, __VA_ARGS__)
#define MPI_Waitsome(...) bamboo_waitsome(BAMBOO_AT, __VA_ARGS__)
#define MPI_Testsome(...) bamboo_testsome(BAMBOO_AT, __VA_ARGS__)
#define MPI_Request_get_status(...) bamboo_request_get_status(BAMBOO_AT, __VA_ARGS__)
#define MPI_Barrier(...) bamboo_barrier(BAMBOO_AT, __VA_ARGS__)
#define MPI_Bcast(...) bamboo_bcast(BAMBOO_AT, __VA_ARGS__)
#define MPI_Reduce(...) bamboo_reduce(BAMBOO_AT, __VA_ARGS__)
#define MPI_Allreduce(...) bamboo_allreduce(BAMBOO_AT, __VA_ARGS__)
#define MPI_Gather(...) bamboo_gather(BAMBOO_AT, __VA_ARGS__)
#define MPI_Gatherv(...) bamboo_gatherv(BAMBOO_AT, __VA_ARGS__)
#define MPI_Scatter(...) bamboo_scatter(BAMBOO_AT, __VA_ARGS__)
#define MPI_Scatterv(...) bamboo_scatterv(BAMBOO_AT, __VA_ARGS__)
#define MPI_Allgather(...) bamboo_allgather(BAMBOO_AT, __VA_ARGS__)
#define MPI_Allgatherv(...) bamboo_allgatherv(BAMBOO_AT, __VA_ARGS__)
#define MPI_Alltoall(...) bamboo_alltoall(BAMBOO_AT, __VA_ARGS__)
#define MPI_Alltoallv(...) bamboo_alltoallv(BAMBOO_AT, __VA_ARGS__)
#define MPI_Reduce_scatter(...) bamboo_reduce_scatter(BAMBOO_AT, __VA_ARGS__)
#define MPI_Reduce_scatter_block(...) bamboo_reduce_scatter_block(BAMBOO_AT, __VA_ARGS__)
#define MPI_Scan(...) bamboo_scan(BAMBOO_AT, __VA_ARGS__)
#define MPI_Exscan(...) bamboo_exscan(BAMBOO_AT, __VA_ARGS__)
#define MPI_Alltoallw(...) bamboo_alltoallw(BAMBOO_AT, __VA_ARGS__)
#define MPI_Reduce_local(...) bamboo_reduce_local(BAMBOO_AT, __VA_ARGS__)
#define MPI_Op_create(...) bamboo_op_create(BAMBOO_AT, __VA_ARGS__)
#define MPI_Op_free(...) bamboo_op_free(BAMBOO_AT, __VA_ARGS__)
#define MPI_Op_commutative(...) bamboo_op_commutative(BAMBOO_AT, __VA_ARGS__)
#define MPI_Neighbor_allgather(...) bamboo_neighbor_allgather(BAMBOO_AT, __VA_ARGS__)
#define MPI_Neighbor_allgatherv(...) bamboo_neighbor_allgatherv(BAMBOO_AT, __VA_ARGS__)
#define MPI_Neighbor_alltoall(...) bamboo_neighbor_alltoall(BAMBOO_AT, __VA_ARGS__)
#define MPI_Neighbor_alltoallv(...) bamboo_neighbor_alltoallv(BAMBOO_AT, __VA_ARGS__)
#define MPI_Neighbor_alltoallw(...) bamboo_neighbor_alltoallw(BAMBOO_AT, __VA_ARGS__)
#define MPI_Ibarrier(...) bamboo_ibarrier(BAMBOO_AT, __VA_ARGS__)
#define MPI_Ibcast(...) bamboo_ibcast(BAMBOO_AT, __VA_ARGS__)
#define MPI_Ireduce(...) bamboo_ireduce(BAMBOO_AT, __VA_ARGS__)
#define MPI_Iallreduce(...) bamboo_iallreduce(BAMBOO_AT, __VA_ARGS__)
#define MPI_Igather(...) bamboo_igather(BAMBOO_AT, __VA_ARGS__)
#define MPI_Igatherv(...) bamboo_igatherv(BAMBOO_AT, __VA_ARGS__)
#define MPI_Iscatter(...) bamboo_iscatter(BAMBOO_AT, __VA_ARGS__)
#define MPI_Iscatterv(...) bamboo_iscatterv(BAMBOO_AT, __VA_ARGS__)
#define MPI_Iallgather(...) bamboo_iallgather(BAMBOO_AT, __VA_ARGS__)
#define MPI_Iallgatherv(...) bamboo_iallgatherv(BAMBOO_AT, __VA_ARGS__)
#define MPI_Ialltoall(...) bamboo_ialltoall(BAMBOO_AT, __VA_ARGS__)
#define MPI_Ialltoallv(...) bamboo_ialltoallv(BAMBOO_AT, __VA_ARGS__)
#define MPI_Ialltoallw(...) bamboo_ialltoallw(BAMBOO_AT, __VA_ARGS__)
#define MPI_Ireduce_scatter(...) bamboo_ireduce_scatter(BAMBOO_AT, __VA_ARGS__)
#define MPI_Ireduce_scatter_block(...) bamboo_ireduce_scatter_block(BAMBOO_AT, __VA_ARGS__)
#define MPI_Iscan(...) bamboo_iscan(BAMBOO_AT, __VA_ARGS__)
#define MPI_Iexscan(...) bamboo_iexscan(BAMBOO_AT, __VA_ARGS__)
#define MPI_Comm_idup(...) bamboo_comm_idup(BAMBOO_AT, __VA_ARGS__)
#define MPI_Ineighbor_allgather(...) bamboo_ineighbor_allgather(BAMBOO_AT, __VA_ARGS__)
#define MPI_Ineighbor_allgatherv(...) bamboo_ineighbor_allgatherv(BAMBOO_AT, __VA_ARGS__)
#define MPI_Ineighbor_alltoall(...) bamboo_ineighbor_alltoall(BAMBOO_AT, __VA_ARGS__)
#define MPI_Ineighbor_alltoallv(...) bamboo_ineighbor_alltoallv(BAMBOO_AT, __VA_ARGS__)
#define MPI_Ineighbor_alltoallw(...) bamboo_ineighbor_alltoallw(BAMBOO_AT, __VA_ARGS__)
#define MPI_Comm_rank(comm, rank) bamboo_comm_rank(comm, rank)
#define MPI_Comm_size(comm, size) bamboo_comm_size(comm, size)
#define MPI_Comm_split(...) bamboo_comm_split(BAMBOO_AT, __VA_ARGS__)
#define MPI_Comm_dup(...) bamboo_comm_dup(BAMBOO_AT, __VA_ARGS__)
#define MPI_Comm_create(...) bamboo_comm_create(BAMBOO_AT, __VA_ARGS__)
#define MPI_Comm_create_group(...) bamboo_comm_create_group(BAMBOO_AT, __VA_ARGS__)
#define MPI_Comm_free(...) bamboo_comm_free(BAMBOO_AT, __VA_ARGS__)
#define MPI_Comm_compare(...) bamboo_comm_compare(BAMBOO_AT, __VA_ARGS__)
#define MPI_Comm_group(...) bamboo_comm_group(BAMBOO_AT, __VA_ARGS__)
#define MPI_Group_size(...) bamboo_group_size(BAMBOO_AT, __VA_ARGS__)
#define MPI_Group_rank(...) bamboo_group_rank(BAMBOO_AT, __VA_ARGS__)
#define MPI_Group_incl(...) bamboo_group_incl(BAMBOO_AT, __VA_ARGS__)
#define MPI_Group_excl(...) bamboo_group_excl(BAMBOO_AT, __VA_ARGS__)
#define MPI_Group_translate_ranks(...) bamboo_group_translate_ranks(BAMBOO_AT, __VA_ARGS__)
#define MPI_Group_compare(...) bamboo_group_compare(BAMBOO_AT, __VA_ARGS__)
#define MPI_Group_free(...) bamboo_group_free(BAMBOO_AT, __VA_ARGS__)
#define MPI_Group_range_incl(...) bamboo_group_range_incl(BAMBOO_AT, __VA_ARGS__)
#define MPI_Group_range_excl(...) bamboo_group_range_excl(BAMBOO_AT, __VA_ARGS__)
#define MPI_Group_union(...) bamboo_group_union(BAMBOO_AT, __VA_ARGS__)
#define MPI_Group_intersection(...) bamboo_group_intersection(BAMBOO_AT, __VA_ARGS__)
#define MPI_Group_difference(...) bamboo_group_difference(BAMBOO_AT, __VA_ARGS__)
#define MPI_Comm_dup_with_info(...) bamboo_comm_dup_with_info(BAMBOO_AT, __VA_ARGS__)
#define MPI_Comm_split_type(...) bamboo_comm_split_type(BAMBOO_AT, __VA_ARGS__)
#define MPI_Dims_create(...) bamboo_dims_create(BAMBOO_AT, __VA_ARGS__)
#define MPI_Cart_create(...) bamboo_cart_create(BAMBOO_AT, __VA_ARGS__)
#define MPI_Cart_map(...) bamboo_cart_map(BAMBOO_AT, __VA_ARGS__)
#define MPI_Cart_coords(...) bamboo_cart_coords(BAMBOO_AT, __VA_ARGS__)
#define MPI_Cart_rank(...) bamboo_cart_rank(BAMBOO_AT, __VA_ARGS__)
#define MPI_Cart_shift(...) bamboo_cart_shift(BAMBOO_AT, __VA_ARGS__)
#define MPI_Cart_sub(...) bamboo_cart_sub(BAMBOO_AT, __VA_ARGS__)
#define MPI_Cart_get(...) bamboo_cart_get(BAMBOO_AT, __VA_ARGS__)
#define MPI_Cartdim_get(...) bamboo_cartdim_get(BAMBOO_AT, __VA_ARGS__)
#define MPI_Topo_test(...) bamboo_topo_test(BAMBOO_AT, __VA_ARGS__)
#define MPI_Graph_create(...) bamboo_graph_create(BAMBOO_AT, __VA_ARGS__)
#define MPI_Graph_map(...) bamboo_graph_map(BAMBOO_AT, __VA_ARGS__)
#define MPI_Graphdims_get(...) bamboo_graphdims_get(BAMBOO_AT, __VA_ARGS__)
#define MPI_Graph_get(...) bamboo_graph_get(BAMBOO_AT, __VA_ARGS__)
#define MPI_Graph_neighbors_count(...) bamboo_graph_neighbors_count(BAMBOO_AT, __VA_ARGS__)
#define MPI_Graph_neighbors(...) bamboo_graph_neighbors(BAMBOO_AT, __VA_ARGS__)
#define MPI_Dist_graph_create_adjacent(...) bamboo_dist_graph_create_adjacent(BAMBOO_AT, __VA_ARGS__)
#define MPI_Dist_graph_create(...) bamboo_dist_graph_create(BAMBOO_AT, __VA_ARGS__)
#define MPI_Dist_graph_neighbors_count(...) bamboo_dist_graph_neighbors_count(BAMBOO_AT, __VA_ARGS__)
#define MPI_Dist_graph_neighbors(...) bamboo_dist_graph_neighbors(BAMBOO_AT, __VA_ARGS__)
#define MPI_Intercomm_create(...) bamboo_intercomm_create(BAMBOO_AT, __VA_ARGS__)
#define MPI_Intercomm_merge(...) bamboo_intercomm_merge(BAMBOO_AT, __VA_ARGS__)
#define MPI_Comm_test_inter(...) bamboo_comm_test_inter(BAMBOO_AT, __VA_ARGS__)
#define MPI_Comm_remote_size(...) bamboo_comm_remote_size(BAMBOO_AT, __VA_ARGS__)
#define MPI_Comm_remote_group(...) bamboo_comm_remote_group(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_contiguous(...) bamboo_type_contiguous(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_vector(...) bamboo_type_vector(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_create_hvector(...) bamboo_type_create_hvector(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_indexed(...) bamboo_type_indexed(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_create_hindexed(...) bamboo_type_create_hindexed(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_create_indexed_block(...) bamboo_type_create_indexed_block(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_create_struct(...) bamboo_type_create_struct(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_create_subarray(...) bamboo_type_create_subarray(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_create_resized(...) bamboo_type_create_resized(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_dup(...) bamboo_type_dup(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_commit(...) bamboo_type_commit(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_free(...) bamboo_type_free(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_size(...) bamboo_type_size(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_get_extent(...) bamboo_type_get_extent(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_get_true_extent(...) bamboo_type_get_true_extent(BAMBOO_AT, __VA_ARGS__)
#define MPI_Get_address(...) bamboo_get_address(BAMBOO_AT, __VA_ARGS__)
#define MPI_Get_elements(...) bamboo_get_elements(BAMBOO_AT, __VA_ARGS__)
#define MPI_Pack(...) bamboo_pack(BAMBOO_AT, __VA_ARGS__)
#define MPI_Unpack(...) bamboo_unpack(BAMBOO_AT, __VA_ARGS__)
#define MPI_Pack_size(...) bamboo_pack_size(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_get_envelope(...) bamboo_type_get_envelope(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_get_contents(...) bamboo_type_get_contents(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_size_x(...) bamboo_type_size_x(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_get_extent_x(...) bamboo_type_get_extent_x(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_get_true_extent_x(...) bamboo_type_get_true_extent_x(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_get_name(...) bamboo_type_get_name(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_set_name(...) bamboo_type_set_name(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_create_hindexed_block(...) bamboo_type_create_hindexed_block(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_match_size(...) bamboo_type_match_size(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_extent(...) bamboo_type_extent(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_lb(...) bamboo_type_lb(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_ub(...) bamboo_type_ub(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_struct(...) bamboo_type_struct(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_hvector(...) bamboo_type_hvector(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_hindexed(...) bamboo_type_hindexed(BAMBOO_AT, __VA_ARGS__)
#define MPI_Address(...) bamboo_address(BAMBOO_AT, __VA_ARGS__)
#define MPI_Type_create_darray(...) bamboo_type_create_darray(BAMBOO_AT, __VA_ARGS__)
#define MPI_Get_elements_x(...) bamboo_get_elements_x(BAMBOO_AT, __VA_ARGS__)
#define MPI_Comm_set_errhandler(...) bamboo_comm_set_errhandler(BAMBOO_AT, __VA_ARGS__)
#define MPI_Comm_get_errhandler(...) bamboo_comm_get_errhandler(BAMBOO_AT, __VA_ARGS__)
#define MPI_Comm_create_errhandler(...) bamboo_comm_create_errhandler(BAMBOO_AT, __VA_ARGS__)
#define MPI_Errhandler_free(...) bamboo_errhandler_free(BAMBOO_AT, __VA_ARGS__)
#define MPI_Comm_call_errhandler(...) bamboo_comm_call_errhandler(BAMBOO_AT, __VA_ARGS__)
#define MPI_Errhandler_set(...) bamboo_errhandler_set(BAMBOO_AT, __VA_ARGS__)
#define MPI_Errhandler_get(...) bamboo_errhandler_get(BAMBOO_AT, __VA_ARGS__)
#define MPI_Errhandler_create(...) bamboo_errhandler_create(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_set_errhandler(...) bamboo_file_set_errhandler(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_get_errhandler(...) bamboo_file_get_errhandler(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_create_errhandler(...) bamboo_file_create_errhandler(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_call_errhandler(...) bamboo_file_call_errhandler(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_set_errhandler(...) bamboo_win_set_errhandler(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_get_errhandler(...) bamboo_win_get_errhandler(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_create_errhandler(...) bamboo_win_create_errhandler(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_call_errhandler(...) bamboo_win_call_errhandler(BAMBOO_AT, __VA_ARGS__)
#define MPI_Comm_set_name(...) bamboo_comm_set_name(BAMBOO_AT, __VA_ARGS__)
#define MPI_Comm_get_name(...) bamboo_comm_get_name(BAMBOO_AT, __VA_ARGS__)
#define MPI_Comm_create_keyval(...) bamboo_comm_create_keyval(BAMBOO_AT, __VA_ARGS__)
#define MPI_Comm_free_keyval(...) bamboo_comm_free_keyval(BAMBOO_AT, __VA_ARGS__)
#define MPI_Comm_set_attr(...) bamboo_comm_set_attr(BAMBOO_AT, __VA_ARGS__)
#define MPI_Comm_get_attr(...) bamboo_comm_get_attr(BAMBOO_AT, __VA_ARGS__)
#define MPI_Comm_delete_attr(...) bamboo_comm_delete_attr(BAMBOO_AT, __VA_ARGS__)
#define MPI_Keyval_create(...) bamboo_keyval_create(BAMBOO_AT, __VA_ARGS__)
#define MPI_Keyval_free(...) bamboo_keyval_free(BAMBOO_AT, __VA_ARGS__)
#define MPI_Attr_put(...) bamboo_attr_put(BAMBOO_AT, __VA_ARGS__)
#define MPI_Attr_get(...) bamboo_attr_get(BAMBOO_AT, __VA_ARGS__)
#define MPI_Attr_delete(...) bamboo_attr_delete(BAMBOO_AT, __VA_ARGS__)
#define MPI_Comm_set_info(...) bamboo_comm_set_info(BAMBOO_AT, __VA_ARGS__)
#define MPI_Comm_get_info(...) bamboo_comm_get_info(BAMBOO_AT, __VA_ARGS__)
#define MPI_Get_processor_name(...) bamboo_get_processor_name(BAMBOO_AT, __VA_ARGS__)
#define MPI_Error_string(...) bamboo_error_string(BAMBOO_AT, __VA_ARGS__)
#define MPI_Error_class(...) bamboo_error_class(BAMBOO_AT, __VA_ARGS__)
#define MPI_Get_version(...) bamboo_get_version(BAMBOO_AT, __VA_ARGS__)
#define MPI_Get_library_version(...) bamboo_get_library_version(BAMBOO_AT, __VA_ARGS__)
#define MPI_Alloc_mem(...) bamboo_alloc_mem(BAMBOO_AT, __VA_ARGS__)
#define MPI_Free_mem(...) bamboo_free_mem(BAMBOO_AT, __VA_ARGS__)
#define MPI_Info_create(...) bamboo_info_create(BAMBOO_AT, __VA_ARGS__)
#define MPI_Info_set(...) bamboo_info_set(BAMBOO_AT, __VA_ARGS__)
#define MPI_Info_get(...) bamboo_info_get(BAMBOO_AT, __VA_ARGS__)
#define MPI_Info_get_nkeys(...) bamboo_info_get_nkeys(BAMBOO_AT, __VA_ARGS__)
#define MPI_Info_get_nthkey(...) bamboo_info_get_nthkey(BAMBOO_AT, __VA_ARGS__)
#define MPI_Info_get_valuelen(...) bamboo_info_get_valuelen(BAMBOO_AT, __VA_ARGS__)
#define MPI_Info_dup(...) bamboo_info_dup(BAMBOO_AT, __VA_ARGS__)
#define MPI_Info_delete(...) bamboo_info_delete(BAMBOO_AT, __VA_ARGS__)
#define MPI_Info_free(...) bamboo_info_free(BAMBOO_AT, __VA_ARGS__)
#define MPI_Pack_external(...) bamboo_pack_external(BAMBOO_AT, __VA_ARGS__)
#define MPI_Unpack_external(...) bamboo_unpack_external(BAMBOO_AT, __VA_ARGS__)
#define MPI_Pack_external_size(...) bamboo_pack_external_size(BAMBOO_AT, __VA_ARGS__)
#define MPI_Status_set_elements(...) bamboo_status_set_elements(BAMBOO_AT, __VA_ARGS__)
#define MPI_Status_set_cancelled(...) bamboo_status_set_cancelled(BAMBOO_AT, __VA_ARGS__)
#define MPI_Test_cancelled(...) bamboo_test_cancelled(BAMBOO_AT, __VA_ARGS__)
#define MPI_Status_set_elements_x(...) bamboo_status_set_elements_x(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_create(...) bamboo_win_create(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_create_dynamic(...) bamboo_win_create_dynamic(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_attach(...) bamboo_win_attach(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_detach(...) bamboo_win_detach(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_free(...) bamboo_win_free(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_get_group(...) bamboo_win_get_group(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_set_name(...) bamboo_win_set_name(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_get_name(...) bamboo_win_get_name(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_create_keyval(...) bamboo_win_create_keyval(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_free_keyval(...) bamboo_win_free_keyval(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_set_attr(...) bamboo_win_set_attr(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_get_attr(...) bamboo_win_get_attr(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_delete_attr(...) bamboo_win_delete_attr(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_allocate(...) bamboo_win_allocate(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_allocate_shared(...) bamboo_win_allocate_shared(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_shared_query(...) bamboo_win_shared_query(BAMBOO_AT, __VA_ARGS__)
#define MPI_Put(...) bamboo_put(BAMBOO_AT, __VA_ARGS__)
#define MPI_Get(...) bamboo_get(BAMBOO_AT, __VA_ARGS__)
#define MPI_Accumulate(...) bamboo_accumulate(BAMBOO_AT, __VA_ARGS__)
#define MPI_Get_accumulate(...) bamboo_get_accumulate(BAMBOO_AT, __VA_ARGS__)
#define MPI_Fetch_and_op(...) bamboo_fetch_and_op(BAMBOO_AT, __VA_ARGS__)
#define MPI_Compare_and_swap(...) bamboo_compare_and_swap(BAMBOO_AT, __VA_ARGS__)
#define MPI_Rput(...) bamboo_rput(BAMBOO_AT, __VA_ARGS__)
#define MPI_Rget(...) bamboo_rget(BAMBOO_AT, __VA_ARGS__)
#define MPI_Raccumulate(...) bamboo_raccumulate(BAMBOO_AT, __VA_ARGS__)
#define MPI_Rget_accumulate(...) bamboo_rget_accumulate(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_fence(...) bamboo_win_fence(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_lock(...) bamboo_win_lock(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_unlock(...) bamboo_win_unlock(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_lock_all(...) bamboo_win_lock_all(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_unlock_all(...) bamboo_win_unlock_all(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_flush(...) bamboo_win_flush(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_flush_all(...) bamboo_win_flush_all(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_flush_local(...) bamboo_win_flush_local(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_flush_local_all(...) bamboo_win_flush_local_all(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_post(...) bamboo_win_post(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_start(...) bamboo_win_start(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_complete(...) bamboo_win_complete(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_wait(...) bamboo_win_wait(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_test(...) bamboo_win_test(BAMBOO_AT, __VA_ARGS__)
#define MPI_Win_sync(...) bamboo_win_sync(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_open(...) bamboo_file_open(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_close(...) bamboo_file_close(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_delete(...) bamboo_file_delete(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_set_size(...) bamboo_file_set_size(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_preallocate(...) bamboo_file_preallocate(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_get_size(...) bamboo_file_get_size(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_get_group(...) bamboo_file_get_group(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_get_amode(...) bamboo_file_get_amode(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_set_info(...) bamboo_file_set_info(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_get_info(...) bamboo_file_get_info(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_set_view(...) bamboo_file_set_view(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_get_view(...) bamboo_file_get_view(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_get_type_extent(...) bamboo_file_get_type_extent(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_set_atomicity(...) bamboo_file_set_atomicity(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_get_atomicity(...) bamboo_file_get_atomicity(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_sync(...) bamboo_file_sync(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_read_at(...) bamboo_file_read_at(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_write_at(...) bamboo_file_write_at(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_read_at_all(...) bamboo_file_read_at_all(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_write_at_all(...) bamboo_file_write_at_all(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_iread_at(...) bamboo_file_iread_at(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_iwrite_at(...) bamboo_file_iwrite_at(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_iread_at_all(...) bamboo_file_iread_at_all(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_iwrite_at_all(...) bamboo_file_iwrite_at_all(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_read_at_all_begin(...) bamboo_file_read_at_all_begin(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_read_at_all_end(...) bamboo_file_read_at_all_end(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_write_at_all_begin(...) bamboo_file_write_at_all_begin(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_write_at_all_end(...) bamboo_file_write_at_all_end(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_read(...) bamboo_file_read(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_write(...) bamboo_file_write(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_read_all(...) bamboo_file_read_all(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_write_all(...) bamboo_file_write_all(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_iread(...) bamboo_file_iread(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_iwrite(...) bamboo_file_iwrite(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_iread_all(...) bamboo_file_iread_all(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_iwrite_all(...) bamboo_file_iwrite_all(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_read_all_begin(...) bamboo_file_read_all_begin(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_read_all_end(...) bamboo_file_read_all_end(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_write_all_begin(...) bamboo_file_write_all_begin(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_write_all_end(...) bamboo_file_write_all_end(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_seek(...) bamboo_file_seek(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_get_position(...) bamboo_file_get_position(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_get_byte_offset(...) bamboo_file_get_byte_offset(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_read_shared(...) bamboo_file_read_shared(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_write_shared(...) bamboo_file_write_shared(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_iread_shared(...) bamboo_file_iread_shared(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_iwrite_shared(...) bamboo_file_iwrite_shared(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_read_ordered(...) bamboo_file_read_ordered(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_write_ordered(...) bamboo_file_write_ordered(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_read_ordered_begin(...) bamboo_file_read_ordered_begin(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_read_ordered_end(...) bamboo_file_read_ordered_end(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_write_ordered_begin(...) bamboo_file_write_ordered_begin(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_write_ordered_end(...) bamboo_file_write_ordered_end(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_seek_shared(...) bamboo_file_seek_shared(BAMBOO_AT, __VA_ARGS__)
#define MPI_File_get_position_shared(...) bamboo_file_get_position_shared(BAMBOO_AT, __VA_ARGS__)
#endif

#endif /* BAMBOO_H */
