! Tests Cartesian topologies and a 2-D halo exchange with vector/contiguous derived datatypes.
program cartesian
  use mpi
  implicit none
  integer, parameter :: nx = 4, ny = 3
  integer :: rank, np, ierr, cart, row, i, j, crank, ndims, rsize, rrank, rsum
  integer :: dims(2), coords(2), gdims(2), gcoords(2), xlo, xhi, ylo, yhi
  integer :: coltype, rowtype, csz, rsz
  logical :: periods(2), gperiods(2), remain(2)
  double precision :: a(0:nx + 1, 0:ny + 1)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)

  dims = 0
  call MPI_Dims_create(np, 2, dims, ierr)
  periods = (/ .true., .false. /)
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
  call MPI_Comm_rank(cart, crank, ierr)
  call MPI_Cart_coords(cart, crank, 2, coords, ierr)
  call MPI_Cart_rank(cart, coords, i, ierr)
  call MPI_Cart_shift(cart, 0, 1, xlo, xhi, ierr)
  call MPI_Cart_shift(cart, 1, 1, ylo, yhi, ierr)
  write(*, '(a,i0,a,2(1x,i0),a,2(1x,i0),a,i0,a,4(1x,i0))') 'rank ', rank, ' dims', dims, ' coords', &
       coords, ' roundtrip ', i, ' neighbours', xlo, xhi, nb(ylo), nb(yhi)

  call MPI_Cartdim_get(cart, ndims, ierr)
  call MPI_Cart_get(cart, 2, gdims, gperiods, gcoords, ierr)
  write(*, '(a,i0,a,i0,a,2(1x,i0),a,2(1x,l1),a,2(1x,i0))') 'rank ', rank, ' cartdim ', ndims, &
       ' get dims', gdims, ' periods', gperiods, ' coords', gcoords

  ! Column (fixed i, varying j) is strided; row (fixed j, varying i) is contiguous.
  call MPI_Type_vector(ny, 1, nx + 2, MPI_DOUBLE_PRECISION, coltype, ierr)
  call MPI_Type_contiguous(nx, MPI_DOUBLE_PRECISION, rowtype, ierr)
  call MPI_Type_commit(coltype, ierr)
  call MPI_Type_commit(rowtype, ierr)
  call MPI_Type_size(coltype, csz, ierr)
  call MPI_Type_size(rowtype, rsz, ierr)
  write(*, '(a,i0,a,i0,a,i0)') 'rank ', rank, ' type sizes ', csz, ' ', rsz

  a = -1.0d0
  do j = 1, ny
    do i = 1, nx
      a(i, j) = 100 * rank + 10 * i + j
    end do
  end do
  ! Dimension 0 (periodic) exchanges columns i=1 / i=nx; dimension 1 exchanges rows j=1 / j=ny.
  call MPI_Sendrecv(a(nx, 1), 1, coltype, xhi, 1, a(0, 1), 1, coltype, xlo, 1, cart, MPI_STATUS_IGNORE, ierr)
  call MPI_Sendrecv(a(1, 1), 1, coltype, xlo, 2, a(nx + 1, 1), 1, coltype, xhi, 2, cart, MPI_STATUS_IGNORE, ierr)
  call MPI_Sendrecv(a(1, ny), 1, rowtype, yhi, 3, a(1, 0), 1, rowtype, ylo, 3, cart, MPI_STATUS_IGNORE, ierr)
  call MPI_Sendrecv(a(1, 1), 1, rowtype, ylo, 4, a(1, ny + 1), 1, rowtype, yhi, 4, cart, MPI_STATUS_IGNORE, ierr)
  write(*, '(a,i0,a,*(1x,i0))') 'rank ', rank, ' west', nint(a(0, 1:ny))
  write(*, '(a,i0,a,*(1x,i0))') 'rank ', rank, ' east', nint(a(nx + 1, 1:ny))
  write(*, '(a,i0,a,*(1x,i0))') 'rank ', rank, ' south', nint(a(1:nx, 0))
  write(*, '(a,i0,a,*(1x,i0))') 'rank ', rank, ' north', nint(a(1:nx, ny + 1))
  write(*, '(a,i0,a,i0)') 'rank ', rank, ' interior sum ', nint(sum(a(1:nx, 1:ny)))

  ! Sub-grid along dimension 0: all ranks sharing the same coordinate in dimension 1.
  remain = (/ .true., .false. /)
  call MPI_Cart_sub(cart, remain, row, ierr)
  call MPI_Comm_size(row, rsize, ierr)
  call MPI_Comm_rank(row, rrank, ierr)
  call MPI_Cartdim_get(row, ndims, ierr)
  call MPI_Allreduce(rank, rsum, 1, MPI_INTEGER, MPI_SUM, row, ierr)
  write(*, '(a,i0,a,i0,a,i0,a,i0,a,i0)') 'rank ', rank, ' sub size ', rsize, ' sub rank ', rrank, &
       ' sub dims ', ndims, ' sub ranksum ', rsum

  call MPI_Type_free(coltype, ierr)
  call MPI_Type_free(rowtype, ierr)
  call MPI_Comm_free(row, ierr)
  call MPI_Comm_free(cart, ierr)
  call MPI_Finalize(ierr)

contains

  integer function nb(r)
    integer, intent(in) :: r
    nb = r
    if (r == MPI_PROC_NULL) nb = -1
  end function nb

end program cartesian
