! jacobi3d in Fortran, MPI-olap: jacobi3d.F90 restructured by hand to overlap the ghost
! exchange with the sweep (split-phase), as apps/jacobi3d/jacobi3d_olap.c. Each sweep posts
! the six face receives and sends, updates the interior points, which read no ghost cell,
! while the faces travel, waits for the ghosts and then updates the boundary shell.
!
!   jacobi3d_olap [N [ITERATIONS [BY [BZ]]]]
!
! Same kernel, decomposition and verification (jacobi3d_common.F90) as jacobi3d.F90, so the
! same values to the last bit.
program jacobi3d_olap
  use mpi
  use jacobi3d_common
  implicit none
  type(jacobi3d_run) :: r
  ! asynchronous: MPI reads and writes the grids between the calls that name them
  real(dp), allocatable, asynchronous :: u(:, :, :), v(:, :, :)
  real(dp), allocatable :: b(:, :, :), t(:, :, :)
  real(dp) :: start
  ! requests(1:6): ghost receives, (7:12): face sends
  integer :: requests(12), a(0:2), e(0:2), d, k, k1, it, nx, ny, nz, ierr
  logical :: arrived

  call jacobi3d_start(r)
  nx = r%g%nx
  ny = r%g%ny
  nz = r%g%nz
  ! The interior a(d)..e(d) along axis d (0, 1, 2: z, y, x) leaves out the planes next to a
  ! neighbour: those read its ghosts. Along an edge of the cube the boundary is fixed and
  ! nothing waits. An empty interior has e(d) = a(d) - 1.
  do d = 0, 2
    a(d) = 1 + merge(1, 0, r%lo(d) /= MPI_PROC_NULL)
    e(d) = max(r%len(d) - merge(1, 0, r%hi(d) /= MPI_PROC_NULL), a(d) - 1)
  end do
  call jacobi3d_grids(r%g, u, v, b)

  call MPI_Barrier(r%cart, ierr)
  start = MPI_Wtime()
  do it = 1, r%iterations
    do d = 0, 2
      call MPI_Irecv(u, 1, r%ghost(0, d), r%lo(d), 2 * d + 1, r%cart, requests(2 * d + 1), ierr)
      call MPI_Irecv(u, 1, r%ghost(1, d), r%hi(d), 2 * d, r%cart, requests(2 * d + 2), ierr)
    end do
    do d = 0, 2
      call MPI_Isend(u, 1, r%face(0, d), r%lo(d), 2 * d, r%cart, requests(7 + 2 * d), ierr)
      call MPI_Isend(u, 1, r%face(1, d), r%hi(d), 2 * d + 1, r%cart, requests(8 + 2 * d), ierr)
    end do

    ! MPI moves a large (rendezvous) message only inside MPI calls: test between slabs of the
    ! interior so the faces travel while it is swept, not all in the wait below.
    arrived = .false.
    do k = a(0), e(0), r%g%bz
      k1 = min(k + r%g%bz - 1, e(0))
      call sweep_box(r%g, v, u, b, k, k1, a(1), e(1), a(2), e(2))
      if (.not. arrived) call MPI_Testall(12, requests, arrived, MPI_STATUSES_IGNORE, ierr)
    end do
    call MPI_Waitall(6, requests, MPI_STATUSES_IGNORE, ierr)

    ! The shell: z slabs whole, y slabs between them, x slabs inside both.
    call sweep_box(r%g, v, u, b, 1, a(0) - 1, 1, ny, 1, nx)
    call sweep_box(r%g, v, u, b, e(0) + 1, nz, 1, ny, 1, nx)
    call sweep_box(r%g, v, u, b, a(0), e(0), 1, a(1) - 1, 1, nx)
    call sweep_box(r%g, v, u, b, a(0), e(0), e(1) + 1, ny, 1, nx)
    call sweep_box(r%g, v, u, b, a(0), e(0), a(1), e(1), 1, a(2) - 1)
    call sweep_box(r%g, v, u, b, a(0), e(0), a(1), e(1), e(2) + 1, nx)

    ! The next sweep writes into u: its faces must have left.
    call MPI_Waitall(6, requests(7:12), MPI_STATUSES_IGNORE, ierr)
    call move_alloc(u, t)
    call move_alloc(v, u)
    call move_alloc(t, v)
  end do
  call jacobi3d_finish(r, u, v, b, start)
end program jacobi3d_olap
