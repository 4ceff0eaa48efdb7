"""The edit buffer: replacements, insertions in their EditOrder, moves, #line directives."""
from bamboo.emit.edits import EditBuffer, EditOrder
from bamboo.source import SourceFile


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
