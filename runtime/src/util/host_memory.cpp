#include "util/host_memory.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

namespace bamboo {
namespace {

// The blocks this process has mapped, by name, so that its tasks share one mapping.
std::mutex directory_mutex;
std::map<std::string, std::weak_ptr<HostMemory>>& directory() {
    static std::map<std::string, std::weak_ptr<HostMemory>> blocks;
    return blocks;
}

std::string next_name() {
    static std::atomic<unsigned> made{0};
    return "/bamboo-" + std::to_string(getpid()) + "-" + std::to_string(made.fetch_add(1));
}

std::string system_error(const char* what, const std::string& name) {
    return std::string(what) + " " + name + ": " + std::strerror(errno);
}

// Maps the shared memory object `fd` (closed here) of `bytes`; nullptr on failure.
char* map_object(int fd, std::size_t bytes) {
    void* data = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    int saved = errno;
    close(fd);
    errno = saved;
    return data == MAP_FAILED ? nullptr : static_cast<char*>(data);
}

}  // namespace

HostMemory::HostMemory(std::string name, char* data, std::size_t mapped, bool shared)
    : name_(std::move(name)), data_(data), mapped_(mapped), shared_(shared), linked_(shared) {}

HostMemory::~HostMemory() {
    {
        std::lock_guard<std::mutex> lock(directory_mutex);
        auto found = directory().find(name_);
        if (found != directory().end() && found->second.expired()) directory().erase(found);
    }
    if (shared_) munmap(data_, mapped_);
    else std::free(data_);
    unlink();
}

std::shared_ptr<HostMemory> HostMemory::create(std::size_t bytes, bool other_processes, std::string* error) {
    const std::size_t mapped = bytes > 0 ? bytes : 1;
    std::shared_ptr<HostMemory> block;
    if (!other_processes) {
        char* data = static_cast<char*>(std::calloc(mapped, 1));
        if (!data) {
            *error = "cannot allocate " + std::to_string(mapped) + " bytes";
            return nullptr;
        }
        block.reset(new HostMemory(next_name(), data, mapped, false));
    } else {
        // A name another process's runtime (under SimGrid, another simulated process of
        // this one) has taken already is passed over.
        std::string name;
        int fd = -1;
        do {
            name = next_name();
            fd = shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
        } while (fd < 0 && errno == EEXIST);
        if (fd < 0) {
            *error = system_error("cannot create the shared memory object", name);
            return nullptr;
        }
        // Zero-filled, as a new object's pages are.
        if (ftruncate(fd, static_cast<off_t>(mapped)) != 0) {
            *error = system_error("cannot size the shared memory object", name) + " (" + std::to_string(mapped) +
                     " bytes; is /dev/shm large enough?)";
            close(fd);
            shm_unlink(name.c_str());
            return nullptr;
        }
        char* data = map_object(fd, mapped);
        if (!data) {
            *error = system_error("cannot map the shared memory object", name);
            shm_unlink(name.c_str());
            return nullptr;
        }
        block.reset(new HostMemory(name, data, mapped, true));
    }
    std::lock_guard<std::mutex> lock(directory_mutex);
    directory()[block->name_] = block;
    return block;
}

std::shared_ptr<HostMemory> HostMemory::open(const std::string& name, std::size_t bytes, std::string* error) {
    std::lock_guard<std::mutex> lock(directory_mutex);
    if (std::shared_ptr<HostMemory> mapped = directory()[name].lock()) return mapped;
    const std::size_t length = bytes > 0 ? bytes : 1;
    int fd = shm_open(name.c_str(), O_RDWR, 0600);
    char* data = fd < 0 ? nullptr : map_object(fd, length);
    if (!data) {
        *error = system_error(fd < 0 ? "cannot open the shared memory object" : "cannot map the shared memory object",
                              name);
        directory().erase(name);
        return nullptr;
    }
    std::shared_ptr<HostMemory> block(new HostMemory(name, data, length, true));
    block->linked_ = false;  // its maker unlinks it
    directory()[name] = block;
    return block;
}

void HostMemory::unlink() {
    if (!linked_) return;
    shm_unlink(name_.c_str());
    linked_ = false;
}

}  // namespace bamboo
