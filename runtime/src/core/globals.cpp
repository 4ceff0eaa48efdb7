#include "core/globals.hpp"

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "bamboo.h"
#include "util/errors.hpp"

__thread char* bamboo_globals = nullptr;

namespace bamboo {
namespace {

struct Registry {
    std::vector<bamboo_global> variables;
    std::size_t size = 0;
    std::size_t align = alignof(std::max_align_t);
};

// A function-local static: registrations come from constructors, in no set order.
Registry& registry() {
    static Registry instance;
    return instance;
}

std::size_t round_up(std::size_t n, std::size_t align) { return (n + align - 1) / align * align; }

}  // namespace

std::shared_ptr<char> make_task_globals() {
    const Registry& r = registry();
    if (r.variables.empty()) return nullptr;
    void* block = std::aligned_alloc(r.align, round_up(r.size, r.align));
    if (!block) fatal("out of memory for a task's %zu bytes of privatized globals", r.size);
    char* base = static_cast<char*>(block);
    for (const bamboo_global& g : r.variables) std::memcpy(base + *g.offset, g.initial, g.size);
    return std::shared_ptr<char>(base, [](char* p) { std::free(p); });
}

}  // namespace bamboo

extern "C" void bamboo_register_globals(const bamboo_global* globals, size_t count) {
    bamboo::Registry& r = bamboo::registry();
    for (size_t i = 0; i < count; ++i) {
        const bamboo_global& g = globals[i];
        std::size_t align = g.align ? g.align : 1;
        if (align & (align - 1))
            bamboo::fatal("privatized global %s has alignment %zu, not a power of two", g.name, align);
        std::size_t offset = bamboo::round_up(r.size, align);
        *g.offset = offset;
        r.size = offset + g.size;
        if (align > r.align) r.align = align;
        r.variables.push_back(g);
    }
}

extern "C" size_t bamboo_register_global(bamboo_global global) {
    bamboo_register_globals(&global, 1);
    return *global.offset;
}
