// Fortran bindings: info objects. Keys and values are CHARACTER arguments, blank-trimmed on the
// way in and blank-padded on the way out.
#include "binding.hpp"

using namespace bamboo::fortran;

extern "C" {

void mpi_info_create_(Fint* i, Fint* ierr) {
    MPI_Info made = MPI_INFO_NULL;
    *ierr = bamboo_info_create(kFortranSite, &made);
    *i = info_handle(made);
}

void mpi_info_dup_(const Fint* i, Fint* newinfo, Fint* ierr) {
    MPI_Info made = MPI_INFO_NULL;
    *ierr = bamboo_info_dup(kFortranSite, info(*i), &made);
    *newinfo = info_handle(made);
}

void mpi_info_free_(Fint* i, Fint* ierr) {
    MPI_Info freed = info(*i);
    *ierr = bamboo_info_free(kFortranSite, &freed);
    if (freed == MPI_INFO_NULL) {
        forget_info(*i);
        *i = 0;
    }
}

void mpi_info_set_(const Fint* i, const char* key, const char* value, Fint* ierr, std::size_t key_length,
                   std::size_t value_length) {
    *ierr = bamboo_info_set(kFortranSite, info(*i), load_string(key, key_length).c_str(),
                            load_string(value, value_length).c_str());
}

void mpi_info_delete_(const Fint* i, const char* key, Fint* ierr, std::size_t key_length) {
    *ierr = bamboo_info_delete(kFortranSite, info(*i), load_string(key, key_length).c_str());
}

// `valuelen` characters at most, as C's, whose buffer has one more for the terminating NUL.
void mpi_info_get_(const Fint* i, const char* key, const Fint* valuelen, char* value, Fint* flag, Fint* ierr,
                   std::size_t key_length, std::size_t value_length) {
    std::vector<char> got(static_cast<std::size_t>(*valuelen > 0 ? *valuelen : 0) + 1, '\0');
    int found = 0;
    *ierr = bamboo_info_get(kFortranSite, info(*i), load_string(key, key_length).c_str(), *valuelen, got.data(),
                            &found);
    *flag = found != 0;
    if (found) store_string(got.data(), value, value_length);
}

void mpi_info_get_valuelen_(const Fint* i, const char* key, Fint* valuelen, Fint* flag, Fint* ierr,
                            std::size_t key_length) {
    int length = 0, found = 0;
    *ierr = bamboo_info_get_valuelen(kFortranSite, info(*i), load_string(key, key_length).c_str(), &length,
                                     &found);
    *flag = found != 0;
    if (found) *valuelen = length;
}

void mpi_info_get_nkeys_(const Fint* i, Fint* nkeys, Fint* ierr) {
    int n = 0;
    *ierr = bamboo_info_get_nkeys(kFortranSite, info(*i), &n);
    *nkeys = n;
}

// `n` counts from 0, as in C.
void mpi_info_get_nthkey_(const Fint* i, const Fint* n, char* key, Fint* ierr, std::size_t key_length) {
    char got[MPI_MAX_INFO_KEY + 1] = {};
    *ierr = bamboo_info_get_nthkey(kFortranSite, info(*i), *n, got);
    store_string(got, key, key_length);
}

}  // extern "C"
