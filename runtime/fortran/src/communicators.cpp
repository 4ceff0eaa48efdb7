// Fortran bindings: communicators, groups and Cartesian topologies.
#include "binding.hpp"

using namespace bamboo::fortran;

extern "C" {

void mpi_comm_rank_(const Fint* c, Fint* rank, Fint* ierr) {
    int r = 0;
    *ierr = bamboo_comm_rank(comm(*c), &r);
    *rank = r;
}

void mpi_comm_size_(const Fint* c, Fint* size, Fint* ierr) {
    int n = 0;
    *ierr = bamboo_comm_size(comm(*c), &n);
    *size = n;
}

void mpi_comm_split_(const Fint* c, const Fint* color, const Fint* key, Fint* newcomm, Fint* ierr) {
    MPI_Comm made = MPI_COMM_NULL;
    *ierr = bamboo_comm_split(kFortranSite, comm(*c), *color, *key, &made);
    *newcomm = comm_handle(made);
}

void mpi_comm_dup_(const Fint* c, Fint* newcomm, Fint* ierr) {
    MPI_Comm made = MPI_COMM_NULL;
    *ierr = bamboo_comm_dup(kFortranSite, comm(*c), &made);
    *newcomm = comm_handle(made);
}

void mpi_comm_split_type_(const Fint* c, const Fint* split_type, const Fint* key, const Fint* i, Fint* newcomm,
                          Fint* ierr) {
    MPI_Comm made = MPI_COMM_NULL;
    *ierr = bamboo_comm_split_type(kFortranSite, comm(*c), *split_type, *key, info(*i), &made);
    *newcomm = comm_handle(made);
}

void mpi_comm_create_(const Fint* c, const Fint* g, Fint* newcomm, Fint* ierr) {
    MPI_Comm made = MPI_COMM_NULL;
    *ierr = bamboo_comm_create(kFortranSite, comm(*c), group(*g), &made);
    *newcomm = comm_handle(made);
}

void mpi_comm_free_(Fint* c, Fint* ierr) {
    MPI_Comm freed = comm(*c);
    *ierr = bamboo_comm_free(kFortranSite, &freed);
    if (freed == MPI_COMM_NULL) {
        forget_comm(*c);
        *c = 0;
    }
}

void mpi_comm_compare_(const Fint* a, const Fint* b, Fint* result, Fint* ierr) {
    int r = 0;
    *ierr = bamboo_comm_compare(kFortranSite, comm(*a), comm(*b), &r);
    *result = r;
}

// The value of a predefined attribute (MPI_TAG_UB, ...) is an int the C call points to; Fortran
// gets the value itself, INTEGER(KIND=MPI_ADDRESS_KIND). A Fortran program makes no keyvals
// (MPI_Comm_create_keyval is C's only), so the other keys are C's, whose values are addresses.
void mpi_comm_get_attr_(const Fint* c, const Fint* keyval, MPI_Aint* value, Fint* flag, Fint* ierr) {
    void* got = nullptr;
    int found = 0;
    *ierr = bamboo_comm_get_attr(kFortranSite, comm(*c), *keyval, &got, &found);
    *flag = found != 0;
    if (!found) return;
    const int predefined[] = {MPI_TAG_UB,        MPI_HOST,   MPI_IO,          MPI_WTIME_IS_GLOBAL,
                              MPI_UNIVERSE_SIZE, MPI_APPNUM, MPI_LASTUSEDCODE};
    bool is_predefined = false;
    for (int key : predefined) is_predefined = is_predefined || key == *keyval;
    *value = is_predefined ? *static_cast<const int*>(got) : reinterpret_cast<MPI_Aint>(got);
}

void mpi_comm_set_name_(const Fint* c, const char* name, Fint* ierr, std::size_t name_length) {
    *ierr = bamboo_comm_set_name(kFortranSite, comm(*c), load_string(name, name_length).c_str());
}

void mpi_comm_get_name_(const Fint* c, char* name, Fint* resultlen, Fint* ierr, std::size_t name_length) {
    char got[MPI_MAX_OBJECT_NAME + 1] = {};
    int length = 0;
    *ierr = bamboo_comm_get_name(kFortranSite, comm(*c), got, &length);
    store_string(got, name, name_length);
    *resultlen = length;
}

void mpi_comm_group_(const Fint* c, Fint* g, Fint* ierr) {
    MPI_Group made = MPI_GROUP_NULL;
    *ierr = bamboo_comm_group(kFortranSite, comm(*c), &made);
    *g = group_handle(made);
}

void mpi_group_incl_(const Fint* g, const Fint* n, const Fint* ranks, Fint* newgroup, Fint* ierr) {
    MPI_Group made = MPI_GROUP_NULL;
    *ierr = bamboo_group_incl(kFortranSite, group(*g), *n, ranks, &made);
    *newgroup = group_handle(made);
}

void mpi_group_excl_(const Fint* g, const Fint* n, const Fint* ranks, Fint* newgroup, Fint* ierr) {
    MPI_Group made = MPI_GROUP_NULL;
    *ierr = bamboo_group_excl(kFortranSite, group(*g), *n, ranks, &made);
    *newgroup = group_handle(made);
}

void mpi_group_free_(Fint* g, Fint* ierr) {
    MPI_Group freed = group(*g);
    *ierr = bamboo_group_free(kFortranSite, &freed);
    if (freed == MPI_GROUP_NULL) {
        forget_group(*g);
        *g = 0;
    }
}

void mpi_group_size_(const Fint* g, Fint* size, Fint* ierr) {
    int n = 0;
    *ierr = bamboo_group_size(kFortranSite, group(*g), &n);
    *size = n;
}

void mpi_group_rank_(const Fint* g, Fint* rank, Fint* ierr) {
    int r = 0;
    *ierr = bamboo_group_rank(kFortranSite, group(*g), &r);
    *rank = r;
}

void mpi_group_translate_ranks_(const Fint* g1, const Fint* n, const Fint* ranks1, const Fint* g2, Fint* ranks2,
                                Fint* ierr) {
    *ierr = bamboo_group_translate_ranks(kFortranSite, group(*g1), *n, ranks1, group(*g2), ranks2);
}

void mpi_dims_create_(const Fint* nnodes, const Fint* ndims, Fint* dims, Fint* ierr) {
    *ierr = bamboo_dims_create(kFortranSite, *nnodes, *ndims, dims);
}

// LOGICAL arguments (periods, reorder, remain_dims) are gfortran's default logicals: an int,
// 1 for .TRUE. and 0 for .FALSE., as C reads them.
void mpi_cart_create_(const Fint* c, const Fint* ndims, const Fint* dims, const Fint* periods, const Fint* reorder,
                      Fint* newcomm, Fint* ierr) {
    MPI_Comm made = MPI_COMM_NULL;
    *ierr = bamboo_cart_create(kFortranSite, comm(*c), *ndims, dims, periods, *reorder, &made);
    *newcomm = comm_handle(made);
}

void mpi_cart_coords_(const Fint* c, const Fint* rank, const Fint* maxdims, Fint* coords, Fint* ierr) {
    *ierr = bamboo_cart_coords(kFortranSite, comm(*c), *rank, *maxdims, coords);
}

void mpi_cart_rank_(const Fint* c, const Fint* coords, Fint* rank, Fint* ierr) {
    int r = 0;
    *ierr = bamboo_cart_rank(kFortranSite, comm(*c), coords, &r);
    *rank = r;
}

void mpi_cart_shift_(const Fint* c, const Fint* direction, const Fint* disp, Fint* source, Fint* dest, Fint* ierr) {
    int s = 0, d = 0;
    *ierr = bamboo_cart_shift(kFortranSite, comm(*c), *direction, *disp, &s, &d);
    *source = s;
    *dest = d;
}

void mpi_cart_sub_(const Fint* c, const Fint* remain_dims, Fint* newcomm, Fint* ierr) {
    MPI_Comm made = MPI_COMM_NULL;
    *ierr = bamboo_cart_sub(kFortranSite, comm(*c), remain_dims, &made);
    *newcomm = comm_handle(made);
}

void mpi_cart_get_(const Fint* c, const Fint* maxdims, Fint* dims, Fint* periods, Fint* coords, Fint* ierr) {
    *ierr = bamboo_cart_get(kFortranSite, comm(*c), *maxdims, dims, periods, coords);
}

void mpi_cartdim_get_(const Fint* c, Fint* ndims, Fint* ierr) {
    int n = 0;
    *ierr = bamboo_cartdim_get(kFortranSite, comm(*c), &n);
    *ndims = n;
}

}  // extern "C"
