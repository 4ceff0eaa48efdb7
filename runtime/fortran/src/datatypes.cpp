// Fortran bindings: derived datatypes.
#include "binding.hpp"

using namespace bamboo::fortran;

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

}  // extern "C"
