! A Fortran main program calling C that calls MPI and keeps a static counter: the C of a
! Fortran program is per task too.
program mixed
  use mpi
  implicit none
  interface
    integer function ring_sum(value) bind(c, name='ring_sum')
      integer, value :: value
    end function ring_sum
  end interface
  integer :: rank, ierr, i, total
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  do i = 1, 3
    total = ring_sum(rank * i)
    write(*, '(a,i0,a,i0,a,i0)') 'rank ', rank, ' round ', i, ' ring sum ', total
  end do
  call MPI_Finalize(ierr)
end program mixed
