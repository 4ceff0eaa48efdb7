/* Windows as objects: made, asked about, named, given attributes and freed (their one-sided
 * operations are rma.c's).
 *   MPI_Win_create         over MPI_COMM_WORLD, MPI_COMM_SELF and a split communicator, with
 *                          sizes that differ between ranks and a zero-sized part
 *   MPI_Win_get_attr       MPI_WIN_BASE, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT, MPI_WIN_CREATE_FLAVOR,
 *                          MPI_WIN_MODEL
 *   keyvals                MPI_Win_create_keyval, set, get, overwrite and delete with a delete
 *                          callback counted, MPI_Win_free running the callbacks left
 *   MPI_Win_get_group, MPI_Win_set_name, MPI_Win_get_name, MPI_Win_free
 *   error handlers         MPI_Win_get_errhandler (MPI_ERRORS_ARE_FATAL at first),
 *                          MPI_Win_set_errhandler with MPI_ERRORS_RETURN (a put to a rank out of
 *                          range returns MPI_ERR_RANK) and with the program's own
 *                          (MPI_Win_create_errhandler), called by a failed put and by
 *                          MPI_Win_call_errhandler */
#include "conformance.h"

#define WORLD MPI_COMM_WORLD

static int deletions;

static int count_deletion(MPI_Win win, int keyval, void *value, void *extra)
{
    (void)win, (void)keyval, (void)extra;
    deletions += *(int *)value;
    return MPI_SUCCESS;
}

static int one_window(MPI_Comm comm, const char *what, int world_rank, int keyval)
{
    int bad = 0, rank, flag;
    MPI_Comm_rank(comm, &rank);
    int cells = rank % 3;  /* rank 0's part is empty */
    double *memory = malloc(sizeof(double) * (size_t)(cells + 1));
    MPI_Win win;
    MPI_Win_create(memory, (MPI_Aint)(cells * sizeof(double)), sizeof(double), MPI_INFO_NULL, comm, &win);

    void *base;
    MPI_Aint *size;
    int *disp_unit, *flavor, *model;
    MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag);
    bad += expect(flag && base == memory, "%s: base %p, want %p", what, base, (void *)memory);
    MPI_Win_get_attr(win, MPI_WIN_SIZE, &size, &flag);
    bad += expect(flag && *size == (MPI_Aint)(cells * sizeof(double)), "%s: size", what);
    MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &disp_unit, &flag);
    bad += expect(flag && *disp_unit == (int)sizeof(double), "%s: disp unit", what);
    MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
    bad += expect(flag && *flavor == MPI_WIN_FLAVOR_CREATE, "%s: flavor", what);
    MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag);
    bad += expect(flag, "%s: no model", what);

    static int one = 1, ten = 10;  /* read, never written: the same for every task */
    void *got = NULL;
    MPI_Win_get_attr(win, keyval, &got, &flag);
    bad += expect(!flag, "%s: an attribute before any was set", what);
    MPI_Win_set_attr(win, keyval, &one);
    MPI_Win_set_attr(win, keyval, &ten);  /* the first one's delete callback runs */
    MPI_Win_get_attr(win, keyval, &got, &flag);
    bad += expect(flag && got == &ten, "%s: attribute not the last one set", what);

    char name[MPI_MAX_OBJECT_NAME];
    int length;
    MPI_Win_set_name(win, what);
    MPI_Win_get_name(win, name, &length);
    bad += expect(strcmp(name, what) == 0 && length == (int)strlen(what), "%s: name %s", what, name);

    MPI_Group group, comm_group;
    int result;
    MPI_Win_get_group(win, &group);
    MPI_Comm_group(comm, &comm_group);
    MPI_Group_compare(group, comm_group, &result);
    bad += expect(result == MPI_IDENT, "%s: window group differs from the communicator's", what);
    MPI_Group_free(&group);
    MPI_Group_free(&comm_group);

    MPI_Win_free(&win);  /* the second attribute's delete callback runs */
    bad += expect(win == MPI_WIN_NULL, "%s: handle not MPI_WIN_NULL", what);
    say("rank %d: %s window rank %d, %d cells, deletions %d", world_rank, what, rank, cells, deletions);
    free(memory);
    return bad;
}

static int error_calls[2];  /* the program's handler's calls: MPI_ERR_RANK, others (each task its own) */

static void count_error(MPI_Win *win, int *code, ...)
{
    (void)win;
    int class;
    MPI_Error_class(*code, &class);
    error_calls[class == MPI_ERR_RANK ? 0 : 1]++;
}

static int error_handlers(int rank, int size)
{
    int bad = 0, *mem = NULL, value = 1;
    MPI_Win win;
    MPI_Errhandler handler, mine;
    MPI_Win_allocate((MPI_Aint)sizeof(int), sizeof(int), MPI_INFO_NULL, WORLD, &mem, &win);
    MPI_Win_get_errhandler(win, &handler);
    bad += expect(handler == MPI_ERRORS_ARE_FATAL, "a new window's handler is not MPI_ERRORS_ARE_FATAL");
    MPI_Errhandler_free(&handler);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Win_fence(0, win);
    int code = MPI_Put(&value, 1, MPI_INT, size, 0, 1, MPI_INT, win), class = -1;
    MPI_Error_class(code, &class);
    bad += expect(class == MPI_ERR_RANK, "a put to rank %d returned class %d", size, class);
    MPI_Win_create_errhandler(count_error, &mine);
    MPI_Win_set_errhandler(win, mine);
    MPI_Errhandler_free(&mine);
    MPI_Put(&value, 1, MPI_INT, -5, 0, 1, MPI_INT, win);
    MPI_Win_call_errhandler(win, MPI_ERR_OTHER);
    MPI_Win_fence(0, win);
    bad += expect(error_calls[0] == 1 && error_calls[1] == 1, "the handler was called %d and %d times",
                  error_calls[0], error_calls[1]);
    say("win errhandlers rank %d: class %s, calls %d %d", rank, class == MPI_ERR_RANK ? "MPI_ERR_RANK" : "other",
        error_calls[0], error_calls[1]);
    MPI_Win_free(&win);
    return bad;
}

int main(int argc, char **argv)
{
    int rank, size, bad = 0, keyval;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(WORLD, &rank);
    MPI_Comm_size(WORLD, &size);
    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, count_deletion, &keyval, NULL);
    bad += one_window(WORLD, "world", rank, keyval);
    bad += one_window(MPI_COMM_SELF, "self", rank, keyval);
    MPI_Comm half;
    MPI_Comm_split(WORLD, rank % 2, rank, &half);
    bad += one_window(half, "half", rank, keyval);
    MPI_Comm_free(&half);
    MPI_Win_free_keyval(&keyval);
    bad += expect(keyval == MPI_KEYVAL_INVALID, "keyval not invalid after free");
    bad += error_handlers(rank, size);
    int status = report_failures(rank, bad);
    MPI_Finalize();
    return status;
}
