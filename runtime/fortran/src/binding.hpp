// What every file of the Fortran MPI bindings shares: a Fortran handle is an integer, so each
// kind of handle has a table from integers to the runtime's C handles; statuses are integer
// arrays; MPI_IN_PLACE, MPI_BOTTOM and the ignored statuses are variables whose address is the
// sentinel.
//
// A binding is the C function a Fortran `CALL MPI_SEND(...)` links to: gfortran's name for it
// (lower case, one trailing underscore), every argument by reference, CHARACTER arguments'
// lengths appended by value, ierror last. It converts the handles and calls bamboo.h, the
// same entry points a translated C program calls.
#pragma once

#include <bamboo.h>

#include <cstddef>
#include <string>
#include <vector>

namespace bamboo::fortran {

using Fint = MPI_Fint;

// An MPI status in Fortran: the C MPI_Status's bytes, as many integers as cover them (the
// MPI_SOURCE, MPI_TAG and MPI_ERROR indexes of mpif.h point at the C fields).
constexpr int kStatusSize = static_cast<int>((sizeof(MPI_Status) + sizeof(Fint) - 1) / sizeof(Fint));

// Where a Fortran call stands is not known to the runtime (no translation names it).
constexpr bamboo_site kFortranSite{nullptr, 0};

// The C handle of a Fortran integer; an integer that names nothing gives the null handle, which
// the C entry point then rejects with MPI's error class for it (MPI_ERR_COMM, ...).
MPI_Comm comm(Fint handle);
MPI_Datatype datatype(Fint handle);
MPI_Op op(Fint handle);
MPI_Group group(Fint handle);
MPI_Errhandler errhandler(Fint handle);
MPI_Info info(Fint handle);
MPI_File file(Fint handle);
MPI_Win window(Fint handle);

// The Fortran integer of a handle the C interface returned: the null handle is 0, a
// predefined one its fixed number, any other a new entry.
Fint comm_handle(MPI_Comm comm);
Fint datatype_handle(MPI_Datatype type);
Fint op_handle(MPI_Op op);
// The integer of a datatype the program already has one for (a user reduction is handed the
// datatype it reduces), or a new one.
Fint known_datatype_handle(MPI_Datatype type);
Fint group_handle(MPI_Group group);
Fint errhandler_handle(MPI_Errhandler handler);
Fint info_handle(MPI_Info info);
Fint file_handle(MPI_File file);
Fint window_handle(MPI_Win window);

// After the C call freed the handle (it set it to null): the integer is free for reuse.
void forget_comm(Fint handle);
void forget_datatype(Fint handle);
void forget_group(Fint handle);
void forget_op(Fint handle);
void forget_errhandler(Fint handle);
void forget_info(Fint handle);
void forget_file(Fint handle);
void forget_window(Fint handle);

// Requests: the C requests of Fortran integers, and back after the C call, which set a
// completed nonpersistent request to MPI_REQUEST_NULL (its integer is then freed, and 0).
std::vector<MPI_Request> requests(const Fint* handles, int count);
void update_requests(Fint* handles, const std::vector<MPI_Request>& after, int count);
Fint request_handle(MPI_Request request);

// A buffer argument: MPI_IN_PLACE and MPI_BOTTOM are the addresses of their variables.
void* buffer(const void* argument);

// A status argument: the C status to fill, or MPI_STATUS_IGNORE for the Fortran sentinel;
// `store` copies it back into the Fortran array.
class StatusOut {
public:
    explicit StatusOut(Fint* fortran);
    MPI_Status* c() { return fortran_ ? &status_ : MPI_STATUS_IGNORE; }
    void store() const;

private:
    Fint* fortran_;
    MPI_Status status_{};
};

// Statuses of N requests (Waitall, Waitsome, ...): MPI_STATUSES_IGNORE for the sentinel.
class StatusesOut {
public:
    StatusesOut(Fint* fortran, int count);
    MPI_Status* c() { return fortran_ ? statuses_.data() : MPI_STATUSES_IGNORE; }
    void store(int count) const;

private:
    Fint* fortran_;
    std::vector<MPI_Status> statuses_;
};

void store_status(const MPI_Status& status, Fint* fortran);
MPI_Status load_status(const Fint* fortran);

// A Fortran CHARACTER result: the C string, blank-padded to the variable's length.
void store_string(const char* text, char* fortran, std::size_t length);

// A source file's name from a Fortran string, terminated and kept for the life of the process:
// the runtime keeps a call site's pointer (the report of a waiting task names it), and a
// Fortran string carries its length instead of a terminating NUL.
const char* kept_name(const char* name, std::size_t length);

// A Fortran CHARACTER argument as a C string: without the blanks that pad it, at either end
// (as MPI strips an info key's and value's).
std::string load_string(const char* fortran, std::size_t length);

}  // namespace bamboo::fortran

// The bindings of the sends and receives that return a request: nonblocking (MPI_Isend,
// MPI_Irecv, ...) and persistent (MPI_Send_init, MPI_Recv_init, ...) alike.
#define BAMBOO_FORTRAN_SEND_WITH_REQUEST(fortran_name, c_name)                                      \
    void fortran_name(const void* buf, const Fint* count, const Fint* type, const Fint* dest,    \
                      const Fint* tag, const Fint* c, Fint* request, Fint* ierr) {               \
        MPI_Request r = MPI_REQUEST_NULL;                                                         \
        *ierr = c_name(kFortranSite, buffer(buf), *count, datatype(*type), *dest, *tag, comm(*c), &r); \
        *request = request_handle(r);                                                             \
    }
#define BAMBOO_FORTRAN_RECEIVE_WITH_REQUEST(fortran_name, c_name)                                   \
    void fortran_name(void* buf, const Fint* count, const Fint* type, const Fint* source,         \
                      const Fint* tag, const Fint* c, Fint* request, Fint* ierr) {               \
        MPI_Request r = MPI_REQUEST_NULL;                                                         \
        *ierr = c_name(kFortranSite, buffer(buf), *count, datatype(*type), *source, *tag, comm(*c), &r); \
        *request = request_handle(r);                                                             \
    }

// The sentinel variables of mpif.h's COMMON blocks (gfortran's symbol names). The program
// links to these definitions, so their addresses are the same in every task's copy.
extern "C" {
extern MPI_Fint bamboo_fortran_status_ignore_[bamboo::fortran::kStatusSize];
extern MPI_Fint bamboo_fortran_statuses_ignore_[bamboo::fortran::kStatusSize];
extern MPI_Fint bamboo_fortran_in_place_;
extern MPI_Fint bamboo_fortran_bottom_;
}
