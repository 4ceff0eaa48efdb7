#include <mpi.h>
int main(int argc, char **argv)
{
    /* clang accepts a declaration as the body of these, GCC does not */
    if (argc == 0)
        int first = 0;
    else int second = 2;
    while (argc--) int counted;
    for (;;) int looped;
    do int once; while (0);
    switch (argc) int chosen;
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_declaration_as_body.c:6:9: error: a declaration cannot be the body of 'if' (only a statement can): put it in braces
// expect: bad_declaration_as_body.c:7:10: error: a declaration cannot be the body of 'else' (only a statement can): put it in braces
// expect: bad_declaration_as_body.c:8:20: error: a declaration cannot be the body of 'while' (only a statement can): put it in braces
// expect: bad_declaration_as_body.c:9:14: error: a declaration cannot be the body of 'for' (only a statement can): put it in braces
// expect: bad_declaration_as_body.c:10:8: error: a declaration cannot be the body of 'do' (only a statement can): put it in braces
// expect: bad_declaration_as_body.c:11:19: error: a declaration cannot be the body of 'switch' (only a statement can): put it in braces
*/
