// Error handlers: which one a failed check goes to, and the calls that set, get, make and
// free them. Handlers belong to the task (a rank is a process to MPI) and to each of its
// communicators, files and windows; a new communicator inherits its parent's, a new file
// MPI_FILE_NULL's, a new window gets MPI_ERRORS_ARE_FATAL.
#include "mpi/errhandlers.hpp"

#include <mpi.h>

#include <string>

#include "bamboo.h"
#include "mpi/api.hpp"
#include "mpi/files.hpp"
#include "mpi/windows.hpp"
#include "util/errors.hpp"
#include "util/mpi_guard.hpp"

namespace bamboo {
namespace {

bool predefined(MPI_Errhandler handler) {
#ifdef MPI_ERRORS_ABORT  // MPI-4's (MPICH has it): under Bamboo it ends the job as FATAL does
    if (handler == MPI_ERRORS_ABORT) return true;
#endif
    return handler == MPI_ERRORS_ARE_FATAL || handler == MPI_ERRORS_RETURN;
}

enum class HandlerFor { any, communicators, files, windows };

void check_errhandler(Rank& self, MPI_Errhandler handler, HandlerFor use, const char* call, bamboo_site at) {
    if (predefined(handler)) return;
    const UserErrhandler* user = self.errhandlers.find(handler);
    if (!user)
        call_error(MPI_ERR_ARG, self.vrank(), call, at,
                   "invalid error handler (freed, or not made by this task's MPI calls)");
    if (use == HandlerFor::communicators && !user->function)
        call_error(MPI_ERR_ARG, self.vrank(), call, at,
                   "the error handler is not for communicators (MPI_Comm_create_errhandler)");
    if (use == HandlerFor::files && !user->file_function)
        call_error(MPI_ERR_ARG, self.vrank(), call, at, "the error handler is not for files (MPI_File_create_errhandler)");
    if (use == HandlerFor::windows && !user->win_function)
        call_error(MPI_ERR_ARG, self.vrank(), call, at,
                   "the error handler is not for windows (MPI_Win_create_errhandler)");
}

// Puts `handler` in `*slot` (a communicator's or a file's), counting references.
void replace_errhandler(Rank& self, MPI_Errhandler* slot, MPI_Errhandler handler) {
    retain_errhandler(self, handler);
    release_errhandler(self, *slot);
    *slot = handler;
}

int set_errhandler(const char* call, bamboo_site at, MPI_Comm comm, MPI_Errhandler handler) {
    return checked_call(comm, [&]() -> int {
        Rank& self = calling_rank(call, at);
        CommLocal& local = comm_local(self, comm, call, at);
        check_errhandler(self, handler, HandlerFor::communicators, call, at);
        replace_errhandler(self, &local.errhandler, handler);
        return MPI_SUCCESS;
    });
}

int get_errhandler(const char* call, bamboo_site at, MPI_Comm comm, MPI_Errhandler* handler) {
    return checked_call(comm, [&]() -> int {
        Rank& self = calling_rank(call, at);
        check_not_null(self, handler, "the error handler pointer", call, at);
        *handler = comm_local(self, comm, call, at).errhandler;
        retain_errhandler(self, *handler);
        return MPI_SUCCESS;
    });
}

// `made` has the program's function (checked not null) for communicators or for files.
int create_errhandler(const char* call, bamboo_site at, const void* function, UserErrhandler made,
                      MPI_Errhandler* handler) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank(call, at);
        check_not_null(self, function, "the function", call, at);
        check_not_null(self, handler, "the error handler pointer", call, at);
        *handler = self.errhandlers.insert(made);
        return MPI_SUCCESS;
    });
}

// The error handler MPI_File_set_errhandler and MPI_File_get_errhandler reach: the file's, or
// for MPI_FILE_NULL the one files get when opened.
MPI_Errhandler& file_errhandler(Rank& self, MPI_File file, const char* call, bamboo_site at) {
    return file == MPI_FILE_NULL ? self.file_errhandler : file_of(self, file, call, at).errhandler;
}

// MPI_Comm_call_errhandler and MPI_File_call_errhandler: `object` checked by `check`, then
// its handler applied to `errorcode` as to a failed call's.
template <class Handle, class Check>
int call_errhandler(const char* call, bamboo_site at, Handle object, int errorcode, Check check) {
    Rank& self = calling_rank(call, at);
    int status = checked_call(object, [&]() -> int {
        check(self);
        return MPI_SUCCESS;
    });
    if (status != MPI_SUCCESS) return status;
    char text[MPI_MAX_ERROR_STRING] = "";
    int length = 0;
    {
        MpiGuard guard;
        MPI_Error_string(errorcode, text, &length);
    }
    raise_error(CallError{errorcode, self.vrank(), call, at,
                          "the program raised error code " + std::to_string(errorcode) + " (" + text + ")"},
                object);
    return MPI_SUCCESS;
}

}  // namespace

void retain_errhandler(Rank& self, MPI_Errhandler handler) {
    if (UserErrhandler* user = self.errhandlers.find(handler)) ++user->references;
}

void release_errhandler(Rank& self, MPI_Errhandler handler) {
    UserErrhandler* user = self.errhandlers.find(handler);
    if (user && --user->references == 0) self.errhandlers.erase(handler);
}

int raise_error(const CallError& error, MPI_Comm comm) {
    Rank* self = Rank::current();
    CommLocal* local = self ? find_comm_local(*self, comm) : nullptr;
    if (self && !local) {
        comm = MPI_COMM_WORLD;
        local = &self->world_local;
    }
    MPI_Errhandler handler = local ? local->errhandler : MPI_ERRORS_ARE_FATAL;
    if (handler == MPI_ERRORS_RETURN) return error.code;
    const UserErrhandler* user = self ? self->errhandlers.find(handler) : nullptr;
    if (!user) task_error(error.vrank, error.call, error.at, "%s", error.message.c_str());
    int code = error.code;
    user->function(&comm, &code);
    return error.code;
}

int raise_error(const CallError& error, MPI_File file) {
    Rank* self = Rank::current();
    if (!self) task_error(error.vrank, error.call, error.at, "%s", error.message.c_str());
    FileEntry* entry = self->files.find(file);
    MPI_Errhandler handler = entry ? entry->errhandler : self->file_errhandler;
    if (handler == MPI_ERRORS_RETURN) return error.code;
    const UserErrhandler* user = self->errhandlers.find(handler);
    if (!user) task_error(error.vrank, error.call, error.at, "%s", error.message.c_str());
    if (!entry) file = MPI_FILE_NULL;
    int code = error.code;
    user->file_function(&file, &code);
    return error.code;
}

int raise_error(const CallError& error, WindowHandle window) {
    Rank* self = Rank::current();
    WindowEntry* entry = self ? self->windows.find(window.win) : nullptr;
    if (!entry) return raise_error(error, MPI_COMM_WORLD);
    MPI_Errhandler handler = entry->local.errhandler;
    if (handler == MPI_ERRORS_RETURN) return error.code;
    const UserErrhandler* user = self->errhandlers.find(handler);
    if (!user) task_error(error.vrank, error.call, error.at, "%s", error.message.c_str());
    int code = error.code;
    MPI_Win win = window.win;
    user->win_function(&win, &code);
    return error.code;
}

}  // namespace bamboo

using namespace bamboo;

extern "C" {

int bamboo_comm_set_errhandler(bamboo_site at, MPI_Comm comm, MPI_Errhandler handler) {
    return set_errhandler("MPI_Comm_set_errhandler", at, comm, handler);
}

int bamboo_errhandler_set(bamboo_site at, MPI_Comm comm, MPI_Errhandler handler) {
    return set_errhandler("MPI_Errhandler_set", at, comm, handler);
}

int bamboo_comm_get_errhandler(bamboo_site at, MPI_Comm comm, MPI_Errhandler* handler) {
    return get_errhandler("MPI_Comm_get_errhandler", at, comm, handler);
}

int bamboo_errhandler_get(bamboo_site at, MPI_Comm comm, MPI_Errhandler* handler) {
    return get_errhandler("MPI_Errhandler_get", at, comm, handler);
}

int bamboo_comm_create_errhandler(bamboo_site at, MPI_Comm_errhandler_function* function,
                                  MPI_Errhandler* handler) {
    return create_errhandler("MPI_Comm_create_errhandler", at, reinterpret_cast<const void*>(function),
                             UserErrhandler{function, 1}, handler);
}

int bamboo_errhandler_create(bamboo_site at, MPI_Comm_errhandler_function* function,
                             MPI_Errhandler* handler) {
    return create_errhandler("MPI_Errhandler_create", at, reinterpret_cast<const void*>(function),
                             UserErrhandler{function, 1}, handler);
}

int bamboo_errhandler_free(bamboo_site at, MPI_Errhandler* handler) {
    const char* call = "MPI_Errhandler_free";
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank(call, at);
        check_not_null(self, handler, "the error handler pointer", call, at);
        check_errhandler(self, *handler, HandlerFor::any, call, at);
        release_errhandler(self, *handler);
        *handler = MPI_ERRHANDLER_NULL;
        return MPI_SUCCESS;
    });
}

int bamboo_comm_call_errhandler(bamboo_site at, MPI_Comm comm, int errorcode) {
    const char* call = "MPI_Comm_call_errhandler";
    return call_errhandler(call, at, comm, errorcode, [&](Rank& self) { comm_local(self, comm, call, at); });
}

int bamboo_file_set_errhandler(bamboo_site at, MPI_File file, MPI_Errhandler handler) {
    const char* call = "MPI_File_set_errhandler";
    return checked_call(file, [&]() -> int {
        Rank& self = calling_rank(call, at);
        MPI_Errhandler& slot = file_errhandler(self, file, call, at);
        check_errhandler(self, handler, HandlerFor::files, call, at);
        replace_errhandler(self, &slot, handler);
        return MPI_SUCCESS;
    });
}

int bamboo_file_get_errhandler(bamboo_site at, MPI_File file, MPI_Errhandler* handler) {
    const char* call = "MPI_File_get_errhandler";
    return checked_call(file, [&]() -> int {
        Rank& self = calling_rank(call, at);
        check_not_null(self, handler, "the error handler pointer", call, at);
        *handler = file_errhandler(self, file, call, at);
        retain_errhandler(self, *handler);
        return MPI_SUCCESS;
    });
}

int bamboo_file_create_errhandler(bamboo_site at, MPI_File_errhandler_function* function,
                                  MPI_Errhandler* handler) {
    return create_errhandler("MPI_File_create_errhandler", at, reinterpret_cast<const void*>(function),
                             UserErrhandler{nullptr, 1, function}, handler);
}

int bamboo_win_set_errhandler(bamboo_site at, MPI_Win win, MPI_Errhandler handler) {
    const char* call = "MPI_Win_set_errhandler";
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        WindowEntry& window = window_of(self, win, call, at);
        check_errhandler(self, handler, HandlerFor::windows, call, at);
        replace_errhandler(self, &window.local.errhandler, handler);
        return MPI_SUCCESS;
    });
}

int bamboo_win_get_errhandler(bamboo_site at, MPI_Win win, MPI_Errhandler* handler) {
    const char* call = "MPI_Win_get_errhandler";
    return checked_call(WindowHandle{win}, [&]() -> int {
        Rank& self = calling_rank(call, at);
        check_not_null(self, handler, "the error handler pointer", call, at);
        *handler = window_of(self, win, call, at).local.errhandler;
        retain_errhandler(self, *handler);
        return MPI_SUCCESS;
    });
}

int bamboo_win_create_errhandler(bamboo_site at, MPI_Win_errhandler_function* function, MPI_Errhandler* handler) {
    return create_errhandler("MPI_Win_create_errhandler", at, reinterpret_cast<const void*>(function),
                             UserErrhandler{nullptr, 1, nullptr, function}, handler);
}

int bamboo_win_call_errhandler(bamboo_site at, MPI_Win win, int errorcode) {
    const char* call = "MPI_Win_call_errhandler";
    return call_errhandler(call, at, WindowHandle{win}, errorcode,
                           [&](Rank& self) { window_of(self, win, call, at); });
}

int bamboo_file_call_errhandler(bamboo_site at, MPI_File file, int errorcode) {
    const char* call = "MPI_File_call_errhandler";
    return call_errhandler(call, at, file, errorcode, [&](Rank& self) { file_errhandler(self, file, call, at); });
}

}  // extern "C"
