! Tests the collective operations (bcast, reductions, gather/scatter families, alltoall(v), scans).
program collectives
  use mpi
  implicit none
  integer :: rank, np, ierr, i, j, ibuf(3), isum, imax, imin, iscan, iex, irs(2)
  double precision :: d, dsum, dmax, dmin, dvec(3)
  logical :: leven, land, lor
  integer, allocatable :: g(:), gv(:), cnts(:), displs(:), sbuf(:), rbuf(:), scnt(:), sdsp(:), rcnt(:), rdsp(:)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  allocate(g(2 * np), gv(np * (np + 1) / 2), cnts(np), displs(np), scnt(np), sdsp(np), rcnt(np), rdsp(np))
  do i = 1, np
    cnts(i) = i
    displs(i) = (i - 1) * i / 2
  end do

  ibuf = -1
  d = 0.0d0
  if (rank == 0) ibuf = (/ 42, np, 7 /)
  if (rank == np - 1) d = 2.5d0
  call MPI_Bcast(ibuf, 3, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(d, 1, MPI_DOUBLE_PRECISION, np - 1, MPI_COMM_WORLD, ierr)
  write(*, '(a,i0,a,3(1x,i0),f8.3)') 'rank ', rank, ' bcast', ibuf, d

  call MPI_Reduce(rank + 1, isum, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  call MPI_Reduce(mod(rank * 5, 7), imax, 1, MPI_INTEGER, MPI_MAX, 0, MPI_COMM_WORLD, ierr)
  call MPI_Reduce(mod(rank * 5, 7), imin, 1, MPI_INTEGER, MPI_MIN, 0, MPI_COMM_WORLD, ierr)
  d = 0.25d0 * rank
  call MPI_Reduce(d, dsum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  call MPI_Reduce(d, dmax, 1, MPI_DOUBLE_PRECISION, MPI_MAX, 0, MPI_COMM_WORLD, ierr)
  call MPI_Reduce(-d, dmin, 1, MPI_DOUBLE_PRECISION, MPI_MIN, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) write(*, '(a,3(1x,i0),3f10.3)') 'reduce', isum, imax, imin, dsum, dmax, dmin

  call MPI_Allreduce(rank * rank, isum, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  dvec = (/ 1.0d0, 0.5d0 * rank, 2.0d0 ** (-rank) /)
  call MPI_Allreduce(MPI_IN_PLACE, dvec, 3, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  leven = mod(rank, 2) == 0
  call MPI_Allreduce(leven, land, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierr)
  call MPI_Allreduce(rank == np - 1, lor, 1, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD, ierr)
  write(*, '(a,i0,a,i0,3f14.8,2(1x,l1))') 'rank ', rank, ' allreduce ', isum, dvec, land, lor

  g = -1
  call MPI_Gather(rank * rank, 1, MPI_INTEGER, g, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) write(*, '(a,*(1x,i0))') 'gather', g(1:np)
  allocate(sbuf(rank + 1))
  sbuf = rank
  gv = -1
  call MPI_Gatherv(sbuf, rank + 1, MPI_INTEGER, gv, cnts, displs, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) write(*, '(a,*(1x,i0))') 'gatherv', gv

  if (rank == 0) gv = (/ (10 * i, i = 1, size(gv)) /)
  call MPI_Scatter(gv, 1, MPI_INTEGER, j, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  sbuf = -1
  call MPI_Scatterv(gv, cnts, displs, MPI_INTEGER, sbuf, rank + 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  write(*, '(a,i0,a,i0,a,*(1x,i0))') 'rank ', rank, ' scatter ', j, ' scatterv', sbuf

  call MPI_Allgather((/ rank, -rank /), 2, MPI_INTEGER, g, 2, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  write(*, '(a,i0,a,*(1x,i0))') 'rank ', rank, ' allgather', g
  sbuf = 100 + rank
  call MPI_Allgatherv(sbuf, rank + 1, MPI_INTEGER, gv, cnts, displs, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  write(*, '(a,i0,a,*(1x,i0))') 'rank ', rank, ' allgatherv', gv
  deallocate(sbuf)

  allocate(sbuf(np), rbuf(np))
  sbuf = (/ (100 * rank + j, j = 0, np - 1) /)
  call MPI_Alltoall(sbuf, 1, MPI_INTEGER, rbuf, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  write(*, '(a,i0,a,*(1x,i0))') 'rank ', rank, ' alltoall', rbuf
  deallocate(sbuf, rbuf)
  ! Alltoallv: rank sends j+1 values (10*rank+j) to rank j, receives rank+1 values from each.
  allocate(sbuf(np * (np + 1) / 2), rbuf(np * (rank + 1)))
  do j = 1, np
    scnt(j) = j
    sdsp(j) = (j - 1) * j / 2
    sbuf(sdsp(j) + 1:sdsp(j) + j) = 10 * rank + (j - 1)
    rcnt(j) = rank + 1
    rdsp(j) = (j - 1) * (rank + 1)
  end do
  call MPI_Alltoallv(sbuf, scnt, sdsp, MPI_INTEGER, rbuf, rcnt, rdsp, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  write(*, '(a,i0,a,*(1x,i0))') 'rank ', rank, ' alltoallv', rbuf
  deallocate(sbuf, rbuf)

  call MPI_Scan(rank + 1, iscan, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Exscan(rank + 1, iex, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) iex = 0   ! undefined on rank 0 by the standard
  allocate(sbuf(2 * np))
  sbuf = (/ (rank + i, i = 1, 2 * np) /)
  call MPI_Reduce_scatter_block(sbuf, irs, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  write(*, '(a,i0,a,i0,a,i0,a,2(1x,i0))') 'rank ', rank, ' scan ', iscan, ' exscan ', iex, &
       ' reduce_scatter_block', irs
  cnts = 2
  call MPI_Reduce_scatter(sbuf, irs, cnts, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
  write(*, '(a,i0,a,2(1x,i0))') 'rank ', rank, ' reduce_scatter', irs
  deallocate(sbuf)

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  write(*, '(a,i0,a)') 'rank ', rank, ' done'
  deallocate(g, gv, cnts, displs, scnt, sdsp, rcnt, rdsp)
  call MPI_Finalize(ierr)
end program collectives
