#include "core/globals.hpp"

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "bamboo.h"
#include "core/task.hpp"
#include "util/errors.hpp"

__thread char* bamboo_globals = nullptr;

char* bamboo_running_globals(void) { return bamboo_globals; }

namespace bamboo {
namespace {

struct Registry {
    std::vector<bamboo_global> variables;
    std::vector<bamboo_object> objects;
    std::size_t size = 0;
    std::size_t align = alignof(std::max_align_t);
};

// A function-local static: registrations come from constructors, in no set order.
Registry& registry() {
    static Registry instance;
    return instance;
}

std::size_t round_up(std::size_t n, std::size_t align) { return (n + align - 1) / align * align; }

// A place of `size` bytes in every task's block.
std::size_t place(const char* name, std::size_t size, std::size_t align) {
    Registry& r = registry();
    if (align == 0) align = 1;
    if (align & (align - 1)) fatal("privatized global %s has alignment %zu, not a power of two", name, align);
    std::size_t offset = round_up(r.size, align);
    r.size = offset + size;
    if (align > r.align) r.align = align;
    return offset;
}

// A function-local object's guard byte follows it (BAMBOO_FIRST_PASS in bamboo.h).
std::size_t slot_size(const bamboo_object& o) { return o.construct ? o.size : o.size + 1; }

}  // namespace

std::shared_ptr<char> make_task_globals() {
    const Registry& r = registry();
    if (r.variables.empty() && r.objects.empty()) return nullptr;
    void* block = std::aligned_alloc(r.align, round_up(r.size, r.align));
    if (!block) fatal("out of memory for a task's %zu bytes of privatized globals", r.size);
    char* base = static_cast<char*>(block);
    for (const bamboo_global& g : r.variables) std::memcpy(base + *g.offset, g.initial, g.size);
    // zero-initialized before construction, as static storage is
    for (const bamboo_object& o : r.objects) std::memset(base + *o.offset, 0, slot_size(o));
    return std::shared_ptr<char>(base, [](char* p) { std::free(p); });
}

void TaskObjects::construct_all(char* block) {
    for (const bamboo_object& o : registry().objects) {
        if (!o.construct) continue;
        o.construct(block + *o.offset);
        constructed_.push_back({o.destroy, block + *o.offset});
    }
}

void TaskObjects::constructed(void (*destroy)(void*), void* object) { constructed_.push_back({destroy, object}); }

void TaskObjects::destroy_all() {
    while (!constructed_.empty()) {
        Constructed last = constructed_.back();
        constructed_.pop_back();
        last.destroy(last.object);
    }
}

}  // namespace bamboo

extern "C" void bamboo_register_globals(const bamboo_global* globals, size_t count) {
    bamboo::Registry& r = bamboo::registry();
    for (size_t i = 0; i < count; ++i) {
        const bamboo_global& g = globals[i];
        *g.offset = bamboo::place(g.name, g.size, g.align);
        r.variables.push_back(g);
    }
}

extern "C" size_t bamboo_register_global(bamboo_global global) {
    bamboo_register_globals(&global, 1);
    return *global.offset;
}

extern "C" size_t bamboo_register_object(bamboo_object object) {
    *object.offset = bamboo::place(object.name, bamboo::slot_size(object), object.align);
    bamboo::registry().objects.push_back(object);
    return *object.offset;
}

extern "C" void bamboo_constructed(const size_t* offset) {
    for (const bamboo_object& o : bamboo::registry().objects) {
        if (o.offset != offset) continue;
        char* object = bamboo_globals + *offset;
        object[o.size] = 1;  // the guard
        bamboo::Task::current()->objects().constructed(o.destroy, object);
        return;
    }
    bamboo::fatal("bamboo_constructed: no function-local object registered at %p", static_cast<const void*>(offset));
}
