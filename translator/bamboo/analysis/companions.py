"""Firing-rule companions of helper functions: which receiving helpers can have one, and
the analysis of their bodies (a ``SliceAnalysis`` each).  A window's rule (or another
companion) calls ``bamboo_expect_<fn>(args)`` where the code calls ``fn(args)``;
transforms/companions.py writes the companions out.

A helper may be defined in the translated file or in one of the user's headers (not the
system's).  The translator writes only the translated file, so the companion of a header's
helper goes into it, ``static`` (a header included by several files of a program gives each
its own copy, and no symbol clashes at link time), after the line of the #include that
brings the header (all headers' companions together, after the last such #include, so that
they can call each other): everything the helper's code names is declared there.  It must
also mean the same there: a helper whose code names a macro defined after it, or one some
user file #undefs, gets no companion.  Rules can call those companions only below that
line.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..diagnostics import InternalError
from ..frontend import cx
from ..frontend.cx import TK
from ..frontend.model import Function, Node, Program
from .rules import CompanionCall, walk_rules
from .slicer import MAX_STATEMENT_NESTING, SliceAnalysis, statement_nesting_beyond_limit


@dataclass
class HelperRule:
    fn: Function
    possible: bool = True
    why: str = ""                  # why it cannot have a companion
    analysis: SliceAnalysis | None = None
    reads_memory: bool = False     # whether its companion (or one it calls) reads memory
    written_at: int | None = None  # of a header's helper: where in the file its companion goes

    @property
    def name(self):
        return f"bamboo_expect_{self.fn.name}"

    def usable_at(self, call: Node) -> bool:
        """Whether a rule can call the companion at ``call`` (the companions of headers'
        helpers exist only below their place, but for each other)."""
        return self.written_at is None or call.src is not call.prog.src or \
            call.start >= self.written_at


def _old_style_parameters(fn: Function) -> bool:
    """Whether ``fn`` is defined as ``f(a, b) int a; double *b; {...}``: its parameters are
    declared after the parenthesis that closes its identifier list."""
    if not fn.params:
        return False
    _, _, _, name_offset = cx.file_location(fn.cursor.location)
    return ")" in fn.src.blanked[name_offset:fn.params[0].start]


def _why_impossible(prog: Program, fn: Function) -> str:
    t = fn.cursor.type
    if t.kind != TK.FUNCTIONPROTO:
        return "it has no prototype"
    if t.is_function_variadic():
        return "it is variadic"
    if any(not p.spelling for p in fn.params):
        return "it has unnamed parameters"
    if _old_style_parameters(fn):
        return ("it is defined with an old-style (K&R) parameter list, which a companion "
                "cannot copy")
    if statement_nesting_beyond_limit([fn.body]) is not None:
        return f"its statements nest more than {MAX_STATEMENT_NESTING} levels deep"
    if fn.in_header:
        if fn.src.path not in prog.include_lines:
            return f"{fn.src.display} is not brought in by an #include line of this file"
        return _macro_hazard(prog, fn)
    return ""


def _macro_hazard(prog: Program, fn: Function) -> str:
    """Why the code of ``fn`` (a header's helper) could read differently after the #include
    than where it stands, or ''.  It could if a name it spells, or one in the macros it
    expands, is defined as a macro after ``fn``: after the preprocessing record's last entry
    of ``fn``'s header up to ``fn``'s end (or the #include of the header, if none); or if
    such a macro is #undef'd in the user's files."""
    path = fn.src.path
    anchor = max((order for offset, order in prog.header_records.get(path, [])
                  if offset < fn.node.end), default=prog.included_at.get(path, -1))
    pending = [t.spelling for t in fn.cursor.get_tokens()
               if t.kind == cx.ci.TokenKind.IDENTIFIER]
    seen = set()
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        definitions = prog.macro_definitions.get(name, [])
        if any(order > anchor for order, _ in definitions):
            return (f"its code names '{name}', which is defined as a macro after it, so the "
                    "companion, written after the #include of its header, would read it "
                    "differently")
        if definitions and name in prog.undefined_macros:
            return (f"its code uses the macro '{name}', which the program #undefs, so the "
                    "companion, written after the #include of its header, might not see it")
        for _, definition in definitions:
            params, body = cx.macro_parts(definition)
            pending += [t.spelling for t in body if t.kind == cx.ci.TokenKind.IDENTIFIER and
                        t.spelling not in params]
    return ""


def _line_after(prog: Program, offset: int) -> int:
    """Where the line after the (logical) line holding ``offset`` starts."""
    return min(prog.src.logical_line_end(offset) + 1, len(prog.src.text))


def analyse_helpers(prog: Program, sums: dict) -> dict:
    """name -> HelperRule for every function defined in the file, or in the user's headers,
    that receives."""
    helpers = {}
    for fn in prog.function_order + prog.header_functions:
        # C++: a function the analyses do not know by name (Program.known_by_name) is code
        # defined elsewhere
        if prog.functions.get(fn.name) is not fn or not sums[fn.name].receives:
            continue
        why = _why_impossible(prog, fn)
        helpers[fn.name] = HelperRule(fn, possible=not why, why=why)
    # one place for the companions of all headers' helpers, so that they can call each other
    in_headers = [h for h in helpers.values() if h.possible and h.fn.in_header]
    if in_headers:
        written_at = max(_line_after(prog, prog.include_lines[h.fn.src.path])
                         for h in in_headers)
        for h in in_headers:
            h.written_at = written_at
    _settle(prog, sums, helpers)
    return helpers


def _settle(prog: Program, sums: dict, helpers: dict):
    """Analyse the companions until their reads_memory flags are a fixpoint.

    A companion reads memory if its own expressions do (which does not depend on the other
    flags) or if it calls a companion that does.  A call of companion g joins the rule
    unless g reads memory and memory may have changed before the call; so the calls of g
    that count are those where memory did not change, whatever g's flag: the flags are a
    monotone function of each other.  Starting from all false, each round that is not the
    last makes at least one flag true for good (the first round also makes the analyses),
    so with H companions at most H + 2 rounds run.  More would mean a flag went back to
    false: a bug, reported as such."""
    possible = [h for h in helpers.values() if h.possible]
    rounds = len(possible) + 2
    for _ in range(rounds):
        changed = False
        for h in possible:
            a = SliceAnalysis(prog, sums, [h.fn.body], helpers, helper_body=h.fn.body).run()
            reads = a.reads_memory or any(
                isinstance(r, CompanionCall) and helpers[r.helper].reads_memory
                for r in walk_rules(a.rules))
            if h.analysis is None or reads != h.reads_memory:
                changed = True
            h.analysis = a
            h.reads_memory = reads
        if not changed:
            return
    raise InternalError(f"the memory reads of {len(possible)} helper companions did not settle "
                        f"in {rounds} rounds")
