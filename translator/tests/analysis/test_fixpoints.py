"""The analyses that iterate to a fixpoint reach it, or say that they did not."""
from conftest import errors, notes

from bamboo.analysis.dataflow import StatementWalk

HEAD = "#include <mpi.h>\n"

# recv_0 calls recv_1 ... calls recv_5, which reads the global `from` (memory); each is
# defined before the one it calls, so every round of the companions' analysis finds one
# more of them reading memory.
CHAIN = HEAD + "int from;\n" + "".join(f"static void recv_{i}(double *b);\n" for i in range(6)) + \
    "".join(f"static void recv_{i}(double *b) {{ recv_{i + 1}(b); }}\n" for i in range(5)) + \
    ("static void recv_5(double *b)\n{\n"
     "    MPI_Recv(b, 1, MPI_DOUBLE, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n}\n"
     "void f(double *b, int *p)\n{\n#pragma bamboo olap\n"
     "    for (int it = 0; it < 4; it++) {\n#pragma bamboo receive\n"
     "        {\n            *p = 1;\n            recv_0(b);\n        }\n    }\n}\n")


def test_memory_reads_of_a_long_chain_of_companions(translate):
    res = translate(CHAIN)
    assert res.ok, errors(res)
    # *p = 1 may change `from`, which recv_5's message depends on, five calls down
    assert notes(res) == ["t.c:25:13: note: recv_0() is left out of the firing rule and waits "
                          "on its own: the messages 'recv_0' receives depend on memory that the "
                          "store to '*p' at line 24 may have changed"]


def test_a_loop_that_does_not_settle_is_an_internal_error(translate, monkeypatch):
    # the loop needs a second round (k is tainted at the end of the first), which is
    # refused here: the analysis must say so rather than go on with a state that is not
    # a fixpoint
    monkeypatch.setattr(StatementWalk, "_rounds_bound", staticmethod(lambda n: 1))
    res = translate(HEAD + "void f(double *b, int k)\n{\n#pragma bamboo olap\n"
                    "    for (int it = 0; it < 4; it++) {\n#pragma bamboo receive\n"
                    "        for (int i = 0; i < 2; i++) {\n"
                    "            MPI_Recv(b, 1, MPI_DOUBLE, k, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n"
                    "            MPI_Recv(&k, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n"
                    "        }\n    }\n}\n")
    assert not res.ok
    assert errors(res) == ["t.c: error: internal error in the Bamboo translator: "
                           "InternalError('the firing-rule analysis of the loop at line 7 did "
                           "not settle in 1 rounds'); please report it with this file"]
