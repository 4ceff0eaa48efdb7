"""Writing the lowered file: every directive's C (targets.py) on the directive's own line, the
closing synchronization just after its statement, struct datatypes cached per function; and
the --explain text."""
from __future__ import annotations

from ..frontend import cx
from ..source import SourceFile
from . import buffers as bf
from . import clauses as cl
from .datatypes import Record
from .structure import Instance, Layout, Region, SyncGroup
from .targets import TAG_BASE, WRITERS, declarations


class Writer:
    """The lowered text of a file (write) and what each directive became (explain)."""

    def __init__(self, src: SourceFile, layout: Layout, cxx: bool):
        self.src = src
        self.layout = layout
        self.cxx = cxx
        self.edits = []          # (offset, end, rank, text)
        self.record_names = {}   # per function: {fn hash: {record spelling: name}}

    def write(self) -> str:
        self._declare_library()
        self._declare_record_types()
        for g in self.layout.groups:
            if g.windows_around is not None:
                before, after = WRITERS[cl.ONE_SIDED].around_loop(g)
                start = g.windows_around.extent.start.offset
                self.edits.append((start, start, 0, before))
                self.edits.append((g.windows_around_end, g.windows_around_end, 3, after))
        for r in self.layout.regions:
            self._region(r)
        for inst in self.layout.instances:
            self._instance(inst)
        ordered = sorted(self.edits, key=lambda e: (e[0], e[2]))
        return self.src.with_replacements((start, end, text) for start, end, _, text in ordered)

    def _declare_library(self):
        """The target libraries' own functions, declared at file scope just before the first
        declaration that holds a directive (a function, or the namespace or class around it)."""
        if not self.layout.instances:
            return
        text = declarations({inst.target for inst in self.layout.instances}, self.cxx)
        first = min(_outermost(inst.stmt.function).extent.start.offset
                    for inst in self.layout.instances)
        self.edits.append((first, first, 0, text))

    def _declare_record_types(self):
        """The cached MPI struct types each function needs, declared at its body's start."""
        by_fn = {}
        for inst in self.layout.instances:
            if not ({inst.target} & {cl.TWO_SIDED, cl.ONE_SIDED}):
                continue
            fn = inst.stmt.function
            names = by_fn.setdefault(fn.hash, (fn, {}))[1]
            for b in inst.sbufs + inst.rbufs:
                if isinstance(b.element, Record) and b.element.spelling not in names:
                    names[b.element.spelling] = f"bamboo_comm_type_{len(names)}"
        for fn, names in by_fn.values():
            self.record_names[fn.hash] = names
            if not names:
                continue
            body = next(c for c in fn.get_children() if c.kind == cx.CK.COMPOUND_STMT)
            # a flag, not MPI_DATATYPE_NULL: that is no constant in C++ (Open MPI), and a
            # static's initializer must be one for Bamboo to give each task its copy
            decls = " ".join(f"static MPI_Datatype {n}; static int {n}_made = 0; /* {spelling} */"
                             for spelling, n in names.items())
            at = body.extent.start.offset + 1
            self.edits.append((at, at, 0, f" {decls}"))

    def _capacity(self, g: SyncGroup, target: str) -> str:
        """The requests the group's instances of ``target`` may post before it completes."""
        per = WRITERS[target].requests_per_post
        parts = []
        for inst in g.instances:
            if inst.target != target:
                continue
            limit = inst.region.clause("max_comm_iter") if inst.region else None
            parts.append(f"{per} * ({limit.expr.text})" if inst.in_loop and limit else str(per))
        if all(p == str(per) for p in parts):
            return str(per * len(parts))
        return " + ".join(parts)

    def _storage(self, g: SyncGroup) -> str:
        return "".join(WRITERS[t].storage(g, self._capacity(g, t)) for t in sorted(g.targets))

    def _complete(self, g: SyncGroup) -> str:
        return "".join(WRITERS[t].complete(g) for t in sorted(g.targets))

    def _region(self, r: Region):
        if r.announced:
            self._announced_region(r)
            return
        g = r.group
        first = g.regions[0] is r
        before, start = "", ""
        if first and g.declared_before_first:
            before = self._storage(g)
        elif first:
            start = self._storage(g)
        for done in r.completes:
            start = self._complete(done) + start
        start += "".join(WRITERS[t].region_start(r) for t in sorted(
            {i.target for i in r.instances}))
        self.edits.append((r.directive.start, r.directive.end, 1,
                           f"{before}{{ {start}/* comm_parameters */"))
        end = self._complete(g) if (g.regions[-1] is r and g.completes_at_next is None) else ""
        self.edits.append((r.stmt.end, r.stmt.end, 2, f" {end}}}"))

    def _announced_region(self, r: Region):
        """A send block of the region's sends, then a receive block of its receives and their
        wait, on the directive's line (the _Pragma operator: no line is added); each block
        has requests of its own. The region's own statement stays, emptied."""
        g = r.group
        writer = WRITERS[cl.TWO_SIDED]
        names = self.record_names.get(r.stmt.function.hash, {})
        blocks = ""
        for kind, side in (("send", "sbufs"), ("receive", "rbufs")):
            posts = "".join(f"{{ int bamboo_comm_count = (int){inst.count}; "
                            f"{writer.post(inst, g, names, sides=(side,))}}} "
                            for inst in r.instances if inst.fused_into is None)
            blocks += (f'_Pragma("bamboo {kind}") {{ {self._storage(g)}{posts}'
                       f"{self._complete(g)}}} ")
        self.edits.append((r.directive.start, r.directive.end, 1,
                           f"{blocks}/* comm_parameters: as a send and a receive block */"))

    def _instance(self, inst: Instance):
        if inst.region is not None and inst.region.announced:
            self.edits.append((inst.directive.start, inst.directive.end, 1,
                               f"/* comm_p2p: in the blocks at line {self._line(inst.region)} */"))
            return
        g = inst.group
        writer = WRITERS[inst.target]
        names = self.record_names.get(inst.stmt.function.hash, {})
        before, text, end = "", "{ ", ""
        if g.standalone and g.standalone[0] is inst:
            # the group's start, as a region's would be
            if len(g.standalone) > 1:
                before = self._storage(g)
            else:
                text += self._storage(g)
            text += WRITERS[cl.ONE_SIDED].open_windows(g, g.standalone_windows)
            if cl.SHMEM in g.targets:
                text += WRITERS[cl.SHMEM].region_start(None)
        if g.standalone and g.standalone[-1] is inst:
            end = self._complete(g)
        if inst.fused_into is None:
            text += f"int bamboo_comm_count = (int){inst.count}; "
            text += writer.post(inst, g, names)
        else:
            text += f"/* in the message of line {self._line(inst.fused_into)} */ "
        self.edits.append((inst.directive.start, inst.directive.end, 1,
                           f"{before}{text}/* comm_p2p */"))
        self.edits.append((inst.stmt.end, inst.stmt.end, 1, f" {end}}}"))

    def explain(self) -> str:
        lines = []
        for r in self.layout.regions:
            g = r.group
            where = "at its end"
            if g.completes_at_next is not None:
                where = (f"at the start of the comm_parameters region at line "
                         f"{self._line(g.completes_at_next)}")
            elif len(g.regions) > 1:
                where = f"at the end of the region at line {self._line(g.regions[-1])}"
            lines.append(f"{self.src.display}:{self._line(r)}: comm_parameters: "
                         f"{len(r.instances)} comm_p2p; synchronization {where} "
                         f"(place_sync {r.placement}), one for all its transfers")
            if r.announced:
                lines[-1] += ("; in the olap region as a send block of its sends and a receive "
                              "block of its receives, which the firing rule announces")
        lines += [self._explain_instance(inst) for inst in self.layout.instances]
        return "\n".join(lines) + "\n"

    def _line(self, region_or_instance) -> int:
        return self.src.line_of(region_or_instance.directive.start)

    def _explain_instance(self, inst: Instance) -> str:
        head = f"{self.src.display}:{self._line(inst)}: comm_p2p ({WRITERS[inst.target].name}"
        if inst.region:
            head += f", region at line {self._line(inst.region)})"
        elif inst.group.standalone[-1] is inst:
            head += ", standalone: completes after its computation)"
        else:
            head += (", standalone: completes with the comm_p2p at line "
                     f"{self._line(inst.group.standalone[-1])})")
        items = ", ".join(f"{s.name} -> {r.name} ({bf.element_name(s.element)})"
                          for s, r in zip(inst.sbufs, inst.rbufs))
        to = f"receiver({inst.clause('receiver').expr.text}){_when(inst.clause('sendwhen'))}"
        if inst.target == cl.TWO_SIDED:
            how = (f"MPI_Irecv from sender({inst.clause('sender').expr.text})"
                   f"{_when(inst.clause('receivewhen'))}, MPI_Isend to {to}, "
                   f"tag {TAG_BASE + inst.number} on the directives' communicator")
            if inst.fused:
                lines = ", ".join(str(self._line(m)) for m in inst.fused)
                how += f", one message with the buffers of the comm_p2p at line(s) {lines}"
            elif len(inst.sbufs) > 1:
                how += ", the list as one MPI struct datatype"
            if inst.fused_into is not None:
                how = ("travels in the message of the comm_p2p at line "
                       f"{self._line(inst.fused_into)}")
        elif inst.target == cl.ONE_SIDED:
            objects = ", ".join(sorted({r.variable.spelling for r in inst.rbufs}))
            how = (f"MPI_Put to {to}, into the group's dynamic window ({objects} attached), once "
                   f"the receiver, which expects sender({inst.clause('sender').expr.text})"
                   f"{_when(inst.clause('receivewhen'))}, says it may; a message at the group's "
                   f"end says the data is there")
        else:
            how = f"SHMEM puts to {to}"
        if inst.waits_for_earlier:
            how += "; completes the transfers before it first (shared buffers)"
        if inst.in_loop:
            how += "; in a loop"
        return f"{head}: {items}, count {inst.count}: {how}"


def _outermost(cursor):
    """The file-scope declaration whose text holds ``cursor``'s."""
    while cursor.lexical_parent is not None and cursor.lexical_parent.kind != cx.CK.TRANSLATION_UNIT:
        cursor = cursor.lexical_parent
    return cursor


def _when(clause) -> str:
    return f" when {clause.expr.text}" if clause else ""
