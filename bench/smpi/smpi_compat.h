/* What the Bamboo runtime needs of MPI and SimGrid SMPI 3.32's mpi.h lacks. Force-included
 * (-include) into the runtime's SMPI build only (build/runtime-smpi, see bench/smpi/run).
 *
 * MPI's tools interface (MPI_T_*), as stubs that report failure: the runtime reads Open MPI's
 * "btl" control variable through MPI_T to learn whether processes of a node share memory,
 * and treats a failed MPI_T_init_thread as "no such variable", which is right for SMPI.
 *
 * MPI-3's const: SMPI declares a few functions with pointers the standard makes const. */
#ifndef BAMBOO_SMPI_COMPAT_H
#define BAMBOO_SMPI_COMPAT_H

#include <mpi.h>

/* SMPI 3.32 declares none of these (it only names the MPI_T error codes). A SimGrid that
 * declares them would clash here, and the build would say so. */
typedef void *MPI_T_cvar_handle;

static inline int MPI_T_init_thread(int required, int *provided)
{
    (void)required;
    *provided = MPI_THREAD_SINGLE;
    return MPI_ERR_OTHER;
}
static inline int MPI_T_finalize(void) { return MPI_ERR_OTHER; }
static inline int MPI_T_cvar_get_index(const char *name, int *index)
{
    (void)name;
    (void)index;
    return MPI_ERR_OTHER;
}
static inline int MPI_T_cvar_handle_alloc(int index, void *object, MPI_T_cvar_handle *handle,
                                          int *count)
{
    (void)index;
    (void)object;
    (void)handle;
    (void)count;
    return MPI_ERR_OTHER;
}
static inline int MPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf)
{
    (void)handle;
    (void)buf;
    return MPI_ERR_OTHER;
}
static inline int MPI_T_cvar_handle_free(MPI_T_cvar_handle *handle)
{
    (void)handle;
    return MPI_ERR_OTHER;
}

#ifdef __cplusplus
/* Overloads with the standard's parameters, for the runtime's const arguments (SMPI only reads
 * through these pointers); a call with non-const ones still picks SMPI's own. */
inline int MPI_Get_elements(const MPI_Status *status, MPI_Datatype type, int *count)
{
    return MPI_Get_elements(const_cast<MPI_Status *>(status), type, count);
}
inline int MPI_Get_elements_x(const MPI_Status *status, MPI_Datatype type, MPI_Count *count)
{
    return MPI_Get_elements_x(const_cast<MPI_Status *>(status), type, count);
}
inline int MPI_Type_create_darray(int size, int rank, int ndims, const int gsizes[],
                                  const int distribs[], const int dargs[], const int psizes[],
                                  int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return MPI_Type_create_darray(size, rank, ndims, const_cast<int *>(gsizes),
                                  const_cast<int *>(distribs), const_cast<int *>(dargs),
                                  const_cast<int *>(psizes), order, oldtype, newtype);
}
inline int MPI_Pack_external_size(const char *datarep, int incount, MPI_Datatype type,
                                  MPI_Aint *size)
{
    return MPI_Pack_external_size(const_cast<char *>(datarep), incount, type, size);
}
inline int MPI_Pack_external(const char *datarep, const void *inbuf, int incount,
                             MPI_Datatype type, void *outbuf, MPI_Aint outsize, MPI_Aint *position)
{
    return MPI_Pack_external(const_cast<char *>(datarep), const_cast<void *>(inbuf), incount,
                             type, outbuf, outsize, position);
}
inline int MPI_Unpack_external(const char *datarep, const void *inbuf, MPI_Aint insize,
                               MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype type)
{
    return MPI_Unpack_external(const_cast<char *>(datarep), const_cast<void *>(inbuf), insize,
                               position, outbuf, outcount, type);
}
#endif

#endif
