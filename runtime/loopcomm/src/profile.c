/* profile.c: reading the profile file (the format is in profile.h). */
#define _POSIX_C_SOURCE 200809L
#include "profile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int lc_profile_path(char *buf, size_t size)
{
    const char *env = getenv("BAMBOO_LOOPCOMM_PROFILE");
    if (env && *env)
        return (size_t)snprintf(buf, size, "%s", env) < size ? 0 : -1;
    char host[256] = "localhost";
    if (gethostname(host, sizeof host) != 0)
        strcpy(host, "localhost");
    host[sizeof host - 1] = 0;
    const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    int n;
    if (xdg && *xdg)
        n = snprintf(buf, size, "%s/bamboo/loopcomm/%s.profile", xdg, host);
    else
        n = snprintf(buf, size, "%s/.config/bamboo/loopcomm/%s.profile", home && *home ? home : ".", host);
    return n >= 0 && (size_t)n < size ? 0 : -1;
}

static double *field(lc_params *p, const char *key)
{
    if (strcmp(key, "t_op") == 0)
        return &p->t_op_ns;
    const char *dot = strrchr(key, '.');
    if (!dot)
        return NULL;
    for (int i = 0; i < LC_NPRIMS; i++) {
        size_t len = strlen(lc_prim_names[i]);
        if ((size_t)(dot - key) != len || strncmp(key, lc_prim_names[i], len) != 0)
            continue;
        const char *f = dot + 1;
        if (strcmp(f, "o") == 0) return &p->prim[i].o;
        if (strcmp(f, "g") == 0) return &p->prim[i].g;
        if (strcmp(f, "G") == 0) return &p->prim[i].G;
        if (strcmp(f, "L") == 0) return &p->prim[i].L;
        if (strcmp(f, "Gcpu") == 0) return &p->prim[i].Gcpu;
        return NULL;
    }
    return NULL;
}

static int descriptive(const char *key)
{
    static const char *const keys[] = {"network", "nodes", "host", "created", "fit_residual"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (strcmp(key, keys[i]) == 0)
            return 1;
    return 0;
}

int lc_profile_read(const char *path, lc_params *p, char *err, size_t err_size)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT)
            return LC_PROFILE_MISSING;
        snprintf(err, err_size, "%s: cannot read: %s", path, strerror(errno));
        return LC_PROFILE_BAD;
    }
    lc_params work = *p;  /* all or nothing */
    char line[1024];
    int number = 0, status = LC_PROFILE_OK;
    while (fgets(line, sizeof line, f)) {
        number++;
        if (!strchr(line, '\n') && !feof(f)) {
            snprintf(err, err_size, "%s:%d: line too long", path, number);
            status = LC_PROFILE_BAD;
            break;
        }
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        char key[128], value[512], extra[8];
        int n = sscanf(line, "%127s %511s %7s", key, value, extra);
        if (n <= 0)
            continue;  /* blank or comment */
        if (n != 2) {
            snprintf(err, err_size, "%s:%d: expected `key value`, got %s", path, number,
                     n == 1 ? "a key without a value" : "more than one value");
            status = LC_PROFILE_BAD;
            break;
        }
        if (descriptive(key))
            continue;
        double *to = field(&work, key);
        if (!to) {
            snprintf(err, err_size, "%s:%d: unknown key `%s`", path, number, key);
            status = LC_PROFILE_BAD;
            break;
        }
        char *end;
        errno = 0;
        double v = strtod(value, &end);
        if (*end != 0 || errno != 0 || !isfinite(v) || v < 0) {
            snprintf(err, err_size, "%s:%d: `%s` must be a number >= 0, got `%s`", path, number, key, value);
            status = LC_PROFILE_BAD;
            break;
        }
        *to = v;
    }
    if (status == LC_PROFILE_OK && ferror(f)) {
        snprintf(err, err_size, "%s: read error", path);
        status = LC_PROFILE_BAD;
    }
    fclose(f);
    if (status == LC_PROFILE_OK)
        *p = work;
    return status;
}
