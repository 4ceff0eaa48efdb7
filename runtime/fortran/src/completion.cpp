// Fortran bindings: waiting for, testing, cancelling and freeing requests.
#include "binding.hpp"

using namespace bamboo::fortran;

extern "C" {

void mpi_wait_(Fint* request, Fint* status, Fint* ierr) {
    auto c = requests(request, 1);
    StatusOut out(status);
    *ierr = bamboo_wait(kFortranSite, c.data(), out.c());
    update_requests(request, c, 1);
    out.store();
}

void mpi_test_(Fint* request, Fint* flag, Fint* status, Fint* ierr) {
    auto c = requests(request, 1);
    StatusOut out(status);
    int done = 0;
    *ierr = bamboo_test(kFortranSite, c.data(), &done, out.c());
    *flag = done != 0;
    if (done) {
        update_requests(request, c, 1);
        out.store();
    }
}

void mpi_waitall_(const Fint* count, Fint* handles, Fint* statuses, Fint* ierr) {
    auto c = requests(handles, *count);
    StatusesOut out(statuses, *count);
    *ierr = bamboo_waitall(kFortranSite, *count, c.data(), out.c());
    update_requests(handles, c, *count);
    out.store(*count);
}

void mpi_testall_(const Fint* count, Fint* handles, Fint* flag, Fint* statuses, Fint* ierr) {
    auto c = requests(handles, *count);
    StatusesOut out(statuses, *count);
    int done = 0;
    *ierr = bamboo_testall(kFortranSite, *count, c.data(), &done, out.c());
    *flag = done != 0;
    if (done) {
        update_requests(handles, c, *count);
        out.store(*count);
    }
}

// Fortran indexes count from 1; MPI_UNDEFINED stays as it is.
static Fint fortran_index(int index) { return index == MPI_UNDEFINED ? index : index + 1; }

void mpi_waitany_(const Fint* count, Fint* handles, Fint* index, Fint* status, Fint* ierr) {
    auto c = requests(handles, *count);
    StatusOut out(status);
    int which = MPI_UNDEFINED;
    *ierr = bamboo_waitany(kFortranSite, *count, c.data(), &which, out.c());
    update_requests(handles, c, *count);
    *index = fortran_index(which);
    out.store();
}

void mpi_testany_(const Fint* count, Fint* handles, Fint* index, Fint* flag, Fint* status, Fint* ierr) {
    auto c = requests(handles, *count);
    StatusOut out(status);
    int which = MPI_UNDEFINED, done = 0;
    *ierr = bamboo_testany(kFortranSite, *count, c.data(), &which, &done, out.c());
    update_requests(handles, c, *count);
    *index = fortran_index(which);
    *flag = done != 0;
    if (done) out.store();
}

void mpi_waitsome_(const Fint* incount, Fint* handles, Fint* outcount, Fint* indices, Fint* statuses,
                   Fint* ierr) {
    auto c = requests(handles, *incount);
    StatusesOut out(statuses, *incount);
    std::vector<int> which(static_cast<std::size_t>(*incount > 0 ? *incount : 1));
    int n = 0;
    *ierr = bamboo_waitsome(kFortranSite, *incount, c.data(), &n, which.data(), out.c());
    update_requests(handles, c, *incount);
    *outcount = n;
    for (int i = 0; n != MPI_UNDEFINED && i < n; ++i) indices[i] = which[static_cast<std::size_t>(i)] + 1;
    if (n != MPI_UNDEFINED) out.store(n);
}

void mpi_request_free_(Fint* request, Fint* ierr) {
    auto c = requests(request, 1);
    *ierr = bamboo_request_free(kFortranSite, c.data());
    update_requests(request, c, 1);
}

// A cancelled request is still completed by a wait or test, whose status says it was cancelled.
void mpi_cancel_(Fint* request, Fint* ierr) {
    auto c = requests(request, 1);
    *ierr = bamboo_cancel(kFortranSite, c.data());
    update_requests(request, c, 1);
}

void mpi_test_cancelled_(const Fint* status, Fint* flag, Fint* ierr) {
    MPI_Status c = load_status(status);
    int cancelled = 0;
    *ierr = bamboo_test_cancelled(kFortranSite, &c, &cancelled);
    *flag = cancelled != 0;
}

}  // extern "C"
