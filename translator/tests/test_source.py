"""Source text: offsets and lines, comment blanking, and the one way code is spelled (NameRewrites)."""
from bamboo.source import NameRewrites, SourceFile, blank_comments


def test_blank_comments_keeps_offsets():
    t = 'a /* x\ny */ b // c\n"s/*"; \'/\'\n'
    b = blank_comments(t)
    assert len(b) == len(t) and b.count("\n") == t.count("\n")
    assert "x" not in b and "c" not in b.split("\n")[1]
    assert b.startswith("a ") and "b" in b
    assert '"s/*"' in blank_comments(t, strings=False)


def test_source_positions():
    s = SourceFile("f.c", text="ab\ncd\n\tef\n")
    assert s.line_col(0) == (1, 1) and s.line_col(4) == (2, 2)
    assert s.line_start(4) == 3 and s.line_end(4) == 5
    assert s.indent_at(8) == "\t"
    assert s.identifier_at(3) == "cd" and s.identifier_at(4) is None


def test_name_rewrites():
    src = SourceFile("f.c", text="a + b /* c */ + a;\nx = (a +\n  b);\n")
    rewrites = NameRewrites(src, {0: (1, "P(a)"), 16: (17, "P(a)"), 24: (25, "P(a)")})
    assert rewrites.text(0, 17) == "P(a) + b /* c */ + P(a)"
    assert rewrites.code(0, 17) == "P(a) + b         + P(a)"
    assert rewrites.text(4, 17) == "b /* c */ + P(a)"
    # a range over several lines comes out on one
    assert rewrites.code(23, 32) == "(P(a) + b)"
    assert NameRewrites(src).code(23, 32) == "(a + b)"


def test_name_rewrites_are_frozen():
    mapping = {0: (1, "P(a)")}
    rewrites = NameRewrites(SourceFile("f.c", text="a;\n"), mapping)
    mapping[0] = (1, "Q(a)")
    assert rewrites.text(0, 2) == "P(a);"
    assert not hasattr(rewrites, "__setitem__")
