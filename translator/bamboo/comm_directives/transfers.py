"""Each comm_p2p's transfer from its typed clauses: its buffers (buffers.py) paired and
checked, its count, and what its target asks of the buffers received into (a named object
for an MPI window, symmetric storage for SHMEM)."""
from __future__ import annotations

from ..frontend import cx
from . import buffers as bf
from . import clauses as cl
from .structure import Layout
from .targets import MAX_INSTANCES


def type_instances(src, layout: Layout, cursors, tu, cxx, diags):
    if len(layout.instances) > MAX_INSTANCES:
        diags.error_at(src, layout.instances[MAX_INSTANCES].directive.start,
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
        diags.error_at(src, clause.offset, f"sbuf has {len(s)} buffer(s) and rbuf {len(r)}: "
                       "they pair one to one")
        return
    for k, (a, b) in enumerate(zip(s, r), 1):
        if not bf.same_element(a.element, b.element):
            diags.error_at(src, b.expr.offset,
                           f"rbuf item {k} '{b.name}' holds '{bf.element_name(b.element)}' but "
                           f"sbuf item {k} '{a.name}' sends '{bf.element_name(a.element)}'")


def _infer_count(src, inst, diags):
    if inst.clause("count") is not None:
        inst.count = f"({inst.clause('count').expr.text})"
        return
    extents = [b.extent for b in inst.sbufs + inst.rbufs if b.extent is not None]
    if not extents:
        diags.error_at(src, inst.directive.start, "comm_p2p needs count(...): no buffer of sbuf "
                       "or rbuf is an array or object whose size says how many elements to "
                       "transfer")
        return
    inst.count = str(min(extents))


def _check_window_objects(src, inst, diags):
    region_start = inst.region.stmt.start if inst.region else inst.directive.start
    for b in inst.rbufs:
        if b.variable is None or b.through_pointer:
            why = f"through the pointer '{b.variable.spelling}'" if b.variable is not None and \
                b.through_pointer else "not in a variable"
            diags.error_at(src, b.expr.offset,
                           f"rbuf '{b.name}' with TARGET_COMM_MPI_1SIDE: its memory is {why}; the "
                           "window covers a named object (an array, structure or variable), so "
                           "name one")
        elif not bf.is_static_storage(b.variable) and cx.loc_file(b.variable.location) == src.path \
                and bf.declared_at(src, b.variable) >= region_start:
            diags.error_at(src, b.expr.offset,
                           f"rbuf '{b.name}' with TARGET_COMM_MPI_1SIDE: "
                           f"'{b.variable.spelling}' is declared inside the comm_parameters "
                           "region, but its window opens where the region starts; declare it "
                           "before")


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
            diags.error_at(src, b.expr.offset,
                           f"rbuf '{b.name}' with TARGET_COMM_SHMEM is not symmetric: {why} (puts "
                           "need a global or static object, or memory from shmem_malloc)")


def _warn_computation_uses_buffers(src, inst, diags):
    variables = {b.variable.hash: b for b in inst.sbufs + inst.rbufs
                 if b.variable is not None and not b.through_pointer}
    for c in cx.walk_preorder(inst.stmt.cursor):
        if c.kind == cx.CK.DECL_REF_EXPR and c.referenced is not None \
                and c.referenced.hash in variables and cx.loc_file(c.location) == src.path:
            diags.warning_at(src, c.extent.start.offset,
                             f"the computation of this comm_p2p uses '{c.spelling}', whose "
                             "transfer may still be in flight")
            return


def check_libraries(src, layout, tu, diags):
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
            diags.error_at(src, inst.directive.start,
                           f"comm_p2p with {inst.target} needs {header}: include it")
            return
