"""The firing rule as a tree: what the slicer keeps of a window (or of a helper's body) and
the messages it announces.

Expressions are ``Code`` ranges of the user's source, not text: the C writer spells them
with privatized names rewritten (emit/rule_c.py), --explain as the user wrote them
(emit/explain.py).  Writers are ``RuleVisitor``s, one method per node class.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..frontend.model import Node


@dataclass(frozen=True)
class Code:
    """A range of the user's source text (an expression, a statement, a loop header)."""
    start: int
    end: int

    @classmethod
    def of(cls, node: Node) -> "Code":
        return cls(node.start, node.end)


@dataclass
class Expect:
    """``bamboo_expect(source, tag, comm)``: one message a receive will take; announced whole
    (``bamboo_expect_receive``), with the receive's buffer, count and datatype."""
    node: Node
    source: Code
    tag: Code
    comm: Code
    buffer: Code | None = None
    count: Code | None = None
    datatype: Code | None = None
    essential = True


@dataclass
class CollectiveExpect:
    """``bamboo_expect_collective(...)``: the first messages of a collective; ``root`` and
    ``op`` are None where the collective has none."""
    node: Node
    collective: str
    root: Code | None
    op: Code | None
    comm: Code
    essential = True


@dataclass
class CompanionCall:
    """A call of a helper's companion, with the helper call's arguments."""
    node: Node
    helper: str
    args: tuple
    essential = True


@dataclass
class Declaration:
    """A local the rule needs, declared (and initialized) as in the window."""
    node: Node
    type_spelling: str
    name: str
    init: Code | None
    essential = True


@dataclass
class Assignment:
    """An assignment statement the rule needs, as written."""
    node: Node
    code: Code
    essential = True


@dataclass
class Jump:
    """``break``, ``continue`` or ``return`` (in a helper's companion)."""
    node: Node
    keyword: str

    @property
    def essential(self) -> bool:
        # a return decides whether what follows runs; a break or continue alone does not
        # make a loop worth keeping
        return self.keyword == "return"


@dataclass
class Block:
    """Braces, kept where the rule declares variables of its own."""
    node: Node
    body: list = field(default_factory=list)

    @property
    def essential(self) -> bool:
        return any(r.essential for r in self.body)


@dataclass
class If:
    node: Node
    cond: Code
    body: list = field(default_factory=list)
    orelse: list = field(default_factory=list)

    @property
    def essential(self) -> bool:
        return any(r.essential for r in self.body + self.orelse)


@dataclass
class For:
    node: Node
    header: Code         # between the parentheses
    body: list = field(default_factory=list)
    essential = True     # kept only around essential rules


@dataclass
class While:
    node: Node
    cond: Code
    body: list = field(default_factory=list)
    essential = True


@dataclass
class DoWhile(While):
    """The body runs once before the condition is first tested."""


ANNOUNCEMENTS = (Expect, CollectiveExpect, CompanionCall)


def children(rule) -> list:
    """The rules nested in ``rule`` (an if's branches one after the other)."""
    return getattr(rule, "body", []) + getattr(rule, "orelse", [])


def walk_rules(rules, into=lambda rule: True):
    """Every rule of the tree, in preorder (the order the rule runs its statements); the
    rules nested in a rule are visited only where ``into(rule)``."""
    pending = list(reversed(rules))
    while pending:
        rule = pending.pop()
        yield rule
        if into(rule):
            pending.extend(reversed(children(rule)))


def announcements(rules) -> list:
    """The expects and companion calls of the tree."""
    return [r for r in walk_rules(rules) if isinstance(r, ANNOUNCEMENTS)]


class RuleVisitor:
    """Dispatches each rule to the method named after its class (``visit_Expect``, ...)."""

    def visit(self, rule, *args):
        return getattr(self, "visit_" + type(rule).__name__)(rule, *args)
