// Fortran bindings: persistent requests. A persistent request's integer names it from its
// MPI_*_init to its MPI_Request_free: waits and tests leave it in the table (update_requests).
#include "binding.hpp"

using namespace bamboo::fortran;

extern "C" {

#define BAMBOO_FORTRAN_SEND_INIT(fortran_name, c_name)                                              \
    void fortran_name(const void* buf, const Fint* count, const Fint* type, const Fint* dest,    \
                      const Fint* tag, const Fint* c, Fint* request, Fint* ierr) {               \
        MPI_Request r = MPI_REQUEST_NULL;                                                         \
        *ierr = c_name(kFortranSite, buffer(buf), *count, datatype(*type), *dest, *tag, comm(*c), &r); \
        *request = request_handle(r);                                                             \
    }
BAMBOO_FORTRAN_SEND_INIT(mpi_send_init_, bamboo_send_init)
BAMBOO_FORTRAN_SEND_INIT(mpi_ssend_init_, bamboo_ssend_init)
BAMBOO_FORTRAN_SEND_INIT(mpi_rsend_init_, bamboo_rsend_init)

void mpi_recv_init_(void* buf, const Fint* count, const Fint* type, const Fint* source, const Fint* tag,
                    const Fint* c, Fint* request, Fint* ierr) {
    MPI_Request r = MPI_REQUEST_NULL;
    *ierr = bamboo_recv_init(kFortranSite, buffer(buf), *count, datatype(*type), *source, *tag, comm(*c), &r);
    *request = request_handle(r);
}

void mpi_start_(Fint* request, Fint* ierr) {
    auto c = requests(request, 1);
    *ierr = bamboo_start(kFortranSite, c.data());
    update_requests(request, c, 1);
}

void mpi_startall_(const Fint* count, Fint* handles, Fint* ierr) {
    auto c = requests(handles, *count);
    *ierr = bamboo_startall(kFortranSite, *count, c.data());
    update_requests(handles, c, *count);
}

}  // extern "C"
