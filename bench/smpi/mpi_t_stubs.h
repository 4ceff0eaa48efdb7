/* MPI's tools interface (MPI_T_*), which SimGrid SMPI 3.32 does not provide, as stubs that
 * report failure. Force-included (-include) into the Bamboo runtime's SMPI build only
 * (build/runtime-smpi, see bench/smpi/run): the runtime reads Open MPI's "btl" control
 * variable through MPI_T to learn whether processes of a node share memory, and treats a
 * failed MPI_T_init_thread as "no such variable", which is right for SMPI. */
#ifndef BAMBOO_SMPI_MPI_T_STUBS_H
#define BAMBOO_SMPI_MPI_T_STUBS_H

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

#endif
