/* Globals shared by the files of the multifile test program. */
#ifndef STATE_H
#define STATE_H
extern int steps;            /* defined in main.c */
extern double history[4];    /* defined in stencil.c */
void stencil_step(int rank, int size);
int stencil_calls(void);
#endif
