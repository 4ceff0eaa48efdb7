// Calls on the MPI library's own objects that have nothing to do with ranks (error strings
// and classes), which the library answers under the runtime's MPI lock.
#include <mpi.h>

#include "bamboo.h"
#include "util/mpi_guard.hpp"

using namespace bamboo;

namespace {

// A call MPI allows before MPI_Init and after MPI_Finalize, so outside any task's MPI: the
// library's answer as it is.
template <class Call>
int anytime_call(Call call) {
    MpiGuard guard;
    return call();
}

}  // namespace

extern "C" {

int bamboo_error_string(bamboo_site, int errorcode, char* string, int* length) {
    return anytime_call([&] { return MPI_Error_string(errorcode, string, length); });
}

int bamboo_error_class(bamboo_site, int errorcode, int* errorclass) {
    return anytime_call([&] { return MPI_Error_class(errorcode, errorclass); });
}

}  // extern "C"
