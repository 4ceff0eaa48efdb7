/* Generalized requests: MPI_Grequest_start, MPI_Grequest_complete.
 *   MPI_Test before the request completes (flag 0, no callback), then MPI_Wait: the query
 *   callback fills the status (source, tag, count, cancelled), then the free callback
 *   MPI_Request_free before completion: the free callback runs at MPI_Grequest_complete,
 *   and the query callback never
 *   MPI_Cancel: the cancel callback, told whether the request has completed
 *   MPI_Waitall, MPI_Testany over several, and a query callback's error code: MPI_Wait
 *   returns it; MPI_Waitall returns MPI_ERR_IN_STATUS with it in the status
 *   MPI_Request_get_status: the query callback, the request left active
 * Each callback logs its calls in the state the request carries; the logs are printed. */
#include "conformance.h"

#define WORLD MPI_COMM_WORLD

struct state {
    int id;
    char log[128];
    int query_code;
};

static void note(struct state *s, const char *what)
{
    size_t len = strlen(s->log);
    snprintf(s->log + len, sizeof s->log - len, "%s%s", len ? "," : "", what);
}

static int query(void *extra, MPI_Status *status)
{
    struct state *s = extra;
    note(s, "query");
    status->MPI_SOURCE = 100 + s->id;
    status->MPI_TAG = 200 + s->id;
    MPI_Status_set_elements(status, MPI_INT, s->id);
    MPI_Status_set_cancelled(status, 0);
    return s->query_code;
}

static int release(void *extra)
{
    note(extra, "free");
    return MPI_SUCCESS;
}

static int cancel(void *extra, int complete)
{
    note(extra, complete ? "cancel(complete)" : "cancel(pending)");
    return MPI_SUCCESS;
}

static int status_text(const MPI_Status *status, char *out, size_t size)
{
    int count, cancelled;
    MPI_Get_count(status, MPI_INT, &count);
    MPI_Test_cancelled(status, &cancelled);
    return snprintf(out, size, "source %d tag %d count %d cancelled %d", status->MPI_SOURCE, status->MPI_TAG, count,
                    cancelled);
}

int main(int argc, char **argv)
{
    int rank, bad = 0, flag;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(WORLD, &rank);
    MPI_Comm_set_errhandler(WORLD, MPI_ERRORS_RETURN);
    struct state s[6];
    memset(s, 0, sizeof s);
    for (int i = 0; i < 6; i++)
        s[i].id = i + rank;
    MPI_Request r[6];
    MPI_Status status;
    char text[128];

    /* Tested before it completes, then waited for. */
    MPI_Grequest_start(query, release, cancel, &s[0], &r[0]);
    MPI_Test(&r[0], &flag, &status);
    bad += expect(!flag && strlen(s[0].log) == 0, "test before completion: flag %d, log %s", flag, s[0].log);
    MPI_Grequest_complete(r[0]);
    MPI_Wait(&r[0], &status);
    status_text(&status, text, sizeof text);
    bad += expect(r[0] == MPI_REQUEST_NULL && status.MPI_SOURCE == 100 + rank, "wait: %s", text);
    say("rank %d wait: %s; log %s", rank, text, s[0].log);

    /* Freed before completion: the free callback runs when it completes. */
    MPI_Request handle_kept;
    MPI_Grequest_start(query, release, cancel, &s[2], &handle_kept);
    MPI_Request freed = handle_kept;
    MPI_Request_free(&handle_kept);
    bad += expect(strlen(s[2].log) == 0, "freed early: log %s before completion", s[2].log);
    MPI_Grequest_complete(freed);
    say("rank %d freed early: log %s", rank, s[2].log);
    bad += expect(strcmp(s[2].log, "free") == 0, "freed early: log %s", s[2].log);

    /* Cancelled pending, then completed and waited for; request_get_status on the way. */
    MPI_Grequest_start(query, release, cancel, &s[3], &r[3]);
    MPI_Cancel(&r[3]);
    MPI_Grequest_complete(r[3]);
    MPI_Request_get_status(r[3], &flag, &status);
    bad += expect(flag && r[3] != MPI_REQUEST_NULL, "request_get_status: flag %d", flag);
    MPI_Wait(&r[3], MPI_STATUS_IGNORE);
    say("rank %d cancelled: log %s", rank, s[3].log);

    /* Several at once, one whose query fails. */
    s[5].query_code = MPI_ERR_OTHER;
    MPI_Grequest_start(query, release, cancel, &s[4], &r[4]);
    MPI_Grequest_start(query, release, cancel, &s[5], &r[5]);
    int index;
    MPI_Testany(2, &r[4], &index, &flag, &status);
    bad += expect(!flag, "testany before completion: flag %d", flag);
    MPI_Grequest_complete(r[5]);
    MPI_Grequest_complete(r[4]);
    MPI_Status statuses[2];
    statuses[0].MPI_ERROR = statuses[1].MPI_ERROR = -1;
    int code = MPI_Waitall(2, &r[4], statuses);
    int failed_class;
    MPI_Error_class(statuses[1].MPI_ERROR, &failed_class);
    bad += expect(code == MPI_ERR_IN_STATUS && failed_class == MPI_ERR_OTHER, "waitall: code %d, class %d", code,
                  failed_class);
    status_text(&statuses[0], text, sizeof text);
    say("rank %d waitall: %s; failed query class %s; logs %s / %s", rank, text,
        failed_class == MPI_ERR_OTHER ? "MPI_ERR_OTHER" : "other", s[4].log, s[5].log);

    int status_code = report_failures(rank, bad);
    MPI_Finalize();
    return status_code;
}
