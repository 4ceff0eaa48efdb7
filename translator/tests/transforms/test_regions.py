"""Block reordering and input windows."""
from conftest import HAVE_MPICC, compile_c, errors

CODE = """#include <mpi.h>
void f(int a, int b, double *x, double *y, double *z)
{
#pragma bamboo olap
  for (int it = 0; it < 4; it++) {
#pragma bamboo receive
    MPI_Recv(x, 1, MPI_DOUBLE, a, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma bamboo receive
    MPI_Recv(y, 1, MPI_DOUBLE, b, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma bamboo send
    MPI_Send(z, 1, MPI_DOUBLE, a, 1, MPI_COMM_WORLD);
#pragma bamboo send
    MPI_Send(z, 1, MPI_DOUBLE, b, 2, MPI_COMM_WORLD);
    z[0] += 1;
#pragma bamboo receive
    MPI_Recv(x, 1, MPI_DOUBLE, b, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma bamboo send
    MPI_Send(z, 1, MPI_DOUBLE, a, 3, MPI_COMM_WORLD);
  }
}
"""


def test_reordering_and_windows(translate, tmp_path):
    res = translate(CODE, explain=True)
    assert res.ok, errors(res)
    ex = res.explanation
    assert "reordering: send block at line 10 moved before the receive block(s) at line 6, line 8" in ex
    assert "reordering: send block at line 12 moved before the receive block(s) at line 6, line 8" in ex
    assert "reordering: send block at line 17 moved before the receive block(s) at line 15" in ex
    assert ("order after reordering: send block (line 10), send block (line 12), receive block "
            "(line 6), receive block (line 8), statement (line 14), send block (line 17), "
            "receive block (line 15)") in ex
    assert "window 1 (receive block(s) at line 6, 8):" in ex
    assert "window 2 (receive block(s) at line 15):" in ex
    t = res.text
    # sends keep their relative order and come before the first window's rule
    s1, s2 = t.index("MPI_Send(z, 1, MPI_DOUBLE, a, 1"), t.index("MPI_Send(z, 1, MPI_DOUBLE, b, 2")
    r1 = t.index("bamboo_expect(a, 1, MPI_COMM_WORLD)")
    assert s1 < s2 < r1 < t.index("MPI_Recv(x, 1, MPI_DOUBLE, a, 1")
    assert t.count("bamboo_fire(BAMBOO_AT)") == 2
    assert t.index("MPI_Send(z, 1, MPI_DOUBLE, a, 3") < t.index("bamboo_expect(b, 3")
    # each moved block is announced with #line so its lines stay the user's
    assert f'#line 10 "{tmp_path / "t.c"}"' in t
    if HAVE_MPICC:
        ok, err = compile_c(t, tmp_path)
        assert ok, err


def test_send_blocks_are_bracketed_where_they_end_up(translate, tmp_path):
    # every send block of CODE holds one statement; moved or not, its messages may be joined
    # (bamboo_send_block_begin before it, _end right after it, moved along with it)
    res = translate(CODE)
    assert res.ok, errors(res)
    t = res.text
    for call in ("MPI_Send(z, 1, MPI_DOUBLE, a, 1", "MPI_Send(z, 1, MPI_DOUBLE, b, 2",
                 "MPI_Send(z, 1, MPI_DOUBLE, a, 3"):
        at = t.index(call)
        begin = t.rindex("bamboo_send_block_begin();", 0, at) + len("bamboo_send_block_begin();")
        assert ";" not in t[begin:at]  # nothing between the begin and the statement
        assert t[at:t.index("bamboo_send_block_end();", at)].count(";") == 1  # the end right after it
    assert t.count("bamboo_send_block_begin();") == t.count("bamboo_send_block_end();") == 3
    # a compound send block ends before its closing brace; a moved single statement followed
    # by more code on its line is left unbracketed (its end could not move with it)
    res = translate(CODE.replace("    MPI_Send(z, 1, MPI_DOUBLE, a, 1, MPI_COMM_WORLD);",
                                 "    { MPI_Send(z, 1, MPI_DOUBLE, a, 1, MPI_COMM_WORLD); }")
                        .replace("    MPI_Send(z, 1, MPI_DOUBLE, b, 2, MPI_COMM_WORLD);",
                                 "    MPI_Send(z, 1, MPI_DOUBLE, b, 2, MPI_COMM_WORLD); z[1] = 0;"))
    assert res.ok, errors(res)
    assert "MPI_Send(z, 1, MPI_DOUBLE, a, 1, MPI_COMM_WORLD);  bamboo_send_block_end();}" in res.text
    assert res.text.count("bamboo_send_block_begin();") == res.text.count("bamboo_send_block_end();") == 2
    if HAVE_MPICC:
        ok, err = compile_c(res.text, tmp_path)
        assert ok, err


def test_no_reordering_when_sends_come_first(translate):
    res = translate(CODE.replace("#pragma bamboo receive\n    MPI_Recv(x, 1, MPI_DOUBLE, b, 3",
                                 "    MPI_Recv(x, 1, MPI_DOUBLE, b, 3")
                        .replace("#pragma bamboo send\n    MPI_Send(z, 1, MPI_DOUBLE, a, 3",
                                 "    MPI_Send(z, 1, MPI_DOUBLE, a, 3"), explain=True)
    assert res.ok, errors(res)
    assert "send block at line 15" not in res.explanation
    assert res.text.count("bamboo_fire(BAMBOO_AT)") == 1


def test_send_block_may_reuse_its_own_loop_counter(translate):
    res = translate("""#include <mpi.h>
void f(int *nbr, double *x, double *y)
{
  int d;
#pragma bamboo olap
  for (int it = 0; it < 4; it++) {
#pragma bamboo receive
    for (d = 0; d < 2; d++) MPI_Recv(&x[d], 1, MPI_DOUBLE, nbr[d], 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma bamboo send
    for (d = 0; d < 2; d++) MPI_Send(&y[d], 1, MPI_DOUBLE, nbr[d], 0, MPI_COMM_WORLD);
  }
}
""")
    assert res.ok, errors(res)


def test_explain_names_privatized_globals_as_written(translate):
    res = translate("""#include <mpi.h>
int left, right;
void halo(double *u, int it)
{
#pragma bamboo olap
  {
#pragma bamboo send
    { MPI_Send(&u[1], 1, MPI_DOUBLE, left, it, MPI_COMM_WORLD); }
#pragma bamboo receive
    { MPI_Recv(&u[0], 1, MPI_DOUBLE, right, it, MPI_COMM_WORLD, MPI_STATUS_IGNORE); }
  }
}
""", explain=True)
    assert res.ok, errors(res)
    assert "bamboo_expect(BAMBOO_PRIVATE(right), it, MPI_COMM_WORLD)" in res.text
    assert "message from right, tag it, MPI_COMM_WORLD" in res.explanation


def test_send_block_may_wait_for_its_own_sends(translate):
    res = translate("""#include <mpi.h>
void f(double *x, double *y, int peer)
{
  MPI_Request sent[2], one;
#pragma bamboo olap
  for (int it = 0; it < 4; it++) {
#pragma bamboo receive
    MPI_Recv(y, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma bamboo send
    {
      MPI_Isend(x, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &sent[0]);
      MPI_Isend(x, 1, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, &sent[1]);
      MPI_Waitall(2, sent, MPI_STATUSES_IGNORE);
      MPI_Isend(x, 1, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD, &one);
      MPI_Wait(&one, MPI_STATUS_IGNORE);
    }
  }
}
""", explain=True)
    assert res.ok, errors(res)
    assert "send block at line 9 moved before the receive block(s) at line 7" in res.explanation


def test_explain_names_function_local_statics_as_written(translate):
    res = translate("""#include <mpi.h>
void step(double *u, int peer)
{
  static int round;
#pragma bamboo olap
  {
#pragma bamboo send
    MPI_Send(u, 1, MPI_DOUBLE, peer, round, MPI_COMM_WORLD);
#pragma bamboo receive
    MPI_Recv(u + 1, 1, MPI_DOUBLE, peer, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  round++;
}
""", explain=True)
    assert res.ok, errors(res)
    assert "bamboo_expect(peer, BAMBOO_PRIVATE(step__round), MPI_COMM_WORLD)" in res.text
    assert "message from peer, tag round, MPI_COMM_WORLD" in res.explanation
