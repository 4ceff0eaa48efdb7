! The `mpi` module of Fortran programs built with bamboocc: mpif.h's declarations, and
! interfaces for the routines that take a buffer, whose type and rank go unchecked (gfortran's
! NO_ARG_CHECK, as Open MPI's module does), so that one routine takes buffers of every type as
! MPI allows; gfortran checks the other arguments. The other routines stay external, as
! through mpif.h.
module mpi
  implicit none
  include 'mpif.h'
  interface
    subroutine mpi_send(buf, count, datatype, dest, tag, comm, ierror)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count, datatype, dest, tag, comm, ierror
    end subroutine mpi_send
    subroutine mpi_ssend(buf, count, datatype, dest, tag, comm, ierror)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count, datatype, dest, tag, comm, ierror
    end subroutine mpi_ssend
    subroutine mpi_rsend(buf, count, datatype, dest, tag, comm, ierror)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count, datatype, dest, tag, comm, ierror
    end subroutine mpi_rsend
    subroutine mpi_isend(buf, count, datatype, dest, tag, comm, request, ierror)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count, datatype, dest, tag, comm, request, ierror
    end subroutine mpi_isend
    subroutine mpi_issend(buf, count, datatype, dest, tag, comm, request, ierror)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count, datatype, dest, tag, comm, request, ierror
    end subroutine mpi_issend
    subroutine mpi_irsend(buf, count, datatype, dest, tag, comm, request, ierror)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count, datatype, dest, tag, comm, request, ierror
    end subroutine mpi_irsend
    subroutine mpi_irecv(buf, count, datatype, source, tag, comm, request, ierror)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count, datatype, source, tag, comm, request, ierror
    end subroutine mpi_irecv
    subroutine mpi_recv(buf, count, datatype, source, tag, comm, status, ierror)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count, datatype, source, tag, comm, status(*), ierror
    end subroutine mpi_recv
    subroutine mpi_sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, &
        recvcount, recvtype, source, recvtag, comm, status, ierror)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: sendcount, sendtype, dest, sendtag, recvcount, recvtype, source, &
        recvtag, comm, status(*), ierror
    end subroutine mpi_sendrecv
    subroutine mpi_sendrecv_replace(buf, count, datatype, dest, sendtag, source, &
        recvtag, comm, status, ierror)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count, datatype, dest, sendtag, source, recvtag, comm, status(*), ierror
    end subroutine mpi_sendrecv_replace
    subroutine mpi_bcast(buf, count, datatype, root, comm, ierror)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
      integer :: count, datatype, root, comm, ierror
    end subroutine mpi_bcast
    subroutine mpi_reduce(sendbuf, recvbuf, count, datatype, op, root, comm, ierror)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: count, datatype, op, root, comm, ierror
    end subroutine mpi_reduce
    subroutine mpi_allreduce(sendbuf, recvbuf, count, datatype, op, comm, ierror)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: count, datatype, op, comm, ierror
    end subroutine mpi_allreduce
    subroutine mpi_scan(sendbuf, recvbuf, count, datatype, op, comm, ierror)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: count, datatype, op, comm, ierror
    end subroutine mpi_scan
    subroutine mpi_exscan(sendbuf, recvbuf, count, datatype, op, comm, ierror)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: count, datatype, op, comm, ierror
    end subroutine mpi_exscan
    subroutine mpi_reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, &
        ierror)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcounts(*), datatype, op, comm, ierror
    end subroutine mpi_reduce_scatter
    subroutine mpi_reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, &
        comm, ierror)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: recvcount, datatype, op, comm, ierror
    end subroutine mpi_reduce_scatter_block
    subroutine mpi_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
        root, comm, ierror)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: sendcount, sendtype, recvcount, recvtype, root, comm, ierror
    end subroutine mpi_gather
    subroutine mpi_scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
        root, comm, ierror)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: sendcount, sendtype, recvcount, recvtype, root, comm, ierror
    end subroutine mpi_scatter
    subroutine mpi_gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, &
        recvtype, root, comm, ierror)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: sendcount, sendtype, recvcounts(*), displs(*), recvtype, root, comm, &
        ierror
    end subroutine mpi_gatherv
    subroutine mpi_scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, &
        recvtype, root, comm, ierror)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: sendcounts(*), displs(*), sendtype, recvcount, recvtype, root, comm, &
        ierror
    end subroutine mpi_scatterv
    subroutine mpi_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
        recvtype, comm, ierror)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: sendcount, sendtype, recvcount, recvtype, comm, ierror
    end subroutine mpi_allgather
    subroutine mpi_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, &
        comm, ierror)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: sendcount, sendtype, recvcount, recvtype, comm, ierror
    end subroutine mpi_alltoall
    subroutine mpi_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, &
        displs, recvtype, comm, ierror)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: sendcount, sendtype, recvcounts(*), displs(*), recvtype, comm, ierror
    end subroutine mpi_allgatherv
    subroutine mpi_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, &
        recvcounts, rdispls, recvtype, comm, ierror)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: sendbuf
      type(*), dimension(*) :: sendbuf
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: recvbuf
      type(*), dimension(*) :: recvbuf
      integer :: sendcounts(*), sdispls(*), sendtype, recvcounts(*), rdispls(*), &
        recvtype, comm, ierror
    end subroutine mpi_alltoallv
  end interface
end module mpi
