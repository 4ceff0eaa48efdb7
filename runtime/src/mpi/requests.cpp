// The life of a request as the entry points see it: mpi/requests.hpp.
#include "mpi/requests.hpp"

#include <mpi.h>

#include <cstring>
#include <string>

#include "core/worker.hpp"
#include "messaging/datatype.hpp"
#include "messaging/delivery.hpp"
#include "messaging/rank.hpp"
#include "mpi/api.hpp"
#include "util/mpi_guard.hpp"

namespace bamboo {

void set_empty_status(MPI_Status* status) { set_status(status, MPI_ANY_SOURCE, MPI_ANY_TAG, 0); }

void set_request_status(MPI_Status* status, const Request& r) {
    if (r.cancelled) {
        set_status(status, r.source, r.tag, 0);
        if (status == MPI_STATUS_IGNORE) return;
        MpiGuard guard;
        MPI_Status_set_cancelled(status, 1);
    } else if (r.kind != Request::Kind::receive && r.kind != Request::Kind::file) {
        set_empty_status(status);
    } else {
        set_status(status, r.source, r.tag, r.bytes);
    }
}

Request* find_request(Rank& self, MPI_Request handle, const char* call, bamboo_site at) {
    if (handle == MPI_REQUEST_NULL) return nullptr;
    Request* request = self.requests().find(handle);
    if (!request)
        call_error(MPI_ERR_REQUEST, self.vrank(), call, at,
                   "invalid request (not made by a nonblocking or persistent call of this task, or already freed)");
    return request;
}

Request* find_active_request(Rank& self, MPI_Request handle, const char* call, bamboo_site at) {
    Request* request = find_request(self, handle, call, at);
    return request && request->active ? request : nullptr;
}

void end_operation(Rank& self, Request& request) {
    if (request.lent == Request::Lent::until_bought_back) forget_lent(self, request);
    request.lent = Request::Lent::no;
    if (request.held_type != MPI_DATATYPE_NULL) release_datatype(request.held_type);
    request.held_type = MPI_DATATYPE_NULL;
}

int free_request(Rank& self, MPI_Request* handle, Request& request) {
    end_operation(self, request);
    if (request.persistent && request.persistent->held_type != MPI_DATATYPE_NULL)
        release_datatype(request.persistent->held_type);
    int code = MPI_SUCCESS;
    if (request.generalized) code = request.generalized->free(request.generalized->extra_state);
    self.requests().release(handle);
    return code;
}

CallError truncation_error(const Rank& self, const Request& r, int code, const char* call, bamboo_site at) {
    std::string message = describe_truncation(r);
    if (std::strcmp(r.call, call) != 0) {
        message += std::string(" of the ") + r.call;
        if (r.site.file) message += std::string(" at ") + r.site.file + ":" + std::to_string(r.site.line);
    }
    return CallError{code, self.vrank(), call, at, message};
}

void poll_again_later(Rank& self) {
    buy_back_lent_sends(self.routes(), self.worker(), /*all=*/false);
    self.worker().polled_in_vain();
    self.yield();
}

}  // namespace bamboo
