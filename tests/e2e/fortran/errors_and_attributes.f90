! Tests error handlers (MPI_ERRORS_RETURN turns a bad call into an error code), error classes and
! strings, the version, predefined attributes, communicator names and MPI_Comm_split_type.
program errors_and_attributes
  use mpi
  implicit none
  integer :: rank, nprocs, ierr, code, errclass, length, version, subversion, handler, comm, shared, nshared
  integer :: x
  integer(kind=MPI_ADDRESS_KIND) :: value
  logical :: flag
  character(len=MPI_MAX_ERROR_STRING) :: text
  character(len=MPI_MAX_OBJECT_NAME) :: name
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: library

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)

  call MPI_Get_version(version, subversion, ierr)
  call MPI_Get_library_version(library, length, ierr)
  write(*, '(a,i0,a,i0,a,i0,a,l1)') 'rank ', rank, ' version ', version, '.', subversion, ' library named ', &
       length > 0 .and. len_trim(library) > 0

  ! Predefined attributes: a tag bound of at least 32767 (MPI's minimum), a clock flag.
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, value, flag, ierr)
  write(*, '(a,i0,a,l1,a,l1)') 'rank ', rank, ' tag_ub found ', flag, ' at least 32767 ', value >= 32767
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, value, flag, ierr)
  write(*, '(a,i0,a,l1,a,l1)') 'rank ', rank, ' wtime_is_global found ', flag, ' boolean ', &
       value == 0 .or. value == 1

  ! Names: MPI_COMM_WORLD's own, and one given to a duplicate (trailing blanks are not part of it).
  call MPI_Comm_get_name(MPI_COMM_WORLD, name, length, ierr)
  write(*, '(a,i0,a,a,a,i0)') 'rank ', rank, ' world is named ', trim(name), ' length ', length
  call MPI_Comm_dup(MPI_COMM_WORLD, comm, ierr)
  call MPI_Comm_set_name(comm, 'solver comm   ', ierr)
  call MPI_Comm_get_name(comm, name, length, ierr)
  write(*, '(a,i0,a,a,a,i0)') 'rank ', rank, ' dup is named ', trim(name), ' length ', length

  ! Error handlers: fatal by default; on the duplicate, errors come back as codes.
  call MPI_Comm_get_errhandler(MPI_COMM_WORLD, handler, ierr)
  write(*, '(a,i0,a,l1)') 'rank ', rank, ' world fatal ', handler == MPI_ERRORS_ARE_FATAL
  call MPI_Errhandler_free(handler, ierr)
  call MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN, ierr)
  call MPI_Comm_get_errhandler(comm, handler, ierr)
  write(*, '(a,i0,a,l1)') 'rank ', rank, ' dup returns ', handler == MPI_ERRORS_RETURN
  call MPI_Errhandler_free(handler, ierr)
  x = rank
  call MPI_Send(x, 1, MPI_INTEGER, nprocs, 0, comm, code)
  call MPI_Error_class(code, errclass, ierr)
  write(*, '(a,i0,a,l1,a,l1)') 'rank ', rank, ' bad rank failed ', code /= MPI_SUCCESS, ' class is rank ', &
       errclass == MPI_ERR_RANK
  call MPI_Send(x, 1, MPI_INTEGER, rank, -5, comm, code)
  call MPI_Error_class(code, errclass, ierr)
  write(*, '(a,i0,a,l1,a,l1)') 'rank ', rank, ' bad tag failed ', code /= MPI_SUCCESS, ' class is tag ', &
       errclass == MPI_ERR_TAG
  call MPI_Error_string(MPI_ERR_TRUNCATE, text, length, ierr)
  write(*, '(a,i0,a,l1)') 'rank ', rank, ' truncate string ', length > 0 .and. len_trim(text) == length
  call MPI_Error_class(MPI_ERR_TRUNCATE, errclass, ierr)
  write(*, '(a,i0,a,l1)') 'rank ', rank, ' truncate class ', errclass == MPI_ERR_TRUNCATE
  call MPI_Comm_free(comm, ierr)

  ! The ranks of one host (the test runs on one).
  call MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, shared, ierr)
  call MPI_Comm_size(shared, nshared, ierr)
  write(*, '(a,i0,a,l1)') 'rank ', rank, ' shared is world ', nshared == nprocs
  call MPI_Comm_free(shared, ierr)
  call MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, rank, MPI_INFO_NULL, shared, ierr)
  write(*, '(a,i0,a,l1)') 'rank ', rank, ' undefined split null ', shared == MPI_COMM_NULL

  call MPI_Finalize(ierr)
end program errors_and_attributes
