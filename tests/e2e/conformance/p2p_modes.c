/* Point-to-point beyond the standard send: send modes, persistent requests, and the
 * completion calls that take some of many requests.
 *   MPI_Ssend, MPI_Issend  complete only once a receive has matched them: an Issend whose
 *                          receive is held back until after 2000 MPI_Tests never tests
 *                          complete; a ring of MPI_Ssends ordered so it cannot deadlock
 *   MPI_Rsend, MPI_Irsend  to receives posted before a barrier
 *   MPI_Bsend, MPI_Ibsend, MPI_Buffer_attach / MPI_Buffer_detach
 *                          several buffered messages sent before any receive is posted;
 *                          detach gives back the attached buffer and size
 *   persistent requests    MPI_Send_init / MPI_Recv_init halo loop with MPI_Startall and
 *                          MPI_Waitall (the buffers are read anew at every start), an
 *                          inactive request waited on (empty status), MPI_Ssend_init,
 *                          MPI_Bsend_init, MPI_Rsend_init with MPI_Start and MPI_Wait,
 *                          MPI_Request_free of inactive requests
 *   MPI_Testany, MPI_Waitsome, MPI_Testsome, MPI_Request_get_status
 *                          receives from every other rank, taken as they complete
 *   MPI_Request_free       of an MPI_Isend still in progress: its message arrives
 *   matched probes         MPI_Mprobe takes a later tag before an earlier one and sizes the
 *                          buffer from its status; a matched message is not the one a later
 *                          receive of the same source and tag takes; MPI_Improbe polled, then
 *                          MPI_Imrecv; MPI_ANY_SOURCE from every rank; MPI_MESSAGE_NO_PROC
 *   MPI_Sendrecv_replace   a ring shift of a contiguous buffer and of a strided vector
 *                          (the gaps keep their values), and one with MPI_PROC_NULL
 *   MPI_Cancel             of a receive nothing will match: the wait returns, and
 *                          MPI_Test_cancelled says so; of a receive already matched:
 *                          not cancelled
 * Every line is printed by the rank it names; counts and checksums of what arrived. */
#include "conformance.h"

#define WORLD MPI_COMM_WORLD
#define HALO 5
#define STEPS 4

static int synchronous_sends(int rank, int size)
{
    int bad = 0;
    if (size < 2) {
        say("rank %d: ssend skipped (one rank)", rank);
        return 0;
    }
    /* Rank 0 holds an Issend to rank 1 that rank 1 receives only after a later message. */
    if (rank == 0) {
        int data = 42, go = 1, flag = 0, polls;
        MPI_Request request;
        MPI_Issend(&data, 1, MPI_INT, 1, 7, WORLD, &request);
        for (polls = 0; polls < 2000 && !flag; polls++)
            MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
        bad += expect(!flag, "issend completed before its receive was posted");
        say("rank 0: issend unmatched after polls: %s", flag ? "complete" : "pending");
        MPI_Send(&go, 1, MPI_INT, 1, 8, WORLD);
        if (!flag)
            MPI_Wait(&request, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        int go, data;
        MPI_Recv(&go, 1, MPI_INT, 0, 8, WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&data, 1, MPI_INT, 0, 7, WORLD, MPI_STATUS_IGNORE);
        bad += expect(data == 42, "issend data %d", data);
        say("rank 1: issend data %d", data);
    }
    /* A ring of Ssends: even ranks send first, odd ranks receive first (with an odd size,
     * rank 0 and the last rank both send first; rank 0's receive still comes in time). */
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out = value_of(rank, 0, 1), in = -1;
    if (rank % 2 == 0) {
        MPI_Ssend(&out, 1, MPI_INT, right, 9, WORLD);
        MPI_Recv(&in, 1, MPI_INT, left, 9, WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&in, 1, MPI_INT, left, 9, WORLD, MPI_STATUS_IGNORE);
        MPI_Ssend(&out, 1, MPI_INT, right, 9, WORLD);
    }
    bad += expect(in == value_of(left, 0, 1), "ssend ring got %d", in);
    say("rank %d: ssend ring from %d: %d", rank, left, in);
    return bad;
}

static int ready_sends(int rank, int size)
{
    int bad = 0, right = (rank + 1) % size, left = (rank + size - 1) % size;
    int in[2] = {-1, -1}, out = value_of(rank, 1, 2);
    MPI_Request requests[2];
    MPI_Irecv(&in[0], 1, MPI_INT, left, 11, WORLD, &requests[0]);
    MPI_Irecv(&in[1], 1, MPI_INT, left, 12, WORLD, &requests[1]);
    MPI_Barrier(WORLD);  /* every receive is posted before any ready send */
    MPI_Request sent;
    MPI_Rsend(&out, 1, MPI_INT, right, 11, WORLD);
    MPI_Irsend(&out, 1, MPI_INT, right, 12, WORLD, &sent);
    MPI_Wait(&sent, MPI_STATUS_IGNORE);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    bad += expect(in[0] == value_of(left, 1, 2) && in[1] == in[0], "rsend got %d %d", in[0], in[1]);
    say("rank %d: rsend from %d: %d %d", rank, left, in[0], in[1]);
    return bad;
}

static int buffered_sends(int rank, int size)
{
    enum { MESSAGES = 4, COUNT = 100 };
    int bad = 0, right = (rank + 1) % size, left = (rank + size - 1) % size;
    int packed, out[MESSAGES][COUNT], in[COUNT];
    MPI_Pack_size(COUNT, MPI_INT, WORLD, &packed);
    int attached_size = MESSAGES * (packed + MPI_BSEND_OVERHEAD);
    char *attached = malloc(attached_size);
    MPI_Buffer_attach(attached, attached_size);
    MPI_Request request;
    for (int m = 0; m < MESSAGES; m++) {
        for (int i = 0; i < COUNT; i++)
            out[m][i] = value_of(rank, i, m);
        if (m % 2)
            MPI_Bsend(out[m], COUNT, MPI_INT, right, 20 + m, WORLD);
        else {
            MPI_Ibsend(out[m], COUNT, MPI_INT, right, 20 + m, WORLD, &request);
            MPI_Wait(&request, MPI_STATUS_IGNORE);
        }
        out[m][0] = -1;  /* buffered: the send no longer needs our copy */
    }
    uint32_t h = HASH_INIT;
    for (int m = MESSAGES - 1; m >= 0; m--) {  /* in the opposite order: all were buffered */
        MPI_Recv(in, COUNT, MPI_INT, left, 20 + m, WORLD, MPI_STATUS_IGNORE);
        bad += expect(in[0] == value_of(left, 0, m), "bsend %d first element %d", m, in[0]);
        h = hash_ints(h, in, COUNT);
    }
    void *detached;
    int detached_size;
    MPI_Buffer_detach(&detached, &detached_size);
    bad += expect(detached == attached && detached_size == attached_size, "detach gave back %p %d",
                  detached, detached_size);
    free(attached);
    say("rank %d: bsend from %d: hash %08x", rank, left, h);
    return bad;
}

static int persistent_halo(int rank, int size)
{
    int bad = 0, right = (rank + 1) % size, left = (rank + size - 1) % size;
    int to_left[HALO], to_right[HALO], from_left[HALO], from_right[HALO];
    MPI_Request requests[4];
    MPI_Recv_init(from_left, HALO, MPI_INT, left, 30, WORLD, &requests[0]);
    MPI_Recv_init(from_right, HALO, MPI_INT, right, 31, WORLD, &requests[1]);
    MPI_Send_init(to_right, HALO, MPI_INT, right, 30, WORLD, &requests[2]);
    MPI_Send_init(to_left, HALO, MPI_INT, left, 31, WORLD, &requests[3]);
    uint32_t h = HASH_INIT;
    for (int step = 0; step < STEPS; step++) {
        for (int i = 0; i < HALO; i++) {
            to_right[i] = value_of(rank, i, step);
            to_left[i] = -value_of(rank, i, step);
        }
        MPI_Startall(4, requests);
        MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
        bad += expect(from_left[HALO - 1] == value_of(left, HALO - 1, step) &&
                      from_right[0] == -value_of(right, 0, step),
                      "halo step %d got %d %d", step, from_left[HALO - 1], from_right[0]);
        h = hash_ints(hash_ints(h, from_left, HALO), from_right, HALO);
    }
    /* Inactive now: a wait returns at once with an empty status, the handle kept. */
    MPI_Status status;
    MPI_Wait(&requests[0], &status);
    bad += expect(requests[0] != MPI_REQUEST_NULL && status.MPI_SOURCE == MPI_ANY_SOURCE &&
                  status.MPI_TAG == MPI_ANY_TAG, "wait on an inactive request");
    for (int i = 0; i < 4; i++)
        MPI_Request_free(&requests[i]);
    bad += expect(requests[0] == MPI_REQUEST_NULL, "request_free left the handle");
    say("rank %d: persistent halo: hash %08x", rank, h);
    return bad;
}

static int persistent_modes(int rank, int size)
{
    int bad = 0, right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out, in[3];
    int packed;
    MPI_Pack_size(1, MPI_INT, WORLD, &packed);
    int attached_size = 2 * (packed + MPI_BSEND_OVERHEAD);
    char *attached = malloc(attached_size);
    MPI_Buffer_attach(attached, attached_size);
    MPI_Request receives[3], sends[3];
    for (int k = 0; k < 3; k++)
        MPI_Recv_init(&in[k], 1, MPI_INT, left, 40 + k, WORLD, &receives[k]);
    MPI_Ssend_init(&out, 1, MPI_INT, right, 40, WORLD, &sends[0]);
    MPI_Bsend_init(&out, 1, MPI_INT, right, 41, WORLD, &sends[1]);
    MPI_Rsend_init(&out, 1, MPI_INT, right, 42, WORLD, &sends[2]);
    uint32_t h = HASH_INIT;
    for (int step = 0; step < 2; step++) {
        MPI_Startall(3, receives);
        MPI_Barrier(WORLD);  /* for the ready send */
        for (int k = 0; k < 3; k++) {
            out = value_of(rank, k, step);
            MPI_Start(&sends[k]);
            MPI_Wait(&sends[k], MPI_STATUS_IGNORE);
        }
        MPI_Waitall(3, receives, MPI_STATUSES_IGNORE);
        for (int k = 0; k < 3; k++)
            bad += expect(in[k] == value_of(left, k, step), "mode %d step %d got %d", k, step, in[k]);
        h = hash_ints(h, in, 3);
    }
    for (int k = 0; k < 3; k++) {
        MPI_Request_free(&receives[k]);
        MPI_Request_free(&sends[k]);
    }
    void *detached;
    int detached_size;
    MPI_Buffer_detach(&detached, &detached_size);
    free(attached);
    say("rank %d: persistent modes: hash %08x", rank, h);
    return bad;
}

/* Every rank sends one message to every other; the receiver takes them with `how`. */
static int some_of_many(int rank, int size, int how)
{
    int bad = 0, n = size - 1;
    int *in = calloc(size, sizeof *in), *indices = calloc(size, sizeof *indices);
    MPI_Request *requests = calloc(size, sizeof *requests);
    MPI_Status *statuses = calloc(size, sizeof *statuses);
    for (int i = 0; i < n; i++) {
        int peer = i < rank ? i : i + 1;
        MPI_Irecv(&in[i], 1, MPI_INT, peer, 50 + how, WORLD, &requests[i]);
    }
    for (int peer = 0; peer < size; peer++) {
        int out = value_of(rank, peer, how);
        if (peer != rank)
            MPI_Send(&out, 1, MPI_INT, peer, 50 + how, WORLD);
    }
    int done = 0, calls = 0, sources = 0;
    while (done < n) {
        int outcount = 0, index, flag;
        calls++;
        if (how == 0) {
            MPI_Testany(n, requests, &index, &flag, &statuses[0]);
            if (flag && index != MPI_UNDEFINED) {
                outcount = 1;
                indices[0] = index;
            }
        } else if (how == 1) {
            MPI_Waitsome(n, requests, &outcount, indices, statuses);
        } else if (how == 2) {
            MPI_Testsome(n, requests, &outcount, indices, statuses);
        } else {
            index = done;  /* in order, by polling the status without freeing */
            MPI_Request_get_status(requests[index], &flag, &statuses[0]);
            if (flag) {
                MPI_Wait(&requests[index], MPI_STATUS_IGNORE);
                outcount = 1;
                indices[0] = index;
            }
        }
        for (int k = 0; k < outcount; k++) {
            int i = indices[k], peer = i < rank ? i : i + 1;
            bad += expect(requests[i] == MPI_REQUEST_NULL, "request %d not freed", i);
            bad += expect(in[i] == value_of(peer, rank, how), "from %d got %d", peer, in[i]);
            bad += expect(statuses[k].MPI_SOURCE == peer, "status source %d, want %d",
                          statuses[k].MPI_SOURCE, peer);
            sources += peer;
        }
        done += outcount;
    }
    /* All are null now: "none active" answers. */
    if (n > 0) {
        int outcount, index, flag;
        MPI_Waitsome(n, requests, &outcount, indices, statuses);
        bad += expect(outcount == MPI_UNDEFINED, "waitsome on null requests gave %d", outcount);
        MPI_Testany(n, requests, &index, &flag, MPI_STATUS_IGNORE);
        bad += expect(flag && index == MPI_UNDEFINED, "testany on null requests gave %d %d", flag, index);
    }
    const char *names[] = {"testany", "waitsome", "testsome", "request_get_status"};
    say("rank %d: %s took %d messages, sources sum %d", rank, names[how], done, sources);
    free(in);
    free(indices);
    free(requests);
    free(statuses);
    return bad;
}

static int freed_and_cancelled(int rank, int size)
{
    int bad = 0, right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out = value_of(rank, 3, 3), in = -1, from_left = -1;
    MPI_Request request;
    MPI_Isend(&out, 1, MPI_INT, right, 60, WORLD, &request);
    MPI_Request_free(&request);
    bad += expect(request == MPI_REQUEST_NULL, "request_free of an active send left the handle");
    MPI_Recv(&from_left, 1, MPI_INT, left, 60, WORLD, MPI_STATUS_IGNORE);
    bad += expect(from_left == value_of(left, 3, 3), "freed isend delivered %d", from_left);
    MPI_Barrier(WORLD);  /* the freed send's buffer is ours again once its receiver has it */

    /* Nothing is ever sent with tag 61. */
    int flag = -1;
    MPI_Status status;
    MPI_Irecv(&in, 1, MPI_INT, MPI_ANY_SOURCE, 61, WORLD, &request);
    MPI_Cancel(&request);
    MPI_Wait(&request, &status);
    MPI_Test_cancelled(&status, &flag);
    bad += expect(flag == 1, "unmatched receive not cancelled");

    /* A receive that has its message: the cancel comes too late. */
    MPI_Irecv(&in, 1, MPI_INT, rank, 62, WORLD, &request);
    MPI_Send(&out, 1, MPI_INT, rank, 62, WORLD);
    MPI_Status matched;
    int done = 0;
    while (!done)
        MPI_Request_get_status(request, &done, MPI_STATUS_IGNORE);
    MPI_Cancel(&request);
    MPI_Wait(&request, &matched);
    int late = -1;
    MPI_Test_cancelled(&matched, &late);
    bad += expect(late == 0 && in == out, "matched receive cancelled (%d) or wrong (%d)", late, in);
    say("rank %d: freed isend from %d: %d; cancelled %d, too late %d", rank, left, from_left, flag, late);
    return bad;
}

static int sendrecv_replace(int rank, int size)
{
    int bad = 0, right = (rank + 1) % size, left = (rank + size - 1) % size;
    int ring[3] = {rank, rank * 10, rank * 100};
    MPI_Status status;
    MPI_Sendrecv_replace(ring, 3, MPI_INT, right, 7, left, 7, WORLD, &status);
    bad += expect(ring[0] == left && ring[1] == left * 10 && ring[2] == left * 100, "ring %d %d %d", ring[0],
                  ring[1], ring[2]);
    bad += expect(status.MPI_SOURCE == left && status.MPI_TAG == 7, "status %d %d", status.MPI_SOURCE,
                  status.MPI_TAG);
    /* every other element of 8 travels; the gaps stay */
    int strided[8];
    for (int i = 0; i < 8; i++)
        strided[i] = rank * 1000 + i;
    MPI_Datatype every_other;
    MPI_Type_vector(4, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    MPI_Sendrecv_replace(strided, 1, every_other, left, 8, right, 8, WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < 8; i++)
        bad += expect(strided[i] == (i % 2 ? rank : right) * 1000 + i, "strided %d holds %d", i, strided[i]);
    MPI_Type_free(&every_other);
    int alone = rank;
    MPI_Sendrecv_replace(&alone, 1, MPI_INT, MPI_PROC_NULL, 9, MPI_PROC_NULL, 9, WORLD, &status);
    bad += expect(alone == rank && status.MPI_SOURCE == MPI_PROC_NULL, "MPI_PROC_NULL gave %d", alone);
    say("sendrecv_replace rank %d: ring %d %d %d strided %d %d %d", rank, ring[0], ring[1], ring[2], strided[0],
        strided[1], strided[6]);
    return bad;
}

static int matched_probes(int rank, int size)
{
    int bad = 0, right = (rank + 1) % size, left = (rank + size - 1) % size;
    int small = rank, big[5] = {rank, rank + 1, rank + 2, rank + 3, rank + 4}, first = rank * 10, second = rank * 10 + 1;
    MPI_Request sends[5];
    MPI_Isend(&small, 1, MPI_INT, right, 1, WORLD, &sends[0]);
    MPI_Isend(big, 5, MPI_INT, right, 2, WORLD, &sends[1]);
    MPI_Isend(&first, 1, MPI_INT, right, 3, WORLD, &sends[2]);
    MPI_Isend(&second, 1, MPI_INT, right, 3, WORLD, &sends[3]);
    MPI_Isend(&rank, 1, MPI_INT, 0, 4, WORLD, &sends[4]);

    MPI_Message message;
    MPI_Status status;
    int count = -1, got[5] = {0};
    MPI_Mprobe(left, 2, WORLD, &message, &status);
    MPI_Get_count(&status, MPI_INT, &count);
    MPI_Mrecv(got, count, MPI_INT, &message, &status);
    bad += expect(count == 5 && got[4] == left + 4 && message == MPI_MESSAGE_NULL, "tag 2: %d ints, last %d", count,
                  got[4]);

    int matched = -1, later = -1, flag = 0;
    MPI_Mprobe(left, 3, WORLD, &message, MPI_STATUS_IGNORE);
    MPI_Recv(&later, 1, MPI_INT, left, 3, WORLD, MPI_STATUS_IGNORE);
    MPI_Mrecv(&matched, 1, MPI_INT, &message, MPI_STATUS_IGNORE);
    bad += expect(matched == left * 10 && later == left * 10 + 1, "tag 3: matched %d, later %d", matched, later);

    MPI_Request request;
    while (!flag)
        MPI_Improbe(left, 1, WORLD, &flag, &message, &status);
    MPI_Imrecv(&got[0], 1, MPI_INT, &message, &request);
    MPI_Wait(&request, &status);
    bad += expect(got[0] == left && status.MPI_SOURCE == left && status.MPI_TAG == 1, "tag 1: %d from %d", got[0],
                  status.MPI_SOURCE);

    int sum = 0;
    if (rank == 0)
        for (int i = 0; i < size; i++) {
            int value = -1;
            MPI_Mprobe(MPI_ANY_SOURCE, 4, WORLD, &message, &status);
            MPI_Mrecv(&value, 1, MPI_INT, &message, MPI_STATUS_IGNORE);
            bad += expect(value == status.MPI_SOURCE, "value %d from %d", value, status.MPI_SOURCE);
            sum += value;
        }
    MPI_Waitall(5, sends, MPI_STATUSES_IGNORE);

    MPI_Mprobe(MPI_PROC_NULL, 0, WORLD, &message, &status);
    bad += expect(message == MPI_MESSAGE_NO_PROC && status.MPI_SOURCE == MPI_PROC_NULL, "no proc");
    MPI_Mrecv(NULL, 0, MPI_INT, &message, &status);
    bad += expect(message == MPI_MESSAGE_NULL && status.MPI_SOURCE == MPI_PROC_NULL, "no proc received");
    say("matched probes rank %d: tag 2 last %d, tag 3 %d then %d, tag 1 %d, sum %d", rank, got[4], matched, later,
        got[0], sum);
    return bad;
}

int main(int argc, char **argv)
{
    int rank, size, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(WORLD, &rank);
    MPI_Comm_size(WORLD, &size);
    bad += synchronous_sends(rank, size);
    bad += ready_sends(rank, size);
    bad += buffered_sends(rank, size);
    bad += persistent_halo(rank, size);
    bad += persistent_modes(rank, size);
    for (int how = 0; how < 4; how++)
        bad += some_of_many(rank, size, how);
    bad += freed_and_cancelled(rank, size);
    bad += sendrecv_replace(rank, size);
    bad += matched_probes(rank, size);
    int status = report_failures(rank, bad);
    MPI_Finalize();
    return status;
}
