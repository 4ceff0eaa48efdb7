/* bamboo_loopcomm_mpi.h: the run-time half of the loop communication optimization for MPI
 * one-sided communication (docs/loop-communication.md).
 *
 * An MPI_Get or MPI_Put of one element completes only when its epoch does (a fence, an
 * unlock, a flush), and until then the program may touch neither its origin nor its target.
 * So the one-element accesses of a loop nest can all move as one transfer after the nest,
 * without changing what the program computes: the translator removes them from the loop and
 * calls bamboo_lc_mpi_move once per access after it, with the origin's LMAD (in elements of
 * the origin's C type) and the target's (in the window's displacement units), both taken from
 * the user's own expressions.  There is nothing to overlap inside an epoch, so no strips.
 *
 * Header only: its MPI calls are the program's own (a Bamboo build's are the runtime's).
 */
#ifndef BAMBOO_LOOPCOMM_MPI_H
#define BAMBOO_LOOPCOMM_MPI_H

#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "bamboo_loopcomm.h"

/* One element at a time, as the loop did: for a region a derived type cannot describe. */
static inline int bamboo_lc_mpi_each(int direction, char *origin, size_t origin_elem, int dims,
                                     const long *origin_stride, const long *count,
                                     MPI_Datatype type, int rank, long disp,
                                     const long *target_stride, MPI_Win win)
{
    long t[BAMBOO_LC_MAX_DIMS] = {0};
    for (;;) {
        long o = 0, d = disp;
        for (int k = 0; k < dims; k++) {
            o += origin_stride[k] * t[k];
            d += target_stride[k] * t[k];
        }
        char *at = origin + o * (long)origin_elem;
        int rc = direction == BAMBOO_LC_GET ? MPI_Get(at, 1, type, rank, (MPI_Aint)d, 1, type, win)
                                            : MPI_Put(at, 1, type, rank, (MPI_Aint)d, 1, type, win);
        if (rc != MPI_SUCCESS)
            return rc;
        int k = dims - 1;
        while (k >= 0 && ++t[k] == count[k])
            t[k--] = 0;
        if (k < 0)
            return MPI_SUCCESS;
    }
}

/* count[0] x ... x count[dims-1] elements of `type`, element (t_0, ...) at byte
 * sum_k stride[k] * unit * t_k: built from the innermost loop out, so that an origin's and a
 * target's type list their elements in the same order. */
static inline int bamboo_lc_mpi_lmad_type(MPI_Datatype type, int dims, const long *count,
                                          const long *stride, long unit, MPI_Datatype *out)
{
    MPI_Datatype t = type, next;
    for (int k = dims - 1; k >= 0; k--) {
        int rc = MPI_Type_create_hvector((int)count[k], 1, (MPI_Aint)(stride[k] * unit), t, &next);
        if (t != type)
            MPI_Type_free(&t);
        if (rc != MPI_SUCCESS)
            return rc;
        t = next;
    }
    *out = t;
    return MPI_Type_commit(out);
}

/* The target's displacement unit in bytes, which the target type's strides need, or 0 when it
 * is not known. MPI tells a process only its own (MPI_WIN_DISP_UNIT); a Bamboo build asks the
 * runtime, which knows every member's. A plain MPI build takes its own for the target's when it
 * is the element's size, as when every member makes the window alike (MPI_Win_allocate(n *
 * sizeof(T), sizeof(T), ...)); else it moves the elements one at a time. */
static inline long bamboo_lc_mpi_target_unit(MPI_Win win, int rank, MPI_Datatype type)
{
#ifdef BAMBOO_H
    (void)type;
    return bamboo_win_disp_unit_of(win, rank);
#else
    int *unit, found, size;
    (void)rank;
    MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &unit, &found);
    MPI_Type_size(type, &size);
    return found && *unit == size ? *unit : 0;
#endif
}

/* The one-element accesses of a nest, as one MPI_Get or MPI_Put of a derived type on each
 * side (BAMBOO_LC_KIND=pieces: one element at a time, as written). */
static inline int bamboo_lc_mpi_move(int direction, void *origin, size_t origin_elem, int dims,
                                     const long *origin_stride, const long *count,
                                     MPI_Datatype type, int rank, long disp,
                                     const long *target_stride, MPI_Win win)
{
    for (int k = 0; k < dims; k++)
        if (count[k] <= 0)
            return MPI_SUCCESS;
    const char *kind = getenv("BAMBOO_LC_KIND");
    int huge = 0;
    for (int k = 0; k < dims; k++)
        huge |= count[k] > INT_MAX;
    if (huge || (kind && strcmp(kind, "pieces") == 0))
        return bamboo_lc_mpi_each(direction, (char *)origin, origin_elem, dims, origin_stride,
                                  count, type, rank, disp, target_stride, win);
    long unit = bamboo_lc_mpi_target_unit(win, rank, type);
    if (unit == 0)
        return bamboo_lc_mpi_each(direction, (char *)origin, origin_elem, dims, origin_stride,
                                  count, type, rank, disp, target_stride, win);
    MPI_Datatype origin_type, target_type = MPI_DATATYPE_NULL;
    int rc = bamboo_lc_mpi_lmad_type(type, dims, count, origin_stride, (long)origin_elem,
                                     &origin_type);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = bamboo_lc_mpi_lmad_type(type, dims, count, target_stride, unit, &target_type);
    if (rc == MPI_SUCCESS)
        rc = direction == BAMBOO_LC_GET
                 ? MPI_Get(origin, 1, origin_type, rank, (MPI_Aint)disp, 1, target_type, win)
                 : MPI_Put(origin, 1, origin_type, rank, (MPI_Aint)disp, 1, target_type, win);
    MPI_Type_free(&origin_type);
    if (target_type != MPI_DATATYPE_NULL)
        MPI_Type_free(&target_type);
    return rc;
}

#endif
