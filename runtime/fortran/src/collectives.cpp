// Fortran bindings: the collectives. Counts and displacements are default integers, as C's int.
#include "binding.hpp"

using namespace bamboo::fortran;

extern "C" {

void mpi_barrier_(const Fint* c, Fint* ierr) { *ierr = bamboo_barrier(kFortranSite, comm(*c)); }

void mpi_bcast_(void* buf, const Fint* count, const Fint* type, const Fint* root, const Fint* c, Fint* ierr) {
    *ierr = bamboo_bcast(kFortranSite, buffer(buf), *count, datatype(*type), *root, comm(*c));
}

void mpi_reduce_(const void* sendbuf, void* recvbuf, const Fint* count, const Fint* type, const Fint* o,
                 const Fint* root, const Fint* c, Fint* ierr) {
    *ierr = bamboo_reduce(kFortranSite, buffer(sendbuf), buffer(recvbuf), *count, datatype(*type), op(*o), *root,
                          comm(*c));
}

#define BAMBOO_FORTRAN_REDUCTION(fortran_name, c_name)                                              \
    void fortran_name(const void* sendbuf, void* recvbuf, const Fint* count, const Fint* type,  \
                      const Fint* o, const Fint* c, Fint* ierr) {                               \
        *ierr = c_name(kFortranSite, buffer(sendbuf), buffer(recvbuf), *count, datatype(*type), op(*o), \
                       comm(*c));                                                                \
    }
BAMBOO_FORTRAN_REDUCTION(mpi_allreduce_, bamboo_allreduce)
BAMBOO_FORTRAN_REDUCTION(mpi_scan_, bamboo_scan)
BAMBOO_FORTRAN_REDUCTION(mpi_exscan_, bamboo_exscan)
BAMBOO_FORTRAN_REDUCTION(mpi_reduce_scatter_block_, bamboo_reduce_scatter_block)

void mpi_reduce_scatter_(const void* sendbuf, void* recvbuf, const Fint* recvcounts, const Fint* type,
                         const Fint* o, const Fint* c, Fint* ierr) {
    *ierr = bamboo_reduce_scatter(kFortranSite, buffer(sendbuf), buffer(recvbuf), recvcounts, datatype(*type),
                                  op(*o), comm(*c));
}

#define BAMBOO_FORTRAN_ROOTED(fortran_name, c_name)                                                 \
    void fortran_name(const void* sendbuf, const Fint* sendcount, const Fint* sendtype, void* recvbuf, \
                      const Fint* recvcount, const Fint* recvtype, const Fint* root, const Fint* c, \
                      Fint* ierr) {                                                              \
        *ierr = c_name(kFortranSite, buffer(sendbuf), *sendcount, datatype(*sendtype), buffer(recvbuf), \
                       *recvcount, datatype(*recvtype), *root, comm(*c));                        \
    }
BAMBOO_FORTRAN_ROOTED(mpi_gather_, bamboo_gather)
BAMBOO_FORTRAN_ROOTED(mpi_scatter_, bamboo_scatter)

void mpi_gatherv_(const void* sendbuf, const Fint* sendcount, const Fint* sendtype, void* recvbuf,
                  const Fint* recvcounts, const Fint* displs, const Fint* recvtype, const Fint* root,
                  const Fint* c, Fint* ierr) {
    *ierr = bamboo_gatherv(kFortranSite, buffer(sendbuf), *sendcount, datatype(*sendtype), buffer(recvbuf),
                           recvcounts, displs, datatype(*recvtype), *root, comm(*c));
}

void mpi_scatterv_(const void* sendbuf, const Fint* sendcounts, const Fint* displs, const Fint* sendtype,
                   void* recvbuf, const Fint* recvcount, const Fint* recvtype, const Fint* root, const Fint* c,
                   Fint* ierr) {
    *ierr = bamboo_scatterv(kFortranSite, buffer(sendbuf), sendcounts, displs, datatype(*sendtype),
                            buffer(recvbuf), *recvcount, datatype(*recvtype), *root, comm(*c));
}

#define BAMBOO_FORTRAN_ALL_TO(fortran_name, c_name)                                                 \
    void fortran_name(const void* sendbuf, const Fint* sendcount, const Fint* sendtype, void* recvbuf, \
                      const Fint* recvcount, const Fint* recvtype, const Fint* c, Fint* ierr) {  \
        *ierr = c_name(kFortranSite, buffer(sendbuf), *sendcount, datatype(*sendtype), buffer(recvbuf), \
                       *recvcount, datatype(*recvtype), comm(*c));                               \
    }
BAMBOO_FORTRAN_ALL_TO(mpi_allgather_, bamboo_allgather)
BAMBOO_FORTRAN_ALL_TO(mpi_alltoall_, bamboo_alltoall)

void mpi_allgatherv_(const void* sendbuf, const Fint* sendcount, const Fint* sendtype, void* recvbuf,
                     const Fint* recvcounts, const Fint* displs, const Fint* recvtype, const Fint* c, Fint* ierr) {
    *ierr = bamboo_allgatherv(kFortranSite, buffer(sendbuf), *sendcount, datatype(*sendtype), buffer(recvbuf),
                              recvcounts, displs, datatype(*recvtype), comm(*c));
}

void mpi_alltoallv_(const void* sendbuf, const Fint* sendcounts, const Fint* sdispls, const Fint* sendtype,
                    void* recvbuf, const Fint* recvcounts, const Fint* rdispls, const Fint* recvtype,
                    const Fint* c, Fint* ierr) {
    *ierr = bamboo_alltoallv(kFortranSite, buffer(sendbuf), sendcounts, sdispls, datatype(*sendtype),
                             buffer(recvbuf), recvcounts, rdispls, datatype(*recvtype), comm(*c));
}

}  // extern "C"
