// What bamboofort writes for Bamboo's directives in Fortran (translator/bamboo/fortran/
// directives.py): a receive block's firing rule, a send block's bounds and a priority, called
// as Fortran subroutines.
#include "binding.hpp"

using namespace bamboo::fortran;

extern "C" {

void bamboo_expect_(const Fint* source, const Fint* tag, const Fint* c) { bamboo_expect(*source, *tag, comm(*c)); }

void bamboo_expect_receive_(void* buf, const Fint* count, const Fint* type, const Fint* source, const Fint* tag,
                            const Fint* c) {
    bamboo_expect_receive(buffer(buf), *count, datatype(*type), *source, *tag, comm(*c));
}

// Where the rule stands in the user's file: the report of a task that waits in it says so.
void bamboo_fire_at_(const char* file, const Fint* line, std::size_t file_length) {
    bamboo_fire(bamboo_site{kept_name(file, file_length), *line});
}

void bamboo_send_block_begin_() { bamboo_send_block_begin(); }
void bamboo_set_priority_(const Fint* priority) { bamboo_set_priority(*priority); }
void bamboo_send_block_end_() { bamboo_send_block_end(); }

}  // extern "C"
