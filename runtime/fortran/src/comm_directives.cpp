// What bamboofort writes for seed 003's communication directives in Fortran, MPI two-sided
// target (translator/bamboo/fortran/comm_directives.py): each `!$comm_p2p` posts its
// transfer on its line, the receive first, on the directives' communicator (where no user
// receive can take its message), and its region completes them all at its end.
//
// A transfer is the buffers' bytes: bamboofort computes their number from the Fortran
// declarations (storage_size), and a message between tasks of one machine needs no
// conversion.
#include "binding.hpp"

using namespace bamboo::fortran;

namespace {

// The running task's transfers not yet completed, among its privatized globals (one block per
// task, bamboo.h), registered before any task starts. A group that would hold more completes
// what it holds first: correct, with less overlap.
constexpr int kMostPending = 256;

struct Pending {
    int count;
    MPI_Request requests[kMostPending];
};

const Pending kNonePending{};
std::size_t pending_offset;
const std::size_t kRegistered = bamboo_register_global(
    bamboo_global{"bamboo_fortran_comm_directives", &pending_offset, &kNonePending, sizeof(Pending), alignof(Pending)});

Pending& pending() { return *reinterpret_cast<Pending*>(bamboo_running_globals() + pending_offset); }

void complete(const bamboo_site& at) {
    Pending& mine = pending();
    if (mine.count) bamboo_waitall(at, mine.count, mine.requests, MPI_STATUSES_IGNORE);
    mine.count = 0;
}

}  // namespace

extern "C" {

// `sends` and `receives` are the instance's sendwhen and receivewhen (LOGICALs).
void bamboo_cd_transfer_(const void* sbuf, void* rbuf, const Fint* bytes, const Fint* sender, const Fint* receiver,
                         const Fint* sends, const Fint* receives, const Fint* tag, const char* file, const Fint* line,
                         std::size_t file_length) {
    (void)kRegistered;
    bamboo_site at{kept_name(file, file_length), *line};
    Pending& mine = pending();
    if (mine.count + 2 > kMostPending) complete(at);
    MPI_Comm directives = bamboo_comm_world(at.file, at.line);
    if (*receives)
        bamboo_irecv(at, rbuf, *bytes, MPI_BYTE, *sender, *tag, directives, &mine.requests[mine.count++]);
    if (*sends)
        bamboo_isend(at, sbuf, *bytes, MPI_BYTE, *receiver, *tag, directives, &mine.requests[mine.count++]);
}

// The end of a region, or an instance whose buffers an earlier one of its region uses.
void bamboo_cd_complete_(const char* file, const Fint* line, std::size_t file_length) {
    complete(bamboo_site{kept_name(file, file_length), *line});
}

}  // extern "C"
