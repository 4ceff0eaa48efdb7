#include <mpi.h>
struct weight { int w; };
static void nothing(void) { }
int main(int argc, char **argv)
{
    int rank = 0;
    struct weight heavy = { 3 };
    MPI_Init(&argc, &argv);
#pragma bamboo priority rank +
    rank++;
#pragma bamboo priority @ rank
    rank++;
#pragma bamboo priority "high"
    rank++;
#pragma bamboo priority undeclared_level + 1
    rank++;
#pragma bamboo priority rank = 1; rank++
    rank++;
#pragma bamboo priority if (rank) 1
    rank++;
#pragma bamboo priority (rank + 1
    rank++;
#pragma bamboo priority rank + 1)
    rank++;
#pragma bamboo priority heavy
    rank++;
#pragma bamboo priority nothing()
    rank++;
#pragma bamboo priority 0.5 * rank
    rank++;
#pragma bamboo priority heavy.w * 2
    rank++;
#pragma bamboo priority \
    rank + undeclared_rank
    rank++;
    MPI_Finalize();
    return 0;
}

/* The translator must reject this file with exactly these errors:
// expect: bad_priority_expression.c:9:31: error: invalid priority expression: expected expression
// expect: bad_priority_expression.c:11:25: error: invalid priority expression: expected expression
// expect: bad_priority_expression.c:13:25: error: the priority expression has type 'char *'; it must be an integer
// expect: bad_priority_expression.c:15:25: error: invalid priority expression: use of undeclared identifier 'undeclared_level'
// expect: bad_priority_expression.c:17:33: error: unexpected ';' in the priority expression (it must be one C expression)
// expect: bad_priority_expression.c:19:25: error: invalid priority expression: expected expression
// expect: bad_priority_expression.c:21:25: error: unclosed '(' in the priority expression
// expect: bad_priority_expression.c:23:33: error: unmatched ')' in the priority expression
// expect: bad_priority_expression.c:25:25: error: the priority expression has type 'struct weight'; it must be an integer
// expect: bad_priority_expression.c:27:25: error: the priority expression has type 'void'; it must be an integer
// expect: bad_priority_expression.c:29:25: error: the priority expression has type 'double'; it must be an integer
// expect: bad_priority_expression.c:34:12: error: invalid priority expression: use of undeclared identifier 'undeclared_rank'
*/
