"""Firing-rule companions of helper functions: ``bamboo_expect_<fn>()``, a side-effect-free
function that announces the messages ``fn`` will receive, called from the firing rules of
the windows (and companions) that call ``fn``.  Its prototype goes before the helper's first
declaration, its definition right after the helper's."""
from __future__ import annotations

from ..emit.edits import EditBuffer, EditOrder
from ..emit.rule_writers import C_INDENT, CRuleWriter
from ..source import NameRewrites


def _parameters(helper, rewrites: NameRewrites) -> str:
    params = [rewrites.text(p.start, p.end) for p in helper.fn.params]
    return ", ".join(params) if params else "void"


def prototype(helper, rewrites: NameRewrites) -> str:
    return f"static void {helper.name}({_parameters(helper, rewrites)}) __attribute__((unused));"


def definition(helper, rewrites: NameRewrites) -> str:
    fn = helper.fn
    lines = [f"/* bamboo: firing rule of {fn.name}(): announces the messages it will receive, "
             "without side effects */",
             f"static void {helper.name}({_parameters(helper, rewrites)})", "{"]
    for p in fn.params:
        v = fn.node.prog.var(p.cursor)
        if p.spelling and (v is None or v.key not in helper.analysis.reads):
            lines.append(f"{C_INDENT}(void){p.spelling};")
    lines += CRuleWriter(rewrites).lines(helper.analysis.rules, C_INDENT)
    lines.append("}")
    return "\n".join(lines)


def add_companions(prog, helpers, buf: EditBuffer, used, rewrites: NameRewrites):
    """Prototype before the helper's first declaration, definition right after it."""
    for h in helpers.values():
        if not h.possible or h.analysis is None or h.fn.name not in used:
            continue
        decls = [c for c in prog.declared_functions.get(h.fn.name, []) if prog.in_main(c)]
        first = min((c.extent.start.offset for c in decls), default=h.fn.node.start)
        buf.insert(prog.src.line_start(first), prototype(h, rewrites) + "  /* bamboo: firing rule "
                   f"of {h.fn.name}(), defined after it */\n", EditOrder.COMPANION_PROTOTYPE)
        buf.insert(h.fn.node.end, "\n" + definition(h, rewrites), EditOrder.COMPANION_DEFINITION)
