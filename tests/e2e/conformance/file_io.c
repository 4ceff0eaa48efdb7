/* MPI-IO. Argument: a directory for the files (the test's own).
 *   explicit offsets   each rank writes its block with MPI_File_write_at, reads its right
 *                      neighbour's after sync, barrier, sync
 *   views              a vector filetype interleaving the ranks' blocks; two MPI_File_writes
 *                      at the individual file pointer, MPI_File_get_position and
 *                      MPI_File_get_byte_offset; the whole file read back by rank 0
 *   collective         MPI_File_write_all and MPI_File_read_all through the view, each rank
 *                      reading its left neighbour's blocks; MPI_File_write_at_all; the split
 *                      collectives; MPI_File_iwrite_all and MPI_File_iread_at_all
 *   nonblocking        MPI_File_iwrite_at, MPI_File_iread, MPI_File_iread_at completed by
 *                      MPI_Wait, MPI_Waitall and MPI_Test, MPI_Get_count of their statuses
 *   shared pointer     MPI_File_write_ordered of rank+1 ints each, in rank order; the shared
 *                      position after; MPI_File_seek_shared, MPI_File_read_ordered and the
 *                      ordered split collectives; independent shared calls on files of
 *                      MPI_COMM_SELF and of MPI_COMM_WORLD
 *   files              MPI_MODE_CREATE | MPI_MODE_EXCL on an existing file (MPI_ERR_FILE_EXISTS
 *                      at every rank), MPI_MODE_RDONLY on a missing one, MPI_MODE_DELETE_ON_CLOSE,
 *                      MPI_File_delete, sizes (set, preallocated), amode, group, view,
 *                      atomicity, info
 *   error handlers     MPI_ERRORS_RETURN by default (a read of a write-only file returns an
 *                      error); a user handler on a file and on MPI_FILE_NULL, called with the
 *                      code; MPI_File_call_errhandler */
#include <unistd.h>

#include "conformance.h"

#define BLOCK 4   /* ints per block */
#define BLOCKS 3  /* blocks per rank in the interleaved view */

static int rank, size;
static char dir[512];
static int handler_calls;
static int handler_last_class;

static void path_of(char *out, size_t n, const char *name)
{
    snprintf(out, n, "%s/%s", dir, name);
}

static const char *class_name(int code)
{
    int c;
    MPI_Error_class(code, &c);
    switch (c) {
    case MPI_SUCCESS: return "MPI_SUCCESS";
    case MPI_ERR_FILE: return "MPI_ERR_FILE";
    case MPI_ERR_NO_SUCH_FILE: return "MPI_ERR_NO_SUCH_FILE";
    case MPI_ERR_FILE_EXISTS: return "MPI_ERR_FILE_EXISTS";
    case MPI_ERR_AMODE: return "MPI_ERR_AMODE";
    case MPI_ERR_ACCESS: return "MPI_ERR_ACCESS";
    case MPI_ERR_READ_ONLY: return "MPI_ERR_READ_ONLY";
    case MPI_ERR_IO: return "MPI_ERR_IO";
    case MPI_ERR_ARG: return "MPI_ERR_ARG";
    case MPI_ERR_OTHER: return "MPI_ERR_OTHER";
    default: return "another class";
    }
}

static void count_errors(MPI_File *file, int *code, ...)
{
    (void)file;
    handler_calls++;
    MPI_Error_class(*code, &handler_last_class);
}

/* Every rank's result line, and a check that the call succeeded. */
static int ok(int code, const char *what)
{
    return expect(code == MPI_SUCCESS, "%s returned %s", what, class_name(code));
}

/* Opens `file_name` of the directory, which must succeed (returns the failures). */
static int open_file(MPI_Comm comm, const char *file_name, int amode, MPI_File *fh)
{
    char name[600];
    path_of(name, sizeof name, file_name);
    return ok(MPI_File_open(comm, name, amode, MPI_INFO_NULL, fh), "MPI_File_open");
}

static int sync_barrier_sync(MPI_File fh)
{
    int bad = ok(MPI_File_sync(fh), "MPI_File_sync");
    MPI_Barrier(MPI_COMM_WORLD);
    return bad + ok(MPI_File_sync(fh), "MPI_File_sync");
}

static int count_of(MPI_Status *status, MPI_Datatype type)
{
    int count = -1;
    MPI_Get_count(status, type, &count);
    return count;
}

/* Each rank writes its block at its own offset, then reads its right neighbour's. */
static int explicit_offsets(void)
{
    MPI_File fh;
    int bad = open_file(MPI_COMM_WORLD, "explicit", MPI_MODE_CREATE | MPI_MODE_RDWR, &fh);
    int mine[BLOCK], theirs[BLOCK], want[BLOCK];
    int right = (rank + 1) % size;
    for (int i = 0; i < BLOCK; i++) {
        mine[i] = value_of(rank, i, 1);
        want[i] = value_of(right, i, 1);
    }
    MPI_Status status;
    bad += ok(MPI_File_write_at(fh, (MPI_Offset)rank * sizeof mine, mine, BLOCK, MPI_INT, &status),
              "MPI_File_write_at");
    bad += expect(count_of(&status, MPI_INT) == BLOCK, "write_at count %d", count_of(&status, MPI_INT));
    bad += sync_barrier_sync(fh);
    bad += ok(MPI_File_read_at(fh, (MPI_Offset)right * sizeof theirs, theirs, BLOCK, MPI_INT, &status),
              "MPI_File_read_at");
    bad += check_ints("read_at of the right neighbour", theirs, want, BLOCK);
    MPI_Offset bytes = 0, preallocated = 0;
    MPI_File_get_size(fh, &bytes);
    MPI_Barrier(MPI_COMM_WORLD); /* Open MPI's preallocate may start before the others' MPI_File_get_size */
    bad += ok(MPI_File_preallocate(fh, 100 * size), "MPI_File_preallocate");
    MPI_File_get_size(fh, &preallocated);
    say("rank %d: explicit offsets: read %d ints, hash %08x, file size %lld, preallocated %lld", rank,
        count_of(&status, MPI_INT), hash_ints(HASH_INIT, theirs, BLOCK), (long long)bytes, (long long)preallocated);

    /* A read past the end reads nothing. */
    bad += ok(MPI_File_read_at(fh, (MPI_Offset)size * 100, theirs, BLOCK, MPI_INT, &status),
              "MPI_File_read_at past the end");
    say("rank %d: read past the end: %d ints", rank, count_of(&status, MPI_INT));
    bad += ok(MPI_File_close(&fh), "MPI_File_close");
    bad += expect(fh == MPI_FILE_NULL, "MPI_File_close left the handle");
    return bad;
}

/* The ranks' blocks interleaved: rank r's k-th block is block k * size + r of the file. */
static void interleaved_view(MPI_File fh, int owner)
{
    MPI_Datatype filetype;
    MPI_Type_vector(BLOCKS, BLOCK, BLOCK * size, MPI_INT, &filetype);
    MPI_Type_commit(&filetype);
    MPI_File_set_view(fh, (MPI_Offset)owner * BLOCK * sizeof(int), MPI_INT, filetype, "native", MPI_INFO_NULL);
    MPI_Type_free(&filetype);
}

static int views_and_collectives(void)
{
    MPI_File fh;
    int bad = open_file(MPI_COMM_WORLD, "views", MPI_MODE_CREATE | MPI_MODE_RDWR, &fh);
    int n = BLOCK * BLOCKS;
    int mine[BLOCK * BLOCKS], got[BLOCK * BLOCKS], want[BLOCK * BLOCKS];
    for (int i = 0; i < n; i++)
        mine[i] = value_of(rank, i, 2);

    /* Independent writes at the individual file pointer, in two halves. */
    interleaved_view(fh, rank);
    MPI_Status status;
    bad += ok(MPI_File_write(fh, mine, BLOCK + 1, MPI_INT, &status), "MPI_File_write");
    MPI_Offset position = -1, byte_offset = -1;
    MPI_File_get_position(fh, &position);
    MPI_File_get_byte_offset(fh, position, &byte_offset);
    bad += ok(MPI_File_write(fh, mine + BLOCK + 1, n - BLOCK - 1, MPI_INT, &status), "MPI_File_write");
    say("rank %d: view: position %lld, byte offset %lld, second write %d ints", rank, (long long)position,
        (long long)byte_offset, count_of(&status, MPI_INT));
    bad += sync_barrier_sync(fh);

    /* Rank 0 reads the whole file without a view: every rank's blocks, interleaved. */
    if (rank == 0) {
        int *all = malloc(sizeof(int) * n * size);
        MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
        bad += ok(MPI_File_read_at(fh, 0, all, n * size, MPI_INT, &status), "MPI_File_read_at of everything");
        for (int k = 0; k < BLOCKS; k++)
            for (int r = 0; r < size; r++)
                for (int i = 0; i < BLOCK; i++)
                    bad += expect(all[(k * size + r) * BLOCK + i] == value_of(r, k * BLOCK + i, 2),
                                  "file int %d", (k * size + r) * BLOCK + i);
        say("whole file: %d ints, hash %08x", count_of(&status, MPI_INT), hash_ints(HASH_INIT, all, n * size));
        free(all);
    } else {
        MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
    }

    /* Collectives through the view: write with salt 3, then read the left neighbour's. */
    int left = (rank + size - 1) % size;
    for (int i = 0; i < n; i++) {
        mine[i] = value_of(rank, i, 3);
        want[i] = value_of(left, i, 3);
    }
    interleaved_view(fh, rank);
    bad += ok(MPI_File_write_all(fh, mine, n, MPI_INT, &status), "MPI_File_write_all");
    bad += sync_barrier_sync(fh);
    interleaved_view(fh, left);
    bad += ok(MPI_File_read_all(fh, got, n, MPI_INT, &status), "MPI_File_read_all");
    bad += check_ints("read_all of the left neighbour", got, want, n);
    say("rank %d: read_all %d ints, hash %08x", rank, count_of(&status, MPI_INT), hash_ints(HASH_INIT, got, n));

    /* Split collectives: write_at_all_begin/end, read_all_begin/end (view of the left again). */
    for (int i = 0; i < n; i++) {
        mine[i] = value_of(rank, i, 4);
        want[i] = value_of(left, i, 4);
    }
    interleaved_view(fh, rank);
    bad += ok(MPI_File_write_at_all_begin(fh, 0, mine, n, MPI_INT), "MPI_File_write_at_all_begin");
    bad += ok(MPI_File_write_at_all_end(fh, mine, &status), "MPI_File_write_at_all_end");
    say("rank %d: write_at_all_end %d ints", rank, count_of(&status, MPI_INT));
    bad += sync_barrier_sync(fh);
    interleaved_view(fh, left);
    memset(got, 0, sizeof got);
    bad += ok(MPI_File_read_all_begin(fh, got, n, MPI_INT), "MPI_File_read_all_begin");
    bad += ok(MPI_File_read_all_end(fh, got, &status), "MPI_File_read_all_end");
    bad += check_ints("split read_all of the left neighbour", got, want, n);
    say("rank %d: split read_all %d ints, hash %08x", rank, count_of(&status, MPI_INT), hash_ints(HASH_INIT, got, n));

    /* Nonblocking collectives: iwrite_all through the own view, iread_at_all of the left's. */
    for (int i = 0; i < n; i++) {
        mine[i] = value_of(rank, i, 5);
        want[i] = value_of(left, i, 5);
    }
    interleaved_view(fh, rank);
    MPI_Request request;
    bad += ok(MPI_File_iwrite_all(fh, mine, n, MPI_INT, &request), "MPI_File_iwrite_all");
    MPI_Wait(&request, &status);
    bad += sync_barrier_sync(fh);
    interleaved_view(fh, left);
    memset(got, 0, sizeof got);
    bad += ok(MPI_File_iread_at_all(fh, 0, got, n, MPI_INT, &request), "MPI_File_iread_at_all");
    MPI_Wait(&request, &status);
    bad += check_ints("iread_at_all of the left neighbour", got, want, n);
    say("rank %d: iread_at_all %d ints, hash %08x", rank, count_of(&status, MPI_INT), hash_ints(HASH_INIT, got, n));

    MPI_Offset disp;
    MPI_Datatype etype, filetype;
    char datarep[MPI_MAX_DATAREP_STRING];
    MPI_File_get_view(fh, &disp, &etype, &filetype, datarep);
    int filetype_size;
    MPI_Type_size(filetype, &filetype_size);
    say("rank %d: view displacement %lld, etype is MPI_INT %d, filetype size %d, %s", rank, (long long)disp,
        etype == MPI_INT, filetype_size, datarep);
    MPI_Type_free(&filetype);
    MPI_Aint extent;
    MPI_File_get_type_extent(fh, MPI_DOUBLE, &extent);
    say("rank %d: type extent of MPI_DOUBLE %ld", rank, (long)extent);
    bad += ok(MPI_File_close(&fh), "MPI_File_close");
    return bad;
}

static int nonblocking(void)
{
    MPI_File fh;
    int bad = open_file(MPI_COMM_WORLD, "nonblocking", MPI_MODE_CREATE | MPI_MODE_RDWR, &fh);
    double mine[BLOCK], got[2][BLOCK] = {{0}};
    for (int i = 0; i < BLOCK; i++)
        mine[i] = rank + i / 8.0;
    MPI_Request requests[2];
    MPI_Status statuses[2];
    bad += ok(MPI_File_iwrite_at(fh, (MPI_Offset)rank * sizeof mine, mine, BLOCK, MPI_DOUBLE, &requests[0]),
              "MPI_File_iwrite_at");
    MPI_Wait(&requests[0], &statuses[0]);
    say("rank %d: iwrite_at %d doubles", rank, count_of(&statuses[0], MPI_DOUBLE));
    bad += sync_barrier_sync(fh);

    /* The right neighbour's block twice: at the individual pointer and at an offset. */
    int right = (rank + 1) % size;
    MPI_File_seek(fh, (MPI_Offset)right * sizeof mine, MPI_SEEK_SET);
    bad += ok(MPI_File_iread(fh, got[0], BLOCK, MPI_DOUBLE, &requests[0]), "MPI_File_iread");
    bad += ok(MPI_File_iread_at(fh, (MPI_Offset)right * sizeof mine + sizeof(double), got[1], BLOCK - 1,
                                MPI_DOUBLE, &requests[1]),
              "MPI_File_iread_at");
    MPI_Waitall(2, requests, statuses);
    double want[BLOCK];
    for (int i = 0; i < BLOCK; i++)
        want[i] = right + i / 8.0;
    bad += check_doubles("iread", got[0], want, BLOCK);
    bad += check_doubles("iread_at", got[1], want + 1, BLOCK - 1);
    MPI_Offset position;
    MPI_File_get_position(fh, &position);
    say("rank %d: iread %d, iread_at %d doubles, position %lld, hash %08x", rank, count_of(&statuses[0], MPI_DOUBLE),
        count_of(&statuses[1], MPI_DOUBLE), (long long)position, hash_bytes(HASH_INIT, got, sizeof got));

    /* MPI_Test completes it too. */
    int flag = 0;
    bad += ok(MPI_File_iread_at(fh, 0, got[0], 1, MPI_DOUBLE, &requests[0]), "MPI_File_iread_at");
    while (!flag)
        MPI_Test(&requests[0], &flag, &statuses[0]);
    say("rank %d: tested iread_at %d double %g", rank, count_of(&statuses[0], MPI_DOUBLE), got[0][0]);
    bad += ok(MPI_File_close(&fh), "MPI_File_close");
    return bad;
}

/* The ordered calls over MPI_COMM_WORLD: rank r writes r+1 ints after ranks 0..r-1. */
static int ordered(void)
{
    MPI_File fh;
    int bad = open_file(MPI_COMM_WORLD, "ordered", MPI_MODE_CREATE | MPI_MODE_RDWR, &fh);
    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    int mine[64], got[64];
    for (int i = 0; i <= rank; i++)
        mine[i] = value_of(rank, i, 6);
    MPI_Status status;
    bad += ok(MPI_File_write_ordered(fh, mine, rank + 1, MPI_INT, &status), "MPI_File_write_ordered");
    MPI_Offset shared = -1;
    MPI_File_get_position_shared(fh, &shared);
    say("rank %d: write_ordered %d ints, shared position %lld", rank, count_of(&status, MPI_INT), (long long)shared);
    bad += sync_barrier_sync(fh);
    int total = size * (size + 1) / 2;
    if (rank == 0) {
        int *all = malloc(sizeof(int) * total);
        bad += ok(MPI_File_read_at(fh, 0, all, total, MPI_INT, &status), "MPI_File_read_at");
        for (int r = 0, k = 0; r < size; r++)
            for (int i = 0; i <= r; i++, k++)
                bad += expect(all[k] == value_of(r, i, 6), "ordered int %d of rank %d is %d", i, r, all[k]);
        say("ordered file: %d ints, hash %08x", count_of(&status, MPI_INT), hash_ints(HASH_INIT, all, total));
        free(all);
    }

    /* Back to the start: read in rank order what was written in rank order. */
    bad += ok(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET), "MPI_File_seek_shared");
    memset(got, 0, sizeof got);
    bad += ok(MPI_File_read_ordered(fh, got, rank + 1, MPI_INT, &status), "MPI_File_read_ordered");
    bad += check_ints("read_ordered", got, mine, rank + 1);
    MPI_File_get_position_shared(fh, &shared);
    say("rank %d: read_ordered %d ints, shared position %lld", rank, count_of(&status, MPI_INT), (long long)shared);
    MPI_Barrier(MPI_COMM_WORLD); /* all have read the position before the next call moves it */

    /* The split form appends, and seek_shared from the end finds the file's end. */
    bad += ok(MPI_File_write_ordered_begin(fh, mine, 1, MPI_INT), "MPI_File_write_ordered_begin");
    bad += ok(MPI_File_write_ordered_end(fh, mine, &status), "MPI_File_write_ordered_end");
    bad += sync_barrier_sync(fh);
    bad += ok(MPI_File_seek_shared(fh, -size, MPI_SEEK_END), "MPI_File_seek_shared");
    MPI_File_get_position_shared(fh, &shared);
    MPI_Barrier(MPI_COMM_WORLD);
    bad += ok(MPI_File_read_ordered_begin(fh, got, 1, MPI_INT), "MPI_File_read_ordered_begin");
    bad += ok(MPI_File_read_ordered_end(fh, got, &status), "MPI_File_read_ordered_end");
    bad += expect(got[0] == mine[0], "read_ordered_end got %d, want %d", got[0], mine[0]);
    say("rank %d: appended, shared position %lld before reading it back, %d int", rank, (long long)shared,
        count_of(&status, MPI_INT));
    bad += ok(MPI_File_close(&fh), "MPI_File_close");
    return bad;
}

static int compare_ints(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Independent calls at the shared file pointer of `comm`: each rank appends rank+1 ints,
 * then everything is read back and the ranks' parts found whole. */
static int independent_shared(MPI_Comm comm, const char *file_name, int salt)
{
    MPI_File fh;
    int bad = open_file(comm, file_name, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, &fh);
    int me, n;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    int mine[64];
    mine[0] = rank;
    for (int i = 1; i <= rank; i++)
        mine[i] = value_of(rank, i, salt);
    MPI_Status status;
    MPI_Request request;
    bad += ok(MPI_File_write_shared(fh, mine, 1, MPI_INT, &status), "MPI_File_write_shared");
    bad += ok(MPI_File_iwrite_shared(fh, mine + 1, rank, MPI_INT, &request), "MPI_File_iwrite_shared");
    MPI_Wait(&request, &status);
    bad += sync_barrier_sync(fh);
    MPI_Barrier(comm);
    MPI_Offset shared;
    MPI_File_get_position_shared(fh, &shared);
    int total = 0;
    MPI_Allreduce(&(int){rank + 1}, &total, 1, MPI_INT, MPI_SUM, comm);
    bad += expect(shared == total, "shared position %lld, want %d", (long long)shared, total);

    /* Every int of every rank is in the file once, in an order that depends on timing: the
     * ints sorted must be all the ranks' (comm is MPI_COMM_SELF or MPI_COMM_WORLD). */
    if (me == 0) {
        int *all = malloc(sizeof(int) * total), *want = malloc(sizeof(int) * total);
        MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
        bad += ok(MPI_File_read_shared(fh, all, total, MPI_INT, &status), "MPI_File_read_shared");
        for (int m = 0, k = 0; m < n; m++) {
            int r = n == 1 ? rank : m;
            want[k++] = r;
            for (int i = 1; i <= r; i++)
                want[k++] = value_of(r, i, salt);
        }
        qsort(all, total, sizeof(int), compare_ints);
        qsort(want, total, sizeof(int), compare_ints);
        bad += check_ints("the shared file's ints, sorted", all, want, total);
        say("shared over %d tasks: read %d ints, shared position %lld, sorted hash %08x", n,
            count_of(&status, MPI_INT), (long long)shared, hash_ints(HASH_INIT, all, total));
        free(all);
        free(want);
    } else {
        MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
    }
    bad += ok(MPI_File_close(&fh), "MPI_File_close");
    return bad;
}

/* Opens that fail, deletion, the file's properties. */
static int files(void)
{
    char name[600];
    path_of(name, sizeof name, "exclusive");
    MPI_File fh;
    int bad = ok(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY,
                               MPI_INFO_NULL, &fh),
                 "MPI_File_open, exclusive, of a new file");
    int amode = 0, atomic = -1;
    MPI_File_get_amode(fh, &amode);
    MPI_File_set_atomicity(fh, 1);
    MPI_File_get_atomicity(fh, &atomic);
    MPI_Group group, world;
    int same = MPI_UNEQUAL;
    MPI_File_get_group(fh, &group);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_compare(group, world, &same);
    MPI_Group_free(&group);
    MPI_Group_free(&world);
    MPI_Info info = MPI_INFO_NULL;
    MPI_File_get_info(fh, &info);
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info);
    /* (Not MPI_File_preallocate: Open MPI's reads the file, fails on a write-only one at its
     * root and sometimes leaves the other ranks waiting.) */
    bad += ok(MPI_File_set_size(fh, 1000), "MPI_File_set_size");
    MPI_Offset bytes = 0;
    MPI_File_get_size(fh, &bytes);
    say("rank %d: amode %#x, atomicity %d, group %s, size %lld", rank, amode, atomic,
        same == MPI_IDENT ? "MPI_IDENT" : "not MPI_IDENT", (long long)bytes);

    /* MPI_ERRORS_RETURN by default: reading a write-only file returns an error. */
    MPI_Errhandler handler;
    MPI_File_get_errhandler(fh, &handler);
    int value, code = MPI_File_read_at(fh, 0, &value, 1, MPI_INT, MPI_STATUS_IGNORE);
    say("rank %d: default handler is MPI_ERRORS_RETURN %d, read of a write-only file: %s", rank,
        handler == MPI_ERRORS_RETURN, class_name(code));
    bad += expect(code != MPI_SUCCESS, "a read of a write-only file succeeded");
    MPI_Errhandler_free(&handler);

    /* A user handler on the file, freed while set: called with the error. */
    MPI_File_create_errhandler(count_errors, &handler);
    MPI_File_set_errhandler(fh, handler);
    MPI_Errhandler_free(&handler);
    code = MPI_File_read_at(fh, 0, &value, 1, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_call_errhandler(fh, MPI_ERR_IO);
    say("rank %d: user handler called %d times, last with %s, the read returned %s", rank, handler_calls,
        class_name(handler_last_class), class_name(code));
    bad += ok(MPI_File_close(&fh), "MPI_File_close");

    /* Exclusive again: the file exists, at every rank. */
    code = MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY, MPI_INFO_NULL,
                         &fh);
    say("rank %d: exclusive open of an existing file: %s", rank, class_name(code));
    bad += expect(code != MPI_SUCCESS, "the exclusive open of an existing file succeeded");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        bad += ok(MPI_File_delete(name, MPI_INFO_NULL), "MPI_File_delete");
    MPI_Barrier(MPI_COMM_WORLD);

    /* A missing file, read only: through MPI_FILE_NULL's handler, a user's here. */
    MPI_File_create_errhandler(count_errors, &handler);
    MPI_File_set_errhandler(MPI_FILE_NULL, handler);
    handler_calls = 0;
    code = MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    say("rank %d: open of a missing file: %s, handler called %d times", rank, class_name(code), handler_calls);
    bad += expect(code != MPI_SUCCESS, "the open of a missing file succeeded");
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&handler);

    /* Deleted once every rank has closed it. */
    path_of(name, sizeof name, "deleted");
    bad += ok(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE,
                            MPI_INFO_NULL, &fh),
              "MPI_File_open");
    bad += ok(MPI_File_write_at(fh, rank, "x", 1, MPI_CHAR, MPI_STATUS_IGNORE), "MPI_File_write_at");
    bad += ok(MPI_File_close(&fh), "MPI_File_close");
    MPI_Barrier(MPI_COMM_WORLD);
    say("rank %d: after MPI_MODE_DELETE_ON_CLOSE the file exists: %d", rank, access(name, F_OK) == 0);
    return bad;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 2) {
        if (rank == 0)
            fprintf(stderr, "usage: file_io DIRECTORY\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    snprintf(dir, sizeof dir, "%s", argv[1]);

    int bad = explicit_offsets();
    bad += views_and_collectives();
    bad += nonblocking();
    bad += ordered();
    char own[64];
    snprintf(own, sizeof own, "shared-%d", rank);
    bad += independent_shared(MPI_COMM_SELF, own, 7);
    bad += independent_shared(MPI_COMM_WORLD, "shared", 8);
    bad += files();

    /* The files left are deleted, by rank 0 once all are done with them. */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        const char *left[] = {"explicit", "views", "nonblocking", "ordered"};
        for (int i = 0; i < 4; i++) {
            char name[600];
            path_of(name, sizeof name, left[i]);
            bad += ok(MPI_File_delete(name, MPI_INFO_NULL), "MPI_File_delete");
        }
    }
    int code = report_failures(rank, bad);
    MPI_Finalize();
    return code;
}
