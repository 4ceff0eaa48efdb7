"""Every file in bad_inputs/ states the exact errors the translator must report."""
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
