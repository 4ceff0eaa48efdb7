// Fortran I/O units are the process's: one libgfortran serves every task's copy of the
// program, so two tasks that open the same unit number share one connection, its file and
// its position, where two MPI processes would each have their own (a file every rank reads
// from its start, a file per rank on one unit number). libgfortran's OPEN and CLOSE pass
// through here first, to say so when a task opens a unit another task of the process holds.
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>

#include "binding.hpp"

namespace {

// The head of every libgfortran I/O statement's parameter block (its st_parameter_common).
struct StatementHead {
    std::int32_t flags;
    std::int32_t unit;
    const char* source_file;  // of the statement
    std::int32_t line;
};

using Statement = void (*)(void*);

// libgfortran's own entry point: its library came with the first task's copy of the program.
Statement libgfortran(const char* name) {
    void* library = dlopen("libgfortran.so.5", RTLD_NOW | RTLD_NOLOAD);
    void* found = library ? dlsym(library, name) : nullptr;
    if (!found) {
        std::fprintf(stderr, "bamboo: cannot find libgfortran's %s: %s\n", name, dlerror());
        bamboo_abort(MPI_COMM_WORLD, 1);
    }
    return reinterpret_cast<Statement>(found);
}

// Which task holds a unit: its rank once its MPI runs (an OPEN before MPI_Init, of the few
// programs that have one, is not told from another task's).
struct Holder {
    int vrank;  // -1 before the task's MPI_Init
    bool same_task(const Holder& other) const { return vrank < 0 || other.vrank < 0 || vrank == other.vrank; }
};

std::mutex mutex;
std::map<std::int32_t, Holder> holders;  // units opened by some task, by number

int running_vrank() {
    int initialized = 0, rank = -1;
    bamboo_initialized(&initialized);
    if (initialized) bamboo_comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

std::string task_name(int vrank) { return vrank < 0 ? std::string("a task") : "task vrank " + std::to_string(vrank); }

// Units 0, 5 and 6 are preconnected to the process's standard streams, as a process's are;
// NEWUNIT= numbers are negative, unique in the process already.
bool shared_by_design(std::int32_t unit) { return unit < 0 || unit == 0 || unit == 5 || unit == 6; }

}  // namespace

extern "C" {

void _gfortran_st_open(void* statement) {
    static const Statement open = libgfortran("_gfortran_st_open");
    auto* head = static_cast<StatementHead*>(statement);
    if (!shared_by_design(head->unit)) {
        Holder me{running_vrank()};
        std::lock_guard<std::mutex> lock(mutex);
        auto [held, fresh] = holders.emplace(head->unit, me);
        if (!fresh && !held->second.same_task(me)) {
            std::fprintf(stderr,
                         "bamboo: warning: %s opens Fortran unit %d at %s:%d, which %s has open: the tasks of a "
                         "process share its Fortran units, and with them the file and its position "
                         "(docs/fortran.md)\n",
                         task_name(me.vrank).c_str(), head->unit, head->source_file, head->line,
                         task_name(held->second.vrank).c_str());
            held->second = me;
        }
    }
    open(statement);
}

void _gfortran_st_close(void* statement) {
    static const Statement close = libgfortran("_gfortran_st_close");
    auto* head = static_cast<StatementHead*>(statement);
    {
        std::lock_guard<std::mutex> lock(mutex);
        holders.erase(head->unit);
    }
    close(statement);
}

}  // extern "C"
