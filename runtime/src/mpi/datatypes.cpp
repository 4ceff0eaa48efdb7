// Derived datatypes and packing: the MPI library's own, since datatypes are local objects and
// its engine already packs them. Tasks only add their checks and the runtime's MPI lock (held
// when the library is not thread-safe).
#include <mpi.h>
#include <unistd.h>

#include <cstring>

#include "bamboo.h"
#include "messaging/datatype.hpp"
#include "messaging/rank.hpp"
#include "mpi/api.hpp"
#include "util/errors.hpp"

using namespace bamboo;

namespace {

// Packing is defined per communicator only for heterogeneous systems; the runtime's
// processes are alike, so the library's own MPI_COMM_SELF stands for any of the task's.
template <class Call>
int packing_call(const char* name, bamboo_site at, MPI_Comm comm, Call call) {
    return library_call(name, at, [&] {
        resolve_comm(*Rank::current(), comm, name, at);
        return call(MPI_COMM_SELF);
    }, comm);
}

}  // namespace

extern "C" {

int bamboo_type_contiguous(bamboo_site at, int count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
    return library_call("MPI_Type_contiguous", at, [&] { return MPI_Type_contiguous(count, oldtype, newtype); });
}

int bamboo_type_vector(bamboo_site at, int count, int blocklength, int stride, MPI_Datatype oldtype,
                       MPI_Datatype* newtype) {
    return library_call("MPI_Type_vector", at,
                      [&] { return MPI_Type_vector(count, blocklength, stride, oldtype, newtype); });
}

int bamboo_type_create_hvector(bamboo_site at, int count, int blocklength, MPI_Aint stride,
                               MPI_Datatype oldtype, MPI_Datatype* newtype) {
    return library_call("MPI_Type_create_hvector", at,
                      [&] { return MPI_Type_create_hvector(count, blocklength, stride, oldtype, newtype); });
}

int bamboo_type_indexed(bamboo_site at, int count, const int blocklengths[], const int displacements[],
                        MPI_Datatype oldtype, MPI_Datatype* newtype) {
    return library_call("MPI_Type_indexed", at, [&] {
        return MPI_Type_indexed(count, blocklengths, displacements, oldtype, newtype);
    });
}

int bamboo_type_create_hindexed(bamboo_site at, int count, const int blocklengths[],
                                const MPI_Aint displacements[], MPI_Datatype oldtype,
                                MPI_Datatype* newtype) {
    return library_call("MPI_Type_create_hindexed", at, [&] {
        return MPI_Type_create_hindexed(count, blocklengths, displacements, oldtype, newtype);
    });
}

int bamboo_type_create_indexed_block(bamboo_site at, int count, int blocklength, const int displacements[],
                                     MPI_Datatype oldtype, MPI_Datatype* newtype) {
    return library_call("MPI_Type_create_indexed_block", at, [&] {
        return MPI_Type_create_indexed_block(count, blocklength, displacements, oldtype, newtype);
    });
}

int bamboo_type_create_struct(bamboo_site at, int count, const int blocklengths[],
                              const MPI_Aint displacements[], const MPI_Datatype types[],
                              MPI_Datatype* newtype) {
    return library_call("MPI_Type_create_struct", at, [&] {
        return MPI_Type_create_struct(count, blocklengths, displacements, types, newtype);
    });
}

int bamboo_type_create_subarray(bamboo_site at, int ndims, const int sizes[], const int subsizes[],
                                const int starts[], int order, MPI_Datatype oldtype,
                                MPI_Datatype* newtype) {
    return library_call("MPI_Type_create_subarray", at, [&] {
        return MPI_Type_create_subarray(ndims, sizes, subsizes, starts, order, oldtype, newtype);
    });
}

int bamboo_type_create_resized(bamboo_site at, MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                               MPI_Datatype* newtype) {
    return library_call("MPI_Type_create_resized", at,
                      [&] { return MPI_Type_create_resized(oldtype, lb, extent, newtype); });
}

int bamboo_type_dup(bamboo_site at, MPI_Datatype oldtype, MPI_Datatype* newtype) {
    return library_call("MPI_Type_dup", at, [&] { return MPI_Type_dup(oldtype, newtype); });
}

int bamboo_type_commit(bamboo_site at, MPI_Datatype* type) {
    return library_call("MPI_Type_commit", at, [&] { return MPI_Type_commit(type); });
}

int bamboo_type_free(bamboo_site at, MPI_Datatype* type) {
    return library_call("MPI_Type_free", at, [&] {
        check_not_null(*Rank::current(), type, "the datatype pointer", "MPI_Type_free", at);
        forget_datatype(*type);
        return MPI_Type_free(type);
    });
}

int bamboo_type_size(bamboo_site at, MPI_Datatype type, int* size) {
    return library_call("MPI_Type_size", at, [&] { return MPI_Type_size(type, size); });
}

int bamboo_type_get_extent(bamboo_site at, MPI_Datatype type, MPI_Aint* lb, MPI_Aint* extent) {
    return library_call("MPI_Type_get_extent", at, [&] { return MPI_Type_get_extent(type, lb, extent); });
}

int bamboo_type_get_true_extent(bamboo_site at, MPI_Datatype type, MPI_Aint* true_lb,
                                MPI_Aint* true_extent) {
    return library_call("MPI_Type_get_true_extent", at,
                      [&] { return MPI_Type_get_true_extent(type, true_lb, true_extent); });
}

int bamboo_get_address(bamboo_site at, const void* location, MPI_Aint* address) {
    return library_call("MPI_Get_address", at, [&] { return MPI_Get_address(location, address); });
}

int bamboo_type_create_darray(bamboo_site at, int size, int rank, int ndims, const int gsizes[],
                              const int distribs[], const int dargs[], const int psizes[], int order,
                              MPI_Datatype oldtype, MPI_Datatype* newtype) {
    return library_call("MPI_Type_create_darray", at, [&] {
        return MPI_Type_create_darray(size, rank, ndims, gsizes, distribs, dargs, psizes, order, oldtype, newtype);
    });
}

int bamboo_get_elements_x(bamboo_site at, const MPI_Status* status, MPI_Datatype type, MPI_Count* count) {
    return library_call("MPI_Get_elements_x", at, [&] {
        if (status == MPI_STATUS_IGNORE)
            call_error(MPI_ERR_ARG, Rank::current()->vrank(), "MPI_Get_elements_x", at,
                       "the status is MPI_STATUS_IGNORE");
        return MPI_Get_elements_x(status, type, count);
    });
}

int bamboo_get_elements(bamboo_site at, const MPI_Status* status, MPI_Datatype type, int* count) {
    // The runtime filled the status's count with the library's own call.
    return library_call("MPI_Get_elements", at, [&] {
        if (status == MPI_STATUS_IGNORE)
            call_error(MPI_ERR_ARG, Rank::current()->vrank(), "MPI_Get_elements", at,
                       "the status is MPI_STATUS_IGNORE");
        return MPI_Get_elements(status, type, count);
    });
}

int bamboo_pack(bamboo_site at, const void* inbuf, int incount, MPI_Datatype type, void* outbuf,
                int outsize, int* position, MPI_Comm comm) {
    return packing_call("MPI_Pack", at, comm, [&](MPI_Comm library_comm) {
        return MPI_Pack(inbuf, incount, type, outbuf, outsize, position, library_comm);
    });
}

int bamboo_unpack(bamboo_site at, const void* inbuf, int insize, int* position, void* outbuf,
                  int outcount, MPI_Datatype type, MPI_Comm comm) {
    return packing_call("MPI_Unpack", at, comm, [&](MPI_Comm library_comm) {
        return MPI_Unpack(inbuf, insize, position, outbuf, outcount, type, library_comm);
    });
}

int bamboo_pack_size(bamboo_site at, int incount, MPI_Datatype type, MPI_Comm comm, int* size) {
    return packing_call("MPI_Pack_size", at, comm, [&](MPI_Comm library_comm) {
        return MPI_Pack_size(incount, type, library_comm, size);
    });
}

// ---- Datatype queries and names, and the MPI-1 names over their MPI-2 calls: MPI-3 removed
// the MPI-1 ones, and the library may not declare them (Open MPI does only on request).

int bamboo_type_get_envelope(bamboo_site at, MPI_Datatype type, int* num_integers, int* num_addresses,
                             int* num_datatypes, int* combiner) {
    return library_call("MPI_Type_get_envelope", at, [&] {
        return MPI_Type_get_envelope(type, num_integers, num_addresses, num_datatypes, combiner);
    });
}

int bamboo_type_get_contents(bamboo_site at, MPI_Datatype type, int max_integers, int max_addresses,
                             int max_datatypes, int integers[], MPI_Aint addresses[], MPI_Datatype datatypes[]) {
    return library_call("MPI_Type_get_contents", at, [&] {
        return MPI_Type_get_contents(type, max_integers, max_addresses, max_datatypes, integers, addresses,
                                     datatypes);
    });
}

int bamboo_type_size_x(bamboo_site at, MPI_Datatype type, MPI_Count* size) {
    return library_call("MPI_Type_size_x", at, [&] { return MPI_Type_size_x(type, size); });
}

int bamboo_type_get_extent_x(bamboo_site at, MPI_Datatype type, MPI_Count* lb, MPI_Count* extent) {
    return library_call("MPI_Type_get_extent_x", at, [&] { return MPI_Type_get_extent_x(type, lb, extent); });
}

int bamboo_type_get_true_extent_x(bamboo_site at, MPI_Datatype type, MPI_Count* true_lb,
                                  MPI_Count* true_extent) {
    return library_call("MPI_Type_get_true_extent_x", at,
                      [&] { return MPI_Type_get_true_extent_x(type, true_lb, true_extent); });
}

int bamboo_type_get_name(bamboo_site at, MPI_Datatype type, char* name, int* length) {
    return library_call("MPI_Type_get_name", at, [&] { return MPI_Type_get_name(type, name, length); });
}

int bamboo_type_set_name(bamboo_site at, MPI_Datatype type, const char* name) {
    return library_call("MPI_Type_set_name", at, [&] { return MPI_Type_set_name(type, name); });
}

int bamboo_type_create_hindexed_block(bamboo_site at, int count, int blocklength, const MPI_Aint displacements[],
                                      MPI_Datatype oldtype, MPI_Datatype* newtype) {
    return library_call("MPI_Type_create_hindexed_block", at, [&] {
        return MPI_Type_create_hindexed_block(count, blocklength, displacements, oldtype, newtype);
    });
}

int bamboo_type_match_size(bamboo_site at, int typeclass, int size, MPI_Datatype* type) {
    return library_call("MPI_Type_match_size", at, [&] { return MPI_Type_match_size(typeclass, size, type); });
}

int bamboo_type_extent(bamboo_site at, MPI_Datatype type, MPI_Aint* extent) {
    MPI_Aint lb;
    return library_call("MPI_Type_extent", at, [&] { return MPI_Type_get_extent(type, &lb, extent); });
}

int bamboo_type_lb(bamboo_site at, MPI_Datatype type, MPI_Aint* lb) {
    MPI_Aint extent;
    return library_call("MPI_Type_lb", at, [&] { return MPI_Type_get_extent(type, lb, &extent); });
}

int bamboo_type_ub(bamboo_site at, MPI_Datatype type, MPI_Aint* ub) {
    return library_call("MPI_Type_ub", at, [&] {
        MPI_Aint lb, extent;
        int code = MPI_Type_get_extent(type, &lb, &extent);
        *ub = lb + extent;
        return code;
    });
}

int bamboo_type_struct(bamboo_site at, int count, const int blocklengths[], const MPI_Aint displacements[],
                       const MPI_Datatype types[], MPI_Datatype* newtype) {
    return library_call("MPI_Type_struct", at, [&] {
        return MPI_Type_create_struct(count, blocklengths, displacements, types, newtype);
    });
}

int bamboo_type_hvector(bamboo_site at, int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                        MPI_Datatype* newtype) {
    return library_call("MPI_Type_hvector", at,
                      [&] { return MPI_Type_create_hvector(count, blocklength, stride, oldtype, newtype); });
}

int bamboo_type_hindexed(bamboo_site at, int count, const int blocklengths[], const MPI_Aint displacements[],
                         MPI_Datatype oldtype, MPI_Datatype* newtype) {
    return library_call("MPI_Type_hindexed", at, [&] {
        return MPI_Type_create_hindexed(count, blocklengths, displacements, oldtype, newtype);
    });
}

int bamboo_address(bamboo_site at, const void* location, MPI_Aint* address) {
    return library_call("MPI_Address", at, [&] { return MPI_Get_address(location, address); });
}

}  // extern "C"
