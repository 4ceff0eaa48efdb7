// Fortran bindings: one-sided MPI (windows, puts, gets, accumulates, and their epochs).
// Window sizes and target displacements are INTEGER(KIND=MPI_ADDRESS_KIND), C's MPI_Aint.
#include "binding.hpp"

using namespace bamboo::fortran;

extern "C" {

void mpi_win_create_(void* base, const MPI_Aint* size, const Fint* disp_unit, const Fint* i, const Fint* c,
                     Fint* win, Fint* ierr) {
    MPI_Win made = MPI_WIN_NULL;
    *ierr = bamboo_win_create(kFortranSite, base, *size, *disp_unit, info(*i), comm(*c), &made);
    *win = window_handle(made);
}

void mpi_win_free_(Fint* win, Fint* ierr) {
    MPI_Win freed = window(*win);
    *ierr = bamboo_win_free(kFortranSite, &freed);
    if (freed == MPI_WIN_NULL) {
        forget_window(*win);
        *win = 0;
    }
}

void mpi_win_get_group_(const Fint* win, Fint* g, Fint* ierr) {
    MPI_Group made = MPI_GROUP_NULL;
    *ierr = bamboo_win_get_group(kFortranSite, window(*win), &made);
    *g = group_handle(made);
}

void mpi_put_(const void* origin, const Fint* origin_count, const Fint* origin_type, const Fint* target_rank,
              const MPI_Aint* target_disp, const Fint* target_count, const Fint* target_type, const Fint* win,
              Fint* ierr) {
    *ierr = bamboo_put(kFortranSite, buffer(origin), *origin_count, datatype(*origin_type), *target_rank, *target_disp,
                       *target_count, datatype(*target_type), window(*win));
}

void mpi_get_(void* origin, const Fint* origin_count, const Fint* origin_type, const Fint* target_rank,
              const MPI_Aint* target_disp, const Fint* target_count, const Fint* target_type, const Fint* win,
              Fint* ierr) {
    *ierr = bamboo_get(kFortranSite, buffer(origin), *origin_count, datatype(*origin_type), *target_rank, *target_disp,
                       *target_count, datatype(*target_type), window(*win));
}

void mpi_accumulate_(const void* origin, const Fint* origin_count, const Fint* origin_type, const Fint* target_rank,
                     const MPI_Aint* target_disp, const Fint* target_count, const Fint* target_type, const Fint* o,
                     const Fint* win, Fint* ierr) {
    *ierr = bamboo_accumulate(kFortranSite, buffer(origin), *origin_count, datatype(*origin_type), *target_rank,
                              *target_disp, *target_count, datatype(*target_type), op(*o), window(*win));
}

void mpi_get_accumulate_(const void* origin, const Fint* origin_count, const Fint* origin_type, void* result,
                         const Fint* result_count, const Fint* result_type, const Fint* target_rank,
                         const MPI_Aint* target_disp, const Fint* target_count, const Fint* target_type, const Fint* o,
                         const Fint* win, Fint* ierr) {
    *ierr = bamboo_get_accumulate(kFortranSite, buffer(origin), *origin_count, datatype(*origin_type), buffer(result),
                                  *result_count, datatype(*result_type), *target_rank, *target_disp, *target_count,
                                  datatype(*target_type), op(*o), window(*win));
}

void mpi_fetch_and_op_(const void* origin, void* result, const Fint* type, const Fint* target_rank,
                       const MPI_Aint* target_disp, const Fint* o, const Fint* win, Fint* ierr) {
    *ierr = bamboo_fetch_and_op(kFortranSite, buffer(origin), buffer(result), datatype(*type), *target_rank,
                                *target_disp, op(*o), window(*win));
}

void mpi_compare_and_swap_(const void* origin, const void* compare, void* result, const Fint* type,
                           const Fint* target_rank, const MPI_Aint* target_disp, const Fint* win, Fint* ierr) {
    *ierr = bamboo_compare_and_swap(kFortranSite, buffer(origin), buffer(compare), buffer(result), datatype(*type),
                                    *target_rank, *target_disp, window(*win));
}

// The synchronization of access epochs. `assert` is an integer of MPI_MODE_* bits.
void mpi_win_fence_(const Fint* assert_, const Fint* win, Fint* ierr) {
    *ierr = bamboo_win_fence(kFortranSite, *assert_, window(*win));
}

void mpi_win_lock_(const Fint* lock_type, const Fint* rank, const Fint* assert_, const Fint* win, Fint* ierr) {
    *ierr = bamboo_win_lock(kFortranSite, *lock_type, *rank, *assert_, window(*win));
}

void mpi_win_unlock_(const Fint* rank, const Fint* win, Fint* ierr) {
    *ierr = bamboo_win_unlock(kFortranSite, *rank, window(*win));
}

void mpi_win_lock_all_(const Fint* assert_, const Fint* win, Fint* ierr) {
    *ierr = bamboo_win_lock_all(kFortranSite, *assert_, window(*win));
}

void mpi_win_unlock_all_(const Fint* win, Fint* ierr) { *ierr = bamboo_win_unlock_all(kFortranSite, window(*win)); }

void mpi_win_flush_(const Fint* rank, const Fint* win, Fint* ierr) {
    *ierr = bamboo_win_flush(kFortranSite, *rank, window(*win));
}

void mpi_win_flush_all_(const Fint* win, Fint* ierr) { *ierr = bamboo_win_flush_all(kFortranSite, window(*win)); }

void mpi_win_flush_local_(const Fint* rank, const Fint* win, Fint* ierr) {
    *ierr = bamboo_win_flush_local(kFortranSite, *rank, window(*win));
}

void mpi_win_flush_local_all_(const Fint* win, Fint* ierr) {
    *ierr = bamboo_win_flush_local_all(kFortranSite, window(*win));
}

void mpi_win_sync_(const Fint* win, Fint* ierr) { *ierr = bamboo_win_sync(kFortranSite, window(*win)); }

void mpi_win_post_(const Fint* g, const Fint* assert_, const Fint* win, Fint* ierr) {
    *ierr = bamboo_win_post(kFortranSite, group(*g), *assert_, window(*win));
}

void mpi_win_start_(const Fint* g, const Fint* assert_, const Fint* win, Fint* ierr) {
    *ierr = bamboo_win_start(kFortranSite, group(*g), *assert_, window(*win));
}

void mpi_win_complete_(const Fint* win, Fint* ierr) { *ierr = bamboo_win_complete(kFortranSite, window(*win)); }

void mpi_win_wait_(const Fint* win, Fint* ierr) { *ierr = bamboo_win_wait(kFortranSite, window(*win)); }

}  // extern "C"
