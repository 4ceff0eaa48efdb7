program unsupported
  use mpi
  implicit none
  integer :: ierr, win, unit
  integer(kind=MPI_ADDRESS_KIND) :: size, base
  call MPI_Init(ierr)
  call MPI_Win_shared_query(win, 0, size, unit, base, ierr)
  call MPI_Finalize(ierr)
end program unsupported
