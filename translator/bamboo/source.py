"""The user's source text: offsets <-> lines, a copy with comments blanked out, and the one
way generated text spells the user's code (``NameRewrites``)."""
from __future__ import annotations

import bisect
import functools
import os
import re
from dataclasses import dataclass
from types import MappingProxyType

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
LINE_CONTINUATION = re.compile(r"\\\r?\n")
_LINE_BREAK = re.compile(r"[ \t\r]*\n\s*")

# Source text is read and written one character per byte: libclang's offsets count bytes,
# and a UTF-8 comment (a "§", say) must not shift every offset after it.
ENCODING = "latin-1"


def blank_comments(text: str, strings: bool = True) -> str:
    """``text`` with comments (and, if ``strings``, string/char literal contents) replaced
    by spaces; newlines and all offsets are kept."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and i + 1 < n and text[i + 1] == "*":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        elif c == "/" and i + 1 < n and text[i + 1] == "/":
            j = i
            while j < n and text[j] != "\n":
                continuation = text[j] == "\\" and LINE_CONTINUATION.match(text, j)
                j = continuation.end() if continuation else j + 1
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                continuation = text[j] == "\\" and LINE_CONTINUATION.match(text, j)
                j = continuation.end() if continuation else j + (2 if text[j] == "\\" else 1)
            if strings:
                for k in range(i + 1, min(j, n)):
                    if out[k] != "\n":
                        out[k] = " "
            i = j + 1
        else:
            i += 1
    return "".join(out)


class SourceFile:
    """One file of user source."""

    def __init__(self, path: str, text: str | None = None, display: str | None = None):
        self.path = os.path.abspath(path)
        self.display = display if display is not None else path
        if text is None:
            # newline="": CRLF stays as written, as libclang's offsets count it
            with open(self.path, encoding=ENCODING, newline="") as f:
                text = f.read()
        self.text = text
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self._blank = None
        self._nocomment = None

    @property
    def blanked(self) -> str:
        """The text with comments and string contents replaced by spaces."""
        if self._blank is None:
            self._blank = blank_comments(self.text)
        return self._blank

    @property
    def no_comments(self) -> str:
        """The text with comments replaced by spaces (string literals kept)."""
        if self._nocomment is None:
            self._nocomment = blank_comments(self.text, strings=False)
        return self._nocomment

    def with_replacements(self, edits) -> str:
        """The text with each (start, end, new) range replaced, in the order given (by start);
        a replaced range's line breaks follow its new text, so every later line keeps its
        number (comm directives and loop optimization write the user's lines so)."""
        out, pos = [], 0
        for start, end, new in edits:
            out += [self.text[pos:start], new, "\n" * self.text.count("\n", start, end)]
            pos = end
        out.append(self.text[pos:])
        return "".join(out)

    def line_col(self, offset: int):
        """1-based (line, column) of a byte offset."""
        i = bisect.bisect_right(self.line_starts, offset) - 1
        return i + 1, offset - self.line_starts[i] + 1

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.line_starts, offset) - 1 + 1

    def offset(self, line: int, col: int = 1) -> int:
        return self.line_starts[line - 1] + col - 1

    def line_start(self, offset: int) -> int:
        return self.line_starts[self.line_of(offset) - 1]

    def line_end(self, offset: int) -> int:
        """Offset of the newline ending the line holding ``offset`` (or len(text))."""
        j = self.text.find("\n", offset)
        return len(self.text) if j < 0 else j

    def indent_at(self, offset: int) -> str:
        """The leading whitespace of the line holding ``offset``."""
        s = self.line_start(offset)
        m = re.match(r"[ \t]*", self.text[s:])
        return m.group(0)

    def pragma_lines(self, names: tuple, skipped=()) -> list:
        """The ``#pragma NAME`` lines of the code for each NAME of ``names`` (not in comments,
        not in the preprocessor's ``skipped`` ranges), in order: the one scanner of Bamboo's
        directives and of the comm directives."""
        found = []
        for m in _pragma_pattern(names).finditer(self.blanked):
            start = self.blanked.index("#", m.start())
            if not any(a <= start < b for a, b in skipped):
                end = self.logical_line_end(m.start())
                found.append(PragmaLine(start, m.group(1), m.end(), end))
        return found

    def for_header(self, start: int):
        """The header of the ``for`` statement at ``start``: (its opening parenthesis, the two
        semicolons between its parts, its closing parenthesis), or None when it is not
        written as ``for (init; condition; increment)`` (a macro's). Brackets nest."""
        text = self.blanked
        if text[start:start + 3] != "for":
            return None
        open_paren = text.find("(", start)
        if open_paren < 0:
            return None
        depth, semis, i = 0, [], open_paren
        while i < len(text):
            ch = text[i]
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
                if depth == 0:
                    break
            elif ch == ";" and depth == 1:
                semis.append(i)
            i += 1
        if len(semis) != 2 or i == len(text):
            return None
        return open_paren, tuple(semis), i

    def logical_line_end(self, offset: int) -> int:
        """End of the logical line holding ``offset`` (backslash continuations followed, in
        code: not in comments), before its newline."""
        text = self.blanked
        while True:
            j = text.find("\n", offset)
            if j < 0:
                return len(text)
            k = j - 1
            if k >= 0 and text[k] == "\r":
                k -= 1
            if k >= 0 and text[k] == "\\":
                offset = j + 1
                continue
            return j

    def only_space_before(self, offset: int) -> bool:
        """True when only whitespace (or comments) precede ``offset`` on its line."""
        return self.blanked[self.line_start(offset):offset].strip() == ""

    def only_space_after(self, offset: int) -> bool:
        return self.blanked[offset:self.line_end(offset)].strip() == ""

    def identifier_at(self, offset: int) -> str | None:
        m = _IDENT.match(self.text, offset)
        if m and (offset == 0 or not (self.text[offset - 1].isalnum() or self.text[offset - 1] == "_")):
            return m.group(0)
        return None


@dataclass(frozen=True)
class PragmaLine:
    """A ``#pragma NAME ...`` line of the code, its continuation lines joined."""
    start: int      # of its '#'
    name: str
    words: int      # just past the name: where what follows it starts
    end: int        # end of the logical line, before its newline


@functools.lru_cache(maxsize=None)
def _pragma_pattern(names: tuple) -> re.Pattern:
    # a UTF-8 byte order mark may precede the first line's directive
    return re.compile(r"^(?:\xef\xbb\xbf)?[ \t]*#[ \t]*pragma[ \t]+(" +
                      "|".join(re.escape(n) for n in names) + r")\b", re.M)


class NameRewrites:
    """Identifiers of one file rewritten by offset (privatized variables become
    ``BAMBOO_PRIVATE(name)``): the one way generated text spells the user's code, in firing
    rules, companions and priority expressions alike.  Frozen once made; ``NameRewrites(src)``
    rewrites nothing, which spells the code as the user wrote it (--explain, notes)."""

    def __init__(self, src: SourceFile, rewrites=None):
        self.src = src
        self._rewrites = MappingProxyType(dict(rewrites or {}))  # offset -> (end, replacement)
        self._offsets = sorted(self._rewrites)

    def items(self):
        return self._rewrites.items()

    def _apply(self, text: str, start: int, end: int) -> str:
        out = []
        pos = start
        for off in self._offsets[bisect.bisect_left(self._offsets, start):]:
            if off >= end:
                break
            e, replacement = self._rewrites[off]
            if e > end or off < pos:
                continue
            out.append(text[pos:off])
            out.append(replacement)
            pos = e
        out.append(text[pos:end])
        return "".join(out)

    def text(self, start: int, end: int) -> str:
        """The text of [start, end) as written, comments included."""
        return self._apply(self.src.text, start, end)

    def code(self, start: int, end: int) -> str:
        """The code of [start, end) without comments, on one line: line splices removed, each
        line break with the blanks around it one space. A line break is never inside a string
        or character literal, whose spaces stay as written."""
        text = LINE_CONTINUATION.sub("", self._apply(self.src.no_comments, start, end))
        return _LINE_BREAK.sub(" ", text)
