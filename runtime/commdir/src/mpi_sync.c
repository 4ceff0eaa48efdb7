/* The MPI one-sided target's point-to-point synchronization (docs/comm-directives.md): a
 * group's puts are ordered by empty messages between the processes that exchange, not by
 * fences of all of them.  Per group execution and pair of processes, whatever the number of
 * its transfers between them:
 *   - the receiver, at its first transfer from the sender, sends it "you may put" (it has
 *     reached the group again, so it is done with the data of the last execution) and posts
 *     the receive of "the data is there";
 *   - the sender, before its first put to the receiver, waits for "you may put";
 *   - at the group's end the sender completes its puts (flush) and sends "the data is there";
 *     then both wait for their messages.
 * Whatever order the processes post in, no wait is circular: the earliest transfer anyone
 * waits in has had its receiver's message sent, since a transfer's receiving side is posted
 * before its sending side.
 *
 * Written in plain MPI.  For a plain program it is in libbamboo_commdir.a; for Bamboo tasks
 * the runtime compiles it again with bamboo.h (BAMBOO_COMMDIR_TASKS), whose MPI calls then
 * report the program's file and line. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef BAMBOO_COMMDIR_TASKS
#include "bamboo.h"
#undef BAMBOO_AT
#define BAMBOO_AT ((bamboo_site){file, line})
#endif

#define BAMBOO_COMMDIR_MPI
#include "bamboo_commdir.h"

struct bamboo_comm_sync {
    MPI_Comm comm;
    int rank, procs, ready_tag, arrived_tag;
    /* by rank: expecting its data (we told it to put), cleared to put to it (it told us) */
    char *expecting, *cleared;
    /* the same as lists, so that a group's end costs its peers, not the communicator's size */
    int *expecting_list, *cleared_list;
    int expected, clear;
    MPI_Request *requests; /* at most 2 per sender and 1 per receiver */
    int posted;
};

static void *allocated(size_t bytes, const char *file, int line)
{
    void *memory = calloc(bytes > 0 ? bytes : 1, 1);
    if (!memory) {
        fprintf(stderr, "%s:%d: error: cannot allocate %zu bytes for a comm directive's "
                "synchronization\n", file, line, bytes);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return memory;
}

struct bamboo_comm_sync *bamboo_comm_sync_new(MPI_Comm comm, int ready_tag, int arrived_tag,
                                              const char *file, int line)
{
    struct bamboo_comm_sync *s = allocated(sizeof *s, file, line);
    s->comm = comm;
    s->ready_tag = ready_tag;
    s->arrived_tag = arrived_tag;
    MPI_Comm_rank(comm, &s->rank);
    MPI_Comm_size(comm, &s->procs);
    size_t n = (size_t)s->procs;
    s->expecting = allocated(n, file, line);
    s->cleared = allocated(n, file, line);
    s->expecting_list = allocated(n * sizeof(int), file, line);
    s->cleared_list = allocated(n * sizeof(int), file, line);
    s->requests = allocated(3 * n * sizeof(MPI_Request), file, line);
    return s;
}

void bamboo_comm_sync_free(struct bamboo_comm_sync *s)
{
    free(s->expecting);
    free(s->cleared);
    free(s->expecting_list);
    free(s->cleared_list);
    free(s->requests);
    free(s);
}

/* Whether `rank` names a peer (MPI_PROC_NULL does not: nothing to synchronize with). */
static int peer(const struct bamboo_comm_sync *s, int rank, const char *role, const char *file,
                int line)
{
    if (rank == MPI_PROC_NULL)
        return 0;
    if (rank < 0 || rank >= s->procs) {
        fprintf(stderr, "%s:%d: error: %s(%d) on rank %d: there are %d ranks (0 to %d)\n", file,
                line, role, rank, s->rank, s->procs, s->procs - 1);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return 1;
}

void bamboo_comm_sync_expect(struct bamboo_comm_sync *s, int sender, const char *file, int line)
{
    if (!peer(s, sender, "sender", file, line) || s->expecting[sender])
        return;
    s->expecting[sender] = 1;
    s->expecting_list[s->expected++] = sender;
    MPI_Isend(NULL, 0, MPI_BYTE, sender, s->ready_tag, s->comm, &s->requests[s->posted++]);
    MPI_Irecv(NULL, 0, MPI_BYTE, sender, s->arrived_tag, s->comm, &s->requests[s->posted++]);
}

void bamboo_comm_sync_before_put(struct bamboo_comm_sync *s, int receiver, const char *file,
                                 int line)
{
    if (!peer(s, receiver, "receiver", file, line) || s->cleared[receiver])
        return;
    MPI_Recv(NULL, 0, MPI_BYTE, receiver, s->ready_tag, s->comm, MPI_STATUS_IGNORE);
    s->cleared[receiver] = 1;
    s->cleared_list[s->clear++] = receiver;
}

void bamboo_comm_sync_complete(struct bamboo_comm_sync *s, MPI_Win win, const char *file,
                               int line)
{
    (void)file, (void)line; /* MPI's reports use them under tasks (BAMBOO_AT) */
    if (s->clear > 0)
        MPI_Win_flush_all(win);
    for (int k = 0; k < s->clear; k++) {
        int receiver = s->cleared_list[k];
        s->cleared[receiver] = 0;
        MPI_Isend(NULL, 0, MPI_BYTE, receiver, s->arrived_tag, s->comm, &s->requests[s->posted++]);
    }
    for (int k = 0; k < s->expected; k++)
        s->expecting[s->expecting_list[k]] = 0;
    /* MPICH's MPI_STATUSES_IGNORE is the address 1, which GCC takes for an array of size 0 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
    MPI_Waitall(s->posted, s->requests, MPI_STATUSES_IGNORE);
#pragma GCC diagnostic pop
    s->posted = s->clear = s->expected = 0;
    /* what other processes put here is read after their messages said it is there */
    MPI_Win_sync(win);
}
