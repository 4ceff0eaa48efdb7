"""Lowering comm directives to library calls: the file's text with every directive replaced by
the C its target needs (targets.py), line for line, so that compilers, debuggers and the
Bamboo translator after it see the user's line numbers.

parse -> find where the directives stand (structure.py) -> check their expressions in scope
and type their buffers (buffers.py) -> check the transfers -> write.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import Diagnostics
from ..frontend import cx
from ..source import SourceFile
from . import buffers as bf
from . import clauses as cl
from .datatypes import Record
from .structure import Instance, Layout, Region, SyncGroup, find_layout
from .targets import MAX_INSTANCES, TAG_BASE, WRITERS


@dataclass
class Lowered:
    text: str | None                 # None after errors
    explanation: str = ""
    targets: dict = field(default_factory=dict)   # target -> offset of the first clause naming it
    found: bool = False              # the file has comm directives at all


def has_directives(text: str) -> bool:
    return "comm_parameters" in text or "comm_p2p" in text


def lower(src: SourceFile, args, cxx: bool, diags: Diagnostics) -> Lowered:
    if not has_directives(src.text):
        return Lowered(src.text)
    tu = cx.parse(src.path, args, unsaved_text=src.text)
    directives = cl.scan(src, diags, cx.skipped_ranges(tu, src.path), _object_macros(tu))
    # a directive's clauses continued on the next line without '\' are C errors there too:
    # the directive's error says what happened, clang's would not
    continued = {src.line_of(d.end) + 1 for d in directives if d.continued}
    if _report_c_errors(src, tu, diags, continued):
        return Lowered(None, found=True)
    if not directives:
        return Lowered(src.text)
    layout = find_layout(src, tu, directives, diags)
    if diags.has_errors:
        return Lowered(None, found=True)
    cursors, probe_tu = bf.probe(src, layout, args, cxx, diags)
    if cursors is None:
        return Lowered(None, found=True)
    _type_instances(src, layout, cursors, probe_tu, cxx, diags)
    _check_libraries(src, layout, probe_tu, diags)
    _plan_groups(src, layout, diags)
    if diags.has_errors:
        return Lowered(None, found=True)
    writer = _Writer(src, layout)
    text = writer.write()
    targets = {}
    for inst in layout.instances:
        clause = inst.clause("target")
        targets.setdefault(inst.target, clause.items[0].offset if clause else inst.directive.start)
    return Lowered(text, writer.explain(), targets, True)


def _object_macros(tu) -> dict:
    """name -> replacement of the object-like macros defined when the file ends."""
    macros = {}
    for c in tu.cursor.get_children():
        if c.kind == cx.CK.MACRO_DEFINITION and not cx.ci.conf.lib.clang_Cursor_isMacroFunctionLike(c):
            tokens = [t.spelling for t in c.get_tokens()]
            if len(tokens) >= 2:
                macros[c.spelling] = " ".join(tokens[1:])
    return macros


def _report_c_errors(src, tu, diags, skipped_lines=()) -> bool:
    failed = False
    for d in tu.diagnostics:
        if d.severity < 3:
            continue
        loc = d.location
        if loc.file is not None and cx.loc_file(loc) == src.path and loc.line in skipped_lines:
            continue
        failed = True
        if loc.file is None:
            diags.error(src.display, 0, 0, d.spelling)
        elif cx.loc_file(loc) == src.path:
            diags.error(src.display, loc.line, loc.column, d.spelling)
        else:
            diags.error(loc.file.name, loc.line, loc.column, d.spelling)
    return failed


def _error(diags, src, offset, message):
    line, col = src.line_col(offset)
    diags.error(src.display, line, col, message)


def _warning(diags, src, offset, message):
    line, col = src.line_col(offset)
    diags.warning(src.display, line, col, message)


def _type_instances(src, layout: Layout, cursors, tu, cxx, diags):
    if len(layout.instances) > MAX_INSTANCES:
        _error(diags, src, layout.instances[MAX_INSTANCES].directive.start,
               f"more than {MAX_INSTANCES} comm_p2p in one file (their tags would run out)")
    for r in layout.regions:
        c = r.clause("max_comm_iter")
        if c is not None:
            bf.check_scalar(src, c, cursors[c.expr.offset], diags, integer=True)
    for inst in layout.instances:
        for name in ("sender", "receiver", "count"):
            c = inst.clause(name)
            if c is not None:
                bf.check_scalar(src, c, cursors[c.expr.offset], diags, integer=True)
        for name in ("sendwhen", "receivewhen"):
            c = inst.clause(name)
            if c is not None:
                bf.check_scalar(src, c, cursors[c.expr.offset], diags, integer=False)
        inst.sbufs = [bf.buffer_of(src, "sbuf", e, cursors[e.offset], cxx, diags)
                      for e in inst.clause("sbuf").items]
        inst.rbufs = [bf.buffer_of(src, "rbuf", e, cursors[e.offset], cxx, diags)
                      for e in inst.clause("rbuf").items]
        if None in inst.sbufs or None in inst.rbufs:
            inst.directive.valid = False
            continue
        inst.typed = True
        _check_pairs(src, inst, diags)
        _infer_count(src, inst, diags)
        if inst.target == cl.ONE_SIDED:
            _check_window_objects(src, inst, diags)
        elif inst.target == cl.SHMEM:
            _check_symmetric(src, inst, tu, diags)
        _warn_computation_uses_buffers(src, inst, diags)


def _check_pairs(src, inst, diags):
    s, r = inst.sbufs, inst.rbufs
    clause = inst.clause("rbuf")
    if len(s) != len(r):
        _error(diags, src, clause.offset, f"sbuf has {len(s)} buffer(s) and rbuf {len(r)}: "
               "they pair one to one")
        return
    for k, (a, b) in enumerate(zip(s, r), 1):
        if not bf.same_element(a.element, b.element):
            _error(diags, src, b.expr.offset,
                   f"rbuf item {k} '{b.name}' holds '{bf.element_name(b.element)}' but sbuf item "
                   f"{k} '{a.name}' sends '{bf.element_name(a.element)}'")


def _infer_count(src, inst, diags):
    if inst.clause("count") is not None:
        inst.count = f"({inst.clause('count').expr.text})"
        return
    extents = [b.extent for b in inst.sbufs + inst.rbufs if b.extent is not None]
    if not extents:
        _error(diags, src, inst.directive.start, "comm_p2p needs count(...): no buffer of sbuf "
               "or rbuf is an array or object whose size says how many elements to transfer")
        return
    inst.count = str(min(extents))


def _check_window_objects(src, inst, diags):
    region_start = inst.region.stmt.start if inst.region else inst.directive.start
    for b in inst.rbufs:
        if b.variable is None or b.through_pointer:
            why = f"through the pointer '{b.variable.spelling}'" if b.variable is not None and \
                b.through_pointer else "not in a variable"
            _error(diags, src, b.expr.offset,
                   f"rbuf '{b.name}' with TARGET_COMM_MPI_1SIDE: its memory is {why}; the window "
                   "covers a named object (an array, structure or variable), so name one")
        elif not bf.is_static_storage(b.variable) and cx.loc_file(b.variable.location) == src.path \
                and _declared_at(src, b.variable) >= region_start:
            _error(diags, src, b.expr.offset,
                   f"rbuf '{b.name}' with TARGET_COMM_MPI_1SIDE: '{b.variable.spelling}' is declared "
                   "inside the comm_parameters region, but its window opens where the region starts; "
                   "declare it before")


def _declared_at(src, cursor) -> int:
    """Offset in the user's file of a cursor of the probe parse: the probe keeps every line,
    and the columns of every line without a directive."""
    start = cursor.extent.start
    return src.offset(start.line, start.column)


def _check_symmetric(src, inst, tu, diags):
    for b in inst.rbufs:
        why = None
        if b.variable is None:
            why = "it is not in a variable"
        elif b.through_pointer:
            if b.variable.type.get_canonical().kind != cx.TK.POINTER:
                why = f"it is reached through a pointer inside '{b.variable.spelling}'"
            else:
                why = bf.from_shmem_allocator(tu, b.variable)
        elif not bf.is_static_storage(b.variable):
            why = f"'{b.variable.spelling}' is a local variable"
        if why:
            _error(diags, src, b.expr.offset,
                   f"rbuf '{b.name}' with TARGET_COMM_SHMEM is not symmetric: {why} (puts need a "
                   "global or static object, or memory from shmem_malloc)")


def _warn_computation_uses_buffers(src, inst, diags):
    variables = {b.variable.hash: b for b in inst.sbufs + inst.rbufs
                 if b.variable is not None and not b.through_pointer}
    for c in cx.walk_preorder(inst.stmt.cursor):
        if c.kind == cx.CK.DECL_REF_EXPR and c.referenced is not None \
                and c.referenced.hash in variables and cx.loc_file(c.location) == src.path:
            _warning(diags, src, c.extent.start.offset,
                     f"the computation of this comm_p2p uses '{c.spelling}', whose transfer may "
                     "still be in flight")
            return


def _check_libraries(src, layout, tu, diags):
    declared = set()
    pending = list(tu.cursor.get_children())
    while pending:   # C++ headers declare them in extern "C" blocks
        c = pending.pop()
        if c.kind == cx.CK.FUNCTION_DECL:
            declared.add(c.spelling)
        elif c.kind in (cx.CK.LINKAGE_SPEC, cx.CK.UNEXPOSED_DECL):
            pending.extend(c.get_children())
    for inst in layout.instances:
        need = "shmem_quiet" if inst.target == cl.SHMEM else "MPI_Isend"
        header = "<shmem.h>" if inst.target == cl.SHMEM else "<mpi.h>"
        if need not in declared:
            _error(diags, src, inst.directive.start, f"comm_p2p with {inst.target} needs {header}: "
                   "include it")
            return


def _plan_groups(src, layout: Layout, diags):
    """Each instance's group; standalone instances get their own. Dependent buffers in one
    group: a later instance completes the group's transfers first (two-sided), or is an
    error (one-sided: that would take a collective synchronization in the middle)."""
    previous = None
    for inst in sorted(layout.instances, key=lambda i: i.directive.start):
        if inst.region is not None:
            inst.group = inst.region.group
            continue
        # adjacent standalone instances with independent buffers share one completion
        if previous is not None and inst.typed and previous.typed and _adjacent(previous, inst) and \
                not any(_dependent(earlier, inst) for earlier in previous.group.standalone):
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
        g.windows = {}
        for k, inst in enumerate(g.instances):
            for earlier in g.instances[:k]:
                if _dependent(earlier, inst):
                    if inst.target != cl.TWO_SIDED or earlier.target != cl.TWO_SIDED:
                        _error(diags, src, inst.directive.start,
                               f"comm_p2p transfers a buffer of the comm_p2p at line "
                               f"{src.line_of(earlier.directive.start)} before their common "
                               "synchronization; with a one-sided target that needs a collective "
                               "synchronization between them: put them in separate comm_parameters "
                               "regions")
                    inst.waits_for_earlier = True
                    break
    for r in layout.regions:
        for inst in r.instances:
            if inst.target != cl.ONE_SIDED or not inst.typed:
                continue
            for b in inst.rbufs:
                key = b.variable.hash
                if key not in r.group.windows:
                    r.group.windows[key] = f"bamboo_comm_window_{r.group.number}_{len(r.group.windows)}"
                    r.window_objects.append(key)
                    r.window_object_names[key] = b.variable.spelling
    for g in layout.groups:
        for inst in g.standalone:
            if inst.target != cl.ONE_SIDED or not inst.typed:
                continue
            for b in inst.rbufs:
                key = b.variable.hash
                if key not in g.windows:
                    g.windows[key] = f"bamboo_comm_window_{g.number}_{len(g.windows)}"
                    g.standalone_windows.append((key, b.variable.spelling))
    for inst in layout.instances:
        if inst.in_loop and inst.region is not None and inst.region.clause("max_comm_iter") is None \
                and inst.target == cl.TWO_SIDED:
            _warning(diags, src, inst.directive.start,
                     "comm_p2p in a loop without max_comm_iter on its comm_parameters region: each "
                     "execution completes the one before instead of all completing together; give "
                     "max_comm_iter(N)")


def _adjacent(a: Instance, b: Instance) -> bool:
    """b's statement comes right after a's in the same block."""
    parent = a.stmt.parent
    if parent.kind != cx.CK.COMPOUND_STMT or b.stmt.parent != parent:
        return False
    siblings = [c.extent.start.offset for c in parent.get_children()]
    return a.stmt.cursor.extent.start.offset in siblings and \
        siblings.index(a.stmt.cursor.extent.start.offset) + 1 < len(siblings) and \
        siblings[siblings.index(a.stmt.cursor.extent.start.offset) + 1] == b.stmt.start


def _variables(buffers):
    return {b.variable.hash if b.variable is not None else None for b in buffers}


def _dependent(a: Instance, b: Instance) -> bool:
    """Whether b's buffers may overlap what a's transfer is still writing or reading (by the
    variables that hold them; buffers in different variables are taken as disjoint)."""
    a_r, a_s = _variables(a.rbufs), _variables(a.sbufs)
    b_r, b_s = _variables(b.rbufs), _variables(b.sbufs)
    if None in a_r | a_s | b_r | b_s:
        return True
    return bool(a_r & (b_r | b_s)) or bool(a_s & b_r)


class _Writer:
    def __init__(self, src: SourceFile, layout: Layout):
        self.src = src
        self.layout = layout
        self.edits = []          # (offset, end, rank, text)
        self.record_names = {}   # per function: {fn hash: {record spelling: name}}

    def write(self) -> str:
        self._declare_record_types()
        for r in self.layout.regions:
            self._region(r)
        for inst in self.layout.instances:
            self._instance(inst)
        out, pos = [], 0
        for start, end, _, text in sorted(self.edits, key=lambda e: (e[0], e[2])):
            out.append(self.src.text[pos:start])
            out.append(text)
            out.append("\n" * self.src.text.count("\n", start, end))
            pos = end
        out.append(self.src.text[pos:])
        return "".join(out)

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

    def _capacity(self, g: SyncGroup) -> str:
        parts = []
        for inst in g.instances:
            if inst.target != cl.TWO_SIDED:
                continue
            limit = inst.region.clause("max_comm_iter") if inst.region else None
            parts.append(f"2 * ({limit.expr.text})" if inst.in_loop and limit else "2")
        if all(p == "2" for p in parts):
            return str(2 * len(parts))
        return " + ".join(parts)

    def _storage(self, g: SyncGroup) -> str:
        return "".join(WRITERS[t].storage(g, self._capacity(g)) for t in sorted(g.targets))

    def _complete(self, g: SyncGroup) -> str:
        return "".join(WRITERS[t].complete(g) for t in sorted(g.targets))

    def _region(self, r: Region):
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

    def _instance(self, inst: Instance):
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
            for key, obj in g.standalone_windows:
                w = g.windows[key]
                text += (f"MPI_Win_create(&({obj}), (MPI_Aint)sizeof({obj}), 1, MPI_INFO_NULL, "
                         f"MPI_COMM_WORLD, &{w}); MPI_Win_fence(0, {w}); ")
            if cl.SHMEM in g.targets:
                text += WRITERS[cl.SHMEM].region_start(None)
        if g.standalone and g.standalone[-1] is inst:
            end = self._complete(g)
        text += f"int bamboo_comm_count = (int){inst.count}; "
        text += writer.post(inst, g, names)
        self.edits.append((inst.directive.start, inst.directive.end, 1,
                           f"{before}{text}/* comm_p2p */"))
        self.edits.append((inst.stmt.end, inst.stmt.end, 1, f" {end}}}"))

    def explain(self) -> str:
        lines = []
        src = self.src
        for r in self.layout.regions:
            g = r.group
            where = "at its end"
            if g.completes_at_next is not None:
                where = f"at the start of the comm_parameters region at line {src.line_of(g.completes_at_next.directive.start)}"
            elif len(g.regions) > 1:
                where = f"at the end of the region at line {src.line_of(g.regions[-1].directive.start)}"
            lines.append(f"{src.display}:{src.line_of(r.directive.start)}: comm_parameters: "
                         f"{len(r.instances)} comm_p2p; synchronization {where} "
                         f"(place_sync {r.placement}), one for all its transfers")
        for inst in self.layout.instances:
            lines.append(self._explain_instance(inst))
        return "\n".join(lines) + "\n"

    def _explain_instance(self, inst: Instance) -> str:
        src = self.src
        head = f"{src.display}:{src.line_of(inst.directive.start)}: comm_p2p ({WRITERS[inst.target].name}"
        if inst.region:
            head += f", region at line {src.line_of(inst.region.directive.start)})"
        else:
            last = inst.group.standalone[-1]
            head += ", standalone: completes after its computation)" if last is inst else \
                f", standalone: completes with the comm_p2p at line {src.line_of(last.directive.start)})"
        items = ", ".join(f"{s.name} -> {r.name} ({bf.element_name(s.element)})"
                          for s, r in zip(inst.sbufs, inst.rbufs))
        count = inst.count
        when = inst.clause("sendwhen")
        rwhen = inst.clause("receivewhen")
        if inst.target == cl.TWO_SIDED:
            how = (f"MPI_Irecv from sender({inst.clause('sender').expr.text})"
                   f"{' when ' + rwhen.expr.text if rwhen else ''}, MPI_Isend to "
                   f"receiver({inst.clause('receiver').expr.text}){' when ' + when.expr.text if when else ''}"
                   f", tag {TAG_BASE + inst.number}")
            if len(inst.sbufs) > 1:
                how += ", the list as one MPI struct datatype"
        elif inst.target == cl.ONE_SIDED:
            how = (f"MPI_Put to receiver({inst.clause('receiver').expr.text})"
                   f"{' when ' + when.expr.text if when else ''}, into windows over "
                   + ", ".join(sorted({r.variable.spelling for r in inst.rbufs})))
        else:
            how = (f"SHMEM puts to receiver({inst.clause('receiver').expr.text})"
                   f"{' when ' + when.expr.text if when else ''}")
        extra = ""
        if inst.waits_for_earlier:
            extra = "; completes the transfers before it first (shared buffers)"
        if inst.in_loop:
            extra += "; in a loop"
        return f"{head}: {items}, count {count}: {how}{extra}"
