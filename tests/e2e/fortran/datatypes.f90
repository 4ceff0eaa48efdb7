! Tests struct datatypes from MPI_Get_address (a derived type, resized to its array's stride, and
! absolute addresses sent from MPI_BOTTOM), hindexed, dup, true extents, MPI_Get_elements, packing,
! and the MPI-1 MPI_Type_struct and MPI_Type_extent with default-integer displacements.
module particle_type
  implicit none
  type :: particle
    integer :: id
    double precision :: x(3)
    character(len=4) :: label
  end type particle
end module particle_type

program datatypes
  use mpi
  use particle_type
  implicit none
  integer, parameter :: n = 3
  type(particle) :: out(n), in(n)
  integer :: rank, nprocs, ierr, left, right, k, nbad
  integer :: blocks(3), types(3), ptype, onetype, abstype, absrecv, hidx, dupped, pair, old_struct
  integer(kind=MPI_ADDRESS_KIND) :: base, disps(3), lb, extent, tlb, textent, stride
  integer :: status(MPI_STATUS_SIZE), count, elements, size_a, size_b, psize, position, eltext
  integer :: idisps(2)
  double precision :: a(8), three(3), twos(4)
  ! Sent and received from MPI_BOTTOM, by address: calls that do not name them read and write them.
  integer, asynchronous :: counter, got_counter
  double precision, asynchronous :: weight, got_weight
  character(len=200) :: packed
  integer :: ipack(5), iunpack(5)
  double precision :: dpack(2), dunpack(2)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  right = mod(rank + 1, nprocs)
  left = mod(rank + nprocs - 1, nprocs)
  nbad = 0

  ! A derived type's components by address, relative to the first; resized to the array stride.
  call MPI_Get_address(out(1)%id, base, ierr)
  call MPI_Get_address(out(1)%x, disps(2), ierr)
  call MPI_Get_address(out(1)%label, disps(3), ierr)
  disps(1) = 0
  disps(2) = disps(2) - base
  disps(3) = disps(3) - base
  blocks = [1, 3, 4]
  types = [MPI_INTEGER, MPI_DOUBLE_PRECISION, MPI_CHARACTER]
  call MPI_Type_create_struct(3, blocks, disps, types, onetype, ierr)
  call MPI_Get_address(out(2)%id, stride, ierr)
  stride = stride - base
  call MPI_Type_create_resized(onetype, 0_MPI_ADDRESS_KIND, stride, ptype, ierr)
  call MPI_Type_commit(ptype, ierr)
  call MPI_Type_get_extent(ptype, lb, extent, ierr)
  call MPI_Type_get_true_extent(ptype, tlb, textent, ierr)
  if (extent /= stride .or. lb /= 0 .or. tlb /= 0 .or. textent /= disps(3) + 4) nbad = nbad + 1
  do k = 1, n
    out(k)%id = 10 * rank + k
    out(k)%x = [rank + 0.5d0 * k, -1.0d0 * k, 2.0d0 * rank]
    write(out(k)%label, '(a,i1,i2.2)') 'p', k, rank
  end do
  call MPI_Sendrecv(out, n, ptype, right, 1, in, n, ptype, left, 1, MPI_COMM_WORLD, status, ierr)
  call MPI_Get_count(status, ptype, count, ierr)
  if (count /= n) nbad = nbad + 1
  do k = 1, n
    if (in(k)%id /= 10 * left + k .or. in(k)%x(1) /= left + 0.5d0 * k .or. in(k)%x(3) /= 2.0d0 * left) nbad = nbad + 1
  end do
  write(*, '(a,i0,a,3(1x,a),a,i0)') 'rank ', rank, ' particles', (in(k)%label, k = 1, n), ' errors ', nbad

  ! Absolute addresses: two unrelated variables sent as one message from MPI_BOTTOM, received
  ! into two others the same way.
  counter = 100 + rank
  weight = 0.25d0 * rank
  call MPI_Get_address(counter, disps(1), ierr)
  call MPI_Get_address(weight, disps(2), ierr)
  call MPI_Type_create_struct(2, [1, 1], disps, [MPI_INTEGER, MPI_DOUBLE_PRECISION], abstype, ierr)
  call MPI_Get_address(got_counter, disps(1), ierr)
  call MPI_Get_address(got_weight, disps(2), ierr)
  call MPI_Type_create_struct(2, [1, 1], disps, [MPI_INTEGER, MPI_DOUBLE_PRECISION], absrecv, ierr)
  call MPI_Type_commit(abstype, ierr)
  call MPI_Type_commit(absrecv, ierr)
  call MPI_Sendrecv(MPI_BOTTOM, 1, abstype, right, 2, MPI_BOTTOM, 1, absrecv, left, 2, MPI_COMM_WORLD, &
                    status, ierr)
  call MPI_Get_elements(status, absrecv, elements, ierr)
  write(*, '(a,i0,a,i0,f8.2,a,i0)') 'rank ', rank, ' from bottom ', got_counter, got_weight, ' elements ', elements
  call MPI_Type_free(abstype, ierr)
  call MPI_Type_free(absrecv, ierr)

  ! Hindexed (bytes) and its duplicate: elements 2, 3 and 7 of a.
  do k = 1, 8
    a(k) = 100 * rank + k
  end do
  disps(1) = 8
  disps(2) = 48
  call MPI_Type_create_hindexed(2, [2, 1], disps, MPI_DOUBLE_PRECISION, hidx, ierr)
  call MPI_Type_dup(hidx, dupped, ierr)
  call MPI_Type_commit(dupped, ierr)
  call MPI_Type_size(dupped, size_a, ierr)
  call MPI_Sendrecv(a, 1, dupped, right, 4, three, 3, MPI_DOUBLE_PRECISION, left, 4, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE, ierr)
  write(*, '(a,i0,a,i0,a,3f8.1)') 'rank ', rank, ' hindexed size ', size_a, ' got ', three
  call MPI_Type_free(hidx, ierr)
  call MPI_Type_free(dupped, ierr)

  ! Three doubles received as pairs: no whole count, three elements.
  call MPI_Type_contiguous(2, MPI_DOUBLE_PRECISION, pair, ierr)
  call MPI_Type_commit(pair, ierr)
  call MPI_Sendrecv(a, 3, MPI_DOUBLE_PRECISION, right, 5, twos, 2, pair, left, 5, MPI_COMM_WORLD, status, ierr)
  call MPI_Get_count(status, pair, count, ierr)
  call MPI_Get_elements(status, pair, elements, ierr)
  write(*, '(a,i0,a,l1,a,i0)') 'rank ', rank, ' pairs undefined ', count == MPI_UNDEFINED, ' elements ', elements

  ! MPI-1: MPI_Type_extent and MPI_Type_struct with default-integer displacements (a(1), a(3)).
  call MPI_Type_extent(pair, eltext, ierr)
  idisps = [0, 16]
  call MPI_Type_struct(2, [1, 1], idisps, [MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION], old_struct, ierr)
  call MPI_Type_commit(old_struct, ierr)
  call MPI_Type_size(old_struct, size_b, ierr)
  call MPI_Sendrecv(a, 1, old_struct, right, 6, twos, 2, MPI_DOUBLE_PRECISION, left, 6, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE, ierr)
  write(*, '(a,i0,a,i0,a,i0,a,2f8.1)') 'rank ', rank, ' extent ', eltext, ' struct size ', size_b, ' got ', &
       twos(1:2)
  call MPI_Type_free(old_struct, ierr)
  call MPI_Type_free(pair, ierr)

  ! Packing: five integers and two doubles in one MPI_PACKED message.
  call MPI_Pack_size(5, MPI_INTEGER, MPI_COMM_WORLD, size_a, ierr)
  call MPI_Pack_size(2, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, size_b, ierr)
  if (size_a + size_b > len(packed)) nbad = nbad + 1
  ipack = [(rank * k, k = 1, 5)]
  dpack = [rank / 4.0d0, -rank / 8.0d0]
  position = 0
  call MPI_Pack(ipack, 5, MPI_INTEGER, packed, len(packed), position, MPI_COMM_WORLD, ierr)
  call MPI_Pack(dpack, 2, MPI_DOUBLE_PRECISION, packed, len(packed), position, MPI_COMM_WORLD, ierr)
  psize = position
  call MPI_Sendrecv_replace(packed, len(packed), MPI_PACKED, right, 7, left, 7, MPI_COMM_WORLD, &
                            MPI_STATUS_IGNORE, ierr)
  position = 0
  call MPI_Unpack(packed, len(packed), position, iunpack, 5, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call MPI_Unpack(packed, len(packed), position, dunpack, 2, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, ierr)
  if (position /= psize) nbad = nbad + 1
  write(*, '(a,i0,a,5i4,2f10.4,a,i0)') 'rank ', rank, ' unpacked ', iunpack, dunpack, ' errors ', nbad

  call MPI_Type_free(ptype, ierr)
  call MPI_Type_free(onetype, ierr)
  if (ptype /= MPI_DATATYPE_NULL) nbad = nbad + 1
  call MPI_Finalize(ierr)
end program datatypes
