! Seed 003's communication directives in Fortran: a ring exchange of a halo array and of a
! derived-type scalar in one param region, overlapping an update; an instance alone; one in
! a loop with max_comm_iter, whose iterations receive into parts of their own; and
! sendwhen/receivewhen. exchange_mpi.f90 is the same program written with MPI calls.
module particles
  implicit none
  type particle
    integer :: id
    double precision :: x(3)
  end type particle
end module particles

program exchange
  use mpi
  use particles
  implicit none
  integer :: rank, np, ierr, prev, next, i, k
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

  !$comm_parameters sender(prev) receiver(next)
  block
    !$comm_p2p sbuf(halo_out) rbuf(halo_in)
    field = field * 2 + 1
    !$comm_p2p sbuf(mine) rbuf(theirs)
    block
    end block
  end block
  write(*, '(a,i0,a,4f6.1,a,i0,3f6.1,a,f6.1)') 'rank ', rank, ' halo', halo_in, ' particle ', theirs%id, &
    theirs%x, ' field ', sum(field)

  ! An instance alone is a region of its own; count(2) sends part of the array.
  halo_out = halo_out + 100
  !$comm_p2p sender(next) receiver(prev) sbuf(halo_out) rbuf(halo_in) count(2)
  block
  end block
  write(*, '(a,i0,a,4f7.1)') 'rank ', rank, ' back', halo_in

  ! A loop of transfers into parts of their own, completed together at the region's end.
  spins = [rank, rank * 2, rank * 3]
  gathered = -1
  !$comm_parameters sender(prev) receiver(next) max_comm_iter(3)
  do k = 0, 2
    !$comm_p2p sbuf(spins(k + 1)) rbuf(gathered(1, k)) count(1)
    field(k + 1) = field(k + 1) + k
  end do
  write(*, '(a,i0,a,3i4)') 'rank ', rank, ' gathered', gathered(1, :)

  ! Only even ranks send, to the rank after them; only odd ranks receive.
  flag_out = 1000 + rank
  flag_in = 0
  if (mod(np, 2) == 0) then
    !$comm_p2p sender(prev) receiver(next) sendwhen(mod(rank, 2) == 0) receivewhen(mod(rank, 2) == 1) sbuf(flag_out) rbuf(flag_in)
    block
    end block
  end if
  write(*, '(a,i0,a,i0)') 'rank ', rank, ' flag ', flag_in
  call MPI_Finalize(ierr)
end program exchange
