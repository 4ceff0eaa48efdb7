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

// Integer constants whose values are the MPI library's own: a Fortran call passes them on to
// the C interface unchanged.
#define BAMBOO_FORTRAN_CONSTANTS(X)                                                                \
    X(MPI_SUCCESS) X(MPI_ANY_SOURCE) X(MPI_ANY_TAG) X(MPI_PROC_NULL) X(MPI_ROOT) X(MPI_UNDEFINED)  \
    X(MPI_MAX_PROCESSOR_NAME) X(MPI_MAX_ERROR_STRING) X(MPI_IDENT) X(MPI_CONGRUENT)  \
    X(MPI_SIMILAR) X(MPI_UNEQUAL) X(MPI_THREAD_SINGLE) X(MPI_THREAD_FUNNELED)                      \
    X(MPI_THREAD_SERIALIZED) X(MPI_THREAD_MULTIPLE) X(MPI_CART) X(MPI_GRAPH)                       \
    X(MPI_DIST_GRAPH) X(MPI_ERR_OTHER) X(MPI_ERR_COMM) X(MPI_ERR_TYPE) X(MPI_ERR_REQUEST)           \
    X(MPI_ERR_OP) X(MPI_ERR_GROUP) X(MPI_ERR_ARG) X(MPI_ERR_RANK) X(MPI_ERR_TAG) X(MPI_ERR_COUNT)  \
    X(MPI_ERR_TRUNCATE) X(MPI_VERSION) X(MPI_SUBVERSION) X(MPI_ORDER_C)                          \
    X(MPI_ORDER_FORTRAN)
