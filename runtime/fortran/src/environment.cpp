// Fortran bindings: starting and ending MPI, MPI_Abort, the clock, the processor name and the
// MPI version.
#include "binding.hpp"

using namespace bamboo::fortran;

extern "C" {

void mpi_init_(Fint* ierr) { *ierr = bamboo_init(nullptr, nullptr); }

void mpi_init_thread_(const Fint* required, Fint* provided, Fint* ierr) {
    int level = 0;
    *ierr = bamboo_init_thread(nullptr, nullptr, *required, &level);
    *provided = level;
}

void mpi_initialized_(Fint* flag, Fint* ierr) {
    int c = 0;
    *ierr = bamboo_initialized(&c);
    *flag = c != 0;
}

void mpi_finalize_(Fint* ierr) { *ierr = bamboo_finalize(); }

void mpi_finalized_(Fint* flag, Fint* ierr) {
    int c = 0;
    *ierr = bamboo_finalized(&c);
    *flag = c != 0;
}

void mpi_abort_(const Fint* c, const Fint* errorcode, Fint* ierr) { *ierr = bamboo_abort(comm(*c), *errorcode); }

double mpi_wtime_() { return bamboo_wtime(); }
double mpi_wtick_() { return bamboo_wtick(); }

void mpi_get_processor_name_(char* name, Fint* resultlen, Fint* ierr, std::size_t name_length) {
    char c[MPI_MAX_PROCESSOR_NAME + 1] = {};
    int length = 0;
    *ierr = bamboo_get_processor_name(kFortranSite, c, &length);
    store_string(c, name, name_length);
    *resultlen = length;
}

void mpi_get_version_(Fint* version, Fint* subversion, Fint* ierr) {
    int v = 0, sub = 0;
    *ierr = bamboo_get_version(kFortranSite, &v, &sub);
    *version = v;
    *subversion = sub;
}

void mpi_get_library_version_(char* version, Fint* resultlen, Fint* ierr, std::size_t version_length) {
    char c[MPI_MAX_LIBRARY_VERSION_STRING + 1] = {};
    int length = 0;
    *ierr = bamboo_get_library_version(kFortranSite, c, &length);
    store_string(c, version, version_length);
    *resultlen = length;
}

}  // extern "C"
