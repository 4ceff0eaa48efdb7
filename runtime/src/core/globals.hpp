// Privatized globals: every task has its own block holding a copy of each registered variable,
// and its own object of each registered C++ variable of non-trivial type.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace bamboo {

// A new block initialized from the variables' original definitions, the objects' slots zeroed
// (nullptr if nothing is registered). Call after all registrations (constructors run before
// main).
std::shared_ptr<char> make_task_globals();

// The objects a task has constructed in its block, destroyed last first when it ends, as a
// process destroys its static objects at exit. A task's own: used on its stack only.
class TaskObjects {
public:
    // Runs the registered objects' initializers in `block`, in the order of registration.
    void construct_all(char* block);
    // A function-local static the task has just constructed at `object`.
    void constructed(void (*destroy)(void*), void* object);
    // Destroys each object, taking it off the list first: a destructor that ends the task
    // (exit()) leaves the rest to the next call.
    void destroy_all();

private:
    struct Constructed {
        void (*destroy)(void*);
        void* object;
    };
    std::vector<Constructed> constructed_;
};

}  // namespace bamboo
