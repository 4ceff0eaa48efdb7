// Fortran bindings: sends, receives, probes and MPI_Get_count.
#include "binding.hpp"

using namespace bamboo::fortran;

extern "C" {

#define BAMBOO_FORTRAN_BLOCKING_SEND(fortran_name, c_name)                                          \
    void fortran_name(const void* buf, const Fint* count, const Fint* type, const Fint* dest,    \
                      const Fint* tag, const Fint* c, Fint* ierr) {                              \
        *ierr = c_name(kFortranSite, buffer(buf), *count, datatype(*type), *dest, *tag, comm(*c)); \
    }
BAMBOO_FORTRAN_BLOCKING_SEND(mpi_send_, bamboo_send)
BAMBOO_FORTRAN_BLOCKING_SEND(mpi_ssend_, bamboo_ssend)
BAMBOO_FORTRAN_BLOCKING_SEND(mpi_rsend_, bamboo_rsend)

BAMBOO_FORTRAN_SEND_WITH_REQUEST(mpi_isend_, bamboo_isend)
BAMBOO_FORTRAN_SEND_WITH_REQUEST(mpi_issend_, bamboo_issend)
BAMBOO_FORTRAN_SEND_WITH_REQUEST(mpi_irsend_, bamboo_irsend)
BAMBOO_FORTRAN_RECEIVE_WITH_REQUEST(mpi_irecv_, bamboo_irecv)

void mpi_recv_(void* buf, const Fint* count, const Fint* type, const Fint* source, const Fint* tag,
               const Fint* c, Fint* status, Fint* ierr) {
    StatusOut out(status);
    *ierr = bamboo_recv(kFortranSite, buffer(buf), *count, datatype(*type), *source, *tag, comm(*c), out.c());
    out.store();
}

void mpi_sendrecv_(const void* sendbuf, const Fint* sendcount, const Fint* sendtype, const Fint* dest,
                   const Fint* sendtag, void* recvbuf, const Fint* recvcount, const Fint* recvtype,
                   const Fint* source, const Fint* recvtag, const Fint* c, Fint* status, Fint* ierr) {
    StatusOut out(status);
    *ierr = bamboo_sendrecv(kFortranSite, buffer(sendbuf), *sendcount, datatype(*sendtype), *dest, *sendtag,
                            buffer(recvbuf), *recvcount, datatype(*recvtype), *source, *recvtag, comm(*c),
                            out.c());
    out.store();
}

void mpi_sendrecv_replace_(void* buf, const Fint* count, const Fint* type, const Fint* dest,
                           const Fint* sendtag, const Fint* source, const Fint* recvtag, const Fint* c,
                           Fint* status, Fint* ierr) {
    StatusOut out(status);
    *ierr = bamboo_sendrecv_replace(kFortranSite, buffer(buf), *count, datatype(*type), *dest, *sendtag,
                                    *source, *recvtag, comm(*c), out.c());
    out.store();
}

void mpi_probe_(const Fint* source, const Fint* tag, const Fint* c, Fint* status, Fint* ierr) {
    StatusOut out(status);
    *ierr = bamboo_probe(kFortranSite, *source, *tag, comm(*c), out.c());
    out.store();
}

void mpi_iprobe_(const Fint* source, const Fint* tag, const Fint* c, Fint* flag, Fint* status, Fint* ierr) {
    StatusOut out(status);
    int found = 0;
    *ierr = bamboo_iprobe(kFortranSite, *source, *tag, comm(*c), &found, out.c());
    *flag = found != 0;
    if (found) out.store();
}

void mpi_get_count_(const Fint* status, const Fint* type, Fint* count, Fint* ierr) {
    MPI_Status c = load_status(status);
    int n = 0;
    *ierr = bamboo_get_count(&c, datatype(*type), &n);
    *count = n;
}

}  // extern "C"
