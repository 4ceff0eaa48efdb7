/* profile.h: the model's parameters on disk, as bench/loopcomm/train writes them.
 *
 * Plain text, one `key value` per line; `#` starts a comment; blank lines are ignored.
 * Keys (times in microseconds, G in microseconds per byte; every key optional, a missing
 * one keeps its default; an unknown key or a value that is not a finite number >= 0 is an
 * error, so that a typo is never silently a default):
 *
 *   PRIM.o PRIM.g PRIM.G PRIM.L PRIM.Gcpu
 *                                 for PRIM in get (blocking shmem_getmem), get_nbi
 *                                 (shmem_getmem_nbi + completion), put_nbi, iget, iput;
 *                                 model.h says what each parameter means
 *   t_op                          nanoseconds per arithmetic operation or local reference
 *   network nodes host created fit_residual
 *                                 descriptive (what the trainer measured on, when, and its
 *                                 fit's relative residual); read and ignored
 *
 * Where: $BAMBOO_LOOPCOMM_PROFILE, else ${XDG_CONFIG_HOME:-$HOME/.config}/bamboo/loopcomm/
 * <hostname>.profile.  No SHMEM here. */
#ifndef BAMBOO_LC_PROFILE_H
#define BAMBOO_LC_PROFILE_H

#include <stddef.h>

#include "model.h"

/* The file to read, into buf: returns 0, or -1 if the path does not fit. */
int lc_profile_path(char *buf, size_t size);

enum { LC_PROFILE_OK = 0, LC_PROFILE_MISSING = 1, LC_PROFILE_BAD = -1 };

/* Reads `path` over the defaults already in *p.  MISSING: no such file (p untouched);
 * BAD: unreadable or malformed, with "FILE:LINE: what" (or "FILE: what") in err. */
int lc_profile_read(const char *path, lc_params *p, char *err, size_t err_size);

#endif
