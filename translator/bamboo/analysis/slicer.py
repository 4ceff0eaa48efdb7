"""Firing rules: which messages an input window will take, computed without side effects.

A firing rule is a *slice* of the window's code: the control structure that leads to the
receives, the assignments the kept conditions and the receives' (source, tag, comm) depend
on, and one ``bamboo_expect(source, tag, comm)`` per receive.  The slice runs at the
evaluation point with the task's current values; variables it writes are shadowed.

Soundness comes first: the rule must never expect a message the code will not receive.  A
receive whose guard or arguments are not reproducible at its point is *left out* of the
rule (it then waits on its own at run time, which is always correct) with a reason.

``SliceAnalysis`` runs the parts in order:

1. dataflow.py walks the statements in execution order over the abstract state
   (state.py, effects.py), checks expressions (reproducible.py), decides receive by
   receive (decisions.py, completion.py for MPI_Irecv) and marks what the rule can redo;
2. rule_builder.py slices the statements down to the rule tree (rules.py);
3. shadows.py lists the variables the rule needs its own copies of (windows only).

Helper functions that receive get a companion ``bamboo_expect_<fn>()`` built by the same
analysis over their body (companions.py).
"""
from __future__ import annotations

from ..frontend.cx import CK
from ..frontend.model import LOOPS, MPICall, Node, Program
from .dataflow import StatementWalk
from .decisions import WHOLE_RECEIVES
from .plain_code import makes_only, through_last_call
from .rule_builder import RuleBuilder
from .shadows import shadow_copies

# The analysis and the rule tree recurse once per level of statement nesting (a label does
# not count); beyond this many levels (clang's own limit for brackets) a window gets no
# rule and a helper no companion, so that Python's recursion limit is never reached.
MAX_STATEMENT_NESTING = 256
# The calls of a window whose receives are announced whole.
WINDOW_CALLS = WHOLE_RECEIVES + ("MPI_Wait", "MPI_Waitall")


def _in_window(mc: MPICall) -> bool:
    return mc.spec.name in WINDOW_CALLS


_NESTING = {CK.COMPOUND_STMT, CK.IF_STMT, CK.SWITCH_STMT} | LOOPS


def statement_nesting_beyond_limit(statements) -> Node | None:
    """The first statement nested more than MAX_STATEMENT_NESTING levels deep in
    ``statements``, if any."""
    pending = [(n, 0) for n in statements]
    while pending:
        n, depth = pending.pop()
        if n.kind in _NESTING:
            depth += 1
            if depth > MAX_STATEMENT_NESTING:
                return n
        pending.extend((c, depth) for c in n.children if not c.is_expr)
    return None


class SliceAnalysis:
    """The firing rule of a window, or of a helper's body.

    ``statements``: the window's statements in execution order (for a helper: [its body]).
    ``companions``: helper name -> HelperRule, for the calls of receiving helpers.
    ``sequence``: for a window, the region body's statements after block reordering (where
    the MPI_Wait completing an MPI_Irecv may be); ``helper_body``: for a helper, its body.
    """

    def __init__(self, prog: Program, sums: dict, statements: list, companions: dict,
                 sequence: list | None = None, helper_body: Node | None = None):
        self.prog = prog
        self.sums = sums
        self.statements = statements
        self.companions = companions
        self.sequence = sequence
        self.helper_body = helper_body
        self.included: list = []        # Decisions of the announced receives
        self.left_out: list = []        # ... and of those that wait on their own
        self.rules: list = []
        self.reads: set = set()         # keys of the variables the rule reads
        self.shadows: list = []         # [(name, needs the task's value)]
        self.reads_memory = False       # whether the rule reads memory (for companions)

    def run(self):
        too_deep = statement_nesting_beyond_limit(self.statements)
        if too_deep is not None:
            self.prog.note(too_deep.start, f"statements nest more than {MAX_STATEMENT_NESTING} "
                                           "levels deep here: the firing rule of this window is "
                                           "left empty, and its receives wait on their own")
            return self
        in_helper = self.helper_body is not None
        walk = StatementWalk(self.prog, self.sums, self.companions, self.sequence,
                             self.helper_body)
        walk.run(self.statements)
        self.included = walk.decisions.included
        self.left_out = walk.decisions.left_out
        self.reads_memory = walk.check.reads_memory
        builder = RuleBuilder(self.prog, walk.decisions, walk.reproduced, in_helper,
                              whole=not in_helper and self._receives_whole(walk.decisions))
        self.rules = builder.build(self.statements)
        self.reads = builder.reads
        if not in_helper:
            self.shadows = shadow_copies(self.prog, self.statements, self.rules, builder.writes)
        return self

    def _receives_whole(self, decisions) -> bool:
        """Whether the window's receives may be announced whole and posted at the evaluation
        point: the rule announces every one of them, with its buffer, and up to its last receive
        or wait the window holds nothing else that could read or write those buffers (what the
        calls' own arguments read is checked at run time: each call must name the receive
        announced for it; what follows runs once they are all complete)."""
        return bool(decisions.included) and not decisions.left_out and \
            all(d.whole for d in decisions.included) and \
            makes_only(self.prog, through_last_call(self.prog, self.statements, _in_window), _in_window,
                       reads_memory=False)
