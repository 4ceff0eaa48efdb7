import os
import subprocess
import sys

from conftest import TRANSLATOR


def run(args, cwd):
    env = dict(os.environ, PYTHONPATH=TRANSLATOR)
    return subprocess.run([sys.executable, "-m", "bamboo"] + args, cwd=cwd, env=env,
                          capture_output=True, text=True)


SRC = ("#include <mpi.h>\n#include \"defs.h\"\nint main(int argc, char **argv)\n{\n"
       "  MPI_Init(&argc, &argv);\n  return VALUE;\n}\n")


def test_translate_to_stdout_and_file(tmp_path):
    (tmp_path / "p.c").write_text(SRC)
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "defs.h").write_text("#define VALUE 0\n")
    r = run(["translate", "p.c", "-I", "inc", "-DUNUSED=1"], tmp_path)
    assert r.returncode == 0, r.stderr
    # the file never includes <errno.h>: bamboo.h leaves the name errno alone
    assert r.stdout.startswith('#define BAMBOO_WITHOUT_ERRNO_H 1\n#include "bamboo.h"\n#line 1 "')
    (tmp_path / "e.c").write_text("#include <errno.h>\n" + SRC)
    r = run(["translate", "e.c", "-I", "inc"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith('#include "bamboo.h"\n#line 1 "'), "errno.h included: errno is the task's"

    r = run(["translate", "p.c", "-Iinc", "-o", "out.c", "--explain"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "main renamed to bamboo_main" in r.stdout
    assert "int bamboo_main(int argc" in (tmp_path / "out.c").read_text()


def test_errors_exit_1(tmp_path):
    (tmp_path / "p.c").write_text(SRC)
    r = run(["translate", "p.c"], tmp_path)
    assert r.returncode == 1
    assert r.stderr.startswith("p.c:2:10: error: 'defs.h' file not found")
    r = run(["translate", "p.c", "--bogus"], tmp_path)
    assert r.returncode != 0 and "unknown option" in r.stderr


def test_comm_only_lowers_the_comm_directives_alone(tmp_path):
    (tmp_path / "p.c").write_text(
        "#include <mpi.h>\nstatic double a[2], b[2];\nint main(int argc, char **argv)\n{\n"
        "  int rank = 0;\n  MPI_Init(&argc, &argv);\n"
        "#pragma comm_p2p sbuf(a) rbuf(b) sender(rank) receiver(rank)\n  { }\n"
        "  return MPI_Finalize();\n}\n")
    r = run(["translate", "--comm-only", "p.c", "--explain", "-o", "out.c"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "p.c:7: comm_p2p (MPI two-sided, standalone" in r.stdout
    out = (tmp_path / "out.c").read_text()
    assert out.startswith('#line 1 "p.c"\n#include <mpi.h>\n')
    assert "int main(int argc" in out and "bamboo.h" not in out and "MPI_Isend((a)" in out
