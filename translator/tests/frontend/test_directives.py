from bamboo.frontend import directives as dirs
from bamboo.diagnostics import Diagnostics
from bamboo.source import SourceFile


def scan(text):
    d = Diagnostics()
    src = SourceFile("x.c", text=text, display="x.c")
    return dirs.scan(src, d), [str(x) for x in d.items]


def test_basic_directives():
    ds, errs = scan("#pragma bamboo dimension 2\n"
                    "  #  pragma bamboo olap layout NN X layout OneNeighborBackward(Y)\n"
                    "#pragma bamboo send\n#pragma bamboo receive\n#pragma bamboo priority n + 1\n")
    assert errs == []
    assert [d.kind for d in ds] == ["dimension", "olap", "send", "receive", "priority"]
    assert ds[0].dimension == 2
    lay = ds[1].layouts
    assert [(l.name, [a[1] for a in l.axes]) for l in lay] == [
        ("NearestNeighbor", [0]), ("OneNeighborBackward", [1])]
    assert ds[4].expr == "n + 1"
    assert (ds[1].line, ds[1].col) == (2, 3)


def test_comments_and_strings_are_not_directives():
    ds, errs = scan('/*\n#pragma bamboo olap\n*/\nconst char *s = "#pragma bamboo send";\n'
                    "// #pragma bamboo receive\n#pragma omp parallel\n")
    assert ds == [] and errs == []


def test_continuation_lines():
    ds, errs = scan("#pragma bamboo dimension 1\n#pragma bamboo olap layout NN \\\n   X\nint x;\n")
    assert errs == []
    assert ds[1].lines == 2 and [a[0] for a in ds[1].layouts[0].axes] == ["X"]


def test_errors():
    _, errs = scan("#pragma bamboo\n")
    assert errs == ["x.c:1:1: error: empty bamboo directive (expected olap, send, receive, "
                    "dimension or priority)"]
    _, errs = scan("#pragma bamboo olap layout Foo\n")
    assert "unknown layout 'Foo'" in errs[0] and errs[0].startswith("x.c:1:28:")
    _, errs = scan("#pragma bamboo dimension 1\n#pragma bamboo olap layout NN Z\n")
    assert "axis Z of layout NN is outside the 1-dimensional" in errs[0]
    _, errs = scan("#pragma bamboo olap layout MinHeap\n")
    assert "needs the embedding geometry's dimension" in errs[0]
    _, errs = scan("#pragma bamboo receive all\n")
    assert "unexpected 'all' after 'receive'" in errs[0]
    _, errs = scan("#pragma bamboo dimension 2\n#pragma bamboo dimension 2\n")
    assert "duplicate dimension directive" in errs[0]
    _, errs = scan("#pragma bamboo olap layout NN X\n#pragma bamboo dimension 2\n")
    assert "must come before the first olap region with a layout" in errs[0]
    _, errs = scan("#pragma bamboo olap layout NN X7\n")
    assert "invalid axis 'X7'" in errs[0]
    _, errs = scan("#pragma bamboo dimension 0\n")
    assert "positive integer" in errs[0]


def test_the_pragma_operator_gives_send_and_receive_anywhere_on_a_line():
    """As the comm directives' lowering writes them, so that no line is added."""
    ds, errs = scan('int x; _Pragma("bamboo send") { }  _Pragma ( "bamboo  receive" ) { }\n'
                    'const char *s = "_Pragma(\\"bamboo send\\")"; /* _Pragma("bamboo receive") */\n')
    assert errs == []
    assert [(d.kind, d.line, d.col, d.operator) for d in ds] == [("send", 1, 8, True), ("receive", 1, 36, True)]
