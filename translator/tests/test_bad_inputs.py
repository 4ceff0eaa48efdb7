"""Every file in bad_inputs/ states the exact errors the translator must report; a file
with thousands of errors gets all of them, in a moment."""
import glob
import os
import re

import pytest

from conftest import HERE
from bamboo.translate import translate_file

BAD = os.path.join(HERE, "bad_inputs")
CASES = sorted(os.path.basename(p) for p in glob.glob(os.path.join(BAD, "*.c")))


def test_corpus_is_not_empty():
    assert len(CASES) >= 20


@pytest.mark.parametrize("name", CASES)
def test_bad_input(name):
    text = open(os.path.join(BAD, name)).read()
    expected = re.findall(r"^// expect: (.*)$", text, re.M)
    assert expected, f"{name} states no expected diagnostic"
    old = os.getcwd()
    os.chdir(BAD)
    try:
        res = translate_file(name, [], display=name)
    finally:
        os.chdir(old)
    assert not res.ok and res.text is None
    got = [str(d) for d in res.diagnostics if d.severity == "error"]
    assert got == expected


def test_thousands_of_errors_are_all_reported(tmp_path):
    # Every error is kept once. Looking each one up among those before it once made this file
    # take minutes; the test's own run time shows that, but asserting on it would fail on a
    # busy machine.
    errors_wanted = 20000
    path = tmp_path / "many.c"
    path.write_text("".join(f"int f{i}(void) {{ return undeclared_{i}; }}\n"
                            for i in range(errors_wanted)))
    res = translate_file(str(path), [], display="many.c")
    got = [str(d) for d in res.diagnostics if d.severity == "error"]
    assert len(got) == errors_wanted
    assert got[-1] == (f"many.c:{errors_wanted}:27: error: use of undeclared identifier "
                       f"'undeclared_{errors_wanted - 1}'")
