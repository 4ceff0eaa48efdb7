/* Calls on the MPI library's own objects, which Bamboo passes to the library.
 *   errors and versions   MPI_Error_string, MPI_Error_class, MPI_Get_version,
 *                         MPI_Get_library_version
 *   datatypes             MPI_Type_get_envelope/get_contents of a vector, the _x sizes and
 *                         extents of a resized type, MPI_Type_get_name/set_name,
 *                         MPI_Type_create_hindexed_block and MPI_Type_match_size; the MPI-1
 *                         MPI_Type_extent/lb/ub/struct/hvector/hindexed and MPI_Address
 *                         (declared by Open MPI on request: OMPI_OMIT_MPI1_COMPAT_DECLS 0,
 *                         which Bamboo needs not: its mpi.h came first);
 *                         each derived type carries a ring message
 *   memory, infos         MPI_Alloc_mem/Free_mem as a message buffer; MPI_Info_create, set,
 *                         get, get_nkeys, get_nthkey, get_valuelen, dup, delete, free
 *   external packing      MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size
 *                         ("external32" is big-endian: its bytes are printed)
 *   statuses              MPI_Status_set_elements, MPI_Status_set_cancelled,
 *                         MPI_Test_cancelled, also on a status a receive filled */
#ifndef OMPI_OMIT_MPI1_COMPAT_DECLS
#define OMPI_OMIT_MPI1_COMPAT_DECLS 0
#endif
#include "conformance.h"

/* Sends `count` of `type` from `out` to the right neighbour and receives as much from the
 * left into `in`. */
static void ring(const void *out, void *in, int count, MPI_Datatype type, int rank, int size)
{
    MPI_Sendrecv(out, count, type, (rank + 1) % size, 3, in, count, type, (rank + size - 1) % size, 3,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
    int version, subversion, len, cls;
    char text[MPI_MAX_LIBRARY_VERSION_STRING];
    MPI_Get_version(&version, &subversion); /* allowed before MPI_Init */
    MPI_Init(&argc, &argv);
    int rank, size, bad = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = (rank + size - 1) % size;

    MPI_Get_library_version(text, &len);
    bad += expect(len > 0 && text[0] != '\0', "MPI_Get_library_version length %d", len);
    MPI_Error_string(MPI_ERR_RANK, text, &len);
    MPI_Error_class(MPI_ERR_RANK, &cls);
    if (rank == 0)
        say("version %d.%d; MPI_ERR_RANK is class MPI_ERR_RANK: %d; its string: %s", version, subversion,
            cls == MPI_ERR_RANK, text);

    /* Envelope and contents of a vector. */
    MPI_Datatype vector, resized, named;
    MPI_Type_vector(3, 2, 5, MPI_INT, &vector);
    int ni, na, nd, combiner, ints[3];
    MPI_Aint addresses[1];
    MPI_Datatype types[1];
    MPI_Type_get_envelope(vector, &ni, &na, &nd, &combiner);
    bad += expect(combiner == MPI_COMBINER_VECTOR && ni == 3 && na == 0 && nd == 1,
                  "vector envelope %d %d %d, combiner vector %d", ni, na, nd, combiner == MPI_COMBINER_VECTOR);
    MPI_Type_get_contents(vector, 3, 0, 1, ints, addresses, types);
    bad += expect(ints[0] == 3 && ints[1] == 2 && ints[2] == 5 && types[0] == MPI_INT, "vector contents %d %d %d",
                  ints[0], ints[1], ints[2]);
    MPI_Type_create_resized(vector, -8, 100, &resized);
    MPI_Count size_x, lb_x, extent_x, true_lb_x, true_extent_x;
    MPI_Type_size_x(resized, &size_x);
    MPI_Type_get_extent_x(resized, &lb_x, &extent_x);
    MPI_Type_get_true_extent_x(resized, &true_lb_x, &true_extent_x);
    if (rank == 0)
        say("resized vector: size %lld, lb %lld, extent %lld, true lb %lld, true extent %lld", (long long)size_x,
            (long long)lb_x, (long long)extent_x, (long long)true_lb_x, (long long)true_extent_x);
    MPI_Aint extent, lb, ub;
    MPI_Type_extent(resized, &extent);
    MPI_Type_lb(resized, &lb);
    MPI_Type_ub(resized, &ub);
    bad += expect(extent == 100 && lb == -8 && ub == 92, "MPI-1 extent %ld lb %ld ub %ld", (long)extent, (long)lb,
                  (long)ub);

    MPI_Type_get_name(MPI_INT, text, &len);
    if (rank == 0)
        say("MPI_INT's name: %s", text);
    MPI_Type_dup(MPI_DOUBLE, &named);
    MPI_Type_set_name(named, "my double");
    MPI_Type_get_name(named, text, &len);
    bad += expect(strcmp(text, "my double") == 0 && len == 9, "a set name reads '%s'", text);
    MPI_Datatype matched;
    int matched_size;
    MPI_Type_match_size(MPI_TYPECLASS_REAL, sizeof(double), &matched);
    MPI_Type_size(matched, &matched_size);
    bad += expect(matched_size == sizeof(double), "MPI_Type_match_size(REAL, 8) has size %d", matched_size);

    /* Derived types of the MPI-1 names and hindexed_block, each through a ring message. */
    int out[12], in[12];
    for (int i = 0; i < 12; i++)
        out[i] = value_of(rank, i, 1);
    MPI_Datatype hblock, hvector, hindexed, strct;
    MPI_Aint hdispl[3] = {0, 4 * sizeof(int), 8 * sizeof(int)};
    MPI_Type_create_hindexed_block(3, 2, hdispl, MPI_INT, &hblock);
    MPI_Type_hvector(2, 3, 6 * sizeof(int), MPI_INT, &hvector);
    int blocks[2] = {1, 2};
    MPI_Aint displs[2] = {sizeof(int), 5 * sizeof(int)};
    MPI_Type_hindexed(2, blocks, displs, MPI_INT, &hindexed);
    MPI_Aint base, third;
    MPI_Address(&out[0], &base);
    MPI_Address(&out[3], &third);
    MPI_Aint struct_displs[2] = {0, third - base};
    MPI_Datatype struct_types[2] = {MPI_INT, MPI_INT};
    MPI_Type_struct(2, blocks, struct_displs, struct_types, &strct);
    MPI_Datatype derived[4] = {hblock, hvector, hindexed, strct};
    const char *names[4] = {"hindexed_block", "hvector", "hindexed", "struct"};
    for (int t = 0; t < 4; t++) {
        MPI_Type_commit(&derived[t]);
        for (int i = 0; i < 12; i++)
            in[i] = -1;
        ring(out, in, 1, derived[t], rank, size);
        say("rank %d %s: %08x", rank, names[t], hash_ints(HASH_INIT, in, 12));
        /* The places the type covers, found by a message to oneself, hold the left
         * neighbour's values; the others are untouched. */
        int ones[12], covered[12] = {0}, want[12];
        for (int i = 0; i < 12; i++)
            ones[i] = 1;
        MPI_Sendrecv(ones, 1, derived[t], rank, 4, covered, 1, derived[t], rank, 4, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        for (int i = 0; i < 12; i++)
            want[i] = covered[i] ? value_of(left, i, 1) : -1;
        bad += check_ints(names[t], in, want, 12);
        MPI_Type_free(&derived[t]);
    }

    /* Memory from MPI_Alloc_mem as a message buffer. */
    int *memory;
    MPI_Alloc_mem(4 * sizeof(int), MPI_INFO_NULL, &memory);
    for (int i = 0; i < 4; i++)
        memory[i] = value_of(rank, i, 2);
    ring(memory, in, 4, MPI_INT, rank, size);
    for (int i = 0; i < 4; i++)
        bad += expect(in[i] == value_of(left, i, 2), "MPI_Alloc_mem buffer element %d is %d", i, in[i]);
    MPI_Free_mem(memory);

    /* Infos. */
    MPI_Info info, copy;
    MPI_Info_create(&info);
    MPI_Info_set(info, "colour", "green");
    MPI_Info_set(info, "size", "large");
    int nkeys, flag, valuelen;
    MPI_Info_get_nkeys(info, &nkeys);
    char key[MPI_MAX_INFO_KEY], value[MPI_MAX_INFO_VAL];
    MPI_Info_get_nthkey(info, 1, key);
    MPI_Info_get_valuelen(info, "colour", &valuelen, &flag);
    bad += expect(nkeys == 2 && strcmp(key, "size") == 0 && flag && valuelen == 5, "info: %d keys, key 1 '%s', "
                  "valuelen %d", nkeys, key, valuelen);
    MPI_Info_dup(info, &copy);
    MPI_Info_delete(info, "colour");
    MPI_Info_get(info, "colour", MPI_MAX_INFO_VAL - 1, value, &flag);
    bad += expect(!flag, "a deleted info key is still there");
    MPI_Info_get(copy, "colour", MPI_MAX_INFO_VAL - 1, value, &flag);
    bad += expect(flag && strcmp(value, "green") == 0, "the duplicate info lost 'colour'");
    MPI_Info_free(&info);
    MPI_Info_free(&copy);
    bad += expect(info == MPI_INFO_NULL, "MPI_Info_free did not null the handle");

    /* External packing: big-endian 4-byte ints whatever the machine. */
    int numbers[2] = {0x01020304, rank};
    unsigned char packed[16];
    MPI_Aint position = 0, packed_size;
    MPI_Pack_external_size("external32", 2, MPI_INT, &packed_size);
    MPI_Pack_external("external32", numbers, 2, MPI_INT, packed, sizeof packed, &position);
    bad += expect(packed_size == 8 && position == 8, "external32 size %ld, position %ld", (long)packed_size,
                  (long)position);
    if (rank == 0)
        say("external32 bytes: %02x %02x %02x %02x", packed[0], packed[1], packed[2], packed[3]);
    int unpacked[2] = {0, 0};
    position = 0;
    MPI_Unpack_external("external32", packed, 8, &position, unpacked, 2, MPI_INT);
    bad += check_ints("external32 round trip", unpacked, numbers, 2);

    /* Statuses. */
    MPI_Status status;
    int count;
    MPI_Status_set_elements(&status, MPI_INT, 3);
    MPI_Get_count(&status, MPI_INT, &count);
    MPI_Status_set_cancelled(&status, 1);
    MPI_Test_cancelled(&status, &flag);
    bad += expect(count == 3 && flag, "status set: count %d, cancelled %d", count, flag);
    MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 5, &count, 1, MPI_INT, left, 5, MPI_COMM_WORLD, &status);
    MPI_Test_cancelled(&status, &flag);
    bad += expect(!flag, "a received message's status says cancelled");

    MPI_Type_free(&vector);
    MPI_Type_free(&resized);
    MPI_Type_free(&named);
    int failures = report_failures(rank, bad);
    MPI_Finalize();
    return failures;
}
