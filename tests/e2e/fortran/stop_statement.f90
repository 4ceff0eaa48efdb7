! STOP after MPI_Finalize ends the rank that runs it, not the others (under Bamboo, not the
! other tasks of its process).
program stop_statement
  use mpi
  implicit none
  integer :: rank, np, ierr, total
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Finalize(ierr)
  if (mod(rank, 2) == 0) stop
  write(*, '(a,i0,a,i0)') 'rank ', rank, ' went on after the even ranks stopped; total ', total
end program stop_statement
