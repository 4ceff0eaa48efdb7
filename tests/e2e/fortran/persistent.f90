! Tests persistent requests (Send_init, Ssend_init, Rsend_init, Recv_init, Start, Startall)
! reused across iterations, and cancelling a receive that no message matches.
program persistent
  use mpi
  implicit none
  integer, parameter :: niter = 5
  integer :: rank, nprocs, ierr, left, right, it, nbad, k
  integer :: reqs(2), sreq, rreq, cancelled_req
  integer :: status(MPI_STATUS_SIZE)
  integer :: total, never
  ! The persistent requests' buffers: read and written by MPI_Start and the waits, which do not
  ! name them, so the compiler must not keep them in registers across those calls.
  integer, asynchronous :: sendval, recvval, ssendval, ssrecv
  double precision, asynchronous :: row(4), got(4)
  logical :: flag

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  right = mod(rank + 1, nprocs)
  left = mod(rank + nprocs - 1, nprocs)
  nbad = 0

  ! A ring: the same two requests started niter times; their integers survive each wait.
  call MPI_Recv_init(recvval, 1, MPI_INTEGER, left, 7, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Send_init(sendval, 1, MPI_INTEGER, right, 7, MPI_COMM_WORLD, reqs(2), ierr)
  total = 0
  do it = 1, niter
    sendval = 100 * it + rank
    call MPI_Startall(2, reqs, ierr)
    call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
    if (reqs(1) == MPI_REQUEST_NULL .or. reqs(2) == MPI_REQUEST_NULL) nbad = nbad + 1
    if (recvval /= 100 * it + left) nbad = nbad + 1
    total = total + recvval
  end do
  call MPI_Request_free(reqs(1), ierr)
  call MPI_Request_free(reqs(2), ierr)
  if (reqs(1) /= MPI_REQUEST_NULL .or. reqs(2) /= MPI_REQUEST_NULL) nbad = nbad + 1
  write(*, '(a,i0,a,i0,a,i0)') 'rank ', rank, ' ring total ', total, ' errors ', nbad

  ! Synchronous sends, started one at a time; the status of the receive names its sender.
  call MPI_Recv_init(ssrecv, 1, MPI_INTEGER, MPI_ANY_SOURCE, 8, MPI_COMM_WORLD, rreq, ierr)
  call MPI_Ssend_init(ssendval, 1, MPI_INTEGER, right, 8, MPI_COMM_WORLD, sreq, ierr)
  do it = 1, niter
    ssendval = rank * it
    call MPI_Start(rreq, ierr)
    call MPI_Start(sreq, ierr)
    call MPI_Wait(rreq, status, ierr)
    if (status(MPI_SOURCE) /= left .or. status(MPI_TAG) /= 8 .or. ssrecv /= left * it) nbad = nbad + 1
    flag = .false.
    do while (.not. flag)
      call MPI_Test(sreq, flag, MPI_STATUS_IGNORE, ierr)
    end do
  end do
  call MPI_Request_free(rreq, ierr)
  call MPI_Request_free(sreq, ierr)
  write(*, '(a,i0,a,i0)') 'rank ', rank, ' ssend errors ', nbad

  ! Ready sends: each receive is started before a barrier, the send after it.
  call MPI_Recv_init(got, 4, MPI_DOUBLE_PRECISION, left, 9, MPI_COMM_WORLD, rreq, ierr)
  call MPI_Rsend_init(row, 4, MPI_DOUBLE_PRECISION, right, 9, MPI_COMM_WORLD, sreq, ierr)
  do it = 1, 3
    do k = 1, 4
      row(k) = rank + 0.25d0 * k * it
    end do
    call MPI_Start(rreq, ierr)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    call MPI_Start(sreq, ierr)
    reqs(1) = rreq
    reqs(2) = sreq
    call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
    do k = 1, 4
      if (got(k) /= left + 0.25d0 * k * it) nbad = nbad + 1
    end do
  end do
  call MPI_Request_free(rreq, ierr)
  call MPI_Request_free(sreq, ierr)
  write(*, '(a,i0,a,i0,a,4f8.2)') 'rank ', rank, ' rsend errors ', nbad, ' last ', got

  ! A receive no message matches, cancelled: its wait completes it, its status says so.
  call MPI_Irecv(never, 1, MPI_INTEGER, rank, 99, MPI_COMM_WORLD, cancelled_req, ierr)
  call MPI_Cancel(cancelled_req, ierr)
  call MPI_Wait(cancelled_req, status, ierr)
  call MPI_Test_cancelled(status, flag, ierr)
  write(*, '(a,i0,a,l1,a,l1)') 'rank ', rank, ' cancelled ', flag, ' null ', cancelled_req == MPI_REQUEST_NULL

  call MPI_Finalize(ierr)
end program persistent
