! Tests per-rank module variables (scalar, 2-D array, allocatable, initialized) kept across a Sendrecv ring.
module rank_state
  implicit none
  integer :: myval
  integer :: grid(3, 2)
  double precision, allocatable :: buf(:)
  integer :: counter = 100
  character(len=12) :: label = 'unset'
end module rank_state

program module_data
  use mpi
  use rank_state
  implicit none
  integer :: rank, nprocs, ierr, left, right, i, j, step, recvd, nbad
  integer :: ingrid(3, 2)
  integer :: status(MPI_STATUS_SIZE)
  double precision :: mysum, leftsum

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  right = mod(rank + 1, nprocs)
  left = mod(rank - 1 + nprocs, nprocs)

  ! Every rank writes its own values into the module variables.
  myval = 1000 + rank
  do j = 1, 2
    do i = 1, 3
      grid(i, j) = rank * 100 + i * 10 + j
    end do
  end do
  allocate(buf(rank + 2))
  do i = 1, size(buf)
    buf(i) = rank + 0.5d0 * i
  end do
  write(label, '(a,i0)') 'rank', rank

  ! Ring steps: each step increments the module counter and passes values around.
  recvd = -1
  do step = 1, nprocs
    counter = counter + rank + 1
    call MPI_Sendrecv(myval, 1, MPI_INTEGER, right, 1, recvd, 1, MPI_INTEGER, &
                      left, 1, MPI_COMM_WORLD, status, ierr)
  end do
  call MPI_Sendrecv(grid, 6, MPI_INTEGER, right, 2, ingrid, 6, MPI_INTEGER, &
                    left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  mysum = sum(buf)
  call MPI_Sendrecv(mysum, 1, MPI_DOUBLE_PRECISION, right, 3, leftsum, 1, &
                    MPI_DOUBLE_PRECISION, left, 3, MPI_COMM_WORLD, status, ierr)

  call MPI_Barrier(MPI_COMM_WORLD, ierr)

  ! Check nothing was overwritten by other ranks.
  nbad = 0
  if (myval /= 1000 + rank) nbad = nbad + 1
  if (recvd /= 1000 + left) nbad = nbad + 1
  if (counter /= 100 + nprocs * (rank + 1)) nbad = nbad + 1
  if (size(buf) /= rank + 2) nbad = nbad + 1
  if (trim(label) /= 'rank' // trim(itoa(rank))) nbad = nbad + 1
  do j = 1, 2
    do i = 1, 3
      if (grid(i, j) /= rank * 100 + i * 10 + j) nbad = nbad + 1
      if (ingrid(i, j) /= left * 100 + i * 10 + j) nbad = nbad + 1
    end do
  end do
  if (status(MPI_SOURCE) /= left .or. status(MPI_TAG) /= 3) nbad = nbad + 1

  write(*, '(a,i0,a,i0,a,i0,a,i0,a,a)') 'rank ', rank, ' myval ', myval, &
       ' recvd ', recvd, ' counter ', counter, ' label ', trim(label)
  write(*, '(a,i0,a,6(1x,i0))') 'rank ', rank, ' grid', grid
  write(*, '(a,i0,a,6(1x,i0))') 'rank ', rank, ' ingrid', ingrid
  write(*, '(a,i0,a,i0,a,f10.2,a,f10.2)') 'rank ', rank, ' bufsize ', size(buf), &
       ' bufsum ', mysum, ' leftsum ', leftsum
  write(*, '(a,i0,a,i0)') 'rank ', rank, ' errors ', nbad

  deallocate(buf)
  call MPI_Finalize(ierr)

contains

  function itoa(n) result(s)
    integer, intent(in) :: n
    character(len=12) :: s
    write(s, '(i0)') n
  end function itoa

end program module_data
