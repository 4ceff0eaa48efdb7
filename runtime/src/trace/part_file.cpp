#include "trace/part_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <tuple>

namespace bamboo::trace {
namespace {

constexpr char kMagic[8] = {'B', 'A', 'M', 'B', 'O', 'O', 'T', 'P'};
constexpr std::uint32_t kVersion = 1;

// Set by prepare_part, read by the writers: fixed-size, so that a signal handler needs no
// allocation to write the part.
// Each writer writes a file of its own and renames it to the part when it is whole, so that a
// writer interrupted by another (a signal handler's) never leaves a mixed file behind.
char path_of_part[4096];
char path_while_stopping[4096 + 8];  // ...part.stop: the writers of a process that is ending
char path_while_idle[4096 + 8];      // ...part.idle: the one of a process that has been idle
char note_if_stopped[8192];
std::size_t note_size = 0;
PartHeader prepared{};
std::atomic<bool> ready{false};
std::atomic<bool> written{false};
std::uint64_t idle_part_records = 0;  // the records in the last part written while idle, and when
std::int64_t idle_part_at = 0;

// write(2) until all is written; false on an error.
bool write_all(int fd, const void* data, std::size_t size) {
    const char* at = static_cast<const char*>(data);
    while (size > 0) {
        ssize_t n = ::write(fd, at, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        at += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

template <class T>
bool write_value(int fd, const T& value) {
    return write_all(fd, &value, sizeof value);
}

// Which threads' records are all written. A thread still running may be filling in its last
// record: the records of the others but the calling thread are written without their last.
enum class Whole { all, callers, none };

// The header and every thread's records as they stand, into `path`: async-signal-safe (open,
// write; each buffer's sizes read once). The caller adds the names and closes *fd_out.
bool write_records(const char* path, const PartHeader& header, Whole whole, int* fd_out) {
    int fd = ::open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return false;
    *fd_out = fd;
    PartHeader h = header;
    h.buffers = buffer_count();
    if (!write_value(fd, h)) return false;
    for (std::size_t i = 0; i < h.buffers; ++i) {
        const Buffer& b = buffer_of_thread(i);
        std::uint64_t events = b.events.size(), text = b.text.size();
        bool all = whole == Whole::all || (whole == Whole::callers && &b == this_threads_buffer());
        if (!all && events > 0) --events;
        if (!write_value(fd, b.full_at) || !write_value(fd, events) ||
            !write_all(fd, b.events.data(), events * sizeof(Event)) || !write_value(fd, text) ||
            !write_all(fd, b.text.data(), text))
            return false;
    }
    return true;
}

bool write_names(int fd, const std::map<int, std::string>& comm_names) {
    bool ok = write_value(fd, static_cast<std::uint64_t>(comm_names.size()));
    for (const auto& [context, name] : comm_names) {
        std::uint64_t size = name.size();
        ok = ok && write_value(fd, context) && write_value(fd, size) && write_all(fd, name.data(), name.size());
    }
    return ok;
}

// Closes `fd` and puts `path` in the part's place if all went well (else removes it).
bool finish_file(int fd, const char* path, bool ok) {
    if (fd >= 0) ok = ::close(fd) == 0 && ok;
    ok = ok && ::rename(path, path_of_part) == 0;
    if (!ok) ::unlink(path);
    return ok;
}

bool claim() { return ready.load() && !written.exchange(true); }

void note_stop(Ending ending) {
    if (ending != Ending::finished) write_all(STDERR_FILENO, note_if_stopped, note_size);
}

PartHeader header_for(Ending ending, int detail) {
    PartHeader h = prepared;
    h.ending = ending;
    h.detail = detail;
    h.stopped_at = now();
    return h;
}

}  // namespace

std::string part_path(const std::string& directory, int process) {
    return directory + "/p" + std::to_string(process) + ".part";
}

bool prepare_part(const std::string& directory, const ProcessFacts& facts, std::uint64_t job, ClockOffset start,
                  const std::string& note, std::string* error) {
    if (::mkdir(directory.c_str(), 0755) != 0 && errno != EEXIST) {
        *error = "cannot make " + directory + ": " + std::strerror(errno);
        return false;
    }
    std::string path = part_path(directory, facts.process);
    if (path.size() >= sizeof path_of_part || note.size() > sizeof note_if_stopped) {
        *error = "the path " + path + " is too long";
        return false;
    }
    std::memcpy(note_if_stopped, note.data(), note.size());
    note_size = note.size();
    // A part left by an earlier job must not pass for this one's if this process dies unseen.
    ::unlink(path.c_str());
    std::memcpy(path_of_part, path.c_str(), path.size() + 1);
    std::snprintf(path_while_stopping, sizeof path_while_stopping, "%s.stop", path.c_str());
    std::snprintf(path_while_idle, sizeof path_while_idle, "%s.idle", path.c_str());
    PartHeader h{};
    std::memcpy(h.magic, kMagic, sizeof kMagic);
    h.version = kVersion;
    h.process = facts.process;
    h.processes = facts.processes;
    h.workers = facts.workers;
    h.vf = facts.vf;
    h.job = job;
    h.start = start;
    h.end = ClockOffset{-1, 0};
    std::snprintf(h.filter, sizeof h.filter, "%s", recording_filter().spec.c_str());
    std::tie(h.window_from, h.window_to) = recorded_window();
    prepared = h;
    idle_part_records = 0;
    idle_part_at = 0;
    written = false;
    ready = true;
    return true;
}

bool write_part(Ending ending, int detail, const std::map<int, std::string>& comm_names,
                std::optional<ClockOffset> end, std::string* error) {
    if (!claim()) return true;
    PartHeader h = header_for(ending, detail);
    if (end) h.end = *end;
    int fd = -1;
    Whole whole = ending == Ending::finished ? Whole::all : Whole::callers;
    bool ok = write_records(path_while_stopping, h, whole, &fd) && write_names(fd, comm_names);
    ok = finish_file(fd, path_while_stopping, ok);
    if (!ok) *error = std::string("cannot write ") + path_of_part + ": " + std::strerror(errno);
    if (ok) note_stop(ending);
    return ok;
}

void write_part_from_signal(Ending ending, int signal) {
    if (!claim()) return;
    int fd = -1;
    Whole whole = ending == Ending::fault ? Whole::callers : Whole::none;  // a fault is the caller's
    bool ok = write_records(path_while_stopping, header_for(ending, signal), whole, &fd) &&
              write_value(fd, std::uint64_t{0});  // no names
    if (finish_file(fd, path_while_stopping, ok)) note_stop(ending);
}

void write_idle_part(const std::map<int, std::string>& comm_names) {
    if (!ready.load() || written.load()) return;
    // Not again for the same records, nor more often than every few seconds: a job that idles
    // often would otherwise rewrite its whole part at each idle stretch.
    constexpr std::int64_t kInterval = 5'000'000'000;  // ns
    std::uint64_t records = 0;
    for (std::size_t i = 0; i < buffer_count(); ++i) records += buffer_of_thread(i).events.size();
    std::int64_t time = now();
    if (records == idle_part_records || (idle_part_at != 0 && time - idle_part_at < kInterval)) return;
    idle_part_records = records;
    idle_part_at = time;
    int fd = -1;
    bool ok = write_records(path_while_idle, header_for(Ending::idle, 0), Whole::callers, &fd) &&
              write_names(fd, comm_names);
    // A part written for the process's end meanwhile is the better one.
    finish_file(fd, path_while_idle, ok && !written.load());
}

std::map<int, int> named_contexts() {
    std::map<int, int> contexts;
    for (std::size_t i = 0; i < buffer_count(); ++i)
        for (const Event& e : buffer_of_thread(i).events) {
            bool names_comm = e.type == EventType::send || e.type == EventType::rma_issue ||
                              (e.type == EventType::wait_begin && (e.wait == WaitKind::receive || e.wait == WaitKind::send));
            if (names_comm) contexts.emplace(e.comm, e.vrank);
        }
    return contexts;
}

std::optional<Part> read_part(const std::string& path, std::string* error) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        *error = path + ": " + std::strerror(errno);
        return std::nullopt;
    }
    auto read = [&](void* into, std::size_t size) { return static_cast<bool>(in.read(static_cast<char*>(into), size)); };
    Part part;
    if (!read(&part.header, sizeof part.header) || std::memcmp(part.header.magic, kMagic, sizeof kMagic) != 0) {
        *error = path + ": not a part of a Bamboo trace";
        return std::nullopt;
    }
    if (part.header.version != kVersion) {
        *error = path + ": a part of version " + std::to_string(part.header.version) + " (this reader knows " +
                 std::to_string(kVersion) + ")";
        return std::nullopt;
    }
    const PartHeader& h = part.header;
    if (h.processes < 1 || h.process < 0 || h.process >= h.processes || h.workers < 0 || h.vf < 1) {
        *error = path + ": its header is damaged";
        return std::nullopt;
    }
    in.seekg(0, std::ios::end);
    const std::uint64_t size = static_cast<std::uint64_t>(in.tellg());
    in.seekg(sizeof part.header);
    // Counts are checked against what the file holds before anything is made that big.
    auto holds = [&](std::uint64_t bytes) { return in && bytes <= size - static_cast<std::uint64_t>(in.tellg()); };
    bool ok = h.buffers <= size;
    if (ok) part.buffers.resize(h.buffers);
    for (Buffer& b : part.buffers) {
        std::uint64_t events = 0, text = 0;
        ok = ok && read(&b.full_at, sizeof b.full_at) && read(&events, sizeof events) &&
             holds(events * sizeof(Event));
        if (!ok) break;
        b.events.resize(events);
        ok = read(b.events.data(), events * sizeof(Event)) && read(&text, sizeof text) && holds(text);
        if (!ok) break;
        b.text.resize(text);
        ok = read(b.text.data(), text);
    }
    if (!ok) {
        *error = path + ": cut short (was its process killed while writing it?)";
        return std::nullopt;
    }
    // The names come last: a part written from a signal handler has none.
    std::uint64_t names = 0;
    if (read(&names, sizeof names)) {
        for (std::uint64_t i = 0; i < names; ++i) {
            int context = 0;
            std::uint64_t size = 0;
            if (!read(&context, sizeof context) || !read(&size, sizeof size) || !holds(size)) break;
            std::string name(size, '\0');
            if (!read(name.data(), size)) break;
            part.comm_names.emplace(context, std::move(name));
        }
    }
    return part;
}

}  // namespace bamboo::trace
