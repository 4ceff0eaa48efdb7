! jacobi3d in Fortran: what MPI-basic/Bamboo/nocomm (jacobi3d.F90) and MPI-olap
! (jacobi3d_olap.F90) share, as apps/jacobi3d's jacobi3d_common.h and jacobi3d_kernels.h are
! for the C programs: the set-up (arguments, process grid, neighbours, face datatypes), the
! grids, the sweep kernel and the verification. What sets the variants apart, the sweep loop
! and how it exchanges the faces, stays in each program.
!
! The problem (apps/jacobi3d/README.md): lap(u) = f on the unit cube, u = exact() on its
! boundary, N interior points per axis, h = 1/(N+1); the initial guess is exact() plus
! A*s(x)s(y)s(z), s(t) = sin(pi t), an eigenvector of the Jacobi iteration with eigenvalue
! cos(pi h), so after k sweeps every point holds exact(x,y,z) + A*cos(pi h)^k*s(x)s(y)s(z).
!
! A rank's block: nx x ny x nz points with one ghost layer on each side, indexed
! (0:nx+1, 0:ny+1, 0:nz+1), x contiguous: the C programs' layout. Every expression below is
! written in the C programs' order, so that each point gets the same bits as there.
!
! Axis d = 0, 1, 2 is z, y, x as in the C programs (array dimension 3 - d); a message
! travelling towards higher coordinates along axis d has tag 2d+1, towards lower 2d.
!
! Compiled with -DNOCOMM (MPI-nocomm) the programs move no messages and the verification
! line says SKIPPED, as apps/common/app.h's app_verified() does for the C programs.
module jacobi3d_common
  use, intrinsic :: iso_fortran_env, only: dp => real64, int64, output_unit, error_unit
  use mpi
  implicit none
  private
  public :: dp, block, jacobi3d_run, communicates
  public :: jacobi3d_start, jacobi3d_grids, jacobi3d_finish
  public :: block_init, sweep_box, sweep, block_measure, closed_form, verdict, split

  character(*), parameter :: usage = '[N [ITERATIONS [BY [BZ]]]]'
  real(dp), parameter :: pi = 3.14159265358979323846_dp
  real(dp), parameter :: amplitude = 1.0_dp
  ! Pointwise distance from the closed form that still passes (apps/jacobi3d/jacobi3d_kernels.h
  ! says why: rounding adds up to ~1e-15/(1 - cos(pi h)), a wrong ghost cell ~5/N^2).
  real(dp), parameter :: tolerance = 1e-9_dp

#ifdef NOCOMM
  logical, parameter :: communicates = .false.
#else
  logical, parameter :: communicates = .true.
#endif

  type :: block
    integer :: nx, ny, nz   ! owned points per axis
    integer :: x0, y0, z0   ! global index of the first owned point (1-based: 0 is the boundary)
    integer :: n            ! global interior points per axis
    integer :: by, bz       ! cache block: rows (y) x planes (z)
  end type block

  ! What both programs run on: the arguments, the 3D process grid `cart` and my block `g` of
  ! it, and along axis d my neighbours lo(d) and hi(d) (MPI_PROC_NULL at the cube's
  ! boundary), my extent len(d), and four subarray datatypes over a whole grid: face(0, d)
  ! and face(1, d) the first and last owned plane, which go to lo(d) and hi(d), ghost(0, d)
  ! and ghost(1, d) the ghost planes below and above, which they fill.
  type :: jacobi3d_run
    integer :: iterations
    integer :: cart
    type(block) :: g
    integer :: lo(0:2), hi(0:2), len(0:2)
    integer :: face(0:1, 0:2), ghost(0:1, 0:2)
  end type jacobi3d_run

contains

  ! ---- set-up ---------------------------------------------------------------------------

  ! The integer argument `index`, or `fallback` when there is none; a value that is not a
  ! positive integer (at most 10^9) ends the program with a usage line, exit status 2.
  integer function int_arg(index, fallback) result(value)
    integer, intent(in) :: index, fallback
    character(len=64) :: text, command
    integer :: length, status, first, i
    integer(int64) :: wide
    logical :: ok

    value = fallback
    if (index > command_argument_count()) return
    call get_command_argument(index, text, length, status)
    ok = status == 0 .and. length > 0
    first = 1
    if (ok) then
      if (text(1:1) == '+') first = 2
      ok = length >= first .and. length - first < 10
    end if
    if (ok) then
      do i = first, length
        if (text(i:i) < '0' .or. text(i:i) > '9') ok = .false.
      end do
    end if
    if (ok) then
      read (text(first:length), *) wide
      ok = wide > 0 .and. wide <= 1000000000_int64
    end if
    if (.not. ok) then
      call get_command_argument(0, command)
      write (error_unit, '(4a)') 'usage: ', trim(command), ' ', usage
      stop 2
    end if
    value = int(wide)
  end function int_arg

  ! First index (1-based) and length of part `p` of `n` points split into `parts` nearly
  ! equal parts: the first mod(n, parts) parts get one point more.
  pure subroutine split(n, parts, p, first, length)
    integer, intent(in) :: n, parts, p
    integer, intent(out) :: first, length
    length = n / parts + merge(1, 0, p < mod(n, parts))
    first = 1 + p * (n / parts) + min(p, mod(n, parts))
  end subroutine split

  ! A plane of a grid of block g, as a datatype over the whole grid: index `plane` along axis
  ! d, the owned points along the other two.
  integer function plane_type(g, d, plane) result(plane_datatype)
    type(block), intent(in) :: g
    integer, intent(in) :: d, plane
    integer :: sizes(3), sub(3), starts(3), ierr
    sizes = [g%nx + 2, g%ny + 2, g%nz + 2]
    sub = [g%nx, g%ny, g%nz]
    starts = [1, 1, 1]
    sub(3 - d) = 1
    starts(3 - d) = plane
    call MPI_Type_create_subarray(3, sizes, sub, starts, MPI_ORDER_FORTRAN, MPI_DOUBLE_PRECISION, &
                                  plane_datatype, ierr)
    call MPI_Type_commit(plane_datatype, ierr)
  end function plane_type

  ! The neighbours and faces along each axis (jacobi3d_run).
  subroutine jacobi3d_faces(r)
    type(jacobi3d_run), intent(inout) :: r
    integer :: d, ierr
    r%len = [r%g%nz, r%g%ny, r%g%nx]
    do d = 0, 2
      call MPI_Cart_shift(r%cart, d, 1, r%lo(d), r%hi(d), ierr)
      r%face(0, d) = plane_type(r%g, d, 1)
      r%face(1, d) = plane_type(r%g, d, r%len(d))
      r%ghost(0, d) = plane_type(r%g, d, 0)
      r%ghost(1, d) = plane_type(r%g, d, r%len(d) + 1)
    end do
  end subroutine jacobi3d_faces

  ! MPI_Init and the set-up from the arguments; ends the program (rank 0 says why) when N is
  ! too small for the process grid.
  subroutine jacobi3d_start(r)
    type(jacobi3d_run), intent(out) :: r
    integer :: rank, ranks, n, by, bz, me, ierr
    integer :: dims(3), coords(3)
    logical :: periods(3)

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, ranks, ierr)
    n = int_arg(1, 64)
    r%iterations = int_arg(2, 50)
    by = int_arg(3, 8)
    bz = int_arg(4, 4)

    ! dims(1) splits z, the outermost axis, whose faces are the cheapest to send:
    ! MPI_Dims_create puts the largest factor first.
    dims = 0
    periods = .false.
    call MPI_Dims_create(ranks, 3, dims, ierr)
    if (n < dims(1)) then
      if (rank == 0) write (error_unit, '(a, i0, a, i0, a, i0, a, i0, a)') 'jacobi3d: N=', n, &
        ' is too small for a ', dims(1), 'x', dims(2), 'x', dims(3), ' process grid'
      call MPI_Finalize(ierr)
      stop 2
    end if
    call MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, .true., r%cart, ierr)
    call MPI_Comm_rank(r%cart, me, ierr)
    call MPI_Cart_coords(r%cart, me, 3, coords, ierr)

    r%g%n = n
    r%g%by = by
    r%g%bz = bz
    call split(n, dims(1), coords(1), r%g%z0, r%g%nz)
    call split(n, dims(2), coords(2), r%g%y0, r%g%ny)
    call split(n, dims(3), coords(3), r%g%x0, r%g%nx)
    call jacobi3d_faces(r)
  end subroutine jacobi3d_start

  ! The two grids u, v and the right-hand side b, filled with the initial guess.
  subroutine jacobi3d_grids(g, u, v, b)
    type(block), intent(in) :: g
    real(dp), allocatable, intent(out) :: u(:, :, :), v(:, :, :), b(:, :, :)
    integer :: status(3), ierr
    allocate (u(0:g%nx + 1, 0:g%ny + 1, 0:g%nz + 1), stat=status(1))
    allocate (v(0:g%nx + 1, 0:g%ny + 1, 0:g%nz + 1), stat=status(2))
    allocate (b(0:g%nx + 1, 0:g%ny + 1, 0:g%nz + 1), stat=status(3))
    if (any(status /= 0)) then
      write (error_unit, '(a, i0, a, i0, a, i0, a)') 'jacobi3d: out of memory for a ', g%nx, 'x', g%ny, 'x', &
        g%nz, ' block'
      call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
    call block_init(g, u, v, b)
  end subroutine jacobi3d_grids

  ! ---- the computation (no MPI) --------------------------------------------------------------

  pure real(dp) function exact(x, y, z)
    real(dp), intent(in) :: x, y, z
    exact = x * x * x + y * y * z - 2.0_dp * x * z * z * z
  end function exact

  pure real(dp) function rhs(x, z)  ! lap(exact), which does not depend on y
    real(dp), intent(in) :: x, z
    rhs = 6.0_dp * x + 2.0_dp * z - 12.0_dp * x * z
  end function rhs

  ! Fills u and v (ghost layers included: the boundary of the cube stays fixed in both, the
  ! ghost layers facing other ranks are overwritten before they are read) and b = h^2 f.
  subroutine block_init(g, u, v, b)
    type(block), intent(in) :: g
    real(dp), intent(out), dimension(0:g%nx + 1, 0:g%ny + 1, 0:g%nz + 1) :: u, v, b
    real(dp) :: sx(0:g%nx + 1)  ! the mode along x, zero on the boundary of the cube
    real(dp) :: h, x, y, z, syz
    integer :: i, j, k, gi, gj, gk
    logical :: boundary

    h = 1.0_dp / (g%n + 1)
    !GCC$ novector
    do i = 0, g%nx + 1  ! scalar sin, as in C (block_measure says why)
      gi = g%x0 - 1 + i
      if (gi == 0 .or. gi == g%n + 1) then
        sx(i) = 0.0_dp
      else
        sx(i) = sin(pi * gi * h)
      end if
    end do
    do k = 0, g%nz + 1
      gk = g%z0 - 1 + k
      z = gk * h
      do j = 0, g%ny + 1
        gj = g%y0 - 1 + j
        y = gj * h
        boundary = gj == 0 .or. gk == 0 .or. gj == g%n + 1 .or. gk == g%n + 1
        if (boundary) then
          syz = 0.0_dp
        else
          syz = amplitude * sin(pi * y) * sin(pi * z)
        end if
        do i = 0, g%nx + 1
          x = (g%x0 - 1 + i) * h
          u(i, j, k) = exact(x, y, z) + sx(i) * syz
          v(i, j, k) = u(i, j, k)
          b(i, j, k) = h * h * rhs(x, z)
        end do
      end do
    end do
  end subroutine block_init

  ! One Jacobi sweep over the box k0..k1 x j0..j1 x i0..i1 of owned points (inclusive bounds,
  ! z, y, x), in tiles of bz planes x by rows: the (bz+2) x (by+2) rows of u a tile reads stay
  ! in cache while it is swept, and the next tile along y finds most of them there. x, the
  ! contiguous axis, is never cut, so the inner loop streams and vectorizes. The sum has one
  ! fixed order (the parentheses bind it) and no multiply-add to contract: every variant, at
  ! every decomposition, gets the same bits at every point, and the C programs' bits.
  subroutine sweep_box(g, v, u, b, k0, k1, j0, j1, i0, i1)
    type(block), intent(in) :: g
    real(dp), intent(inout) :: v(0:g%nx + 1, 0:g%ny + 1, 0:g%nz + 1)
    real(dp), intent(in) :: u(0:g%nx + 1, 0:g%ny + 1, 0:g%nz + 1), b(0:g%nx + 1, 0:g%ny + 1, 0:g%nz + 1)
    integer, intent(in) :: k0, k1, j0, j1, i0, i1
    real(dp), parameter :: sixth = 1.0_dp / 6.0_dp
    integer :: kb, ke, jb, je, i, j, k

    do kb = k0, k1, g%bz
      ke = min(kb + g%bz - 1, k1)
      do jb = j0, j1, g%by
        je = min(jb + g%by - 1, j1)
        do k = kb, ke
          do j = jb, je
            do i = i0, i1
              v(i, j, k) = ((((u(i - 1, j, k) + u(i + 1, j, k)) + (u(i, j - 1, k) + u(i, j + 1, k))) &
                             + (u(i, j, k - 1) + u(i, j, k + 1))) - b(i, j, k)) * sixth
            end do
          end do
        end do
      end do
    end do
  end subroutine sweep_box

  ! A whole sweep of the owned points.
  subroutine sweep(g, v, u, b)
    type(block), intent(in) :: g
    real(dp), intent(inout) :: v(0:g%nx + 1, 0:g%ny + 1, 0:g%nz + 1)
    real(dp), intent(in) :: u(0:g%nx + 1, 0:g%ny + 1, 0:g%nz + 1), b(0:g%nx + 1, 0:g%ny + 1, 0:g%nz + 1)
    call sweep_box(g, v, u, b, 1, g%nz, 1, g%ny, 1, g%nx)
  end subroutine sweep

  ! The rank-local part of the check, reduced with MPI_MAX (exact, so every decomposition and
  ! every reduction order gives the same bits), of u after `sweeps` sweeps, `previous` the one
  ! before: m(1) max |u - closed form| (rounding only), m(2) max |u - exact| (the mode that
  ! is left), m(3) max |u - previous| (the last sweep's change).
  function block_measure(g, u, previous, sweeps) result(m)
    type(block), intent(in) :: g
    real(dp), intent(in), dimension(0:g%nx + 1, 0:g%ny + 1, 0:g%nz + 1) :: u, previous
    integer, intent(in) :: sweeps
    real(dp) :: m(3)
    real(dp) :: sx(g%nx), h, mode, x, y, z, syz, e
    integer :: i, j, k

    h = 1.0_dp / (g%n + 1)
    mode = amplitude * cos(pi * h)**real(sweeps, dp)
    m = 0.0_dp
    ! Not vectorized: gfortran would call glibc's vector sin (libmvec) here, whose last bit
    ! may differ from sin's, which the C programs call.
    !GCC$ novector
    do i = 1, g%nx
      sx(i) = sin(pi * (g%x0 - 1 + i) * h)
    end do
    do k = 1, g%nz
      z = (g%z0 - 1 + k) * h
      do j = 1, g%ny
        y = (g%y0 - 1 + j) * h
        syz = mode * sin(pi * y) * sin(pi * z)
        do i = 1, g%nx
          x = (g%x0 - 1 + i) * h
          e = u(i, j, k) - exact(x, y, z)
          m(1) = max(m(1), abs(e - sx(i) * syz))
          m(2) = max(m(2), abs(e))
          m(3) = max(m(3), abs(u(i, j, k) - previous(i, j, k)))
        end do
      end do
    end do
  end function block_measure

  ! The closed form of error and update: A cos(pi h)^k max s(x)s(y)s(z), and the same for
  ! k-1 times 1 - cos(pi h) (written 2 sin^2(pi h/2), which does not cancel); s peaks at the
  ! grid point nearest to 1/2 on each axis.
  pure subroutine closed_form(n, sweeps, error, update)
    integer, intent(in) :: n, sweeps
    real(dp), intent(out) :: error, update
    real(dp) :: h, lambda, half, peak, s3
    h = 1.0_dp / (n + 1)
    lambda = cos(pi * h)
    half = sin(0.5_dp * pi * h)
    peak = sin(pi * ((n + 1) / 2) * h)
    s3 = peak * peak * peak
    error = amplitude * lambda**real(sweeps, dp) * s3
    update = amplitude * lambda**real(sweeps - 1, dp) * 2.0_dp * half * half * s3
  end subroutine closed_form

  ! C's printf("%.6e", x), which Fortran's ES edit descriptor writes with an upper-case E
  ! and a fixed exponent width.
  function c_e6(x) result(text)
    real(dp), intent(in) :: x
    character(:), allocatable :: text
    character(len=32) :: buffer, exponent
    integer :: at, power
    write (buffer, '(es20.6e4)') x
    buffer = adjustl(buffer)
    at = index(buffer, 'E')
    if (at == 0) then  ! NaN or Infinity
      select case (trim(buffer))
      case ('Infinity', '+Infinity')
        text = 'inf'
      case ('-Infinity')
        text = '-inf'
      case default
        text = 'nan'
      end select
      return
    end if
    read (buffer(at + 1:), *) power
    write (exponent, '(sp, i0.2)') power
    text = buffer(1:at - 1)//'e'//trim(exponent)
  end function c_e6

  ! C's printf("%.6f", x) for x >= 0 (Fortran's F0.6 leaves out the 0 before the point).
  function c_f6(x) result(text)
    real(dp), intent(in) :: x
    character(:), allocatable :: text
    character(len=40) :: buffer
    write (buffer, '(f40.6)') x
    text = trim(adjustl(buffer))
    if (text(1:1) == '.') text = '0'//text
  end function c_f6

  ! The verification line's parameters and values in `what`, and whether they pass: every
  ! point within `tolerance` of the closed form (the maximum over all ranks in m(1)), and the
  ! last update as the closed form says.
  subroutine verdict(n, sweeps, m, what, passed)
    integer, intent(in) :: n, sweeps
    real(dp), intent(in) :: m(3)
    character(:), allocatable, intent(out) :: what
    logical, intent(out) :: passed
    real(dp) :: error, update
    character(len=32) :: numbers
    call closed_form(n, sweeps, error, update)
    write (numbers, '("N=", i0, " iterations=", i0)') n, sweeps
    what = 'jacobi3d '//trim(numbers)//' error='//c_e6(m(2))//' (closed form '//c_e6(error)//') update=' &
           //c_e6(m(3))
    passed = m(1) <= tolerance .and. abs(m(3) - update) <= 1e-6_dp * update + 2 * tolerance
  end subroutine verdict

  ! ---- the end ------------------------------------------------------------------------------

  ! The end of both programs, after the sweeps that began at `start` (MPI_Wtime): rank 0
  ! prints the slowest rank's time and the verification line of u (v holds the sweep before);
  ! then the frees and MPI_Finalize. A failed check ends the program with exit status 1.
  subroutine jacobi3d_finish(r, u, v, b, start)
    type(jacobi3d_run), intent(inout) :: r
    real(dp), allocatable, intent(inout) :: u(:, :, :), v(:, :, :), b(:, :, :)
    real(dp), intent(in) :: start
    real(dp) :: mine, slowest, local(3), global(3)
    character(:), allocatable :: what
    logical :: passed
    integer :: rank, d, side, ierr

    mine = MPI_Wtime() - start
    call MPI_Allreduce(mine, slowest, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    if (rank == 0) then
      write (output_unit, '(2a)') 'time ', c_f6(slowest)
      flush (output_unit)
    end if

    local = block_measure(r%g, u, v, r%iterations)
    call MPI_Allreduce(local, global, 3, MPI_DOUBLE_PRECISION, MPI_MAX, r%cart, ierr)
    call verdict(r%g%n, r%iterations, global, what, passed)
    if (rank == 0) then
      if (communicates) then
        write (output_unit, '(3a)') 'verification: ', what, merge(' PASSED', ' FAILED', passed)
      else
        write (output_unit, '(3a)') 'verification: ', what, ' SKIPPED (communication off)'
      end if
      flush (output_unit)
    end if

    do d = 0, 2
      do side = 0, 1
        call MPI_Type_free(r%face(side, d), ierr)
        call MPI_Type_free(r%ghost(side, d), ierr)
      end do
    end do
    call MPI_Comm_free(r%cart, ierr)
    deallocate (u, v, b)
    call MPI_Finalize(ierr)
    if (communicates .and. .not. passed) stop 1
  end subroutine jacobi3d_finish

end module jacobi3d_common
