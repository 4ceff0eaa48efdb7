/* The program's globals, declared once: EXTERN is `extern` in every file but main.c,
 * which defines them by including this header with EXTERN empty. */
#ifndef GLOBALS_H
#define GLOBALS_H

#ifndef EXTERN
#define EXTERN extern
#endif

EXTERN int nsteps;
EXTERN double energy;
EXTERN double history[4];
EXTERN int calls;

void step(int rank, int size);
double report(void);

#endif
