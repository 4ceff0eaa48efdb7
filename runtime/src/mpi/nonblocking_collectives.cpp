// Nonblocking collectives: the blocking call, run as background work of the calling task
// (core/background.hpp). It starts at once and goes on whenever the task calls into the
// runtime or waits, until the request completes. Collective calls are numbered per
// communicator (collectives/structure.hpp), so several may be in progress on one.
#include <mpi.h>

#include "bamboo.h"
#include "messaging/rank.hpp"
#include "mpi/api.hpp"

namespace bamboo {
namespace {

template <class Blocking, class... Args>
int start_collective(const char* call, bamboo_site at, MPI_Comm comm, MPI_Request* handle, Blocking blocking,
                     Args... args) {
    return checked_call(comm, [&]() -> int {
        Rank& self = calling_rank(call, at);
        resolve_comm(self, comm, call, at);
        Request* request = new_request(self, handle, call, at);
        request->kind = Request::Kind::collective;
        request->owner = &self;
        request->call = call;
        request->site = at;
        // The arguments are copied: the program's variables that held them may change meanwhile.
        // The blocking call applies the communicator's error handler itself.
        self.background.start([=] {
            blocking(at, args...);
            request->complete.store(true);
        });
        return MPI_SUCCESS;
    });
}

}  // namespace
}  // namespace bamboo

using namespace bamboo;

extern "C" {

int bamboo_ibarrier(bamboo_site at, MPI_Comm comm, MPI_Request* request) {
    return start_collective("MPI_Ibarrier", at, comm, request, bamboo_barrier, comm);
}

int bamboo_ibcast(bamboo_site at, void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm,
                  MPI_Request* request) {
    return start_collective("MPI_Ibcast", at, comm, request, bamboo_bcast, buffer, count, type, root, comm);
}

int bamboo_ireduce(bamboo_site at, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                   int root, MPI_Comm comm, MPI_Request* request) {
    return start_collective("MPI_Ireduce", at, comm, request, bamboo_reduce, sendbuf, recvbuf, count, type, op, root,
                            comm);
}

int bamboo_iallreduce(bamboo_site at, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                      MPI_Comm comm, MPI_Request* request) {
    return start_collective("MPI_Iallreduce", at, comm, request, bamboo_allreduce, sendbuf, recvbuf, count, type, op,
                            comm);
}

int bamboo_igather(bamboo_site at, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
    return start_collective("MPI_Igather", at, comm, request, bamboo_gather, sendbuf, sendcount, sendtype, recvbuf,
                            recvcount, recvtype, root, comm);
}

int bamboo_igatherv(bamboo_site at, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
                    MPI_Request* request) {
    return start_collective("MPI_Igatherv", at, comm, request, bamboo_gatherv, sendbuf, sendcount, sendtype, recvbuf,
                            recvcounts, displs, recvtype, root, comm);
}

int bamboo_iscatter(bamboo_site at, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
    return start_collective("MPI_Iscatter", at, comm, request, bamboo_scatter, sendbuf, sendcount, sendtype, recvbuf,
                            recvcount, recvtype, root, comm);
}

int bamboo_iscatterv(bamboo_site at, const void* sendbuf, const int sendcounts[], const int displs[],
                     MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                     MPI_Comm comm, MPI_Request* request) {
    return start_collective("MPI_Iscatterv", at, comm, request, bamboo_scatterv, sendbuf, sendcounts, displs,
                            sendtype, recvbuf, recvcount, recvtype, root, comm);
}

int bamboo_iallgather(bamboo_site at, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
    return start_collective("MPI_Iallgather", at, comm, request, bamboo_allgather, sendbuf, sendcount, sendtype,
                            recvbuf, recvcount, recvtype, comm);
}

int bamboo_iallgatherv(bamboo_site at, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                       const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                       MPI_Request* request) {
    return start_collective("MPI_Iallgatherv", at, comm, request, bamboo_allgatherv, sendbuf, sendcount, sendtype,
                            recvbuf, recvcounts, displs, recvtype, comm);
}

int bamboo_ialltoall(bamboo_site at, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
    return start_collective("MPI_Ialltoall", at, comm, request, bamboo_alltoall, sendbuf, sendcount, sendtype,
                            recvbuf, recvcount, recvtype, comm);
}

int bamboo_ialltoallv(bamboo_site at, const void* sendbuf, const int sendcounts[], const int sdispls[],
                      MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
    return start_collective("MPI_Ialltoallv", at, comm, request, bamboo_alltoallv, sendbuf, sendcounts, sdispls,
                            sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
}

int bamboo_ialltoallw(bamboo_site at, const void* sendbuf, const int sendcounts[], const int sdispls[],
                      const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],
                      const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request* request) {
    return start_collective("MPI_Ialltoallw", at, comm, request, bamboo_alltoallw, sendbuf, sendcounts, sdispls,
                            sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
}

int bamboo_ireduce_scatter(bamboo_site at, const void* sendbuf, void* recvbuf, const int recvcounts[],
                           MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request* request) {
    return start_collective("MPI_Ireduce_scatter", at, comm, request, bamboo_reduce_scatter, sendbuf, recvbuf,
                            recvcounts, type, op, comm);
}

int bamboo_ireduce_scatter_block(bamboo_site at, const void* sendbuf, void* recvbuf, int recvcount,
                                 MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request* request) {
    return start_collective("MPI_Ireduce_scatter_block", at, comm, request, bamboo_reduce_scatter_block, sendbuf,
                            recvbuf, recvcount, type, op, comm);
}

int bamboo_iscan(bamboo_site at, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                 MPI_Comm comm, MPI_Request* request) {
    return start_collective("MPI_Iscan", at, comm, request, bamboo_scan, sendbuf, recvbuf, count, type, op, comm);
}

int bamboo_iexscan(bamboo_site at, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                   MPI_Comm comm, MPI_Request* request) {
    return start_collective("MPI_Iexscan", at, comm, request, bamboo_exscan, sendbuf, recvbuf, count, type, op, comm);
}

int bamboo_ineighbor_allgather(bamboo_site at, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                               void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                               MPI_Request* request) {
    return start_collective("MPI_Ineighbor_allgather", at, comm, request, bamboo_neighbor_allgather, sendbuf,
                            sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int bamboo_ineighbor_allgatherv(bamboo_site at, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Request* request) {
    return start_collective("MPI_Ineighbor_allgatherv", at, comm, request, bamboo_neighbor_allgatherv, sendbuf,
                            sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}

int bamboo_ineighbor_alltoall(bamboo_site at, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                              void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                              MPI_Request* request) {
    return start_collective("MPI_Ineighbor_alltoall", at, comm, request, bamboo_neighbor_alltoall, sendbuf,
                            sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int bamboo_ineighbor_alltoallv(bamboo_site at, const void* sendbuf, const int sendcounts[], const int sdispls[],
                               MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
    return start_collective("MPI_Ineighbor_alltoallv", at, comm, request, bamboo_neighbor_alltoallv, sendbuf,
                            sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
}

int bamboo_ineighbor_alltoallw(bamboo_site at, const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                               const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                               MPI_Request* request) {
    return start_collective("MPI_Ineighbor_alltoallw", at, comm, request, bamboo_neighbor_alltoallw, sendbuf,
                            sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
}

// The new communicator's handle is written when the request completes.
int bamboo_comm_idup(bamboo_site at, MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request) {
    return start_collective("MPI_Comm_idup", at, comm, request, bamboo_comm_dup, comm, newcomm);
}

}  // extern "C"
