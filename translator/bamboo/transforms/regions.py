"""Olap regions: their send and receive blocks, block reordering, input windows and the
edits that put firing rules at each window.

In a region body (the loop body, or the statement) each send block moves up past the
receive blocks that immediately precede it (never past other statements or another send
block), so that sends leave before the task waits.  Each maximal run of consecutive receive
blocks after that is an input window; its firing rule is inserted right before it, and
``bamboo_fire(BAMBOO_AT)`` stands where the window's first ``receive`` directive was.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .. import mpi_api
from ..frontend import directives as dirs
from ..analysis.summaries import LONG_JUMPS, call_chain_to, is_assignment
from ..frontend.cx import CK, TK
from ..emit.edits import EditBuffer, EditOrder
from ..emit.rule_writers import C_INDENT, CRuleWriter
from ..analysis.slicer import SliceAnalysis
from ..frontend.lvalues import base_variable_node, request_variable
from ..frontend.model import LOOPS, Function, Node, Program
from ..source import LINE_CONTINUATION, NameRewrites

# What makes a receive block one: a call that receives or completes a receive.
_RECEIVING = {mpi_api.RECEIVE, mpi_api.SENDRECV, mpi_api.WAIT, mpi_api.COLLECTIVE}
_NOT_IN_SEND = {mpi_api.RECEIVE: "a receive", mpi_api.SENDRECV: "a receive",
                mpi_api.WAIT: "a wait", mpi_api.PROBE: "a probe", mpi_api.SETUP: "a setup call",
                mpi_api.COLLECTIVE: "a collective"}


@dataclass
class Block:
    kind: str                # 'send' | 'receive'
    directive: object
    stmt: Node

    @property
    def line(self):
        return self.directive.line


@dataclass
class Item:
    stmt: Node
    block: Block | None = None
    directives: list = field(default_factory=list)


@dataclass
class Move:
    send: Block
    passed: list             # receive Blocks it moved past
    dest: Item


@dataclass
class Window:
    blocks: list
    analysis: SliceAnalysis | None = None
    insert_at: int = 0


@dataclass
class Region:
    directive: object
    stmt: Node
    fn: Function
    is_loop: bool
    items: list = field(default_factory=list)
    order: list = field(default_factory=list)
    moves: list = field(default_factory=list)
    windows: list = field(default_factory=list)

    @property
    def blocks(self):
        return [it.block for it in self.items if it.block is not None]


class RegionBuilder:
    def __init__(self, prog: Program, sums: dict, helpers: dict, rewrites: NameRewrites):
        self.prog = prog
        self.sums = sums
        self.helpers = helpers
        self.rewrites = rewrites
        self.regions: list[Region] = []

    # -- structure ------------------------------------------------------------------------------
    def run(self):
        prog = self.prog
        stmt_dirs = {}
        for d in prog.directives:
            if d.kind and d.stmt is not None:
                stmt_dirs.setdefault(id(d.stmt), []).append(d)
        nested = []   # regions inside another one: reported, their blocks not orphans
        for d in prog.directives:
            if d.kind != dirs.OLAP or d.stmt is None:
                continue
            same = next((r for r in self.regions if r.stmt is d.stmt), None)
            if same is not None:
                prog.error(d.start, "duplicate olap directive: the statement after it is already "
                                    f"an olap region (directive at line {same.directive.line}); "
                                    "remove one of them")
                continue
            region = self._region(d, stmt_dirs)
            outer = next((r for r in self.regions
                          if any(a is r.stmt for a in d.stmt.ancestors())), None)
            if outer is not None:
                prog.error(d.start, "an olap region cannot be nested inside another olap region "
                                    f"(the region at line {outer.directive.line}); remove one "
                                    "of the two directives")
                nested.append(region)
                continue
            self.regions.append(region)
        # every send/receive directive must be a block of some region
        owned = {id(x) for r in self.regions + nested for it in r.items for x in it.directives}
        orphans = []
        for d in prog.directives:
            if d.kind in (dirs.SEND, dirs.RECEIVE) and id(d) not in owned and d.stmt is not None:
                orphans.append(d)
                prog.error(d.start, f"a {d.kind} block must be directly inside an olap region "
                                    "(a statement of the region's body)")
        reported_inside = orphans + [r.directive for r in nested]
        for r in self.regions:
            self._check_entries(r)
            if not r.blocks:
                if not any(r.stmt.start <= d.start < r.stmt.end for d in reported_inside):
                    prog.error(r.directive.start, "an olap region must contain at least one "
                                                  "send or receive block")
                continue
            for b in r.blocks:
                if b.kind == dirs.SEND:
                    self._check_send_block(b)
                else:
                    self._check_receive_block(b)
            self._reorder(r)
            self._windows(r)
        return self

    def _region(self, d, stmt_dirs) -> Region:
        stmt = d.stmt
        fn = next((self.prog.functions[a.spelling] for a in stmt.ancestors()
                   if a.kind == CK.FUNCTION_DECL), None)
        is_loop = stmt.kind in LOOPS
        if is_loop:
            if stmt.kind == CK.FOR_STMT:
                body = stmt.for_parts()[3]
            elif stmt.kind == CK.WHILE_STMT:
                body = stmt.children[1]
            else:
                body = stmt.children[0]
            stmts = body.children if body.kind == CK.COMPOUND_STMT else [body]
        elif stmt.kind == CK.COMPOUND_STMT and not any(
                x.kind in (dirs.SEND, dirs.RECEIVE) for x in stmt_dirs.get(id(stmt), [])):
            stmts = stmt.children
        else:
            stmts = [stmt]
        r = Region(d, stmt, fn, is_loop)
        for s in stmts:
            it = Item(s, None, stmt_dirs.get(id(s), []))
            blocks = [x for x in it.directives if x.kind in (dirs.SEND, dirs.RECEIVE)]
            if len(blocks) > 1:
                self.prog.error(blocks[1].start, "a statement can be only one send or receive "
                                                 "block")
            if blocks:
                it.block = Block(blocks[0].kind, blocks[0], s)
            r.items.append(it)
        return r

    # -- checks -----------------------------------------------------------------------------------
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

    def _check_send_block(self, b: Block):
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
                what = f"{call.name} at line {call.node.line}" if call else "MPI"
                prog.error(n.start, f"send block calls {fn.name}(), which does not only send "
                                    f"({via}: {what}); a send block holds sends only")

    def _check_receive_block(self, b: Block):
        """A receive block receives (what its window's firing rule is about), and is left
        only at its end: a long jump would skip the receives its rule announced."""
        prog = self.prog
        receives = False
        for n in b.stmt.walk():
            if n.kind != CK.CALL_EXPR:
                continue
            mc = prog.mpi_call(n)
            fn = prog.defined_function(n)
            if n.callee_name in LONG_JUMPS:
                prog.error(n.start, f"receive block calls {n.callee_name}(); a receive block must "
                                    "run to its end, since its firing rule announced the "
                                    "messages it receives (jump after the block instead)")
            elif fn is not None and self.sums[fn.name].long_jump is not None:
                jump = self.sums[fn.name].long_jump
                prog.error(n.start, f"receive block calls {fn.name}(), which may leave the block "
                                    f"with {jump.callee_name}() (line {jump.line}); a receive "
                                    "block must run to its end, since its firing rule announced "
                                    "the messages it receives")
            if mc is not None:
                receives |= mc.spec.kind in _RECEIVING
            elif fn is not None:
                s = self.sums[fn.name]
                receives |= bool(s.mpi_kinds & _RECEIVING or s.calls_unknown)
            else:  # code defined elsewhere may receive
                receives |= n.callee_name is None or not prog.function_is_quiet(n.callee_name)
        if not receives:
            prog.error(b.directive.start, "receive block contains no receive (MPI_Recv, "
                                          "MPI_Irecv, MPI_Sendrecv, a wait or a collective, "
                                          "directly or in a function it calls); put the receives "
                                          "of this window in it, or remove the directive")

    def _check_entries(self, r: Region):
        """A region is entered at its start only: no goto from outside it to a label in it,
        no case label in it of a switch outside it."""
        prog = self.prog
        inside = {id(n) for n in r.stmt.walk()}
        labels = {}   # start offset -> LABEL_STMT in the region
        for n in r.stmt.walk():
            if n.kind == CK.LABEL_STMT:
                labels[n.start] = n
            elif n.kind in (CK.CASE_STMT, CK.DEFAULT_STMT):
                switch = next((a for a in n.ancestors() if a.kind == CK.SWITCH_STMT), None)
                if switch is not None and id(switch) not in inside:
                    word = "case" if n.kind == CK.CASE_STMT else "default"
                    prog.error(n.start, f"'{word}' label of the switch at line {switch.line} "
                                        f"stands inside the olap region at line "
                                        f"{r.directive.line}: the switch would jump into the "
                                        "region, which is entered at its start only; keep the "
                                        "region within one case")
        if not labels or r.fn is None:
            return
        for n in r.fn.body.walk():
            if id(n) in inside or n.kind not in (CK.GOTO_STMT, CK.ADDR_LABEL_EXPR):
                continue
            target = next((c.ref for c in n.children if c.kind == CK.LABEL_REF), None)
            label = labels.get(target.extent.start.offset) if target is not None else None
            if label is None:
                continue
            what = (f"'goto {label.spelling}' jumps" if n.kind == CK.GOTO_STMT else
                    f"'&&{label.spelling}' lets a computed goto jump")
            prog.error(n.start, f"{what} into the olap region at line {r.directive.line} (label "
                                f"at line {label.line}); a region is entered at its start only: "
                                "put the label before the '#pragma bamboo olap' line")

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
    def _reorder(self, r: Region):
        order = []
        for it in r.items:
            if it.block is not None and it.block.kind == dirs.SEND:
                j = len(order)
                while j > 0 and order[j - 1].block is not None and order[j - 1].block.kind == dirs.RECEIVE:
                    j -= 1
                passed = order[j:]
                if passed:
                    r.moves.append(Move(it.block, [p.block for p in passed], passed[0]))
                    self._check_move(it.block, [p.block for p in passed])
                order.insert(j, it)
            else:
                order.append(it)
        r.order = order

    def _check_move(self, send: Block, passed: list):
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

    # -- windows -------------------------------------------------------------------------------
    def _windows(self, r: Region):
        run = []
        sequence = [it.stmt for it in r.order]
        for it in r.order + [None]:
            if it is not None and it.block is not None and it.block.kind == dirs.RECEIVE:
                run.append(it)
                continue
            if run:
                w = Window([x.block for x in run])
                w.analysis = SliceAnalysis(self.prog, self.sums, [x.stmt for x in run],
                                           self.helpers, sequence=sequence).run()
                w.insert_at = self._item_start(run[0])
                r.windows.append(w)
                run = []

    # -- edits -----------------------------------------------------------------------------------
    def _item_start(self, it: Item) -> int:
        src = self.prog.src
        starts = [d.start for d in it.directives] + [it.stmt.start]
        return src.line_start(min(starts))

    def _unit(self, b: Block):
        src = self.prog.src
        start = src.line_start(b.directive.start)
        end = b.stmt.stmt_end()
        if src.only_space_after(end):
            end = min(len(src.text), src.line_end(end) + 1)
        return start, end

    def _needs_braces(self, stmt: Node) -> bool:
        p = stmt.parent
        return p is not None and p.kind != CK.COMPOUND_STMT

    def apply(self, buf: EditBuffer):
        prog = self.prog
        src = prog.src
        handled = set()
        for r in self.regions:
            moved = {id(m.send): m for m in r.moves}
            first_of_window = {id(w.blocks[0]): w for w in r.windows}
            for it in r.items:
                b = it.block
                if b is None:
                    continue
                d = b.directive
                handled.add(id(d))
                if b.kind == dirs.SEND:
                    m = moved.get(id(b))
                    note = (f" (moved before the receive block at line {m.passed[0].line}: sends "
                            "leave before the task waits)") if m else ""
                    self._replace_directive(buf, d, f"/* bamboo: send block{note} */")
                    if m:
                        s, e = self._unit(b)
                        buf.move(s, e, self._item_start(m.dest))
                else:
                    w = first_of_window.get(id(b))
                    if w is None:
                        self._replace_directive(buf, d, "/* bamboo: receive block */")
                        continue
                    self._replace_directive(
                        buf, d, "bamboo_fire(BAMBOO_AT);  /* bamboo: evaluation point: wait for "
                                "the messages announced above; receive block */"
                        if w.analysis.rules else
                        "bamboo_fire(BAMBOO_AT);  /* bamboo: evaluation point; receive block */")
                    indent = src.indent_at(it.stmt.start)
                    text = self._window_c(w.analysis, indent)
                    wrap = self._needs_braces(it.stmt)
                    if wrap:
                        buf.insert(w.insert_at, "{ ", EditOrder.OPEN_BRACE)
                        buf.insert(it.stmt.stmt_end(), " }", EditOrder.CLOSE_BRACE)
                    if text:
                        buf.insert(w.insert_at, text, EditOrder.FIRING_RULE)
            d = r.directive
            handled.add(id(d))
            what = ("olap region: each iteration is an evaluation point" if r.is_loop
                    else "olap region: one evaluation point")
            if r.directive.layouts:
                what += "; layout " + ", ".join(str(l) for l in r.directive.layouts)
            self._replace_directive(buf, d, f"/* bamboo: {what} */")
        for d in prog.directives:
            if id(d) in handled:
                continue
            if d.kind == dirs.DIMENSION:
                self._replace_directive(buf, d, f"/* bamboo: dimension {d.dimension} */")
            elif d.kind == dirs.PRIORITY and d.valid and d.stmt is not None:
                expr = self._priority_expr(d)
                wrap = self._needs_braces(d.stmt)
                self._replace_directive(buf, d, ("{ " if wrap else "") +
                                        f"bamboo_set_priority(({expr}));  /* bamboo: priority */")
                if wrap:
                    buf.insert(d.stmt.stmt_end(), " }", EditOrder.CLOSE_BRACE)
            elif d.kind in (dirs.SEND, dirs.RECEIVE, dirs.OLAP):
                self._replace_directive(buf, d, f"/* bamboo: {d.kind} (ignored) */")

    def _priority_expr(self, d) -> str:
        """The expression as written, on one line, privatized variables rewritten."""
        return LINE_CONTINUATION.sub(" ", self.rewrites.text(d.expr_offset, d.end))

    def _window_c(self, analysis: SliceAnalysis, indent: str) -> str:
        """The C text inserted before an input window (empty if nothing is expected)."""
        if not analysis.rules:
            return ""
        lines = [f"{indent}/* bamboo: firing rule of the receive blocks below: announce every "
                 "message they will take (evaluated without side effects) */",
                 f"{indent}{{"]
        inner = indent + C_INDENT
        copies = [name for name, copy in analysis.shadows if copy]
        if copies:
            for name in copies:
                lines.append(f"{inner}__typeof__({name}) bamboo_saved_{name} = {name};")
            lines.append(f"{inner}{{")
            inner += C_INDENT
        for name, copy in analysis.shadows:
            init = f" = bamboo_saved_{name}" if copy else ""
            lines.append(f"{inner}__typeof__({name}) {name}{init};  /* bamboo: the rule's own "
                         "copy */")
        lines += CRuleWriter(self.rewrites).lines(analysis.rules, inner)
        if copies:
            lines.append(f"{indent}{C_INDENT}}}")
        lines.append(f"{indent}}}")
        return "\n".join(lines) + "\n"

    def _replace_directive(self, buf, d, text):
        buf.replace(d.start, d.end, text + "\n" * (d.lines - 1))
