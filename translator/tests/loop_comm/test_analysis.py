"""Loop communication (bamboo/loop_comm): which loops the optimizer hoists and why it leaves the
others as written (legal and illegal hoists, aliasing, unknown bounds), what the generated code
contains, that it compiles, and that every line stays where it was. Programs run against their
fine-grained originals in tests/e2e/test_loopcomm_programs.py."""
import os
import re
import shutil
import subprocess

import pytest

from bamboo.translate import translate_file

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
HEADER = ("#include <shmem.h>\n"
          "#define N 64\n"
          "double x[N], y[N], z[8][N];\n"
          "long lx[N];\n"
          "int col[N];\n"
          "double f(double);\n")


@pytest.fixture
def opt(tmp_path):
    """opt(body, *args) -> TranslationResult of `bamboo translate --explain` on a function
    with the given body (parameters: int n, int pe, int me, double *q)."""
    def run(body, *args, loop_opt=True, head=HEADER, comm_only=False):
        path = tmp_path / "t.c"
        path.write_text(head + "void k(int n, int pe, int me, double *q, int *iq)\n{\n" + body
                        + "\n}\n", encoding="latin-1")
        old = os.getcwd()
        os.chdir(tmp_path)
        try:
            return translate_file("t.c", list(args), display="t.c", explain=True,
                                  loop_opt=loop_opt, comm_only=comm_only)
        finally:
            os.chdir(old)
    return run


def optimized(res) -> int:
    return res.explanation.count("remote accesses hoisted") + \
        res.explanation.count("MPI accesses move after it")


def left(res) -> list[str]:
    return re.findall(r"left as written: (.*)", res.explanation)


# -- legal hoists ------------------------------------------------------------------------------

def test_a_contiguous_gather_is_hoisted_and_strip_mined(opt):
    res = opt("double s = 0;\nfor (int j = 0; j < n; j++)\n    s += shmem_double_g(&x[j], pe);\n"
              "q[0] = s;")
    assert res.ok and res.loop_runtime and res.shmem_program
    assert optimized(res) == 1 and "1-D region over j" in res.explanation
    assert "shmem_double_g" not in res.text.split("k(int n")[1]
    assert "bamboo_lc_advance" in res.text and "bamboo_lc_plan" in res.text


def test_the_pe_loop_is_refused_and_the_inner_loop_hoisted(opt):
    res = opt("for (int b = 0; b < n; b++)\n  for (int j = 0; j < N; j++)\n"
              "    q[j] += shmem_double_g(&x[j], b);")
    assert optimized(res) == 1
    assert left(res) == ["shmem_double_g at line 11: its PE changes inside the loop: it follows "
                         "a loop variable"]


def test_a_two_dimensional_region_and_its_strides_come_from_the_users_address(opt):
    res = opt("for (int r = 0; r < 8; r++)\n  for (int c = 0; c < n; c += 2)\n"
              "    q[r * N + c] = shmem_double_g(&z[r][c + 1], pe);")
    assert optimized(res) == 1 and "2-D region over r, c" in res.explanation
    # the offset and one stride per loop: the address evaluated with the variables moved
    assert "int r = (int)bamboo_lc_lo_0_0 + 1;" in res.text
    assert "int c = (int)bamboo_lc_lo_0_1 + 2;" in res.text


def test_stencil_references_are_handed_over_together(opt):
    res = opt("for (int j = 1; j < n - 1; j++)\n"
              "  q[j] = shmem_double_g(&x[j - 1], pe) + shmem_double_g(&x[j + 1], pe);")
    assert optimized(res) == 1
    assert res.text.count("bamboo_lc_ref(") == 2


def test_one_element_get_and_put_are_moved_too(opt):
    res = opt("for (int j = 0; j < n; j++) {\n  double v;\n  shmem_double_get(&v, &x[j], 1, pe);\n"
              "  shmem_double_put(&y[j], &v, 1, pe);\n}")
    assert optimized(res) == 1, res.explanation
    assert "shmem_double_get(" not in res.text.split("k(int n")[1]


def test_inner_loops_without_remote_accesses_may_be_anything(opt):
    """CG's column loop: the nonzeros of column j, through an index array, under an if."""
    res = opt("for (int j = 0; j < n; j++) {\n  double pj = shmem_double_g(&x[j], pe);\n"
              "  for (int k = col[j]; k < col[j + 1]; k++) if (k > 0) q[k] += pj * y[k];\n}")
    assert optimized(res) == 1, res.explanation


def test_a_put_from_a_local_plane_checks_at_run_time_whether_the_pe_is_its_own(opt):
    """MG's ghost plane: read z locally, write z remotely."""
    res = opt("for (int r = 0; r < 4; r++)\n  for (int c = 0; c < N; c++)\n"
              "    shmem_double_p(&z[r][c], z[r + 4][c], pe);")
    assert optimized(res) == 1
    assert "(pe) == shmem_my_pe()" in res.text
    assert "keeps its fine-grained accesses" in res.explanation


def test_a_put_of_a_local_arrays_elements_is_put_from_that_array(opt):
    """No staging copy: the run time gets the source's LMAD too, and the rewritten store into
    the buffer happens only where it has not taken the source."""
    res = opt("for (int j = 0; j < n; j++)\n  shmem_double_p(&x[j], y[j + 1], pe);")
    assert "its values are elements of 'y': put straight from there" in res.explanation
    assert res.text.count("bamboo_lc_ref_source(") == 1
    assert "(bamboo_lc_b_0_0 ? (void)(bamboo_lc_b_0_0[" in res.text
    assert "bamboo_lc_soff_0_0 = (long)((&(y[j + 1])) - bamboo_lc_sbase_0_0);" in res.text
    res = opt("for (int j = 0; j < n / 2; j++)\n  shmem_double_put(&x[j], &y[2 * j], 1, pe);")
    assert "its values are elements of 'y'" in res.explanation
    assert "bamboo_lc_soff_0_0 = (long)((&y[2 * j]) - bamboo_lc_sbase_0_0);" in res.text
    res = opt("for (int r = 0; r < 8; r++)\n  for (int c = 0; c < n; c++)\n"
              "    shmem_double_p(&z[r][c], q[c], pe);")     # a pointer to the element, and 2-D
    assert "its values are elements of 'q'" in res.explanation


@pytest.mark.parametrize("body", [
    "float g[N];\nfor (int j = 0; j < n; j++)\n  shmem_double_p(&x[j], g[j], pe);",   # converted
    "for (int j = 0; j < n; j++) {\n  y[j] = j;\n  shmem_double_p(&x[j], y[j], pe);\n}",  # written
    "for (int j = 0; j < n; j++)\n  shmem_double_p(&x[j], y[col[j]], pe);",          # indirect
    "for (int j = 0; j < n; j++) {\n  q[j] = 0;\n  shmem_double_p(&x[j], y[j], pe);\n}",  # may alias
    "for (int j = 0; j < n; j++)\n  shmem_double_p(&x[j], 2 * y[j], pe);",            # computed
    "double **rows = 0;\nfor (int j = 0; j < n; j++)\n  shmem_double_p(&x[j], rows[j][1], pe);",  # rows
], ids=["converted", "written", "indirect", "aliased", "computed", "through-pointers"])
def test_a_put_whose_values_are_not_plain_elements_of_an_unwritten_array_goes_through_the_buffer(opt, body):
    res = opt(body)
    assert optimized(res) == 1, res.explanation
    assert "bamboo_lc_ref_source(" not in res.text and "its values are elements" not in res.explanation


def test_a_store_through_a_pointer_of_the_element_type_may_alias(opt):
    res = opt("for (int j = 0; j < n; j++)\n  q[j] = shmem_double_g(&x[j], pe);")
    assert "shmem_my_pe()" in res.text
    assert "it stores through a pointer to double, which may point into 'x'" in res.explanation
    res = opt("for (int j = 0; j < n; j++)\n  iq[j] = (int)shmem_double_g(&x[j], pe);")
    assert "shmem_my_pe()" not in res.text     # an int store cannot alias a double


def test_a_local_write_of_the_remote_array_conflicts_only_on_its_own_pe(opt):
    res = opt("for (int j = 0; j < n; j++)\n  x[j] = 2 * shmem_double_g(&x[j], pe);")
    assert optimized(res) == 1 and "shmem_my_pe()" in res.text


def test_with_one_pe_the_fallback_accesses_local_memory(opt):
    res = opt("for (int j = 0; j < n; j++)\n  x[j] = 2 * shmem_double_g(&x[j + 1], pe);")
    assert "(bamboo_lc_fine_0 ? *(&x[j + 1]) : " in res.text


def test_with_several_pes_the_fallback_keeps_every_access_as_written(opt):
    """A nest whose fallback is set by one reference falls back for all of them."""
    res = opt("for (int j = 0; j < n / 2; j++)\n"
              "  x[j] = shmem_double_g(&x[j + n / 2], pe) + shmem_long_g(&lx[j], me);")
    assert "(pe) == shmem_my_pe()" in res.text and "(me) == shmem_my_pe()" not in res.text
    assert "(bamboo_lc_fine_0 ? shmem_double_g(&x[j + n / 2], pe) : " in res.text
    assert "(bamboo_lc_fine_0 ? shmem_long_g(&lx[j], me) : " in res.text


# -- illegal hoists and unknown bounds ----------------------------------------------------------

@pytest.mark.parametrize("body, reason", [
    ("for (int j = 0; j < n; j++) { q[j] = shmem_double_g(&x[col[j]], pe); col[j] = 0; }",
     "an indirect index); nor can an inspector compute its elements: 'col [ j ]' may change "
     "inside the loop"),
    ("for (int j = 0; j < n; j++) { q[j] = shmem_double_g(&x[iq[j]], pe); iq[j] = 0; }",
     "nor can an inspector compute its elements: 'iq [ j ]' may change inside the loop (it "
     "stores through a pointer to int)"),
    ("for (int j = 0; j < n; j++) { int c = col[j]; q[j] = shmem_double_g(&x[c], pe); }",
     "nor can an inspector compute its elements: 'c' changes inside the loop"),
    ("for (int j = 0; j < n; j++) shmem_double_p(&y[col[j]], 1.0, pe);",
     "its address is not affine in the loop variables: 'col [ j ]' reads memory at a place that "
     "moves with the loop (an indirect index)"),
    ("double **rows = 0; for (int j = 0; j < n; j++) q[j] = shmem_double_g(&rows[j][1], pe);",
     "'rows' is indexed through a pointer read on the way (not one block of double)"),
    ("for (int j = 0; j < n; j++) if (j > 2) q[j] = shmem_double_g(&x[j], pe);",
     "it runs only when an if lets it"),
    ("for (int j = 0; j < n; j++) q[j] = j > 2 && shmem_double_g(&x[j], pe) > 0;",
     "it runs only when '&&' lets it"),
    ("for (int j = 0; j < n; j++) { q[j] = shmem_double_g(&x[j], pe); shmem_barrier_all(); }",
     "it calls shmem_barrier_all() at line 9, a SHMEM call the optimizer does not move"),
    ("for (int j = 0; j < n; j++) q[j] = f(shmem_double_g(&x[j], pe));",
     "it calls f() at line 9, a function that may communicate or synchronize"),
    ("for (int j = 0; j < n; j++) shmem_double_get(q, &x[j], 4, pe);",
     "shmem_double_get moves a block of elements, not one"),
    ("for (int j = 0; j < n; j++) { q[j] = shmem_double_g(&x[j], pe); n--; }",
     "changes inside the nest"),
    ("for (int j = 0; j < n; j++) { q[j] = shmem_double_g(&x[j], pe); if (q[j] < 0) break; }",
     "a break at line 9 may skip it"),
    ("for (int j = 0; j < n; j++) { if (q[j] < 0) continue; q[j] = shmem_double_g(&x[j], pe); }",
     "a continue at line 9 may skip it"),
    ("for (int j = 0; j < n; j++) { q[j] = shmem_double_g(&x[j], pe); if (q[j] < 0) return; }",
     "a return or goto may leave the loop"),
    ("for (int j = 0; j < n; j++) { q[j] = shmem_double_g(&x[j], pe); j++; }",
     "the loop variable 'j' is changed in the loop's body"),
    ("for (int j = n; j > 0; j--) q[j] = shmem_double_g(&x[j], pe);",
     "its condition is not 'j < bound' or 'j <= bound'"),
    ("for (int j = 0; j < n; j++) q[j] = shmem_double_g(&x[j], pe + j);",
     "its PE changes inside the loop"),
    ("for (int j = 0; j < n; j++) { q[j] = shmem_double_g(&x[j], pe);"
     " shmem_double_p(&x[j], 1.0, pe); }",
     "it reads and writes 'x' remotely in one loop nest"),
    ("for (int j = 0; j < n; j++) { shmem_double_p(&y[j], 1.0, pe);"
     " shmem_double_p(&y[j + 1], 2.0, pe); }",
     "it writes 'y' remotely from 2 places in one loop nest; their order would be lost"),
    ("for (int j = 0; j < n; j++) q[j] = shmem_double_g(&x[j], me++);",
     "its PE changes inside the loop"),
    ("for (int j = 0; j < n; j++) { q[j] = shmem_double_g(&q[j], pe); q = 0; }",
     "'q' changes inside the loop"),
])
def test_loops_the_optimizer_cannot_prove_are_left_as_written_and_explained(opt, body, reason):
    res = opt(body)
    assert res.ok, res.diagnostics
    assert optimized(res) == 0 and not res.loop_runtime
    reasons = left(res)
    assert len(reasons) == 1 and reason in reasons[0], reasons
    assert "bamboo_lc" not in res.text


def test_a_triangular_nest_is_inspected(opt):
    res = opt("for (int i = 0; i < 8; i++)\n  for (int j = i; j < N; j++)\n"
              "    iq[j] += shmem_double_g(&x[j], pe);")
    assert optimized(res) == 1 and not left(res)
    assert "elements found by an inspector over i, j (the start of the loop over 'j' (line 10) " \
           "changes inside the nest" in res.explanation
    assert "for (long bamboo_lc_it_0_1 = 0;" in res.text


# -- inspector-executor --------------------------------------------------------------------------

CSR = ("for (int i = 0; i < n; i++) {\n"
       "  double s = 0;\n"
       "  for (int k = start[i]; k < start[i + 1]; k++)\n"
       "    s += v[k] * shmem_double_g(&x[colidx[k]], pe);\n"
       "  q[i] = s;\n"
       "}")
CSR_HEAD = HEADER + "const int *colidx; const int *start; const double *v; double scale;\n"


def test_csr_rows_are_inspected_and_read_through_a_checked_slot(opt):
    """CG as NAS writes it: the inspector is the nest's loops with its own bounds, keyed by the
    pointers its indices read; each read goes through bamboo_lc_slot."""
    res = opt(CSR, head=CSR_HEAD)
    assert optimized(res) == 1 and not left(res), res.explanation
    assert "line 13: shmem_double_g gets 'x' on PE pe: elements found by an inspector over i, k " \
           "(the start of the loop over 'k' (line 12) changes inside the nest" in res.explanation
    text = res.text
    assert "bamboo_lc_r_0_0 = bamboo_lc_ref_inspected(bamboo_lc_nest_0, bamboo_lc_base_0_0, " \
           "sizeof(double), pe);" in text
    assert "const long bamboo_lc_key_0[] = { bamboo_lc_lo_0_0, (long)(colidx), (long)(start) };" \
        in text
    assert "const long bamboo_lc_ilo_0_1 = (long)(start[i])" in text
    assert "bamboo_lc_see(bamboo_lc_s_0_0, bamboo_lc_t_0, (long)(colidx[k]));" in text
    assert "bamboo_lc_v_0_0 = bamboo_lc_view_strip(bamboo_lc_nest_0, bamboo_lc_r_0_0, " \
           "bamboo_lc_k_0);" in text
    assert "bamboo_lc_b_0_0[bamboo_lc_slot(bamboo_lc_v_0_0, (long)(colidx[k]))]" in text
    # the executor keeps the user's inner loop as written
    assert "for (int k = start[i]; k < start[i + 1]; k++)" in text


def test_the_key_holds_integers_and_pointers_only(opt):
    res = opt("for (int i = 0; i < n; i++)\n"
              "  q[i] = shmem_double_g(&x[(int)(i * scale) + col[i] + me], pe);", head=CSR_HEAD)
    assert optimized(res) == 1
    assert "bamboo_lc_key_0[] = { bamboo_lc_lo_0_0, (long)(me) };" in res.text


def test_an_affine_reference_beside_an_inspected_one_keeps_its_lmad(opt):
    res = opt("for (int i = 0; i < n; i++)\n"
              "  q[i] = shmem_double_g(&x[col[i]], pe) + shmem_double_g(&y[i], pe);")
    assert "gets 'x' on PE pe: elements found by an inspector over i" in res.explanation
    assert "gets 'y' on PE pe: 1-D region over i" in res.explanation
    assert res.text.count("bamboo_lc_ref_inspected(") == 1
    assert res.text.count("= bamboo_lc_ref(") == 1


def test_an_access_written_by_a_macro_is_left_alone(opt):
    res = opt("for (int j = 0; j < n; j++) q[j] = GET(j);",
              head=HEADER + "#define GET(i) shmem_double_g(&x[i], pe)\n")
    assert optimized(res) == 0 and "written by a macro" in left(res)[0]


def test_a_macro_in_the_address_is_evaluated_as_written(opt):
    res = opt("for (int j = 0; j < n; j++) q[j] = shmem_double_g(&x[AT(j)], pe);",
              head=HEADER + "#define AT(i) ((i) + 1)\n")
    assert optimized(res) == 1 and "&x[AT(j)]" in res.text


# -- MPI one-sided ---------------------------------------------------------------------------

MPI_HEAD = ("#include <mpi.h>\n"
            "#define N 64\n"
            "double x[N], y[N], z[8][N];\n"
            "long lx[N];\n"
            "int col[N];\n"
            "MPI_Win win, other;\n")


def mpi(opt, body, comm_only=True):
    return opt(body.replace("WIN", "win"), head=MPI_HEAD, comm_only=comm_only)


def test_one_element_mpi_gets_move_after_their_loop(opt):
    res = mpi(opt, "for (int j = 0; j < n; j++)\n"
                   "  MPI_Get(&x[j], 1, MPI_DOUBLE, pe, 2 * j + 1, 1, MPI_DOUBLE, WIN);\n"
                   "q[0] = 0; iq[0] = 0; (void)me;")
    assert res.ok and "its one-element MPI accesses move after it" in res.explanation
    loop = [line for line in res.text.split("\n") if "MPI_Get" in line or "(void)0" in line]
    assert loop[0].strip().startswith("(void)0; bamboo_lc_mpi_move("), loop
    assert "bamboo_lc_mpi_move(BAMBOO_LC_GET" in res.text
    assert res.text.startswith('#include "bamboo_loopcomm_mpi.h"\n#line 1')


def test_an_mpi_access_whose_value_is_used_becomes_mpi_success(opt):
    res = mpi(opt, "int err = 0;\nfor (int r = 0; r < 8; r++) for (int c = 0; c < n; c++)\n"
                   "  err |= MPI_Put(&z[r][c], 1, MPI_DOUBLE, pe, r * N + c, 1, MPI_DOUBLE, WIN);\n"
                   "q[0] = err; iq[0] = me;")
    assert "err |= MPI_SUCCESS;" in res.text and "2-D region over r, c" in res.explanation


@pytest.mark.parametrize("body, reason", [
    ("for (int j = 0; j < n; j++) MPI_Get(&x[j], 2, MPI_DOUBLE, pe, j, 2, MPI_DOUBLE, WIN);",
     "MPI_Get moves a block of elements, not one"),
    ("for (int j = 0; j < n; j++) MPI_Get(&x[j], 1, MPI_DOUBLE, pe, j, 1, MPI_LONG, WIN);",
     "MPI_Get has different origin and target datatypes"),
    ("for (int j = 0; j < n; j++) MPI_Get(&x[j], 1, MPI_DOUBLE, pe, col[j], 1, MPI_DOUBLE, WIN);",
     "its target displacement is not affine in the loop variables"),
    ("for (int j = 0; j < n; j++) { MPI_Get(&x[j], 1, MPI_DOUBLE, pe, j, 1, MPI_DOUBLE, WIN);"
     " win = other; }", "its window may change inside the loop"),
    ("for (int j = 0; j < n; j++) MPI_Get(&x[j], 1, MPI_DOUBLE, j % 4, j, 1, MPI_DOUBLE, WIN);",
     "its rank changes inside the loop"),
    ("for (int j = 0; j < n; j++) { MPI_Get(&x[j], 1, MPI_DOUBLE, pe, j, 1, MPI_DOUBLE, WIN);"
     " MPI_Win_flush(pe, WIN); }", "it calls MPI_Win_flush()"),
])
def test_mpi_loops_the_optimizer_cannot_prove_are_left_as_written(opt, body, reason):
    res = mpi(opt, body)
    assert res.ok and optimized(res) == 0 and "bamboo_lc" not in res.text
    assert len(left(res)) == 1 and reason in left(res)[0], left(res)


def test_mpi_loops_are_optimized_before_the_bamboo_translation(opt):
    """The line that includes mpi.h includes it through the loop header, on the same line."""
    res = mpi(opt, "for (int j = 0; j < n; j++)\n"
                   "  MPI_Get(&x[j], 1, MPI_DOUBLE, pe, j, 1, MPI_DOUBLE, WIN);\n"
                   "q[0] = 0; iq[0] = me;", comm_only=False)
    assert res.ok, res.diagnostics
    assert res.text.split("#line", 1)[0].endswith('#include "bamboo.h"\n')
    assert '#include "bamboo_loopcomm_mpi.h"' in res.text and "bamboo_lc_mpi_move(" in res.text
    assert "its one-element MPI accesses move after it" in res.explanation


def test_without_its_own_mpi_h_include_a_file_keeps_its_mpi_loops(opt, tmp_path):
    (tmp_path / "wrap.h").write_text("#include <mpi.h>\n")
    res = opt("for (int j = 0; j < n; j++)\n"
              "  MPI_Get(&x[j], 1, MPI_DOUBLE, pe, j, 1, MPI_DOUBLE, win);\n"
              "q[0] = 0; iq[0] = me;", head=MPI_HEAD.replace("<mpi.h>", '"wrap.h"'),
              comm_only=False)
    assert res.ok and "bamboo_lc" not in res.text
    assert "left as written: the file does not include mpi.h itself" in res.explanation


# -- switches, and what is not an OpenSHMEM program --------------------------------------------

def test_no_loop_opt_leaves_the_program_as_written(opt):
    res = opt("for (int j = 0; j < n; j++) q[j] = shmem_double_g(&x[j], pe);", loop_opt=False)
    assert res.ok and not res.loop_runtime and res.shmem_program
    assert "bamboo_lc" not in res.text and res.explanation == ""


def test_a_program_with_mpi_too_is_no_openshmem_program(opt):
    res = opt("for (int j = 0; j < n; j++) q[j] = shmem_double_g(&x[j], pe);",
              head="#include <mpi.h>\n" + HEADER)
    assert not res.shmem_program


def test_every_line_stays_where_it_was(opt):
    body = ("double s = 0;\n"
            "for (int j = 0;\n     j < n;\n     j++) {\n"
            "  s += shmem_double_g(&x[j],\n      pe); /* a comment */\n"
            "  q[j] = s; // another\n"
            "}\n"
            "q[0] = s;")
    res = opt(body)
    assert optimized(res) == 1
    source = (HEADER + "void k(int n, int pe, int me, double *q, int *iq)\n{\n" + body +
              "\n}\n").split("\n")
    out = res.text.split("\n")
    assert out[0] == '#include "bamboo_loopcomm.h"' and out[1] == '#line 1 "t.c"'
    out = out[2:]
    assert len(out) == len(source)
    loop = source.index("for (int j = 0;")
    assert "bamboo_lc_advance" in out[loop] and out[loop + 1:loop + 3] == ["", " {"]
    assert "bamboo_lc_b_0_0" in out[loop + 3] and out[loop + 4] == "; /* a comment */"
    for same in range(loop + 5, len(source)):
        assert out[same].startswith(source[same]), same


def test_a_byte_order_mark_does_not_end_up_after_the_header(opt):
    """A fuzzer's find: the mark stays at the file's start, where the compiler takes it."""
    res = opt("for (int j = 0; j < n; j++) q[j] = shmem_double_g(&x[j], pe);",
              head="\xef\xbb\xbf" + HEADER)
    assert res.ok and "\xef\xbb\xbf" not in res.text and optimized(res) == 1


OSHCC = shutil.which("oshcc")


@pytest.mark.skipif(OSHCC is None, reason="oshcc not installed (scripts/setup installs it)")
def test_generated_code_compiles_without_warnings(opt, tmp_path):
    res = opt("double s = 0;\n"
              "for (int b = 0; b < n; b++) for (int j = 0; j < N; j++)\n"
              "  s += shmem_double_g(&x[j], b);\n"
              "for (int r = 0; r < 4; r++) for (int c = 0; c < N; c++)\n"
              "  shmem_double_p(&z[r][c], z[r + 4][c], pe);   /* from the source */\n"
              "int j;\nfor (j = 1; j <= n; j += 3) {\n"
              "  long v; shmem_long_get(&v, lx + j, 1, pe);\n"
              "  q[j] = v + shmem_double_g(&x[j - 1], me);\n}\n"
              "for (int i = 0; i < 2; i++) for (int i = 0; i < N; i++)\n"
              "  q[i] += shmem_double_g(&x[i], pe);   /* loops of one name (a fuzzer's find) */\n"
              "q[0] = s + j; iq[0] = 0;")
    assert optimized(res) == 4, res.explanation
    out = tmp_path / "out.c"
    out.write_text(res.text)
    cc = subprocess.run([OSHCC, "-c", "-Wall", "-Wextra", "-Werror",
                         f"-I{REPO}/runtime/loopcomm/include", str(out), "-o",
                         str(tmp_path / "out.o")], capture_output=True, text=True)
    assert cc.returncode == 0, cc.stderr


def test_an_element_of_one_subscript_is_indexed_by_it(opt):
    """&x[e] and x + e are element e: the buffer is indexed by the subscript as written; an
    element of two subscripts by its address less the array's."""
    res = opt("for (int j = 0; j < n; j++)\n"
              "  q[j] = shmem_double_g(&x[j + 1], pe) + shmem_double_g(y + 2 * j, pe)"
              " + shmem_double_g(&z[3][j], pe);")
    assert optimized(res) == 1
    assert "bamboo_lc_b_0_0[(long)(j + 1) - bamboo_lc_o_0_0]" in res.text
    assert "bamboo_lc_b_0_1[(long)(2 * j) - bamboo_lc_o_0_1]" in res.text
    assert "bamboo_lc_b_0_2[(long)((&z[3][j]) - bamboo_lc_base_0_2) - bamboo_lc_o_0_2]" in res.text


def test_an_element_written_by_a_macro_is_indexed_by_its_address(opt):
    """&ROW(j) has no subscript written at the call: its index is its address less the array's."""
    res = opt("for (int j = 0; j < n; j++) q[j] = shmem_double_g(&ROW(j), pe);",
              head=HEADER + "#define ROW(i) x[(i) + 1]\n")
    assert optimized(res) == 1
    assert "bamboo_lc_b_0_0[(long)((&ROW(j)) - bamboo_lc_base_0_0) - bamboo_lc_o_0_0]" in res.text
