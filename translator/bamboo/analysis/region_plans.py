"""What the transformations do to each olap region, planned from the region as found: the order
of its items after each send block moved up past the receive blocks right before it, the moves,
and the input windows (maximal runs of receive blocks in that order) with their firing rules.
One immutable RegionPlan per region, which transforms/ apply and ``--explain`` prints."""
from __future__ import annotations

from dataclasses import dataclass

from ..frontend import directives as dirs
from ..frontend.model import Program
from .regions import Block, Item, Region
from .slicer import SliceAnalysis


@dataclass(frozen=True, eq=False)
class Move:
    send: Block
    passed: tuple            # receive Blocks it moved past
    dest: Item


@dataclass(frozen=True, eq=False)
class Window:
    """A run of receive blocks after reordering, and its firing rule."""
    blocks: tuple
    analysis: SliceAnalysis
    insert_at: int           # where the firing rule goes


@dataclass(frozen=True, eq=False)
class RegionPlan:
    region: Region
    order: tuple             # the items after reordering
    moves: tuple             # Moves of send blocks
    windows: tuple


def plan_regions(prog: Program, sums: dict, companions: dict, regions: list) -> tuple:
    """A RegionPlan per region, in order. The moves are checked by transforms/reorder_blocks.py,
    which makes them."""
    plans = []
    for r in regions:
        order, moves = _reordered(r)
        plans.append(RegionPlan(r, order, moves, _windows(prog, sums, companions, order)))
    return tuple(plans)


def _reordered(r: Region) -> tuple:
    """Each send block moves up past the receive blocks that immediately precede it (never past
    other statements or another send block, and blocks of one kind keep their order)."""
    order, moves = [], []
    for it in r.items:
        if it.block is not None and it.block.kind == dirs.SEND:
            j = len(order)
            while j > 0 and order[j - 1].block is not None and \
                    order[j - 1].block.kind == dirs.RECEIVE:
                j -= 1
            passed = order[j:]
            if passed:
                moves.append(Move(it.block, tuple(p.block for p in passed), passed[0]))
            order.insert(j, it)
        else:
            order.append(it)
    return tuple(order), tuple(moves)


def _windows(prog: Program, sums: dict, companions: dict, order: tuple) -> tuple:
    """The runs of receive blocks in the reordered body, each analysed for its rule."""
    windows, run = [], []
    sequence = [it.stmt for it in order]
    for it in order + (None,):
        if it is not None and it.block is not None and it.block.kind == dirs.RECEIVE:
            run.append(it)
            continue
        if run:
            analysis = SliceAnalysis(prog, sums, [x.stmt for x in run], companions,
                                     sequence=sequence).run()
            windows.append(Window(tuple(x.block for x in run), analysis, run[0].line_start))
            run = []
    return tuple(windows)
