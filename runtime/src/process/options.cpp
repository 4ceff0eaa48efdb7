#include "process/options.hpp"

#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string_view>

namespace bamboo {
namespace {

constexpr std::string_view kPrefix = "--bamboo-";
constexpr std::size_t kMinStackSize = 64u << 10;
constexpr std::size_t kMinBufferLimit = 1u << 20;

// Where a value came from, to name it in an error: "--bamboo-vf" or "BAMBOO_VF".
struct Source {
    std::string name;
};

[[noreturn]] void bad_value(const Source& from, std::string_view value, const char* expected) {
    throw OptionError("bad value '" + std::string(value) + "' for " + from.name + ": expected " +
                      expected);
}

// A whole int of at least `minimum`, else bad_value() with `expected`.
int parse_int(const Source& from, const std::string& value, int minimum, const char* expected) {
    errno = 0;
    char* end = nullptr;
    long parsed = std::strtol(value.c_str(), &end, 10);
    if (value.empty() || *end != '\0' || errno != 0 || parsed < minimum || parsed > INT_MAX)
        bad_value(from, value, expected);
    return static_cast<int>(parsed);
}

int parse_positive_int(const Source& from, const std::string& value) {
    return parse_int(from, value, 1, "a positive integer");
}

double parse_seconds(const Source& from, const std::string& value) {
    char* end = nullptr;
    double parsed = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || !std::isfinite(parsed) || parsed <= 0)
        bad_value(from, value, "a positive number of seconds");
    return parsed;
}

// A size with an optional K, M or G suffix, at least `minimum` (written `minimum_text`).
std::size_t parse_bytes(const Source& from, const std::string& value, std::size_t minimum, const char* minimum_text) {
    errno = 0;
    char* end = nullptr;
    unsigned long long parsed = std::strtoull(value.c_str(), &end, 10);
    if (value.empty() || !std::isdigit(static_cast<unsigned char>(value[0])) || errno != 0)
        bad_value(from, value, "a size in bytes, with an optional K, M or G suffix");
    std::string_view suffix(end);
    unsigned shift = 0;
    if (suffix == "K" || suffix == "k") shift = 10;
    else if (suffix == "M" || suffix == "m") shift = 20;
    else if (suffix == "G" || suffix == "g") shift = 30;
    else if (!suffix.empty())
        bad_value(from, value, "a size in bytes, with an optional K, M or G suffix");
    if (parsed > (ULLONG_MAX >> shift)) bad_value(from, value, "a smaller size");
    std::size_t bytes = static_cast<std::size_t>(parsed << shift);
    if (bytes < minimum) bad_value(from, value, minimum_text);
    return bytes;
}

bool parse_flag(const Source& from, const std::string& value) {
    std::string lower;
    for (char c : value) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "1" || lower == "true" || lower == "yes" || lower == "on") return true;
    if (lower == "0" || lower == "false" || lower == "no" || lower == "off") return false;
    bad_value(from, value, "1 or 0");
}

// "auto" or "auto:2,8,18": the VFs --bamboo-vf auto may choose (default: powers of two to 16).
std::vector<int> parse_vf_candidates(const Source& from, const std::string& value) {
    const char* expected = "a positive integer, auto, or auto:LIST (e.g. auto:2,8,18)";
    if (value == "auto") return {1, 2, 4, 8, 16};
    if (value.rfind("auto:", 0) != 0) bad_value(from, value, expected);
    std::vector<int> candidates;
    std::string list = value.substr(5) + ",";
    for (std::size_t start = 0, comma; (comma = list.find(',', start)) != std::string::npos; start = comma + 1) {
        std::string item = list.substr(start, comma - start);
        char* end = nullptr;
        long vf = std::strtol(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || vf < 1 || vf > INT_MAX) bad_value(from, value, expected);
        candidates.push_back(static_cast<int>(vf));
    }
    return candidates;
}

// "auto", "0" (whole payloads) or a size of at least 4K.
void parse_payload_piece(Options& o, const Source& from, const std::string& value) {
    const char* expected = "auto, 0, or a size of at least 4K (K and M suffixes)";
    o.payload_piece_auto = value == "auto";
    if (o.payload_piece_auto) return;
    char* end = nullptr;
    errno = 0;
    unsigned long long parsed = std::strtoull(value.c_str(), &end, 10);
    std::string_view suffix(end);
    unsigned shift = suffix == "K" || suffix == "k" ? 10 : suffix == "M" || suffix == "m" ? 20 : 0;
    if (value.empty() || !std::isdigit(static_cast<unsigned char>(value[0])) || errno != 0 ||
        (shift == 0 && !suffix.empty()) || parsed > static_cast<unsigned long long>(INT_MAX >> shift))
        bad_value(from, value, expected);
    o.payload_piece = static_cast<std::size_t>(parsed) << shift;
    if (o.payload_piece != 0 && o.payload_piece < 4096) bad_value(from, value, expected);
}

CommThread parse_comm_thread(const Source& from, const std::string& value) {
    if (value == "auto") return CommThread::automatic;
    if (value == "on") return CommThread::on;
    if (value == "off") return CommThread::off;
    bad_value(from, value, "auto, on or off");
}

QueueKind parse_queue(const Source& from, const std::string& value) {
    if (value == "private") return QueueKind::private_queues;
    if (value == "shared") return QueueKind::shared;
    if (value == "steal") return QueueKind::steal;
    bad_value(from, value, "private, shared or steal");
}

int parse_bind_after(const Source& from, const std::string& value) {
    if (value == "never") return kNeverBind;
    return parse_int(from, value, 0, "a number of evaluation points (0 or more) or never");
}

// "1,4": a factor of at least 1 per worker, from worker 0.
std::vector<double> parse_slowdown(const Source& from, const std::string& value) {
    const char* expected = "a comma-separated list of factors of at least 1, one per worker (e.g. 1,4)";
    std::vector<double> factors;
    std::string list = value + ",";
    for (std::size_t start = 0, comma; (comma = list.find(',', start)) != std::string::npos; start = comma + 1) {
        std::string item = list.substr(start, comma - start);
        char* end = nullptr;
        double factor = std::strtod(item.c_str(), &end);
        if (item.empty() || *end != '\0' || !std::isfinite(factor) || factor < 1 || factor > 1000)
            bad_value(from, value, expected);
        factors.push_back(factor);
    }
    return factors;
}

struct OptionSpec {
    const char* name;       // after "--bamboo-"
    bool is_flag;           // a flag takes no separate value argument
    const char* value_help; // shown in --bamboo-help
    const char* default_help;
    const char* help;
    void (*apply)(Options&, const Source&, const std::string&);
};

const OptionSpec kSpecs[] = {
    {"vf", false, "N|auto[:LIST]", "1",
     "tasks (virtual ranks) per process; MPI_COMM_WORLD has processes x N ranks. auto chooses N "
     "from LIST (default 1,2,4,8,16) by a model of the program's compute and traffic, measured "
     "in earlier auto runs (see --bamboo-profile), and of the network, measured at start",
     [](Options& o, const Source& s, const std::string& v) {
         bool automatic = v.rfind("auto", 0) == 0;
         o.vf_candidates = automatic ? parse_vf_candidates(s, v) : std::vector<int>{};
         if (!automatic) o.vf = parse_positive_int(s, v);
     }},
    {"profile", false, "FILE", "PROGRAM.bamboo-profile in the current directory",
     "where --bamboo-vf auto reads the measurements of earlier runs and adds this run's",
     [](Options& o, const Source&, const std::string& v) { o.profile = v; }},
    {"workers", false, "N", "online cores / processes on the node, at least 1",
     "worker threads per process",
     [](Options& o, const Source& s, const std::string& v) { o.workers = parse_positive_int(s, v); }},
    {"single-thread", true, "", "off",
     "run everything on the main thread: one worker that also drives the comm engine (for SimGrid SMPI)",
     [](Options& o, const Source& s, const std::string& v) { o.single_thread = parse_flag(s, v); }},
    {"queue", false, "shared|steal|private", "shared",
     "where runnable tasks wait: one queue per process that every worker takes from (shared); a "
     "queue per worker, idle workers taking from the others (steal); or a queue per worker whose "
     "tasks stay with it for life (private). Tasks that move balance workers of unequal speed",
     [](Options& o, const Source& s, const std::string& v) { o.queue = parse_queue(s, v); }},
    {"bind-after", false, "N|never", "never",
     "a task moves between workers for N evaluation points (olap-region iterations), then is "
     "bound to one worker, each worker's share of the tasks following its measured speed",
     [](Options& o, const Source& s, const std::string& v) { o.bind_after = parse_bind_after(s, v); }},
    {"slowdown", false, "LIST", "none",
     "emulate workers of unequal speed (seed 002): worker i takes LIST[i] times as long as it "
     "would for each stretch of a task it runs, waiting off the CPU for the difference",
     [](Options& o, const Source& s, const std::string& v) { o.slowdown = parse_slowdown(s, v); }},
    {"comm-thread", false, "auto|on|off", "auto: on when the process has a CPU beyond its workers (of its share of the node's), or talks to processes over a network",
     "drive the comm engine from a thread of its own (on) or from the workers between tasks (off)",
     [](Options& o, const Source& s, const std::string& v) { o.comm_thread = parse_comm_thread(s, v); }},
    {"payload-piece", false, "auto|0|BYTES", "auto: 60K to processes on other nodes (and on this one where Open MPI uses no shared memory), whole otherwise",
     "large payloads between processes travel in pieces of this size, small enough to be sent "
     "without MPI's rendezvous handshake, which over TCP waits behind data going the other way",
     parse_payload_piece},
    {"deadlock-timeout", false, "SECONDS", "60",
     "report the waiting tasks and abort when nothing has moved for this long",
     [](Options& o, const Source& s, const std::string& v) { o.deadlock_timeout = parse_seconds(s, v); }},
    {"stack-size", false, "BYTES", "8M",
     "stack reserved per task (K, M, G suffixes); pages are committed only when touched",
     [](Options& o, const Source& s, const std::string& v) {
         o.stack_size = parse_bytes(s, v, kMinStackSize, "at least 64K");
     }},
    {"buffer-limit", false, "BYTES|auto", "auto: 256M, or a quarter of the node's memory shared by its processes if less",
     "memory a process gives to messages sent but not yet received (K, M, G suffixes); beyond it a "
     "point-to-point send waits until its message is received instead of being buffered",
     [](Options& o, const Source& s, const std::string& v) {
         o.buffer_limit = v == "auto" ? 0 : parse_bytes(s, v, kMinBufferLimit, "at least 1M, or auto");
     }},
    {"stats", true, "", "off",
     "at exit, each process reports how many messages its tasks sent, point-to-point and in "
     "collectives, within the process and to other processes, and how its workers' time "
     "divides between tasks, idling and the runtime's own work",
     [](Options& o, const Source& s, const std::string& v) { o.stats = parse_flag(s, v); }},
    {"trace", false, "FILE", "none",
     "record what every worker, task and message did, and write it at exit as Chrome trace JSON "
     "to FILE and as OTF2 to FILE.otf2/ (docs/tracing.md; bin/bamboo trace summary FILE); a job "
     "that is stopped leaves its processes' parts in FILE.parts/ (bin/bamboo trace merge FILE)",
     [](Options& o, const Source&, const std::string& v) { o.trace = v; }},
    {"trace-events", false, "N", "1048576",
     "records kept per thread for --bamboo-trace (48 bytes each); a full buffer ends the trace there",
     [](Options& o, const Source& s, const std::string& v) {
         o.trace_events = static_cast<std::size_t>(parse_positive_int(s, v));
     }},
    {"trace-filter", false, "SPEC", "none",
     "what --bamboo-trace keeps: time=FROM..TO (seconds since start), kinds=K+K (task, idle, wait, "
     "engine, message, rma), ranks=R+R..R, comma-separated (docs/tracing.md)",
     [](Options& o, const Source& s, const std::string& v) {
         std::string error;
         std::optional<trace::Filter> filter = trace::parse_filter(v, &error);
         if (!filter) throw OptionError("bad value '" + v + "' for " + s.name + ": " + error);
         o.trace_filter = *filter;
     }},
    {"help", true, "", "", "print these options and exit",
     [](Options& o, const Source& s, const std::string& v) { o.help = parse_flag(s, v); }},
};

const OptionSpec* find_spec(std::string_view name) {
    for (const OptionSpec& spec : kSpecs)
        if (name == spec.name) return &spec;
    return nullptr;
}

std::string env_name(const char* option) {
    std::string name = "BAMBOO_";
    for (const char* c = option; *c; ++c)
        name += *c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(*c)));
    return name;
}

}  // namespace

Options parse_options(int& argc, char** argv, const EnvLookup& getenv) {
    Options options;
    for (const OptionSpec& spec : kSpecs) {
        std::string name = env_name(spec.name);
        if (const char* value = getenv(name.c_str())) spec.apply(options, Source{name}, value);
    }

    int kept = argc > 0 ? 1 : 0;  // argv[0] is the program
    for (int i = kept; i < argc; ++i) {
        std::string_view arg = argv[i];
        if (arg.substr(0, kPrefix.size()) != kPrefix) {
            argv[kept++] = argv[i];
            continue;
        }
        std::size_t equals = arg.find('=');
        std::string_view name = arg.substr(kPrefix.size(), equals - kPrefix.size());
        const OptionSpec* spec = find_spec(name);
        Source source{std::string(kPrefix) + std::string(name)};
        if (!spec)
            throw OptionError("unknown option '" + std::string(arg.substr(0, equals)) +
                              "' (--bamboo-help lists the options)");
        std::string value;
        if (equals != std::string_view::npos) value = std::string(arg.substr(equals + 1));
        else if (spec->is_flag) value = "1";
        else if (i + 1 < argc) value = argv[++i];
        else throw OptionError("missing value for " + source.name);
        spec->apply(options, source, value);
    }
    argc = kept;
    if (argv) argv[argc] = nullptr;
    return options;
}

std::string options_help() {
    std::string text =
        "Bamboo runtime options (anywhere on the command line; also as environment variables,\n"
        "e.g. BAMBOO_VF=4 for --bamboo-vf 4; the command line wins):\n";
    for (const OptionSpec& spec : kSpecs) {
        std::string left = "  " + std::string(kPrefix) + spec.name;
        if (!spec.is_flag) left += std::string(" ") + spec.value_help;
        text += left;
        text += std::string(left.size() < 32 ? 32 - left.size() : 1, ' ');
        text += spec.help;
        if (*spec.default_help) text += std::string(" (default: ") + spec.default_help + ")";
        text += "\n";
    }
    return text;
}

}  // namespace bamboo
