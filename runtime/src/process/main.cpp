// The program's real main(): starts MPI, the tasks (one per virtual rank, each running the
// user's main() renamed bamboo_main()), the workers and the comm engine, and ends them.
#include <mpi.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include "bamboo.h"
#include "comm/communicator.hpp"
#include "core/faults.hpp"
#include "core/globals.hpp"
#include "core/task_stacks.hpp"
#include "core/worker.hpp"
#include "messaging/buffer_budget.hpp"
#include "messaging/datatype.hpp"
#include "messaging/rank.hpp"
#include "messaging/requests.hpp"
#include "process/deadlock_watch.hpp"
#include "process/options.hpp"
#include "process/runtime.hpp"
#include "process/vf_choice.hpp"
#include "transport/comm_engine.hpp"
#include "transport/node.hpp"
#include "util/errors.hpp"
#include "util/mpi_guard.hpp"
#include "util/spin.hpp"

namespace bamboo {
namespace {

constexpr int kExitBadOption = 2;

// Every process parses the same arguments; the lowest one that found an error reports it,
// so that the message appears once, and all leave cleanly.
bool options_agreed(const Runtime& rt, const std::string& error) {
    int mine = error.empty() ? rt.routes.process_count : rt.routes.process;
    int first = mine;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == rt.routes.process_count) return true;
    if (first == rt.routes.process) std::fprintf(stderr, "bamboo: %s\n", error.c_str());
    return false;
}

// CPUs this process may run on (mpirun may have bound it to fewer than the node has).
int usable_cpus() {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
    return CPU_COUNT(&set);
}

// Workers a process would have with enough tasks (collective: all processes call it).
int workers_wanted(const Options& options, bool single_thread) {
    if (single_thread) return 1;
    if (options.workers > 0) return options.workers;
    long cores = sysconf(_SC_NPROCESSORS_ONLN) / static_cast<long>(processes_on_this_node().size());
    return static_cast<int>(std::max(1L, std::min<long>(cores, usable_cpus())));
}

// --bamboo-vf auto: the runs of this program on this many processes with these arguments.
std::string profile_key(const Runtime& rt, int argc, char** argv) {
    std::string key = "processes=" + std::to_string(rt.routes.process_count) + " args=";
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

// Process 0 chooses from the profile and the network measured now; every process learns
// the choice.
int choose_vf_automatically(const Runtime& rt, int workers, const std::string& key, const std::string& path,
                            NetworkCost* network) {
    *network = measure_network(rt.routes.process, rt.routes.process_count);
    int vf = 0;
    if (rt.routes.process == 0) {
        VfChoice choice = choose_vf(rt.options.vf_candidates, read_profile(path, key), *network, workers);
        std::fprintf(stderr, "bamboo: --bamboo-vf auto: %s [profile %s]\n", choice.reason.c_str(), path.c_str());
        vf = choice.vf;
    }
    MPI_Bcast(&vf, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return vf;
}

// After an auto run: the busiest process's figures go into the profile.
void record_run(const Runtime& rt, double wall_s, const NetworkCost& network, const std::string& key,
                const std::string& path) {
    double mine[4] = {wall_s, 0, 0, 0};  // wall, compute, remote bytes, remote messages
    for (const auto& worker : rt.workers) mine[1] += std::chrono::duration<double>(worker->busy()).count();
    for (const auto& rank : rt.routes.ranks)
        for (int origin = 0; origin < 2; ++origin) {
            mine[2] += rank->sent.bytes[origin][MessageCounts::other_process];
            mine[3] += rank->sent.messages[origin][MessageCounts::other_process];
        }
    double most[4];
    MPI_Reduce(mine, most, 4, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rt.routes.process != 0) return;
    RunRecord record{rt.routes.vf, static_cast<int>(rt.workers.size()), most[0], most[1], most[2], most[3], network};
    if (!append_profile(path, key, record))
        warn("--bamboo-vf auto: cannot add this run to the profile %s: %s", path.c_str(), std::strerror(errno));
}

// A limit the system sets on memory ends the job with the limit named, not with an
// uncaught std::bad_alloc.
void create_tasks(Runtime& rt, int argc, char** argv) {
    std::vector<std::string> args(argv, argv + argc);
    int worker_count = static_cast<int>(rt.workers.size());
    int first_vrank = rt.routes.process * rt.routes.vf;
    try {
        rt.stacks = std::make_unique<TaskStacks>(rt.routes.vf, rt.options.stack_size);
    } catch (const StackError& e) {
        fatal("cannot create the tasks vrank %d..%d: %s", first_vrank, first_vrank + rt.routes.vf - 1, e.what());
    }
    for (int t = 0; t < rt.routes.vf; ++t) {
        // Contiguous blocks of vranks per worker: neighbours in rank usually talk most.
        Worker& worker = *rt.workers[static_cast<std::size_t>(t) * worker_count / rt.routes.vf];
        int vrank = first_vrank + t;
        try {
            rt.routes.ranks.push_back(std::make_unique<Rank>(vrank, worker, rt.stacks->stack(t), make_task_globals(),
                                                             &bamboo_main, args, rt.routes));
        } catch (const StackError& e) {
            fatal("cannot create task vrank %d: %s", vrank, e.what());
        } catch (const std::bad_alloc&) {
            // A task's globals are a mapping of their own when large.
            fatal("cannot create task vrank %d: %s", vrank,
                  refused_memory_reason(0, static_cast<std::size_t>(rt.routes.vf - t)).c_str());
        }
        worker.assign(rt.routes.ranks.back().get());
    }
}

// --bamboo-buffer-limit auto: 256M, or less where the node's memory shared by its processes
// is small (collective: all processes call it).
std::size_t buffer_limit(const Options& options) {
    if (options.buffer_limit) return options.buffer_limit;
    constexpr std::size_t kDefault = 256u << 20;
    long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGE_SIZE);
    std::size_t share = static_cast<std::size_t>(std::max(pages, 1L)) * static_cast<std::size_t>(std::max(page_size, 1L)) /
                        4 / processes_on_this_node().size();
    return std::max<std::size_t>(std::min(kDefault, share), 1u << 20);
}

// Who drives the comm engine (see CommThread). Single-thread mode has no thread to give it.
bool wants_comm_thread(const Options& options, bool single_thread, int worker_count, bool network_peers) {
    if (single_thread) return false;
    switch (options.comm_thread) {
    case CommThread::on: return true;
    case CommThread::off: return false;
    case CommThread::automatic: break;
    }
    return usable_cpus() > worker_count || network_peers;
}

void run_tasks(Runtime& rt, bool comm_thread, bool shares_core, bool single_thread) {
    auto job_finished = [&rt] { return rt.watch->job_finished(); };
    std::thread engine;
    if (comm_thread) engine = std::thread([&rt, shares_core, job_finished] { rt.engine->run(shares_core, job_finished); });
    std::vector<std::thread> workers;
    for (std::size_t w = 1; w < rt.workers.size(); ++w)
        workers.emplace_back([&rt, w] { rt.workers[w]->run(); });
    rt.workers[0]->run();  // the main thread is worker 0
    for (std::thread& worker : workers) worker.join();
    rt.engine->tasks_done();
    if (comm_thread)
        engine.join();
    else
        rt.engine->finish(single_thread, job_finished);
}

// --bamboo-stats: one line per process, written whole so lines of processes do not mix.
void report_message_counts(const Runtime& rt) {
    MessageCounts sum;
    for (const auto& rank : rt.routes.ranks)
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
    std::string line = "bamboo: stats: process " + std::to_string(rt.routes.process) + " sent " +
                       part("point-to-point", MessageCounts::point_to_point) + "; " +
                       part("collectives", MessageCounts::collective) + "; at most " +
                       std::to_string(rt.engine->peak_requests_to_one_process()) +
                       " MPI requests in flight to one process\n";
    std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace

}  // namespace bamboo

extern "C" __attribute__((weak)) int bamboo_main(int, char**) {
    std::fprintf(stderr,
                 "bamboo: this program has no translated main(); build the file that defines "
                 "main() with bamboocc\n");
    return 1;
}

int main(int argc, char** argv) {
    using namespace bamboo;
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    Runtime rt;
    MPI_Comm_rank(MPI_COMM_WORLD, &rt.routes.process);
    MPI_Comm_size(MPI_COMM_WORLD, &rt.routes.process_count);

    std::string error;
    try {
        rt.options = parse_options(argc, argv, [](const char* name) { return std::getenv(name); });
        if (static_cast<long long>(rt.routes.process_count) * rt.options.vf > INT_MAX)
            error = "--bamboo-vf " + std::to_string(rt.options.vf) + " makes more ranks than an int holds";
    } catch (const OptionError& e) {
        error = e.what();
    }
    if (!options_agreed(rt, error)) {
        MPI_Finalize();
        return kExitBadOption;
    }
    if (rt.options.help) {
        if (rt.routes.process == 0) std::fputs(options_help().c_str(), stdout);
        MPI_Finalize();
        return 0;
    }
    if (decode_handle(MPI_REQUEST_NULL) || decode_handle(MPI_COMM_NULL) ||
        decode_handle(MPI_COMM_WORLD) || decode_handle(MPI_COMM_SELF) ||
        decode_handle(MPI_GROUP_NULL) || decode_handle(MPI_GROUP_EMPTY))
        fatal("this MPI library's predefined handles collide with the runtime's own handles");

    bool single_thread = rt.options.single_thread;
    if (!single_thread && provided < MPI_THREAD_SERIALIZED) {
        if (rt.routes.process == 0)
            warn("the MPI library does not support calls from several threads; running single-threaded");
        single_thread = true;
    }
    set_mpi_serialized(!single_thread && provided < MPI_THREAD_MULTIPLE);
    init_datatypes();

    int workers = workers_wanted(rt.options, single_thread);
    const bool vf_auto = !rt.options.vf_candidates.empty();
    std::string key, path;
    NetworkCost network;
    if (vf_auto) {
        key = profile_key(rt, argc, argv);
        path = profile_path(rt.options, argv[0]);
        rt.options.vf = choose_vf_automatically(rt, workers, key, path, &network);
    }
    rt.routes.vf = rt.options.vf;
    std::vector<int> world_vranks(static_cast<std::size_t>(rt.routes.process_count) * rt.routes.vf);
    for (std::size_t v = 0; v < world_vranks.size(); ++v) world_vranks[v] = static_cast<int>(v);
    rt.routes.world = std::make_shared<Communicator>(kWorldContext, std::move(world_vranks), rt.routes.vf,
                                              "MPI_COMM_WORLD");
    rt.routes.budget = std::make_unique<BufferBudget>(buffer_limit(rt.options), rt.routes.process_count, rt.routes.process);
    rt.engine = std::make_unique<CommEngine>(rt.routes, rt.workers, rt.options.payload_piece_auto,
                                             rt.options.payload_piece);
    rt.routes.link = rt.engine.get();
    int worker_count = std::min(workers, rt.routes.vf);  // a worker without tasks would only idle
    bool comm_thread = wants_comm_thread(rt.options, single_thread, worker_count, rt.engine->has_network_peers());
    bool shares_core = worker_count + comm_thread > usable_cpus();
    if (shares_core) spin_yield_interval = std::chrono::microseconds(0);
    rt.watch = std::make_unique<DeadlockWatch>(rt.routes, *rt.engine, rt.options.deadlock_timeout);
    // Without a comm engine thread the workers drive the engine, between tasks too, and run
    // the deadlock watch, which is otherwise that thread's job; they keep polling rather than
    // nap while messages are in transit. With one, idle workers still poll, so that a message
    // does not wait for a thread switch.
    WorkerDuties duties;
    bool remote = rt.routes.process_count > 1;
    if (comm_thread) {
        if (remote) duties.poll_when_idle = [&rt] {
            rt.engine->try_progress();
            return false;
        };
    } else {
        duties.poll_when_idle = [&rt, remote] {
            if (remote) rt.engine->try_progress();
            rt.watch->job_finished();
            return remote && rt.engine->in_transit();
        };
        if (remote) duties.poll_between_tasks = [&rt] { rt.engine->try_progress(); };
        duties.naps = true;
        duties.never_sleeps = single_thread;
    }
    for (int w = 0; w < worker_count; ++w) rt.workers.push_back(std::make_unique<Worker>(duties));
    create_tasks(rt, argc, argv);
    install_fault_handlers();

    double started = MPI_Wtime();
    run_tasks(rt, comm_thread, shares_core, single_thread);
    if (vf_auto) record_run(rt, MPI_Wtime() - started, network, key, path);
    if (rt.options.stats) report_message_counts(rt);

    int exit_code = 0;
    for (const auto& rank : rt.routes.ranks) {
        if (rank->exit_code() != 0) {
            exit_code = rank->exit_code();
            break;
        }
    }
    MPI_Finalize();
    return exit_code;
}
