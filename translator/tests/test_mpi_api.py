"""The MPI table must list exactly the functions bamboo.h redirects."""
import os
import re

from conftest import RUNTIME_INCLUDE
from bamboo import mpi_api


def _header_redirections():
    text = open(os.path.join(RUNTIME_INCLUDE, "bamboo.h")).read()
    return dict(re.findall(r"^#define (MPI_\w+)\([^)]*\)\s*\\?\s*(bamboo_\w+)", text, re.M))


def test_table_matches_bamboo_h():
    defs = _header_redirections()
    assert defs, "no MPI redirections found in bamboo.h"
    assert set(defs) == set(mpi_api.SUPPORTED)
    for name, target in defs.items():
        assert mpi_api.SUPPORTED[name].runtime == target, name


def test_runtime_functions_declared():
    text = open(os.path.join(RUNTIME_INCLUDE, "bamboo.h")).read()
    for f in mpi_api.SUPPORTED.values():
        assert re.search(r"\b%s\(" % f.runtime, text), f.runtime


def test_argument_indexes_are_sane():
    recv = mpi_api.lookup("MPI_Recv")
    assert (recv.buffer, recv.source, recv.tag, recv.comm) == (0, 3, 4, 5)
    irecv = mpi_api.lookup("MPI_Irecv")
    assert irecv.request == 6 and irecv.kind == mpi_api.RECEIVE
    send = mpi_api.lookup("MPI_Send")
    assert (send.buffer, send.dest, send.send_tag, send.comm) == (0, 3, 4, 5)
    isend = mpi_api.lookup("MPI_Isend")
    assert (isend.dest, isend.send_tag, isend.comm, isend.request) == (3, 4, 5, 6)
    sr = mpi_api.lookup("MPI_Sendrecv")
    assert (sr.dest, sr.buffer, sr.source, sr.tag, sr.comm) == (3, 5, 8, 9, 10)
    assert mpi_api.lookup("MPI_Send").kind == mpi_api.SEND
    assert mpi_api.lookup("MPI_Waitall").kind == mpi_api.WAIT
    assert mpi_api.lookup("MPI_Comm_rank").kind == mpi_api.LOCAL
    bcast = mpi_api.lookup("MPI_Bcast")
    assert (bcast.kind, bcast.root, bcast.comm, bcast.outputs) == (mpi_api.COLLECTIVE, 3, 4, (0,))
    reduce = mpi_api.lookup("MPI_Reduce")
    assert (reduce.op, reduce.root, reduce.comm, reduce.outputs) == (4, 5, 6, (1,))
    scatterv = mpi_api.lookup("MPI_Scatterv")
    assert (scatterv.root, scatterv.comm, scatterv.outputs) == (7, 8, (4,))
    assert mpi_api.lookup("MPI_Comm_split").collective is None
    assert mpi_api.lookup("MPI_Cart_shift").outputs == (3, 4)
    assert mpi_api.lookup("MPI_Comm_spawn") is None and mpi_api.lookup("MPI_Comm_connect") is None
    assert mpi_api.is_mpi_name("PMPI_Send") and not mpi_api.is_mpi_name("my_MPI")


def test_replaced_libc_functions_match_bamboo_h():
    text = open(os.path.join(RUNTIME_INCLUDE, "bamboo.h")).read()
    redirected = set(re.findall(r"^#define ([a-z]\w*)\([^)]*\) bamboo_\w+", text, re.M))
    assert redirected == set(mpi_api.LIBC_REPLACED)
    # getopt's variables: the translator's rewrite calls a function bamboo.h declares
    accessors = set(re.findall(r"^\w+ \*+bamboo_(\w+)\(void\);", text, re.M))
    assert set(mpi_api.LIBC_VARIABLES_REPLACED) <= accessors


def test_collective_names_match_bamboo_h():
    """Every bamboo_collective a rule may name exists in bamboo.h's enum."""
    text = open(os.path.join(RUNTIME_INCLUDE, "bamboo.h")).read()
    enum = re.search(r"typedef enum bamboo_collective \{(.*?)\}", text, re.S).group(1)
    names = {n.strip() for n in enum.split(",")}
    used = {f.collective for f in mpi_api.SUPPORTED.values() if f.collective}
    assert used <= names and used


def test_docs_table_lists_exactly_the_supported_functions():
    """docs/mpi-support.md is the users' list: every supported function, nothing else."""
    text = open(os.path.join(RUNTIME_INCLUDE, "..", "..", "docs", "mpi-support.md")).read()
    table = text[text.index("## Functions"):text.index("## How the utility layer works")]
    rows = [line.split("|")[1] for line in table.splitlines() if line.startswith("| `MPI_")]
    documented = set(re.findall(r"`(MPI_\w+)`", "".join(rows)))
    assert documented == set(mpi_api.SUPPORTED)


def _family_order():
    """The mpi/ files in the order runtime/src/README.md's map lists them."""
    readme = open(os.path.join(RUNTIME_INCLUDE, "..", "src", "README.md")).read()
    section = readme[readme.index("\nmpi/\n"):]
    return re.findall(r"^- `mpi/(\w+)`", section[:section.index("\n\n", 1)], re.M)


def _defining_family():
    """Each bamboo_ function defined in runtime/src/mpi, by the file that defines it."""
    folder = os.path.join(RUNTIME_INCLUDE, "..", "src", "mpi")
    defined = {}
    for name in os.listdir(folder):
        if name.endswith(".cpp"):
            text = open(os.path.join(folder, name)).read()
            for function in re.findall(r"^[A-Za-z_][\w \*]*?\b(bamboo_\w+)\(", text, re.M):
                defined[function] = name[:-len(".cpp")]
    return defined


def test_bamboo_h_lists_mpi_functions_once_in_mpi_order():
    """bamboo.h declares, #undefs and #defines the MPI functions in one order: by the mpi/
    file that implements them, in the map's order, each file's under a heading naming it."""
    text = open(os.path.join(RUNTIME_INCLUDE, "bamboo.h")).read()
    redirected = _header_redirections()
    target_of = {target: name for name, target in redirected.items()}
    section = text[text.index("/* ---- MPI over virtual ranks"):text.index("/* ---- Firing rules")]
    declared, heading_of, heading = [], {}, None
    for line in section.splitlines():
        h = re.match(r"/\* ---- .*\(mpi/(\w+)\.cpp\) -+ \*/$", line)
        if h:
            heading = h.group(1)
        d = re.match(r"[A-Za-z_][\w \*]*?\b(bamboo_\w+)\(", line)
        if d and d.group(1) in target_of:
            declared.append(target_of[d.group(1)])
            heading_of[d.group(1)] = heading
    undefs = re.findall(r"^#undef (MPI_\w+)$", text, re.M)
    defines = re.findall(r"^#define (MPI_\w+)\(", text, re.M)
    assert declared == undefs == defines
    assert len(set(declared)) == len(declared) == len(redirected)

    families, defined = _family_order(), _defining_family()
    for target, heading in heading_of.items():
        assert heading == defined[target], f"{target} is defined in mpi/{defined[target]}.cpp, " \
                                           f"declared under mpi/{heading}.cpp"
    ranks = [families.index(heading_of[redirected[name]]) for name in declared]
    assert ranks == sorted(ranks), "families out of the map's order"
