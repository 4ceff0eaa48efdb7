// Fortran bindings: persistent requests. A persistent request's integer names it from its
// MPI_*_init to its MPI_Request_free: waits and tests leave it in the table (update_requests).
#include "binding.hpp"

using namespace bamboo::fortran;

extern "C" {

BAMBOO_FORTRAN_SEND_WITH_REQUEST(mpi_send_init_, bamboo_send_init)
BAMBOO_FORTRAN_SEND_WITH_REQUEST(mpi_ssend_init_, bamboo_ssend_init)
BAMBOO_FORTRAN_SEND_WITH_REQUEST(mpi_rsend_init_, bamboo_rsend_init)
BAMBOO_FORTRAN_RECEIVE_WITH_REQUEST(mpi_recv_init_, bamboo_recv_init)

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
