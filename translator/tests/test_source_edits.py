from bamboo.emit.edits import EditBuffer, EditOrder
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


def _lines(out):
    return out.split("\n")


def test_replace_keeps_lines():
    src = SourceFile("f.c", text="int x;\nint y;\n")
    b = EditBuffer(src)
    b.replace(4, 5, "renamed")
    out = b.output()
    assert _lines(out)[:4] == ['#include "bamboo.h"', f'#line 1 "{src.path}"', "int renamed;",
                               "int y;"]


def test_insert_lines_restores_mapping():
    src = SourceFile("f.c", text="a;\nb;\nc;\n")
    b = EditBuffer(src)
    b.insert(3, "/* one */\n/* two */\n", EditOrder.FIRING_RULE)
    out = _lines(b.output())
    assert out[2:7] == ["a;", "/* one */", "/* two */", f'#line 2 "{src.path}"', "b;"]


def test_move_emits_line_directives():
    text = "r1;\nr2;\ns1;\nx;\n"
    src = SourceFile("f.c", text=text)
    b = EditBuffer(src)
    b.move(8, 12, 0)
    out = _lines(b.output())
    assert out[2:] == [f'#line 3 "{src.path}"', "s1;", f'#line 1 "{src.path}"', "r1;", "r2;",
                       f'#line 4 "{src.path}"', "x;", ""]


def test_insert_order_and_append():
    src = SourceFile("f.c", text="x;\n")
    b = EditBuffer(src)
    b.insert(0, "B", EditOrder.CLOSE_BRACE)
    b.insert(0, "A", EditOrder.OPEN_BRACE)
    b.append("/* end */\n")
    out = b.output()
    assert "ABx;\n/* end */\n" in out


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
