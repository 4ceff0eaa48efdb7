/* Helpers shared by the integration test programs: argument parsing and failure reports. */
#ifndef BAMBOO_TEST_CHECK_H
#define BAMBOO_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Records a failed check of the calling rank; the program returns non-zero if any failed. */
#define CHECK(failures, rank, cond, ...)                                     \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "FAIL rank %d (%s:%d): ", (rank), __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                                    \
            fprintf(stderr, "\n");                                           \
            ++(failures);                                                    \
        }                                                                    \
    } while (0)

/* The integer value of "--NAME VALUE" in argv, or `fallback`. */
static inline int int_arg(int argc, char **argv, const char *name, int fallback) {
    for (int i = 1; i + 1 < argc; ++i)
        if (strcmp(argv[i], name) == 0) return atoi(argv[i + 1]);
    return fallback;
}

#endif
