"""Making the planned privatization's edits (plan.py): renamed declarations, the offsets'
declarations, constructed objects' typedefs, function-local statics moved before their function,
every use rewritten, and the C file's registration constructor."""
from __future__ import annotations

from ...emit.edits import EditBuffer, EditOrder
from ...frontend import cx
from ...frontend.model import Program
from ..base import Transformation
from .plan import PrivatizationPlan
from .registration import constructor, offset_storage, registration_entry


class PrivatizeGlobals(Transformation):
    def __init__(self, prog: Program, plan: PrivatizationPlan):
        self.prog = prog
        self.plan = plan

    def check(self):
        """Checked while planned (plan_privatization)."""

    def apply(self, buf: EditBuffer):
        prog, plan = self.prog, self.plan
        if not prog.cxx:  # C++: no variable of a header's
            self._declare_header_templates(buf)
        for off, decls in plan.offset_declarations.items():
            parts = [" "]
            for decl in decls:
                parts += [*decl, " "]
            parts.append(" /* bamboo: privatized */")
            for part in parts:
                if isinstance(part, str):
                    buf.insert(off, part, EditOrder.OFFSET_DECLARATION)
                else:  # an initializer, into the function that constructs its object
                    buf.move(*part, off, EditOrder.OFFSET_DECLARATION)
        for start, end, text in plan.object_edits:
            if start == end:
                buf.insert(start, text, EditOrder.OBJECT_TYPEDEF)
            else:
                buf.replace(start, end, text + "\n" * prog.src.text.count("\n", start, end))
        for start, end, text in plan.header_copies:
            if start == end:
                buf.insert(start, text, EditOrder.HEADER_MACRO_COPY)
            else:
                buf.replace(start, end, text)
        for stmt, fn, pvs in plan.local_moves:
            self._move_statics(buf, stmt, fn, pvs)
        local_stmt_ranges = [(n.start, n.end) for n, _, pvs in plan.local_moves
                             if not pvs[0].constructed]
        # directives are replaced as a whole (priority expressions: UseFinder)
        directive_ranges = [(d.start, d.end) for d in prog.directives]
        for off, (end, text) in plan.rewrites.items():
            if any(a <= off < b for a, b in local_stmt_ranges + directive_ranges):
                continue
            buf.replace(off, end, text)
        defined = [pv for pv in plan.variables if pv.defined_here]
        if defined and not prog.cxx:  # C++ variables register where their offset is defined
            header_offsets = "".join(f"\n{offset_storage(pv)}size_t bamboo_offset_{pv.mangled};  "
                                     f"/* bamboo: privatized '{pv.name}', defined in a header */"
                                     for pv in defined if pv.defined_in_header)
            buf.append(header_offsets + constructor(prog, defined))

    def _declare_header_templates(self, buf: EditBuffer):
        """A use before any declaration in this file: the template is declared from the
        header's declaration."""
        for pv in self.plan.variables:
            # uses spelled in a header stand in its copy, where this file included it
            here = [n for n in pv.uses if not hasattr(n, "cursor") or
                    cx.file_location(n.cursor.location)[0] in (None, self.prog.src.path)]
            if pv.linkage == "local" or not here:
                continue
            first = min(here, key=lambda n: n.start)
            first_decl = min((c.extent.start.offset for c in pv.decls), default=None)
            if first_decl is None or first_decl > first.start:
                top = self._top_level_start(first.start)
                buf.insert(self.prog.src.line_start(top),
                           f"extern __typeof__({pv.name}) bamboo_initial_{pv.mangled}; "
                           f"{offset_storage(pv) or 'extern '}size_t bamboo_offset_{pv.mangled};  "
                           f"/* bamboo: privatized '{pv.name}', declared in a header */\n",
                           EditOrder.HEADER_VARIABLE_DECLARATION)

    def _move_statics(self, buf: EditBuffer, stmt, fn, pvs):
        """A function-local static's template moves before the function (a constructed
        object's typedef and offset: ObjectDeclarations.construct_in_place)."""
        prog, src = self.prog, self.prog.src
        if pvs[0].constructed:
            buf.insert(self._namespace_scope_start(fn),
                       f"{self.plan.local_object_types[stmt.start]} "
                       f"/* bamboo: privatized static of {fn.name}() */ ",
                       EditOrder.LOCAL_STATIC_TEMPLATE)
            return
        text = self.plan.rewrites.code(stmt.start, stmt.stmt_end())
        if prog.cxx:
            offs = " ".join(f"static size_t bamboo_offset_{pv.mangled} = "
                            f"bamboo_register_global({registration_entry(prog, pv)});"
                            for pv in pvs)
        else:
            offs = " ".join(f"static size_t bamboo_offset_{pv.mangled};" for pv in pvs)
        names = ", ".join(pv.name for pv in pvs)
        buf.insert(self._namespace_scope_start(fn),
                   f"{text} {offs} /* bamboo: privatized static of {fn.name}() */ ",
                   EditOrder.LOCAL_STATIC_TEMPLATE)
        nl = src.text.count("\n", stmt.start, stmt.stmt_end())
        buf.replace(stmt.start, stmt.stmt_end(),
                    f"/* bamboo: static {names} privatized (template before {fn.name}()) */"
                    + "\n" * nl)

    @staticmethod
    def _namespace_scope_start(fn) -> int:
        """Where the function's definition starts at namespace scope: a member function
        defined in its class, before the outermost class."""
        start = fn.node.start
        c = fn.cursor.lexical_parent
        while c is not None and c.kind in cx.CLASS_KINDS:
            start = c.extent.start.offset
            c = c.lexical_parent
        return start

    def _top_level_start(self, offset: int) -> int:
        for fn in self.prog.function_order:
            if fn.node.start <= offset < fn.node.end:
                return fn.node.start
        for n in self.prog.file_vars:
            if n.start <= offset < n.end:
                return n.start
        return offset
