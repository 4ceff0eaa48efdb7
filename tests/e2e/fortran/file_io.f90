! Tests MPI-IO as NPB's BT uses it: each rank's block written and read at explicit offsets
! (SUBTYPE=simple), a subarray file view over an element type joined by MPI_Type_struct and
! written and read collectively (SUBTYPE=full), and the individual file pointer. The file is
! in the current directory, named by the rank count, and deleted at the end.
program file_io
  use mpi
  implicit none
  integer, parameter :: n = 4
  integer :: rank, nprocs, ierr, fh, k, i, j, nbad, count, element, subarray, filetype, eltext, hints
  integer :: status(MPI_STATUS_SIZE), sizes(2), subsizes(2), starts(2)
  integer(kind=MPI_OFFSET_KIND) :: offset, filesize, position
  double precision :: u(n), v(n), loc(2, 2, 3), back(2, 2, 3), checksum
  double precision, allocatable :: whole(:)
  character(len=40) :: filename
  character(len=20) :: nodes

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  write(filename, '(a,i0,a)') 'bamboo_fortran_io_', nprocs, '.dat'
  nbad = 0
  if (rank == 0) call MPI_File_delete(filename, MPI_INFO_NULL, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)

  ! Simple: rank r's n doubles at offset r*n (in doubles, the view's etype).
  do k = 1, n
    u(k) = 100.0d0 * rank + k
  end do
  call MPI_File_open(MPI_COMM_WORLD, filename, MPI_MODE_RDWR + MPI_MODE_CREATE, MPI_INFO_NULL, fh, ierr)
  if (ierr /= MPI_SUCCESS .or. fh == MPI_FILE_NULL) nbad = nbad + 1
  offset = 0
  call MPI_File_set_view(fh, offset, MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, 'native', MPI_INFO_NULL, ierr)
  offset = rank * n
  call MPI_File_write_at(fh, offset, u, n, MPI_DOUBLE_PRECISION, status, ierr)
  call MPI_Get_count(status, MPI_DOUBLE_PRECISION, count, ierr)
  if (count /= n) nbad = nbad + 1
  call MPI_File_close(fh, ierr)
  if (fh /= MPI_FILE_NULL) nbad = nbad + 1
  call MPI_File_open(MPI_COMM_WORLD, filename, MPI_MODE_RDONLY, MPI_INFO_NULL, fh, ierr)
  call MPI_File_get_size(fh, filesize, ierr)
  offset = 0
  call MPI_File_set_view(fh, offset, MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, 'native', MPI_INFO_NULL, ierr)
  offset = mod(rank + 1, nprocs) * n
  call MPI_File_read_at(fh, offset, v, n, MPI_DOUBLE_PRECISION, status, ierr)
  call MPI_File_close(fh, ierr)
  do k = 1, n
    if (v(k) /= 100.0d0 * mod(rank + 1, nprocs) + k) nbad = nbad + 1
  end do
  write(*, '(a,i0,a,i0,a,i0)') 'rank ', rank, ' simple size ', filesize, ' errors ', nbad

  ! Full: a global (2*nprocs) x 3 array of 2-double elements, rank r owning rows 2r+1 and 2r+2;
  ! the view's filetype is the rank's subarray, joined by MPI_Type_struct as BT joins its cells.
  call MPI_Info_create(hints, ierr)
  write(nodes, *) 1
  call MPI_Info_set(hints, 'cb_nodes', nodes, ierr)
  call MPI_Info_set(hints, 'collective_buffering', 'true', ierr)
  call MPI_Type_contiguous(2, MPI_DOUBLE_PRECISION, element, ierr)
  call MPI_Type_commit(element, ierr)
  call MPI_Type_extent(element, eltext, ierr)
  sizes = [2 * nprocs, 3]
  subsizes = [2, 3]
  starts = [2 * rank, 0]
  call MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, element, subarray, ierr)
  call MPI_Type_struct(1, [1], [0], [subarray], filetype, ierr)
  call MPI_Type_commit(filetype, ierr)
  do j = 1, 3
    do i = 1, 2
      loc(:, i, j) = [1000.0d0 * (2 * rank + i) + j, -1.0d0 * j]
    end do
  end do
  call MPI_File_open(MPI_COMM_WORLD, filename, MPI_MODE_RDWR + MPI_MODE_CREATE, MPI_INFO_NULL, fh, ierr)
  offset = 0
  call MPI_File_set_view(fh, offset, element, filetype, 'native', hints, ierr)
  call MPI_File_write_at_all(fh, offset, loc, 6, element, status, ierr)
  call MPI_File_read_at_all(fh, offset, back, 6, element, status, ierr)
  if (any(back /= loc)) nbad = nbad + 1
  call MPI_File_close(fh, ierr)
  call MPI_Info_free(hints, ierr)

  ! Everyone reads the whole array back through a plain view: each element where it belongs.
  allocate(whole(2 * 2 * nprocs * 3))
  call MPI_File_open(MPI_COMM_WORLD, filename, MPI_MODE_RDONLY, MPI_INFO_NULL, fh, ierr)
  offset = 0
  call MPI_File_read_at(fh, offset, whole, size(whole), MPI_DOUBLE_PRECISION, status, ierr)
  call MPI_File_close(fh, ierr)
  checksum = 0
  do k = 1, size(whole), 2
    i = mod((k - 1) / 2, 2 * nprocs) + 1
    j = (k - 1) / 2 / (2 * nprocs) + 1
    if (whole(k) /= 1000.0d0 * i + j .or. whole(k + 1) /= -1.0d0 * j) nbad = nbad + 1
    checksum = checksum + whole(k)
  end do
  write(*, '(a,i0,a,i0,a,f14.1,a,i0)') 'rank ', rank, ' full extent ', eltext, ' checksum ', checksum, &
       ' errors ', nbad
  deallocate(whole)
  call MPI_Type_free(filetype, ierr)
  call MPI_Type_free(subarray, ierr)
  call MPI_Type_free(element, ierr)

  ! The individual file pointer: seek to the rank's block, write, read it back collectively.
  call MPI_File_open(MPI_COMM_WORLD, filename, MPI_MODE_RDWR, MPI_INFO_NULL, fh, ierr)
  offset = 0
  call MPI_File_set_view(fh, offset, MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, 'native', MPI_INFO_NULL, ierr)
  call MPI_File_set_size(fh, int(nprocs * n * 8, MPI_OFFSET_KIND), ierr)
  offset = rank * n
  call MPI_File_seek(fh, offset, MPI_SEEK_SET, ierr)
  call MPI_File_write(fh, u, n, MPI_DOUBLE_PRECISION, status, ierr)
  call MPI_File_get_position(fh, position, ierr)
  if (position /= (rank + 1) * n) nbad = nbad + 1
  call MPI_File_sync(fh, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_File_sync(fh, ierr)
  call MPI_File_seek(fh, offset, MPI_SEEK_SET, ierr)
  call MPI_File_read(fh, v, n, MPI_DOUBLE_PRECISION, status, ierr)
  if (any(v /= u)) nbad = nbad + 1
  call MPI_File_seek(fh, offset, MPI_SEEK_SET, ierr)
  call MPI_File_write_all(fh, v, n, MPI_DOUBLE_PRECISION, status, ierr)
  call MPI_File_seek(fh, offset, MPI_SEEK_SET, ierr)
  call MPI_File_read_all(fh, u, n, MPI_DOUBLE_PRECISION, status, ierr)
  call MPI_Get_count(status, MPI_DOUBLE_PRECISION, count, ierr)
  call MPI_File_get_size(fh, filesize, ierr)
  call MPI_File_close(fh, ierr)
  write(*, '(a,i0,a,i0,a,i0,a,i0,a,i0)') 'rank ', rank, ' pointer at ', position, ' count ', count, ' size ', &
       filesize, ' errors ', nbad

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) call MPI_File_delete(filename, MPI_INFO_NULL, ierr)
  call MPI_Finalize(ierr)
end program file_io
