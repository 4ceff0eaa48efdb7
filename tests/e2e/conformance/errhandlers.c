/* Error handlers.
 *   defaults           MPI_COMM_WORLD's and MPI_COMM_SELF's handler is MPI_ERRORS_ARE_FATAL
 *   MPI_ERRORS_RETURN  erroneous calls return their error class (printed by name) and the
 *                      job goes on: an invalid rank, count, tag, communicator, datatype, root,
 *                      operation, group rank, color; the library's own datatype errors
 *   inheritance        MPI_Comm_dup and MPI_Comm_split give the parent's handler; a handler
 *                      set on the child leaves the parent's
 *   a user handler     called once per erroneous call on its communicator with that
 *                      communicator and the error code, which the call then returns; errors
 *                      on an invalid communicator go to MPI_COMM_WORLD's handler;
 *                      MPI_Comm_call_errhandler; MPI_Errhandler_free while in use
 * Cases left out because Open MPI and Bamboo legitimately differ: a freed communicator or
 * request handle (undefined in Open MPI, whose handles are pointers to freed memory), and
 * MPI_Cart_create with a zero dimension (Open MPI returns MPI_ERR_OTHER, Bamboo
 * MPI_ERR_DIMS). */
#include "conformance.h"

static const char *class_name(int code)
{
    int c;
    MPI_Error_class(code, &c);
    switch (c) {
    case MPI_SUCCESS: return "MPI_SUCCESS";
    case MPI_ERR_BUFFER: return "MPI_ERR_BUFFER";
    case MPI_ERR_COUNT: return "MPI_ERR_COUNT";
    case MPI_ERR_TYPE: return "MPI_ERR_TYPE";
    case MPI_ERR_TAG: return "MPI_ERR_TAG";
    case MPI_ERR_COMM: return "MPI_ERR_COMM";
    case MPI_ERR_RANK: return "MPI_ERR_RANK";
    case MPI_ERR_ROOT: return "MPI_ERR_ROOT";
    case MPI_ERR_GROUP: return "MPI_ERR_GROUP";
    case MPI_ERR_OP: return "MPI_ERR_OP";
    case MPI_ERR_ARG: return "MPI_ERR_ARG";
    case MPI_ERR_REQUEST: return "MPI_ERR_REQUEST";
    default: return "another class";
    }
}

/* Prints the class `code` has and checks it is `want`; rank 0 prints, all check. */
static int expect_class(int rank, const char *what, int code, int want)
{
    int c;
    MPI_Error_class(code, &c);
    if (rank == 0)
        say("%s: %s", what, class_name(code));
    return expect(c == want, "%s: %s, want %s", what, class_name(code), class_name(want));
}

/* What the user's handler saw. Globals are each rank's own (Bamboo privatizes them). */
static int handler_calls;
static int handler_last_code;
static MPI_Comm handler_last_comm;

static void count_errors(MPI_Comm *comm, int *code, ...)
{
    handler_calls++;
    handler_last_code = *code;
    handler_last_comm = *comm;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, bad = 0, x = 1, y = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MPI_Errhandler h;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &h);
    bad += expect(h == MPI_ERRORS_ARE_FATAL, "MPI_COMM_WORLD's default handler is not MPI_ERRORS_ARE_FATAL");
    MPI_Errhandler_free(&h);
    MPI_Comm_get_errhandler(MPI_COMM_SELF, &h);
    bad += expect(h == MPI_ERRORS_ARE_FATAL, "MPI_COMM_SELF's default handler is not MPI_ERRORS_ARE_FATAL");
    MPI_Errhandler_free(&h);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &h);
    bad += expect(h == MPI_ERRORS_RETURN, "MPI_Comm_get_errhandler does not give the handler set");
    MPI_Errhandler_free(&h);

    MPI_Request request;
    bad += expect_class(rank, "send to rank size", MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    bad += expect_class(rank, "send to rank -7", MPI_Send(&x, 1, MPI_INT, -7, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    bad += expect_class(rank, "send count -1", MPI_Send(&x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    bad += expect_class(rank, "send tag -5", MPI_Send(&x, 1, MPI_INT, 0, -5, MPI_COMM_WORLD), MPI_ERR_TAG);
    bad += expect_class(rank, "send on MPI_COMM_NULL", MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM);
    bad += expect_class(rank, "send of MPI_DATATYPE_NULL", MPI_Send(&x, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD),
                        MPI_ERR_TYPE);
    bad += expect_class(rank, "isend to rank size", MPI_Isend(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &request),
                        MPI_ERR_RANK);
    bad += expect_class(rank, "recv from rank size",
                        MPI_Recv(&y, 1, MPI_INT, size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_ERR_RANK);
    bad += expect_class(rank, "irecv tag -3", MPI_Irecv(&y, 1, MPI_INT, 0, -3, MPI_COMM_WORLD, &request), MPI_ERR_TAG);
    bad += expect_class(rank, "irecv count -2", MPI_Irecv(&y, -2, MPI_INT, 0, 0, MPI_COMM_WORLD, &request),
                        MPI_ERR_COUNT);
    bad += expect_class(rank, "probe from rank size", MPI_Probe(size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                        MPI_ERR_RANK);
    bad += expect_class(rank, "sendrecv to rank size",
                        MPI_Sendrecv(&x, 1, MPI_INT, size, 0, &y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD,
                                     MPI_STATUS_IGNORE), MPI_ERR_RANK);
    bad += expect_class(rank, "bcast root size", MPI_Bcast(&x, 1, MPI_INT, size, MPI_COMM_WORLD), MPI_ERR_ROOT);
    bad += expect_class(rank, "reduce root -1", MPI_Reduce(&x, &y, 1, MPI_INT, MPI_SUM, -1, MPI_COMM_WORLD),
                        MPI_ERR_ROOT);
    bad += expect_class(rank, "allreduce MPI_OP_NULL",
                        MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP);
    bad += expect_class(rank, "bcast count -1", MPI_Bcast(&x, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    bad += expect_class(rank, "barrier on MPI_COMM_NULL", MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM);

    MPI_Comm split;
    bad += expect_class(rank, "split color -5", MPI_Comm_split(MPI_COMM_WORLD, -5, 0, &split), MPI_ERR_ARG);
    MPI_Comm world = MPI_COMM_WORLD;
    bad += expect_class(rank, "free MPI_COMM_WORLD", MPI_Comm_free(&world), MPI_ERR_COMM);

    MPI_Group group, subgroup;
    MPI_Comm_group(MPI_COMM_WORLD, &group);
    int out_of_range[1] = {size};
    bad += expect_class(rank, "group_incl rank size", MPI_Group_incl(group, 1, out_of_range, &subgroup), MPI_ERR_RANK);
    bad += expect_class(rank, "group_excl rank size", MPI_Group_excl(group, 1, out_of_range, &subgroup), MPI_ERR_RANK);
    bad += expect_class(rank, "group_size of MPI_GROUP_NULL", MPI_Group_size(MPI_GROUP_NULL, &x), MPI_ERR_GROUP);
    MPI_Group_free(&group);

    MPI_Datatype type;
    bad += expect_class(rank, "type_contiguous count -1", MPI_Type_contiguous(-1, MPI_INT, &type), MPI_ERR_COUNT);
    bad += expect_class(rank, "type_commit of MPI_DATATYPE_NULL", MPI_Type_commit(&(MPI_Datatype){MPI_DATATYPE_NULL}),
                        MPI_ERR_TYPE);

    /* The job went on: a message still travels. */
    int right = (rank + 1) % size, left = (rank + size - 1) % size, got = -1;
    MPI_Sendrecv(&rank, 1, MPI_INT, right, 9, &got, 1, MPI_INT, left, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    bad += expect(got == left, "after the errors, ring message %d, want %d", got, left);

    /* Inheritance: children get the parent's handler; their own stays theirs. */
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_get_errhandler(dup, &h);
    bad += expect(h == MPI_ERRORS_RETURN, "MPI_Comm_dup did not inherit MPI_ERRORS_RETURN");
    MPI_Errhandler_free(&h);
    bad += expect_class(rank, "send to rank size on a duplicate", MPI_Send(&x, 1, MPI_INT, size, 0, dup), MPI_ERR_RANK);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &split);
    MPI_Comm_get_errhandler(split, &h);
    bad += expect(h == MPI_ERRORS_RETURN, "MPI_Comm_split did not inherit MPI_ERRORS_RETURN");
    MPI_Errhandler_free(&h);

    /* A user handler on the split communicator. */
    MPI_Errhandler counter;
    MPI_Comm_create_errhandler(count_errors, &counter);
    MPI_Comm_set_errhandler(split, counter);
    MPI_Errhandler_free(&counter);  /* still set on `split`: it stays usable there */
    int split_size;
    MPI_Comm_size(split, &split_size);
    int code = MPI_Send(&x, 1, MPI_INT, split_size, 0, split);
    bad += expect_class(rank, "user handler: send to rank size returns", code, MPI_ERR_RANK);
    bad += expect(handler_calls == 1, "user handler called %d times after one error, want 1", handler_calls);
    bad += expect(handler_last_code == code, "user handler got code %d, the call returned %d", handler_last_code, code);
    bad += expect(handler_last_comm == split, "user handler got another communicator than the split one");
    code = MPI_Bcast(&x, 1, MPI_INT, -1, split);
    bad += expect_class(rank, "user handler: bcast root -1 returns", code, MPI_ERR_ROOT);
    bad += expect(handler_calls == 2, "user handler called %d times after two errors, want 2", handler_calls);
    MPI_Comm_call_errhandler(split, MPI_ERR_OTHER);
    bad += expect(handler_calls == 3 && handler_last_code == MPI_ERR_OTHER,
                  "MPI_Comm_call_errhandler: %d calls, last code %d", handler_calls, handler_last_code);
    /* The parent keeps MPI_ERRORS_RETURN: an error there calls no user handler. */
    MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
    bad += expect(handler_calls == 3, "an error on MPI_COMM_WORLD called the split communicator's handler");

    /* Errors on an invalid communicator go to MPI_COMM_WORLD's handler. */
    MPI_Comm_create_errhandler(count_errors, &counter);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, counter);
    code = MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_NULL);
    bad += expect_class(rank, "user handler: send on MPI_COMM_NULL returns", code, MPI_ERR_COMM);
    bad += expect(handler_calls == 4, "an error on MPI_COMM_NULL did not call MPI_COMM_WORLD's handler");
    bad += expect(handler_last_comm == MPI_COMM_WORLD, "MPI_COMM_WORLD's handler got another communicator");
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &h);
    bad += expect(h == counter, "MPI_Comm_get_errhandler does not give the user's handler");
    MPI_Errhandler_free(&h);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&counter);

    MPI_Comm_free(&split);
    MPI_Comm_free(&dup);
    if (rank == 0)
        say("user handler calls %d", handler_calls);
    int failures = report_failures(rank, bad);
    MPI_Finalize();
    return failures;
}
