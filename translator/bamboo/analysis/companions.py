"""Firing-rule companions of helper functions: which receiving helpers can have one, and
the analysis of their bodies (a ``SliceAnalysis`` each).  A window's rule (or another
companion) calls ``bamboo_expect_<fn>(args)`` where the code calls ``fn(args)``;
transforms/companions.py writes the companions out."""
from __future__ import annotations

from dataclasses import dataclass

from ..diagnostics import InternalError
from ..frontend import cx
from ..frontend.cx import TK
from ..frontend.model import Function, Program
from .rules import CompanionCall, walk_rules
from .slicer import MAX_STATEMENT_NESTING, SliceAnalysis, statement_nesting_beyond_limit


@dataclass
class HelperRule:
    fn: Function
    possible: bool = True
    why: str = ""                  # why it cannot have a companion
    analysis: SliceAnalysis | None = None
    reads_memory: bool = False     # whether its companion (or one it calls) reads memory

    @property
    def name(self):
        return f"bamboo_expect_{self.fn.name}"


def _old_style_parameters(prog: Program, fn: Function) -> bool:
    """Whether ``fn`` is defined as ``f(a, b) int a; double *b; {...}``: its parameters are
    declared after the parenthesis that closes its identifier list."""
    if not fn.params:
        return False
    _, _, _, name_offset = cx.file_location(fn.cursor.location)
    return ")" in prog.src.blanked[name_offset:fn.params[0].start]


def _why_impossible(prog: Program, fn: Function) -> str:
    t = fn.cursor.type
    if t.kind != TK.FUNCTIONPROTO:
        return "it has no prototype"
    if t.is_function_variadic():
        return "it is variadic"
    if any(not p.spelling for p in fn.params):
        return "it has unnamed parameters"
    if _old_style_parameters(prog, fn):
        return ("it is defined with an old-style (K&R) parameter list, which a companion "
                "cannot copy")
    if statement_nesting_beyond_limit([fn.body]) is not None:
        return f"its statements nest more than {MAX_STATEMENT_NESTING} levels deep"
    return ""


def analyse_helpers(prog: Program, sums: dict) -> dict:
    """name -> HelperRule for every function defined in the file that receives."""
    helpers = {}
    for fn in prog.function_order:
        if not sums[fn.name].receives:
            continue
        why = _why_impossible(prog, fn)
        helpers[fn.name] = HelperRule(fn, possible=not why, why=why)
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
