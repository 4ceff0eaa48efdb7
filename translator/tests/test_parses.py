"""One libclang parse per text per translation (frontend/parses.py): the comm directives'
lowering, the loop optimizer and the front end share the tree of a text none of them changed;
only a text a stage made is parsed again (the comm directives' probe, the lowered file)."""
from collections import Counter

import pytest

from bamboo.frontend import cx

# An MPI program the loop optimizer reads (it names MPI_Get) and the comm directives' lowering
# reads (comm_p2p is named), though neither changes it.
NAMED_ONLY = """#include <mpi.h>
/* comm_p2p: no directive here, only the word */
int main(int argc, char **argv) {
    double x = 0;
    MPI_Win w;
    MPI_Init(&argc, &argv);
    MPI_Win_create(&x, sizeof x, sizeof x, MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    MPI_Win_fence(0, w);
    MPI_Get(&x, 1, MPI_DOUBLE, 0, 0, 1, MPI_DOUBLE, w);
    MPI_Win_fence(0, w);
    MPI_Win_free(&w);
    MPI_Finalize();
    return 0;
}
"""

ONE_SIDED = """#include <mpi.h>
static double in[4];
int main(int argc, char **argv) {
    int rank;
    double out[4] = {1, 2, 3, 4};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int s = 0; s < 2; s++) {
#pragma comm_parameters sender(rank) receiver(rank) count(4) target(TARGET_COMM_MPI_1SIDE)
        {
#pragma comm_p2p sbuf(out) rbuf(in)
            { }
        }
    }
    MPI_Finalize();
    return 0;
}
"""

SHMEM = """#include <shmem.h>
static long a[64];
int main(void) {
    long sum = 0;
    shmem_init();
    for (int i = 0; i < 64; i++)
        sum += shmem_long_g(&a[i], (shmem_my_pe() + 1) % shmem_n_pes());
    shmem_finalize();
    return (int)(sum & 1);
}
"""


@pytest.fixture
def parses(monkeypatch):
    """Counts libclang parses by the text parsed and its flags."""
    counted = Counter()
    parse = cx.parse

    def counting(path, compiler_args, unsaved_text=None):
        counted[(unsaved_text, tuple(compiler_args))] += 1
        return parse(path, compiler_args, unsaved_text)
    monkeypatch.setattr(cx, "parse", counting)
    return counted


@pytest.mark.parametrize("code, comm_only, texts", [
    (NAMED_ONLY, False, 1),   # lowered, optimized and loaded unchanged: one tree
    (NAMED_ONLY, True, 1),
    (ONE_SIDED, False, 3),    # the file, the comm directives' probe, the lowered file
    (ONE_SIDED, True, 3),
    (SHMEM, False, 1),        # an OpenSHMEM program: its loops optimized, not made tasks
])
def test_each_text_is_parsed_once(translate, parses, code, comm_only, texts):
    res = translate(code, comm_only=comm_only)
    assert res.ok, res.diagnostics
    assert max(parses.values()) == 1, "a text parsed twice with the same flags"
    assert len(parses) == texts
