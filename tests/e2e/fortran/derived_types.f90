! Tests a module array of a derived type sent as bytes/doubles, plus CHARACTER, INTEGER8, DOUBLE_COMPLEX, MAXLOC/MINLOC.
module particles
  implicit none
  type :: particle
    integer :: id
    integer :: species
    double precision :: pos(3)
    double precision :: vel(3)
    double precision :: mass
  end type particle
  integer, parameter :: np_local = 4
  type(particle) :: parts(np_local)
  type(particle), allocatable :: incoming(:)
end module particles

program derived_types
  use mpi
  use particles
  implicit none
  integer :: rank, np, ierr, left, right, k, nbytes, nbad
  double precision :: posbuf(3, np_local), inpos(3, np_local)
  double precision :: pair(2), maxl(2), minl(2)
  integer(kind=8) :: big, bigsum
  complex(kind=8) :: z, zsum
  character(len=16) :: msg, inmsg

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  right = mod(rank + 1, np)
  left = mod(rank - 1 + np, np)

  do k = 1, np_local
    parts(k)%id = 100 * rank + k
    parts(k)%species = mod(rank + k, 3)
    parts(k)%pos = (/ dble(rank), dble(k), 0.5d0 * k /)
    parts(k)%vel = (/ -dble(k), 0.25d0 * rank, 1.0d0 /)
    parts(k)%mass = 1.0d0 + rank
  end do
  allocate(incoming(np_local))

  ! Whole derived-type array as bytes to the right neighbour.
  nbytes = np_local * (storage_size(parts(1)) / 8)
  call MPI_Sendrecv(parts, nbytes, MPI_BYTE, right, 1, incoming, nbytes, MPI_BYTE, left, 1, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  nbad = 0
  do k = 1, np_local
    if (incoming(k)%id /= 100 * left + k) nbad = nbad + 1
    if (incoming(k)%mass /= 1.0d0 + left) nbad = nbad + 1
    if (parts(k)%id /= 100 * rank + k) nbad = nbad + 1
  end do
  write(*, '(a,i0,a,i0,a,4(1x,i0),a,4(1x,i0),a,f8.2)') 'rank ', rank, ' bytes ', nbytes, ' ids', &
       incoming%id, ' species', incoming%species, ' velsum ', sum(incoming(1)%vel) + sum(incoming(4)%vel)

  ! Positions as a double precision array to the left neighbour.
  do k = 1, np_local
    posbuf(:, k) = parts(k)%pos
  end do
  call MPI_Sendrecv(posbuf, 3 * np_local, MPI_DOUBLE_PRECISION, left, 2, inpos, 3 * np_local, &
                    MPI_DOUBLE_PRECISION, right, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  write(*, '(a,i0,a,f8.2,a,i0)') 'rank ', rank, ' inpos sum ', sum(inpos), ' errors ', nbad

  ! Character data around the ring.
  write(msg, '(a,i0,a)') 'hello from ', rank, '!'
  inmsg = repeat('?', len(inmsg))
  call MPI_Sendrecv(msg, len(msg), MPI_CHARACTER, right, 3, inmsg, len(inmsg), MPI_CHARACTER, &
                    left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  write(*, '(a,i0,a,a,a)') 'rank ', rank, ' got "', trim(inmsg), '"'

  ! 64-bit integers beyond 32-bit range and double complex sums.
  big = 2_8**40 + rank
  call MPI_Allreduce(big, bigsum, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, ierr)
  z = cmplx(dble(rank), -2.0d0 * rank + 0.5d0, kind=8)
  call MPI_Allreduce(z, zsum, 1, MPI_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD, ierr)
  write(*, '(a,i0,a,i0,a,2f10.2)') 'rank ', rank, ' int8 sum ', bigsum, ' complex sum ', zsum

  ! MAXLOC / MINLOC on (value, rank) pairs; ties resolve to the lowest rank.
  pair(1) = dble(mod(rank * 5, 7))
  pair(2) = dble(rank)
  call MPI_Allreduce(pair, maxl, 1, MPI_2DOUBLE_PRECISION, MPI_MAXLOC, MPI_COMM_WORLD, ierr)
  pair(1) = dble(mod(rank + 1, 3))
  call MPI_Allreduce(pair, minl, 1, MPI_2DOUBLE_PRECISION, MPI_MINLOC, MPI_COMM_WORLD, ierr)
  write(*, '(a,i0,a,f6.1,a,i0,a,f6.1,a,i0)') 'rank ', rank, ' maxloc ', maxl(1), ' at ', nint(maxl(2)), &
       ' minloc ', minl(1), ' at ', nint(minl(2))

  deallocate(incoming)
  call MPI_Finalize(ierr)
end program derived_types
