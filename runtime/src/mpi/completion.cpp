// Completing requests: MPI_Wait, MPI_Test and their all, any and some forms, and
// MPI_Request_get_status.
#include <mpi.h>

#include <optional>
#include <vector>

#include "bamboo.h"
#include "messaging/rank.hpp"
#include "mpi/api.hpp"
#include "mpi/requests.hpp"
#include "util/mpi_guard.hpp"

namespace bamboo {
namespace {

// A generalized request's status, as the program's query function tells it (MPI calls the
// function also when the caller ignores the status); returns the function's code.
int query_generalized(const Request& r, MPI_Status* status) {
    MPI_Status ignored;
    return r.generalized->query(r.generalized->extra_state, status == MPI_STATUS_IGNORE ? &ignored : status);
}

MPI_Status* status_at(MPI_Status statuses[], int i) {
    return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
}

std::vector<Request*> find_requests(Rank& self, int count, MPI_Request handles[],
                                    const char* call, bamboo_site at) {
    if (count < 0) call_error(MPI_ERR_COUNT, self.vrank(), call, at, "the count %d is negative", count);
    if (count > 0 && !handles) call_error(MPI_ERR_ARG, self.vrank(), call, at, "the request array is NULL");
    std::vector<Request*> found(count);
    for (int i = 0; i < count; ++i) found[i] = find_active_request(self, handles[i], call, at);
    return found;
}

bool any_active(const std::vector<Request*>& requests) {
    for (const Request* r : requests)
        if (r) return true;
    return false;
}

// Reports a completed request's status and frees it, except a persistent request, which
// becomes inactive and keeps its handle for the next MPI_Start. Returns the code of a
// generalized request's query function, else of its free function.
int retire(Rank& self, MPI_Request* handle, Request& request, MPI_Status* status) {
    if (request.generalized) {
        int queried = query_generalized(request, status);
        int freed = free_request(self, handle, request);
        return queried != MPI_SUCCESS ? queried : freed;
    }
    set_request_status(status, request);
    if (!request.persistent) return free_request(self, handle, request);
    end_operation(self, request);
    request.active = false;
    return MPI_SUCCESS;
}

// MPI_Wait, MPI_Test, MPI_Waitany and MPI_Testany: retire(), then a truncated receive's
// MPI_ERR_TRUNCATE for the error handler of its communicator.
int retire_one(Rank& self, MPI_Request* handle, Request& request, MPI_Status* status, const char* call,
               bamboo_site at) {
    if (!request.truncated()) return retire(self, handle, request, status);
    CallError error = truncation_error(self, request, MPI_ERR_TRUNCATE, call, at);
    MPI_Comm comm = request.errors_to;
    retire(self, handle, request, status);
    return raise_error(error, comm);
}

// What MPI_Waitall, MPI_Testall, MPI_Waitsome and MPI_Testsome return: MPI_ERR_IN_STATUS when a
// request failed, its code in its status (MPI_SUCCESS in the others'). A generalized request's
// failed callback is returned without the error handler; a truncated receive
// (MPI_ERR_TRUNCATE) goes to the error handler of its communicator, the first one's if several.
class Completions {
public:
    Completions(Rank& self, const char* call, bamboo_site at) : self_(self), call_(call), at_(at) {}

    void retire(MPI_Request* handle, Request& request, MPI_Status* status) {
        int code;
        if (request.truncated()) {
            if (!truncation_) {
                truncation_ = truncation_error(self_, request, MPI_ERR_IN_STATUS, call_, at_);
                errors_to_ = request.errors_to;
            }
            bamboo::retire(self_, handle, request, status);
            code = MPI_ERR_TRUNCATE;
        } else {
            code = bamboo::retire(self_, handle, request, status);
        }
        if (code == MPI_SUCCESS) return;
        if (status != MPI_STATUS_IGNORE) status->MPI_ERROR = code;
        result_ = MPI_ERR_IN_STATUS;
    }

    int result() const { return truncation_ ? raise_error(*truncation_, errors_to_) : result_; }

private:
    Rank& self_;
    const char* call_;
    bamboo_site at_;
    int result_ = MPI_SUCCESS;
    std::optional<CallError> truncation_;
    MPI_Comm errors_to_ = MPI_COMM_NULL;
};

// MPI_Waitsome and MPI_Testsome: retires the completed requests among `found` (the
// program's `handles`), telling their places in `indices`; returns how many.
int retire_completed(Completions& completions, const std::vector<Request*>& found, MPI_Request handles[],
                     int indices[], MPI_Status statuses[]) {
    int done = 0;
    for (std::size_t i = 0; i < found.size(); ++i) {
        if (!found[i] || !found[i]->complete.load()) continue;
        indices[done] = static_cast<int>(i);
        completions.retire(&handles[i], *found[i], status_at(statuses, done));
        ++done;
    }
    return done;
}

}  // namespace
}  // namespace bamboo

using namespace bamboo;

extern "C" {

int bamboo_wait(bamboo_site at, MPI_Request* request, MPI_Status* status) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Wait", at);
        check_not_null(self, request, "the request pointer", "MPI_Wait", at);
        Request* r = find_active_request(self, *request, "MPI_Wait", at);
        if (!r) {
            set_empty_status(status);
            return MPI_SUCCESS;
        }
        self.wait_for(*r, "MPI_Wait", at);
        return retire_one(self, request, *r, status, "MPI_Wait", at);
    });
}

int bamboo_waitall(bamboo_site at, int count, MPI_Request requests[], MPI_Status statuses[]) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Waitall", at);
        std::vector<Request*> found = find_requests(self, count, requests, "MPI_Waitall", at);
        WaitInfo info;
        info.call = "MPI_Waitall";
        info.site = at;
        info.handles = requests;
        info.handle_count = count;
        self.wait_until(info, [&found] {
            for (const Request* r : found)
                if (r && !r->complete.load()) return false;
            return true;
        });
        Completions completions(self, "MPI_Waitall", at);
        for (int i = 0; i < count; ++i) {
            if (found[i]) completions.retire(&requests[i], *found[i], status_at(statuses, i));
            else set_empty_status(status_at(statuses, i));
        }
        return completions.result();
    });
}

int bamboo_waitany(bamboo_site at, int count, MPI_Request requests[], int* index,
                   MPI_Status* status) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Waitany", at);
        std::vector<Request*> found = find_requests(self, count, requests, "MPI_Waitany", at);
        int completed = MPI_UNDEFINED;
        if (!any_active(found)) {
            *index = MPI_UNDEFINED;
            set_empty_status(status);
            return MPI_SUCCESS;
        }
        WaitInfo info;
        info.call = "MPI_Waitany";
        info.site = at;
        info.handles = requests;
        info.handle_count = count;
        self.wait_until(info, [&] {
            for (int i = 0; i < count; ++i) {
                if (found[i] && found[i]->complete.load()) {
                    completed = i;
                    return true;
                }
            }
            return false;
        });
        *index = completed;
        return retire_one(self, &requests[completed], *found[completed], status, "MPI_Waitany", at);
    });
}

int bamboo_test(bamboo_site at, MPI_Request* request, int* flag, MPI_Status* status) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Test", at);
        check_not_null(self, request, "the request pointer", "MPI_Test", at);
        Request* r = find_active_request(self, *request, "MPI_Test", at);
        if (!r) {
            *flag = 1;
            set_empty_status(status);
            return MPI_SUCCESS;
        }
        if (r->complete.load()) {
            *flag = 1;
            return retire_one(self, request, *r, status, "MPI_Test", at);
        }
        *flag = 0;
        poll_again_later(self);
        return MPI_SUCCESS;
    });
}

int bamboo_testall(bamboo_site at, int count, MPI_Request requests[], int* flag,
                   MPI_Status statuses[]) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Testall", at);
        std::vector<Request*> found = find_requests(self, count, requests, "MPI_Testall", at);
        for (const Request* r : found) {
            if (r && !r->complete.load()) {
                *flag = 0;
                poll_again_later(self);
                return MPI_SUCCESS;
            }
        }
        *flag = 1;
        Completions completions(self, "MPI_Testall", at);
        for (int i = 0; i < count; ++i) {
            if (found[i]) completions.retire(&requests[i], *found[i], status_at(statuses, i));
            else set_empty_status(status_at(statuses, i));
        }
        return completions.result();
    });
}

int bamboo_testany(bamboo_site at, int count, MPI_Request requests[], int* index, int* flag,
                   MPI_Status* status) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Testany", at);
        std::vector<Request*> found = find_requests(self, count, requests, "MPI_Testany", at);
        *index = MPI_UNDEFINED;
        if (!any_active(found)) {
            *flag = 1;
            set_empty_status(status);
            return MPI_SUCCESS;
        }
        for (int i = 0; i < count; ++i) {
            if (found[i] && found[i]->complete.load()) {
                *flag = 1;
                *index = i;
                return retire_one(self, &requests[i], *found[i], status, "MPI_Testany", at);
            }
        }
        *flag = 0;
        poll_again_later(self);
        return MPI_SUCCESS;
    });
}

int bamboo_waitsome(bamboo_site at, int incount, MPI_Request requests[], int* outcount, int indices[],
                    MPI_Status statuses[]) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Waitsome", at);
        std::vector<Request*> found = find_requests(self, incount, requests, "MPI_Waitsome", at);
        if (!any_active(found)) {
            *outcount = MPI_UNDEFINED;
            return MPI_SUCCESS;
        }
        WaitInfo info;
        info.call = "MPI_Waitsome";
        info.site = at;
        info.handles = requests;
        info.handle_count = incount;
        self.wait_until(info, [&found] {
            for (const Request* r : found)
                if (r && r->complete.load()) return true;
            return false;
        });
        Completions completions(self, "MPI_Waitsome", at);
        *outcount = retire_completed(completions, found, requests, indices, statuses);
        return completions.result();
    });
}

int bamboo_testsome(bamboo_site at, int incount, MPI_Request requests[], int* outcount, int indices[],
                    MPI_Status statuses[]) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Testsome", at);
        std::vector<Request*> found = find_requests(self, incount, requests, "MPI_Testsome", at);
        if (!any_active(found)) {
            *outcount = MPI_UNDEFINED;
            return MPI_SUCCESS;
        }
        Completions completions(self, "MPI_Testsome", at);
        *outcount = retire_completed(completions, found, requests, indices, statuses);
        if (*outcount == 0) poll_again_later(self);
        return completions.result();
    });
}

int bamboo_request_get_status(bamboo_site at, MPI_Request request, int* flag, MPI_Status* status) {
    return checked_call(MPI_COMM_WORLD, [&]() -> int {
        Rank& self = calling_rank("MPI_Request_get_status", at);
        Request* r = find_active_request(self, request, "MPI_Request_get_status", at);
        if (!r) {
            *flag = 1;
            set_empty_status(status);
        } else if (r->complete.load()) {
            *flag = 1;
            // The request lives on: a wait or test retires it.
            if (r->generalized) return query_generalized(*r, status);
            set_request_status(status, *r);
        } else {
            *flag = 0;
            poll_again_later(self);
        }
        return MPI_SUCCESS;
    });
}

}  // extern "C"
