/* check.h: the unit tests' one assertion: report file:line and the expression, count it,
 * and let main() return non-zero at the end. */
#ifndef BAMBOO_LC_CHECK_H
#define BAMBOO_LC_CHECK_H
#include <stdio.h>

static int check_failures, check_count;
#define CHECK(cond)                                                              \
    do {                                                                         \
        check_count++;                                                           \
        if (!(cond)) {                                                           \
            check_failures++;                                                    \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                        \
    } while (0)
#define CHECK_DONE(name)                                                                    \
    (printf("%s: %d checks, %d failed\n", name, check_count, check_failures), check_failures != 0)
#endif
