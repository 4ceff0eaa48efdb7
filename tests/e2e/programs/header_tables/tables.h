/* Tables in a header, as older codes keep them: the initialized globals are defined by the one
 * file that includes this header with MAIN defined (EXTERN empty, INIT keeping its
 * initializer) and declared extern everywhere else; the static tables each including file
 * has a copy of its own, a constant one and one the file updates. */
#ifndef TABLES_H
#define TABLES_H

#ifdef MAIN
#define EXTERN
#define INIT(...) = __VA_ARGS__
#else
#define EXTERN extern
#define INIT(...)
#endif

EXTERN int nsteps INIT(3);
EXTERN double weights[3] INIT({0.5, 0.25, 0.125});
EXTERN const char *label INIT("relax");

static const int primes[] = {2, 3, 5, 7, 11, 13};
static int visits[2];

double relax(int rank, int size, double value);
int relax_visits(void);

#endif
