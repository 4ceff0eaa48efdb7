"""Block reordering: in a region body each send block moves up past the receive blocks that
immediately precede it (never past other statements or another send block, and blocks of
one kind keep their order), so that a task's messages leave before it waits.

Every send block is bracketed by bamboo_send_block_begin() and bamboo_send_block_end(): the
runtime may then hold its messages for one process back and send them as one. A moved block
that only sends opens with bamboo_send_block_begin_lending() instead: nothing runs between it
and the firing rule (evaluated without side effects) that could touch its send buffers, so
its blocking sends to tasks of the same process may lend their buffers until the evaluation
point, and the data is copied once, not twice.

Checked first: a send block holds sends only, and reads nothing a receive block it moves
past writes or declares (the send would otherwise use data not yet received, or a name the
receive block means differently).
"""
from __future__ import annotations

from .. import mpi_api
from ..analysis.plain_code import makes_only
from ..analysis.region_plans import RegionPlan
from ..analysis.regions import Block
from ..analysis.summaries import call_chain_to, is_assignment
from ..emit.edits import EditBuffer, EditOrder
from ..frontend import directives as dirs
from ..frontend.cx import CK, TK
from ..frontend.lvalues import base_variable_node, request_variable
from ..frontend.model import Node
from .base import BlockTransformation, replace_directive

# MPI calls a send block must not make, as the error names them.
_NOT_IN_SEND = {mpi_api.RECEIVE: "a receive", mpi_api.SENDRECV: "a receive",
                mpi_api.WAIT: "a wait", mpi_api.PROBE: "a probe", mpi_api.SETUP: "a setup call",
                mpi_api.COLLECTIVE: "a collective"}


class ReorderBlocks(BlockTransformation):
    kind = dirs.SEND

    def apply(self, buf: EditBuffer):
        for p in self.plans:
            moved = {id(m.send): m for m in p.moves}
            lending = self._lending(p)
            for b in p.region.blocks_of(dirs.SEND):
                m = moved.get(id(b))
                unit = self._unit(b) if m is not None else None
                bracket = self._bracket(b, unit, id(b) in lending)
                if m is None:
                    replace_directive(buf, b.directive, "/* bamboo: send block */" + bracket)
                else:
                    replace_directive(buf, b.directive, "/* bamboo: send block (moved before the "
                                      f"receive block at line {m.passed[0].line}: sends leave before "
                                      "the task waits) */" + bracket)
                    buf.move(*unit, m.dest.line_start)
                if bracket:
                    buf.insert(self._end_offset(b), " bamboo_send_block_end();", EditOrder.SEND_BLOCK_END)

    def _end_offset(self, b: Block) -> int:
        """Where the block's bamboo_send_block_end() goes: before a compound statement's
        closing brace, else after the statement."""
        end = b.stmt.stmt_end()
        return end - 1 if b.stmt.kind == CK.COMPOUND_STMT else end

    def _bracket(self, b: Block, unit, lending: bool) -> str:
        """The call that opens the send block, or nothing where its end could not go with it
        (a moved single statement with more code after it on its line)."""
        if unit is not None and self._end_offset(b) >= unit[1]:
            return ""
        return " bamboo_send_block_begin_lending();" if lending else " bamboo_send_block_begin();"

    def _lending(self, p: RegionPlan) -> set:
        """The send blocks (ids) that only send and, after reordering, are followed by nothing
        but such blocks up to an input window: nothing the task runs from their sends to the
        window's evaluation point can change what they send."""
        lending, run = set(), []
        for it in p.order:
            b = it.block
            if b is not None and b.kind == dirs.SEND and \
                    makes_only(self.prog, [b.stmt], lambda mc: mc.spec.kind == mpi_api.SEND):
                run.append(id(b))
                continue
            if b is not None and b.kind == dirs.RECEIVE:
                lending.update(run)
            run = []
        return lending

    def _own_send_requests(self, b: Block) -> set:
        """Request variables that only this send block's MPI_Isends fill: a wait on them
        completes its own sends, which never depend on a peer (sends are buffered)."""
        prog = self.prog
        in_block = {id(n) for n in b.stmt.walk()}
        own, foreign = set(), set()
        for mc in prog.mpi_calls:
            v = request_variable(prog, mc.arg(mc.spec.request))
            if v is None or mc.spec.kind == mpi_api.WAIT:
                continue
            if mc.spec.kind == mpi_api.SEND and id(mc.node) in in_block:
                own.add(v.key)
            else:
                foreign.add(v.key)
        return own - foreign

    def check_block(self, b: Block):
        prog = self.prog
        own_requests = self._own_send_requests(b)
        for n in b.stmt.walk():
            if n.kind != CK.CALL_EXPR:
                continue
            mc = prog.mpi_call(n)
            if mc is not None:
                if mc.spec.name in ("MPI_Wait", "MPI_Waitall"):
                    v = request_variable(prog, mc.arg(mc.spec.request))
                    if v is not None and v.key in own_requests:
                        continue
                what = _NOT_IN_SEND.get(mc.spec.kind)
                if what:
                    prog.error(n.start, f"send block contains {mc.name}, {what}; a send block "
                                        "holds sends only (move it to a receive block)")
                continue
            fn = prog.defined_function(n)
            if fn is None:
                continue
            bad = self.sums[fn.name].mpi_kinds & set(_NOT_IN_SEND)
            if bad:
                chain, call = call_chain_to(prog, self.sums, fn.name, bad)
                via = " -> ".join(f"{c}()" for c in chain)
                what = f"{call.name} at {prog.line_ref(call.node)}" if call else "MPI"
                prog.error(n.start, f"send block calls {fn.name}(), which does not only send "
                                    f"({via}: {what}); a send block holds sends only")


    def _writes(self, stmt: Node) -> dict:
        """Variables a receive block writes (or, being a declaration, declares): key ->
        description."""
        prog = self.prog
        out = {}
        if stmt.kind == CK.DECL_STMT:  # its variables do not exist before it
            for vd in stmt.children:
                v = prog.var(vd.cursor) if vd.kind == CK.VAR_DECL else None
                if v is not None:
                    out[v.key] = (v.name, "declares")

        def base_key(arg):
            if arg is None:
                return None
            a = arg.strip()
            if a.kind == CK.UNARY_OPERATOR and a.op == "&":
                a = a.children[0]
            b = base_variable_node(a)
            if b is None:
                s = a.strip()
                while s.kind in (CK.ARRAY_SUBSCRIPT_EXPR, CK.MEMBER_REF_EXPR, CK.UNARY_OPERATOR,
                                 CK.BINARY_OPERATOR, CK.CSTYLE_CAST_EXPR) and s.children:
                    s = s.children[0].strip()
                b = s if s.kind == CK.DECL_REF_EXPR else None
            return prog.var_of_ref(b) if b is not None else None

        for n in stmt.walk():
            if is_assignment(n):
                # a variable assigned as a whole (stores into array elements or through
                # pointers are not assignments of a variable: the send may read other parts)
                t = n.children[0].strip()
                while t.kind == CK.MEMBER_REF_EXPR and t.children and \
                        t.children[0].strip().type.get_canonical().kind == TK.RECORD:
                    t = t.children[0].strip()
                v = prog.var_of_ref(t) if t.kind == CK.DECL_REF_EXPR else None
                if v is not None:
                    out.setdefault(v.key, (v.name, "assigns"))
            elif n.kind == CK.CALL_EXPR:
                mc = prog.mpi_call(n)
                if mc is not None:
                    idx = list(mc.spec.outputs) + [i for i in (mc.spec.status, mc.spec.request)
                                                   if i is not None]
                    if mc.spec.is_receive:
                        idx.append(mc.spec.buffer)
                    for i in idx:
                        v = base_key(mc.arg(i))
                        if v is not None:
                            out.setdefault(v.key, (v.name, "receives into" if i == mc.spec.buffer
                                                   else "writes"))
                    continue
                for a in n.args:
                    t = a.strip()
                    if t.type.get_canonical().kind == TK.POINTER or (
                            t.kind == CK.UNARY_OPERATOR and t.op == "&"):
                        v = base_key(t)
                        if v is not None:
                            out.setdefault(v.key, (v.name, "passes for writing"))
        return out

    def _exposed_reads(self, stmt: Node) -> list:
        """(var key, Node) for reads in ``stmt`` not preceded by a plain assignment."""
        prog = self.prog
        killed = set()
        seen = set()
        out = []
        lhs_ids = set()
        for n in stmt.walk():
            if n.kind == CK.BINARY_OPERATOR and n.op == "=":
                t = n.children[0].strip()
                if t.kind == CK.DECL_REF_EXPR:
                    lhs_ids.add(id(t))
        # walk in source order; a plain assignment kills the variable for later reads
        for n in sorted(stmt.walk(), key=lambda x: x.start):
            if n.kind != CK.DECL_REF_EXPR:
                continue
            v = prog.var_of_ref(n)
            if v is None:
                continue
            if id(n) in lhs_ids:
                killed.add(v.key)
                continue
            if v.key in killed or v.key in seen:
                continue
            seen.add(v.key)
            out.append((v.key, n))
        return out

    # -- reordering ---------------------------------------------------------------------------
    def check_plan(self, p: RegionPlan):
        """Each move the plan has (analysis/region_plans.py)."""
        for m in p.moves:
            self._check_move(m.send, m.passed)

    def _check_move(self, send: Block, passed: list):
        src = self.prog.src
        d = send.directive
        if d.operator and src.text[src.line_start(d.start):d.start].strip():
            self.prog.error(d.start, "this send block moves before the receive block at line "
                            f"{passed[0].line}, with the lines it stands on, and other code stands "
                            "on its first line: write `#pragma bamboo send` on a line of its own")
            return
        declared = {vd.spelling for vd in send.stmt.children if vd.kind == CK.VAR_DECL} \
            if send.stmt.kind == CK.DECL_STMT else set()
        for rb in passed:
            hidden = next((n for n in rb.stmt.walk() if n.kind == CK.DECL_REF_EXPR and
                           n.spelling in declared), None)
            if hidden is not None:
                self.prog.error(hidden.start,
                                f"receive block uses '{hidden.spelling}', which the send block "
                                f"at line {send.line} declares anew; the send block moves before "
                                "this receive block, where its declaration would hide the "
                                f"'{hidden.spelling}' meant here: rename one of them")
                return
        reads = self._exposed_reads(send.stmt)
        for rb in passed:
            w = self._writes(rb.stmt)
            for key, node in reads:
                if key in w:
                    name, how = w[key]
                    self.prog.error(node.start,
                                    f"send block reads '{name}', which the receive block at line "
                                    f"{rb.line} {how}; the send block moves before that receive "
                                    "block, and a send that uses received data belongs in a "
                                    "receive block")
                    return

    def _unit(self, b: Block):
        """The lines a moved send block takes along: from its directive's line to the end of
        its statement (and that line's end, when nothing else stands on it)."""
        src = self.prog.src
        start = src.line_start(b.directive.start)
        end = b.stmt.stmt_end()
        if src.only_space_after(end):
            end = min(len(src.text), src.line_end(end) + 1)
        return start, end

