// Fortran bindings: MPI-IO. File names and data representations are CHARACTER arguments,
// blank-trimmed; offsets, displacements and sizes are INTEGER(KIND=MPI_OFFSET_KIND), C's
// MPI_Offset.
#include "binding.hpp"

using namespace bamboo::fortran;

extern "C" {

void mpi_file_open_(const Fint* c, const char* filename, const Fint* amode, const Fint* i, Fint* fh, Fint* ierr,
                    std::size_t filename_length) {
    MPI_File opened = MPI_FILE_NULL;
    *ierr = bamboo_file_open(kFortranSite, comm(*c), load_string(filename, filename_length).c_str(), *amode,
                             info(*i), &opened);
    *fh = file_handle(opened);
}

void mpi_file_close_(Fint* fh, Fint* ierr) {
    MPI_File closed = file(*fh);
    *ierr = bamboo_file_close(kFortranSite, &closed);
    if (closed == MPI_FILE_NULL) {
        forget_file(*fh);
        *fh = 0;
    }
}

void mpi_file_delete_(const char* filename, const Fint* i, Fint* ierr, std::size_t filename_length) {
    *ierr = bamboo_file_delete(kFortranSite, load_string(filename, filename_length).c_str(), info(*i));
}

void mpi_file_set_view_(const Fint* fh, const MPI_Offset* disp, const Fint* etype, const Fint* filetype,
                        const char* datarep, const Fint* i, Fint* ierr, std::size_t datarep_length) {
    *ierr = bamboo_file_set_view(kFortranSite, file(*fh), *disp, datatype(*etype), datatype(*filetype),
                                 load_string(datarep, datarep_length).c_str(), info(*i));
}

void mpi_file_get_size_(const Fint* fh, MPI_Offset* size, Fint* ierr) {
    *ierr = bamboo_file_get_size(kFortranSite, file(*fh), size);
}

void mpi_file_set_size_(const Fint* fh, const MPI_Offset* size, Fint* ierr) {
    *ierr = bamboo_file_set_size(kFortranSite, file(*fh), *size);
}

void mpi_file_sync_(const Fint* fh, Fint* ierr) { *ierr = bamboo_file_sync(kFortranSite, file(*fh)); }

void mpi_file_seek_(const Fint* fh, const MPI_Offset* offset, const Fint* whence, Fint* ierr) {
    *ierr = bamboo_file_seek(kFortranSite, file(*fh), *offset, *whence);
}

void mpi_file_get_position_(const Fint* fh, MPI_Offset* offset, Fint* ierr) {
    *ierr = bamboo_file_get_position(kFortranSite, file(*fh), offset);
}

#define BAMBOO_FORTRAN_ACCESS_AT(fortran_name, c_name, buffer_type)                                  \
    void fortran_name(const Fint* fh, const MPI_Offset* offset, buffer_type* buf, const Fint* count, \
                      const Fint* type, Fint* status, Fint* ierr) {                              \
        StatusOut out(status);                                                                    \
        *ierr = c_name(kFortranSite, file(*fh), *offset, buffer(buf), *count, datatype(*type), out.c()); \
        out.store();                                                                              \
    }
BAMBOO_FORTRAN_ACCESS_AT(mpi_file_read_at_, bamboo_file_read_at, void)
BAMBOO_FORTRAN_ACCESS_AT(mpi_file_write_at_, bamboo_file_write_at, const void)
BAMBOO_FORTRAN_ACCESS_AT(mpi_file_read_at_all_, bamboo_file_read_at_all, void)
BAMBOO_FORTRAN_ACCESS_AT(mpi_file_write_at_all_, bamboo_file_write_at_all, const void)

// At the file's individual pointer.
#define BAMBOO_FORTRAN_ACCESS(fortran_name, c_name, buffer_type)                                     \
    void fortran_name(const Fint* fh, buffer_type* buf, const Fint* count, const Fint* type, Fint* status, \
                      Fint* ierr) {                                                              \
        StatusOut out(status);                                                                    \
        *ierr = c_name(kFortranSite, file(*fh), buffer(buf), *count, datatype(*type), out.c());    \
        out.store();                                                                              \
    }
BAMBOO_FORTRAN_ACCESS(mpi_file_read_, bamboo_file_read, void)
BAMBOO_FORTRAN_ACCESS(mpi_file_write_, bamboo_file_write, const void)
BAMBOO_FORTRAN_ACCESS(mpi_file_read_all_, bamboo_file_read_all, void)
BAMBOO_FORTRAN_ACCESS(mpi_file_write_all_, bamboo_file_write_all, const void)

}  // extern "C"
