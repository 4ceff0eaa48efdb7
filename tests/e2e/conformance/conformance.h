/* Helpers shared by the conformance programs.
 *
 * Every program prints lines that the harness sorts and compares against plain MPI, so a
 * line must say who printed it and what it measured, and must not depend on timing. The
 * checksums are taken over what MPI returned: a wrong result changes the printed line,
 * and the local comparison against an independently computed expectation also prints a
 * FAIL line and makes the program exit non-zero.
 *
 * Nothing here has mutable static storage: under Bamboo several ranks share a process,
 * and these helpers must not depend on whether globals in headers get privatized. */
#ifndef CONFORMANCE_H
#define CONFORMANCE_H

#include <mpi.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One write per line: ranks of one process (Bamboo) or many processes (mpirun) share
 * the pipe, and a line split across two stdio flushes could be interleaved with
 * another rank's output. */
static inline void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void say(const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    printf("%s\n", line);
    fflush(stdout);
}

/* Returns 1 (one failure) and prints the reason when ok is false, so that callers can
 * write `bad += expect(...)`. */
static inline int expect(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline int expect(int ok, const char *fmt, ...)
{
    if (ok)
        return 0;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    say("FAIL %s", line);
    return 1;
}

/* FNV-1a, 32 bits: cheap, order-sensitive, and identical on every implementation. */
#define HASH_INIT 2166136261u

static inline uint32_t hash_bytes(uint32_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

static inline uint32_t hash_int(uint32_t h, long long v)
{
    return hash_bytes(h, &v, sizeof v);
}

static inline uint32_t hash_ints(uint32_t h, const int *v, size_t n)
{
    return hash_bytes(h, v, n * sizeof *v);
}

/* Compares n ints and names the first difference; returns 1 if there is one. */
static inline int check_ints(const char *what, const int *got, const int *want, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i])
            return expect(0, "%s: element %zu is %d, want %d", what, i, got[i], want[i]);
    return 0;
}

static inline int check_doubles(const char *what, const double *got, const double *want, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i])
            return expect(0, "%s: element %zu is %.17g, want %.17g", what, i, got[i], want[i]);
    return 0;
}

/* A value that differs with rank, index and a per-test salt, and is small enough that
 * sums over 16 ranks stay exact in int and in double. */
static inline int value_of(int rank, int i, int salt)
{
    return (rank + 1) * 1000 + (i * 7 + salt * 13) % 997;
}

/* The count of failures is printed, so that the harness sees it, and becomes the exit
 * status (the caller still has MPI_Finalize to call). */
static inline int report_failures(int rank, int failures)
{
    say("rank %d: failures %d", rank, failures);
    return failures ? 1 : 0;
}

#endif
