// C++ under Bamboo: classes, a function template, a static member counter, namespace-scope
// and function-local statics, std::vector buffers and a halo exchange around a ring in an
// olap region. Every number printed depends on the rank's own copy of that state: shared by
// the tasks of a process, the counters would add up the tasks' counts.
#include <mpi.h>

#include <algorithm>
#include <iostream>
#include <sstream>
#include <vector>

namespace stats {
int exchanges = 0;  // halo exchanges this rank has done
namespace {
double largest = 0.0;  // the largest cell value seen after an exchange
}
}  // namespace stats

// A piece of a 1D field with one ghost cell at each end.
class Segment {
public:
    Segment(int cells, double first) : values_(cells + 2, 0.0) {
        for (int i = 1; i <= cells; i++) values_[i] = first + i;
        ++Segment::made;
        ++Segment::alive;
    }
    Segment(const Segment &other) : values_(other.values_) { ++Segment::alive; }
    ~Segment() { --Segment::alive; }

    int cells() const { return static_cast<int>(values_.size()) - 2; }
    double *first_cell() { return &values_[1]; }
    double *last_cell() { return &values_[cells()]; }
    double *left_ghost() { return &values_[0]; }
    double *right_ghost() { return &values_[cells() + 1]; }

    // Each cell becomes the mean of itself and its neighbours (in place: the ghost cells'
    // addresses are the receive buffers).
    void smooth() {
        std::vector<double> next(values_);
        for (int i = 1; i <= cells(); i++) next[i] = (values_[i - 1] + values_[i] + values_[i + 1]) / 3;
        std::copy(next.begin(), next.end(), values_.begin());
        ++smoothings();
    }
    const std::vector<double> &values() const { return values_; }

    static int made;   // Segments this rank constructed
    static int alive;  // and of those (and their copies) the ones not yet destroyed

private:
    // a function-local static in a member function
    static int &smoothings() {
        static int count = 0;
        return count;
    }

public:
    static int smoothings_done() { return smoothings(); }

private:
    std::vector<double> values_;
};

int Segment::made = 0;
int Segment::alive = 0;

template <class T>
T total(const std::vector<T> &values) {
    T sum = T();
    for (const T &v : values) sum += v;
    return sum;
}

// A tag per round, from a function-local static.
int next_tag() {
    static int tag = 100;
    return tag++;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int cells = 8;
    const int iterations = 5;
    int left = (rank + size - 1) % size;
    int right = (rank + 1) % size;

    // rank + 1 spare Segments, made and copied so that the counters differ by rank
    std::vector<Segment> spares;
    for (int i = 0; i <= rank; i++) spares.push_back(Segment(1, i));
    Segment field(cells, 10.0 * rank);

    double *left_ghost = field.left_ghost(), *right_ghost = field.right_ghost();
    MPI_Request sends[2];
#pragma bamboo olap
    for (int it = 0; it < iterations; it++) {
        int tag = next_tag();
#pragma bamboo send
        {
            MPI_Isend(field.first_cell(), 1, MPI_DOUBLE, left, tag, MPI_COMM_WORLD, &sends[0]);
            MPI_Isend(field.last_cell(), 1, MPI_DOUBLE, right, tag, MPI_COMM_WORLD, &sends[1]);
        }
#pragma bamboo receive
        {
            MPI_Recv(right_ghost, 1, MPI_DOUBLE, right, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Recv(left_ghost, 1, MPI_DOUBLE, left, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        MPI_Waitall(2, sends, MPI_STATUSES_IGNORE);
        ++stats::exchanges;
        field.smooth();
        for (double v : field.values())
            if (v > stats::largest) stats::largest = v;
    }

    double local = total(field.values());
    double global = 0;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);

    std::ostringstream line;
    line << "rank " << rank << ": total " << local << " of " << global << ", exchanges "
         << stats::exchanges << ", next tag " << next_tag() << ", largest " << stats::largest
         << ", segments made " << Segment::made << " alive " << Segment::alive
         << ", smoothings " << Segment::smoothings_done() << "\n";
    std::cout << line.str() << std::flush;  // one write: the line stays whole
    MPI_Finalize();
    return 0;
}
