! exchange.f90 written with MPI calls: the ground truth of its communication directives.
module particles
  implicit none
  type particle
    integer :: id
    double precision :: x(3)
  end type particle
end module particles

program exchange_mpi
  use mpi
  use particles
  implicit none
  integer :: rank, np, ierr, prev, next, i, k, req(6)
  double precision :: halo_out(4), halo_in(4), field(8)
  type(particle) :: mine, theirs
  integer :: spins(3), gathered(3, 0:2), flag_out, flag_in
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  prev = mod(rank + np - 1, np)
  next = mod(rank + 1, np)
  halo_out = [(10 * rank + i, i = 1, 4)]
  halo_in = -1
  field = rank
  mine = particle(rank, [dble(rank), 0.5d0, -dble(rank)])

  call MPI_Irecv(halo_in, 4, MPI_DOUBLE_PRECISION, prev, 1, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Isend(halo_out, 4, MPI_DOUBLE_PRECISION, next, 1, MPI_COMM_WORLD, req(2), ierr)
  field = field * 2 + 1
  call MPI_Irecv(theirs, storage_size(theirs) / 8, MPI_BYTE, prev, 2, MPI_COMM_WORLD, req(3), ierr)
  call MPI_Isend(mine, storage_size(mine) / 8, MPI_BYTE, next, 2, MPI_COMM_WORLD, req(4), ierr)
  call MPI_Waitall(4, req, MPI_STATUSES_IGNORE, ierr)
  write(*, '(a,i0,a,4f6.1,a,i0,3f6.1,a,f6.1)') 'rank ', rank, ' halo', halo_in, ' particle ', theirs%id, &
    theirs%x, ' field ', sum(field)

  halo_out = halo_out + 100
  call MPI_Sendrecv(halo_out, 2, MPI_DOUBLE_PRECISION, prev, 3, halo_in, 2, MPI_DOUBLE_PRECISION, next, 3, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  write(*, '(a,i0,a,4f7.1)') 'rank ', rank, ' back', halo_in

  spins = [rank, rank * 2, rank * 3]
  gathered = -1
  do k = 0, 2
    call MPI_Irecv(gathered(1, k), 1, MPI_INTEGER, prev, 4, MPI_COMM_WORLD, req(2 * k + 1), ierr)
    call MPI_Isend(spins(k + 1), 1, MPI_INTEGER, next, 4, MPI_COMM_WORLD, req(2 * k + 2), ierr)
  end do
  call MPI_Waitall(6, req, MPI_STATUSES_IGNORE, ierr)
  write(*, '(a,i0,a,3i4)') 'rank ', rank, ' gathered', gathered(1, :)

  flag_out = 1000 + rank
  flag_in = 0
  if (mod(np, 2) == 0) then
    if (mod(rank, 2) == 0) call MPI_Send(flag_out, 1, MPI_INTEGER, next, 5, MPI_COMM_WORLD, ierr)
    if (mod(rank, 2) == 1) call MPI_Recv(flag_in, 1, MPI_INTEGER, prev, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end if
  write(*, '(a,i0,a,i0)') 'rank ', rank, ' flag ', flag_in
  call MPI_Finalize(ierr)
end program exchange_mpi
