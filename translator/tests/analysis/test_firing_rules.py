"""Firing rules: what is announced, what is left out and why."""
from conftest import HAVE_MPICC, as_messages, compile_c, errors, notes

HEAD = "#include <mpi.h>\n#include <stdlib.h>\n"


def region(body, decls="int up = 0, down = 1, n = 4, k, i; double *rb = malloc(64), sb[8];",
           extra=""):
    return (HEAD + extra + "void f(int rank)\n{\n  " + decls + "\n#pragma bamboo olap\n"
            "  for (int it = 0; it < 4; it++) {\n" + body + "\n  }\n}\n")


def compiles(res, tmp_path):
    """The generated code compiles against bamboo.h (when mpicc is there)."""
    assert res.ok, errors(res)
    if HAVE_MPICC:
        ok, err = compile_c(res.text, tmp_path)
        assert ok, err
    return True


def window_text(res):
    """The rule before the first window, its receives announced as messages (as_messages)."""
    t = res.text
    start = t.index("/* bamboo: firing rule")
    return as_messages(t[start:t.index("bamboo_fire", start)])


def test_guarded_receives(translate, tmp_path):
    res = translate(region("#pragma bamboo receive\n{\n"
                           " if (up >= 0) MPI_Recv(rb, n, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n"
                           " if (down >= 0) MPI_Recv(rb, n, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n"
                           "}\n#pragma bamboo send\nMPI_Send(sb, n, MPI_DOUBLE, up, 0, MPI_COMM_WORLD);"),
                    explain=True)
    assert compiles(res, tmp_path)
    w = window_text(res)
    assert "if (up >= 0) {\n" in w and "bamboo_expect(up, 0, MPI_COMM_WORLD);" in w
    assert "bamboo_expect(down, 1, MPI_COMM_WORLD);" in w
    assert "if (up >= 0): message from up, tag 0, MPI_COMM_WORLD" in res.explanation
    assert "reordering: send block at line 13 moved before the receive block(s) at line 8" \
        in res.explanation
    assert notes(res) == []


def test_send_in_window_blocks_later_receives(translate, tmp_path):
    res = translate(region("#pragma bamboo receive\n{\n"
                           " MPI_Recv(rb, n, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n"
                           " MPI_Send(rb, n, MPI_DOUBLE, down, 0, MPI_COMM_WORLD);\n"
                           " MPI_Recv(rb, n, MPI_DOUBLE, down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n}"))
    assert compiles(res, tmp_path)
    w = window_text(res)
    assert "bamboo_expect(up, 0, MPI_COMM_WORLD);" in w and "bamboo_expect(down" not in w
    assert notes(res) == ["t.c:12:2: note: MPI_Recv is left out of the firing rule and waits on "
                          "its own: MPI_Send at line 11 comes before it in the window (the peer "
                          "may need that message before it sends this one)"]


def test_probe_and_wait_do_not_hold_back_later_receives(translate, tmp_path):
    # A probe or a wait sends nothing, so no peer can be waiting on it: the receive after
    # it is announced (once: a probe takes no message).
    res = translate(region("#pragma bamboo receive\n{\n"
                           " MPI_Status st; MPI_Request r;\n"
                           " MPI_Irecv(rb, n, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &r);\n"
                           " MPI_Wait(&r, MPI_STATUS_IGNORE);\n"
                           " MPI_Probe(up, 0, MPI_COMM_WORLD, &st);\n"
                           " MPI_Recv(rb, n, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n}"))
    assert compiles(res, tmp_path)
    w = window_text(res)
    assert w.count("bamboo_expect(") == 2
    assert "bamboo_expect(down, 1" in w and "bamboo_expect(up, 0" in w


def test_source_from_received_data_is_left_out(translate, tmp_path):
    res = translate(region("#pragma bamboo receive\n{\n"
                           " MPI_Recv(&k, 1, MPI_INT, up, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n"
                           " MPI_Recv(rb, n, MPI_DOUBLE, k, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n}"))
    assert compiles(res, tmp_path)
    assert len(notes(res)) == 1
    assert "its source argument reads 'k'" in notes(res)[0]


def test_received_buffer_makes_memory_reads_unreliable(translate, tmp_path):
    res = translate(region("#pragma bamboo receive\n{\n"
                           " MPI_Recv(rb, n, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n"
                           " MPI_Recv(sb, 1, MPI_DOUBLE, (int)rb[0], 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n"
                           " MPI_Recv(sb, 1, MPI_DOUBLE, nbr[1], 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n}",
                           extra="int nbr[2];\n"))
    assert compiles(res, tmp_path)
    w = window_text(res)
    assert "bamboo_expect(up, 0" in w
    assert "bamboo_expect(BAMBOO_PRIVATE(nbr)[1], 0" in w   # ints are not doubles
    assert len(notes(res)) == 1 and "'rb[0]'" in notes(res)[0]


def test_impure_call_and_unknown_function(translate, tmp_path):
    res = translate(region("#pragma bamboo receive\n{\n"
                           " MPI_Recv(rb, n, MPI_DOUBLE, rand() % 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n"
                           " external_step();\n"
                           " MPI_Recv(rb, n, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n}",
                           extra="void external_step(void);\n"))
    assert compiles(res, tmp_path)
    ns = notes(res)
    assert "calls 'rand', which is not known to be pure" in ns[0]
    assert "the call to 'external_step' at line 12, defined elsewhere (it may communicate)" in ns[1]
    assert "bamboo_fire(BAMBOO_AT);  /* bamboo: evaluation point; receive block */" in res.text


def test_loops_and_shadows(translate, tmp_path):
    res = translate(region("#pragma bamboo receive\n{\n"
                           " for (i = 0; i < 2; i++)\n"
                           "   MPI_Recv(rb, n, MPI_DOUBLE, up + i, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n"
                           " k += 2;\n"
                           " MPI_Recv(rb, n, MPI_DOUBLE, k, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n}"))
    assert compiles(res, tmp_path)
    w = window_text(res)
    assert "__typeof__(k) bamboo_saved_k = k;" in w
    assert "__typeof__(k) k = bamboo_saved_k;  /* bamboo: the rule's own copy */" in w
    assert "__typeof__(i) i;  /* bamboo: the rule's own copy */" in w
    assert "for (i = 0; i < 2; i++) {" in w
    assert "bamboo_expect(up + i, i, MPI_COMM_WORLD);" in w
    assert "k += 2;" in w and "bamboo_expect(k, 5, MPI_COMM_WORLD);" in w
    assert notes(res) == []


def test_irecv_needs_a_wait(translate, tmp_path):
    res = translate(region("#pragma bamboo receive\n{\n"
                           " MPI_Irecv(rb, n, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, &req[0]);\n"
                           " MPI_Irecv(rb, n, MPI_DOUBLE, down, 0, MPI_COMM_WORLD, &req[1]);\n}\n"
                           "MPI_Waitall(2, req, MPI_STATUSES_IGNORE);",
                           decls="int up = 0, down = 1, n = 4; double rb[8]; MPI_Request req[2];"))
    assert compiles(res, tmp_path)
    w = window_text(res)
    assert "bamboo_expect(up, 0" in w and "bamboo_expect(down, 0" in w
    res = translate(region("#pragma bamboo receive\n"
                           " MPI_Irecv(rb, n, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, &req[0]);\n"
                           "#pragma bamboo send\n"
                           "MPI_Send(sb, n, MPI_DOUBLE, up, 0, MPI_COMM_WORLD);\n"
                           "MPI_Wait(&req[0], MPI_STATUS_IGNORE);",
                           decls="int up = 0, n = 4; double rb[8], sb[8]; MPI_Request req[2];"))
    assert compiles(res, tmp_path)
    # the send moves before the receive block, so the wait follows the Irecv directly
    assert "bamboo_expect(up, 0" in window_text(res)


def test_irecv_completed_by_waitall_on_its_address(translate, tmp_path):
    res = translate(region("#pragma bamboo receive\n{\n"
                           " MPI_Request r;\n"
                           " MPI_Irecv(rb, n, MPI_DOUBLE, up, 3, MPI_COMM_WORLD, &r);\n"
                           " MPI_Waitall(1, &r, MPI_STATUSES_IGNORE);\n}",
                           decls="int up = 0, n = 4; double rb[8];"))
    assert compiles(res, tmp_path)
    assert "bamboo_expect(up, 3" in window_text(res)


def test_irecv_without_wait_is_left_out(translate, tmp_path):
    res = translate(region("#pragma bamboo receive\n"
                           " MPI_Irecv(rb, n, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, &r);\n",
                           decls="int up = 0, n = 4; double rb[8]; MPI_Request r;"))
    assert compiles(res, tmp_path)
    assert "no MPI_Wait/MPI_Waitall completes it" in notes(res)[0]


def test_sendrecv_waits_on_its_own(translate, tmp_path):
    res = translate(region("#pragma bamboo receive\n"
                           "MPI_Sendrecv(sb, 1, MPI_DOUBLE, up, 0, rb, 1, MPI_DOUBLE, down, 0, "
                           "MPI_COMM_WORLD, MPI_STATUS_IGNORE);"))
    assert compiles(res, tmp_path)
    assert "MPI_Sendrecv sends before it receives" in notes(res)[0]


def test_helper_companions_and_recursion(translate, tmp_path):
    helpers = ("static void get(double *b, int src)\n{\n  if (src >= 0)\n"
               "    MPI_Recv(b, 1, MPI_DOUBLE, src, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n}\n"
               "static void tree(double *b, int node, int depth)\n{\n  if (depth == 0)\n    return;\n"
               "  get(b, node);\n  tree(b, 2 * node, depth - 1);\n}\n")
    res = translate(
        HEAD + helpers + "void f(int up, double *rb)\n{\n#pragma bamboo olap\n"
        "  for (int it = 0; it < 4; it++) {\n#pragma bamboo receive\n  {\n   get(rb, up);\n"
        "   tree(rb, up, 2);\n  }\n  }\n}\n", explain=True)
    assert compiles(res, tmp_path)
    t = res.text
    assert "static void bamboo_expect_get(double *b, int src) __attribute__((unused));" in t
    assert "static void bamboo_expect_tree(double *b, int node, int depth)\n{\n" \
           "    if (depth == 0) {\n        return;\n    }\n    bamboo_expect_get(b, node);\n" \
           "    bamboo_expect_tree(b, 2 * node, depth - 1);\n}" in t
    w = window_text(res)
    assert "bamboo_expect_get(rb, up);" in w and "bamboo_expect_tree(rb, up, 2);" in w
    assert "helper firing rules:" in res.explanation


def test_statement_region_and_unbraced_body(translate, tmp_path):
    res = translate(HEAD + "void f(int up, double *rb)\n{\n#pragma bamboo olap\n#pragma bamboo receive\n"
                    "  MPI_Recv(rb, 1, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n"
                    "#pragma bamboo olap\n  for (int i = 0; i < 3; i++)\n#pragma bamboo receive\n"
                    "    MPI_Recv(rb, 1, MPI_DOUBLE, up, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n}\n",
                    explain=True)
    assert compiles(res, tmp_path)
    assert "statement: one evaluation point" in res.explanation
    assert "bamboo_expect(up, i, MPI_COMM_WORLD);" in as_messages(res.text)
    # the unbraced loop body is wrapped so that rule, fire and receive stay in the loop
    body = as_messages(res.text[res.text.index("for (int i = 0; i < 3; i++)"):])
    assert body.index("{ ") < body.index("bamboo_expect(up, i")
    assert "MPI_STATUS_IGNORE); }" in body


def test_priority(translate, tmp_path):
    res = translate(HEAD + "int level = 2;\nvoid f(void)\n{\n#pragma bamboo priority level * 2\n"
                    "  level++;\n}\n")
    assert compiles(res, tmp_path)
    assert "bamboo_set_priority((BAMBOO_PRIVATE(level) * 2));  /* bamboo: priority */" in res.text


def test_collectives_join_the_rule_until_the_first_send(translate, tmp_path):
    # A collective's first messages are announced by the runtime (bamboo_expect_collective);
    # since a collective also sends, what follows it in the window waits on its own.
    res = translate(region("#pragma bamboo receive\n{\n"
                           " MPI_Recv(rb, n, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n"
                           " MPI_Bcast(rb, n, MPI_DOUBLE, k, MPI_COMM_WORLD);\n"
                           " MPI_Allreduce(sb, rb, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);\n}",
                           decls="int up = 0, n = 4, k = 2; double rb[8], sb[8];"),
                    explain=True)
    assert compiles(res, tmp_path)
    w = window_text(res)
    assert "bamboo_expect(up, 0, MPI_COMM_WORLD);" in w
    assert "bamboo_expect_collective(BAMBOO_BCAST, k, MPI_OP_NULL, MPI_COMM_WORLD);" in w
    assert "BAMBOO_ALLREDUCE" not in w
    assert "first messages of MPI_Bcast on MPI_COMM_WORLD, root k  [line 11]" in res.explanation
    assert notes(res) == ["t.c:12:2: note: MPI_Allreduce is left out of the firing rule and waits "
                          "on its own: MPI_Bcast at line 11 comes before it in the window (the "
                          "peer may need that message before it sends this one)"]


def test_reduction_rule_names_its_operation(translate, tmp_path):
    # Whether the operation commutes decides the reduction's tree, so the rule passes it on.
    res = translate(region("#pragma bamboo receive\n"
                           "if (up >= 0) MPI_Reduce(sb, rb, n, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);",
                           decls="int up = 0, n = 4; double rb[8], sb[8];"))
    assert compiles(res, tmp_path)
    w = window_text(res)
    assert "if (up >= 0) {\n" in w
    assert "bamboo_expect_collective(BAMBOO_REDUCE, 0, MPI_MAX, MPI_COMM_WORLD);" in w
    res = translate(region("#pragma bamboo receive\n"
                           "MPI_Allreduce(sb, rb, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);",
                           decls="int n = 4; double rb[8], sb[8];"), explain=True)
    assert "first messages of MPI_Allreduce on MPI_COMM_WORLD, op MPI_SUM  [line 9]" in res.explanation


def test_collective_on_a_communicator_made_in_the_window_is_left_out(translate, tmp_path):
    res = translate(region("#pragma bamboo receive\n{\n"
                           " MPI_Comm_split(MPI_COMM_WORLD, up, 0, &c);\n"
                           " MPI_Barrier(c);\n}",
                           decls="int up = 0; MPI_Comm c;"))
    assert compiles(res, tmp_path)
    assert "bamboo_expect_collective" not in res.text
    assert len(notes(res)) == 1
    assert "MPI_Barrier is left out" in notes(res)[0] and "MPI_Comm_split at line 10" in notes(res)[0]


def test_collective_in_a_receiving_helper_gets_a_companion(translate, tmp_path):
    helper = ("static void spread(double *x, int root, MPI_Comm comm)\n{\n"
              "  MPI_Bcast(x, 1, MPI_DOUBLE, root, comm);\n}\n")
    res = translate(region("#pragma bamboo receive\nspread(rb, 0, MPI_COMM_WORLD);",
                           decls="double rb[1];", extra=helper))
    assert compiles(res, tmp_path)
    assert "bamboo_expect_spread(rb, 0, MPI_COMM_WORLD);" in window_text(res)
    assert "bamboo_expect_collective(BAMBOO_BCAST, root, MPI_OP_NULL, comm);" in res.text


def test_quiet_functions_of_user_headers_do_not_hold_back_receives(translate, tmp_path):
    # A helper in the user's header that makes no MPI call cannot be what a peer waits
    # for; one that sends can.
    helpers = ("static inline void copy_in(double *to, const double *from) { to[0] = from[0]; }\n"
               "static inline void report(double *x) { MPI_Send(x, 1, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD); }\n")
    res = translate(region("#pragma bamboo receive\n{\n"
                           " MPI_Recv(rb, 1, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n"
                           " copy_in(sb, rb);\n"
                           " MPI_Recv(rb, 1, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n"
                           " report(sb);\n"
                           " MPI_Recv(rb, 1, MPI_DOUBLE, up, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n}",
                           extra='#include "helpers.h"\n'), helpers_h=helpers)
    assert compiles(res, tmp_path)
    w = window_text(res)
    assert "bamboo_expect(up, 0, MPI_COMM_WORLD);" in w and "bamboo_expect(down, 1, MPI_COMM_WORLD);" in w
    assert "bamboo_expect(up, 2" not in w
    # the translator reads the header's functions: report() sends
    assert notes(res) == ["t.c:15:2: note: MPI_Recv is left out of the firing rule and waits on its "
                          "own: the call to 'report' at line 14, which communicates comes before "
                          "it in the window (the peer may need that message before it sends this "
                          "one)"]


def test_utf8_comments_do_not_shift_the_edits(translate, tmp_path):
    # libclang counts bytes; a two-byte character before the region must not move the
    # inserted firing rule or the renamed main.
    res = translate("/* seed 001 \u00a74.2: \u00e9t\u00e9 */\n" + region(
        "#pragma bamboo receive\nMPI_Recv(rb, n, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);"))
    assert compiles(res, tmp_path)
    assert "bamboo_expect(up, 0, MPI_COMM_WORLD);" in window_text(res)


def rule_of(translate, tmp_path, window, decls="double *next = malloc(64), *other = malloc(64), sb[8];"
            " int up = 0, down = 1, n = 4, peers[2] = {0, 1}; MPI_Request reqs[2];"):
    """The generated rule of WINDOW (receive blocks, then a wait for `reqs`), as written."""
    res = translate(region(window + "\nMPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);", decls=decls),
                    explain=True)
    assert compiles(res, tmp_path)
    t = res.text
    start = t.index("/* bamboo: firing rule")
    return t[start:t.index("bamboo_fire", start)], res.explanation


def test_a_window_of_receives_only_announces_them_whole(translate, tmp_path):
    # the runtime posts them at the evaluation point, so that messages land in place
    rule, explanation = rule_of(translate, tmp_path, "#pragma bamboo receive\n{\n"
                                " MPI_Irecv(next, n, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, &reqs[0]);\n"
                                " MPI_Irecv(other, n, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &reqs[1]);\n}")
    assert "bamboo_expect_receive(next, n, MPI_DOUBLE, up, 0, MPI_COMM_WORLD);" in rule
    assert "bamboo_expect_receive(other, n, MPI_DOUBLE, down, 1, MPI_COMM_WORLD);" in rule
    assert "message from up, tag 0, MPI_COMM_WORLD, into next (posted here)" in explanation
    # loops over local counters, arrays read in the calls' arguments, MPI_Recv and waits
    rule, _ = rule_of(translate, tmp_path, "#pragma bamboo receive\n"
                      "for (int d = 0; d < 2; d++) {\n"
                      " MPI_Recv(next + d * n, n, MPI_DOUBLE, peers[d], d, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n"
                      " MPI_Irecv(other + d * n, n, MPI_DOUBLE, peers[d], 2 + d, MPI_COMM_WORLD, &reqs[d]);\n"
                      " MPI_Wait(&reqs[d], MPI_STATUS_IGNORE);\n}")
    assert "bamboo_expect_receive(next + d * n, n, MPI_DOUBLE, peers[d], d, MPI_COMM_WORLD);" in rule


def test_an_elements_address_reads_no_element(translate, tmp_path):
    # &next[n] is next + n: after a receive has written doubles, it still names the same
    # buffer (the stencil's &AT(u, j, i)); &box->cells likewise reads only box
    decls = ("struct box { int size; double cells[8]; } *box = malloc(sizeof *box);"
             " double *next = malloc(64); int up = 0, down = 1, n = 4; MPI_Request reqs[2];")
    rule, _ = rule_of(translate, tmp_path, "#pragma bamboo receive\n{\n"
                      " MPI_Irecv(&next[0], n, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, &reqs[0]);\n"
                      " MPI_Irecv(&next[n], n, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &reqs[1]);\n"
                      " MPI_Recv(&box->cells, 1, MPI_DOUBLE, up, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n}",
                      decls=decls)
    assert "bamboo_expect_receive(&next[n], n, MPI_DOUBLE, down, 1, MPI_COMM_WORLD);" in rule
    assert "bamboo_expect_receive(&box->cells, 1, MPI_DOUBLE, up, 2, MPI_COMM_WORLD);" in rule
    # but the element's value is read where it is an index or a pointer followed
    rule, _ = rule_of(translate, tmp_path, "#pragma bamboo receive\n{\n"
                      " MPI_Recv(&n, 1, MPI_INT, up, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n"
                      " MPI_Irecv(&next[n], 1, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &reqs[0]);\n"
                      " MPI_Irecv(&next[0], 1, MPI_DOUBLE, down, 2, MPI_COMM_WORLD, &reqs[1]);\n}",
                      decls=decls)
    assert "bamboo_expect_receive" not in rule


def test_what_follows_the_last_receive_does_not_keep_the_window_from_being_whole(translate, tmp_path):
    # every posted receive is complete by then: jacobi2d unpacks its columns there
    rule, _ = rule_of(translate, tmp_path, "#pragma bamboo receive\n{\n"
                      " if (up >= 0) MPI_Recv(next, n, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n"
                      " MPI_Recv(other, n, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n"
                      " for (int i = 0; i < n; i++) sb[i] = next[i] + other[i];\n"
                      " free(malloc(8));\n}")
    assert "bamboo_expect_receive(other, n, MPI_DOUBLE, down, 1, MPI_COMM_WORLD);" in rule
    # but not what runs before a receive, in a loop's next round included
    rule, _ = rule_of(translate, tmp_path, "#pragma bamboo receive\n"
                      "for (int d = 0; d < 2; d++) {\n"
                      " MPI_Recv(next + d * n, n, MPI_DOUBLE, peers[d], d, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n"
                      " sb[d] = next[d * n];\n}")
    assert "bamboo_expect_receive" not in rule


def test_a_window_that_could_touch_its_buffers_announces_messages_only(translate, tmp_path):
    first = " MPI_Recv(next, n, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n"
    second = " MPI_Recv(other, n, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n"
    for between in (" sb[0] = next[0];\n",                 # a read of memory (posted, it would
                    " n = next[0] > 0 ? 4 : 2;\n",         # see the second message too early)
                    " if (next[0] > 0) up = 1;\n",
                    " free(malloc(8));\n",                  # a call
                    " MPI_Send(sb, 1, MPI_DOUBLE, up, 2, MPI_COMM_WORLD);\n",
                    " MPI_Barrier(MPI_COMM_WORLD);\n"):      # a collective in the rule
        rule, _ = rule_of(translate, tmp_path, "#pragma bamboo receive\n{\n" + first + between + second + "}")
        assert "bamboo_expect_receive" not in rule, between
        assert "bamboo_expect(up, 0, MPI_COMM_WORLD);" in rule, between
    # a buffer the rule cannot reproduce at the evaluation point: the count comes in the window
    rule, _ = rule_of(translate, tmp_path, "#pragma bamboo receive\n{\n"
                      " MPI_Recv(&n, 1, MPI_INT, up, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n"
                      " MPI_Recv(other, n, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n}")
    assert "bamboo_expect_receive" not in rule
