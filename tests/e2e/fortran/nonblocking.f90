! Tests Isend/Irecv with Waitall, Wait, Test, Waitany, Testall, Waitsome in a 1-D Jacobi halo exchange.
program nonblocking
  use mpi
  implicit none
  integer, parameter :: n = 6, niter = 24
  integer :: rank, nprocs, ierr, left, right, it, k, idx, src, total, nbad, ndone, nout
  integer :: reqs(4), indices(4)
  integer, allocatable :: allreqs(:), inbox(:), outbox(:), statuses(:, :)
  logical :: flag
  double precision :: u(0:n + 1), unew(n), checksum

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)

  ! Phase 1: every rank sends 10*rank+dest to every rank (itself included).
  allocate(allreqs(2 * nprocs), inbox(nprocs), outbox(nprocs), statuses(MPI_STATUS_SIZE, 2 * nprocs))
  do k = 1, nprocs
    call MPI_Irecv(inbox(k), 1, MPI_INTEGER, k - 1, 5, MPI_COMM_WORLD, allreqs(k), ierr)
  end do
  do k = 1, nprocs
    outbox(k) = 10 * rank + (k - 1)
    call MPI_Isend(outbox(k), 1, MPI_INTEGER, k - 1, 5, MPI_COMM_WORLD, &
                   allreqs(nprocs + k), ierr)
  end do
  call MPI_Waitall(2 * nprocs, allreqs, statuses, ierr)
  total = 0
  nbad = 0
  do k = 1, nprocs
    src = statuses(MPI_SOURCE, k)
    if (src /= k - 1 .or. statuses(MPI_TAG, k) /= 5) nbad = nbad + 1
    if (inbox(k) /= 10 * src + rank) nbad = nbad + 1
    total = total + inbox(k)
  end do
  write(*, '(a,i0,a,i0,a,i0)') 'rank ', rank, ' alltoall sum ', total, ' errors ', nbad

  ! Phase 2: 1-D Jacobi; global boundary values 1024 at the left end, 0 at the right end.
  left = rank - 1
  right = rank + 1
  if (rank == 0) left = MPI_PROC_NULL
  if (rank == nprocs - 1) right = MPI_PROC_NULL
  u = 0.0d0
  if (rank == 0) u(0) = 1024.0d0
  do k = 1, n
    u(k) = dble(mod(rank * n + k, 5)) * 8.0d0
  end do
  do it = 1, niter
    call MPI_Irecv(u(0), 1, MPI_DOUBLE_PRECISION, left, 1, MPI_COMM_WORLD, reqs(1), ierr)
    call MPI_Irecv(u(n + 1), 1, MPI_DOUBLE_PRECISION, right, 2, MPI_COMM_WORLD, reqs(2), ierr)
    call MPI_Isend(u(n), 1, MPI_DOUBLE_PRECISION, right, 1, MPI_COMM_WORLD, reqs(3), ierr)
    call MPI_Isend(u(1), 1, MPI_DOUBLE_PRECISION, left, 2, MPI_COMM_WORLD, reqs(4), ierr)
    select case (mod(it, 6))
    case (0)
      call MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE, ierr)
    case (1)
      do k = 1, 4
        call MPI_Wait(reqs(k), MPI_STATUS_IGNORE, ierr)
      end do
    case (2)
      do k = 1, 4
        flag = .false.
        do while (.not. flag)
          call MPI_Test(reqs(k), flag, MPI_STATUS_IGNORE, ierr)
        end do
      end do
    case (3)
      do k = 1, 4
        call MPI_Waitany(4, reqs, idx, MPI_STATUS_IGNORE, ierr)
        if (idx < 1 .or. idx > 4) nbad = nbad + 1
      end do
    case (4)
      flag = .false.
      do while (.not. flag)
        call MPI_Testall(4, reqs, flag, MPI_STATUSES_IGNORE, ierr)
      end do
    case default
      ndone = 0
      do while (ndone < 4)
        call MPI_Waitsome(4, reqs, nout, indices, MPI_STATUSES_IGNORE, ierr)
        ndone = ndone + nout
      end do
    end select
    do k = 1, 4
      if (reqs(k) /= MPI_REQUEST_NULL) nbad = nbad + 1
    end do
    do k = 1, n
      unew(k) = 0.5d0 * (u(k - 1) + u(k + 1))
    end do
    u(1:n) = unew
  end do
  ! Values are dyadic rationals, so sums are exact and independent of order.
  checksum = sum(u(1:n))
  write(*, '(a,i0,a,i0,a,i0,a,f24.12,a,i0)') 'rank ', rank, ' cells ', rank * n + 1, '-', &
       rank * n + n, ' checksum ', checksum, ' errors ', nbad
  write(*, '(a,i0,a,2f24.12)') 'rank ', rank, ' ends ', u(1), u(n)

  deallocate(allreqs, inbox, outbox, statuses)
  call MPI_Finalize(ierr)
end program nonblocking
