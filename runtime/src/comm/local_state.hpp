// What each task keeps of its communicators beside their members: MPI makes error handlers
// local to a process, so under Bamboo to a task (a rank). Error handlers the task creates are
// its own too.
#pragma once

#include <mpi.h>

namespace bamboo {

struct CommLocal {
    // MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN, or one the task made (MPI_Comm_create_errhandler).
    MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
};

// A handler from MPI_Comm_create_errhandler. Counted like MPI's: the handle the user holds,
// each communicator it is set on and each handle MPI_Comm_get_errhandler gave out; freed at 0.
struct UserErrhandler {
    MPI_Comm_errhandler_function* function;
    int references;
};

}  // namespace bamboo
