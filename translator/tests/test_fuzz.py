"""Fuzzing: mutants of the project's annotated sources never break the translator.

The sources are the files with ``#pragma bamboo`` or comm directives among apps/*/*.c,
tests/e2e/programs/*.c, tests/e2e/comm_directives/*.c and translator/tests/data/*.c, and the
programs with loops of remote accesses in tests/e2e/loopcomm/*.c (the OpenSHMEM ones compiled
with oshcc against bamboo_loopcomm.h).  Each mutant takes one to three mutations: a line deleted,
duplicated or swapped with the next, a few lines copied elsewhere, a directive dropped,
duplicated, moved, replaced or inserted, a brace, parenthesis or semicolon deleted, two
tokens swapped, an identifier replaced by another of the file, a jump, label, static, brace
or preprocessor line inserted; some also get CRLF line endings or a UTF-8 byte order mark.

All mutants are translated by one worker process, so that a crash (a segfault in
libclang, say) fails this test instead of killing pytest.  Every mutant must end either
in errors that all say where (``file:line:col: error: ...``, never an internal error of
the translator) or in C that compiles (``mpicc -fsyntax-only`` against bamboo.h, the
flags bamboocc uses); a mutant the C compiler itself rejects must end in errors.

The run is deterministic.  BAMBOO_FUZZ_MUTANTS (default 60, well under a minute) sets how
many mutants, BAMBOO_FUZZ_SEED (default 17) which; a larger run, for instance::

    BAMBOO_FUZZ_MUTANTS=2000 BAMBOO_FUZZ_SEED=3 python3 -m pytest translator/tests/test_fuzz.py

A failing mutant stays in pytest's tmp directory (its path is in the failure message), to
be reproduced with ``python3 -m bamboo translate``.
"""
import glob
import json
import os
import random
import re
import subprocess
import sys

import pytest

from conftest import HAVE_MPICC, REPO, RUNTIME_INCLUDE, TRANSLATOR
from bamboo.loop_comm import is_shmem_program

pytestmark = pytest.mark.skipif(not HAVE_MPICC, reason="mpicc not found")

MUTANTS = int(os.environ.get("BAMBOO_FUZZ_MUTANTS", "60"))
SEED = int(os.environ.get("BAMBOO_FUZZ_SEED", "17"))

_ANNOTATED = re.compile(r"#pragma (bamboo|comm_parameters|comm_p2p)\b")
SOURCES = sorted(p for pattern in ("apps/*/*.c", "tests/e2e/programs/*.c",
                                   "tests/e2e/comm_directives/*.c", "translator/tests/data/*.c")
                 for p in glob.glob(os.path.join(REPO, pattern))
                 if _ANNOTATED.search(open(p, encoding="latin-1").read())) + \
    sorted(glob.glob(os.path.join(REPO, "tests/e2e/loopcomm/*.c")))
LOOPCOMM_INCLUDE = os.path.join(REPO, "runtime", "loopcomm", "include")

DIRECTIVES = ["#pragma bamboo " + d for d in (
    "olap", "send", "receive", "olap layout NN X", "dimension 2", "dimension 0", "priority 1",
    "priority rank + 1", "priority", "priority (1", "priority x;", "receive now", "olap layout",
    "bogus")] + [
    "#pragma comm_parameters sender(rank) receiver(rank)",
    "#pragma comm_parameters place_sync(BEGIN_NEXT_PARAM_REGION) max_comm_iter(2)",
    "#pragma comm_p2p sbuf(argv) rbuf(argv) sender(0) receiver(0)",
    "#pragma comm_p2p sbuf(&rank) rbuf(&size) sender(0) receiver(0) target(TARGET_COMM_MPI_1SIDE)",
    "#pragma comm_p2p count(",
    "#pragma comm_p2p sendwhen(1)"]

# Statements and lines that reach the translator's checks (jumps, labels, statics, nesting).
SNIPPETS = ["goto fuzz_label;", "fuzz_label: ;", "break;", "continue;", "return 0;", "return;",
            "{", "}", "static int fuzz_count; fuzz_count++;", "MPI_Barrier(MPI_COMM_WORLD);",
            "shmem_barrier_all();", "if (me) continue;", "n++;",
            "if (fuzz_flag)", "else", "do {", "} while (0);", "switch (fuzz_flag) {", "case 1:",
            "default:", "#if 0", "#endif", "#define FUZZ_MACRO(x) (x)", "int fuzz_flag = 0;"]

LOCATED_ERROR = re.compile(r"^[^:\s][^:]*:\d+:\d+: error: ")

# Translates the jobs given as JSON lines on stdin, one result line each on stdout; a
# "start" line first, so that the job a crash interrupts is known.
WORKER = r"""
import json, sys, traceback
from bamboo.source import ENCODING
from bamboo.translate import translate_file
for line in sys.stdin:
    job = json.loads(line)
    print(json.dumps({"start": job["index"]}), flush=True)
    try:
        res = translate_file(job["path"], job["args"], display=job["path"])
        if res.ok:
            with open(job["out"], "w", encoding=ENCODING) as f:
                f.write(res.text)
        result = {"ok": res.ok, "diagnostics": [str(d) for d in res.diagnostics
                                                if d.severity == "error"]}
    except Exception:
        result = {"ok": False, "traceback": traceback.format_exc()}
    result["done"] = job["index"]
    print(json.dumps(result), flush=True)
"""


def _include_args(source):
    args = ["-I" + os.path.dirname(source)]
    if os.sep + "apps" + os.sep in source:
        args.append("-I" + os.path.join(REPO, "apps", "common"))
    return args


# -- mutations: each takes and returns the lines (without their '\n') and says what it did --

def _pragma_lines(lines):
    return [i for i, line in enumerate(lines) if _ANNOTATED.match(line.lstrip())]


def _some_line(lines, rng):
    """A line index, near a directive half of the time (where the translator works most)."""
    pragmas = _pragma_lines(lines)
    if pragmas and rng.random() < 0.5:
        i = rng.choice(pragmas) + rng.randint(-3, 12)
        return min(max(i, 0), len(lines) - 1)
    return rng.randrange(len(lines))


def delete_line(lines, rng):
    i = _some_line(lines, rng)
    return lines[:i] + lines[i + 1:], f"delete line {i + 1}"


def duplicate_line(lines, rng):
    i = _some_line(lines, rng)
    return lines[:i + 1] + lines[i:], f"duplicate line {i + 1}"


def copy_lines(lines, rng):
    i = _some_line(lines, rng)
    n = rng.randint(2, 6)
    j = _some_line(lines, rng)
    return lines[:j] + lines[i:i + n] + lines[j:], f"copy lines {i + 1}-{i + n} before {j + 1}"


def swap_lines(lines, rng):
    i = min(_some_line(lines, rng), len(lines) - 2)
    return lines[:i] + [lines[i + 1], lines[i]] + lines[i + 2:], f"swap lines {i + 1}, {i + 2}"


def drop_directive(lines, rng):
    pragmas = _pragma_lines(lines)
    if not pragmas:
        return delete_line(lines, rng)
    i = rng.choice(pragmas)
    return lines[:i] + lines[i + 1:], f"drop the directive on line {i + 1}"


def duplicate_directive(lines, rng):
    pragmas = _pragma_lines(lines)
    if not pragmas:
        return duplicate_line(lines, rng)
    i = rng.choice(pragmas)
    j = i + 1 if rng.random() < 0.5 else _some_line(lines, rng)
    return lines[:j] + [lines[i]] + lines[j:], f"copy the directive on line {i + 1} to {j + 1}"


def move_directive(lines, rng):
    pragmas = _pragma_lines(lines)
    if not pragmas:
        return swap_lines(lines, rng)
    i = rng.choice(pragmas)
    rest = lines[:i] + lines[i + 1:]
    j = _some_line(rest, rng)
    return rest[:j] + [lines[i]] + rest[j:], f"move the directive on line {i + 1} to {j + 1}"


def replace_directive(lines, rng):
    pragmas = _pragma_lines(lines)
    if not pragmas:
        return insert_directive(lines, rng)
    i = rng.choice(pragmas)
    new = rng.choice(DIRECTIVES)
    return lines[:i] + [new] + lines[i + 1:], f"line {i + 1} becomes '{new}'"


def insert_directive(lines, rng):
    i = _some_line(lines, rng)
    new = rng.choice(DIRECTIVES)
    return lines[:i] + [new] + lines[i:], f"insert '{new}' before line {i + 1}"


def insert_snippet(lines, rng):
    i = _some_line(lines, rng)
    new = rng.choice(SNIPPETS)
    return lines[:i] + [new] + lines[i:], f"insert '{new}' before line {i + 1}"


def delete_character(lines, rng):
    text = "\n".join(lines)
    ch = rng.choice("{};();")
    places = [m.start() for m in re.finditer(re.escape(ch), text)]
    if not places:
        return delete_line(lines, rng)
    at = rng.choice(places)
    line = text.count("\n", 0, at) + 1
    return (text[:at] + text[at + 1:]).split("\n"), f"delete a '{ch}' on line {line}"


def swap_tokens(lines, rng):
    i = _some_line(lines, rng)
    tokens = list(re.finditer(r"\w+|[^\s\w]", lines[i]))
    if len(tokens) < 2:
        return delete_line(lines, rng)
    a, b = sorted(rng.sample(tokens, 2), key=lambda m: m.start())
    line = lines[i]
    swapped = (line[:a.start()] + b.group() + line[a.end():b.start()] + a.group() +
               line[b.end():])
    return lines[:i] + [swapped] + lines[i + 1:], (f"swap '{a.group()}' and '{b.group()}' "
                                                   f"on line {i + 1}")


def replace_identifier(lines, rng):
    i = _some_line(lines, rng)
    names = sorted(set(re.findall(r"\b[A-Za-z_]\w*\b", "\n".join(lines))))
    here = list(re.finditer(r"\b[A-Za-z_]\w*\b", lines[i]))
    if not here:
        return delete_line(lines, rng)
    m = rng.choice(here)
    new = rng.choice(names)
    line = lines[i][:m.start()] + new + lines[i][m.end():]
    return lines[:i] + [line] + lines[i + 1:], f"'{m.group()}' becomes '{new}' on line {i + 1}"


# Mutations of directives come up more often: they mostly leave valid C, which the
# translator then has to analyse (most other mutants end at a C error).
MUTATIONS = [delete_line, duplicate_line, copy_lines, swap_lines, delete_character,
             swap_tokens, replace_identifier, insert_snippet, insert_snippet] + 3 * [drop_directive, duplicate_directive, move_directive,
                                        replace_directive, insert_directive]


def make_mutant(text, rng):
    lines = text.split("\n")
    done = []
    for _ in range(rng.choice((1, 1, 2, 3))):
        lines, what = rng.choice(MUTATIONS)(lines, rng)
        done.append(what)
    mutant = "\n".join(lines)
    if rng.random() < 0.1:
        mutant = mutant.replace("\n", "\r\n")
        done.append("CRLF line endings")
    if rng.random() < 0.1:
        mutant = "\xef\xbb\xbf" + mutant
        done.append("byte order mark")
    return mutant, done


# -- the test ---------------------------------------------------------------------------------

def _compiles(path, args):
    text = open(path, encoding="latin-1").read()
    if is_shmem_program(text) and not re.search(r"#\s*include\s*<mpi\.h>", text):
        compiler = ["oshcc", f"-I{LOOPCOMM_INCLUDE}"]
    else:
        compiler = ["mpicc", f"-I{RUNTIME_INCLUDE}", f"-I{LOOPCOMM_INCLUDE}"]
    r = subprocess.run(compiler + ["-fsyntax-only"] + args + [path],
                       capture_output=True, text=True, errors="replace",
                       env=dict(os.environ, LC_ALL="C"))
    return r.returncode == 0, r.stderr


def test_mutants_end_in_located_errors_or_compiling_code(tmp_path):
    rng = random.Random(SEED)
    jobs = []
    for index in range(MUTANTS):
        source = rng.choice(SOURCES)
        text = open(source, encoding="latin-1").read()
        mutant, done = make_mutant(text, rng)
        folder = tmp_path / f"m{index:04d}"
        folder.mkdir()
        path = folder / os.path.basename(source)
        path.write_bytes(mutant.encode("latin-1"))
        jobs.append({"index": index, "path": str(path), "out": str(folder / "out.c"),
                     "args": _include_args(source), "what": f"{os.path.relpath(source, REPO)}: "
                                                           + "; ".join(done)})
    worker = subprocess.Popen([sys.executable, "-c", WORKER], cwd=tmp_path,
                              env=dict(os.environ, PYTHONPATH=TRANSLATOR), text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        stdout, _ = worker.communicate("".join(json.dumps(j) + "\n" for j in jobs),
                                       timeout=60 + 10 * MUTANTS)
    except subprocess.TimeoutExpired:  # reported below as the mutant it hangs on
        worker.kill()
        stdout, _ = worker.communicate()
    results = [json.loads(line) for line in stdout.splitlines() if line.strip()]
    failures = []
    started = None
    for result in results:
        if "start" in result:
            started = jobs[result["start"]]
            continue
        job, started = jobs[result["done"]], None
        where = f"{job['path']} ({job['what']})"
        if "traceback" in result:
            failures.append(f"{where}: translator raised\n{result['traceback']}")
            continue
        internal = [d for d in result["diagnostics"] if "internal error" in d]
        unlocated = [d for d in result["diagnostics"] if not LOCATED_ERROR.match(d)]
        if internal or unlocated:
            failures.append(f"{where}: {(internal + unlocated)[0]}")
        elif not result["ok"] and not result["diagnostics"]:
            failures.append(f"{where}: no output and no error")
        elif result["ok"]:
            ok, err = _compiles(job["out"], job["args"] + ["-iquote", os.path.dirname(
                job["path"])])
            if not ok:
                failures.append(f"{where}: the generated C does not compile:\n{err[:1500]}")
            elif not _compiles(job["path"], job["args"])[0]:
                failures.append(f"{where}: the C compiler rejects the mutant, the translator "
                                "did not")
    if worker.returncode != 0:
        crashed = f"{started['path']} ({started['what']})" if started else "between mutants"
        failures.append(f"the translator's process ended with status {worker.returncode} "
                        f"on {crashed}")
    assert len(results) == 2 * len(jobs) or failures
    assert not failures, f"{len(failures)} of {MUTANTS} mutants failed:\n" + "\n".join(failures)
