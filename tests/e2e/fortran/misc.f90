! Tests init/finalize queries, Wtime/Wtick, probes, synchronous/ready sends, Request_free, Sendrecv_replace, SAVE state.
module misc_helpers
  implicit none
contains
  recursive subroutine countdown(n, depth)
    integer, intent(in) :: n
    integer, intent(out) :: depth
    integer, save :: ncalls = 0
    ncalls = ncalls + 1
    if (n > 0) then
      call countdown(n - 1, depth)
    else
      depth = ncalls
    end if
  end subroutine countdown

  integer function remember(x)
    integer, intent(in) :: x
    integer, save :: hist(16) = 0
    integer, save :: nstored = 0
    nstored = min(nstored + 1, 16)
    hist(nstored) = x
    remember = sum(hist(1:nstored))
  end function remember
end module misc_helpers

program misc
  use mpi
  use misc_helpers
  implicit none
  integer :: rank, np, ierr, left, right, provided, cnt, rlen, depth, acc, k, h, req, rreq
  integer :: status(MPI_STATUS_SIZE), ring(3), out(8), inb(8), sreq, pre
  integer, allocatable :: buf(:)
  logical :: flag, fin
  double precision :: t0, t1
  character(len=MPI_MAX_PROCESSOR_NAME) :: pname

  call MPI_Initialized(flag, ierr)
  call MPI_Init_thread(MPI_THREAD_FUNNELED, provided, ierr)
  call MPI_Initialized(fin, ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  write(*, '(a,i0,a,l1,a,l1,a,l1)') 'rank ', rank, ' initialized before ', flag, ' after ', fin, &
       ' provided ok ', provided >= MPI_THREAD_SINGLE
  call MPI_Finalized(fin, ierr)
  t0 = MPI_Wtime()
  call MPI_Get_processor_name(pname, rlen, ierr)
  write(*, '(a,i0,a,l1,a,l1,a,l1)') 'rank ', rank, ' finalized ', fin, ' wtick positive ', &
       MPI_Wtick() > 0.0d0, ' name nonempty ', rlen > 0
  right = mod(rank + 1, np)
  left = mod(rank - 1 + np, np)

  ! Probe + Get_count sizes the receive of a message of mod(rank,6)+3 integers (out has 8).
  out = (/ (rank * 10 + k, k = 1, 8) /)
  call MPI_Isend(out, mod(rank, 6) + 3, MPI_INTEGER, right, 1, MPI_COMM_WORLD, req, ierr)
  call MPI_Probe(left, 1, MPI_COMM_WORLD, status, ierr)
  call MPI_Get_count(status, MPI_INTEGER, cnt, ierr)
  allocate(buf(cnt))
  call MPI_Recv(buf, cnt, MPI_INTEGER, status(MPI_SOURCE), status(MPI_TAG), MPI_COMM_WORLD, status, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  write(*, '(a,i0,a,i0,a,*(1x,i0))') 'rank ', rank, ' probed count ', cnt, ' data', buf
  deallocate(buf)

  ! Iprobe loop with a wildcard source, then Issend completed by Wait.
  call MPI_Issend(out, 2, MPI_INTEGER, right, 2, MPI_COMM_WORLD, req, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Iprobe(MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, flag, status, ierr)
  end do
  call MPI_Recv(inb, 8, MPI_INTEGER, status(MPI_SOURCE), 2, MPI_COMM_WORLD, status, ierr)
  call MPI_Get_count(status, MPI_INTEGER, cnt, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  write(*, '(a,i0,a,i0,a,i0,a,2(1x,i0))') 'rank ', rank, ' iprobe source ', status(MPI_SOURCE), &
       ' count ', cnt, ' data', inb(1:2)

  ! Ssend between pairs (0,1), (2,3), ...; the last rank of an odd count sits out.
  inb = -1
  if (mod(rank, 2) == 0 .and. rank + 1 < np) then
    call MPI_Ssend(out, 4, MPI_INTEGER, rank + 1, 3, MPI_COMM_WORLD, ierr)
  else if (mod(rank, 2) == 1) then
    call MPI_Recv(inb, 4, MPI_INTEGER, rank - 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end if
  write(*, '(a,i0,a,4(1x,i0))') 'rank ', rank, ' ssend got', inb(1:4)

  ! Rsend after the matching receive is known to be posted (barrier); Request_free on an active Isend.
  call MPI_Irecv(pre, 1, MPI_INTEGER, left, 4, MPI_COMM_WORLD, rreq, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Rsend(rank * 7, 1, MPI_INTEGER, right, 4, MPI_COMM_WORLD, ierr)
  call MPI_Wait(rreq, MPI_STATUS_IGNORE, ierr)
  call MPI_Isend(out, 1, MPI_INTEGER, right, 5, MPI_COMM_WORLD, sreq, ierr)
  call MPI_Request_free(sreq, ierr)
  call MPI_Recv(inb, 1, MPI_INTEGER, left, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)   ! every receive done: freed sends are complete
  write(*, '(a,i0,a,i0,a,i0,a,l1)') 'rank ', rank, ' rsend got ', pre, ' freed-send got ', inb(1), &
       ' request null ', sreq == MPI_REQUEST_NULL

  ring = (/ rank, 2 * rank, 3 * rank /)
  call MPI_Sendrecv_replace(ring, 3, MPI_INTEGER, right, 6, left, 6, MPI_COMM_WORLD, status, ierr)
  write(*, '(a,i0,a,3(1x,i0),a,i0)') 'rank ', rank, ' replaced', ring, ' from ', status(MPI_SOURCE)

  ! Per-rank SAVE state: recursion counter, remembered history, host association.
  call countdown(rank + 2, depth)
  call countdown(1, depth)
  do k = 1, rank + 1
    h = remember(k * 10 + rank)
  end do
  acc = 0
  do k = 1, 3
    call add_rank(k)
  end do
  write(*, '(a,i0,a,i0,a,i0,a,i0)') 'rank ', rank, ' recursion calls ', depth, ' history sum ', h, &
       ' host acc ', acc

  t1 = MPI_Wtime()
  write(*, '(a,i0,a,f12.6)') 'time rank ', rank, ' elapsed ', t1 - t0
  write(*, '(a,i0,a,l1)') 'rank ', rank, ' wtime monotonic ', t1 >= t0
  call MPI_Finalize(ierr)
  call MPI_Finalized(fin, ierr)
  write(*, '(a,i0,a,l1)') 'rank ', rank, ' finalized at end ', fin

contains

  subroutine add_rank(m)
    integer, intent(in) :: m
    acc = acc + m * (rank + 1)
  end subroutine add_rank

end program misc
