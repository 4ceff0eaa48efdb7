program directives
  use mpi
  implicit none
  integer :: ierr, rank, left, right, np, x, y
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  left = mod(rank + np - 1, np)
  right = mod(rank + 1, np)
  x = rank
  !$bamboo olap
  call MPI_Sendrecv(x, 1, MPI_INTEGER, right, 0, y, 1, MPI_INTEGER, left, 0, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE, ierr)
  write(*, '(a,i0,a,i0)') 'rank ', rank, ' got ', y
  call MPI_Finalize(ierr)
end program directives
