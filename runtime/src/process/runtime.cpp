#include "process/runtime.hpp"

#include <mpi.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <thread>

#include "bamboo.h"
#include "communicators/communicator.hpp"
#include "communicators/handles.hpp"
#include "core/faults.hpp"
#include "core/globals.hpp"
#include "core/task_stacks.hpp"
#include "core/worker.hpp"
#include "messaging/buffer_budget.hpp"
#include "messaging/datatype.hpp"
#include "messaging/delivery.hpp"
#include "messaging/rank.hpp"
#include "messaging/reports.hpp"
#include "process/deadlock_watch.hpp"
#include "transport/comm_engine.hpp"
#include "transport/node.hpp"
#include "trace/clock_offset.hpp"
#include "trace/merge.hpp"
#include "trace/part_file.hpp"
#include "trace/recorder.hpp"
#include "util/errors.hpp"
#include "util/mpi_guard.hpp"
#include "util/simulation.hpp"
#include "util/spin.hpp"

namespace bamboo {
namespace {

constexpr int kExitBadOption = 2;

// CPUs this process may run on (mpirun may have bound it to fewer than the node has).
int usable_cpus() {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
    return CPU_COUNT(&set);
}

// --bamboo-vf auto: the runs of this program on this many processes with these arguments.
std::string profile_key(int process_count, int argc, char** argv) {
    std::string key = "processes=" + std::to_string(process_count) + " args=";
    for (int i = 1; i < argc; ++i) key += (i > 1 ? " " : "") + std::string(argv[i]);
    for (char& c : key)
        if (c == '\t' || c == '\n') c = ' ';
    return key;
}

std::string profile_path(const Options& options, const char* program) {
    if (!options.profile.empty()) return options.profile;
    std::string name = program ? program : "bamboo";
    return name.substr(name.find_last_of('/') + 1) + ".bamboo-profile";
}

// An idle worker runs the deadlock watch once every this many polls of the comm engine: the
// watch looks at every task and tests the job-wide round, too much to do on every poll of a
// loop whose every nanosecond delays the message it waits for, and nothing it finds is urgent.
constexpr int kPollsPerWatch = 32;

// Blocks an idle single-threaded process in MPI until a message, a send's completion or the
// job-wide check moves (CommEngine::wait_for_any), once the watch has had its say.
std::function<bool()> idle_wait(CommEngine& engine, DeadlockWatch& watch) {
    return [&engine, &watch, also = std::vector<MPI_Request*>()]() mutable {
        if (watch.job_finished()) return false;
        also.clear();
        watch.pending_receives(also);
        return engine.wait_for_any(also);
    };
}

// What the workers do besides running tasks, as `plan` says.
WorkerDuties worker_duties(const ThreadPlan& plan, CommEngine& engine, DeadlockWatch& watch, const Routes& routes) {
    WorkerDuties duties;
    duties.free_waiting_tasks = [&routes](const Worker& worker, bool all) { buy_back_lent_sends(routes, worker, all); };
    if (plan.idle_polls_engine || plan.idle_runs_watch) {
        // Each worker gets its own copy, and count.
        duties.poll_when_idle = [&engine, &watch, polls = plan.idle_polls_engine, watches = plan.idle_runs_watch,
                                 spins = plan.spins_while_in_transit, count = 0]() mutable {
            if (polls) engine.try_progress();
            if (watches && ++count == kPollsPerWatch) {
                count = 0;
                watch.job_finished();
            }
            return spins && engine.in_transit();
        };
    }
    if (plan.polls_between_tasks) duties.poll_between_tasks = [&engine] { engine.try_progress(); };
    if (plan.blocks_when_idle) duties.block_when_idle = idle_wait(engine, watch);
    if (plan.corks_send_blocks) duties.before_task = [&engine](const Task* next) { engine.before_task(next); };
    duties.naps = plan.naps;
    duties.never_sleeps = plan.never_sleeps;
    return duties;
}

}  // namespace

Runtime::Runtime() = default;
Runtime::~Runtime() = default;

// Every process parses the same arguments; the lowest one that found an error reports it,
// so that the message appears once, and all leave cleanly.
bool Runtime::options_agreed(const std::string& error) const {
    int mine = error.empty() ? routes_.process_count : routes_.process;
    int first = mine;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == routes_.process_count) return true;
    if (first == routes_.process) std::fprintf(stderr, "bamboo: %s\n", error.c_str());
    return false;
}

Machine Runtime::find_machine(const std::vector<int>& processes_on_node) const {
    Machine machine;
    machine.online_cpus = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
    machine.usable_cpus = usable_cpus();
    machine.processes_on_node = static_cast<int>(processes_on_node.size());
    long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGE_SIZE);
    machine.memory_bytes = static_cast<std::size_t>(std::max(pages, 1L)) * static_cast<std::size_t>(std::max(page_size, 1L));
    machine.mpi_simulated = kSimulatedMpi;
    return machine;
}

// Process 0 chooses from the profile and the network measured now; every process learns
// the choice.
int Runtime::choose_vf_automatically(int workers) {
    network_ = measure_network(routes_.process, routes_.process_count);
    int vf = 0;
    if (routes_.process == 0) {
        VfChoice choice = choose_vf(options_.vf_candidates, read_profile(profile_path_, profile_key_), network_, workers);
        std::fprintf(stderr, "bamboo: --bamboo-vf auto: %s [profile %s]\n", choice.reason.c_str(), profile_path_.c_str());
        vf = choice.vf;
    }
    MPI_Bcast(&vf, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return vf;
}

// A limit the system sets on memory ends the job with the limit named, not with an
// uncaught std::bad_alloc.
void Runtime::create_ranks(int argc, char** argv) {
    std::vector<std::string> args(argv, argv + argc);
    int worker_count = static_cast<int>(workers_.size());
    int vf = routes_.vf;
    int first_vrank = routes_.process * vf;
    try {
        stacks_ = std::make_unique<TaskStacks>(vf, options_.stack_size);
    } catch (const StackError& e) {
        fatal("cannot create the tasks vrank %d..%d: %s", first_vrank, first_vrank + vf - 1, e.what());
    }
    for (int t = 0; t < vf; ++t) {
        // Contiguous blocks of vranks per worker: neighbours in rank usually talk most.
        Worker& worker = *workers_[static_cast<std::size_t>(t) * worker_count / vf];
        int vrank = first_vrank + t;
        try {
            routes_.ranks.push_back(std::make_unique<Rank>(vrank, worker, stacks_->stack(t), make_task_globals(),
                                                           &bamboo_main, args, routes_));
        } catch (const StackError& e) {
            fatal("cannot create task vrank %d: %s", vrank, e.what());
        } catch (const std::bad_alloc&) {
            // A task's globals are a mapping of their own when large.
            fatal("cannot create task vrank %d: %s", vrank,
                  refused_memory_reason(0, static_cast<std::size_t>(vf - t)).c_str());
        }
        scheduler_->start(*routes_.ranks.back(), worker);
    }
}

bool Runtime::start(int& argc, char** argv, int provided, int* exit_code) {
    MPI_Comm_rank(MPI_COMM_WORLD, &routes_.process);
    MPI_Comm_size(MPI_COMM_WORLD, &routes_.process_count);
    std::string error;
    try {
        options_ = parse_options(argc, argv, [](const char* name) { return std::getenv(name); });
        if (static_cast<long long>(routes_.process_count) * options_.vf > INT_MAX)
            error = "--bamboo-vf " + std::to_string(options_.vf) + " makes more ranks than an int holds";
    } catch (const OptionError& e) {
        error = e.what();
    }
    if (!options_agreed(error)) {
        *exit_code = kExitBadOption;
        return false;
    }
    if (options_.help) {
        if (routes_.process == 0) std::fputs(options_help().c_str(), stdout);
        *exit_code = 0;
        return false;
    }
    if (!options_.trace.empty()) trace::enable(options_.trace_events, options_.trace_filter);
    if (decode_handle(MPI_REQUEST_NULL) || decode_handle(MPI_COMM_NULL) ||
        decode_handle(MPI_COMM_WORLD) || decode_handle(MPI_COMM_SELF) ||
        decode_handle(MPI_GROUP_NULL) || decode_handle(MPI_GROUP_EMPTY))
        fatal("this MPI library's predefined handles collide with the runtime's own handles");

    Threading threading = choose_threading(options_, provided);
    if (threading.fallback && routes_.process == 0)
        warn("the MPI library does not support calls from several threads; running single-threaded");
    set_mpi_serialized(threading.mpi_serialized);
    init_datatypes();

    std::vector<int> processes_on_node = processes_on_this_node();
    routes_.host = *std::min_element(processes_on_node.begin(), processes_on_node.end());
    Machine machine = find_machine(processes_on_node);
    int workers = workers_wanted(options_, threading.single_thread, machine);
    if (!options_.vf_candidates.empty()) {
        profile_key_ = profile_key(routes_.process_count, argc, argv);
        profile_path_ = profile_path(options_, argv[0]);
        options_.vf = choose_vf_automatically(workers);
    }
    routes_.vf = options_.vf;
    std::vector<int> world_vranks(static_cast<std::size_t>(routes_.process_count) * routes_.vf);
    for (std::size_t v = 0; v < world_vranks.size(); ++v) world_vranks[v] = static_cast<int>(v);
    routes_.world = std::make_shared<Communicator>(kWorldContext, std::move(world_vranks), routes_.vf,
                                                   "MPI_COMM_WORLD");
    routes_.budget = std::make_unique<BufferBudget>(buffer_limit(options_, machine), routes_.process_count,
                                                    routes_.process);
    engine_ = std::make_unique<CommEngine>(routes_, workers_, processes_on_node, options_.payload_piece_auto,
                                           options_.payload_piece);
    routes_.link = engine_.get();
    plan_ = plan_threads(options_, threading.single_thread, workers, routes_.vf, routes_.process_count,
                         engine_->has_network_peers(), machine);
    if (plan_.shares_core) spin_yield_interval = std::chrono::microseconds(0);
    watch_ = std::make_unique<DeadlockWatch>(routes_, *engine_, options_.deadlock_timeout, plan_.blocks_when_idle);
    if (plan_.corks_send_blocks) engine_->cork_send_blocks();
    WorkerDuties duties = worker_duties(plan_, *engine_, *watch_, routes_);
    duties.times_tasks = options_.stats;
    if (options_.slowdown.size() > static_cast<std::size_t>(plan_.workers) && routes_.process == 0)
        warn("--bamboo-slowdown lists %zu factors, but a process has %d worker(s): the rest are ignored",
             options_.slowdown.size(), plan_.workers);
    scheduler_ = std::make_unique<Scheduler>(options_.queue, options_.bind_after);
    for (int w = 0; w < plan_.workers; ++w) {
        double slowdown = static_cast<std::size_t>(w) < options_.slowdown.size() ? options_.slowdown[w] : 1.0;
        workers_.push_back(std::make_unique<Worker>(w, *scheduler_, duties, slowdown));
        scheduler_->add_worker(*workers_.back());
    }
    create_ranks(argc, argv);
    install_fault_handlers();
    if (!options_.trace.empty()) start_trace();
    return true;
}

void Runtime::run() {
    started_ = MPI_Wtime();
    // While tasks run, what the library's local calls (datatypes, packing...) find wrong comes
    // back to the task as an error code, for the task's own error handler (mpi/api.hpp); the
    // runtime's own traffic is on duplicates, which keep MPI_ERRORS_ARE_FATAL.
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    auto job_finished = [this] { return watch_->job_finished(); };
    std::thread engine;
    if (plan_.comm_thread)
        engine = std::thread([this, job_finished] { engine_->run(plan_.shares_core, job_finished); });
    std::vector<std::thread> workers;
    for (std::size_t w = 1; w < workers_.size(); ++w)
        workers.emplace_back([this, w] { workers_[w]->run(); });
    workers_[0]->run();  // the main thread is worker 0
    for (std::thread& worker : workers) worker.join();
    {
        MpiGuard guard;  // the comm thread may be calling MPI
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    }
    engine_->tasks_done();
    if (plan_.comm_thread)
        engine.join();
    else
        engine_->finish(plan_.never_sleeps, job_finished,
                        plan_.blocks_when_idle ? idle_wait(*engine_, *watch_) : std::function<bool()>());
}

// After an auto run: the busiest process's figures go into the profile.
void Runtime::record_run(double wall_s) const {
    double mine[4] = {wall_s, 0, 0, 0};  // wall, compute, remote bytes, remote messages
    for (const auto& worker : workers_) mine[1] += std::chrono::duration<double>(worker->busy()).count();
    for (const auto& rank : routes_.ranks)
        for (int origin = 0; origin < 2; ++origin) {
            mine[2] += rank->sent.bytes[origin][MessageCounts::other_process];
            mine[3] += rank->sent.messages[origin][MessageCounts::other_process];
        }
    double most[4];
    MPI_Reduce(mine, most, 4, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (routes_.process != 0) return;
    RunRecord record{routes_.vf, static_cast<int>(workers_.size()), most[0], most[1], most[2], most[3], network_};
    if (!append_profile(profile_path_, profile_key_, record))
        warn("--bamboo-vf auto: cannot add this run to the profile %s: %s", profile_path_.c_str(),
             std::strerror(errno));
}

// --bamboo-stats: one line per process, written whole so lines of processes do not mix.
void Runtime::report_message_counts() const {
    MessageCounts sum;
    for (const auto& rank : routes_.ranks)
        for (int origin = 0; origin < 2; ++origin)
            for (int scope = 0; scope < 2; ++scope) {
                sum.messages[origin][scope] += rank->sent.messages[origin][scope];
                sum.bytes[origin][scope] += rank->sent.bytes[origin][scope];
            }
    auto part = [&](const char* what, int origin) {
        const auto& m = sum.messages[origin];
        const auto& b = sum.bytes[origin];
        return std::string(what) + " " + std::to_string(m[MessageCounts::same_process]) + " (" +
               std::to_string(b[MessageCounts::same_process]) + " B) within the process, " +
               std::to_string(m[MessageCounts::other_process]) + " (" +
               std::to_string(b[MessageCounts::other_process]) + " B) to other processes";
    };
    // Bytes the runtime copied per byte it delivered into a receive, by where messages came from.
    auto copies = [&](const char* what, MessageKind::Origin origin) {
        std::string text = what;
        for (auto scope : {MessageKind::same_process, MessageKind::other_process}) {
            std::uint64_t delivered = routes_.copies.delivered_bytes(origin, scope);
            char ratio[32] = "-";
            if (delivered)
                std::snprintf(ratio, sizeof ratio, "%.2f",
                              static_cast<double>(routes_.copies.copied_bytes(origin, scope)) / delivered);
            text += std::string(scope == MessageKind::same_process ? " " : ", ") + ratio +
                    (scope == MessageKind::same_process ? " within the process (" : " from other processes (") +
                    std::to_string(delivered) + " B delivered, " +
                    std::to_string(routes_.copies.copied_bytes(origin, scope)) + " B copied)";
        }
        return text;
    };
    std::string line = "bamboo: stats: process " + std::to_string(routes_.process) + " sent " +
                       part("point-to-point", MessageCounts::point_to_point) + "; " +
                       part("collectives", MessageCounts::collective) + "; at most " +
                       std::to_string(engine_->peak_requests_to_one_process()) +
                       " MPI requests in flight to one process; send blocks joined " +
                       std::to_string(engine_->joined_messages()) + " messages into " +
                       std::to_string(engine_->joint_sends()) + " MPI messages; bytes copied per byte delivered: " +
                       copies("point-to-point", MessageKind::point_to_point) + "; " +
                       copies("collectives", MessageKind::collective) + "\n";
    std::fwrite(line.data(), 1, line.size(), stderr);
    report_one_sided_counts();
}

// --bamboo-stats: the one-sided operations the process's tasks issued, a line if there were any.
void Runtime::report_one_sided_counts() const {
    OneSidedCounts sum;
    std::uint64_t any = 0;
    for (const auto& rank : routes_.ranks)
        for (int op = 0; op < OneSidedCounts::kOperations; ++op)
            for (int scope = 0; scope < 2; ++scope) {
                sum.operations[op][scope] += rank->one_sided.operations[op][scope];
                sum.bytes[op][scope] += rank->one_sided.bytes[op][scope];
                any += rank->one_sided.operations[op][scope];
            }
    if (!any) return;
    static const char* const kNames[OneSidedCounts::kOperations] = {"puts", "gets", "accumulates", "get-accumulates",
                                                                    "compare-and-swaps"};
    std::string line = "bamboo: stats: process " + std::to_string(routes_.process) + " one-sided";
    for (int op = 0; op < OneSidedCounts::kOperations; ++op) {
        const auto& n = sum.operations[op];
        const auto& b = sum.bytes[op];
        line += std::string(op ? ";" : ":") + " " + kNames[op] + " " + std::to_string(n[MessageKind::same_process]) +
                " (" + std::to_string(b[MessageKind::same_process]) + " B) within the process, " +
                std::to_string(n[MessageKind::other_process]) + " (" + std::to_string(b[MessageKind::other_process]) +
                " B) to other processes";
    }
    line += "\n";
    std::fwrite(line.data(), 1, line.size(), stderr);
}

// --bamboo-stats: one line per worker, each written whole.
void Runtime::report_workers() const {
    for (const auto& worker : workers_) {
        char line[256];
        std::snprintf(line, sizeof line,
                      "bamboo: stats: process %d worker %d: slowdown %g evaluation-points %zu runs %zu busy %.6f s "
                      "tasks-moved-in %zu tasks-bound %d\n",
                      routes_.process, worker->index(), worker->slowdown(), worker->evaluation_points(),
                      worker->runs(), std::chrono::duration<double>(worker->busy()).count(), worker->moved_in(),
                      scheduler_->tasks_bound_to(*worker));
        std::fputs(line, stderr);
    }
}

// --bamboo-stats: where the workers' time went, one line per process.
void Runtime::report_time() const {
    double tasks = 0, idle = 0, busy = 0;
    for (const auto& worker : workers_) {
        tasks += std::chrono::duration<double>(worker->in_tasks()).count();
        idle += std::chrono::duration<double>(worker->idle()).count();
        busy += std::chrono::duration<double>(worker->busy()).count();
    }
    double runtime = std::max(busy - tasks, 0.0);
    double total = std::max(busy + idle, 1e-12);
    char line[400];
    std::snprintf(line, sizeof line,
                  "bamboo: stats: process %d time of %zu worker(s) x %.6f s: tasks %.6f s (%.1f%%), idle %.6f s "
                  "(%.1f%%: no task runnable), runtime %.6f s (%.1f%%: switching, scheduling, polling)\n",
                  routes_.process, workers_.size(), total / static_cast<double>(workers_.size()), tasks,
                  100 * tasks / total, idle, 100 * idle / total, runtime, 100 * runtime / total);
    std::fputs(line, stderr);
}

namespace {

const Runtime* traced_runtime = nullptr;  // for the abort hook

std::string parts_directory(const std::string& trace) { return trace + ".parts"; }

}  // namespace

// --bamboo-trace: this process's part (trace/part_file.hpp) made ready to be written however
// the process ends, with its clock's offset to process 0's measured now; the merge at the end
// also has the offset then, and a job that ends early has this one.
void Runtime::start_trace() {
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    trace::ClockOffset start = trace::measure_clock_offset(comm);
    // The job's number tells its parts from those an earlier job left in the same place.
    std::uint64_t job = static_cast<std::uint64_t>(trace::now()) ^ (static_cast<std::uint64_t>(getpid()) << 40);
    MPI_Bcast(&job, 1, MPI_UINT64_T, 0, comm);
    MPI_Comm_free(&comm);
    trace::ProcessFacts facts{routes_.process, routes_.process_count, static_cast<int>(workers_.size()), routes_.vf};
    std::string directory = parts_directory(options_.trace), error;
    std::string note = routes_.process != 0 ? std::string()
                                            : "bamboo: --bamboo-trace: the job stopped early; `bin/bamboo trace merge " +
                                                  options_.trace + "` makes its trace from the parts in " + directory +
                                                  "/\n";
    if (!trace::prepare_part(directory, facts, job, start, note, &error)) {
        warn("--bamboo-trace: %s: this process's part of the trace is lost", error.c_str());
        return;
    }
    traced_runtime = this;
    before_abort(write_trace_part_on_abort);
    constexpr std::chrono::seconds kIdleBeforePart(1);
    watch_->when_idle_for(kIdleBeforePart, [this] { trace::write_idle_part(trace_comm_names()); });
    if (!kSimulatedMpi) install_termination_handlers();  // a simulated job is one process
}

// The communicators the records name, as the tasks of this process know them.
std::map<int, std::string> Runtime::trace_comm_names() const {
    std::map<int, std::string> names = trace::context_names();  // the windows'
    for (const auto& [context, vrank] : trace::named_contexts()) {
        const Rank* rank = routes_.local(vrank);
        names.emplace(context, describe_comm(rank ? rank->communicator_with_context(context) : nullptr, context));
    }
    return names;
}

void Runtime::write_trace_part_on_abort(Stop why, int code) {
    trace::Ending ending = why == Stop::deadlock    ? trace::Ending::deadlock
                           : why == Stop::mpi_abort ? trace::Ending::aborted
                                                    : trace::Ending::runtime_error;
    std::string error;
    if (!trace::write_part(ending, code, traced_runtime->trace_comm_names(), std::nullopt, &error))
        warn("--bamboo-trace: %s", error.c_str());
}

// --bamboo-trace at the end of a job that ended well: every process writes its part, then
// process 0 merges them into the job's trace, and removes them once all are in.
void Runtime::write_trace() const {
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    trace::ClockOffset end = trace::measure_clock_offset(comm);
    std::string error;
    if (!trace::write_part(trace::Ending::finished, 0, trace_comm_names(), end, &error))
        warn("--bamboo-trace: %s", error.c_str());
    MPI_Barrier(comm);  // every part is on disk
    MPI_Comm_free(&comm);
    if (routes_.process != 0) return;
    std::string directory = parts_directory(options_.trace);
    auto say = [](const std::string& line) { warn("--bamboo-trace: %s", line.c_str()); };
    if (trace::merge_trace(directory, options_.trace, say) != static_cast<std::size_t>(routes_.process_count)) return;
    for (int p = 0; p < routes_.process_count; ++p) std::remove(trace::part_path(directory, p).c_str());
    rmdir(directory.c_str());
}

int Runtime::finish() {
    if (!options_.vf_candidates.empty()) record_run(MPI_Wtime() - started_);
    if (options_.stats) {
        report_message_counts();
        report_time();
        report_workers();
    }
    if (!options_.trace.empty()) write_trace();
    for (const auto& rank : routes_.ranks)
        if (rank->exit_code() != 0) return rank->exit_code();
    return 0;
}

}  // namespace bamboo

extern "C" __attribute__((weak)) int bamboo_main(int, char**) {
    std::fprintf(stderr,
                 "bamboo: this program has no translated main(); build the file that defines "
                 "main() with bamboocc\n");
    return 1;
}
