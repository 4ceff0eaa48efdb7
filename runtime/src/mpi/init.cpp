// The calls that start and end a task's MPI (MPI_Init, MPI_Finalize and their queries), its
// exit and abort, and MPI_Wtime.
#include <mpi.h>

#include <cstdlib>

#include "bamboo.h"
#include "messaging/rank.hpp"
#include "mpi/api.hpp"
#include "mpi/attributes.hpp"
#include "util/errors.hpp"
#include "util/mpi_guard.hpp"
#include "util/simulation.hpp"

using namespace bamboo;

extern "C" {

int bamboo_init(int*, char***) {
    Rank* self = Rank::current();
    if (!self) fatal("MPI_Init called outside a task");
    if (self->initialized) task_error(self->vrank(), "MPI_Init", kNoSite, "MPI is already initialized");
    self->initialized = true;
    return MPI_SUCCESS;
}

int bamboo_init_thread(int* argc, char*** argv, int required, int* provided) {
    bamboo_init(argc, argv);
    // A task's MPI calls must come from the task itself, not from threads it starts.
    Rank::current()->thread_level = required < MPI_THREAD_FUNNELED ? required : MPI_THREAD_FUNNELED;
    if (provided) *provided = Rank::current()->thread_level;
    return MPI_SUCCESS;
}

int bamboo_query_thread(int* provided) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Query_thread", kNoSite);
        check_not_null(self, provided, "the level pointer", "MPI_Query_thread", kNoSite);
        *provided = self.thread_level;
        return MPI_SUCCESS;
    });
}

int bamboo_is_thread_main(int* flag) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Is_thread_main", kNoSite);
        check_not_null(self, flag, "the flag pointer", "MPI_Is_thread_main", kNoSite);
        *flag = 1;  // MPI calls come from the task itself (MPI_THREAD_FUNNELED at most)
        return MPI_SUCCESS;
    });
}

int bamboo_initialized(int* flag) {
    Rank* self = Rank::current();
    *flag = self && self->initialized;
    return MPI_SUCCESS;
}

int bamboo_finalize(void) {
    Rank& self = calling_rank("MPI_Finalize", kNoSite);
    // MPI deletes MPI_COMM_SELF's attributes first, as if the communicator were freed.
    int code = checked_call(MPI_COMM_SELF, [&]() -> int {
        delete_attributes(self, MPI_COMM_SELF, self.self_local, "MPI_Finalize", kNoSite);
        return MPI_SUCCESS;
    });
    self.finalized = true;
    return code;
}

int bamboo_finalized(int* flag) {
    Rank* self = Rank::current();
    *flag = self && self->finalized;
    return MPI_SUCCESS;
}

void bamboo_exit(int status) {
    Rank* self = Rank::current();
    if (!self) std::exit(status);  // outside tasks (an atexit handler, say) it is the process's
    self->exit(status);
}

int bamboo_abort(MPI_Comm, int errorcode) {
    Rank* self = Rank::current();
    warn("task vrank %d called MPI_Abort with error code %d", self ? self->vrank() : -1, errorcode);
    abort_job(errorcode, Stop::mpi_abort);
}

double bamboo_wtime(void) {
    settle_charges();
    MpiGuard guard;
    return MPI_Wtime();
}

double bamboo_wtick(void) {
    MpiGuard guard;
    return MPI_Wtick();
}

}  // extern "C"
