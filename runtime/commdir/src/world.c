/* The comm directives' communicator in a plain MPI program: a duplicate of MPI_COMM_WORLD
 * made inside MPI_Init and MPI_Init_thread, which this file takes over through MPI's
 * profiling interface.  MPI_Init is the one call every rank is sure to make: a duplicate
 * made lazily, at the first region, would hang wherever only some ranks reach a region. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define BAMBOO_COMMDIR_MPI
#include "bamboo_commdir.h"

static MPI_Comm directives = MPI_COMM_NULL;

static int make_communicator(int code)
{
    if (code == MPI_SUCCESS)
        code = PMPI_Comm_dup(MPI_COMM_WORLD, &directives);
    if (code == MPI_SUCCESS)
        PMPI_Comm_set_name(directives, "comm directives");  /* as debuggers show it */
    return code;
}

int MPI_Init(int *argc, char ***argv)
{
    return make_communicator(PMPI_Init(argc, argv));
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    return make_communicator(PMPI_Init_thread(argc, argv, required, provided));
}

MPI_Comm bamboo_comm_world(const char *file, int line)
{
    if (directives != MPI_COMM_NULL)
        return directives;
    int initialized = 0;
    PMPI_Initialized(&initialized);
    if (!initialized) {
        fprintf(stderr, "%s:%d: error: a comm directive ran before MPI_Init\n", file, line);
        exit(1);
    }
    /* MPI started by a call this file does not see (PMPI_Init itself, or another tool's
     * MPI_Init linked ahead of this library) */
    fprintf(stderr, "%s:%d: error: a comm directive ran, but its communicator was not made: MPI "
            "was initialized without this program's MPI_Init or MPI_Init_thread (is another "
            "library's MPI_Init linked first?)\n", file, line);
    PMPI_Abort(MPI_COMM_WORLD, 1);
    return MPI_COMM_NULL;
}
