"""Firing rules written out: as C (the statements before a window, a companion's body) and
as text for --explain.  Both spell the user's code through ``NameRewrites``: the C writer
with privatized names rewritten, the text writer as the user wrote it."""
from __future__ import annotations

from ..analysis.rules import Code, RuleVisitor
from ..source import NameRewrites

C_INDENT = "    "
TEXT_INDENT = "  "


class _RuleWriter(RuleVisitor):
    def __init__(self, names: NameRewrites):
        self.names = names

    def lines(self, rules, indent: str) -> list:
        out = []
        for r in rules:
            out += self.visit(r, indent)
        return out

    def code(self, code: Code) -> str:
        return self.names.code(code.start, code.end)

    def arguments(self, rule) -> str:
        return ", ".join(self.code(a) for a in rule.args)

    # statements read the same in C and in text
    def visit_Declaration(self, r, indent):
        init = f" = {self.code(r.init)}" if r.init is not None else ""
        return [f"{indent}{r.type_spelling} {r.name}{init};"]

    def visit_Assignment(self, r, indent):
        return [f"{indent}{self.code(r.code).rstrip(';')};"]

    def visit_Jump(self, r, indent):
        return [f"{indent}{r.keyword};"]


class CRuleWriter(_RuleWriter):
    """The rule as C statements, one line each, with privatized names rewritten."""

    def visit_Expect(self, r, indent):
        if r.buffer is not None:
            return [f"{indent}bamboo_expect_receive({self.code(r.buffer)}, {self.code(r.count)}, "
                    f"{self.code(r.datatype)}, {self.code(r.source)}, {self.code(r.tag)}, "
                    f"{self.code(r.comm)});"]
        return [f"{indent}bamboo_expect({self.code(r.source)}, {self.code(r.tag)}, "
                f"{self.code(r.comm)});"]

    def visit_CollectiveExpect(self, r, indent):
        root = self.code(r.root) if r.root is not None else "0"
        op = self.code(r.op) if r.op is not None else "MPI_OP_NULL"
        return [f"{indent}bamboo_expect_collective({r.collective}, {root}, {op}, "
                f"{self.code(r.comm)});"]

    def visit_CompanionCall(self, r, indent):
        return [f"{indent}bamboo_expect_{r.helper}({self.arguments(r)});"]

    def _braced(self, head, body, indent):
        return [f"{indent}{head}{{"] + self.lines(body, indent + C_INDENT)

    def visit_Block(self, r, indent):
        return self._braced("", r.body, indent) + [f"{indent}}}"]

    def visit_If(self, r, indent):
        out = self._braced(f"if ({self.code(r.cond)}) ", r.body, indent)
        if r.orelse:
            out += [f"{indent}}} else {{"] + self.lines(r.orelse, indent + C_INDENT)
        return out + [f"{indent}}}"]

    def visit_For(self, r, indent):
        return self._braced(f"for ({self.code(r.header)}) ", r.body, indent) + [f"{indent}}}"]

    def visit_While(self, r, indent):
        return self._braced(f"while ({self.code(r.cond)}) ", r.body, indent) + [f"{indent}}}"]

    def visit_DoWhile(self, r, indent):
        return self._braced("do ", r.body, indent) + [f"{indent}}} while ({self.code(r.cond)});"]


class TextRuleWriter(_RuleWriter):
    """The rule for --explain: ``if (up >= 0): message from up, tag 0, MPI_COMM_WORLD``."""

    def visit_Expect(self, r, indent):
        into = f", into {self.code(r.buffer)} (posted here)" if r.buffer is not None else ""
        return [f"{indent}message from {self.code(r.source)}, tag {self.code(r.tag)}, "
                f"{self.code(r.comm)}{into}  [line {r.node.line}]"]

    def visit_CollectiveExpect(self, r, indent):
        details = "".join(f", {what} {self.code(value)}" for what, value in
                          (("root", r.root), ("op", r.op)) if value is not None)
        return [f"{indent}first messages of {r.node.callee_name} on {self.code(r.comm)}"
                f"{details}  [line {r.node.line}]"]

    def visit_CompanionCall(self, r, indent):
        return [f"{indent}messages of {r.helper}({self.arguments(r)})  [line {r.node.line}]"]

    def visit_Block(self, r, indent):
        return self.lines(r.body, indent)

    def _headed(self, head, body, indent, one_line=False):
        sub = self.lines(body, indent + TEXT_INDENT)
        if one_line and len(sub) == 1:
            return [f"{indent}{head} {sub[0].strip()}"]
        return [f"{indent}{head}"] + sub

    def visit_If(self, r, indent):
        out = self._headed(f"if ({self.code(r.cond)}):", r.body, indent, one_line=not r.orelse)
        if r.orelse:
            out += [f"{indent}else:"] + self.lines(r.orelse, indent + TEXT_INDENT)
        return out

    def visit_For(self, r, indent):
        return self._headed(f"for ({self.code(r.header)}):", r.body, indent)

    def visit_While(self, r, indent):
        return self._headed(f"while ({self.code(r.cond)}):", r.body, indent)

    def visit_DoWhile(self, r, indent):
        return self._headed(f"do while ({self.code(r.cond)}):", r.body, indent)
