"""The MPI routines a Fortran program can call under Bamboo: those runtime/fortran binds
(translator/tests/test_fortran.py checks this table against libbamboo_fortran.a's symbols and
docs/fortran.md's list). The C interface has more; each binding is a few lines in the file of
its family."""

BINDINGS = frozenset("""
    mpi_init mpi_init_thread mpi_initialized mpi_finalize mpi_finalized mpi_abort
    mpi_wtime mpi_wtick mpi_get_processor_name mpi_get_version mpi_get_library_version
    mpi_send mpi_ssend mpi_rsend mpi_isend mpi_issend mpi_irsend mpi_irecv mpi_recv
    mpi_sendrecv mpi_sendrecv_replace mpi_probe mpi_iprobe mpi_get_count
    mpi_wait mpi_waitall mpi_waitany mpi_waitsome mpi_test mpi_testall mpi_testany
    mpi_request_free mpi_cancel mpi_test_cancelled
    mpi_send_init mpi_ssend_init mpi_rsend_init mpi_recv_init mpi_start mpi_startall
    mpi_barrier mpi_bcast mpi_reduce mpi_allreduce mpi_scan mpi_exscan mpi_gather mpi_gatherv
    mpi_scatter mpi_scatterv mpi_allgather mpi_allgatherv mpi_alltoall mpi_alltoallv
    mpi_reduce_scatter mpi_reduce_scatter_block
    mpi_ibarrier mpi_ibcast mpi_ireduce mpi_iallreduce mpi_iscan mpi_iexscan mpi_igather mpi_igatherv
    mpi_iscatter mpi_iscatterv mpi_iallgather mpi_iallgatherv mpi_ialltoall mpi_ialltoallv
    mpi_ireduce_scatter mpi_ireduce_scatter_block
    mpi_comm_rank mpi_comm_size mpi_comm_split mpi_comm_dup mpi_comm_create mpi_comm_free
    mpi_comm_split_type mpi_comm_get_attr mpi_comm_set_name mpi_comm_get_name
    mpi_comm_compare mpi_comm_group mpi_group_incl mpi_group_excl mpi_group_free
    mpi_group_size mpi_group_rank mpi_group_translate_ranks
    mpi_comm_set_errhandler mpi_comm_get_errhandler mpi_errhandler_free mpi_error_class mpi_error_string
    mpi_dims_create mpi_cart_create mpi_cart_coords mpi_cart_rank mpi_cart_shift mpi_cart_sub
    mpi_cart_get mpi_cartdim_get
    mpi_type_contiguous mpi_type_vector mpi_type_indexed mpi_type_create_hvector
    mpi_type_create_subarray mpi_type_commit mpi_type_free
    mpi_op_create mpi_op_free
    mpi_win_create mpi_win_free mpi_win_get_group mpi_put mpi_get mpi_accumulate mpi_get_accumulate
    mpi_fetch_and_op mpi_compare_and_swap mpi_win_fence mpi_win_lock mpi_win_unlock mpi_win_lock_all
    mpi_win_unlock_all mpi_win_flush mpi_win_flush_all mpi_win_flush_local mpi_win_flush_local_all
    mpi_win_sync mpi_win_post mpi_win_start mpi_win_complete mpi_win_wait
    mpi_type_size mpi_type_get_extent
    mpi_type_create_hindexed mpi_type_create_struct mpi_type_struct mpi_type_create_resized mpi_type_dup
    mpi_type_get_true_extent mpi_type_extent mpi_get_address mpi_get_elements
    mpi_pack mpi_unpack mpi_pack_size
    mpi_info_create mpi_info_dup mpi_info_free mpi_info_set mpi_info_delete mpi_info_get
    mpi_info_get_valuelen mpi_info_get_nkeys mpi_info_get_nthkey
    mpi_file_open mpi_file_close mpi_file_delete mpi_file_set_view mpi_file_get_size mpi_file_set_size
    mpi_file_sync mpi_file_seek mpi_file_get_position mpi_file_read_at mpi_file_write_at
    mpi_file_read_at_all mpi_file_write_at_all mpi_file_read mpi_file_write mpi_file_read_all
    mpi_file_write_all
""".split())
