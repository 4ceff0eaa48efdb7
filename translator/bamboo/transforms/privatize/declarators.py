"""Reading a declaration's text where libclang gives no cursor for the part: where it ends, the
storage-class keywords among its specifiers, the qualifier before a name, and the parts of a
declarator (array bounds, initializer). All on the file's blanked text (comments and literals
blanked out), so brackets and keywords inside them do not count."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ...frontend import cx

STORAGE_KEYWORDS = ("static", "extern", "inline")


@dataclass
class Declarator:
    """Where the parts of one declarator of a constructed object stand:
    ``name[bounds] initializer``, the initializer ``= value``, ``(args)``, ``{args}`` or none."""
    bounds_end: int           # past the name and its array bounds
    init: str                 # "=", "(", "{" or "" (none)
    init_start: int           # where the initializer starts ("=" included)
    value: int                # where what the object is constructed from starts
    end: int                  # past the initializer
    empty_bound: int | None   # the "]" of an array bound left to the initializer, `names[]`
    is_array: bool


def declaration_end(blank: str, c) -> int:
    """Offset just past the ';' ending the declaration that holds cursor ``c``."""
    j = c.extent.end.offset
    depth = 0
    while j < len(blank):
        ch = blank[j]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == ";" and depth <= 0:
            return j + 1
        j += 1
    return c.extent.end.offset


def skip_space(blank: str, j: int) -> int:
    while j < len(blank) and blank[j] in " \t\r\n":
        j += 1
    return j


def closing(blank: str, j: int) -> int:
    """The offset of the bracket closing the one at ``j``."""
    depth = 0
    for k in range(j, len(blank)):
        if blank[k] in "([{":
            depth += 1
        elif blank[k] in ")]}":
            depth -= 1
            if depth == 0:
                return k
    return len(blank) - 1


def storage_keywords(blank: str, start: int, end: int) -> list:
    """The ranges of the storage-class keywords (and their spaces) among the declaration's
    specifiers, outside brackets."""
    found, depth = [], 0
    for m in re.finditer(r"[A-Za-z_]\w*|[()\[\]{}<>]", blank[start:end]):
        word = m.group(0)
        if word in "([{<":
            depth += 1
        elif word in ")]}>":
            depth -= 1
        elif depth == 0 and word in STORAGE_KEYWORDS:
            found.append((start + m.start(), skip_space(blank, start + m.end())))
    return found


def qualifier(blank: str, name_offset: int) -> str:
    """The qualifier as written before a name: `int Counter::count = 0;` defines
    `size_t Counter::bamboo_offset_count`."""
    before = blank[max(0, name_offset - 1000):name_offset]
    return re.search(r"(?:::\s*)?(?:[A-Za-z_]\w*\s*::\s*)*$", before).group(0)


def declarator(blank: str, c, name_offset: int) -> Declarator:
    """The parts of the declarator of ``c``, whose name stands at ``name_offset``."""
    end = c.extent.end.offset
    j = name_offset + len(c.spelling)
    empty_bound = None
    while True:  # array bounds (and attributes, also in brackets)
        k = skip_space(blank, j)
        if k >= end or blank[k] != "[":
            break
        close = closing(blank, k)
        if blank[k + 1:close].strip() == "":
            empty_bound = close
        j = close + 1
    start = skip_space(blank, j)
    init = blank[start] if start < end and blank[start] in "=({" else ""
    if not init:
        start = end = j
    value = skip_space(blank, start + 1) if init == "=" else start
    return Declarator(j, init, start, value, max(end, value), empty_bound,
                      c.type.get_canonical().kind in (cx.TK.CONSTANTARRAY,
                                                     cx.TK.INCOMPLETEARRAY))
