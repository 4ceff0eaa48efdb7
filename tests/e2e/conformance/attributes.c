/* Communicator names and attributes.
 *   MPI_Comm_get_name/set_name  the defaults of MPI_COMM_WORLD and MPI_COMM_SELF, empty for
 *                               a duplicate (names are not copied), each rank's own name
 *   predefined attributes       MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_APPNUM
 *                               on MPI_COMM_WORLD and a duplicate; MPI_LASTUSEDCODE;
 *                               MPI_Attr_get alike
 *   keyvals and attributes      copy callbacks on MPI_Comm_dup (MPI_COMM_NULL_COPY_FN,
 *                               MPI_COMM_DUP_FN, the program's own, which changes the value),
 *                               delete callbacks on overwrite, MPI_Comm_delete_attr and
 *                               MPI_Comm_free, after MPI_Comm_free_keyval too;
 *                               MPI_Keyval_create, MPI_Attr_put/get/delete, MPI_Keyval_free;
 *                               MPI_COMM_SELF's deleted by MPI_Finalize, last set first
 * MPI_UNIVERSE_SIZE is only checked to be there: plain MPI's depends on the launcher. Left out
 * where Open MPI and Bamboo legitimately differ: MPI_LASTUSEDCODE on a duplicate (Open MPI
 * does not copy it, the others it does), and the class of an invalid keyval (Open MPI's is
 * MPI_ERR_OTHER, MPI's MPI_ERR_KEYVAL, which Bamboo returns). Also the predefined attributes
 * of a split communicator, which MPI leaves to the implementation (Open MPI and Bamboo have
 * none, MPICH has them). The MPI_COMM_NULL_* callbacks are null pointers in MPICH. */
#include "conformance.h"

/* What the callbacks saw: each rank's own (Bamboo privatizes globals). */
static int copies, deletions;
static long deleted_sum;

static int copy_plus_one(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)comm, (void)keyval;
    copies++;
    *(void **)out = (void *)((intptr_t)in + *(int *)extra);
    *flag = 1;
    return MPI_SUCCESS;
}

/* MPI_COMM_SELF's attributes, deleted by MPI_Finalize, last set first. */
static char finalize_order[8];

static int record_finalize_deletion(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm, (void)keyval, (void)extra;
    size_t n = strlen(finalize_order);
    if (n + 1 < sizeof finalize_order)
        finalize_order[n] = (char)(intptr_t)value;
    return MPI_SUCCESS;
}

static int count_deletion(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm, (void)keyval, (void)extra;
    deletions++;
    deleted_sum += (long)(intptr_t)value;
    return MPI_SUCCESS;
}

static int predefined(int rank, const char *comm_name, MPI_Comm comm)
{
    int bad = 0, flag, *value;
    MPI_Comm_get_attr(comm, MPI_TAG_UB, &value, &flag);
    if (rank == 0)
        say("%s: MPI_TAG_UB %s", comm_name, flag ? "set" : "not set");
    if (flag)
        bad += expect(*value >= 32767, "%s: MPI_TAG_UB %d is below 32767", comm_name, *value);
    if (!flag)
        return bad;
    MPI_Comm_get_attr(comm, MPI_HOST, &value, &flag);
    bad += expect(flag && *value == MPI_PROC_NULL, "%s: MPI_HOST flag %d", comm_name, flag);
    MPI_Comm_get_attr(comm, MPI_IO, &value, &flag);
    if (rank == 0)
        say("%s: MPI_IO flag %d, any source %d", comm_name, flag, flag && *value == MPI_ANY_SOURCE);
    MPI_Comm_get_attr(comm, MPI_WTIME_IS_GLOBAL, &value, &flag);
    if (rank == 0)
        say("%s: MPI_WTIME_IS_GLOBAL flag %d value %d", comm_name, flag, flag ? *value : -1);
    MPI_Comm_get_attr(comm, MPI_APPNUM, &value, &flag);
    if (rank == 0)
        say("%s: MPI_APPNUM flag %d value %d", comm_name, flag, flag ? *value : -1);
    if (comm == MPI_COMM_WORLD) { /* Open MPI does not copy it to duplicates */
        MPI_Comm_get_attr(comm, MPI_LASTUSEDCODE, &value, &flag);
        bad += expect(flag && *value >= MPI_ERR_LASTCODE, "%s: MPI_LASTUSEDCODE flag %d", comm_name, flag);
    }
    MPI_Comm_get_attr(comm, MPI_UNIVERSE_SIZE, &value, &flag);
    if (flag)
        bad += expect(*value >= 0, "%s: MPI_UNIVERSE_SIZE %d", comm_name, *value);
    MPI_Attr_get(comm, MPI_TAG_UB, &value, &flag);
    bad += expect(flag && *value >= 32767, "%s: MPI_Attr_get(MPI_TAG_UB) flag %d", comm_name, flag);
    return bad;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, bad = 0, len, flag;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char name[MPI_MAX_OBJECT_NAME];

    /* Names. */
    MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
    bad += expect(strcmp(name, "MPI_COMM_WORLD") == 0 && len == 14, "world's name '%s' (%d)", name, len);
    MPI_Comm_get_name(MPI_COMM_SELF, name, &len);
    bad += expect(strcmp(name, "MPI_COMM_SELF") == 0 && len == 13, "self's name '%s' (%d)", name, len);
    MPI_Comm dup, split;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_get_name(dup, name, &len);
    bad += expect(name[0] == '\0' && len == 0, "a duplicate's name '%s' (%d)", name, len);
    char mine[32];
    snprintf(mine, sizeof mine, "dup of rank %d", rank);
    MPI_Comm_set_name(dup, mine);
    MPI_Barrier(MPI_COMM_WORLD); /* every rank has named its own before any reads */
    MPI_Comm_get_name(dup, name, &len);
    bad += expect(strcmp(name, mine) == 0, "rank %d reads the name '%s'", rank, name);
    say("rank %d: named '%s' (%d)", rank, name, len);
    MPI_Comm_set_name(MPI_COMM_WORLD, "world");
    MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
    bad += expect(strcmp(name, "world") == 0, "world renamed '%s'", name);

    /* Predefined attributes. */
    bad += predefined(rank, "MPI_COMM_WORLD", MPI_COMM_WORLD);
    bad += predefined(rank, "a duplicate", dup);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &split);

    /* Keyvals and attributes. */
    int plus = 1000, step, null_key, dup_key, own_key;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_deletion, &null_key, NULL);
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, count_deletion, &dup_key, NULL);
    MPI_Comm_create_keyval(copy_plus_one, count_deletion, &own_key, &plus);
    MPI_Comm_set_attr(split, null_key, (void *)(intptr_t)(rank + 1));
    MPI_Comm_set_attr(split, dup_key, (void *)(intptr_t)(rank + 2));
    MPI_Comm_set_attr(split, own_key, (void *)(intptr_t)(rank + 3));
    void *value;
    MPI_Comm_get_attr(split, own_key, &value, &flag);
    bad += expect(flag && (intptr_t)value == rank + 3, "attribute on split: flag %d value %ld", flag, (long)(intptr_t)value);

    MPI_Comm child;
    MPI_Comm_dup(split, &child);
    bad += expect(copies == 1, "MPI_Comm_dup ran %d copy callbacks of the program, want 1", copies);
    MPI_Comm_get_attr(child, null_key, &value, &flag);
    bad += expect(!flag, "MPI_COMM_NULL_COPY_FN's attribute was copied");
    MPI_Comm_get_attr(child, dup_key, &value, &flag);
    bad += expect(flag && (intptr_t)value == rank + 2, "MPI_COMM_DUP_FN: flag %d value %ld", flag, (long)(intptr_t)value);
    MPI_Comm_get_attr(child, own_key, &value, &flag);
    bad += expect(flag && (intptr_t)value == rank + 3 + plus, "own copy: flag %d value %ld", flag, (long)(intptr_t)value);

    step = deletions;
    MPI_Comm_set_attr(child, own_key, (void *)(intptr_t)7); /* overwrite: deletes the copy */
    bad += expect(deletions == step + 1 && deleted_sum == rank + 3 + plus, "overwrite: %d deletions, sum %ld",
                  deletions - step, deleted_sum);
    MPI_Comm_delete_attr(child, own_key);
    bad += expect(deletions == step + 2, "MPI_Comm_delete_attr ran %d delete callbacks", deletions - step - 1);
    MPI_Comm_get_attr(child, own_key, &value, &flag);
    bad += expect(!flag, "a deleted attribute is still there");

    MPI_Comm_free_keyval(&dup_key);
    bad += expect(dup_key == MPI_KEYVAL_INVALID, "MPI_Comm_free_keyval left the keyval %d", dup_key);
    step = deletions;
    MPI_Comm_free(&child); /* its MPI_COMM_DUP_FN attribute, of a freed keyval */
    bad += expect(deletions == step + 1, "MPI_Comm_free ran %d delete callbacks, want 1", deletions - step);
    step = deletions;
    MPI_Comm_free(&split); /* three attributes */
    bad += expect(deletions == step + 3, "MPI_Comm_free ran %d delete callbacks, want 3", deletions - step);

    /* The MPI-1 names. */
    int old_key;
    MPI_Keyval_create(copy_plus_one, count_deletion, &old_key, &plus);
    MPI_Attr_put(dup, old_key, (void *)(intptr_t)42);
    MPI_Attr_get(dup, old_key, &value, &flag);
    bad += expect(flag && (intptr_t)value == 42, "MPI_Attr_get: flag %d value %ld", flag, (long)(intptr_t)value);
    step = deletions;
    MPI_Attr_delete(dup, old_key);
    bad += expect(deletions == step + 1, "MPI_Attr_delete ran %d delete callbacks", deletions - step);
    MPI_Keyval_free(&old_key);


    MPI_Comm_free_keyval(&null_key);
    MPI_Comm_free_keyval(&own_key);
    MPI_Comm_free(&dup);
    if (rank == 0)
        say("copies %d deletions %d", copies, deletions);
    int self_keys[3];
    for (int k = 0; k < 3; k++)
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, record_finalize_deletion, &self_keys[k], NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, self_keys[1], (void *)(intptr_t)'b');
    MPI_Comm_set_attr(MPI_COMM_SELF, self_keys[2], (void *)(intptr_t)'c');
    MPI_Comm_set_attr(MPI_COMM_SELF, self_keys[0], (void *)(intptr_t)'a');
    int failures = report_failures(rank, bad);
    MPI_Finalize();
    say("rank %d: MPI_Finalize deleted MPI_COMM_SELF's attributes in the order %s", rank, finalize_order);
    return failures;
}
