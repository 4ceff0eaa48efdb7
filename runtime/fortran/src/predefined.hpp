// The Fortran handles MPI predefines, in the order that numbers them. The runtime's handle
// tables (handles.cpp) and the generated mpif.h (tools/make_mpif.cpp) both read these lists,
// so a name's integer is the same on both sides: its position, counting from 1 (0 is the
// null handle of its kind).
#pragma once

// Fortran's own datatypes and the ones C and Fortran share; the runtime reduces and sizes them
// through the MPI library as any other datatype.
#define BAMBOO_FORTRAN_DATATYPES(X)                                                                \
    X(MPI_INTEGER) X(MPI_REAL) X(MPI_DOUBLE_PRECISION) X(MPI_COMPLEX) X(MPI_DOUBLE_COMPLEX)       \
    X(MPI_LOGICAL) X(MPI_CHARACTER) X(MPI_BYTE) X(MPI_PACKED) X(MPI_INTEGER1) X(MPI_INTEGER2)      \
    X(MPI_INTEGER4) X(MPI_INTEGER8) X(MPI_REAL4) X(MPI_REAL8) X(MPI_2REAL)                         \
    X(MPI_2DOUBLE_PRECISION) X(MPI_2INTEGER)

#define BAMBOO_FORTRAN_OPS(X)                                                                      \
    X(MPI_MAX) X(MPI_MIN) X(MPI_SUM) X(MPI_PROD) X(MPI_LAND) X(MPI_BAND) X(MPI_LOR) X(MPI_BOR)     \
    X(MPI_LXOR) X(MPI_BXOR) X(MPI_MAXLOC) X(MPI_MINLOC) X(MPI_REPLACE) X(MPI_NO_OP)

#define BAMBOO_FORTRAN_COMMS(X) X(MPI_COMM_WORLD) X(MPI_COMM_SELF)

#define BAMBOO_FORTRAN_GROUPS(X) X(MPI_GROUP_EMPTY)

#define BAMBOO_FORTRAN_ERRHANDLERS(X) X(MPI_ERRORS_ARE_FATAL) X(MPI_ERRORS_RETURN)

// Integer constants whose values are the MPI library's own: a Fortran call passes them on to
// the C interface unchanged.
#define BAMBOO_FORTRAN_CONSTANTS(X)                                                                \
    X(MPI_SUCCESS) X(MPI_ANY_SOURCE) X(MPI_ANY_TAG) X(MPI_PROC_NULL) X(MPI_ROOT) X(MPI_UNDEFINED)  \
    X(MPI_MAX_PROCESSOR_NAME) X(MPI_MAX_ERROR_STRING) X(MPI_IDENT) X(MPI_CONGRUENT)  \
    X(MPI_SIMILAR) X(MPI_UNEQUAL) X(MPI_THREAD_SINGLE) X(MPI_THREAD_FUNNELED)                      \
    X(MPI_THREAD_SERIALIZED) X(MPI_THREAD_MULTIPLE) X(MPI_CART) X(MPI_GRAPH)                       \
    X(MPI_DIST_GRAPH) X(MPI_ERR_OTHER) X(MPI_ERR_COMM) X(MPI_ERR_TYPE) X(MPI_ERR_REQUEST)           \
    X(MPI_ERR_OP) X(MPI_ERR_GROUP) X(MPI_ERR_ARG) X(MPI_ERR_RANK) X(MPI_ERR_TAG) X(MPI_ERR_COUNT)  \
    X(MPI_ERR_TRUNCATE) X(MPI_ERR_BUFFER) X(MPI_ERR_ROOT) X(MPI_ERR_DIMS) X(MPI_ERR_TOPOLOGY)       \
    X(MPI_ERR_UNKNOWN) X(MPI_ERR_INTERN) X(MPI_ERR_IN_STATUS) X(MPI_ERR_PENDING) X(MPI_ERR_KEYVAL)  \
    X(MPI_ERR_INFO) X(MPI_ERR_INFO_KEY) X(MPI_ERR_INFO_VALUE) X(MPI_ERR_INFO_NOKEY) X(MPI_ERR_FILE) \
    X(MPI_ERR_IO) X(MPI_ERR_AMODE) X(MPI_ERR_ACCESS) X(MPI_ERR_BAD_FILE) X(MPI_ERR_NO_SUCH_FILE)   \
    X(MPI_ERR_FILE_EXISTS) X(MPI_ERR_FILE_IN_USE) X(MPI_ERR_NO_SPACE) X(MPI_ERR_QUOTA)              \
    X(MPI_ERR_READ_ONLY) X(MPI_ERR_NOT_SAME) X(MPI_ERR_UNSUPPORTED_DATAREP)                         \
    X(MPI_ERR_UNSUPPORTED_OPERATION) X(MPI_ERR_LASTCODE) X(MPI_VERSION) X(MPI_SUBVERSION)          \
    X(MPI_ORDER_C) X(MPI_ORDER_FORTRAN) X(MPI_COMM_TYPE_SHARED) X(MPI_TAG_UB) X(MPI_HOST) X(MPI_IO) \
    X(MPI_WTIME_IS_GLOBAL) X(MPI_UNIVERSE_SIZE) X(MPI_APPNUM) X(MPI_LASTUSEDCODE)                    \
    X(MPI_MAX_OBJECT_NAME) X(MPI_MAX_LIBRARY_VERSION_STRING) X(MPI_MAX_INFO_KEY) X(MPI_MAX_INFO_VAL) \
    X(MPI_MODE_RDONLY) X(MPI_MODE_WRONLY) X(MPI_MODE_RDWR) X(MPI_MODE_CREATE) X(MPI_MODE_EXCL)      \
    X(MPI_MODE_DELETE_ON_CLOSE) X(MPI_MODE_UNIQUE_OPEN) X(MPI_MODE_SEQUENTIAL) X(MPI_MODE_APPEND)   \
    X(MPI_SEEK_SET) X(MPI_SEEK_CUR) X(MPI_SEEK_END) X(MPI_LOCK_EXCLUSIVE) X(MPI_LOCK_SHARED)        \
    X(MPI_MODE_NOCHECK) X(MPI_MODE_NOSTORE) X(MPI_MODE_NOPUT) X(MPI_MODE_NOPRECEDE)                 \
    X(MPI_MODE_NOSUCCEED)
