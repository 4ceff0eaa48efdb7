! jacobi3d in Fortran: Poisson's equation lap(u) = f on the unit cube with Dirichlet
! boundary, solved by Jacobi sweeps of the 7-point scheme, the N^3 grid split into blocks over
! a 3D process grid; every sweep first refreshes the one-point ghost layer of the six faces
! from the neighbours. The same program as apps/jacobi3d/jacobi3d.c, same arithmetic.
!
!   jacobi3d [N [ITERATIONS [BY [BZ]]]]     (N^3 interior points; BY x BZ: cache block)
!
! MPI-basic (bulk-synchronous: send the faces, receive them, sweep), annotated for Bamboo
! where jacobi3d.c has its pragmas; built by bamboofort it is the Bamboo variant, compiled
! with -DNOCOMM MPI-nocomm. The set-up, kernel and verification are in jacobi3d_common.F90.
program jacobi3d
  use mpi
  use jacobi3d_common
  implicit none
  type(jacobi3d_run) :: r
  ! asynchronous: MPI reads and writes the grids between the calls that name them
  real(dp), allocatable, asynchronous :: u(:, :, :), v(:, :, :)
  real(dp), allocatable :: b(:, :, :), t(:, :, :)
  real(dp) :: start
  integer :: it, ierr
#ifndef NOCOMM
  integer :: d, sends(6)
#endif

  call jacobi3d_start(r)
  call jacobi3d_grids(r%g, u, v, b)

  call MPI_Barrier(r%cart, ierr)
  start = MPI_Wtime()
  !$bamboo olap
  do it = 1, r%iterations
#ifndef NOCOMM
    !$bamboo send
    do d = 0, 2
      call MPI_Isend(u, 1, r%face(0, d), r%lo(d), 2 * d, r%cart, sends(2 * d + 1), ierr)
      call MPI_Isend(u, 1, r%face(1, d), r%hi(d), 2 * d + 1, r%cart, sends(2 * d + 2), ierr)
    end do
    !$bamboo receive
    do d = 0, 2
      call MPI_Recv(u, 1, r%ghost(0, d), r%lo(d), 2 * d + 1, r%cart, MPI_STATUS_IGNORE, ierr)
      call MPI_Recv(u, 1, r%ghost(1, d), r%hi(d), 2 * d, r%cart, MPI_STATUS_IGNORE, ierr)
    end do
    call MPI_Waitall(6, sends, MPI_STATUSES_IGNORE, ierr)
#endif
    call sweep(r%g, v, u, b)
    call move_alloc(u, t)
    call move_alloc(v, u)
    call move_alloc(t, v)
  end do
  call jacobi3d_finish(r, u, v, b, start)
end program jacobi3d
