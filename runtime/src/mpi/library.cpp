// Calls on the MPI library's own objects that have nothing to do with ranks: error codes,
// versions, infos, memory, statuses and external packing. The library answers, under the
// runtime's MPI lock; what it finds wrong goes to the calling task's error handler.
#include <mpi.h>

#include "bamboo.h"
#include "mpi/api.hpp"
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

int bamboo_get_version(bamboo_site, int* version, int* subversion) {
    return anytime_call([&] { return MPI_Get_version(version, subversion); });
}

int bamboo_get_library_version(bamboo_site, char* version, int* length) {
    return anytime_call([&] { return MPI_Get_library_version(version, length); });
}

int bamboo_get_processor_name(bamboo_site at, char* name, int* length) {
    return library_call("MPI_Get_processor_name", at, [&] { return MPI_Get_processor_name(name, length); });
}

int bamboo_alloc_mem(bamboo_site at, MPI_Aint size, MPI_Info info, void* baseptr) {
    return library_call("MPI_Alloc_mem", at, [&] { return MPI_Alloc_mem(size, info, baseptr); });
}

int bamboo_free_mem(bamboo_site at, void* base) {
    return library_call("MPI_Free_mem", at, [&] { return MPI_Free_mem(base); });
}

int bamboo_info_create(bamboo_site at, MPI_Info* info) {
    return library_call("MPI_Info_create", at, [&] { return MPI_Info_create(info); });
}

int bamboo_info_set(bamboo_site at, MPI_Info info, const char* key, const char* value) {
    return library_call("MPI_Info_set", at, [&] { return MPI_Info_set(info, key, value); });
}

int bamboo_info_get(bamboo_site at, MPI_Info info, const char* key, int valuelen, char* value, int* flag) {
    return library_call("MPI_Info_get", at, [&] { return MPI_Info_get(info, key, valuelen, value, flag); });
}

int bamboo_info_get_nkeys(bamboo_site at, MPI_Info info, int* nkeys) {
    return library_call("MPI_Info_get_nkeys", at, [&] { return MPI_Info_get_nkeys(info, nkeys); });
}

int bamboo_info_get_nthkey(bamboo_site at, MPI_Info info, int n, char* key) {
    return library_call("MPI_Info_get_nthkey", at, [&] { return MPI_Info_get_nthkey(info, n, key); });
}

int bamboo_info_get_valuelen(bamboo_site at, MPI_Info info, const char* key, int* valuelen, int* flag) {
    return library_call("MPI_Info_get_valuelen", at,
                        [&] { return MPI_Info_get_valuelen(info, key, valuelen, flag); });
}

int bamboo_info_dup(bamboo_site at, MPI_Info info, MPI_Info* newinfo) {
    return library_call("MPI_Info_dup", at, [&] { return MPI_Info_dup(info, newinfo); });
}

int bamboo_info_delete(bamboo_site at, MPI_Info info, const char* key) {
    return library_call("MPI_Info_delete", at, [&] { return MPI_Info_delete(info, key); });
}

int bamboo_info_free(bamboo_site at, MPI_Info* info) {
    return library_call("MPI_Info_free", at, [&] { return MPI_Info_free(info); });
}

int bamboo_pack_external(bamboo_site at, const char* datarep, const void* inbuf, int incount,
                         MPI_Datatype type, void* outbuf, MPI_Aint outsize, MPI_Aint* position) {
    return library_call("MPI_Pack_external", at, [&] {
        return MPI_Pack_external(datarep, inbuf, incount, type, outbuf, outsize, position);
    });
}

int bamboo_unpack_external(bamboo_site at, const char* datarep, const void* inbuf, MPI_Aint insize,
                           MPI_Aint* position, void* outbuf, int outcount, MPI_Datatype type) {
    return library_call("MPI_Unpack_external", at, [&] {
        return MPI_Unpack_external(datarep, inbuf, insize, position, outbuf, outcount, type);
    });
}

int bamboo_pack_external_size(bamboo_site at, const char* datarep, int incount, MPI_Datatype type,
                              MPI_Aint* size) {
    return library_call("MPI_Pack_external_size", at,
                        [&] { return MPI_Pack_external_size(datarep, incount, type, size); });
}

int bamboo_status_set_elements(bamboo_site at, MPI_Status* status, MPI_Datatype type, int count) {
    return library_call("MPI_Status_set_elements", at,
                        [&] { return MPI_Status_set_elements(status, type, count); });
}

int bamboo_status_set_elements_x(bamboo_site at, MPI_Status* status, MPI_Datatype type, MPI_Count count) {
    return library_call("MPI_Status_set_elements_x", at,
                        [&] { return MPI_Status_set_elements_x(status, type, count); });
}

int bamboo_status_set_cancelled(bamboo_site at, MPI_Status* status, int flag) {
    return library_call("MPI_Status_set_cancelled", at, [&] { return MPI_Status_set_cancelled(status, flag); });
}

int bamboo_test_cancelled(bamboo_site at, const MPI_Status* status, int* flag) {
    return library_call("MPI_Test_cancelled", at, [&] { return MPI_Test_cancelled(status, flag); });
}

}  // extern "C"
