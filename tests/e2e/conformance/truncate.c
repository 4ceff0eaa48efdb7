/* Truncated messages under MPI_ERRORS_RETURN: a message longer than its receive buffer fills
 * the buffer with its first elements and the receive returns MPI_ERR_TRUNCATE (MPI 3.2.4);
 * its send completes as usual, and the program goes on.
 *   completing calls  MPI_Recv, MPI_Wait (receive posted before the message came), MPI_Test,
 *                     MPI_Sendrecv; MPI_Waitall, MPI_Testall and MPI_Waitsome with one truncated
 *                     receive among several return MPI_ERR_IN_STATUS, each status's MPI_ERROR
 *                     set (MPI_SUCCESS for the others)
 *   sizes and paths   small messages, sent, synchronous and posted first; 200 KB messages
 *                     (beyond the runtime's eager size, so between processes as a separate
 *                     payload, and for synchronous sends announced and pulled)
 *   datatypes         a strided receive datatype truncating a contiguous message (its gaps
 *                     stay untouched), also at 200 KB; a strided send datatype into a shorter
 *                     contiguous buffer
 *   handlers          a user handler on a duplicate of MPI_COMM_WORLD, called by MPI_Recv and by
 *                     MPI_Wait with the receive's communicator
 * Each rank sends to its right neighbour in a ring and receives from its left one; after each
 * case a message of the right size goes around the ring to show the job goes on. The count
 * printed is MPI_Get_count's, which is the whole message's for Open MPI. The MPI_ERROR field of
 * single-completion calls is not printed: MPI leaves it unset. Past the end of a buffer, small
 * messages must leave it as it was; large ones are not checked there, as MPI says nothing of it
 * and Open MPI writes there. */
#include "conformance.h"

#define SMALL 8
#define LARGE (200 * 1024 / (int)sizeof(int))
#define SENTINEL -7

static const char *class_name(int code)
{
    int c;
    MPI_Error_class(code, &c);
    switch (c) {
    case MPI_SUCCESS: return "MPI_SUCCESS";
    case MPI_ERR_TRUNCATE: return "MPI_ERR_TRUNCATE";
    case MPI_ERR_IN_STATUS: return "MPI_ERR_IN_STATUS";
    default: return "another class";
    }
}

static int rank, size, left, right;

static void fill(int *v, int n, int from, int salt)
{
    for (int i = 0; i < n; i++)
        v[i] = value_of(from, i, salt);
}

static void clear(int *v, int n)
{
    for (int i = 0; i < n; i++)
        v[i] = SENTINEL;
}

/* The receive's class, count (in `type`) and data, printed; checked against `want_code` and
 * the `n` ints of `want`. */
static int check_receive(const char *what, int code, int want_code, MPI_Status *status, MPI_Datatype type,
                         const int *got, const int *want, int n)
{
    int count;
    MPI_Get_count(status, type, &count);
    say("rank %d %s: %s count %d data %08x", rank, what, class_name(code), count,
        (unsigned)hash_ints(HASH_INIT, got, (size_t)n));
    return expect(code == want_code, "rank %d %s: %s, want %s", rank, what, class_name(code), class_name(want_code)) +
           check_ints(what, got, want, (size_t)n);
}

/* The same for a receive of ints: `keep` ints of the left neighbour's values (salt) at every
 * `stride`-th int of `got`, sentinels elsewhere in its `n` ints. */
static int report(const char *what, int code, int want_code, MPI_Status *status, const int *got, int n, int keep,
                  int stride, int salt)
{
    int *want = malloc((size_t)n * sizeof *want);
    for (int i = 0; i < n; i++)
        want[i] = i % stride == 0 && i / stride < keep ? value_of(left, i / stride, salt) : SENTINEL;
    int bad = check_receive(what, code, want_code, status, MPI_INT, got, want, n);
    free(want);
    return bad;
}

/* A send's completion: MPI_SUCCESS whatever its receive did. */
static int sent(const char *what, MPI_Request *request)
{
    int code = MPI_Wait(request, MPI_STATUS_IGNORE);
    return expect(code == MPI_SUCCESS, "rank %d %s: the send returned %s", rank, what, class_name(code));
}

/* A message of the right size goes around the ring: the job goes on. */
static int ring(const char *after, MPI_Comm comm)
{
    int mine = value_of(rank, 0, 99), got = SENTINEL;
    int code = MPI_Sendrecv(&mine, 1, MPI_INT, right, 99, &got, 1, MPI_INT, left, 99, comm, MPI_STATUS_IGNORE);
    return expect(code == MPI_SUCCESS && got == value_of(left, 0, 99), "rank %d after %s: ring message %d (%s)",
                  rank, after, got, class_name(code));
}

/* A case's end: its truncated receive of ints reported (see report), its send complete, and
 * a message around the ring. */
static int finish(const char *what, int code, MPI_Status *status, const int *got, int n, int keep, int stride,
                  int salt, MPI_Request *send, MPI_Comm comm)
{
    return report(what, code, MPI_ERR_TRUNCATE, status, got, n, keep, stride, salt) + sent(what, send) +
           ring(what, comm);
}

static int handler_calls, handler_code;
static MPI_Comm handler_comm;

static void count_errors(MPI_Comm *comm, int *code, ...)
{
    handler_calls++;
    handler_code = *code;
    handler_comm = *comm;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    left = (rank + size - 1) % size;
    right = (rank + 1) % size;
    int bad = 0, code, out[SMALL], got[SMALL];
    int *big_out = malloc(LARGE * sizeof(int)), *big_got = malloc(LARGE * sizeof(int));
    MPI_Request send, receive, requests[3];
    MPI_Status status, statuses[3];

    /* MPI_Recv: 4 ints into 2. */
    fill(out, 4, rank, 1);
    clear(got, SMALL);
    MPI_Isend(out, 4, MPI_INT, right, 1, MPI_COMM_WORLD, &send);
    code = MPI_Recv(got, 2, MPI_INT, left, 1, MPI_COMM_WORLD, &status);
    bad += finish("recv", code, &status, got, SMALL, 2, 1, 1, &send, MPI_COMM_WORLD);

    /* MPI_Wait of a receive posted before its message: 5 ints into 3. */
    fill(out, 5, rank, 2);
    clear(got, SMALL);
    MPI_Irecv(got, 3, MPI_INT, left, 2, MPI_COMM_WORLD, &receive);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Isend(out, 5, MPI_INT, right, 2, MPI_COMM_WORLD, &send);
    code = MPI_Wait(&receive, &status);
    bad += expect(receive == MPI_REQUEST_NULL, "rank %d wait: the request is not freed", rank);
    bad += finish("wait", code, &status, got, SMALL, 3, 1, 2, &send, MPI_COMM_WORLD);

    /* MPI_Test until done: 3 ints into 1, sent synchronously (the send still completes). */
    fill(out, 3, rank, 3);
    clear(got, SMALL);
    MPI_Issend(out, 3, MPI_INT, right, 3, MPI_COMM_WORLD, &send);
    MPI_Irecv(got, 1, MPI_INT, left, 3, MPI_COMM_WORLD, &receive);
    int flag = 0;
    code = MPI_SUCCESS;
    while (!flag)
        code = MPI_Test(&receive, &flag, &status);
    bad += finish("test", code, &status, got, SMALL, 1, 1, 3, &send, MPI_COMM_WORLD);

    /* MPI_Sendrecv: 6 ints into 4. */
    fill(out, 6, rank, 4);
    clear(got, SMALL);
    code = MPI_Sendrecv(out, 6, MPI_INT, right, 4, got, 4, MPI_INT, left, 4, MPI_COMM_WORLD, &status);
    bad += report("sendrecv", code, MPI_ERR_TRUNCATE, &status, got, SMALL, 4, 1, 4);
    bad += ring("sendrecv", MPI_COMM_WORLD);

    /* Multiple completion: the second of three receives truncated (tags 5, 6, 7: 2, 4 and 1
     * ints into 2 each), its message sent last. Open MPI's MPI_Waitall returns as soon as a
     * request fails, leaving those not yet complete active (MPI_ERR_PENDING, as MPI allows);
     * the runtime waits for all of them. Messages from one sender match in order, so the
     * failing one completing last makes the two agree. */
    const char *calls[3] = {"waitall", "testall", "waitsome"};
    for (int c = 0; c < 3; c++) {
        int parts[3][2], outs[3][4], lengths[3] = {2, 4, 1};
        MPI_Request sends[3];
        for (int k = 0; k < 3; k++) {
            fill(outs[k], lengths[k], rank, 5 + k);
            clear(parts[k], 2);
            MPI_Irecv(parts[k], 2, MPI_INT, left, 5 + k, MPI_COMM_WORLD, &requests[k]);
            statuses[k].MPI_ERROR = -1;
        }
        for (int j = 0; j < 3; j++) {
            int k = (int[]){0, 2, 1}[j];
            MPI_Isend(outs[k], lengths[k], MPI_INT, right, 5 + k, MPI_COMM_WORLD, &sends[k]);
        }
        if (c == 0) {
            code = MPI_Waitall(3, requests, statuses);
        } else if (c == 1) {
            flag = 0;
            while (!flag)
                code = MPI_Testall(3, requests, &flag, statuses);
        } else {
            /* Until the truncated one is among the completed: only that call returns the error. */
            int outcount = 0, indices[3], done = 0;
            code = MPI_SUCCESS;
            while (done < 3) {
                MPI_Status some[3];
                /* Set by the call only when it returns MPI_ERR_IN_STATUS. */
                for (int k = 0; k < 3; k++)
                    some[k].MPI_ERROR = MPI_SUCCESS;
                int c2 = MPI_Waitsome(3, requests, &outcount, indices, some);
                for (int k = 0; k < outcount; k++) {
                    statuses[indices[k]] = some[k];
                    if (indices[k] == 1)
                        code = c2;
                    else
                        bad += expect(c2 == MPI_SUCCESS || c2 == MPI_ERR_IN_STATUS, "rank %d waitsome: %s", rank,
                                      class_name(c2));
                }
                done += outcount;
            }
        }
        say("rank %d %s: %s errors %s %s %s", rank, calls[c], class_name(code), class_name(statuses[0].MPI_ERROR),
            class_name(statuses[1].MPI_ERROR), class_name(statuses[2].MPI_ERROR));
        bad += expect(code == MPI_ERR_IN_STATUS, "rank %d %s: %s, want MPI_ERR_IN_STATUS", rank, calls[c],
                      class_name(code));
        bad += expect(statuses[0].MPI_ERROR == MPI_SUCCESS && statuses[1].MPI_ERROR != MPI_SUCCESS &&
                          statuses[2].MPI_ERROR == MPI_SUCCESS, "rank %d %s: the statuses' errors", rank, calls[c]);
        for (int k = 0; k < 3; k++) {
            char what[32];
            snprintf(what, sizeof what, "%s %d", calls[c], k);
            bad += report(what, statuses[k].MPI_ERROR, k == 1 ? MPI_ERR_TRUNCATE : MPI_SUCCESS, &statuses[k], parts[k],
                          2, lengths[k] < 2 ? lengths[k] : 2, 1, 5 + k);
            bad += sent(what, &sends[k]);
        }
        bad += ring(calls[c], MPI_COMM_WORLD);
    }

    /* 200 KB into 100 KB: received after it came, posted before, and sent synchronously
     * (announced and pulled between processes). */
    const char *large[3] = {"large", "large posted", "large synchronous"};
    for (int c = 0; c < 3; c++) {
        fill(big_out, LARGE, rank, 10 + c);
        clear(big_got, LARGE);
        if (c == 1) {
            MPI_Irecv(big_got, LARGE / 2, MPI_INT, left, 10 + c, MPI_COMM_WORLD, &receive);
            MPI_Barrier(MPI_COMM_WORLD);
        }
        if (c == 2)
            MPI_Issend(big_out, LARGE, MPI_INT, right, 10 + c, MPI_COMM_WORLD, &send);
        else
            MPI_Isend(big_out, LARGE, MPI_INT, right, 10 + c, MPI_COMM_WORLD, &send);
        if (c == 1)
            code = MPI_Wait(&receive, &status);
        else
            code = MPI_Recv(big_got, LARGE / 2, MPI_INT, left, 10 + c, MPI_COMM_WORLD, &status);
        /* Only the buffer: Open MPI's transfers of large messages between processes write past it. */
        bad += finish(large[c], code, &status, big_got, LARGE / 2, LARGE / 2, 1, 10 + c, &send, MPI_COMM_WORLD);
    }

    /* A strided receive datatype (ints 0 and 2 of every 3): 6 ints into 2 elements; then 200 KB
     * into as many ints spread out over the whole buffer, sent synchronously. */
    MPI_Datatype strided;
    MPI_Type_vector(2, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    fill(out, 6, rank, 20);
    clear(got, SMALL);
    MPI_Isend(out, 6, MPI_INT, right, 20, MPI_COMM_WORLD, &send);
    code = MPI_Recv(got, 2, strided, left, 20, MPI_COMM_WORLD, &status);
    {
        /* ints 0, 2, 3, 5 of the buffer hold the first 4 ints sent */
        int want[SMALL] = {value_of(left, 0, 20), SENTINEL, value_of(left, 1, 20), value_of(left, 2, 20), SENTINEL,
                           value_of(left, 3, 20), SENTINEL, SENTINEL};
        bad += check_receive("strided receive", code, MPI_ERR_TRUNCATE, &status, strided, got, want, SMALL);
    }
    bad += sent("strided receive", &send);
    bad += ring("strided receive", MPI_COMM_WORLD);

    MPI_Datatype spread;  /* an int with a gap of one after it */
    MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &spread);
    MPI_Type_commit(&spread);
    fill(big_out, LARGE, rank, 21);
    clear(big_got, LARGE);
    MPI_Issend(big_out, LARGE, MPI_INT, right, 21, MPI_COMM_WORLD, &send);
    code = MPI_Recv(big_got, LARGE / 2, spread, left, 21, MPI_COMM_WORLD, &status);
    bad += finish("large strided receive", code, &status, big_got, LARGE, LARGE / 2, 2, 21, &send, MPI_COMM_WORLD);
    MPI_Type_free(&spread);

    /* A strided send datatype (3 elements: 6 ints) into 4 contiguous ints. */
    int strided_out[9];
    fill(strided_out, 9, rank, 0);
    clear(got, SMALL);
    MPI_Isend(strided_out, 3, strided, right, 22, MPI_COMM_WORLD, &send);
    code = MPI_Recv(got, 4, MPI_INT, left, 22, MPI_COMM_WORLD, &status);
    {
        int want[SMALL] = {value_of(left, 0, 0), value_of(left, 2, 0), value_of(left, 3, 0), value_of(left, 5, 0),
                           SENTINEL, SENTINEL, SENTINEL, SENTINEL};
        bad += check_receive("strided send", code, MPI_ERR_TRUNCATE, &status, MPI_INT, got, want, SMALL);
    }
    bad += sent("strided send", &send);
    bad += ring("strided send", MPI_COMM_WORLD);
    MPI_Type_free(&strided);

    /* A user handler: called with the receive's communicator and MPI_ERR_TRUNCATE by MPI_Recv
     * and by MPI_Wait (whose own call names no communicator). */
    MPI_Comm dup;
    MPI_Errhandler counter;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_create_errhandler(count_errors, &counter);
    MPI_Comm_set_errhandler(dup, counter);
    MPI_Errhandler_free(&counter);
    for (int c = 0; c < 2; c++) {
        const char *what = c == 0 ? "handler recv" : "handler wait";
        fill(out, 2, rank, 30 + c);
        clear(got, SMALL);
        MPI_Isend(out, 2, MPI_INT, right, 30 + c, dup, &send);
        if (c == 0) {
            code = MPI_Recv(got, 1, MPI_INT, left, 30 + c, dup, &status);
        } else {
            MPI_Irecv(got, 1, MPI_INT, left, 30 + c, dup, &receive);
            code = MPI_Wait(&receive, &status);
        }
        int c2;
        MPI_Error_class(handler_code, &c2);
        say("rank %d %s: %s, handler calls %d, code %s, on the duplicate %d", rank, what, class_name(code),
            handler_calls, class_name(handler_code), handler_comm == dup);
        bad += expect(handler_calls == c + 1 && c2 == MPI_ERR_TRUNCATE && handler_comm == dup,
                      "rank %d %s: the handler was not called as it should be", rank, what);
        bad += finish(what, code, &status, got, SMALL, 1, 1, 30 + c, &send, dup);
    }
    MPI_Comm_free(&dup);

    free(big_out);
    free(big_got);
    int failures = report_failures(rank, bad);
    MPI_Finalize();
    return failures;
}
