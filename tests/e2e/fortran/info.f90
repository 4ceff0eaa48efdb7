! Tests info objects: keys and values given as CHARACTER variables with blanks around them (as
! a list-directed WRITE leaves them), lookups, the nth key, deletion, duplicates, truncation.
program info
  use mpi
  implicit none
  integer :: rank, nprocs, ierr, handle, copy, nkeys, k, length
  logical :: flag
  character(len=20) :: nodes
  character(len=MPI_MAX_INFO_KEY) :: key
  character(len=MPI_MAX_INFO_VAL) :: value
  character(len=8) :: short

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)

  call MPI_Info_create(handle, ierr)
  write(nodes, *) nprocs
  call MPI_Info_set(handle, 'cb_nodes', nodes, ierr)
  call MPI_Info_set(handle, '  cb_buffer_size ', '1048576', ierr)
  call MPI_Info_set(handle, 'collective_buffering', 'true', ierr)
  call MPI_Info_get_nkeys(handle, nkeys, ierr)
  write(*, '(a,i0,a,i0)') 'rank ', rank, ' keys ', nkeys
  do k = 0, nkeys - 1
    call MPI_Info_get_nthkey(handle, k, key, ierr)
    call MPI_Info_get(handle, key, MPI_MAX_INFO_VAL, value, flag, ierr)
    call MPI_Info_get_valuelen(handle, key, length, flag, ierr)
    write(*, '(a,i0,a,i0,1x,a,a,a,a,i0)') 'rank ', rank, ' key ', k, trim(key), ' = "', trim(value), '" length ', &
         length
  end do

  ! A value longer than asked for comes back cut to valuelen characters.
  short = 'xxxxxxxx'
  call MPI_Info_get(handle, 'cb_buffer_size', 4, short, flag, ierr)
  write(*, '(a,i0,a,l1,a,a,a)') 'rank ', rank, ' cut ', flag, ' "', short, '"'
  call MPI_Info_get(handle, 'no_such_key', MPI_MAX_INFO_VAL, value, flag, ierr)
  write(*, '(a,i0,a,l1)') 'rank ', rank, ' missing found ', flag

  ! A duplicate keeps its keys when the original loses one.
  call MPI_Info_dup(handle, copy, ierr)
  call MPI_Info_delete(handle, 'cb_nodes', ierr)
  call MPI_Info_get_nkeys(handle, nkeys, ierr)
  call MPI_Info_get(copy, 'cb_nodes', MPI_MAX_INFO_VAL, value, flag, ierr)
  write(*, '(a,i0,a,i0,a,l1,1x,a)') 'rank ', rank, ' after delete ', nkeys, ' copy has ', flag, trim(value)
  call MPI_Info_free(handle, ierr)
  call MPI_Info_free(copy, ierr)
  write(*, '(a,i0,a,l1)') 'rank ', rank, ' freed ', handle == MPI_INFO_NULL .and. copy == MPI_INFO_NULL

  call MPI_Finalize(ierr)
end program info
