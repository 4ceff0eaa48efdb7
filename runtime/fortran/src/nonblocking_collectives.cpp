// Fortran bindings: the nonblocking collectives. The collective goes on after the call returns,
// reading the program's buffers and count and displacement arrays (default integers, C's int,
// so passed as they are) until the request completes, as MPI requires of them.
#include "binding.hpp"

using namespace bamboo::fortran;

extern "C" {

void mpi_ibarrier_(const Fint* c, Fint* request, Fint* ierr) {
    MPI_Request r = MPI_REQUEST_NULL;
    *ierr = bamboo_ibarrier(kFortranSite, comm(*c), &r);
    *request = request_handle(r);
}

void mpi_ibcast_(void* buf, const Fint* count, const Fint* type, const Fint* root, const Fint* c, Fint* request,
                 Fint* ierr) {
    MPI_Request r = MPI_REQUEST_NULL;
    *ierr = bamboo_ibcast(kFortranSite, buffer(buf), *count, datatype(*type), *root, comm(*c), &r);
    *request = request_handle(r);
}

void mpi_ireduce_(const void* sendbuf, void* recvbuf, const Fint* count, const Fint* type, const Fint* o,
                  const Fint* root, const Fint* c, Fint* request, Fint* ierr) {
    MPI_Request r = MPI_REQUEST_NULL;
    *ierr = bamboo_ireduce(kFortranSite, buffer(sendbuf), buffer(recvbuf), *count, datatype(*type), op(*o), *root,
                           comm(*c), &r);
    *request = request_handle(r);
}

#define BAMBOO_FORTRAN_IREDUCTION(fortran_name, c_name)                                             \
    void fortran_name(const void* sendbuf, void* recvbuf, const Fint* count, const Fint* type,  \
                      const Fint* o, const Fint* c, Fint* request, Fint* ierr) {                 \
        MPI_Request r = MPI_REQUEST_NULL;                                                         \
        *ierr = c_name(kFortranSite, buffer(sendbuf), buffer(recvbuf), *count, datatype(*type), op(*o), \
                       comm(*c), &r);                                                            \
        *request = request_handle(r);                                                             \
    }
BAMBOO_FORTRAN_IREDUCTION(mpi_iallreduce_, bamboo_iallreduce)
BAMBOO_FORTRAN_IREDUCTION(mpi_iscan_, bamboo_iscan)
BAMBOO_FORTRAN_IREDUCTION(mpi_iexscan_, bamboo_iexscan)
BAMBOO_FORTRAN_IREDUCTION(mpi_ireduce_scatter_block_, bamboo_ireduce_scatter_block)

void mpi_ireduce_scatter_(const void* sendbuf, void* recvbuf, const Fint* recvcounts, const Fint* type,
                          const Fint* o, const Fint* c, Fint* request, Fint* ierr) {
    MPI_Request r = MPI_REQUEST_NULL;
    *ierr = bamboo_ireduce_scatter(kFortranSite, buffer(sendbuf), buffer(recvbuf), recvcounts, datatype(*type),
                                   op(*o), comm(*c), &r);
    *request = request_handle(r);
}

#define BAMBOO_FORTRAN_IROOTED(fortran_name, c_name)                                                \
    void fortran_name(const void* sendbuf, const Fint* sendcount, const Fint* sendtype, void* recvbuf, \
                      const Fint* recvcount, const Fint* recvtype, const Fint* root, const Fint* c, \
                      Fint* request, Fint* ierr) {                                               \
        MPI_Request r = MPI_REQUEST_NULL;                                                         \
        *ierr = c_name(kFortranSite, buffer(sendbuf), *sendcount, datatype(*sendtype), buffer(recvbuf), \
                       *recvcount, datatype(*recvtype), *root, comm(*c), &r);                    \
        *request = request_handle(r);                                                             \
    }
BAMBOO_FORTRAN_IROOTED(mpi_igather_, bamboo_igather)
BAMBOO_FORTRAN_IROOTED(mpi_iscatter_, bamboo_iscatter)

void mpi_igatherv_(const void* sendbuf, const Fint* sendcount, const Fint* sendtype, void* recvbuf,
                   const Fint* recvcounts, const Fint* displs, const Fint* recvtype, const Fint* root,
                   const Fint* c, Fint* request, Fint* ierr) {
    MPI_Request r = MPI_REQUEST_NULL;
    *ierr = bamboo_igatherv(kFortranSite, buffer(sendbuf), *sendcount, datatype(*sendtype), buffer(recvbuf),
                            recvcounts, displs, datatype(*recvtype), *root, comm(*c), &r);
    *request = request_handle(r);
}

void mpi_iscatterv_(const void* sendbuf, const Fint* sendcounts, const Fint* displs, const Fint* sendtype,
                    void* recvbuf, const Fint* recvcount, const Fint* recvtype, const Fint* root, const Fint* c,
                    Fint* request, Fint* ierr) {
    MPI_Request r = MPI_REQUEST_NULL;
    *ierr = bamboo_iscatterv(kFortranSite, buffer(sendbuf), sendcounts, displs, datatype(*sendtype),
                             buffer(recvbuf), *recvcount, datatype(*recvtype), *root, comm(*c), &r);
    *request = request_handle(r);
}

#define BAMBOO_FORTRAN_IALL_TO(fortran_name, c_name)                                                \
    void fortran_name(const void* sendbuf, const Fint* sendcount, const Fint* sendtype, void* recvbuf, \
                      const Fint* recvcount, const Fint* recvtype, const Fint* c, Fint* request,   \
                      Fint* ierr) {                                                              \
        MPI_Request r = MPI_REQUEST_NULL;                                                         \
        *ierr = c_name(kFortranSite, buffer(sendbuf), *sendcount, datatype(*sendtype), buffer(recvbuf), \
                       *recvcount, datatype(*recvtype), comm(*c), &r);                           \
        *request = request_handle(r);                                                             \
    }
BAMBOO_FORTRAN_IALL_TO(mpi_iallgather_, bamboo_iallgather)
BAMBOO_FORTRAN_IALL_TO(mpi_ialltoall_, bamboo_ialltoall)

void mpi_iallgatherv_(const void* sendbuf, const Fint* sendcount, const Fint* sendtype, void* recvbuf,
                      const Fint* recvcounts, const Fint* displs, const Fint* recvtype, const Fint* c,
                      Fint* request, Fint* ierr) {
    MPI_Request r = MPI_REQUEST_NULL;
    *ierr = bamboo_iallgatherv(kFortranSite, buffer(sendbuf), *sendcount, datatype(*sendtype), buffer(recvbuf),
                               recvcounts, displs, datatype(*recvtype), comm(*c), &r);
    *request = request_handle(r);
}

void mpi_ialltoallv_(const void* sendbuf, const Fint* sendcounts, const Fint* sdispls, const Fint* sendtype,
                     void* recvbuf, const Fint* recvcounts, const Fint* rdispls, const Fint* recvtype,
                     const Fint* c, Fint* request, Fint* ierr) {
    MPI_Request r = MPI_REQUEST_NULL;
    *ierr = bamboo_ialltoallv(kFortranSite, buffer(sendbuf), sendcounts, sdispls, datatype(*sendtype),
                              buffer(recvbuf), recvcounts, rdispls, datatype(*recvtype), comm(*c), &r);
    *request = request_handle(r);
}

}  // extern "C"
