// A Fortran program's tasks, each with its own copy of the program.
//
// Fortran keeps a program's state where no translation of C globals reaches it: module
// variables, COMMON blocks, SAVE and initialized variables, and what gfortran makes static on
// its own (local arrays above -fmax-stack-var-size). bamboocc therefore links the user's
// Fortran (and the C beside it) into a shared object and embeds that object in the executable
// (bamboo_program_image); each task loads a copy of its own and runs that copy's main(), so
// that every variable of static storage is the task's, whatever declared it. The copies
// share the executable's symbols, looked up first: the MPI bindings, mpif.h's sentinels (one
// address in every copy) and the STOP statements below. SimGrid's SMPI privatizes simulated
// processes the same way (smpi/privatization:dlopen), as do AMPI's PIEglobals.
#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "binding.hpp"

extern "C" {
extern const unsigned char bamboo_program_image[];
extern const unsigned char bamboo_program_image_end[];
}

namespace {

[[noreturn]] void cannot_load(const char* why) {
    std::fprintf(stderr, "bamboo: cannot load a task's copy of the Fortran program: %s\n", why);
    bamboo_abort(MPI_COMM_WORLD, 1);
    __builtin_unreachable();
}

// The program's bytes in a file of its own (an anonymous memory file) for every copy: the
// dynamic loader keeps one copy per file, known by its name and inode. The descriptor stays
// open: a later copy reusing the number would have the name of this one, which the loader
// would take for this copy already loaded.
void* load_copy() {
    std::size_t size = static_cast<std::size_t>(bamboo_program_image_end - bamboo_program_image);
    int fd = memfd_create("bamboo-program", MFD_CLOEXEC);
    if (fd < 0) cannot_load(std::strerror(errno));
    for (std::size_t written = 0; written < size;) {
        ssize_t n = write(fd, bamboo_program_image + written, size - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) cannot_load(std::strerror(errno));
        written += static_cast<std::size_t>(n);
    }
    char path[64];
    std::snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    void* copy = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!copy) cannot_load(dlerror());
    return copy;
}

}  // namespace

extern "C" int bamboo_main(int argc, char** argv) {
    void* copy = load_copy();
    using Main = int (*)(int, char**);
    auto entry = reinterpret_cast<Main>(dlsym(copy, "main"));
    if (!entry) cannot_load("it has no main program");
    return entry(argc, argv);
}

// STOP and ERROR STOP end the task, as exit() does in a translated C program (libgfortran's
// would end the process and every task in it). Same messages as libgfortran's.
extern "C" {

void _gfortran_stop_numeric(int code, bool quiet) {
    if (!quiet) std::fprintf(stderr, "STOP %d\n", code);
    bamboo_exit(code);
}

void _gfortran_stop_string(const char* text, std::size_t length, bool quiet) {
    if (text && !quiet) std::fprintf(stderr, "STOP %.*s\n", static_cast<int>(length), text);
    bamboo_exit(0);
}

void _gfortran_error_stop_numeric(int code, bool quiet) {
    if (!quiet) std::fprintf(stderr, "ERROR STOP %d\n", code);
    bamboo_exit(code);
}

void _gfortran_error_stop_string(const char* text, std::size_t length, bool quiet) {
    if (!quiet) std::fprintf(stderr, "ERROR STOP %.*s\n", static_cast<int>(length), text ? text : "");
    bamboo_exit(1);
}

}  // extern "C"
