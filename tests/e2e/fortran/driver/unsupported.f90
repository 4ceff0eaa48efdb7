program unsupported
  use mpi
  implicit none
  integer :: ierr, info
  call MPI_Init(ierr)
  call MPI_Info_create(info, ierr)
  call MPI_Finalize(ierr)
end program unsupported
