! Tests the nonblocking collectives, several in flight at once on one communicator, completed by
! Waitall, Wait and Test, with MPI_IN_PLACE and the v variants.
program nonblocking_collectives
  use mpi
  implicit none
  integer :: rank, nprocs, ierr, k, nbad, root
  integer :: reqs(8), req
  integer :: rsout
  ! What the collectives read and write after their calls return, until their waits (which do
  ! not name it): the compiler must not keep it in registers across those calls.
  integer, asynchronous :: bval, rsum, asum, scanned, exscanned, inplace(2), one, tens, square
  integer, allocatable, asynchronous :: gathered(:), scattered(:), everyone(:), sendall(:), recvall(:)
  integer, allocatable, asynchronous :: counts(:), displs(:), vgathered(:), vall(:), sdispls(:), rdispls(:)
  integer, allocatable, asynchronous :: rscounts(:), rsin(:)
  integer, asynchronous :: mine(2), piece, vpiece(8), vrecv(8), rsblock
  double precision, asynchronous :: dsum
  logical :: flag

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  root = nprocs - 1
  nbad = 0
  allocate(gathered(nprocs), scattered(nprocs), everyone(nprocs), sendall(nprocs), recvall(nprocs))
  allocate(counts(nprocs), displs(nprocs), vgathered(nprocs * (nprocs + 1) / 2), vall(nprocs * (nprocs + 1) / 2))
  allocate(sdispls(nprocs), rdispls(nprocs), rscounts(nprocs), rsin(nprocs * (nprocs + 1) / 2))

  ! Eight collectives started before any completes (their send buffers are variables: an
  ! expression's temporary would be gone before the collective reads it).
  if (rank == root) bval = 4242
  one = rank + 1
  tens = 10 * rank
  square = rank * rank
  call MPI_Ibcast(bval, 1, MPI_INTEGER, root, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Ireduce(one, rsum, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Iallreduce(tens, asum, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, reqs(3), ierr)
  call MPI_Iscan(one, scanned, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, reqs(4), ierr)
  call MPI_Iexscan(one, exscanned, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, reqs(5), ierr)
  call MPI_Igather(square, 1, MPI_INTEGER, gathered, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, reqs(6), ierr)
  do k = 1, nprocs
    scattered(k) = 7 * k
    sendall(k) = 100 * rank + k - 1
  end do
  call MPI_Iscatter(scattered, 1, MPI_INTEGER, piece, 1, MPI_INTEGER, root, MPI_COMM_WORLD, reqs(7), ierr)
  call MPI_Ialltoall(sendall, 1, MPI_INTEGER, recvall, 1, MPI_INTEGER, MPI_COMM_WORLD, reqs(8), ierr)
  call MPI_Waitall(8, reqs, MPI_STATUSES_IGNORE, ierr)
  if (bval /= 4242) nbad = nbad + 1
  if (rank == 0 .and. rsum /= nprocs * (nprocs + 1) / 2) nbad = nbad + 1
  if (asum /= 10 * (nprocs - 1)) nbad = nbad + 1
  if (scanned /= (rank + 1) * (rank + 2) / 2) nbad = nbad + 1
  if (rank > 0 .and. exscanned /= rank * (rank + 1) / 2) nbad = nbad + 1
  if (piece /= 7 * (rank + 1)) nbad = nbad + 1
  do k = 1, nprocs
    if (recvall(k) /= 100 * (k - 1) + rank) nbad = nbad + 1
    if (rank == 0 .and. gathered(k) /= (k - 1) ** 2) nbad = nbad + 1
  end do
  write(*, '(a,i0,a,i0,a,i0,a,i0)') 'rank ', rank, ' bcast ', bval, ' scan ', scanned, ' errors ', nbad

  ! In place, completed by Test.
  inplace = [rank, 1]
  call MPI_Iallreduce(MPI_IN_PLACE, inplace, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Test(req, flag, MPI_STATUS_IGNORE, ierr)
  end do
  if (inplace(1) /= nprocs * (nprocs - 1) / 2 .or. inplace(2) /= nprocs .or. req /= MPI_REQUEST_NULL) nbad = nbad + 1
  dsum = 0.5d0 * rank
  call MPI_Iallreduce(MPI_IN_PLACE, dsum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  write(*, '(a,i0,a,2i4,a,f10.2)') 'rank ', rank, ' in place ', inplace, ' dsum ', dsum

  ! The v variants: rank k contributes k+1 values.
  do k = 1, nprocs
    counts(k) = k
    displs(k) = (k - 1) * k / 2
  end do
  do k = 1, rank + 1
    vpiece(k) = 1000 * rank + k
  end do
  do k = 1, size(rsin)
    rsin(k) = 3 * k
  end do
  mine = [rank, -rank]
  call MPI_Igatherv(vpiece, rank + 1, MPI_INTEGER, vgathered, counts, displs, MPI_INTEGER, root, MPI_COMM_WORLD, &
                    reqs(1), ierr)
  call MPI_Iallgatherv(vpiece, rank + 1, MPI_INTEGER, vall, counts, displs, MPI_INTEGER, MPI_COMM_WORLD, &
                       reqs(2), ierr)
  call MPI_Iscatterv(rsin, counts, displs, MPI_INTEGER, vrecv, rank + 1, MPI_INTEGER, 0, MPI_COMM_WORLD, &
                     reqs(3), ierr)
  call MPI_Iallgather(mine, 1, MPI_INTEGER, everyone, 1, MPI_INTEGER, MPI_COMM_WORLD, reqs(4), ierr)
  call MPI_Ibarrier(MPI_COMM_WORLD, reqs(5), ierr)
  call MPI_Waitall(5, reqs, MPI_STATUSES_IGNORE, ierr)
  do k = 1, nprocs
    if (everyone(k) /= k - 1) nbad = nbad + 1
  end do
  do k = 1, size(vall)
    if (rank == root .and. vgathered(k) /= vall(k)) nbad = nbad + 1
  end do
  write(*, '(a,i0,a,i0,a,i0,a,i0)') 'rank ', rank, ' allgatherv sum ', sum(vall), ' piece ', vrecv(rank + 1), &
       ' errors ', nbad

  ! Alltoallv: rank r sends one value to each rank, placed at the receiver's displacement.
  do k = 1, nprocs
    counts(k) = 1
    sdispls(k) = nprocs - k
    rdispls(k) = k - 1
    sendall(nprocs - k + 1) = 10 * rank + k - 1
  end do
  call MPI_Ialltoallv(sendall, counts, sdispls, MPI_INTEGER, recvall, counts, rdispls, MPI_INTEGER, &
                      MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  do k = 1, nprocs
    if (recvall(k) /= 10 * (k - 1) + rank) nbad = nbad + 1
  end do

  ! Reduce_scatter: rank k gets k+1 sums; the block variant one each.
  do k = 1, nprocs
    rscounts(k) = k
  end do
  do k = 1, size(rsin)
    rsin(k) = k
  end do
  call MPI_Ireduce_scatter(rsin, vpiece, rscounts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Ireduce_scatter_block(rsin, rsblock, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
  rsout = sum(vpiece(1:rank + 1))
  write(*, '(a,i0,a,i0,a,i0,a,i0)') 'rank ', rank, ' reduce_scatter ', rsout, ' block ', rsblock, ' errors ', nbad

  deallocate(gathered, scattered, everyone, sendall, recvall, counts, displs, vgathered, vall, sdispls, rdispls)
  deallocate(rscounts, rsin)
  call MPI_Finalize(ierr)
end program nonblocking_collectives
