// C++ objects with static storage under Bamboo: globals of the standard library's types
// (std::vector, std::string, std::map, std::mutex, std::unique_ptr, an array of strings), a
// class whose constructor and destructor count in plain globals, a static member vector, a
// function-local static string, and initializers that call functions or read other globals.
// Each rank constructs its own before main and destroys them after main returns or exit(),
// last constructed first: every destructor prints a line numbered in the order the rank runs
// them. Shared by the tasks of a process, the objects would hold the other ranks' entries,
// be constructed once, and be destroyed once.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

int my_rank = -1;     // set by main, read by the destructors
int constructed = 0;  // Trackers this rank constructed
int destroyed = 0;    // and destroyed: numbers the destructors' lines
int ids_given = 0;

int next_id() { return ++ids_given; }

class Tracker {
public:
    explicit Tracker(std::string name) : name_(std::move(name)), id_(next_id()) { ++constructed; }
    Tracker(const Tracker &) = delete;
    ~Tracker() {
        std::printf("rank %d: destroyed %d: %s (id %d, %d constructed)\n", my_rank, ++destroyed,
                    name_.c_str(), id_, constructed);
    }
    const std::string &name() const { return name_; }

private:
    std::string name_;
    int id_;
};

Tracker first("first");  // direct-initialization
std::vector<int> history;
std::string greeting = "hello";  // copy-initialization
std::map<std::string, int> counts = {{"sent", 0}, {"received", 0}};  // copy-list
std::string names[3] = {"x", "y"};
std::mutex lock;                                 // neither copied nor moved
std::unique_ptr<int> boxed{new int(next_id())};  // direct-list, calls a function
std::vector<int> sized(constructed + ids_given, 7);  // reads the task's own counters

namespace {
std::vector<double> samples(2, 0.5);
}

namespace journal {
std::string title("journal of ");
}

class Registry {
public:
    static void add(const std::string &entry) { entries.push_back(entry); }
    static std::string all() {
        std::string joined;
        for (const std::string &e : entries) joined += e + ";";
        return joined;
    }

private:
    static std::vector<std::string> entries;
};

std::vector<std::string> Registry::entries = {"start"};

const std::string &rank_name(int rank) {
    static std::string name = "rank-" + std::to_string(rank) + "-" + std::to_string(next_id());
    return name;
}

const Tracker &local_tracker() {
    static Tracker tracker("function-local");  // destroyed first: constructed last
    return tracker;
}

Tracker last("last");

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    my_rank = rank;

    for (int i = 0; i <= rank % 4; i++) history.push_back(rank * 10 + i);
    greeting += " from " + std::to_string(rank);
    names[2] = rank_name(rank);
    journal::title += rank_name(rank);  // the same name: constructed once per rank
    *boxed += rank;
    samples.push_back(rank / 2.0);
    Registry::add(greeting);
    local_tracker();

    // a ring: each rank sends its history's length to the next
    int mine = static_cast<int>(history.size()), theirs = 0;
    {
        std::lock_guard<std::mutex> hold(lock);
        MPI_Sendrecv(&mine, 1, MPI_INT, (rank + 1) % size, 0, &theirs, 1, MPI_INT, (rank + size - 1) % size,
                     0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        counts["sent"] += 1;
        counts["received"] += theirs;
    }
    Registry::add(names[0] + names[1] + names[2]);

    {  // a local's destructor does not run when exit() ends the task, as in a process
        std::ostringstream line;
        line << "rank " << rank << ": " << journal::title << ", " << Registry::all() << " history " << history.size()
             << " sized " << sized.size() << " samples " << samples.size() << " sent " << counts["sent"] << " received "
             << counts["received"] << " boxed " << *boxed << " trackers " << first.name() << "/" << last.name() << "/"
             << local_tracker().name() << " constructed " << constructed << " ids " << ids_given << "\n";
        std::fputs(line.str().c_str(), stdout);  // one write: the line stays whole
    }
    MPI_Finalize();
    // static objects are destroyed also when the program ends by exit()
    if (rank % 2 == 1) std::exit(0);
    return 0;
}
