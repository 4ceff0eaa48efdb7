// Fortran bindings: derived datatypes and packing.
#include "binding.hpp"

using namespace bamboo::fortran;

namespace {

std::vector<MPI_Datatype> datatypes(const Fint* handles, int count) {
    std::vector<MPI_Datatype> c(static_cast<std::size_t>(count > 0 ? count : 0));
    for (std::size_t i = 0; i < c.size(); ++i) c[i] = datatype(handles[i]);
    return c;
}

}  // namespace

extern "C" {

void mpi_type_contiguous_(const Fint* count, const Fint* oldtype, Fint* newtype, Fint* ierr) {
    MPI_Datatype made = MPI_DATATYPE_NULL;
    *ierr = bamboo_type_contiguous(kFortranSite, *count, datatype(*oldtype), &made);
    *newtype = datatype_handle(made);
}

void mpi_type_vector_(const Fint* count, const Fint* blocklength, const Fint* stride, const Fint* oldtype,
                      Fint* newtype, Fint* ierr) {
    MPI_Datatype made = MPI_DATATYPE_NULL;
    *ierr = bamboo_type_vector(kFortranSite, *count, *blocklength, *stride, datatype(*oldtype), &made);
    *newtype = datatype_handle(made);
}

void mpi_type_indexed_(const Fint* count, const Fint* blocklengths, const Fint* displacements, const Fint* oldtype,
                       Fint* newtype, Fint* ierr) {
    MPI_Datatype made = MPI_DATATYPE_NULL;
    *ierr = bamboo_type_indexed(kFortranSite, *count, blocklengths, displacements, datatype(*oldtype), &made);
    *newtype = datatype_handle(made);
}

// Strides in bytes are INTEGER(KIND=MPI_ADDRESS_KIND), C's MPI_Aint.
void mpi_type_create_hvector_(const Fint* count, const Fint* blocklength, const MPI_Aint* stride,
                              const Fint* oldtype, Fint* newtype, Fint* ierr) {
    MPI_Datatype made = MPI_DATATYPE_NULL;
    *ierr = bamboo_type_create_hvector(kFortranSite, *count, *blocklength, *stride, datatype(*oldtype), &made);
    *newtype = datatype_handle(made);
}

// `order` is MPI_ORDER_FORTRAN or MPI_ORDER_C, whose values mpif.h takes from the C library.
void mpi_type_create_subarray_(const Fint* ndims, const Fint* sizes, const Fint* subsizes, const Fint* starts,
                               const Fint* order, const Fint* oldtype, Fint* newtype, Fint* ierr) {
    MPI_Datatype made = MPI_DATATYPE_NULL;
    *ierr = bamboo_type_create_subarray(kFortranSite, *ndims, sizes, subsizes, starts, *order, datatype(*oldtype),
                                        &made);
    *newtype = datatype_handle(made);
}

// Displacements in bytes are INTEGER(KIND=MPI_ADDRESS_KIND), C's MPI_Aint.
void mpi_type_create_hindexed_(const Fint* count, const Fint* blocklengths, const MPI_Aint* displacements,
                               const Fint* oldtype, Fint* newtype, Fint* ierr) {
    MPI_Datatype made = MPI_DATATYPE_NULL;
    *ierr = bamboo_type_create_hindexed(kFortranSite, *count, blocklengths, displacements, datatype(*oldtype),
                                        &made);
    *newtype = datatype_handle(made);
}

void mpi_type_create_struct_(const Fint* count, const Fint* blocklengths, const MPI_Aint* displacements,
                             const Fint* types, Fint* newtype, Fint* ierr) {
    MPI_Datatype made = MPI_DATATYPE_NULL;
    auto c = datatypes(types, *count);
    *ierr = bamboo_type_create_struct(kFortranSite, *count, blocklengths, displacements, c.data(), &made);
    *newtype = datatype_handle(made);
}

// MPI-1's MPI_TYPE_STRUCT, as NPB's BT calls it: its displacements are default integers.
void mpi_type_struct_(const Fint* count, const Fint* blocklengths, const Fint* displacements, const Fint* types,
                      Fint* newtype, Fint* ierr) {
    MPI_Datatype made = MPI_DATATYPE_NULL;
    auto c = datatypes(types, *count);
    std::vector<MPI_Aint> bytes(displacements, displacements + c.size());
    *ierr = bamboo_type_struct(kFortranSite, *count, blocklengths, bytes.data(), c.data(), &made);
    *newtype = datatype_handle(made);
}

void mpi_type_create_resized_(const Fint* oldtype, const MPI_Aint* lb, const MPI_Aint* extent, Fint* newtype,
                              Fint* ierr) {
    MPI_Datatype made = MPI_DATATYPE_NULL;
    *ierr = bamboo_type_create_resized(kFortranSite, datatype(*oldtype), *lb, *extent, &made);
    *newtype = datatype_handle(made);
}

void mpi_type_dup_(const Fint* oldtype, Fint* newtype, Fint* ierr) {
    MPI_Datatype made = MPI_DATATYPE_NULL;
    *ierr = bamboo_type_dup(kFortranSite, datatype(*oldtype), &made);
    *newtype = datatype_handle(made);
}

void mpi_type_commit_(const Fint* type, Fint* ierr) {
    MPI_Datatype c = datatype(*type);
    *ierr = bamboo_type_commit(kFortranSite, &c);
}

void mpi_type_free_(Fint* type, Fint* ierr) {
    MPI_Datatype c = datatype(*type);
    *ierr = bamboo_type_free(kFortranSite, &c);
    if (c == MPI_DATATYPE_NULL) {
        forget_datatype(*type);
        *type = 0;
    }
}

void mpi_type_size_(const Fint* type, Fint* size, Fint* ierr) {
    int n = 0;
    *ierr = bamboo_type_size(kFortranSite, datatype(*type), &n);
    *size = n;
}

// Extents are INTEGER(KIND=MPI_ADDRESS_KIND), C's MPI_Aint.
void mpi_type_get_extent_(const Fint* type, MPI_Aint* lb, MPI_Aint* extent, Fint* ierr) {
    *ierr = bamboo_type_get_extent(kFortranSite, datatype(*type), lb, extent);
}

void mpi_type_get_true_extent_(const Fint* type, MPI_Aint* true_lb, MPI_Aint* true_extent, Fint* ierr) {
    *ierr = bamboo_type_get_true_extent(kFortranSite, datatype(*type), true_lb, true_extent);
}

// MPI-1's MPI_TYPE_EXTENT: a default integer.
void mpi_type_extent_(const Fint* type, Fint* extent, Fint* ierr) {
    MPI_Aint bytes = 0;
    *ierr = bamboo_type_extent(kFortranSite, datatype(*type), &bytes);
    *extent = static_cast<Fint>(bytes);
}

// An address is INTEGER(KIND=MPI_ADDRESS_KIND); MPI_BOTTOM plus it is the location, so a
// datatype built from addresses sends from MPI_BOTTOM.
void mpi_get_address_(const void* location, MPI_Aint* address, Fint* ierr) {
    *ierr = bamboo_get_address(kFortranSite, buffer(location), address);
}

void mpi_get_elements_(const Fint* status, const Fint* type, Fint* count, Fint* ierr) {
    MPI_Status c = load_status(status);
    int n = 0;
    *ierr = bamboo_get_elements(kFortranSite, &c, datatype(*type), &n);
    *count = n;
}

// Positions and sizes are bytes in default integers, as C's int.
void mpi_pack_(const void* inbuf, const Fint* incount, const Fint* type, void* outbuf, const Fint* outsize,
               Fint* position, const Fint* c, Fint* ierr) {
    *ierr = bamboo_pack(kFortranSite, buffer(inbuf), *incount, datatype(*type), outbuf, *outsize, position, comm(*c));
}

void mpi_unpack_(const void* inbuf, const Fint* insize, Fint* position, void* outbuf, const Fint* outcount,
                 const Fint* type, const Fint* c, Fint* ierr) {
    *ierr = bamboo_unpack(kFortranSite, inbuf, *insize, position, buffer(outbuf), *outcount, datatype(*type),
                          comm(*c));
}

void mpi_pack_size_(const Fint* incount, const Fint* type, const Fint* c, Fint* size, Fint* ierr) {
    int n = 0;
    *ierr = bamboo_pack_size(kFortranSite, *incount, datatype(*type), comm(*c), &n);
    *size = n;
}

}  // extern "C"
