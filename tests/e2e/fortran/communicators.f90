! Tests communicator/group management: split, dup, compare, group incl/excl, create, translate, COMM_SELF.
program communicators
  use mpi
  implicit none
  integer :: rank, np, ierr, i, n, res, color, total, token, ptok
  integer :: split, dupc, rev, created, wgroup, egroup, xgroup, cgroup
  integer :: srank, ssize, grank, gsize, crank, csize, xsize, xrank
  integer, allocatable :: evens(:), tr(:)
  character(len=10) :: names(4)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)

  ! Split by parity; key -rank reverses the order inside each half.
  color = mod(rank, 2)
  call MPI_Comm_split(MPI_COMM_WORLD, color, -rank, split, ierr)
  call MPI_Comm_rank(split, srank, ierr)
  call MPI_Comm_size(split, ssize, ierr)
  call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, split, ierr)
  ! Ring on the split communicator: pass world rank to the next sub-rank.
  call MPI_Sendrecv(rank, 1, MPI_INTEGER, mod(srank + 1, ssize), 7, ptok, 1, MPI_INTEGER, &
                    mod(srank - 1 + ssize, ssize), 7, split, MPI_STATUS_IGNORE, ierr)
  write(*, '(a,i0,a,i0,a,i0,a,i0,a,i0,a,i0)') 'rank ', rank, ' color ', color, ' subrank ', srank, &
       ' subsize ', ssize, ' subsum ', total, ' from ', ptok

  ! Comparisons: world vs world, dup, the split, and a reordered copy of world.
  call MPI_Comm_dup(MPI_COMM_WORLD, dupc, ierr)
  call MPI_Comm_split(MPI_COMM_WORLD, 0, np - rank, rev, ierr)
  call MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, res, ierr)
  names(1) = cmpname(res)
  call MPI_Comm_compare(MPI_COMM_WORLD, dupc, res, ierr)
  names(2) = cmpname(res)
  call MPI_Comm_compare(MPI_COMM_WORLD, split, res, ierr)
  names(3) = cmpname(res)
  call MPI_Comm_compare(MPI_COMM_WORLD, rev, res, ierr)
  names(4) = cmpname(res)
  write(*, '(a,i0,a,4(1x,a))') 'rank ', rank, ' compare', (trim(names(i)), i = 1, 4)
  token = -1
  if (rank == 0) token = 77
  call MPI_Bcast(token, 1, MPI_INTEGER, 0, dupc, ierr)
  call MPI_Comm_rank(rev, n, ierr)
  write(*, '(a,i0,a,i0,a,i0)') 'rank ', rank, ' dup bcast ', token, ' reversed rank ', n

  ! Group of even world ranks, listed from highest to lowest.
  n = (np + 1) / 2
  allocate(evens(n), tr(n))
  evens = (/ (2 * (n - i), i = 1, n) /)
  call MPI_Comm_group(MPI_COMM_WORLD, wgroup, ierr)
  call MPI_Group_incl(wgroup, n, evens, egroup, ierr)
  call MPI_Group_size(egroup, gsize, ierr)
  call MPI_Group_rank(egroup, grank, ierr)
  call MPI_Group_translate_ranks(egroup, n, (/ (i, i = 0, n - 1) /), wgroup, tr, ierr)
  write(*, '(a,i0,a,i0,a,i0,a,*(1x,i0))') 'rank ', rank, ' egroup size ', gsize, ' grank ', &
       undef(grank), ' translated', tr
  call MPI_Comm_create(MPI_COMM_WORLD, egroup, created, ierr)
  if (created == MPI_COMM_NULL) then
    write(*, '(a,i0,a)') 'rank ', rank, ' not in created communicator'
  else
    call MPI_Comm_rank(created, crank, ierr)
    call MPI_Comm_size(created, csize, ierr)
    call MPI_Comm_group(created, cgroup, ierr)
    call MPI_Group_rank(cgroup, grank, ierr)
    token = -1
    if (crank == 0) token = 1000 + rank
    call MPI_Bcast(token, 1, MPI_INTEGER, 0, created, ierr)
    call MPI_Reduce(rank, total, 1, MPI_INTEGER, MPI_MAX, csize - 1, created, ierr)
    if (crank /= csize - 1) total = -1
    write(*, '(a,i0,a,i0,a,i0,a,i0,a,i0,a,i0)') 'rank ', rank, ' created rank ', crank, ' size ', &
         csize, ' grouprank ', grank, ' bcast ', token, ' maxrank ', total
    call MPI_Group_free(cgroup, ierr)
    call MPI_Comm_free(created, ierr)
  end if

  ! Excluding rank 0 (empty group when np == 1).
  call MPI_Group_excl(wgroup, 1, (/ 0 /), xgroup, ierr)
  call MPI_Group_size(xgroup, xsize, ierr)
  call MPI_Group_rank(xgroup, xrank, ierr)
  write(*, '(a,i0,a,i0,a,i0)') 'rank ', rank, ' excl size ', xsize, ' excl rank ', undef(xrank)

  ! MPI_COMM_SELF behaves as a one-rank communicator.
  call MPI_Comm_size(MPI_COMM_SELF, n, ierr)
  call MPI_Comm_rank(MPI_COMM_SELF, i, ierr)
  call MPI_Allreduce(rank * 3, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_SELF, ierr)
  write(*, '(a,i0,a,i0,a,i0,a,i0)') 'rank ', rank, ' self size ', n, ' self rank ', i, ' self sum ', total

  call MPI_Group_free(xgroup, ierr)
  call MPI_Group_free(egroup, ierr)
  call MPI_Group_free(wgroup, ierr)
  call MPI_Comm_free(rev, ierr)
  call MPI_Comm_free(dupc, ierr)
  call MPI_Comm_free(split, ierr)
  if (split /= MPI_COMM_NULL .or. wgroup /= MPI_GROUP_NULL) write(*, '(a)') 'handles not reset'
  deallocate(evens, tr)
  call MPI_Finalize(ierr)

contains

  function cmpname(r) result(s)
    integer, intent(in) :: r
    character(len=10) :: s
    if (r == MPI_IDENT) then
      s = 'ident'
    else if (r == MPI_CONGRUENT) then
      s = 'congruent'
    else if (r == MPI_SIMILAR) then
      s = 'similar'
    else if (r == MPI_UNEQUAL) then
      s = 'unequal'
    else
      s = 'unknown'
    end if
  end function cmpname

  integer function undef(r)
    integer, intent(in) :: r
    undef = r
    if (r == MPI_UNDEFINED) undef = -1
  end function undef

end program communicators
