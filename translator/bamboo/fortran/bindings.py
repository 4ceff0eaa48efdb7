"""The MPI routines a Fortran program can call under Bamboo: those runtime/fortran binds
(translator/tests/test_fortran.py checks this table against libbamboo_fortran.a's symbols and
docs/fortran.md's list). The C interface has more; each binding is a few lines in the file of
its family."""

BINDINGS = frozenset("""
    mpi_init mpi_init_thread mpi_initialized mpi_finalize mpi_finalized mpi_abort
    mpi_wtime mpi_wtick mpi_get_processor_name
    mpi_send mpi_ssend mpi_rsend mpi_isend mpi_issend mpi_irsend mpi_irecv mpi_recv
    mpi_sendrecv mpi_sendrecv_replace mpi_probe mpi_iprobe mpi_get_count
    mpi_wait mpi_waitall mpi_waitany mpi_waitsome mpi_test mpi_testall mpi_testany
    mpi_request_free
    mpi_barrier mpi_bcast mpi_reduce mpi_allreduce mpi_scan mpi_exscan mpi_gather mpi_gatherv
    mpi_scatter mpi_scatterv mpi_allgather mpi_allgatherv mpi_alltoall mpi_alltoallv
    mpi_reduce_scatter mpi_reduce_scatter_block
    mpi_comm_rank mpi_comm_size mpi_comm_split mpi_comm_dup mpi_comm_create mpi_comm_free
    mpi_comm_compare mpi_comm_group mpi_group_incl mpi_group_excl mpi_group_free
    mpi_group_size mpi_group_rank mpi_group_translate_ranks
    mpi_dims_create mpi_cart_create mpi_cart_coords mpi_cart_rank mpi_cart_shift mpi_cart_sub
    mpi_cart_get mpi_cartdim_get
    mpi_type_contiguous mpi_type_vector mpi_type_indexed mpi_type_create_hvector
    mpi_type_create_subarray mpi_type_commit mpi_type_free
    mpi_type_size mpi_type_get_extent
""".split())
