"""Where the comm directives stand in the program: the statement each applies to, the param
region each instance is in, loops between them, the synchronization group each instance's
transfers complete with (place_sync), and the checks that need the statements.

Works on the user's file as parsed (clang ignores the pragmas): no types yet (buffers.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import Diagnostics
from ..frontend import cx
from ..frontend.cx import CK, label_inside, statement_end
from ..source import SourceFile
from . import clauses as cl
from .clauses import CommDirective

LOOP_KINDS = {CK.FOR_STMT, CK.WHILE_STMT, CK.DO_STMT, CK.CXX_FOR_RANGE_STMT}


@dataclass
class Statement:
    """The statement a directive applies to."""
    cursor: object
    start: int
    end: int                 # just past it (its ';' included)
    ancestors: list          # cursors from the function down to its parent
    function: object         # the function definition's cursor

    @property
    def parent(self):
        return self.ancestors[-1]


@dataclass
class SyncGroup:
    """Transfers that complete together, at one point (place_sync)."""
    number: int
    regions: list = field(default_factory=list)    # [Region], in program order
    completes_at_next: object = None                # the Region whose start completes it
    # planned by lower.py
    instances: list = field(default_factory=list)
    targets: set = field(default_factory=set)
    list_types: bool = False                        # two-sided buffer lists: types to free
    standalone: list = field(default_factory=list)  # adjacent comm_p2p outside regions
    # one-sided: the objects attached to the group's window, in the order they are attached
    # (key -> the name of the table of every process's address of the object)
    window_bases: dict = field(default_factory=dict)
    standalone_windows: list = field(default_factory=list)   # (key, object name) they attach
    window_variables: dict = field(default_factory=dict)     # key -> the object's cursor
    # one-sided: the loop around its region that its window is made before and freed after,
    # once instead of at every execution of the region (groups.py)
    windows_around: object = None
    windows_around_end: int = 0

    @property
    def window(self) -> str:
        return f"bamboo_comm_window_{self.number}"

    @property
    def window_sync(self) -> str:
        """Its point-to-point synchronization (runtime/commdir/src/mpi_sync.c)."""
        return f"bamboo_comm_sync_{self.number}"

    @property
    def window_procs(self) -> str:
        """The size of the directives' communicator, as the window's tables have it."""
        return f"bamboo_comm_procs_{self.number}"

    @property
    def declared_before_first(self) -> bool:
        """Its storage lives outside its regions (it outlives the first one)."""
        return len(self.regions) > 1 or self.completes_at_next is not None


@dataclass
class Region:
    directive: CommDirective
    stmt: Statement
    number: int
    instances: list = field(default_factory=list)
    group: SyncGroup | None = None
    completes: list = field(default_factory=list)   # groups completed at its start
    opens_windows: list = field(default_factory=list)   # one-sided: (key, object's name) it attaches
    # under Bamboo tasks, directly in an olap region: its sends written as a send block and
    # its receives as a receive block, which the firing rule announces (groups.py)
    announced: bool = False

    def clause(self, name):
        return self.directive.clauses.get(name)

    @property
    def placement(self) -> str:
        c = self.clause("place_sync")
        return c.keyword if c else cl.END_PARAM_REGION


@dataclass
class Instance:
    directive: CommDirective
    stmt: Statement
    number: int
    region: Region | None
    in_loop: bool                                    # a loop between it and its region
    clauses: dict = field(default_factory=dict)      # effective: the region's, then its own
    target: str = cl.TWO_SIDED
    # from the typed clauses (buffers.py, lower.py)
    sbufs: list = field(default_factory=list)
    rbufs: list = field(default_factory=list)
    typed: bool = False                              # every buffer typed
    count: str = ""                                  # C expression
    group: SyncGroup | None = None
    waits_for_earlier: bool = False                  # completes the group's transfers first
    fused: list = field(default_factory=list)        # instances whose buffers go in its message
    fused_into: Instance | None = None               # the instance whose message carries its

    def clause(self, name):
        return self.clauses.get(name)


@dataclass
class Layout:
    regions: list
    instances: list
    groups: list
    functions: dict          # function cursor's hash -> (cursor, body start offset)


def find_layout(src: SourceFile, tu, directives: list[CommDirective], diags: Diagnostics) -> Layout:
    statements = _statement_starts(src, tu)
    regions, instances = [], []
    functions = {}
    for d in directives:
        stmt = _statement_after(src, d, statements, diags)
        if stmt is None:
            d.valid = False
            continue
        functions[stmt.function.hash] = stmt.function
        if d.kind == cl.PARAMETERS:
            regions.append(Region(d, stmt, len(regions)))
        else:
            instances.append(Instance(d, stmt, len(instances), None, False))
    _nest(src, regions, instances, diags)
    for inst in instances:
        _effective_clauses(src, inst, diags)
    reported = set()
    for inst in instances:
        reported |= _check_jumps(src, inst.stmt, "comm_p2p computation",
                                 "the transfer's completion", diags)
    for r in regions:
        _check_jumps(src, r.stmt, "comm_parameters region", "its synchronization", diags, reported)
    groups = _sync_groups(src, regions, diags)
    return Layout(regions, instances, groups, functions)




def _statement_starts(src: SourceFile, tu) -> dict:
    """Start offset -> the outermost statement of a function body starting there, with its
    ancestors and function."""
    found = {}
    for top in tu.cursor.get_children():
        if top.location.file is None or cx.loc_file(top.location) != src.path:
            continue
        for fn in _function_definitions(top):
            body = next((c for c in fn.get_children() if c.kind == CK.COMPOUND_STMT), None)
            if body is None:
                continue
            pending = [(body, [fn])]
            while pending:
                c, ancestors = pending.pop()
                start = c.extent.start.offset
                k = c.kind
                in_file = cx.loc_file(c.extent.start) == src.path
                if c is not body and start not in found and in_file \
                        and (k.is_statement() or k.is_expression() or k.is_declaration()):
                    found[start] = (c, ancestors)
                for child in reversed(list(c.get_children())):
                    pending.append((child, ancestors + [c]))
    return found


def _function_definitions(top):
    if top.kind in cx.FUNCTION_KINDS and top.is_definition():
        yield top
    elif top.kind in cx.SCOPE_KINDS:
        for member in top.get_children():
            yield from _function_definitions(member)


def _statement_after(src, d: CommDirective, statements, diags) -> Statement | None:
    blank = src.blanked
    i = d.end
    while i < len(blank) and blank[i].isspace():
        i += 1
    what = "the param region" if d.kind == cl.PARAMETERS else \
        "the computation that overlaps its transfer (use '{ }' for none)"
    entry = statements.get(i)
    if entry is None:
        diags.error_at(src, d.start, f"#pragma {d.kind} must be followed by a statement: "
                       f"{what}")
        return None
    cursor, ancestors = entry
    if cursor.kind == CK.DECL_STMT or cursor.kind.is_declaration():
        diags.error_at(src, i, f"#pragma {d.kind} is followed by a declaration; it needs a "
                       f"statement: {what}")
        return None
    parent = ancestors[-1]
    if parent.kind not in (CK.COMPOUND_STMT, CK.CASE_STMT, CK.DEFAULT_STMT, CK.LABEL_STMT) \
            and parent.kind not in LOOP_KINDS and parent.kind != CK.IF_STMT:
        diags.error_at(src, d.start, f"#pragma {d.kind} must stand before a statement")
        return None
    fn = ancestors[0]
    return Statement(cursor, i, statement_end(src, cursor), ancestors[1:], fn)








def _contains(outer: Statement, offset: int) -> bool:
    return outer.start <= offset < outer.end


def _nest(src, regions, instances, diags):
    for r in regions:
        for other in regions:
            if other is not r and _contains(other.stmt, r.directive.start):
                diags.error_at(src, r.directive.start, "comm_parameters region inside another (the "
                               f"one at line {src.line_of(other.directive.start)}): regions do "
                               "not nest")
                r.directive.valid = False
    for inst in instances:
        for other in instances:
            if other is not inst and _contains(other.stmt, inst.directive.start):
                diags.error_at(src, inst.directive.start, "comm_p2p inside the computation of "
                               f"another comm_p2p (line {src.line_of(other.directive.start)})")
                inst.directive.valid = False
        inst.region = next((r for r in regions if _contains(r.stmt, inst.directive.start)), None)
        if inst.region is not None:
            inst.region.instances.append(inst)
            region_cursor = inst.region.stmt.cursor
            chain = inst.stmt.ancestors
            below = chain[next((k for k, c in enumerate(chain) if c == region_cursor), -1) + 1:] \
                if region_cursor in chain else []
            inst.in_loop = any(c.kind in LOOP_KINDS for c in below) or \
                region_cursor.kind in LOOP_KINDS


def _effective_clauses(src, inst: Instance, diags):
    """The region's clauses apply to every instance in it; an instance may add or restate
    one (its own wins)."""
    region = inst.region
    merged = {}
    if region is not None:
        merged.update({k: v for k, v in region.directive.clauses.items()
                       if k not in cl.REGION_ONLY})
    merged.update(inst.directive.clauses)
    inst.clauses = merged
    if not (inst.directive.valid and (region is None or region.directive.valid)):
        return
    missing = [name for name in cl.REQUIRED if name not in merged]
    if missing:
        where = "its comm_parameters region or " if region else ""
        diags.error_at(src, inst.directive.start,
                       f"comm_p2p needs {', '.join(missing)} (on {where}the comm_p2p itself)")
        inst.directive.valid = False
    if ("sendwhen" in merged) != ("receivewhen" in merged):
        given, other = ("sendwhen", "receivewhen") if "sendwhen" in merged else \
            ("receivewhen", "sendwhen")
        diags.error_at(src, merged[given].offset, f"{given} without {other}: give both (who "
                       "sends and who receives) or neither")
        inst.directive.valid = False
    target = merged.get("target")
    inst.target = target.keyword if target else cl.TWO_SIDED


def _check_jumps(src, stmt: Statement, what: str, skipped: str, diags, already=frozenset()) -> set:
    """A jump out of the statement would skip the generated completion. Returns the offsets
    of the jumps reported (``already`` reported ones are not again)."""
    reported = set()
    pending = [(stmt.cursor, 0, 0)]   # loops and breakable statements around it, inside stmt
    while pending:
        c, loops, breakables = pending.pop()
        k = c.kind
        word = None
        if k == CK.RETURN_STMT:
            word = "return"
        elif k == CK.INDIRECT_GOTO_STMT or \
                (k == CK.GOTO_STMT and not label_inside(c, stmt.start, stmt.end)):
            word = "goto"
        elif k == CK.BREAK_STMT and breakables == 0:
            word = "break"
        elif k == CK.CONTINUE_STMT and loops == 0:
            word = "continue"
        at = c.extent.start.offset
        if word and at not in already:
            diags.error_at(src, at, f"{word} leaves a {what} and skips {skipped}")
            reported.add(at)
        inner_loops = loops + (k in LOOP_KINDS)
        inner_breakables = breakables + (k in LOOP_KINDS or k == CK.SWITCH_STMT)
        for child in c.get_children():
            pending.append((child, inner_loops, inner_breakables))
    return reported





def _sync_groups(src, regions, diags) -> list[SyncGroup]:
    groups = []
    by_position = sorted(regions, key=lambda r: r.directive.start)
    for r in by_position:
        if r.group is not None:
            continue
        group = SyncGroup(len(groups), [r])
        r.group = group
        groups.append(group)
        current = r
        if current.placement == cl.END_ADJ_PARAM_REGIONS:
            while current.placement == cl.END_ADJ_PARAM_REGIONS:
                following = _adjacent_region(current, by_position)
                if following is None:
                    break
                group.regions.append(following)
                following.group = group
                current = following
            if len(group.regions) == 1:
                diags.warning_at(src, r.clause("place_sync").offset,
                                 "place_sync(END_ADJ_PARAM_REGIONS), but no comm_parameters region "
                                 "comes right after this one: it synchronizes at its own end")
        elif current.placement == cl.BEGIN_NEXT_PARAM_REGION:
            following = _next_region_in_block(current, by_position)
            if following is None:
                diags.error_at(src, current.clause("place_sync").offset,
                               "place_sync(BEGIN_NEXT_PARAM_REGION): no comm_parameters region "
                               "follows this one in its block")
                current.directive.valid = False
            else:
                group.completes_at_next = following
                following.completes.append(group)
    return groups


def follows_directly(a: Statement, b: Statement) -> bool:
    """b is the statement right after a, in the same block."""
    if a.parent.kind != CK.COMPOUND_STMT or b.parent != a.parent:
        return False
    starts = [c.extent.start.offset for c in a.parent.get_children()]
    k = starts.index(a.start) if a.start in starts else len(starts)
    return k + 1 < len(starts) and starts[k + 1] == b.start


def _adjacent_region(r: Region, regions) -> Region | None:
    return next((o for o in regions if follows_directly(r.stmt, o.stmt)), None)


def _next_region_in_block(r: Region, regions) -> Region | None:
    if r.stmt.parent.kind != CK.COMPOUND_STMT:
        return None
    later = [o for o in regions if o.stmt.parent == r.stmt.parent and o.stmt.start > r.stmt.end]
    return min(later, key=lambda o: o.stmt.start) if later else None
