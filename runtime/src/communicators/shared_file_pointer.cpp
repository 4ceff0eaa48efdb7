#include "communicators/shared_file_pointer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

namespace bamboo {

SharedFilePointer::SharedFilePointer(std::string record) : record_(std::move(record)) {}

SharedFilePointer::~SharedFilePointer() {
    if (fd_ >= 0) close(fd_);
}

template <class Step>
bool SharedFilePointer::locked(bool create, Step step) {
    std::lock_guard<std::mutex> turn(turn_);
    if (fd_ < 0) fd_ = open(record_.c_str(), O_RDWR | (create ? O_CREAT : 0), 0600);
    if (fd_ < 0 && errno == ENOENT && !create) {
        // No process has moved the pointer since the open: it is 0, and stays so.
        MPI_Offset zero = 0;
        step(&zero);
        return true;
    }
    if (fd_ < 0) return false;
    struct flock lock {};
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    lock.l_len = sizeof(MPI_Offset);
    int locked;
    do {
        locked = fcntl(fd_, F_SETLKW, &lock);
    } while (locked != 0 && errno == EINTR);
    if (locked != 0) return false;
    // A record not written yet (just made) reads short: the pointer is still 0.
    MPI_Offset value = 0;
    bool done = pread(fd_, &value, sizeof value, 0) >= 0;
    MPI_Offset next = value;
    step(&next);
    if (done && next != value) done = pwrite(fd_, &next, sizeof next, 0) == static_cast<ssize_t>(sizeof next);
    int saved = errno;
    lock.l_type = F_UNLCK;
    fcntl(fd_, F_SETLK, &lock);
    errno = saved;
    return done;
}

bool SharedFilePointer::fetch_add(MPI_Offset amount, MPI_Offset* before) {
    if (record_.empty()) {
        *before = position_.fetch_add(amount);
        return true;
    }
    return locked(true, [&](MPI_Offset* value) {
        *before = *value;
        *value += amount;
    });
}

bool SharedFilePointer::load(MPI_Offset* position) {
    if (record_.empty()) {
        *position = position_.load();
        return true;
    }
    return locked(false, [&](MPI_Offset* value) { *position = *value; });
}

bool SharedFilePointer::store(MPI_Offset position) {
    if (record_.empty()) {
        position_.store(position);
        return true;
    }
    return locked(position != 0, [&](MPI_Offset* value) { *value = position; });
}

}  // namespace bamboo
