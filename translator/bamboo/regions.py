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

from . import directives as dirs, mpi_api
from .analysis import call_chain_to, is_assignment
from .cx import CK, TK
from .edits import EditBuffer
from .firing_rule import WINDOW, SliceAnalysis, window_c
from .frontend import _base_var_node, request_variable
from .model import LOOPS, Function, Node, Program

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
    def __init__(self, prog: Program, sums: dict, helpers: dict, rewrites: dict,
                 private_names: dict | None = None):
        self.prog = prog
        self.sums = sums
        self.helpers = helpers
        self.rewrites = rewrites
        self.private_names = private_names or {}
        self.regions: list[Region] = []

    # -- structure ------------------------------------------------------------------------------
    def run(self):
        prog = self.prog
        stmt_dirs = {}
        for d in prog.directives:
            if d.kind and d.stmt is not None:
                stmt_dirs.setdefault(id(d.stmt), []).append(d)
        for d in prog.directives:
            if d.kind == dirs.OLAP and d.stmt is not None:
                self.regions.append(self._region(d, stmt_dirs))
        # every send/receive directive must be a block of some region
        owned = {id(x) for r in self.regions for it in r.items for x in it.directives}
        orphans = []
        for d in prog.directives:
            if d.kind in (dirs.SEND, dirs.RECEIVE) and id(d) not in owned and d.stmt is not None:
                orphans.append(d)
                prog.error(d.start, f"a {d.kind} block must be directly inside an olap region "
                                    "(a statement of the region's body)")
        for r in self.regions:
            if not r.blocks:
                if not any(r.stmt.start <= d.start < r.stmt.end for d in orphans):
                    prog.error(r.directive.start, "an olap region must contain at least one "
                                                  "send or receive block")
                continue
            for b in r.blocks:
                if b.kind == dirs.SEND:
                    self._check_send_block(b)
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

    def _writes(self, stmt: Node) -> dict:
        """Variables a receive block writes: key -> description."""
        prog = self.prog
        out = {}

        def base_key(arg):
            if arg is None:
                return None
            a = arg.strip()
            if a.kind == CK.UNARY_OPERATOR and a.op == "&":
                a = a.children[0]
            b = _base_var_node(a)
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
        pending = []
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
                w.analysis = SliceAnalysis(self.prog, r.fn, self.sums, WINDOW,
                                           [x.stmt for x in run], self.rewrites, self.helpers,
                                           sequence=sequence).run()
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
                        buf.move(s, e, self._item_start(m.dest), order=0)
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
                    text = window_c(w.analysis, indent)
                    wrap = self._needs_braces(it.stmt)
                    if wrap:
                        buf.insert(w.insert_at, "{ ", order=-100)
                        buf.insert(it.stmt.stmt_end(), " }", order=100)
                    if text:
                        buf.insert(w.insert_at, text, order=10)
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
                    buf.insert(d.stmt.stmt_end(), " }", order=100)
            elif d.kind in (dirs.SEND, dirs.RECEIVE, dirs.OLAP):
                self._replace_directive(buf, d, f"/* bamboo: {d.kind} (ignored) */")

    def _priority_expr(self, d) -> str:
        import re
        fn = next((a for a in d.stmt.ancestors() if a.kind == CK.FUNCTION_DECL), None)
        fninfo = self.prog.functions.get(fn.spelling) if fn is not None else None
        local_names = {v.name for v in fninfo.vars.values()} if fninfo else set()

        def sub(m):
            name = m.group(0)
            pv = self.private_names.get((fninfo.name if fninfo else None, name)) or \
                self.private_names.get((None, name))
            if pv is not None and (name not in local_names or pv.linkage == "local"):
                return f"BAMBOO_PRIVATE({pv.mangled})"
            return name
        return re.sub(r"\b[A-Za-z_][A-Za-z0-9_]*\b", sub, d.expr)

    def _replace_directive(self, buf, d, text):
        buf.replace(d.start, d.end, text + "\n" * (d.lines - 1))
