"""Which receives (and calls of receiving helpers) a firing rule announces, and why the others
are left out: at run time those wait on their own, which is always correct."""
from __future__ import annotations

from dataclasses import dataclass

from .. import mpi_api
from ..frontend.cx import CK
from ..frontend.model import Function, MPICall, Node, Program
from .completion import IrecvCompletion
from .reproducible import ReproducibilityCheck
from .state import State, StateUpdates


# Receives a rule may announce whole (their windows: analysis/plain_code.py).
WHOLE_RECEIVES = ("MPI_Recv", "MPI_Irecv")


@dataclass
class Decision:
    """Whether one receive (or call of a receiving helper) is in the firing rule."""
    node: Node
    call: MPICall | None = None
    helper: Function | None = None
    included: bool = True
    reason: str | None = None
    # An MPI_Recv or MPI_Irecv whose buffer, count and datatype the rule can also reproduce:
    # it may be announced whole (bamboo_expect_receive) and posted at the evaluation point.
    whole: bool | None = None

    @property
    def what(self) -> str:
        return self.call.name if self.call else f"{self.helper.name}()"


class ReceiveDecisions:
    """One decision per receiving call; a call the walk meets again (in a loop's next round)
    stays left out once it was, with its first reason."""

    def __init__(self, prog: Program, sums: dict, companions: dict, check: ReproducibilityCheck,
                 updates: StateUpdates, completion: IrecvCompletion):
        self.prog = prog
        self.sums = sums
        self.companions = companions    # helper name -> HelperRule, possibly still partial
        self.check = check
        self.updates = updates
        self.completion = completion
        self._by_node: dict = {}        # id(node) -> Decision
        self.order: list = []           # decisions in the order the walk first met them

    def of(self, n: Node) -> Decision | None:
        return self._by_node.get(id(n))

    @property
    def included(self) -> list:
        return [d for d in self.order if d.included]

    @property
    def left_out(self) -> list:
        return [d for d in self.order if not d.included]

    def _record(self, n: Node, included: bool, reason: str | None, call=None, helper=None):
        d = self._by_node.get(id(n))
        if d is None:
            d = Decision(n, call, helper, included, reason)
            self._by_node[id(n)] = d
            self.order.append(d)
        elif d.included and not included:
            d.included, d.reason = False, reason

    def receiving(self, n: Node):
        """(MPICall, None) / (None, helper Function) when the call receives, else None."""
        if n.kind != CK.CALL_EXPR:
            return None
        mc = self.prog.mpi_call(n)
        if mc is not None:
            return (mc, None) if mc.spec.is_receive or mc.spec.collective else None
        fn = self.prog.defined_function(n)
        if fn is not None and self.sums[fn.name].receives:
            return None, fn
        return None

    @staticmethod
    def _common_reason(st: State, guard: str | None) -> str | None:
        if st.cut:
            return f"control may leave before it ({st.cut[1]})"
        if st.blocked:
            return (f"{st.blocked[1]} comes before it in the window (the peer may need that "
                    "message before it sends this one)")
        return guard or None

    def decide(self, n: Node, st: State, guard: str | None):
        rc = self.receiving(n)
        if rc is None:
            return
        mc, helper = rc
        if mc is not None:
            self._decide_mpi(n, mc, st, guard)
        else:
            self._decide_helper(n, helper, st, guard)

    def _decide_mpi(self, n: Node, mc: MPICall, st: State, guard: str | None):
        spec = mc.spec
        if spec.kind == mpi_api.SENDRECV:
            self._record(n, False, "MPI_Sendrecv sends before it receives, so its receive "
                                   "waits on its own", call=mc)
            return
        reason = self._common_reason(st, guard)
        if reason is None:
            roles = (("source", spec.source), ("tag", spec.tag), ("communicator", spec.comm))
            if spec.kind == mpi_api.COLLECTIVE:
                roles = (("root", spec.root), ("operation", spec.op), ("communicator", spec.comm))
            for role, idx in roles:
                if idx is None:
                    continue
                ok, why = self.check.ok(mc.arg(idx), st)
                if not ok:
                    reason = f"its {role} argument {why}"
                    break
        if reason is None and spec.name == "MPI_Irecv" and not self.completion.completed(mc):
            reason = "no MPI_Wait/MPI_Waitall completes it in the region before the next send"
        self._record(n, reason is None, reason, call=mc)
        if reason is None and spec.name in WHOLE_RECEIVES:
            whole = all(self.check.ok(mc.arg(i), st)[0] for i in (spec.buffer, spec.count, spec.datatype))
            d = self._by_node[id(n)]
            # met again in a loop's next round: whole only if whole every time
            d.whole = whole if d.whole is None else d.whole and whole

    def _decide_helper(self, n: Node, helper: Function, st: State, guard: str | None):
        reason = self._common_reason(st, guard)
        h = self.companions.get(helper.name)
        if reason is None and (h is None or not h.possible):
            reason = (f"'{helper.name}' cannot have a firing-rule companion "
                      f"({h.why if h else 'not analysed'})")
        if reason is None and not h.usable_at(n):
            reason = (f"'{helper.name}' is defined in {helper.src.display}, and the firing-rule "
                      "companions of helpers defined in headers follow the #include at line "
                      f"{self.prog.src.line_of(h.written_at - 1)}, below this call")
        if reason is None:
            for a in n.args:
                ok, why = self.check.ok(a, st)
                if not ok:
                    reason = f"its argument '{a.text}' {why}"
                    break
        if reason is None and h.reads_memory and st.memory_changed:
            reason = (f"the messages '{helper.name}' receives depend on memory that "
                      f"{self.updates.dirty_reason(st) or 'the window'} may have changed")
        self._record(n, reason is None, reason, helper=helper)

    def exclude_nested(self, n: Node | None, reason: str, skip=None):
        """Every receiving call inside ``n`` (but ``skip``) is left out."""
        if n is None:
            return
        for c in n.walk():
            if c is skip or c.kind != CK.CALL_EXPR:
                continue
            rc = self.receiving(c)
            if rc is not None:
                mc, helper = rc
                self._record(c, False, reason, call=mc, helper=helper)
