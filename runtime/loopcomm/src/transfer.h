/* transfer.h: moving regions with OpenSHMEM; the only part of the runtime that calls SHMEM. */
#ifndef BAMBOO_LC_TRANSFER_H
#define BAMBOO_LC_TRANSFER_H

#include <stddef.h>

#include "lmad.h"
#include "model.h"

/* Issues the transfer of region r (element indices of the remote array) between `remote` on
 * `pe` and the local buffer `buf`, where element e lives at buf + (e - origin) * elem_size.
 * GETs and PUTs are nonblocking where SHMEM has it (getmem_nbi, putmem_nbi, iput) and
 * complete at lc_xfer_quiet; strided GETs (shmem_iget) are blocking.  Returns the bytes
 * moved (a span's holes included). */
double lc_xfer_region(int put, const lc_region *r, enum lc_kind kind, void *buf, long origin,
                      const void *remote, size_t elem_size, int pe);
/* Element e of `remote` on pe into dst, at once (a blocking get). */
void lc_xfer_get_now(void *dst, const void *remote, long e, size_t elem_size, int pe);
void lc_xfer_quiet(void);
int lc_xfer_my_pe(void);
int lc_xfer_n_pes(void);

#endif
