"""Olap regions and their send and receive blocks, as the directives lay them out, with the
checks of that layout: blocks stand directly in a region, regions do not nest, a region
holds a block and is entered at its start only.

A region's body is the loop body (each iteration is an evaluation point) or the statement;
its *items* are the body's statements, some of them blocks.  What is done to a region (the
order after moving send blocks, the input windows with their firing rules) is planned from it
in analysis/region_plans.py; a Region is not changed once found.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..frontend import directives as dirs
from ..frontend.cx import CK
from ..frontend.model import LOOPS, Function, Node, Program


@dataclass(frozen=True, eq=False)
class Block:
    kind: str                # 'send' | 'receive'
    directive: object
    stmt: Node

    @property
    def line(self):
        return self.directive.line


@dataclass(frozen=True, eq=False)
class Item:
    """A statement of a region's body, with the directives before it."""
    stmt: Node
    block: Block | None = None
    directives: tuple = ()

    @property
    def line_start(self) -> int:
        """Where the item's first line (its first directive's, if any) starts."""
        src = self.stmt.prog.src
        return src.line_start(min([d.start for d in self.directives] + [self.stmt.start]))


@dataclass(frozen=True, eq=False)
class Region:
    directive: object
    stmt: Node
    fn: Function
    is_loop: bool
    items: tuple = ()

    @property
    def blocks(self):
        return [it.block for it in self.items if it.block is not None]

    def blocks_of(self, kind: str) -> list:
        """The send or the receive blocks, in order."""
        return [b for b in self.blocks if b.kind == kind]


def _body_statements(stmt: Node, stmt_dirs: dict) -> list:
    if stmt.kind in LOOPS:
        if stmt.kind == CK.FOR_STMT:
            body = stmt.for_parts()[3]
        elif stmt.kind == CK.WHILE_STMT:
            body = stmt.children[1]
        else:
            body = stmt.children[0]
        return body.children if body.kind == CK.COMPOUND_STMT else [body]
    if stmt.kind == CK.COMPOUND_STMT and not any(
            x.kind in (dirs.SEND, dirs.RECEIVE) for x in stmt_dirs.get(id(stmt), [])):
        return stmt.children
    return [stmt]


_CXX_REFUSED_IN_REGIONS = {CK.LAMBDA_EXPR: "a lambda", CK.CXX_THROW_EXPR: "a throw expression",
                           CK.CXX_TRY_STMT: "a try block"}


class RegionFinder:
    def __init__(self, prog: Program):
        self.prog = prog
        self.regions: list[Region] = []

    def run(self) -> list:
        """The regions, with errors for directives that do not lay one out."""
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
            self._check_cxx_constructs(r)
            if not r.blocks and not any(r.stmt.start <= d.start < r.stmt.end
                                        for d in reported_inside):
                prog.error(r.directive.start, "an olap region must contain at least one send or "
                                              "receive block")
        return self.regions

    def _region(self, d, stmt_dirs) -> Region:
        stmt = d.stmt
        items = []
        for s in _body_statements(stmt, stmt_dirs):
            directives = tuple(stmt_dirs.get(id(s), []))
            blocks = [x for x in directives if x.kind in (dirs.SEND, dirs.RECEIVE)]
            if len(blocks) > 1:
                self.prog.error(blocks[1].start, "a statement can be only one send or receive "
                                                 "block")
            block = Block(blocks[0].kind, blocks[0], s) if blocks else None
            items.append(Item(s, block, directives))
        return Region(d, stmt, self.prog.function_of(stmt), stmt.kind in LOOPS, tuple(items))

    def _check_cxx_constructs(self, r: Region):
        """C++ the firing-rule analysis does not follow: a lambda's body looks like code that
        runs where it is written, and an exception may leave a receive block early (as
        longjmp would), after its rule announced the block's messages."""
        for n in r.stmt.walk():
            what = _CXX_REFUSED_IN_REGIONS.get(n.kind)
            if what:
                self.prog.error(n.start, f"{what} inside the olap region at line "
                                         f"{r.directive.line}: the firing-rule analysis does not "
                                         "follow it; move it into a function the region calls")

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
