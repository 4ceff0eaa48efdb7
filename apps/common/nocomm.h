/* MPI-nocomm: the MPI-basic source with its message passing switched off (apps/common/app.mk
 * compiles it with -include nocomm.h). Point-to-point calls and the collectives that move an
 * algorithm's data return at once without moving anything: what is left is the computation,
 * the upper bound on what hiding communication can give (seed 000 SV-B).
 *
 * MPI_Allreduce, MPI_Barrier and the calls that set up communicators stay real, so that the
 * program can still agree on a time and a verification. Its verification is meaningless,
 * though: the program checks BAMBOO_NOCOMM (app.h's app_verified) and reports it skipped. */
#ifndef BAMBOO_APPS_NOCOMM_H
#define BAMBOO_APPS_NOCOMM_H

#include <mpi.h>

#define BAMBOO_NOCOMM 1

/* A call that does nothing; its arguments are still evaluated, as the program expects. */
static inline int nocomm_call(const void *first, ...)
{
    (void)first;
    return MPI_SUCCESS;
}

static inline int nocomm_request(MPI_Request *request)
{
    *request = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
}

static inline int nocomm_waitall(int count, MPI_Request requests[], MPI_Status *statuses)
{
    (void)statuses;
    for (int i = 0; i < count; i++)
        requests[i] = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
}

#define MPI_Send(...) nocomm_call(__VA_ARGS__)
#define MPI_Recv(...) nocomm_call(__VA_ARGS__)
#define MPI_Sendrecv(...) nocomm_call(__VA_ARGS__)
#define MPI_Isend(buf, count, type, dest, tag, comm, request) nocomm_call(buf, count, type, dest, tag, comm, nocomm_request(request))
#define MPI_Irecv(buf, count, type, source, tag, comm, request) nocomm_call(buf, count, type, source, tag, comm, nocomm_request(request))
#define MPI_Wait(request, status) nocomm_call(request, status)
#define MPI_Waitall(count, requests, statuses) nocomm_waitall(count, requests, statuses)
#define MPI_Bcast(...) nocomm_call(__VA_ARGS__)
#define MPI_Reduce(...) nocomm_call(__VA_ARGS__)
#define MPI_Gather(...) nocomm_call(__VA_ARGS__)
#define MPI_Scatter(...) nocomm_call(__VA_ARGS__)
#define MPI_Allgather(...) nocomm_call(__VA_ARGS__)
#define MPI_Alltoall(...) nocomm_call(__VA_ARGS__)

#endif
