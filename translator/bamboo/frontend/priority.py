"""Priority expressions: ``#pragma bamboo priority EXPR`` must be one C expression of integer
type, valid where the directive stands.  libclang ignores the directive, so the file is
parsed once more with the expression written as a statement; that parse also finds the
variables EXPR names (privatization rewrites them)."""
from __future__ import annotations

import os

from ..source import SourceFile
from . import cx, directives as dirs
from .cx import CK
from .model import Program

_INTEGER_KINDS = {
    cx.TK.BOOL, cx.TK.CHAR_U, cx.TK.UCHAR, cx.TK.CHAR16, cx.TK.CHAR32, cx.TK.USHORT, cx.TK.UINT,
    cx.TK.ULONG, cx.TK.ULONGLONG, cx.TK.UINT128, cx.TK.CHAR_S, cx.TK.SCHAR, cx.TK.WCHAR,
    cx.TK.SHORT, cx.TK.INT, cx.TK.LONG, cx.TK.LONGLONG, cx.TK.INT128, cx.TK.ENUM,
}
# How the check of priority expressions writes a directive: a statement of its own where
# the statement after it stands in a block; the head of a for loop around that statement
# where it is the body of an if, a loop or a label, which keeps the code's structure.
_CHECK_IN_BLOCK = ("(void)(", ");")
_CHECK_AS_BODY = ("for ((void)(", ");0;)")
_CHECK_CAST = "(void)("

_CLOSING = {")": "(", "]": "["}


def _misplaced_token(d, src: SourceFile):
    """(offset, message) for the first character that keeps a priority expression from being
    one expression (a ';', a brace, an unmatched bracket), or None."""
    open_brackets = []
    for offset in range(d.expr_offset, d.end):
        ch = src.blanked[offset]
        if ch in ";{}":
            return offset, (f"unexpected '{ch}' in the priority expression (it must be one C "
                            "expression)")
        if ch in "([":
            open_brackets.append(offset)
        elif ch in _CLOSING:
            if not open_brackets or src.blanked[open_brackets.pop()] != _CLOSING[ch]:
                return offset, f"unmatched '{ch}' in the priority expression"
    if open_brackets:
        return open_brackets[-1], (f"unclosed '{src.blanked[open_brackets[-1]]}' in the "
                                   "priority expression")
    return None


def check_priority_expressions(prog: Program, compiler_args):
    """``#pragma bamboo priority EXPR`` becomes ``bamboo_set_priority((EXPR));`` where the
    directive stands, so EXPR must be one C expression of integer type in scope there.
    libclang ignores the directive; the file is parsed once more with each directive
    replaced, in the same bytes, by a statement around ``(void)(EXPR)``, which also finds
    the variables EXPR names (privatization rewrites them).  EXPR moves left to make room
    for what closes the statement: everything else keeps its offset, so USRs are the same."""
    src = prog.src
    checked = {}   # id(directive) -> (directive, how many bytes EXPR moves left)
    pieces, pos = [], 0
    for d in prog.directives:
        if d.kind != dirs.PRIORITY or not d.valid or d.stmt is None:
            continue
        misplaced = _misplaced_token(d, src)
        if misplaced is not None:
            prog.error(*misplaced)
            d.valid = False
            continue
        in_block = d.stmt.parent is not None and d.stmt.parent.kind == CK.COMPOUND_STMT
        opening, closing = _CHECK_IN_BLOCK if in_block else _CHECK_AS_BODY
        # the directive's words become blanks (its line breaks stay), fewer by the room the
        # statement around EXPR needs (the words take at least 23 bytes)
        blanks = "".join(c if c in "\r\n" else " " for c in src.text[d.start:d.expr_offset])
        blanks = blanks.replace(" ", "", len(opening) + len(closing))
        pieces += [src.text[pos:d.start], blanks, opening, src.text[d.expr_offset:d.end],
                   closing]
        pos = d.end
        checked[id(d)] = (d, len(closing))
    if not checked:
        return
    pieces.append(src.text[pos:])
    tu = cx.parse(src.path, compiler_args, unsaved_text="".join(pieces))

    def directive_at(offset):
        return next((d for d, _ in checked.values() if d.start <= offset <= d.end), None)

    failed = set()
    for diag in tu.diagnostics:
        if diag.severity < 3:
            continue
        places = [diag.location] + [note.location for note in diag.children]
        place = next((p for p in places if p.file is not None and
                      os.path.abspath(p.file.name) == src.path and directive_at(p.offset)), None)
        if place is None:
            prog.diags.error(*prog.cursor_where(diag), f"invalid priority expression: "
                                                       f"{diag.spelling}")
            failed.update(checked)
            continue
        d = directive_at(place.offset)
        failed.add(id(d))
        moved = checked[id(d)][1]
        # back to where the user wrote it: EXPR, or its start for the statement around it
        offset = min(max(place.offset + moved, d.expr_offset), d.end)
        prog.error(offset, f"invalid priority expression: {diag.spelling}")
    by_cast = {d.expr_offset - moved - len(_CHECK_CAST): (d, moved)
               for key, (d, moved) in checked.items() if key not in failed}
    for c in tu.cursor.get_children():
        if not by_cast or c.kind != CK.FUNCTION_DECL or not prog.in_main(c):
            continue
        lo, hi = c.extent.start.offset, c.extent.end.offset
        if not any(lo <= start < hi for start in by_cast):
            continue
        for x in cx.walk_preorder(c):
            if x.kind == CK.CSTYLE_CAST_EXPR and x.extent.start.offset in by_cast:
                _note_priority_expression(prog, *by_cast.pop(x.extent.start.offset), x)
    for key, (d, _) in checked.items():
        d.valid = d.valid and key not in failed


def _note_priority_expression(prog: Program, d, moved: int, cast):
    """Check the type of the priority expression (the operand of ``cast``, ``moved`` bytes
    left of where the user wrote it) and record the variables it names."""
    expr = next(iter(cast.get_children()), None)
    t = expr.type.get_canonical() if expr is not None else None
    if t is None or t.kind not in _INTEGER_KINDS:
        what = f"type '{expr.type.spelling}'" if expr is not None else "no value"
        prog.error(d.expr_offset, f"the priority expression has {what}; it must be an integer")
        d.valid = False
        return
    lo, hi = d.expr_offset - moved, d.end - moved
    for x in cx.walk_preorder(expr):
        r = x.referenced if x.kind == CK.DECL_REF_EXPR else None
        if r is None or r.kind != CK.VAR_DECL:
            continue
        _, _, _, offset = cx.file_location(x.location)
        written = lo <= offset < hi and x.location.file is not None and \
            os.path.abspath(x.location.file.name) == prog.src.path
        d.expr_refs.append(dirs.VariableRef(offset + moved if written else None, x.spelling,
                                            r.get_usr()))
