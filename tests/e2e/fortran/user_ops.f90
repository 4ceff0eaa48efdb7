! User-defined reductions (MPI_Op_create, MPI_Op_free): a commutative one on doubles and a
! non-commutative one, 2x2 matrix products mod 1009 over a contiguous datatype, whose
! result depends on MPI's rank order; each task registers its own procedures.
module user_ops
  implicit none
contains
  subroutine max_abs(invec, inoutvec, len, datatype)
    integer :: len, datatype
    double precision :: invec(len), inoutvec(len)
    integer :: i
    do i = 1, len
      inoutvec(i) = max(abs(invec(i)), abs(inoutvec(i)))
    end do
  end subroutine max_abs

  ! inoutvec := invec * inoutvec: invec holds the lower ranks' product.
  subroutine matrix_product(invec, inoutvec, len, datatype)
    integer :: len, datatype
    integer :: invec(2, 2, len), inoutvec(2, 2, len)
    integer :: i
    do i = 1, len
      inoutvec(:, :, i) = mod(matmul(invec(:, :, i), inoutvec(:, :, i)), 1009)
    end do
  end subroutine matrix_product
end module user_ops

program user_ops_test
  use mpi
  use user_ops
  implicit none
  integer :: rank, np, ierr, maxop, prodop, matrix_type, k
  double precision :: mine(3), biggest(3)
  integer :: m(2, 2, 2), product(2, 2, 2)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)

  call MPI_Op_create(max_abs, .true., maxop, ierr)
  mine = [dble(rank), -dble(2 * rank + 1), dble(mod(rank, 3)) - 5]
  call MPI_Allreduce(mine, biggest, 3, MPI_DOUBLE_PRECISION, maxop, MPI_COMM_WORLD, ierr)
  write(*, '(a,i0,a,3f8.1)') 'rank ', rank, ' max abs', biggest

  call MPI_Type_contiguous(4, MPI_INTEGER, matrix_type, ierr)
  call MPI_Type_commit(matrix_type, ierr)
  call MPI_Op_create(matrix_product, .false., prodop, ierr)
  do k = 1, 2
    m(:, :, k) = reshape([rank + k, 1, k, rank], [2, 2])
  end do
  product = 0
  call MPI_Reduce(m, product, 2, matrix_type, prodop, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) write(*, '(a,8i5)') 'product in rank order', product
  call MPI_Allreduce(m, product, 2, matrix_type, prodop, MPI_COMM_WORLD, ierr)
  write(*, '(a,i0,a,8i5)') 'rank ', rank, ' allreduced', product
  call MPI_Scan(m, product, 2, matrix_type, prodop, MPI_COMM_WORLD, ierr)
  write(*, '(a,i0,a,8i5)') 'rank ', rank, ' prefix', product

  call MPI_Op_free(maxop, ierr)
  call MPI_Op_free(prodop, ierr)
  write(*, '(a,i0,a,l1)') 'rank ', rank, ' freed ', maxop == MPI_OP_NULL .and. prodop == MPI_OP_NULL
  call MPI_Type_free(matrix_type, ierr)
  call MPI_Finalize(ierr)
end program user_ops_test
