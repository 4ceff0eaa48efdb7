"""Which transfers complete together: a region's instances share its sync group (structure.py
made them, place_sync), adjacent standalone instances with independent buffers share one;
within a group, an instance whose buffers depend on an earlier one's completes the group
first (MPI targets) or is refused (SHMEM); adjacent two-sided instances between the same
peers travel as one message; the objects attached to each group's window."""
from __future__ import annotations

from ..diagnostics import Diagnostics
from ..frontend import directives as bamboo_directives
from ..frontend.cx import CK, leaves, statement_end
from . import buffers as bf
from . import clauses as cl
from .datatypes import Basic
from .structure import LOOP_KINDS, Instance, Layout, SyncGroup, follows_directly


def plan_groups(src, layout: Layout, diags):
    """Each instance's group; adjacent standalone instances with independent buffers share
    one. Dependent buffers in one group: a later instance completes the group's transfers
    first (MPI targets), or is an error (SHMEM, or an earlier instance of another target)."""
    previous = None
    for inst in sorted(layout.instances, key=lambda i: i.directive.start):
        if inst.region is not None:
            inst.group = inst.region.group
            continue
        joins = previous is not None and inst.typed and previous.typed and \
            follows_directly(previous.stmt, inst.stmt) and \
            not any(_dependent(earlier, inst) for earlier in previous.group.standalone)
        if joins:
            inst.group = previous.group
        else:
            inst.group = SyncGroup(len(layout.groups))
            layout.groups.append(inst.group)
        inst.group.standalone.append(inst)
        previous = inst
    for g in layout.groups:
        g.instances = sorted((i for i in layout.instances if i.group is g and i.typed),
                             key=lambda i: i.directive.start)
        g.targets = {i.target for i in g.instances}
        g.list_types = any(i.target == cl.TWO_SIDED and len(i.sbufs) > 1 for i in g.instances)
        _order_dependent(src, g, diags)
        _fuse_messages(g)
        g.list_types = g.list_types or any(i.fused for i in g.instances)
        _open_windows(g, g.standalone, g.standalone_windows)
    for r in layout.regions:
        _open_windows(r.group, r.instances, r.opens_windows)
        _hoist_windows(src, layout, r)
    for inst in layout.instances:
        if inst.in_loop and inst.region is not None and inst.target == cl.TWO_SIDED \
                and inst.region.clause("max_comm_iter") is None:
            diags.warning_at(src, inst.directive.start,
                             "comm_p2p in a loop without max_comm_iter on its comm_parameters "
                             "region: each execution completes the one before instead of all "
                             "completing together; give max_comm_iter(N)")


# Targets whose transfers a later instance of the group can complete where it stands (the
# SHMEM target cannot: a PE lets go of what it received only at its next region).
COMPLETE_MIDWAY = {cl.TWO_SIDED, cl.ONE_SIDED}


def _order_dependent(src, g: SyncGroup, diags):
    for k, inst in enumerate(g.instances):
        earlier = [e for e in g.instances[:k] if _dependent(e, inst)]
        if not earlier:
            continue
        inst.waits_for_earlier = True
        other = next((e for e in earlier if e.target != inst.target), None)
        if inst.target not in COMPLETE_MIDWAY or other is not None:
            line = src.line_of((other or earlier[0]).directive.start)
            why = ("the SHMEM target completes a group only at its end" if inst.target == cl.SHMEM
                   else "with different targets they complete only at the group's end")
            diags.error_at(src, inst.directive.start,
                           f"comm_p2p transfers a buffer of the comm_p2p at line {line} before "
                           f"their common synchronization; {why}: put them in separate "
                           "comm_parameters regions")


def _fuse_messages(g: SyncGroup):
    """One message instead of several: a two-sided instance right after another, with no
    computation between them, the same peers and conditions (as written: nothing runs between
    them to change their values) and independent buffers goes in the first one's message."""
    leader = None
    for inst in g.instances:
        previous = leader.fused[-1] if leader is not None and leader.fused else leader
        if previous is not None and _fusable(previous, inst) and \
                not any(_dependent(member, inst) for member in [leader] + leader.fused):
            leader.fused.append(inst)
            inst.fused_into = leader
        else:
            leader = inst if inst.target == cl.TWO_SIDED else None


PEER_CLAUSES = ("sender", "receiver", "sendwhen", "receivewhen")


def _fusable(a: Instance, b: Instance) -> bool:
    def said(inst, name):
        clause = inst.clause(name)
        return clause.expr.text if clause else None
    return a.target == b.target == cl.TWO_SIDED and not b.waits_for_earlier and \
        _computes_nothing(a) and follows_directly(a.stmt, b.stmt) and \
        all(said(a, name) == said(b, name) for name in PEER_CLAUSES)


def _computes_nothing(inst: Instance) -> bool:
    c = inst.stmt.cursor
    return c.kind == CK.NULL_STMT or (c.kind == CK.COMPOUND_STMT and not list(c.get_children()))


def _open_windows(g: SyncGroup, instances, opened: list):
    """Each object the group's one-sided instances put into, attached to its window where
    it is first needed: named in ``opened`` (as (key, object's name))."""
    for inst in instances:
        if inst.target != cl.ONE_SIDED or not inst.typed:
            continue
        for b in inst.rbufs:
            key = b.variable.hash
            if key not in g.window_bases:
                g.window_bases[key] = f"bamboo_comm_addresses_{g.number}_{len(g.window_bases)}"
                g.window_variables[key] = b.variable
                opened.append((key, b.variable.spelling))


def _hoist_windows(src, layout: Layout, r):
    """Making a window and gathering its addresses is collective and costs far more than a
    fence: a region in a loop makes its window before the outermost loop around it (in its
    function) and frees it after, when every object is declared before that loop and nothing
    returns or jumps out of it; each execution of the region still opens and closes its
    epoch with fences."""
    g = r.group
    if not r.opens_windows or len(g.regions) != 1 or g.completes_at_next is not None:
        return
    loop = next((c for c in r.stmt.ancestors if c.kind in LOOP_KINDS), None)
    if loop is None or leaves(loop):
        return
    start, end = loop.extent.start.offset, statement_end(src, loop)
    if any(i.stmt.end == end for i in layout.instances):
        return   # the loop is an instance's computation: its closing brace goes there too
    for key in g.window_bases:
        variable = g.window_variables[key]
        if not bf.is_static_storage(variable) and bf.declared_at(src, variable) >= start:
            return
    g.windows_around, g.windows_around_end = loop, end


CHARACTERS = {"char", "signed char", "unsigned char"}   # may alias any object (C11 6.5p7)


def _dependent(a: Instance, b: Instance) -> bool:
    """Whether b's buffers may overlap what a's transfer is still writing or reading."""
    pointers = a.target == b.target == cl.TWO_SIDED
    pairs = [(x, a, y, b) for x in a.rbufs for y in b.rbufs + b.sbufs] + \
        [(x, a, y, b) for x in a.sbufs for y in b.rbufs]
    return any(_may_overlap(x, y, pointers) and not _disjoint_sections(x, i, y, j)
               for x, i, y, j in pairs)


def _disjoint_sections(x, i: Instance, y, j: Instance) -> bool:
    """Two sections of one array that do not meet whatever value their index variable has
    in each (an instance in a loop posts at several values in one group): constant counts,
    and starts that are constants, or the same variable times the same stride plus
    constants."""
    if x.offset is None or y.offset is None or x.variable.hash != y.variable.hash:
        return False
    counts = [_constant(inst.count) for inst in (i, j)]
    if None in counts or (x.index, x.stride) != (y.index, y.stride):
        return False
    if x.stride == 0:
        return x.offset + counts[0] <= y.offset or y.offset + counts[1] <= x.offset
    # x starts at y's start + gap + stride * k for any integer k: they meet where some such
    # start lies in (-counts[0], counts[1]); the nearest two are r and r - |stride|
    period = abs(x.stride)
    r = (x.offset - y.offset) % period
    return r >= counts[1] and period - r >= counts[0]


def _constant(count: str) -> int | None:
    """A count the lowering wrote as a number: ``6``, or ``(6)`` from count(6)."""
    text = count.strip()
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    return int(text) if text.isdigit() else None


def _may_overlap(x, y, pointers: bool) -> bool:
    """Buffers in one variable may overlap, and (between two-sided transfers, where taking
    them as dependent only completes the earlier first) buffers behind two pointers that may
    point into one array: elements of types that may alias, the pointers not both
    ``restrict``. Other buffers in different variables are taken as disjoint: a pointer into
    an array also named in the region is not seen (docs/comm-directives.md); the one-sided
    targets' rbufs are named objects or SHMEM allocations of their own."""
    if x.variable is None or y.variable is None or x.variable.hash == y.variable.hash:
        return True
    if not (pointers and x.through_pointer and y.through_pointer):
        return False
    restrict = all(v.type.is_restrict_qualified() for v in (x.variable, y.variable))
    return _may_alias(x.element, y.element) and not restrict


def _may_alias(e, f) -> bool:
    if not (isinstance(e, Basic) and isinstance(f, Basic)):
        return True   # a structure may hold either
    return _unsigned_too(e) == _unsigned_too(f) or bool({e.c_name, f.c_name} & CHARACTERS)


def _unsigned_too(e: Basic) -> str:
    """A type and its unsigned twin may alias each other."""
    return "int" if e.c_name == "unsigned" else e.c_name.removeprefix("unsigned ")


def announce_in_olap(src, layout: Layout, skipped):
    """Regions whose receives the firing rule can announce under Bamboo tasks: written as
    they are, each instance posts its send before the next one's receive, and the rule
    cannot take a receive past a send. A region that stands directly in an olap region (a
    statement of the region's body) and only transfers (two-sided instances that compute
    nothing, independent buffers, completed at the region's end) is written instead as a send
    block of all its sends, then a receive block of all its receives and their wait: the
    same messages, but the receives come first in their window. Other regions stay as
    they are (docs/comm-directives.md)."""
    olap_statements = set()
    blank = src.blanked
    for d in bamboo_directives.scan(src, Diagnostics(), skipped):   # its errors are Bamboo's to report
        if d.kind == bamboo_directives.OLAP:
            start = d.end + len(blank[d.end:]) - len(blank[d.end:].lstrip())
            olap_statements.add(start)
    for r in layout.regions:
        if _announceable(r) and _in_olap_body(r, olap_statements):
            r.announced = True


def _in_olap_body(r, olap_statements: set) -> bool:
    """A statement of the olap statement's compound body, or of the olap compound itself."""
    body = r.stmt.parent
    if body.kind != CK.COMPOUND_STMT:
        return False
    owner = r.stmt.ancestors[-2] if len(r.stmt.ancestors) >= 2 else None
    return body.extent.start.offset in olap_statements or \
        (owner is not None and owner.kind in LOOP_KINDS and owner.extent.start.offset in olap_statements)


def _announceable(r) -> bool:
    g = r.group
    if g.regions != [r] or g.completes_at_next is not None or r.placement != cl.END_PARAM_REGION:
        return False
    if r.stmt.cursor.kind != CK.COMPOUND_STMT or not r.instances:
        return False
    body = list(r.stmt.cursor.get_children())
    if len(body) != len(r.instances):
        return False   # computation beside the transfers: it keeps its place between them
    return all(inst.target == cl.TWO_SIDED and inst.typed and not inst.in_loop and
               not inst.waits_for_earlier and _computes_nothing(inst) and
               inst.stmt.parent.hash == r.stmt.cursor.hash for inst in r.instances)
