"""Block reordering and input windows."""
import re

from conftest import HAVE_MPICC, as_messages, compile_c, errors

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
    res.text = as_messages(res.text)
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


BEGIN = re.compile(r"bamboo_send_block_begin(_lending)?\(\);")


def test_send_blocks_are_bracketed_where_they_end_up(translate, tmp_path):
    # every send block of CODE holds one statement; moved or not, its messages may be joined
    # (bamboo_send_block_begin before it, _end right after it, moved along with it)
    res = translate(CODE)
    assert res.ok, errors(res)
    t = res.text
    for call in ("MPI_Send(z, 1, MPI_DOUBLE, a, 1", "MPI_Send(z, 1, MPI_DOUBLE, b, 2",
                 "MPI_Send(z, 1, MPI_DOUBLE, a, 3"):
        at = t.index(call)
        begin = [m for m in BEGIN.finditer(t, 0, at)][-1].end()
        assert ";" not in t[begin:at]  # nothing between the begin and the statement
        assert t[at:t.index("bamboo_send_block_end();", at)].count(";") == 1  # the end right after it
    assert len(BEGIN.findall(t)) == t.count("bamboo_send_block_end();") == 3
    # a compound send block ends before its closing brace; a moved single statement followed
    # by more code on its line is left unbracketed (its end could not move with it)
    res = translate(CODE.replace("    MPI_Send(z, 1, MPI_DOUBLE, a, 1, MPI_COMM_WORLD);",
                                 "    { MPI_Send(z, 1, MPI_DOUBLE, a, 1, MPI_COMM_WORLD); }")
                        .replace("    MPI_Send(z, 1, MPI_DOUBLE, b, 2, MPI_COMM_WORLD);",
                                 "    MPI_Send(z, 1, MPI_DOUBLE, b, 2, MPI_COMM_WORLD); z[1] = 0;"))
    assert res.ok, errors(res)
    assert "MPI_Send(z, 1, MPI_DOUBLE, a, 1, MPI_COMM_WORLD);  bamboo_send_block_end();}" in res.text
    assert len(BEGIN.findall(res.text)) == res.text.count("bamboo_send_block_end();") == 2
    if HAVE_MPICC:
        ok, err = compile_c(res.text, tmp_path)
        assert ok, err


RECEIVE = """#pragma bamboo receive
    MPI_Recv(x, 2, MPI_DOUBLE, a, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);"""


def lending_of(translate, send_block: str, body: str = RECEIVE + "\n#pragma bamboo send\n    {send}") -> bool:
    """Whether SEND_BLOCK, in a region of BODY (by default right after a receive block, so
    that it moves before it), opens with bamboo_send_block_begin_lending()."""
    res = translate(f"""#include <mpi.h>
void pack(double *z);
void f(int a, double *x, double *z)
{{
  int d, n = 1;
  int *where = &n;
#pragma bamboo olap
  for (int it = 0; it < 4; it++) {{
    {body.replace("{send}", send_block)}
  }}
}}
""")
    assert res.ok, errors(res)
    assert len(BEGIN.findall(res.text)) == res.text.count("bamboo_send_block_end();")
    return "bamboo_send_block_begin_lending();" in res.text


def test_a_block_that_only_sends_lends_its_buffers_until_the_evaluation_point(translate):
    assert lending_of(translate, "{ MPI_Send(z, 2, MPI_DOUBLE, a, 1, MPI_COMM_WORLD); }")
    assert lending_of(translate, "{ if (a > 0) MPI_Send(z, 2, MPI_DOUBLE, a, 1, MPI_COMM_WORLD);"
                                 " MPI_Send(&z[1], n, MPI_DOUBLE, a, 2, MPI_COMM_WORLD); }")
    # a loop counter is written, but no send reads it
    assert lending_of(translate, "for (d = 0; d < 2; d++) MPI_Send(&z[d], 1, MPI_DOUBLE, a, d, MPI_COMM_WORLD);")
    assert lending_of(translate, "for (int e = 0; e < 2; e++) MPI_Send(z + e, 1, MPI_DOUBLE, a, e, MPI_COMM_WORLD);")
    # not moved, but right before a receive block
    assert lending_of(translate, "MPI_Send(z, 2, MPI_DOUBLE, a, 1, MPI_COMM_WORLD);",
                      body="z[0] = it;\n#pragma bamboo send\n    {send}\n" + RECEIVE)


def test_a_block_that_may_change_what_it_sent_lends_nothing(translate):
    send = "MPI_Send(z, 2, MPI_DOUBLE, a, 1, MPI_COMM_WORLD);"
    assert not lending_of(translate, f"{{ {send} z[0] = 1; }}")                 # a store
    assert not lending_of(translate, f"{{ {send} pack(z); }}")                  # a call
    assert not lending_of(translate, f"{{ {send} *where = 2; }}")               # through a pointer
    assert not lending_of(translate, "{ n = 2; MPI_Send(&n, 1, MPI_INT, a, 1, MPI_COMM_WORLD); n = 3; }")
    assert not lending_of(translate, "{ int m = 2; MPI_Send(&m, 1, MPI_INT, a, 1, MPI_COMM_WORLD); }")
    assert not lending_of(translate, "MPI_Send((double[]){1, 2}, 2, MPI_DOUBLE, a, 1, MPI_COMM_WORLD);")
    assert not lending_of(translate, f"{{ {send} if (a) break; }}")            # leaves the region
    # what runs between the block and the evaluation point
    assert not lending_of(translate, send, body="#pragma bamboo send\n    {send}\n    z[0] = 1;\n" + RECEIVE)
    assert not lending_of(translate, send, body=RECEIVE + "\n#pragma bamboo send\n    {send}\n#pragma bamboo send\n"
                                                "    { pack(z); MPI_Send(z, 2, MPI_DOUBLE, a, 1, MPI_COMM_WORLD); }")
    # followed by another block that only sends, it lends too
    assert lending_of(translate, send, body=RECEIVE + "\n#pragma bamboo send\n    {send}\n#pragma bamboo send\n"
                                            "    MPI_Send(z, 1, MPI_DOUBLE, a, 2, MPI_COMM_WORLD);")


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
    assert "bamboo_expect(BAMBOO_PRIVATE(right), it, MPI_COMM_WORLD)" in as_messages(res.text)
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
    assert "bamboo_expect(peer, BAMBOO_PRIVATE(step__round), MPI_COMM_WORLD)" in as_messages(res.text)
    assert "message from peer, tag round, MPI_COMM_WORLD" in res.explanation
