/* Reference: memcpy bandwidth of this machine for one message size (what one copy costs).
 *   memcpy_reference BYTES ITERATIONS     prints "RESULT bandwidth_GBps X" */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv) {
    long bytes = argc > 1 ? atol(argv[1]) : 1 << 20;
    int iterations = argc > 2 ? atoi(argv[2]) : 2000;
    char *a = malloc(bytes), *b = malloc(bytes);
    memset(a, 1, bytes);
    memset(b, 2, bytes);
    struct timespec t0, t1;
    for (int i = 0; i < iterations / 10; ++i) memcpy(i % 2 ? a : b, i % 2 ? b : a, bytes);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < iterations; ++i) memcpy(i % 2 ? a : b, i % 2 ? b : a, bytes);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    printf("RESULT bandwidth_GBps %.4f\n", (double)bytes * iterations / seconds / 1e9);
    free(a);
    free(b);
    return 0;
}
