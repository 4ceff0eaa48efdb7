! One-sided MPI: a window over each rank's own array; puts and gets between fences, an
! accumulate and a fetch-and-op under locks, a compare-and-swap, and a post/start epoch.
program one_sided
  use mpi
  implicit none
  integer, parameter :: n = 4
  integer :: rank, np, ierr, win, counter_win, right, left, k, fetched, old, world_group, pair_group
  integer, asynchronous :: slots(n), counter
  integer :: mine(n), peek(n), one, swapped
  integer(kind=MPI_ADDRESS_KIND) :: bytes, zero
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  right = mod(rank + 1, np)
  left = mod(rank + np - 1, np)
  zero = 0
  slots = -1
  bytes = n * 4
  call MPI_Win_create(slots, bytes, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)

  ! Fence epochs: put my values into my right neighbour's slots, then read my left's back.
  mine = [(100 * rank + k, k = 1, n)]
  call MPI_Win_fence(0, win, ierr)
  call MPI_Put(mine, n, MPI_INTEGER, right, zero, n, MPI_INTEGER, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  call MPI_Get(peek, n, MPI_INTEGER, left, zero, n, MPI_INTEGER, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  write(*, '(a,i0,a,4i6,a,4i6)') 'rank ', rank, ' slots', slots, ' left has', peek

  ! Passive target: every rank adds to rank 0's slot 2 and counts itself on rank 0's counter.
  counter = 0
  call MPI_Win_create(counter, 4_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, counter_win, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win, ierr)
  one = rank + 1
  call MPI_Accumulate(one, 1, MPI_INTEGER, 0, 1_MPI_ADDRESS_KIND, 1, MPI_INTEGER, MPI_SUM, win, ierr)
  call MPI_Win_unlock(0, win, ierr)
  call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, counter_win, ierr)
  one = 1
  call MPI_Fetch_and_op(one, fetched, MPI_INTEGER, 0, zero, MPI_SUM, counter_win, ierr)
  call MPI_Win_flush(0, counter_win, ierr)
  call MPI_Win_unlock(0, counter_win, ierr)
  ! Rank 0 reads both through the windows (what others wrote under locks), before anyone swaps.
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    call MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win, ierr)
    call MPI_Get(peek, 1, MPI_INTEGER, 0, 1_MPI_ADDRESS_KIND, 1, MPI_INTEGER, win, ierr)
    call MPI_Win_unlock(0, win, ierr)
    call MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, counter_win, ierr)
    call MPI_Get(old, 1, MPI_INTEGER, 0, zero, 1, MPI_INTEGER, counter_win, ierr)
    call MPI_Win_unlock(0, counter_win, ierr)
    write(*, '(a,i0,a,i0)') 'rank 0 slot 2 ', peek(1), ' counter ', old
  end if
  write(*, '(a,i0,a,l1)') 'rank ', rank, ' fetched in range ', fetched >= 0 .and. fetched < np
  call MPI_Barrier(MPI_COMM_WORLD, ierr)

  ! Compare-and-swap: only the rank that finds the counter at np changes it.
  call MPI_Win_lock_all(0, counter_win, ierr)
  swapped = -7
  call MPI_Compare_and_swap(swapped, np, old, MPI_INTEGER, 0, zero, counter_win, ierr)
  call MPI_Win_flush_all(counter_win, ierr)
  call MPI_Win_unlock_all(counter_win, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    call MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, counter_win, ierr)
    call MPI_Get(old, 1, MPI_INTEGER, 0, zero, 1, MPI_INTEGER, counter_win, ierr)
    call MPI_Win_unlock(0, counter_win, ierr)
    write(*, '(a,i0)') 'counter after one swap ', old
  end if

  ! General active target: each rank exposes to its left and accesses its right.
  call MPI_Comm_group(MPI_COMM_WORLD, world_group, ierr)
  call MPI_Group_incl(world_group, 1, [right], pair_group, ierr)
  call MPI_Group_free(world_group, ierr)
  call MPI_Comm_group(MPI_COMM_WORLD, world_group, ierr)
  call MPI_Group_incl(world_group, 1, [left], k, ierr)
  call MPI_Win_post(k, 0, win, ierr)
  call MPI_Win_start(pair_group, 0, win, ierr)
  call MPI_Put(rank, 1, MPI_INTEGER, right, 3_MPI_ADDRESS_KIND, 1, MPI_INTEGER, win, ierr)
  call MPI_Win_complete(win, ierr)
  call MPI_Win_wait(win, ierr)
  write(*, '(a,i0,a,i0)') 'rank ', rank, ' slot 4 from the left ', slots(4)
  call MPI_Group_free(k, ierr)
  call MPI_Group_free(pair_group, ierr)
  call MPI_Group_free(world_group, ierr)

  call MPI_Win_free(counter_win, ierr)
  call MPI_Win_free(win, ierr)
  write(*, '(a,i0,a,l1)') 'rank ', rank, ' freed ', win == MPI_WIN_NULL
  call MPI_Finalize(ierr)
end program one_sided
