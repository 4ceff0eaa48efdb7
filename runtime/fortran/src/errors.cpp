// Fortran bindings: error handlers, and the class and text of an error code.
#include "binding.hpp"

using namespace bamboo::fortran;

extern "C" {

// MPI_ERRORS_RETURN makes a failed check return its error class in ierror instead of ending
// the job, as in C.
void mpi_comm_set_errhandler_(const Fint* c, const Fint* handler, Fint* ierr) {
    *ierr = bamboo_comm_set_errhandler(kFortranSite, comm(*c), errhandler(*handler));
}

void mpi_comm_get_errhandler_(const Fint* c, Fint* handler, Fint* ierr) {
    MPI_Errhandler got = MPI_ERRHANDLER_NULL;
    *ierr = bamboo_comm_get_errhandler(kFortranSite, comm(*c), &got);
    *handler = errhandler_handle(got);
}

void mpi_errhandler_free_(Fint* handler, Fint* ierr) {
    MPI_Errhandler freed = errhandler(*handler);
    *ierr = bamboo_errhandler_free(kFortranSite, &freed);
    if (freed == MPI_ERRHANDLER_NULL) {
        forget_errhandler(*handler);
        *handler = 0;
    }
}

void mpi_error_class_(const Fint* code, Fint* errorclass, Fint* ierr) {
    int c = 0;
    *ierr = bamboo_error_class(kFortranSite, *code, &c);
    *errorclass = c;
}

void mpi_error_string_(const Fint* code, char* string, Fint* resultlen, Fint* ierr, std::size_t string_length) {
    char c[MPI_MAX_ERROR_STRING + 1] = {};
    int length = 0;
    *ierr = bamboo_error_string(kFortranSite, *code, c, &length);
    store_string(c, string, string_length);
    *resultlen = length;
}

}  // extern "C"
