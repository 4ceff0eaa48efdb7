"""``--explain``: what the translator did to a file, in words."""
from __future__ import annotations

from ..source import NameRewrites
from .rule_writers import TextRuleWriter


def _loc(prog, offset):
    f, l, c = prog.where(offset)
    return f"{f}:{l}:{c}"


def explain(prog, plans, privatized, main_info, companions) -> str:
    """``plans``: the regions' RegionPlans; ``privatized``: the variables privatized;
    ``companions``: the HelperRules of the companions written."""
    out = [f"bamboo: {prog.src.display}"]
    dims = [d for d in prog.directives if d.kind == "dimension" and d.valid]
    if dims:
        out.append(f"dimension: {dims[0].dimension} (embedding geometry of the layouts)")
    out.append("main: " + (main_info.describe() if main_info else "no main in this file"))
    pvs = list(privatized)
    # the rules as the user wrote them: privatized variables by their own names
    rules_text = TextRuleWriter(NameRewrites(prog.src))
    if pvs:
        out.append("privatized variables (one copy per task):")
        for pv in pvs:
            how = "defined here" if pv.defined_here else "declared here, defined elsewhere"
            out.append(f"  {pv.describe()}: {how}, {len(pv.uses)} use(s) -> "
                       f"BAMBOO_PRIVATE({pv.mangled})")
    else:
        out.append("privatized variables: none")
    for p in plans:
        r = p.region
        kind = (f"{r.stmt.kind.name.lower().replace('_stmt', '')} loop: each iteration is an "
                "evaluation point") if r.is_loop else "statement: one evaluation point"
        out.append("")
        out.append(f"region at {_loc(prog, r.directive.start)} in {r.fn.name}() ({kind})")
        if r.directive.layouts:
            out.append("  layouts: " + ", ".join(str(l) for l in r.directive.layouts))
        else:
            out.append("  layouts: none")

        def name(it):
            if it.block is None:
                return f"statement (line {it.stmt.line})"
            return f"{it.block.kind} block (line {it.block.line})"
        out.append("  blocks: " + ", ".join(name(it) for it in r.items if it.block))
        if p.moves:
            for m in p.moves:
                past = ", ".join(f"line {b.line}" for b in m.passed)
                out.append(f"  reordering: send block at line {m.send.line} moved before the "
                           f"receive block(s) at {past}")
            out.append("  order after reordering: " + ", ".join(name(it) for it in p.order))
        else:
            out.append("  reordering: none")
        for i, w in enumerate(p.windows, 1):
            lines = ", ".join(str(b.line) for b in w.blocks)
            out.append(f"  window {i} (receive block(s) at line {lines}):")
            a = w.analysis
            if a.rules:
                out.append("    firing rule:")
                out += rules_text.lines(a.rules, "      ")
                if a.shadows:
                    out.append("    (the rule works on its own copies of: " +
                               ", ".join(n for n, _ in a.shadows) + ")")
            else:
                out.append("    firing rule: empty (no message can be announced in advance)")
            for d in a.left_out:
                out.append(f"    left out, waits on its own: {d.what} at line {d.node.line}: "
                           f"{d.reason}")
    if companions:
        out.append("")
        out.append("helper firing rules:")
        for h in companions:
            where = f" (defined in {h.fn.src.display})" if h.fn.in_header else ""
            out.append(f"  {h.name}() for {h.fn.name}(){where}:")
            if h.analysis is not None and h.analysis.rules:
                out += TextRuleWriter(NameRewrites(h.fn.src)).lines(h.analysis.rules, "    ")
            else:
                out.append("    (empty)")
            if h.analysis is not None:
                for d in h.analysis.left_out:
                    out.append(f"    left out, waits on its own: {d.what} at line "
                               f"{d.node.line}: {d.reason}")
    return "\n".join(out) + "\n"
