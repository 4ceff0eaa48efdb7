"""Generated code compiles with mpicc against runtime/include/bamboo.h, and #line keeps
compiler messages on the user's lines."""
import glob
import os
import re

import pytest

from conftest import HAVE_MPICC, HERE, compile_c, errors
from bamboo.translate import translate_file

pytestmark = pytest.mark.skipif(not HAVE_MPICC, reason="mpicc not found")

DATA = sorted(glob.glob(os.path.join(HERE, "data", "*.c")))


@pytest.mark.parametrize("path", DATA, ids=os.path.basename)
def test_data_programs_compile(path, tmp_path):
    res = translate_file(path, [])
    assert res.ok, errors(res)
    ok, err = compile_c(res.text, tmp_path)
    assert ok, err
    assert "warning" not in err or "bamboo" not in err.split("warning")[0]


def test_line_directives_point_at_user_lines(translate, tmp_path):
    code = ("#include <mpi.h>\n"                                   # 1
            "int g;\n"                                             # 2
            "void f(int up, double *rb, double *sb)\n"             # 3
            "{\n"                                                  # 4
            "#pragma bamboo olap\n"                                # 5
            "  for (int it = 0; it < 4; it++) {\n"                 # 6
            "#pragma bamboo receive\n"                             # 7
            "    MPI_Recv(rb, 1, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n"  # 8
            "#pragma bamboo send\n"                                # 9
            "    { int unused_in_send; MPI_Send(sb, 1, MPI_DOUBLE, up, 0, MPI_COMM_WORLD); }\n"  # 10
            "    int unused_after;\n"                              # 11
            "    g++;\n"                                           # 12
            "  }\n"                                                # 13
            "}\n")
    res = translate(code)
    assert res.ok, errors(res)
    ok, err = compile_c(res.text, tmp_path)
    assert ok, err
    lines = {int(m.group(1)): m.group(2) for m in
             re.finditer(r"t\.c:(\d+):\d+: warning: unused variable .(\w+).", err)}
    assert lines == {10: "unused_in_send", 11: "unused_after"}, err
