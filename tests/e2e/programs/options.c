/* Options parsed the way benchmarks and proxy applications parse them: getopt_long over
 * the program's arguments (GNU permutation, an unknown option, an optional argument), then
 * a second pass of getopt over a setting string split with strtok. Every rank must see
 * what its own process would under plain MPI. A member, a parameter and a macro of the
 * program use getopt's names, as the OSU micro-benchmarks do. */
#include <getopt.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct option long_options[] = {
    {"iterations", required_argument, NULL, 'i'},
    {"size", required_argument, NULL, 's'},
    {"verbose", no_argument, NULL, 'v'},
    {"name", optional_argument, NULL, 'n'},
    {NULL, 0, NULL, 0},
};

static int iterations = 1, size = 8, verbose = 0;

#define ARGUMENT_OR(fallback) (optarg ? optarg : (fallback))

struct bad_usage {
    const char *message;
    const char *optarg;
    int opt;
};

static void print_bad_usage(int rank, const struct bad_usage *usage, int optind)
{
    printf("rank %d: bad usage: %s (-%c %s, before argument %d)\n", rank, usage->message,
           usage->opt, usage->optarg, optind);
}

static void parse_settings(int rank, char *settings)
{
    extern char *optarg;   /* as older code declares the C library's variables */
    extern int optind;
    char *words[16];
    int count = 0, c;
    words[count++] = "settings";
    for (char *word = strtok(settings, " "); word && count < 15; word = strtok(NULL, " "))
        words[count++] = word;
    words[count] = NULL;
    optind = 1;
    while ((c = getopt(count, words, "a:b")) != -1) {
        if (c == 'a') printf("rank %d: setting a=%s\n", rank, optarg);
        else printf("rank %d: setting %c\n", rank, c);
    }
    for (int i = optind; i < count; i++) printf("rank %d: setting operand %s\n", rank, words[i]);
}

int main(int argc, char **argv)
{
    int rank, c, index = -1, flag;
    const char *name = "none";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    while ((c = getopt_long(argc, argv, "i:s:vn::", long_options, &index)) != -1) {
        /* an unsuccessful probe lets the process's other tasks run in the middle of the loop */
        MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        switch (c) {
        case 'i': iterations = atoi(optarg); break;
        case 's':
            size = atoi(optarg);
            if (size < 4) {
                struct bad_usage usage = {"size below 4", optarg, c};
                print_bad_usage(rank, &usage, optind);
                size = 4;
            }
            break;
        case 'v': verbose++; break;
        case 'n': name = ARGUMENT_OR("given"); break;
        case '?': printf("rank %d: unknown option (optopt %d, optind %d)\n", rank, optopt, optind); break;
        }
        if (index >= 0) printf("rank %d: long option %s\n", rank, long_options[index].name);
        index = -1;
    }
    printf("rank %d: iterations=%d size=%d verbose=%d name=%s optind=%d of %d\n", rank, iterations,
           size, verbose, name, optind, argc);
    char operands[128] = "";
    for (int i = optind; i < argc; i++) {
        strncat(operands, " ", sizeof operands - strlen(operands) - 1);
        strncat(operands, argv[i], sizeof operands - strlen(operands) - 1);
    }
    printf("rank %d: operands%s\n", rank, operands);

    char settings[64];
    snprintf(settings, sizeof settings, "-a %d -b input%d.dat -b", rank * 10, rank % 3);
    parse_settings(rank, settings);

    int sum = 0, mine = iterations * size + verbose;
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d: sum %d\n", rank, sum);
    MPI_Finalize();
    return 0;
}
