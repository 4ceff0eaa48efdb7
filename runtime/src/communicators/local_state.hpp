// What each task keeps of its communicators beside their members: MPI makes names, error
// handlers and cached attributes local to a process, so under Bamboo to a task (a rank).
// Error handlers and attribute keys the task creates are its own too.
#pragma once

#include <mpi.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace bamboo {

struct CommLocal {
    CommLocal() = default;
    explicit CommLocal(std::string name, bool predefined_attributes = false)
        : name(std::move(name)), predefined_attributes(predefined_attributes) {}

    std::string name;
    // MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN, or one the task made (MPI_Comm_create_errhandler).
    MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
    std::map<int, void*> attributes;  // by keyval
    std::vector<int> set_order;       // their keyvals, in the order they were set
    // MPI_TAG_UB and the other predefined attributes: MPI_COMM_WORLD's, kept by duplicates.
    bool predefined_attributes = false;
    // The hints of MPI_Comm_set_info (a duplicate the task owns), or MPI_INFO_NULL.
    MPI_Info info = MPI_INFO_NULL;
};

// A handler from MPI_Comm_create_errhandler, or from MPI_File_create_errhandler for files
// (`function` null, `file_function` set). Counted like MPI's: the handle the user holds, each
// communicator or file it is set on and each handle a get_errhandler call gave out; freed at 0.
struct UserErrhandler {
    MPI_Comm_errhandler_function* function;
    int references;
    MPI_File_errhandler_function* file_function = nullptr;
    MPI_Win_errhandler_function* win_function = nullptr;
};

// A key from MPI_Comm_create_keyval. A freed key stays known until no attribute uses it
// (MPI still runs its delete callback then), but no call may name it any more.
struct Keyval {
    MPI_Comm_copy_attr_function* copy;
    MPI_Comm_delete_attr_function* remove;
    void* extra_state;
    bool freed = false;
};

// A window a task made (MPI_Win_create): its part of the memory and its own name and
// attributes. Keys of window attributes are apart from those of communicators, as in MPI.
struct WindowLocal {
    void* base = nullptr;
    MPI_Aint size = 0;
    int disp_unit = 1;
    std::string name;
    std::map<int, void*> attributes;  // by keyval
    // What MPI_Win_get_attr gives pointers to for the predefined keys.
    int flavor = MPI_WIN_FLAVOR_CREATE;
    int model = MPI_WIN_UNIFIED;
    // What a failed call on the window applies (MPI_Win_set_errhandler): windows start with
    // MPI_ERRORS_ARE_FATAL, as MPI has it.
    MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
};

struct WinKeyval {
    MPI_Win_copy_attr_function* copy;
    MPI_Win_delete_attr_function* remove;
    void* extra_state;
    bool freed = false;
};

// User keyvals are numbered from here: above Open MPI's predefined keys (a small enum) and
// below MPICH's (0x64400000 and up), and never MPI_KEYVAL_INVALID.
constexpr int kFirstUserKeyval = 1 << 16;

}  // namespace bamboo
