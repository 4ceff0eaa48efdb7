#include "util/mpi_guard.hpp"

namespace bamboo {
namespace {
std::mutex mpi_mutex;
bool serialized = false;  // set once before any runtime thread starts
}  // namespace

void set_mpi_serialized(bool value) { serialized = value; }

MpiGuard::MpiGuard() : locked_(serialized) {
    if (locked_) mpi_mutex.lock();
}

MpiGuard::~MpiGuard() {
    if (locked_) mpi_mutex.unlock();
}

}  // namespace bamboo
