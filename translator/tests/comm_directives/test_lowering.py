"""Comm directives (bamboo/comm_directives): clause parsing, where synchronization goes, what
each target's lowering contains, --explain, and that lowering keeps every line where it was.
Whole programs run against hand-written MPI in tests/e2e/test_comm_directives.py; bad input
is in bad_inputs/bad_comm_*.c."""
import os
import subprocess

import pytest

from bamboo.comm_directives import clauses as cl
from bamboo.diagnostics import Diagnostics
from bamboo.source import SourceFile
from bamboo.translate import translate_file

HEADER = "#include <mpi.h>\n"


@pytest.fixture
def lower(tmp_path):
    """lower(code, *args) -> TranslationResult of `bamboo translate --comm-only`."""
    def run(code, *args, explain=False):
        path = tmp_path / "t.c"
        path.write_text(HEADER + code)
        old = os.getcwd()
        os.chdir(tmp_path)
        try:
            return translate_file("t.c", list(args), display="t.c", explain=explain, comm_only=True)
        finally:
            os.chdir(old)
    return run


def scan(text, macros=None):
    diags = Diagnostics()
    found = cl.scan(SourceFile("t.c", text=text), diags, macros=macros)
    return found, diags


def test_clauses_keep_lists_and_commas_inside_brackets():
    (d,), diags = scan("#pragma comm_p2p sbuf(a, f(b, c), m[1][2]) rbuf(x) sender(g(1, 2))\n")
    assert not diags.items
    assert [e.text for e in d.clauses["sbuf"].items] == ["a", "f(b, c)", "m[1][2]"]
    assert d.clauses["sender"].expr.text == "g(1, 2)"


def test_clauses_continue_over_backslash_lines():
    (d,), diags = scan("#pragma comm_parameters sender(rank - 1) \\\n    receiver(rank + 1)\n{ }\n")
    assert not diags.items
    assert d.clauses["receiver"].expr.text == "rank + 1"


def test_target_may_name_a_macro():
    (d,), diags = scan("#pragma comm_p2p target(MY_TARGET)\n", {"MY_TARGET": "OTHER",
                                                                "OTHER": cl.SHMEM})
    assert not diags.items
    assert d.clauses["target"].keyword == cl.SHMEM


def test_region_clauses_reach_every_instance_and_an_instance_restates_one(lower):
    res = lower("""
static double a[2], b[2], c[2];
void f(int rank) {
#pragma comm_parameters sender(rank) receiver(rank) count(2)
    {
#pragma comm_p2p sbuf(a) rbuf(b)
        { }
#pragma comm_p2p sbuf(a) rbuf(c) count(1) receiver(rank + 1)
        { }
    }
}
""")
    assert res.ok, res.diagnostics
    assert "MPI_Isend((a), bamboo_comm_count, MPI_DOUBLE, (rank), 32000" in res.text
    assert "MPI_Isend((a), bamboo_comm_count, MPI_DOUBLE, (rank + 1), 32001" in res.text
    assert "int bamboo_comm_count = (int)(2);" in res.text
    assert "int bamboo_comm_count = (int)(1);" in res.text


def test_adjacent_independent_instances_share_one_waitall(lower):
    res = lower("""
static double a[2], b[2], c[2], d[2];
void f(int rank) {
#pragma comm_parameters sender(rank) receiver(rank)
    {
#pragma comm_p2p sbuf(a) rbuf(b)
        { }
#pragma comm_p2p sbuf(c) rbuf(d)
        { }
    }
}
""")
    assert res.ok, res.diagnostics
    assert res.text.count("MPI_Waitall") == 1
    assert "MPI_Request bamboo_comm_requests_0[4]" in res.text


def test_an_instance_sending_what_another_receives_completes_it_first(lower):
    res = lower("""
static double a[2], b[2], c[2];
void f(int rank) {
#pragma comm_parameters sender(rank) receiver(rank)
    {
#pragma comm_p2p sbuf(a) rbuf(b)
        { }
#pragma comm_p2p sbuf(b) rbuf(c)
        { }
    }
}
""", explain=True)
    assert res.ok, res.diagnostics
    second = res.text.split("/* comm_p2p */")[1]
    assert second.index("MPI_Waitall") < second.index("MPI_Irecv")
    assert "completes the transfers before it first" in res.explanation


def test_a_loop_sizes_its_requests_by_max_comm_iter_and_guards_them(lower):
    res = lower("""
static double a[64][3], b[8][3];
void f(int rank, int n) {
#pragma comm_parameters sender(0) receiver(1) sendwhen(rank == 0) receivewhen(rank == 1) \\
        count(3) max_comm_iter(n)
    {
        for (int i = 0; i < n; i++)
#pragma comm_p2p sbuf(&a[i][0]) rbuf(&b[i % 8][0])
            ;
    }
}
""")
    assert res.ok, res.diagnostics
    assert "int bamboo_comm_capacity_0 = 2 * (n);" in res.text
    # n may be 0: no VLA of length 0 (UBSan found one in tests/e2e/comm_directives/exchange.c)
    assert ("MPI_Request bamboo_comm_requests_0[bamboo_comm_capacity_0 > 2 ? "
            "bamboo_comm_capacity_0 : 2]") in res.text
    assert "if (bamboo_comm_posted_0 + 2 > " in res.text


def test_a_loop_without_max_comm_iter_is_a_warning(lower):
    res = lower("""
static double a[64], b[64];
void f(int rank, int n) {
#pragma comm_parameters sender(rank) receiver(rank) count(1)
    {
        for (int i = 0; i < n; i++) {
#pragma comm_p2p sbuf(&a[i]) rbuf(&b[i])
            { }
        }
    }
}
""")
    assert res.ok
    assert any(d.severity == "warning" and "max_comm_iter" in d.message for d in res.diagnostics)


def test_begin_next_param_region_completes_at_the_next_region(lower):
    res = lower("""
static double a[2], b[2], c[2], d[2];
void f(int rank) {
#pragma comm_parameters sender(rank) receiver(rank) place_sync(BEGIN_NEXT_PARAM_REGION)
    {
#pragma comm_p2p sbuf(a) rbuf(b)
        { }
    }
    a[0] = 1;
#pragma comm_parameters sender(rank) receiver(rank)
    {
#pragma comm_p2p sbuf(c) rbuf(d)
        { }
    }
}
""")
    assert res.ok, res.diagnostics
    lines = res.text.splitlines()
    first = next(i for i, l in enumerate(lines) if "bamboo_comm_requests_0[2]" in l)
    assert lines[first].index("bamboo_comm_requests_0[2]") < lines[first].index("{")
    waits = [i for i, l in enumerate(lines) if "MPI_Waitall(bamboo_comm_posted_0" in l]
    assert waits and lines[waits[0]].lstrip().startswith("{ MPI_Waitall(bamboo_comm_posted_0")


def test_end_adj_param_regions_share_one_completion(lower):
    res = lower("""
static double a[2], b[2], c[2], d[2];
void f(int rank) {
#pragma comm_parameters sender(rank) receiver(rank) place_sync(END_ADJ_PARAM_REGIONS)
    {
#pragma comm_p2p sbuf(a) rbuf(b)
        { }
    }
#pragma comm_parameters sender(rank) receiver(rank) place_sync(END_ADJ_PARAM_REGIONS)
    {
#pragma comm_p2p sbuf(c) rbuf(d)
        { }
    }
}
""")
    assert res.ok, res.diagnostics
    assert res.text.count("MPI_Waitall") == 1
    assert "bamboo_comm_requests_0[4]" in res.text


def test_a_structure_becomes_one_cached_mpi_struct_type(lower):
    res = lower("""
struct atom { int id; double pos[3]; struct { char tag[4]; short n; } inner; };
void f(int rank, struct atom *mine, struct atom *theirs) {
#pragma comm_p2p sbuf(mine) rbuf(theirs) sender(rank) receiver(rank) count(2)
    { }
}
""")
    assert res.ok, res.diagnostics
    assert "static MPI_Datatype bamboo_comm_type_0; static int bamboo_comm_type_0_made = 0; /* struct atom */" in res.text
    assert "int bamboo_comm_lengths[4] = {1, 3, 4, 1}" in res.text
    assert "MPI_Aint bamboo_comm_offsets[4] = {0, 8, 32, 36}" in res.text
    assert "{MPI_INT, MPI_DOUBLE, MPI_CHAR, MPI_SHORT}" in res.text
    assert "MPI_Type_create_resized(bamboo_comm_fields, 0, 40, &bamboo_comm_type_0)" in res.text


def test_a_buffer_list_is_one_message(lower):
    res = lower("""
void f(int rank, double *x, int *k, double *y, int *m) {
#pragma comm_p2p sbuf(x, k) rbuf(y, m) sender(rank) receiver(rank) count(5)
    { }
}
""", explain=True)
    assert res.ok, res.diagnostics
    assert res.text.count("MPI_Isend(") == 1 and res.text.count("MPI_Irecv(") == 1
    assert "MPI_Type_create_struct(2, bamboo_comm_lengths, bamboo_comm_at" in res.text
    assert "the list as one MPI struct datatype" in res.explanation


def test_count_is_the_smallest_array_extent(lower):
    res = lower("""
static double a[3][4], b[10];
void f(int rank) {
#pragma comm_p2p sbuf(a) rbuf(b) sender(rank) receiver(rank)
    { }
}
""")
    assert res.ok, res.diagnostics
    assert "int bamboo_comm_count = (int)10;" in res.text


def test_one_sided_puts_into_the_groups_dynamic_window(lower):
    res = lower("""
static struct { double evec[8][3]; } local;
static double ev[24];
void f(int rank, int p) {
#pragma comm_parameters sender(0) receiver(1) sendwhen(rank == 0) receivewhen(rank == 1) \\
        target(TARGET_COMM_MPI_1SIDE)
    {
#pragma comm_p2p sbuf(&ev[3 * p]) rbuf(&local.evec[p][0]) count(3)
        { }
    }
}
""")
    assert res.ok, res.diagnostics
    assert "MPI_Win_create_dynamic(MPI_INFO_NULL, bamboo_comm_world(__FILE__, __LINE__), " \
        "&bamboo_comm_window_0)" in res.text
    assert "MPI_Win_attach(bamboo_comm_window_0, &(local), (MPI_Aint)sizeof(local))" in res.text
    # the receiver's address of the object, gathered once, plus the rbuf's place in it
    assert "MPI_Allgather(&bamboo_comm_address, 1, MPI_AINT, bamboo_comm_addresses_0_0, 1, MPI_AINT" in res.text
    assert "bamboo_comm_addresses_0_0[bamboo_comm_to] : 0) + " \
        "(MPI_Aint)((char *)((&local.evec[p][0])) - (char *)&(local))" in res.text
    # point to point (runtime/commdir/src/mpi_sync.c): the receiving side before the sending
    text = res.text
    assert "MPI_Win_fence" not in text and "MPI_Win_lock_all(MPI_MODE_NOCHECK, bamboo_comm_window_0)" in text
    assert "bamboo_comm_sync_0 = bamboo_comm_sync_new(bamboo_comm_world(__FILE__, __LINE__), 0, 1, " in text
    assert "if (rank == 1) { bamboo_comm_sync_expect(bamboo_comm_sync_0, (0), __FILE__, __LINE__); } " \
        "if (rank == 0) { int bamboo_comm_to = (1); " \
        "bamboo_comm_sync_before_put(bamboo_comm_sync_0, bamboo_comm_to, __FILE__, __LINE__); " in text
    assert text.index("bamboo_comm_sync_before_put(") < text.index("MPI_Put(") < \
        text.index("bamboo_comm_sync_complete(bamboo_comm_sync_0, bamboo_comm_window_0, ")
    assert "bamboo_comm_sync_free(bamboo_comm_sync_0); MPI_Win_unlock_all(bamboo_comm_window_0)" in text
    assert "MPI_Win_free(&bamboo_comm_window_0)" in text


def test_one_sided_objects_share_one_window_and_its_synchronization(lower):
    """Seven objects used to be seven windows, each fenced twice a region."""
    res = lower("""
static double a[4], b[4], c[4];
void f(int rank, double *out, double *more) {
#pragma comm_parameters sender(rank) receiver(rank) count(4) target(TARGET_COMM_MPI_1SIDE)
    {
#pragma comm_p2p sbuf(out) rbuf(a)
        { }
#pragma comm_p2p sbuf(out, more) rbuf(b, c)
        { }
    }
}
""")
    assert res.ok, res.diagnostics
    assert res.text.count("MPI_Win_create_dynamic") == 1 and res.text.count("MPI_Win_attach") == 3
    assert res.text.count("bamboo_comm_sync_complete(bamboo") == 1 and res.text.count("MPI_Win_detach") == 3


def test_shmem_puts_are_typed(tmp_path):
    path = tmp_path / "t.c"
    path.write_text("""#include <shmem.h>
static double in[4]; static int k_in[4];
void f(int me, double *out, int *k) {
#pragma comm_p2p sbuf(out, k) rbuf(in, k_in) sender(me) receiver(me + 1) count(4) target(TARGET_COMM_SHMEM)
    { }
}
""")
    res = translate_file(str(path), [], display="t.c", comm_only=True)
    assert res.ok, res.diagnostics
    assert "shmem_double_put_nbi((double *)((in)), (const double *)((out)), (size_t)bamboo_comm_count, (me + 1))" in res.text
    assert "shmem_int_put_nbi(" in res.text
    assert "shmem_barrier_all" not in res.text


def test_shmem_synchronizes_point_to_point(tmp_path):
    """A sender waits for its receiver to be done before putting again and signals it at the
    group's end; a receiver counts what it expects (receivewhen) and waits for it there: no
    barrier of all PEs (runtime/commdir/src/shmem_sync.c)."""
    path = tmp_path / "t.c"
    path.write_text("""#include <shmem.h>
static double in[4];
void f(int me, double *out) {
#pragma comm_parameters sender(me - 1) receiver(me + 1) sendwhen(me % 2 == 0) receivewhen(me % 2) target(TARGET_COMM_SHMEM)
    {
#pragma comm_p2p sbuf(out) rbuf(in) count(4)
        { }
    }
}
""")
    res = translate_file(str(path), [], display="t.c", comm_only=True)
    assert res.ok, res.diagnostics
    line = res.text.split("\n")[6]   # the comm_p2p's (after #line)
    assert line.index("if (me % 2 == 0) { bamboo_comm_shmem_before_put((me + 1), __FILE__, __LINE__); "
                      "shmem_double_put_nbi(") < line.index("bamboo_comm_shmem_sent((me + 1), (in)); }")
    assert "if (me % 2) { bamboo_comm_shmem_expect((me - 1), __FILE__, __LINE__); }" in line
    assert "bamboo_comm_shmem_start(__FILE__, __LINE__);" in res.text.split("\n")[4]
    assert "bamboo_comm_shmem_complete(__FILE__, __LINE__);" in res.text.split("\n")[8]
    assert "shmem_barrier_all" not in res.text


def test_lowering_keeps_every_line_so_errors_point_at_the_users_lines(lower, tmp_path):
    code = """
static double a[2], b[2];
void f(int rank) {
#pragma comm_parameters sender(rank) \\
        receiver(rank)
    {
#pragma comm_p2p sbuf(a) rbuf(b)
        { }
    }
#ifdef ONLY_FOR_THE_COMPILER
#error after the directives
#endif
}
"""
    res = lower(code)
    assert res.ok, res.diagnostics
    body = res.text.split("\n", 1)[1]   # after the #line naming the user's file
    assert body.count("\n") == (HEADER + code).count("\n")
    (tmp_path / "lowered.c").write_text(res.text)
    done = subprocess.run(["mpicc", "-DONLY_FOR_THE_COMPILER", "-c", "-o", os.devnull,
                           str(tmp_path / "lowered.c")], capture_output=True, text=True)
    assert done.returncode != 0
    line = 1 + (HEADER + code).split("\n").index("#error after the directives")
    assert f"t.c:{line}:" in done.stderr


def test_explain_says_what_each_directive_became(lower):
    res = lower("""
static double a[2], b[2];
void f(int rank) {
#pragma comm_parameters sender(rank - 1) receiver(rank + 1) sendwhen(rank % 2 == 0) receivewhen(rank % 2)
    {
#pragma comm_p2p sbuf(a) rbuf(b)
        { }
    }
}
""", explain=True)
    assert res.ok, res.diagnostics
    assert "t.c:5: comm_parameters: 1 comm_p2p; synchronization at its end (place_sync END_PARAM_REGION)" in res.explanation
    assert ("t.c:7: comm_p2p (MPI two-sided, region at line 5): a -> b (double), count 2: MPI_Irecv "
            "from sender(rank - 1) when rank % 2, MPI_Isend to receiver(rank + 1) when rank % 2 == 0, "
            "tag 32000 on the directives' communicator") in res.explanation


@pytest.mark.parametrize("language", ["c", "c++"])
def test_transfers_use_the_directives_communicator_declared_before_the_first_user(lower, language):
    """Not MPI_COMM_WORLD, where a receive of the program's with MPI_ANY_TAG could take their
    messages; declared at file scope, on the line of the namespace the first user is in."""
    res = lower("""static double a[2], b[2];
namespace_or_not_begin
void f(int rank) {
#pragma comm_parameters sender(rank - 1) receiver(rank + 1)
    {
#pragma comm_p2p sbuf(a) rbuf(b)
        { }
    }
}
namespace_or_not_end
""".replace("namespace_or_not_begin", "namespace solver {" if language == "c++" else "")
       .replace("namespace_or_not_end", "}" if language == "c++" else ""), "-x", language)
    assert res.ok, res.diagnostics
    lines = res.text.split("\n")
    at = 4 if language == "c++" else 5   # after the #line and mpi.h
    declaration = "MPI_Comm bamboo_comm_world(const char *, int); "
    expected = f'extern "C" {{ {declaration}}} namespace solver {{' if language == "c++" else \
        f"{declaration}void f(int rank) {{"
    assert lines[at - 1] == expected
    assert "MPI_COMM_WORLD" not in res.text
    assert res.text.count("bamboo_comm_world(__FILE__, __LINE__)") == 2


def test_a_file_without_comm_directives_comes_out_as_it_is(lower):
    res = lower("int main(void) { return 0; }\n")
    assert res.ok
    assert res.text.split("\n", 1)[1] == HEADER + "int main(void) { return 0; }\n"


@pytest.mark.parametrize("element,dependent", [
    ("double", True),                 # q may point into the array p receives into
    ("int", False),                   # types that cannot alias
    ("unsigned char", True),          # a character type may alias anything
])
def test_two_sided_buffers_behind_different_pointers_may_overlap(lower, element, dependent):
    """Taken as disjoint, q would be sent while p's receive may still be writing it."""
    res = lower(f"""
static double x[4]; static {element} z[4];
void f(int rank, double *p, {element} *q) {{
#pragma comm_parameters sender(rank) receiver(rank)
    {{
#pragma comm_p2p sbuf(x) rbuf(p) count(4)
        {{ }}
#pragma comm_p2p sbuf(q) rbuf(z) count(4)
        {{ }}
    }}
}}
""", explain=True)
    assert res.ok, res.diagnostics
    line = [text for text in res.explanation.splitlines() if "t.c:9:" in text][0]
    assert ("completes the transfers before it first" in line) == dependent, line


@pytest.mark.parametrize("second,dependent", [
    ("sbuf(&a[4]) rbuf(b) count(4)", False),     # a[0..4) received, a[4..8) sent
    ("sbuf(a + 4) rbuf(b) count(4)", True),      # pointer arithmetic: not followed
    ("sbuf(&a[3]) rbuf(b) count(4)", True),      # a[3] in both
    ("sbuf(a) rbuf(b)", True),                    # the whole array
    ("sbuf(&a[k]) rbuf(b) count(4)", True),      # where k is, is not known
])
def test_sections_of_one_array_are_independent_where_constants_say_they_do_not_meet(
        lower, second, dependent):
    res = lower(f"""
static double a[8], b[8], c[4];
void f(int rank, int k) {{
#pragma comm_parameters sender(rank) receiver(rank)
    {{
#pragma comm_p2p sbuf(c) rbuf(a) count(4)
        {{ }}
#pragma comm_p2p {second}
        {{ }}
    }}
}}
""", explain=True)
    assert res.ok, res.diagnostics
    line = [text for text in res.explanation.splitlines() if "t.c:9:" in text][0]
    assert ("completes the transfers before it first" in line) == dependent, line


@pytest.mark.parametrize("first,second,dependent", [
    ("sbuf(c) rbuf(&a[2 * i])", "sbuf(d) rbuf(&a[2 * i + 1])", False),   # evens and odds
    ("sbuf(c) rbuf(&a[i * 2])", "sbuf(d) rbuf(&a[1 + 2 * i])", False),   # written otherwise
    ("sbuf(c) rbuf(&a[2 * i])", "sbuf(d) rbuf(&a[2 * i + 2])", True),    # the next iteration's
    ("sbuf(c) rbuf(&a[2 * i])", "sbuf(d) rbuf(&a[3 * i + 1])", True),    # strides differ
    ("sbuf(c) rbuf(&a[2 * i])", "sbuf(d) rbuf(&a[2 * j + 1])", True),    # another variable
    ("sbuf(c) rbuf(&a[2 * i])", "sbuf(&a[2 * i - 1]) rbuf(d)", False),   # odds sent
])
def test_sections_in_a_loop_are_independent_for_every_iteration(lower, first, second, dependent):
    """An instance in a loop posts at every iteration into one group: two sections are
    independent only where no iteration's meets another's (count 1, stride 2 here)."""
    res = lower(f"""
static double a[64], b[8], c[1], d[1];
void f(int rank, int n, int j) {{
#pragma comm_parameters sender(rank) receiver(rank) count(1) max_comm_iter(n)
    {{
        for (int i = 0; i < n; i++) {{
#pragma comm_p2p {first}
            {{ }}
#pragma comm_p2p {second}
            {{ }}
        }}
    }}
}}
""", explain=True)
    assert res.ok, res.diagnostics
    line = [text for text in res.explanation.splitlines() if "t.c:10:" in text][0]
    assert ("completes the transfers before it first" in line) == dependent, line


def test_restrict_pointers_are_taken_at_their_word(lower):
    res = lower("""
static double x[4], z[4];
void f(int rank, double *restrict p, double *restrict q) {
#pragma comm_parameters sender(rank) receiver(rank)
    {
#pragma comm_p2p sbuf(x) rbuf(p) count(4)
        { }
#pragma comm_p2p sbuf(q) rbuf(z) count(4)
        { }
    }
}
""", explain=True)
    assert res.ok, res.diagnostics
    assert "completes the transfers before it first" not in res.explanation
    assert "one message with the buffers of the comm_p2p at line(s) 9" in res.explanation


def test_adjacent_standalone_instances_share_one_completion_unless_dependent(lower):
    res = lower("""
static double a[2], b[2], c[2], d[2];
void f(int rank) {
#pragma comm_p2p sbuf(a) rbuf(b) sender(rank) receiver(rank)
    { }
#pragma comm_p2p sbuf(c) rbuf(d) sender(rank) receiver(rank)
    { }
#pragma comm_p2p sbuf(d) rbuf(a) sender(rank) receiver(rank)
    { }
}
""", explain=True)
    assert res.ok, res.diagnostics
    assert res.text.count("MPI_Waitall") == 2
    assert "t.c:5: comm_p2p (MPI two-sided, standalone: completes with the comm_p2p at line 7)" in res.explanation
    assert "t.c:9: comm_p2p (MPI two-sided, standalone: completes after its computation)" in res.explanation


def test_adjacent_two_sided_instances_between_the_same_peers_are_one_message(lower):
    res = lower("""
struct head { int n; double x; };
static struct head h_in; static double v_in[8]; static int k_in[8];
void f(int rank, struct head *h, double *v, int *k, int m) {
#pragma comm_parameters sender(0) receiver(1) sendwhen(rank == 0) receivewhen(rank == 1)
    {
#pragma comm_p2p sbuf(*h) rbuf(h_in) count(1)
        { }
#pragma comm_p2p sbuf(v, k) rbuf(v_in, k_in) count(m)
        { }
#pragma comm_p2p sbuf(v) rbuf(v_in) count(2) receiver(2)
        { }
    }
}
""", explain=True)
    assert res.ok, res.diagnostics
    assert res.text.count("MPI_Isend(") == 2 and res.text.count("MPI_Irecv(") == 2
    assert "int bamboo_comm_count_1 = (int)(m);" in res.text
    assert "bamboo_comm_lengths[0] = bamboo_comm_count; " in res.text
    assert "bamboo_comm_lengths[2] = bamboo_comm_count_1; " in res.text
    assert "one message with the buffers of the comm_p2p at line(s) 10" in res.explanation
    assert ("t.c:10: comm_p2p (MPI two-sided, region at line 6): v -> v_in (double), k -> k_in "
            "(int), count (m): travels in the message of the comm_p2p at line 8") in res.explanation


def test_computation_between_instances_keeps_their_messages_apart(lower):
    res = lower("""
static double a_in[4], b_in[4];
void f(int rank, double *a, double *b) {
#pragma comm_parameters sender(rank) receiver(rank)
    {
#pragma comm_p2p sbuf(a) rbuf(a_in) count(4)
        b[0] = 1;
#pragma comm_p2p sbuf(b) rbuf(b_in) count(4)
        { }
    }
}
""")
    assert res.ok, res.diagnostics
    assert res.text.count("MPI_Isend(") == 2


ONE_SIDED_IN_A_LOOP = """
static double in[4];
int f(int rank, int steps, double *out) {
    for (int s = 0; s < steps; s++) {
#pragma comm_parameters sender(rank) receiver(rank) count(4) target(TARGET_COMM_MPI_1SIDE)
        {
#pragma comm_p2p sbuf(out) rbuf(in)
            { }
        }
        %s
    }
    return 0;
}
"""


def test_one_sided_windows_are_made_once_around_the_loop(lower):
    res = lower(ONE_SIDED_IN_A_LOOP % "")
    assert res.ok, res.diagnostics
    lines = res.text.splitlines()
    loop = next(i for i, l in enumerate(lines) if "for (int s = 0" in l)
    assert lines[loop].lstrip().startswith("{ MPI_Win bamboo_comm_window_0; int bamboo_comm_procs_0; "
                                           "struct bamboo_comm_sync *bamboo_comm_sync_0; "
                                           "MPI_Aint *bamboo_comm_addresses_0_0; MPI_Win_create_dynamic(")
    assert "MPI_Win_attach(bamboo_comm_window_0, &(in)" in lines[loop]
    assert res.text.count("MPI_Win_create_dynamic") == 1 and res.text.count("MPI_Win_free") == 1
    after = "\n".join(lines[loop + 1:])
    assert after.index("bamboo_comm_sync_complete(") < after.index("MPI_Win_unlock_all(") < \
        after.index("MPI_Win_free")


def test_a_loop_that_may_return_keeps_windows_in_its_region(lower):
    res = lower(ONE_SIDED_IN_A_LOOP % "if (s == 3) return 1;")
    assert res.ok, res.diagnostics
    lines = res.text.splitlines()
    region = next(i for i, l in enumerate(lines) if "/* comm_parameters */" in l)
    assert "MPI_Win_attach(bamboo_comm_window_0, &(in)" in lines[region]
    assert "MPI_Win_free" in "\n".join(lines[region:region + 6])


def test_under_tasks_the_directives_communicator_is_not_taken_for_communication(tmp_path):
    """bamboo_comm_world is the runtime's and local: the firing rule's notes give the
    receive's real reason (its send follows it), not a call that 'may communicate'."""
    path = tmp_path / "t.c"
    path.write_text(HEADER + """static double ghost;
void step(int left, int right, double *u, int n) {
#pragma bamboo olap
    for (int it = 0; it < n; it++) {
#pragma bamboo receive
        {
#pragma comm_parameters sender(left) receiver(right)
            {
#pragma comm_p2p sbuf(&u[0]) rbuf(&ghost) count(1)
                { }
            }
        }
        u[1] += ghost;
    }
}
""")
    res = translate_file(str(path), [], display="t.c", explain=True)
    assert res.ok, res.diagnostics
    notes = " ".join(d.message for d in res.diagnostics) + res.explanation
    assert "MPI_Irecv" in notes and "bamboo_comm_world" not in notes, notes


def test_a_one_sided_transfer_of_an_earlier_ones_buffer_completes_it_first(lower):
    """Point to point, the group can complete where the later instance stands; with another
    target before it, it cannot."""
    source = """
static double a[4], b[4], c[4];
void f(int rank) {
#pragma comm_parameters sender(rank) receiver(rank) count(4)
    {
#pragma comm_p2p sbuf(c) rbuf(a) target(%s)
        { }
#pragma comm_p2p sbuf(a) rbuf(b) target(TARGET_COMM_MPI_1SIDE)
        { }
    }
}
"""
    res = lower(source % "TARGET_COMM_MPI_1SIDE")
    assert res.ok, res.diagnostics
    line = [l for l in res.text.splitlines() if "sbuf(a)" not in l and "MPI_Put((b)" not in l
            and "MPI_Put((a)" in l][0]
    assert line.lstrip().startswith("{ int bamboo_comm_count = (int)(4); "
                                    "bamboo_comm_sync_complete(bamboo_comm_sync_0, bamboo_comm_window_0, ")
    res = lower(source % "TARGET_COMM_MPI_2SIDE")
    assert not res.ok
    assert [d.message for d in res.diagnostics] == [
        "comm_p2p transfers a buffer of the comm_p2p at line 7 before their common synchronization; "
        "with different targets they complete only at the group's end: put them in separate "
        "comm_parameters regions"]
