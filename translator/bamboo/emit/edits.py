"""A buffer of edits on the user's source text, emitted with ``#line`` directives.

Edits are recorded against offsets of the original text and applied all at once:

* ``replace(start, end, text)``: replace a range (ranges never overlap);
* ``insert(offset, text, order)``: insert generated text at a point (several insertions at
  one point come out by their ``EditOrder``, then in the order they were made);
* ``move(start, end, dest, order)``: emit the original range (with the edits inside it) at
  ``dest`` instead of where it stands (block reordering), ordered like an insertion;
* ``append(text)``: generated text at the end of the file.

The output starts with ``#include "bamboo.h"`` and ``#line 1 "<file>"``.  Whenever the next
piece of original text would not be on the line the compiler believes it is on (because
inserted text added lines, or text was moved), a ``#line N "<file>"`` is emitted first, so
compiler messages and debuggers point at the user's file.
"""
from __future__ import annotations

import bisect
from enum import IntEnum, auto

from ..source import SourceFile


UTF8_BOM = "\xef\xbb\xbf"  # as read one character per byte (source.ENCODING)


class EditOrder(IntEnum):
    """Where an insertion goes among others at the same offset (first member first)."""

    # A brace that turns a single statement (the body of an if or a loop) into a block opens
    # before anything else inserted there, so the firing rule and a moved send block land
    # inside the block with the statement.
    OPEN_BRACE = auto()
    # A header's macro that names a privatized variable is defined again, rewritten, right
    # after the #include of the header, before anything that may use it.
    HEADER_MACRO_COPY = auto()
    # The companions of helpers defined in headers go right after the #include of the
    # headers, before anything inserted for the code that follows (which may call them).
    HEADER_COMPANIONS = auto()
    # A companion's prototype is a line of its own, at the start of the line where its helper
    # is first declared: before anything privatization inserts at a function's start.
    COMPANION_PROTOTYPE = auto()
    # The template of a function's privatized static locals moves to file scope right before
    # the function (inline text, on the function's first line, so lines keep their numbers).
    LOCAL_STATIC_TEMPLATE = auto()
    # A privatized variable declared only in a header gets its template and offset declared
    # on a line of their own before the first top-level declaration that uses it.
    HEADER_VARIABLE_DECLARATION = auto()
    # The offset of a privatized variable is declared right after the ';' of the variable's
    # declaration, so it is in scope wherever the variable is.
    OFFSET_DECLARATION = auto()
    # The declaration of an object each task constructs becomes a typedef: `typedef ` goes
    # after the offset declaration of the declaration before it, which may end where it starts.
    OBJECT_TYPEDEF = auto()
    # A send block moved before the receive blocks it passes (where a firing rule may also go:
    # see FIRING_RULE).
    MOVED_BLOCK = auto()
    # A companion's definition follows the helper's definition (the helper's parameter
    # types are declared by then).
    COMPANION_DEFINITION = auto()
    # A window's firing rule comes after the send blocks moved to the same place, so that the
    # sends leave before the task waits, and stands right before the window's first block.
    FIRING_RULE = auto()
    # main's added 'return 0;' comes before a brace that closes a block the translator
    # opened around main's last statement, so that it stays inside main.
    IMPLICIT_RETURN = auto()
    # A brace closing a block the translator opened comes after everything inserted at the
    # end of the statement it encloses.
    CLOSE_BRACE = auto()
    # The end of a send block (bamboo_send_block_end) stands before its closing brace, after
    # the braces closed inside the block.
    SEND_BLOCK_END = auto()


class EditConflict(Exception):
    pass


def line_directive(line: int, path: str) -> str:
    p = path.replace("\\", "\\\\").replace('"', '\\"')
    return f'#line {line} "{p}"\n'


class EditBuffer:
    def __init__(self, src: SourceFile):
        self.src = src
        self._replaces = []   # (start, end, text), sorted by start
        self._replace_starts = []
        self._inserts = []    # (offset, EditOrder, seq, text)
        self._moves = []      # (start, end, dest, EditOrder, seq)
        self._appends = []
        self._seq = 0
        if src.text.startswith(UTF8_BOM):
            # the output starts with the bamboo.h include: a byte order mark after it is a
            # stray character
            self.replace(0, len(UTF8_BOM), "")

    # -- recording -------------------------------------------------------------------
    def _next(self):
        self._seq += 1
        return self._seq

    def replace(self, start: int, end: int, text: str):
        # _replaces is kept sorted and never overlaps: only the neighbours can conflict
        # (a file can have thousands of replacements, one per use of a privatized variable)
        i = bisect.bisect_left(self._replace_starts, start)
        neighbours = self._replaces[max(i - 1, 0):i]
        while i < len(self._replaces) and self._replaces[i][0] <= max(start, end - 1):
            neighbours.append(self._replaces[i])
            i += 1
        for s, e, _ in neighbours:
            if start < e and s < end or (start == s and end == e):
                raise EditConflict(f"overlapping edits at offsets {start}-{end} and {s}-{e}")
        i = bisect.bisect_left(self._replace_starts, start)
        self._replace_starts.insert(i, start)
        self._replaces.insert(i, (start, end, text))

    def insert(self, offset: int, text: str, order: EditOrder):
        i = bisect.bisect_left(self._replace_starts, offset) - 1
        if i >= 0:
            s, e, _ = self._replaces[i]
            if s < offset < e:
                raise EditConflict(f"insertion at {offset} inside a replaced range {s}-{e}")
        self._inserts.append((offset, order, self._next(), text))

    def move(self, start: int, end: int, dest: int, order: EditOrder = EditOrder.MOVED_BLOCK):
        if start <= dest < end:
            raise EditConflict("a range cannot move inside itself")
        self._moves.append((start, end, dest, order, self._next()))

    def append(self, text: str):
        self._appends.append(text)

    # -- emission --------------------------------------------------------------------
    def _pieces(self, a: int, b: int, out: list, top: bool):
        """Pieces ('orig', s, e) / ('gen', text) of the range [a, b) in output order."""
        events = []  # (offset, phase, order, seq, kind, payload)
        for off, order, seq, text in self._inserts:
            if a <= off < b or (top and off == b):
                events.append((off, 0, order, seq, "ins", text))
        for s, e, dest, order, seq in self._moves:
            if a <= dest < b or (top and dest == b):
                events.append((dest, 0, order, seq, "movein", (s, e)))
            if a <= s < b and (top or (s, e) != (a, b)):
                events.append((s, 1, 0, seq, "skip", e))
        for s, e, text in self._replaces:
            if a <= s < b:
                events.append((s, 2, 0, 0, "repl", (e, text)))
        events.sort(key=lambda ev: ev[:4])
        pos = a
        for off, _phase, _order, _seq, kind, payload in events:
            if off < pos:
                # inside a skipped/replaced range: moved-out ranges carry their own edits
                if kind in ("ins", "movein"):
                    continue
                continue
            if off > pos:
                out.append(("orig", pos, off))
                pos = off
            if kind == "ins":
                out.append(("gen", payload))
            elif kind == "movein":
                s, e = payload
                self._pieces(s, e, out, top=False)
            elif kind == "skip":
                pos = max(pos, payload)
            elif kind == "repl":
                e, text = payload
                out.append(("repl", off, e, text))
                pos = e
        if pos < b:
            out.append(("orig", pos, b))

    def output(self, header: str = '#include "bamboo.h"\n') -> str:
        src = self.src
        pieces = []
        self._pieces(0, len(src.text), pieces, top=True)
        for text in self._appends:
            pieces.append(("gen", text))
        chunks = [header, line_directive(1, src.path)]
        presumed = 1
        at_bol = True
        for p in pieces:
            if p[0] == "gen":
                text = p[1]
                if not text:
                    continue
                chunks.append(text)
                presumed += text.count("\n")
                at_bol = text.endswith("\n")
                continue
            if p[0] == "repl":
                _, s, e, text = p
            else:
                _, s, e = p
                if s >= e:
                    continue
                text = src.text[s:e]
            line = src.line_of(s)
            if presumed != line:
                if not at_bol:
                    chunks.append("\n")
                chunks.append(line_directive(line, src.path))
                prefix = src.text[src.line_start(s):s]
                chunks.append("".join(c if c in " \t" else " " for c in prefix))
                presumed = line
            chunks.append(text)
            if p[0] == "repl":
                # the compiler counts the replacement's lines; the source continues at e
                presumed += text.count("\n")
                if text.count("\n") != src.text.count("\n", s, e):
                    presumed = -1  # force a #line before the next original text
                at_bol = text.endswith("\n") if text else at_bol
            else:
                presumed += text.count("\n")
                at_bol = text.endswith("\n")
        out = "".join(chunks)
        if not out.endswith("\n"):
            out += "\n"
        return out

