! Bamboo's directives in Fortran: an olap region whose send blocks and receive blocks get
! firing rules, announced whole (a block of receives only), by source and tag (a block that
! unpacks), under a DO loop and IFs (no neighbour past the ends), and with MPI_ANY_SOURCE;
! a priority and a dimension.
program halo_directives
  use mpi
  implicit none
  integer, parameter :: n = 16, steps = 6
  integer :: rank, np, ierr, it, d, nbr(2), req(2), from, total
  double precision :: u(0:n+1), v(0:n+1), edge(2), got(2)
  integer :: count_in(2)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  nbr(1) = rank - 1
  nbr(2) = rank + 1
  if (rank == 0) nbr(1) = MPI_PROC_NULL
  if (rank == np - 1) nbr(2) = MPI_PROC_NULL
  u = 0
  u(1:n) = [(dble(rank * n + d), d = 1, n)]
  !$bamboo dimension 1
  !$bamboo priority np - rank
  !$bamboo olap
  do it = 1, steps
    !$bamboo send
    do d = 1, 2
      call MPI_Isend(u(1 + (d - 1) * (n - 1)), 1, MPI_DOUBLE_PRECISION, nbr(d), d, MPI_COMM_WORLD, req(d), ierr)
    end do
    !$bamboo receive
    do d = 1, 2
      if (nbr(d) /= MPI_PROC_NULL) then
        call MPI_Recv(u(merge(0, n + 1, d == 1)), 1, MPI_DOUBLE_PRECISION, nbr(d), 3 - d, MPI_COMM_WORLD, &
                      MPI_STATUS_IGNORE, ierr)
      end if
    end do
    call MPI_Waitall(2, req, MPI_STATUSES_IGNORE, ierr)
    v(1:n) = (u(0:n-1) + 2 * u(1:n) + u(2:n+1)) / 4
    u(1:n) = v(1:n)
  end do

  ! A block that unpacks what it receives: announced by source and tag.
  edge = [u(1), u(n)]
  !$bamboo send
  call MPI_Isend(edge, 2, MPI_DOUBLE_PRECISION, mod(rank + 1, np), 7, MPI_COMM_WORLD, req(1), ierr)
  !$bamboo receive
  block
    call MPI_Recv(got, 2, MPI_DOUBLE_PRECISION, mod(rank + np - 1, np), 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    u(0) = got(2)
  end block
  call MPI_Wait(req(1), MPI_STATUS_IGNORE, ierr)

  ! A wildcard receive in a rule: every rank sends its rank to rank 0.
  if (rank /= 0) call MPI_Send(rank, 1, MPI_INTEGER, 0, 9, MPI_COMM_WORLD, ierr)
  total = 0
  count_in = 0
  if (rank == 0) then
    !$bamboo receive
    do d = 1, np - 1
      call MPI_Recv(from, 1, MPI_INTEGER, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    end do
  end if
  call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  write(*, '(a,i0,a,f0.6,a,f0.6,a,f0.6,a,i0)') 'rank ', rank, ' sum ', sum(u(1:n)), ' first ', u(1), &
    ' left edge ', u(0), ' total ', total
  call MPI_Finalize(ierr)
end program halo_directives
