"""``#pragma comm_parameters`` and ``#pragma comm_p2p`` (seed 003): finding them in the text
and parsing their clauses.

Grammar (one logical line; continue it with a backslash)::

    #pragma comm_parameters CLAUSE...      a param region: the statement after it
    #pragma comm_p2p CLAUSE...             an instance: the statement after it is
                                           computation that may overlap the transfer
    CLAUSE:  sender(EXPR) receiver(EXPR) sbuf(BUF, ...) rbuf(BUF, ...)
             sendwhen(EXPR) receivewhen(EXPR) count(EXPR)
             target(TARGET_COMM_MPI_2SIDE | TARGET_COMM_MPI_1SIDE | TARGET_COMM_SHMEM)
             place_sync(END_PARAM_REGION | BEGIN_NEXT_PARAM_REGION | END_ADJ_PARAM_REGIONS)
             max_comm_iter(EXPR)                            (the last two: comm_parameters only)

Expressions stay text here; their types are checked in their scope by buffers.py.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..diagnostics import Diagnostics
from ..source import SourceFile

PARAMETERS, P2P = "comm_parameters", "comm_p2p"

TARGETS = ("TARGET_COMM_MPI_2SIDE", "TARGET_COMM_MPI_1SIDE", "TARGET_COMM_SHMEM")
TWO_SIDED, ONE_SIDED, SHMEM = TARGETS
PLACEMENTS = ("END_PARAM_REGION", "BEGIN_NEXT_PARAM_REGION", "END_ADJ_PARAM_REGIONS")
END_PARAM_REGION, BEGIN_NEXT_PARAM_REGION, END_ADJ_PARAM_REGIONS = PLACEMENTS

BUFFER_CLAUSES = ("sbuf", "rbuf")
EXPRESSION_CLAUSES = ("sender", "receiver", "sendwhen", "receivewhen", "count", "max_comm_iter")
KEYWORD_CLAUSES = {"target": TARGETS, "place_sync": PLACEMENTS}
CLAUSES = ("sender", "receiver", "sbuf", "rbuf", "sendwhen", "receivewhen", "target", "count",
           "place_sync", "max_comm_iter")
REGION_ONLY = ("place_sync", "max_comm_iter")
REQUIRED = ("sender", "receiver", "sbuf", "rbuf")

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Expr:
    """An expression as written in a clause, at its offset in the file."""
    text: str
    offset: int


@dataclass
class Clause:
    name: str
    offset: int                                   # of the clause's name
    items: list = field(default_factory=list)     # [Expr]: one, or a buffer list
    keyword: str | None = None                    # target and place_sync

    @property
    def expr(self) -> Expr:
        return self.items[0]


@dataclass
class CommDirective:
    kind: str                # PARAMETERS or P2P
    start: int               # offset of '#'
    end: int                 # just past the directive's text (before its newline)
    clauses: dict = field(default_factory=dict)   # name -> Clause
    valid: bool = True
    continued: bool = False  # its clauses go on at the next line, without a backslash


def scan(src: SourceFile, diags: Diagnostics, skipped=(), macros=None) -> list[CommDirective]:
    """Every comm directive of ``src`` outside the preprocessor's ``skipped`` ranges.
    ``macros`` (name -> replacement text) lets target() and place_sync() name their keyword
    through an object-like macro (``-DTARGET=TARGET_COMM_SHMEM``)."""
    blank = src.blanked
    found = []
    for pragma in src.pragma_lines((PARAMETERS, P2P), skipped):
        d = CommDirective(kind=pragma.name, start=pragma.start, end=pragma.end)
        _parse_clauses(d, src, blank, pragma.words, pragma.end, diags, macros or {})
        _check_continuation(d, src, blank, diags)
        found.append(d)
    return found


def _parse_clauses(d: CommDirective, src, blank, i, end, diags, macros):
    while True:
        while i < end and (blank[i].isspace() or blank[i] == "\\" or blank[i] == ","):
            i += 1
        if i >= end:
            return
        m = _NAME.match(blank, i)
        if not m:
            diags.error_at(src, i, f"expected a clause of {d.kind}, not '{blank[i]}'")
            d.valid = False
            return
        name, name_off = m.group(0), i
        i = m.end()
        while i < end and blank[i] in " \t":
            i += 1
        if i >= end or blank[i] != "(":
            diags.error_at(src, name_off, f"clause '{name}' needs its argument in parentheses")
            d.valid = False
            return
        close = _matching_paren(blank, i, end)
        if close is None:
            diags.error_at(src, i, f"unbalanced parentheses in clause '{name}'")
            d.valid = False
            return
        items = _split_top_level(src.text, blank, i + 1, close)
        i = close + 1
        if name not in CLAUSES:
            diags.error_at(src, name_off, f"unknown clause '{name}' (expected one of "
                           f"{', '.join(CLAUSES)})")
            d.valid = False
            continue
        if name in d.clauses:
            diags.error_at(src, name_off, f"clause '{name}' given twice")
            d.valid = False
            continue
        if d.kind == P2P and name in REGION_ONLY:
            diags.error_at(src, name_off, f"clause '{name}' belongs on comm_parameters, not on "
                           "comm_p2p")
            d.valid = False
            continue
        clause = Clause(name, name_off, items)
        if not items or any(not e.text for e in items):
            diags.error_at(src, name_off, f"clause '{name}' has an empty argument")
            d.valid = False
            continue
        if name not in BUFFER_CLAUSES and len(items) > 1:
            diags.error_at(src, items[1].offset, f"clause '{name}' takes one argument, not a list")
            d.valid = False
            continue
        if name in KEYWORD_CLAUSES:
            allowed = KEYWORD_CLAUSES[name]
            word, seen = items[0].text, set()
            while word in macros and word not in allowed and word not in seen:
                seen.add(word)
                word = macros[word]
            if word not in allowed:
                diags.error_at(src, items[0].offset, f"{name} must be one of {', '.join(allowed)}, "
                               f"not '{items[0].text}'")
                d.valid = False
                continue
            clause.keyword = word
        d.clauses[name] = clause


def _matching_paren(blank, i, end):
    depth = 0
    for j in range(i, end):
        if blank[j] in "([{":
            depth += 1
        elif blank[j] in ")]}":
            depth -= 1
            if depth == 0:
                return j if blank[j] == ")" else None
    return None


def _split_top_level(text, blank, a, b) -> list[Expr]:
    """The comma-separated expressions of text[a:b] (commas inside brackets kept)."""
    items, depth, start = [], 0, a
    for j in range(a, b + 1):
        c = blank[j] if j < b else ","
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            items.append(_expr(text, blank, start, j))
            start = j + 1
    return items


def _expr(text, blank, a, b) -> Expr:
    # line continuations inside an expression read as spaces
    piece = blank[a:b]
    lead = len(piece) - len(piece.lstrip())
    body = text[a + lead:a + len(piece.rstrip())]
    return Expr(re.sub(r"\\\r?\n", " ", body).strip(), a + lead)


def _check_continuation(d: CommDirective, src, blank, diags):
    """Papers print a directive over several lines; in C a #pragma ends with its line. A
    clause at the start of the next line was meant to belong to the directive."""
    nxt = blank.find("\n", d.end)
    if nxt < 0:
        return
    rest = blank[nxt + 1:]
    line = rest.split("\n", 1)[0]
    m = re.match(r"[ \t]*([A-Za-z_]\w*)[ \t]*\(", line)
    # a statement ends with ';' or opens a block; a line of clauses does neither
    if m and m.group(1) in CLAUSES and not line.rstrip().endswith((";", "{")):
        diags.error_at(src, nxt + 1 + m.start(1),
                       f"'{m.group(1)}(' on the line after #pragma {d.kind}: a #pragma ends "
                       "with its line; end the line before with '\\' to continue the directive")
        d.valid = False
        d.continued = True
