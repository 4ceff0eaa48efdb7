/* Unit tests of profile.c: a good file, a missing one, malformed ones (file:line named), and
 * where the file is looked for. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "profile.h"

static char dir[] = "/tmp/lc-profile-XXXXXX";

static const char *write_file(const char *name, const char *text)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

static int read_status(const char *text, lc_params *p, char *err)
{
    const char *path = write_file("t.profile", text);
    lc_params_defaults(p);
    err[0] = 0;
    return lc_profile_read(path, p, err, 512);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 2;
    lc_params p, d;
    lc_params_defaults(&d);
    char err[512];

    CHECK(read_status("# trained\nnetwork shm\nnodes 1\nget_nbi.o 0.25   # µs\n\nget_nbi.G 1.5e-4\n"
                      "iget.L 0\nput_nbi.Gcpu 0.001\nt_op 0.7\nfit_residual 0.03\n", &p, err) == LC_PROFILE_OK);
    CHECK(p.prim[LC_GET_NBI].o == 0.25 && p.prim[LC_GET_NBI].G == 1.5e-4 && p.t_op_ns == 0.7);
    CHECK(p.prim[LC_GET_NBI].L == d.prim[LC_GET_NBI].L);  /* absent: the default */
    CHECK(p.prim[LC_IGET].L == 0 && p.prim[LC_PUT_NBI].Gcpu == 0.001);

    snprintf(err, sizeof err, "%s/none.profile", dir);
    lc_params_defaults(&p);
    CHECK(lc_profile_read(err, &p, err + 256, 256) == LC_PROFILE_MISSING);
    CHECK(memcmp(&p, &d, sizeof p) == 0);

    struct { const char *text, *says; } bad[] = {
        {"get.o 1\nget.q 2\n", "t.profile:2: unknown key `get.q`"},
        {"get.o 1\n\nput_nbi.G -1\n", "t.profile:3: `put_nbi.G` must be a number >= 0, got `-1`"},
        {"t_op fast\n", "t.profile:1: `t_op` must be a number >= 0, got `fast`"},
        {"iget.o\n", "t.profile:1: expected `key value`, got a key without a value"},
        {"iget.o 1 2\n", "t.profile:1: expected `key value`, got more than one value"},
        {"get_nbi.L nan\n", "t.profile:1: `get_nbi.L` must be a number >= 0"},
        {"bogus 3\n", "t.profile:1: unknown key `bogus`"},
        {"get.Gcpux 3\n", "t.profile:1: unknown key `get.Gcpux`"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int status = read_status(bad[i].text, &p, err);
        CHECK(status == LC_PROFILE_BAD);
        CHECK(strstr(err, bad[i].says) != NULL);
        CHECK(memcmp(&p, &d, sizeof p) == 0);  /* all or nothing */
        if (status != LC_PROFILE_BAD || !strstr(err, bad[i].says))
            fprintf(stderr, "  case %zu said: %s\n", i, err);
    }
    CHECK(lc_profile_read(dir, &p, err, sizeof err) == LC_PROFILE_BAD);  /* a directory */

    char path[512], host[256];
    gethostname(host, sizeof host);
    setenv("BAMBOO_LOOPCOMM_PROFILE", "/x/y.profile", 1);
    CHECK(lc_profile_path(path, sizeof path) == 0 && strcmp(path, "/x/y.profile") == 0);
    unsetenv("BAMBOO_LOOPCOMM_PROFILE");
    setenv("XDG_CONFIG_HOME", "/cfg", 1);
    char want[600];
    snprintf(want, sizeof want, "/cfg/bamboo/loopcomm/%s.profile", host);
    CHECK(lc_profile_path(path, sizeof path) == 0 && strcmp(path, want) == 0);
    unsetenv("XDG_CONFIG_HOME");
    setenv("HOME", "/home/u", 1);
    snprintf(want, sizeof want, "/home/u/.config/bamboo/loopcomm/%s.profile", host);
    CHECK(lc_profile_path(path, sizeof path) == 0 && strcmp(path, want) == 0);
    CHECK(lc_profile_path(path, 8) == -1);

    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        return 2;
    return CHECK_DONE("test_profile");
}
