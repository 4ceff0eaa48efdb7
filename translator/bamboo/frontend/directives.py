"""``#pragma bamboo`` directives: finding them in the text and parsing their clauses.

libclang drops unknown pragmas from the AST, so directives are found in the source text
(comments and strings blanked out) and attached to statements later (model.py).

Grammar::

    #pragma bamboo olap [layout NAME [AXIS...]]*
    #pragma bamboo send
    #pragma bamboo receive
    #pragma bamboo dimension N
    #pragma bamboo priority EXPR

NAME is NearestNeighbor (alias NN), OneNeighborBackward or MinHeap; an AXIS is X, Y, Z, W
or a number 0..N-1 of the embedding geometry declared by ``dimension``.

``send`` and ``receive`` may also be written with C99's operator, ``_Pragma("bamboo send")``,
anywhere on a line: the comm directives' lowering writes them so, to keep every line where it
was (comm_directives/targets.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..diagnostics import Diagnostics
from ..source import LINE_CONTINUATION, SourceFile

OLAP, SEND, RECEIVE, DIMENSION, PRIORITY = "olap", "send", "receive", "dimension", "priority"
KINDS = (OLAP, SEND, RECEIVE, DIMENSION, PRIORITY)

LAYOUTS = {
    "NearestNeighbor": "NearestNeighbor",
    "NN": "NearestNeighbor",
    "OneNeighborBackward": "OneNeighborBackward",
    "MinHeap": "MinHeap",
}
AXIS_NAMES = {"X": 0, "Y": 1, "Z": 2, "W": 3}

_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+|\S")
_PRAGMA_OPERATOR = re.compile(r'\b_Pragma[ \t]*\([ \t]*"bamboo[ \t]+(send|receive)[ \t]*"[ \t]*\)')


@dataclass
class Layout:
    name: str            # canonical name
    written: str         # as written (NN or NearestNeighbor, ...)
    axes: list = field(default_factory=list)   # [(text, index, offset)]
    offset: int = 0

    def __str__(self):
        axes = " ".join(a[0] for a in self.axes)
        return f"{self.name}" + (f" {axes}" if axes else "")


@dataclass(frozen=True)
class VariableRef:
    """A variable named in a priority expression (found by frontend's check of it)."""
    start: int | None    # offset of the name; None when a macro of the expression names it
    name: str
    usr: str             # libclang's USR of the variable, as Program.var keys it


@dataclass
class Directive:
    kind: str
    start: int               # offset of '#'
    end: int                 # offset just past the directive text (before the newline)
    line: int
    col: int
    text: str                # the directive's words after 'bamboo', continuation lines joined
    lines: int = 1           # how many physical lines it spans (line continuations)
    layouts: list = field(default_factory=list)
    dimension: int | None = None
    expr: str | None = None  # priority expression
    expr_offset: int | None = None
    expr_refs: list = field(default_factory=list)  # VariableRefs of the priority expression
    stmt: object = None      # the statement Node it applies to (set by the model)
    valid: bool = True
    operator: bool = False   # written as _Pragma("bamboo ...")

    def __str__(self):
        return f"#pragma bamboo {self.text}"


def scan(src: SourceFile, diags: Diagnostics, skipped=()) -> list:
    """Find and parse every ``#pragma bamboo`` line of ``src`` (except in ``skipped``
    ranges: code the preprocessor leaves out)."""
    blank = src.blanked
    result = []
    for pragma in src.pragma_lines(("bamboo",), skipped):
        hash_off, words_start, end = pragma.start, pragma.words, pragma.end
        # The directive's words, as (text, offset) tokens, from the blanked text (no comments).
        body = blank[words_start:end]
        tokens = [(t.group(0), words_start + t.start()) for t in _TOKEN.finditer(body)
                  if t.group(0) != "\\"]
        while end > hash_off and blank[end - 1] in " \t\r":
            end -= 1
        line, col = src.line_col(hash_off)
        text = " ".join(t for t, _ in tokens)
        d = Directive(kind="", start=hash_off, end=end, line=line, col=col, text=text,
                      lines=src.text.count("\n", hash_off, end) + 1)
        _parse(d, tokens, src, diags)
        result.append(d)
    for m in _PRAGMA_OPERATOR.finditer(src.text):
        # in code, not in a comment or a string (blanked out)
        if blank[m.start()] != "_" or any(a <= m.start() < b for a, b in skipped):
            continue
        line, col = src.line_col(m.start())
        d = Directive(kind="", start=m.start(), end=m.end(), line=line, col=col, text=m.group(1),
                      operator=True)
        _parse(d, [(m.group(1), m.start(1))], src, diags)
        result.append(d)
    result.sort(key=lambda d: d.start)
    _check_dimension(result, src, diags)
    return result



def _parse(d: Directive, tokens, src, diags):
    if not tokens:
        diags.error_at(src, d.start, "empty bamboo directive (expected olap, send, receive, "
                       "dimension or priority)")
        d.valid = False
        return
    word, off = tokens[0]
    rest = tokens[1:]
    if word not in KINDS:
        diags.error_at(src, off, f"unknown bamboo directive '{word}' (expected olap, send, "
                       "receive, dimension or priority)")
        d.valid = False
        return
    d.kind = word
    if word in (SEND, RECEIVE):
        if rest:
            diags.error_at(src, rest[0][1], f"unexpected '{rest[0][0]}' after '{word}' "
                           f"(the {word} directive takes no clauses)")
            d.valid = False
    elif word == DIMENSION:
        if not rest:
            diags.error_at(src, d.end, "dimension directive needs the number of dimensions "
                           "of the embedding geometry")
            d.valid = False
        elif not rest[0][0].isdigit() or int(rest[0][0]) < 1:
            diags.error_at(src, rest[0][1],
                           f"dimension must be a positive integer, not '{rest[0][0]}'")
            d.valid = False
        elif len(rest) > 1:
            diags.error_at(src, rest[1][1],
                           f"unexpected '{rest[1][0]}' after 'dimension {rest[0][0]}'")
            d.valid = False
        else:
            d.dimension = int(rest[0][0])
    elif word == PRIORITY:
        if not rest:
            diags.error_at(src, d.end, "priority directive needs an expression")
            d.valid = False
        else:
            d.expr_offset = rest[0][1]
            raw = src.text[d.expr_offset:d.end]
            d.expr = " ".join(LINE_CONTINUATION.sub(" ", raw).split())
    else:  # OLAP
        _parse_layouts(d, rest, src, diags)


def _parse_layouts(d, tokens, src, diags):
    i = 0
    while i < len(tokens):
        word, off = tokens[i]
        if word != "layout":
            diags.error_at(src, off, f"unknown clause '{word}' in olap directive "
                           "(expected 'layout NAME [AXIS...]')")
            d.valid = False
            return
        i += 1
        if i >= len(tokens) or tokens[i][0] in ("(", ")", ",", "layout"):
            diags.error_at(src, tokens[i][1] if i < len(tokens) else d.end,
                           "'layout' needs a layout name (NearestNeighbor, NN, OneNeighborBackward "
                           "or MinHeap)")
            d.valid = False
            return
        name, noff = tokens[i]
        if name not in LAYOUTS:
            diags.error_at(src, noff, f"unknown layout '{name}' (expected NearestNeighbor, NN, "
                           "OneNeighborBackward or MinHeap)")
            d.valid = False
            return
        lay = Layout(LAYOUTS[name], name, [], noff)
        i += 1
        while i < len(tokens) and tokens[i][0] != "layout":
            a, aoff = tokens[i]
            i += 1
            if a in ("(", ")", ","):
                continue
            if a in AXIS_NAMES:
                lay.axes.append((a, AXIS_NAMES[a], aoff))
            elif a.isdigit():
                lay.axes.append((a, int(a), aoff))
            else:
                diags.error_at(src, aoff, f"invalid axis '{a}' for layout {name} "
                               "(expected X, Y, Z, W or a number)")
                d.valid = False
                return
        d.layouts.append(lay)


def _check_dimension(directives, src, diags):
    """``dimension`` at most once, before the first olap with a layout; axes < dimension."""
    dim = None
    dim_dir = None
    for d in directives:
        if d.kind == DIMENSION and d.valid:
            if dim_dir is d:
                continue
            if dim_dir is not None:
                diags.error_at(src, d.start, "duplicate dimension directive "
                               f"(first declared at line {dim_dir.line})")
                continue
            dim_dir = d
            dim = d.dimension
        elif d.kind == OLAP and d.valid and d.layouts:
            if dim_dir is None:
                later = next((x for x in directives if x.kind == DIMENSION and x.valid), None)
                if later is not None:
                    diags.error_at(src, later.start, "the dimension directive must come before the "
                                   f"first olap region with a layout (line {d.line})")
                    dim_dir = later  # report once
                    dim = later.dimension
                else:
                    diags.error_at(src, d.layouts[0].offset,
                                   "a layout needs the embedding geometry's dimension: add "
                                   "'#pragma bamboo dimension N' before the first olap region")
                    d.valid = False
                    continue
            for lay in d.layouts:
                for text, idx, aoff in lay.axes:
                    if dim is not None and idx >= dim:
                        diags.error_at(src, aoff, f"axis {text} of layout {lay.written} is "
                                       f"outside the {dim}-dimensional embedding geometry "
                                       f"(dimension {dim})")
                        d.valid = False
    return dim


def dimension_of(directives):
    for d in directives:
        if d.kind == DIMENSION and d.valid:
            return d.dimension
    return None
