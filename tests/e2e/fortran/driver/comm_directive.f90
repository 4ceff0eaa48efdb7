program comm_directive
  use mpi
  implicit none
  integer :: ierr, x
  call MPI_Init(ierr)
  x = 1
!$comm_p2p sender(0) receiver(1) sbuf(x) rbuf(x) target(TARGET_COMM_MPI_1SIDE)
  call MPI_Finalize(ierr)
end program comm_directive
