"""Unusual but valid input translates into C that compiles: very long expressions, deeply
nested statements, CRLF line endings, a UTF-8 byte order mark, old-style (K&R) helpers,
priority directives as the bodies of statements."""
import glob
import os
import subprocess
import sys

import pytest

from conftest import HAVE_MPICC, HERE, TRANSLATOR, as_messages, compile_c, errors, notes
from bamboo.translate import translate_file

DATA = sorted(glob.glob(os.path.join(HERE, "data", "*.c")))

LONG_EXPRESSIONS = """#include <mpi.h>
int g = 1;
int main(int argc, char **argv)
{{
    int a = 1, x;
    double in = 0, out = 1;
    MPI_Init(&argc, &argv);
    x = {a_sum};
#pragma bamboo olap
    for (int i = 0; i < 2; i++) {{
#pragma bamboo receive
        MPI_Recv(&in, 1, MPI_DOUBLE, MPI_PROC_NULL, {a_sum} - {terms}, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
#pragma bamboo send
        MPI_Send(&out, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
        x += {g_sum};
    }}
    MPI_Finalize();
    return x > 0 ? 0 : 1;
}}
"""


def _translate_in_subprocess(tmp_path, code):
    """Translate t.c in another process (a crash is then a failure, not the end of pytest);
    the generated text, after checking that it compiles."""
    (tmp_path / "t.c").write_text(code)
    r = subprocess.run([sys.executable, "-m", "bamboo", "translate", "t.c", "-o", "out.c"],
                       cwd=tmp_path, env=dict(os.environ, PYTHONPATH=TRANSLATOR),
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    text = (tmp_path / "out.c").read_text()
    if HAVE_MPICC:
        ok, err = compile_c(text, tmp_path, "long.c")
        assert ok, err[-2000:]
    return text


def test_long_expressions_in_a_region(tmp_path):
    # `a + a + ... + a` nests as deep as it has terms, beyond Python's recursion limit: no
    # walk of the translator (privatization, firing rules, ...) may recurse per level
    terms = 3000
    text = _translate_in_subprocess(tmp_path, LONG_EXPRESSIONS.format(
        a_sum=" + ".join(["a"] * terms), g_sum=" + ".join(["g"] * terms), terms=terms))
    assert "bamboo_expect(MPI_PROC_NULL, a + a + a" in as_messages(text)  # the rule evaluates the long tag
    assert text.count("BAMBOO_PRIVATE(g)") == terms


def test_very_long_expression(tmp_path):
    # beyond some 15,000 terms, libclang's parser ran out of its thread's stack
    terms = 20000
    text = _translate_in_subprocess(tmp_path, (
        "int g = 1;\nint main(void)\n{\n    int a = 1;\n    g = " +
        " + ".join(["a"] * terms) + ";\n    return g > 0 ? 0 : 1;\n}\n"))
    assert "BAMBOO_PRIVATE(g) = a + a + a" in text


def _receive_block(statements):
    return ("#include <mpi.h>\nint main(int argc, char **argv)\n{\n"
            "    int x = 0, y = argc;\n    double in = 0, out = 1;\n    MPI_Init(&argc, &argv);\n"
            "#pragma bamboo olap\n    for (int it = 0; it < 2; it++) {\n"
            "#pragma bamboo receive\n        {\n" + statements +
            "        MPI_Recv(&in, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD, "
            "MPI_STATUS_IGNORE);\n        }\n"
            "#pragma bamboo send\n"
            "        MPI_Send(&out, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD);\n    }\n"
            "    MPI_Finalize();\n    return x;\n}\n")


def test_deeply_nested_statements_leave_the_window_without_rule(translate, tmp_path):
    chain = "        if (y == 0) x = 0;\n" + "".join(
        f"        else if (y == {i}) x = {i};\n" for i in range(1, 400))
    res = translate(_receive_block(chain))
    assert res.ok, errors(res)
    assert notes(res) == ["t.c:266:14: note: statements nest more than 256 levels deep here: "
                          "the firing rule of this window is left empty, and its receives wait "
                          "on their own"]
    assert "bamboo_expect" not in res.text
    if HAVE_MPICC:
        ok, err = compile_c(res.text, tmp_path)
        assert ok, err


def test_long_runs_of_labels(translate, tmp_path):
    # `case 0: case 1: ...` and `l0: l1: ...` nest one statement per label; the analysis
    # follows such a run without recursion
    cases = ("        switch (y) {\n" + "".join(f"        case {i}:\n" for i in range(2000)) +
             "            x++;\n        }\n")
    res = translate(_receive_block(cases))
    assert res.ok, errors(res)
    assert "bamboo_expect(MPI_PROC_NULL, 0, MPI_COMM_WORLD);" in as_messages(res.text)
    labels = "".join(f"    l{i}:\n" for i in range(2000)) + "        x++;\n"
    res = translate(_receive_block(labels))
    assert res.ok, errors(res)
    assert notes(res) == ["t.c:2012:9: note: MPI_Recv is left out of the firing rule and waits on "
                          "its own: control may leave before it (the label at line 11 may be "
                          "reached by goto)"]
    if HAVE_MPICC:
        ok, err = compile_c(res.text, tmp_path)
        assert ok, err


def _translate_bytes(tmp_path, name, data):
    (tmp_path / name).write_bytes(data)
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        return translate_file(name, [], display=name)
    finally:
        os.chdir(old)


@pytest.mark.parametrize("path", DATA, ids=os.path.basename)
def test_crlf_and_byte_order_mark_translate_like_plain_text(path, tmp_path):
    plain = open(path, "rb").read()
    expected = _translate_bytes(tmp_path, "t.c", plain)
    assert expected.ok, errors(expected)
    crlf = _translate_bytes(tmp_path, "t.c", plain.replace(b"\n", b"\r\n"))
    assert crlf.ok, errors(crlf)
    assert crlf.text.replace("\r", "") == expected.text
    bom = _translate_bytes(tmp_path, "t.c", b"\xef\xbb\xbf" + plain)
    assert bom.ok, errors(bom)
    assert bom.text == expected.text
    both = _translate_bytes(tmp_path, "t.c", b"\xef\xbb\xbf" + plain.replace(b"\n", b"\r\n"))
    assert both.ok, errors(both)
    if HAVE_MPICC:
        ok, err = compile_c(both.text, tmp_path)
        assert ok, err


def test_directive_on_the_first_line_after_a_byte_order_mark(tmp_path):
    res = _translate_bytes(tmp_path, "t.c", b"\xef\xbb\xbf#pragma bamboo dimension 0\n"
                                            b"int main(void) { return 0; }\n")
    assert errors(res) == ["t.c:1:29: error: dimension must be a positive integer, not '0'"]


OLD_STYLE = """#include <mpi.h>
#include <stdio.h>
static int received;
int get(dst, src, tag)
    double *dst;
    int src, tag;
{
    received++;
    return MPI_Recv(dst, 1, MPI_DOUBLE, src, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}
double scale(v, f)
    double v, f;
{
    return v * f;
}
int main(argc, argv)
    int argc;
    char **argv;
{
    int rank, size;
    double x = 0, y = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
#pragma bamboo olap
    for (int i = 0; i < 3; i++) {
#pragma bamboo receive
        get(&x, (rank + size - 1) % size, 0);
#pragma bamboo send
        MPI_Send(&y, 1, MPI_DOUBLE, (rank + 1) % size, 0, MPI_COMM_WORLD);
        y = scale(y + x, 0.5);
    }
    printf("%d %g %d\\n", rank, y, received);
    MPI_Finalize();
    return 0;
}
"""


def test_old_style_helper_has_no_companion(translate, tmp_path):
    res = translate(OLD_STYLE)
    assert res.ok, errors(res)
    assert notes(res) == ["t.c:28:9: note: get() is left out of the firing rule and waits on its "
                          "own: 'get' cannot have a firing-rule companion (it is defined with an "
                          "old-style (K&R) parameter list, which a companion cannot copy)"]
    assert "bamboo_expect_get" not in res.text
    if HAVE_MPICC:
        ok, err = compile_c(res.text, tmp_path)
        assert ok, err


PRIORITIES = """#include <mpi.h>
int g = 1;
struct weights { int g; } w = { 2 };
int main(int argc, char **argv)
{
    int rank = 0;
    MPI_Init(&argc, &argv);
    if (argc > 1)
#pragma bamboo priority g
        rank++;
    else
#pragma bamboo priority w.g + 'g'
        rank--;
again:
#pragma bamboo priority g * (rank + 1) \\
        - 2
#pragma bamboo priority sizeof g
    if (++rank < 3)
        goto again;
    MPI_Finalize();
    return 0;
}
"""


def test_priority_directives_as_bodies_and_in_runs(translate, tmp_path):
    # each becomes a statement where it stands (braced where it is a body); only the names
    # that mean the privatized g are rewritten, not a member or a character constant
    res = translate(PRIORITIES.replace("\n", "\r\n"))
    assert res.ok, errors(res)
    set_priority = [line.strip() for line in res.text.splitlines() if "set_priority" in line]
    assert set_priority == [
        "{ bamboo_set_priority((BAMBOO_PRIVATE(g)));  /* bamboo: priority */",
        "{ bamboo_set_priority((BAMBOO_PRIVATE(w).g + 'g'));  /* bamboo: priority */",
        "{ bamboo_set_priority((BAMBOO_PRIVATE(g) * (rank + 1)          - 2));  "
        "/* bamboo: priority */",
        "{ bamboo_set_priority((sizeof BAMBOO_PRIVATE(g)));  /* bamboo: priority */"]
    if HAVE_MPICC:
        ok, err = compile_c(res.text, tmp_path)
        assert ok, err
