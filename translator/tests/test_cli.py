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
    assert r.stdout.startswith('#include "bamboo.h"\n#line 1 "')
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
