/* Point-to-point synchronization of the comm directives' SHMEM target, in place of the two
 * shmem_barrier_all of every region (docs/comm-directives.md): each PE signals only the PEs it
 * put to, and waits only for the PEs it receives from (seed 003's consolidated, relaxed
 * synchronization).
 *
 * Two counters per pair of PEs, in symmetric memory, that only grow:
 *   arrived[s]   at PE r: transfers PE s completed to r (s writes its count after its quiet);
 *   let_go[r]    at PE s: transfers from s that r is done with (r writes its count when it
 *                starts its next region: it has read them by then).
 * Each slot has one writer, the PE it is named after, which writes the whole count with a
 * plain put: no atomic, no round trip (a fetching atomic per peer cost one each).
 * A receiver waits at the group's end until arrived[s] has reached what it expects from each
 * sender (one transfer per execution of a comm_p2p whose receivewhen holds); a sender waits,
 * before putting to r again, until r has let go of everything it sent r before, which is what
 * the barrier at the region's start was for. */
#define _POSIX_C_SOURCE 200112L   /* timers and sigaction under -std=c11 */

#include <shmem.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "bamboo_commdir.h"

static long *arrived, *let_go;    /* symmetric, one slot per PE */
/* Private, one slot per PE: transfers to r signalled (sent) and in the open group
 * (sending); transfers from s waited for (expected) and in the open group (expecting);
 * arrivals from s already let go (released). */
static long *sent, *sending, *expected, *expecting, *released;
static int *to_signal, *to_wait;  /* the PEs with sending or expecting above 0 */
static int signals, waits, me, pes;

void bamboo_comm_shmem_sync_init(void)
{
    pes = shmem_n_pes();
    me = shmem_my_pe();
    arrived = shmem_calloc((size_t)pes, sizeof(long));   /* collective, as shmem_init */
    let_go = shmem_calloc((size_t)pes, sizeof(long));
    long *private_counts = calloc((size_t)pes * 5, sizeof(long));
    int *lists = calloc((size_t)pes * 2, sizeof(int));
    if (!arrived || !let_go || !private_counts || !lists) {
        fprintf(stderr, "bamboo: PE %d: no memory for the comm directives' counters\n", me);
        shmem_global_exit(1);
    }
    sent = private_counts;
    sending = sent + pes;
    expected = sending + pes;
    expecting = expected + pes;
    released = expecting + pes;
    to_signal = lists;
    to_wait = lists + pes;
}

void bamboo_comm_shmem_sync_end(void)
{
    shmem_free(arrived);
    shmem_free(let_go);
    free(sent);
    free(to_signal);
    arrived = let_go = NULL;
}

/* A wait's report, written by the watch's signal handler if the wait lasts too long: made
 * before the wait, since a handler may only write. */
static char report[512];
static size_t report_length;
static timer_t watch;
static int watch_made;

static void on_watch(int signal)
{
    (void)signal;
    ssize_t written = write(STDERR_FILENO, report, report_length);
    (void)written;
    _exit(1);   /* oshrun then ends the other PEs */
}

static void arm_watch(double seconds)
{
    if (!watch_made) {
        struct sigaction action = {0};
        action.sa_handler = on_watch;
        sigemptyset(&action.sa_mask);
        struct sigevent event = {0};
        event.sigev_notify = SIGEV_SIGNAL;
        event.sigev_signo = SIGRTMIN + 3;
        if (sigaction(SIGRTMIN + 3, &action, NULL) != 0 ||
            timer_create(CLOCK_MONOTONIC, &event, &watch) != 0)
            return;   /* no watch: the wait is only unreported */
        watch_made = 1;
    }
    struct itimerspec when = {0};
    when.it_value.tv_sec = (time_t)seconds;
    when.it_value.tv_nsec = (long)((seconds - (double)(time_t)seconds) * 1e9);
    timer_settime(watch, 0, &when, NULL);
}

static void disarm_watch(void)
{
    struct itimerspec never = {0};
    if (watch_made)
        timer_settime(watch, 0, &never, NULL);
}

/* Waits until *counter >= value. With shmem_long_wait_until, which drives the library's
 * progress while it waits: puts into a PE's static data (not its symmetric heap) complete
 * only as that PE progresses (Open MPI 4.1's UCX layer over shared memory here), and
 * shmem_long_test does not progress. Past BAMBOO_DEADLOCK_TIMEOUT seconds (default 300:
 * one PE cannot tell a deadlock from a peer's long computation) a watch reports what it
 * waits for and ends the job. */
static void wait_at_least(long *counter, long value, const char *what, int pe, const char *file,
                          int line)
{
    if (shmem_long_test(counter, SHMEM_CMP_GE, value))
        return;
    const char *setting = getenv("BAMBOO_DEADLOCK_TIMEOUT");
    double limit = setting ? atof(setting) : 300.0;
    int n = snprintf(report, sizeof report, "%s:%d: error: PE %d waited %.0f s for %s PE %d "
                     "(%ld of %ld transfers when it began): check the sender, receiver and "
                     "receivewhen clauses\n", file, line, me, limit, what, pe, *counter, value);
    report_length = n < 0 ? 0 : (size_t)n < sizeof report ? (size_t)n : sizeof report - 1;
    if (limit > 0)
        arm_watch(limit);
    shmem_long_wait_until(counter, SHMEM_CMP_GE, value);
    disarm_watch();
}

void bamboo_comm_shmem_start(const char *file, int line)
{
    bamboo_comm_shmem_ready(file, line);
    for (int s = 0; s < pes; s++) {   /* let go of what has arrived: it has been read */
        long now = arrived[s];
        if (now > released[s]) {
            shmem_long_p(&let_go[me], now, s);
            released[s] = now;
        }
    }
}

static void check_pe(int pe, const char *clause, const char *file, int line)
{
    if (pe < 0 || pe >= pes) {
        fprintf(stderr, "%s:%d: error: %s(%d) on PE %d: there are %d PEs (0 to %d)\n", file, line,
                clause, pe, me, pes, pes - 1);
        shmem_global_exit(1);
    }
}

void bamboo_comm_shmem_before_put(int pe, const char *file, int line)
{
    check_pe(pe, "receiver", file, line);
    if (sending[pe] == 0)   /* the group's first to pe: pe must be done with what came before */
        wait_at_least(&let_go[pe], sent[pe], "PE to be done with what it received from this",
                      pe, file, line);
}

void bamboo_comm_shmem_sent(int pe, const void *symmetric)
{
    bamboo_shmem_moved(pe, symmetric);
    if (sending[pe]++ == 0)
        to_signal[signals++] = pe;
}

void bamboo_comm_shmem_expect(int pe, const char *file, int line)
{
    check_pe(pe, "sender", file, line);
    if (expecting[pe]++ == 0)
        to_wait[waits++] = pe;
}

void bamboo_comm_shmem_complete(const char *file, int line)
{
    bamboo_shmem_quiet();   /* the puts are done at their targets before they are signalled */
    for (int i = 0; i < signals; i++) {
        int r = to_signal[i];
        sent[r] += sending[r];
        sending[r] = 0;
        shmem_long_p(&arrived[me], sent[r], r);
    }
    signals = 0;
    for (int i = 0; i < waits; i++) {
        int s = to_wait[i];
        expected[s] += expecting[s];
        expecting[s] = 0;
        wait_at_least(&arrived[s], expected[s], "the transfers from", s, file, line);
    }
    waits = 0;
}
