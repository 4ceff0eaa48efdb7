import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
TRANSLATOR = os.path.dirname(HERE)
REPO = os.path.dirname(TRANSLATOR)
RUNTIME_INCLUDE = os.path.join(REPO, "runtime", "include")
sys.path.insert(0, TRANSLATOR)

from bamboo.translate import translate_file  # noqa: E402


@pytest.fixture
def translate(tmp_path):
    """translate(code, name='t.c', **files) -> TranslationResult; extra files are headers."""
    def run(code, name="t.c", args=(), explain=False, comm_only=False, **files):
        for fname, text in files.items():
            (tmp_path / fname.replace("_h", ".h")).write_text(text)
        p = tmp_path / name
        p.write_text(code)
        old = os.getcwd()
        os.chdir(tmp_path)
        try:
            return translate_file(name, list(args), display=name, explain=explain,
                                  comm_only=comm_only)
        finally:
            os.chdir(old)
    return run


def errors(res):
    return [str(d) for d in res.diagnostics if d.severity == "error"]


def notes(res):
    return [str(d) for d in res.diagnostics if d.severity == "note"]


HAVE_MPICC = shutil.which("mpicc") is not None


def compile_c(text, tmp_path, name="out.c"):
    """Compile generated C with mpicc -c against the runtime header; returns (ok, stderr)."""
    p = tmp_path / name
    p.write_text(text)
    r = subprocess.run(["mpicc", "-c", "-Wall", "-Werror=implicit-function-declaration",
                        "-I" + RUNTIME_INCLUDE, str(p), "-o", str(tmp_path / (name + ".o"))],
                       capture_output=True, text=True)
    return r.returncode == 0, r.stderr


def as_messages(text):
    """``text`` with each receive announced whole, bamboo_expect_receive(buf, count, type,
    source, tag, comm), written as the message it announces, bamboo_expect(source, tag, comm):
    for tests of what a rule announces, whichever way."""
    out, start = [], 0
    call = "bamboo_expect_receive("
    while (at := text.find(call, start)) >= 0:
        args, depth, i = [], 0, at + len(call)
        arg_start = i
        while depth > 0 or text[i] != ")":
            if text[i] in "([{":
                depth += 1
            elif text[i] in ")]}":
                depth -= 1
            elif text[i] == "," and depth == 0:
                args.append(text[arg_start:i].strip())
                arg_start = i + 1
            i += 1
        args.append(text[arg_start:i].strip())
        out.append(text[start:at] + "bamboo_expect(" + ", ".join(args[3:]) + ")")
        start = i + 1
    return "".join(out) + text[start:]
