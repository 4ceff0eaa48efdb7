// What bamboofort writes for Bamboo's directives in Fortran (translator/bamboo/fortran/
// directives.py): a receive block's firing rule and a send block's bounds, called as Fortran
// subroutines.
#include "binding.hpp"

using namespace bamboo::fortran;

extern "C" {

void bamboo_expect_(const Fint* source, const Fint* tag, const Fint* c) { bamboo_expect(*source, *tag, comm(*c)); }

void bamboo_expect_receive_(void* buf, const Fint* count, const Fint* type, const Fint* source, const Fint* tag,
                            const Fint* c) {
    bamboo_expect_receive(buffer(buf), *count, datatype(*type), *source, *tag, comm(*c));
}

void bamboo_fire_() { bamboo_fire(kFortranSite); }

void bamboo_send_block_begin_() { bamboo_send_block_begin(); }
void bamboo_send_block_end_() { bamboo_send_block_end(); }

}  // extern "C"
