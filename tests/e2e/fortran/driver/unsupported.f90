program unsupported
  use mpi
  implicit none
  integer :: ierr, win
  call MPI_Init(ierr)
  call MPI_Win_free(win, ierr)
  call MPI_Finalize(ierr)
end program unsupported
