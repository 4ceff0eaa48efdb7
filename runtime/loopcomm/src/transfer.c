/* transfer.c: the SHMEM calls of each transfer kind (transfer.h). */
#include "transfer.h"

#include <shmem.h>
#include <stdint.h>

#include "bamboo_commdir.h"

typedef struct move {
    int put;
    char *buf;
    const char *remote;
    long origin;
    size_t elem;
    int pe;
    double bytes;
} move;

static void contiguous(long start, long len, void *ctx)
{
    move *m = ctx;
    size_t bytes = (size_t)len * m->elem;
    char *local = m->buf + (start - m->origin) * (long)m->elem;
    char *far = (char *)(uintptr_t)(m->remote + start * (long)m->elem);
    if (m->put)
        shmem_putmem_nbi(far, local, bytes, m->pe);
    else
        shmem_getmem_nbi(local, far, bytes, m->pe);
    bamboo_shmem_moved(m->pe, far);
    m->bytes += (double)bytes;
}

/* `nelems` elements from element `start` on, `stride` apart, on both sides (the buffer
 * mirrors the remote array). */
static void strided(const move *m, long start, long stride, long nelems)
{
    char *local = m->buf + (start - m->origin) * (long)m->elem;
    void *far = (void *)(uintptr_t)(m->remote + start * (long)m->elem);
    ptrdiff_t s = (ptrdiff_t)stride;
    size_t n = (size_t)nelems;
    bamboo_shmem_moved(m->pe, far);
    switch (m->elem) {
    case 4:
        if (m->put) shmem_iput32(far, local, s, s, n, m->pe);
        else shmem_iget32(local, far, s, s, n, m->pe);
        break;
    case 8:
        if (m->put) shmem_iput64(far, local, s, s, n, m->pe);
        else shmem_iget64(local, far, s, s, n, m->pe);
        break;
    default: /* 16: lc_kind_applies allows no other size */
        if (m->put) shmem_iput128(far, local, s, s, n, m->pe);
        else shmem_iget128(local, far, s, s, n, m->pe);
        break;
    }
}

/* Each kind's SHMEM calls over region r (elements lo to hi), by the names LC_KINDS gives. */
static void span_move(move *m, const lc_region *r, long lo, long hi)
{
    (void)r;
    contiguous(lo, hi - lo + 1, m);
}

static void pieces_move(move *m, const lc_region *r, long lo, long hi)
{
    lc_region_each_run(r, lo, hi, contiguous, m);
}

static void strided_move(move *m, const lc_region *r, long lo, long hi)
{
    (void)lo, (void)hi;
    if (r->dims == 0) {
        strided(m, r->offset, 1, r->run);
        m->bytes = (double)r->run * (double)m->elem;
        return;
    }
    /* one call per position in the run and per index of the dims above the first */
    long t[LC_RDIMS] = {0};
    for (;;) {
        long base = r->offset;
        for (int d = 1; d < r->dims; d++)
            base += r->stride[d] * t[d];
        for (long p = 0; p < r->run; p++)
            strided(m, base + p, r->stride[0], r->count[0]);
        int d = 1;
        while (d < r->dims && ++t[d] == r->count[d])
            t[d++] = 0;
        if (d >= r->dims)
            break;
    }
    m->bytes = (double)lc_region_elements(r) * (double)m->elem;
}

#define LC_KIND_MOVE(ID, name) name##_move,
static void (*const kind_move[LC_NKINDS])(move *, const lc_region *, long, long) = {LC_KINDS(LC_KIND_MOVE)};

double lc_xfer_region(int put, const lc_region *r, enum lc_kind kind, void *buf, long origin,
                      const void *remote, size_t elem_size, int pe)
{
    move m = {put, buf, remote, origin, elem_size, pe, 0};
    if (lc_region_empty(r))
        return 0;
    if (!lc_kind_applies(kind, r, elem_size, put))
        kind = LC_KIND_PIECES;
    kind_move[kind](&m, r, lc_region_lo(r), lc_region_hi(r));
    return m.bytes;
}

void lc_xfer_get_now(void *dst, const void *remote, long e, size_t elem_size, int pe)
{
    shmem_getmem(dst, (const char *)remote + e * (long)elem_size, elem_size, pe);
}

/* runtime/commdir/src/shmem_quiet.c says why a quiet is not enough here. */
void lc_xfer_quiet(void) { bamboo_shmem_quiet(); }

int lc_xfer_my_pe(void) { return shmem_my_pe(); }
int lc_xfer_n_pes(void) { return shmem_n_pes(); }
