"""Bamboo's directives in Fortran: `!$bamboo olap`, `send` and `receive`, lowered over
fparser's tree, line for line.

A directive applies to the statement or construct that follows it (comments between them
aside). Before a receive block the task announces the messages the block will receive and
waits for them, off its worker (a firing rule: `bamboo_expect` per receive, under the same
DO loops and IFs, then `bamboo_fire`); a block of receives, waits and nothing else announces
its receives whole (`bamboo_expect_receive`), so that their messages land in the buffers as
they arrive. A send block's messages to another process may leave together
(`bamboo_send_block_begin`/`_end`). The rule is written on the directive's line and the end
of a send block on the block's last line, so every line keeps its number.

The rule can only be announced if it reads nothing the block changes: a receive block that
calls a procedure other than MPI's receives and waits, or assigns what the rule reads, keeps
its receives as written, each waiting on its own (a note says why); that is always correct.
A function in the rule's expressions is evaluated once more, by the rule: Fortran does not
tell `f(i)` a function from an array element without declarations that may be in another
file's module, so such a function must not change anything (C's translator checks it).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

DIRECTIVE = re.compile(r"^(\s*)[!cC*]\$bamboo\s+(\w+)(.*)$", re.IGNORECASE)
RECEIVES = {"mpi_recv", "mpi_irecv"}
WAITS = {"mpi_wait", "mpi_waitall", "mpi_waitany", "mpi_waitsome", "mpi_test", "mpi_testall", "mpi_testany"}


class NotAnnounced(Exception):
    """Why a receive block's rule cannot be written."""


@dataclass
class Lowering:
    """Edits by line (1-based, of the text fparser read), and what --explain says."""
    lines: dict[int, str] = field(default_factory=dict)
    appended: dict[int, str] = field(default_factory=dict)
    explanation: list[str] = field(default_factory=list)
    notes: list[tuple[int, str]] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)

    def append(self, line: int, text: str) -> None:
        """Code at the end of a line's statement (after what other directives put there)."""
        self.appended[line] = self.appended.get(line, "") + text

    def remap(self, line_of) -> "Lowering":
        """The same edits on other line numbers (a preprocessed text's, back to its file's)."""
        return Lowering({line_of(n): text for n, text in self.lines.items()},
                        {line_of(n): text for n, text in self.appended.items()})


def statement_lines(node) -> tuple[int, int] | None:
    """First and last line of a statement or construct."""
    item = getattr(node, "item", None)
    if item is not None and getattr(item, "span", None):
        return item.span
    content = getattr(node, "content", None)
    if not content:
        return None
    spans = [s for s in (statement_lines(child) for child in content if type(child).__name__ != "Comment") if s]
    return (spans[0][0], spans[-1][1]) if spans else None


def statements_of(tree):
    """Every executable statement and construct, outermost first (the END of a construct is
    part of it, never a statement of its own)."""
    from fparser.two import Fortran2003 as F
    from fparser.two.utils import Base, walk
    for part in walk(tree, F.Execution_Part):
        stack = list(reversed(part.content))
        while stack:
            node = stack.pop()
            if not isinstance(node, Base):
                continue
            name = type(node).__name__
            if name.endswith(("_Construct", "_Stmt")) and not name.startswith("End_") and name != "Comment":
                yield node
            stack.extend(reversed(list(getattr(node, "content", None) or node.children)))


def _names(node) -> set[str]:
    from fparser.two import Fortran2003
    from fparser.two.utils import walk
    return {str(n).lower() for n in walk(node, Fortran2003.Name)}


def base_variable(reference) -> str:
    """The variable a reference writes: `lo` of `lo(d)`, `p` of `p%x(3)`."""
    return re.split(r"[(%]", str(reference), maxsplit=1)[0].strip().lower()


def _args(call) -> list:
    return list(call.items[1].items) if call.items[1] is not None else []


class _Rule:
    """The rule of one receive block: its statements, what it reads, what the block writes.
    `whole`: the block holds receives (into buffers with an address of their own), waits,
    loops and IFs only, so its receives can be announced whole."""

    def __init__(self, whole: bool):
        self.reads: set[str] = set()
        self.writes: set[str] = set()
        self.whole = whole

    def block(self, node) -> list[str]:
        from fparser.two import Fortran2003 as F
        from fparser.two import Fortran2008
        kind = type(node).__name__
        if kind == "Comment" or isinstance(node, (F.Continue_Stmt,)):
            return []
        if isinstance(node, F.Call_Stmt):
            return self.call(node)
        if isinstance(node, (F.Block_Nonlabel_Do_Construct, F.Block_Label_Do_Construct)):
            return self.loop(node)
        if isinstance(node, F.If_Construct):
            return self.branches(node)
        if isinstance(node, Fortran2008.Block_Construct):
            if any(isinstance(child, F.Specification_Part) for child in node.content):
                raise NotAnnounced("its BLOCK declares variables of its own, which the rule cannot see")
            return [line for child in node.content[1:-1] for line in self.block(child)]
        if isinstance(node, F.If_Stmt):
            self.reads |= _names(node.items[0])
            inner = self.block(node.items[1])
            return [f"IF ({node.items[0]}) THEN", *inner, "END IF"] if inner else []
        if isinstance(node, F.Assignment_Stmt):
            self.writes.add(base_variable(node.items[0]))
            return []
        if isinstance(node, (F.Write_Stmt, F.Print_Stmt)):
            return []
        raise NotAnnounced(f"it holds a {kind.replace('_', ' ').lower()}, which the rule cannot redo")

    def call(self, node) -> list[str]:
        name = str(node.items[0]).lower()
        args = _args(node)
        if name in RECEIVES and len(args) >= 8:
            buf, count, datatype, source, tag, comm = args[:6]
            self.writes |= {base_variable(args[6]), base_variable(args[7]), base_variable(buf)}  # status or request, ierror
            self.reads |= {*_names(count), *_names(datatype), *_names(source), *_names(tag), *_names(comm)}
            if self.whole:
                self.reads |= _names(buf) - {base_variable(buf)}
                return [f"CALL bamboo_expect_receive({buf}, {count}, {datatype}, {source}, {tag}, {comm})"]
            return [f"CALL bamboo_expect({source}, {tag}, {comm})"]
        if name in WAITS:
            self.writes |= {base_variable(a) for a in args}
            return []
        raise NotAnnounced(f"it calls {name.upper()}, which may change what the rule reads")

    def loop(self, node) -> list[str]:
        from fparser.two import Fortran2003 as F
        from fparser.two.utils import walk
        head = node.content[0]
        controls = list(walk(head, F.Loop_Control))
        if not controls or "WHILE" in str(controls[0]).upper() or "CONCURRENT" in str(head).upper():
            raise NotAnnounced("a DO WHILE or DO CONCURRENT loop's trips cannot be counted ahead")
        variable = str(controls[0]).split("=")[0].strip().lower()
        self.reads |= _names(controls[0]) - {variable}
        body = [line for child in node.content[1:-1] for line in self.block(child)]
        last = node.content[-1]
        if not isinstance(last, F.End_Do_Stmt):  # a labelled DO ending on a statement
            body += self.block(last)
        if variable in self.writes:
            raise NotAnnounced(f"the block assigns its loop variable {variable}")
        return [f"DO {controls[0]}", *body, "END DO"] if body else []

    def branches(self, node) -> list[str]:
        from fparser.two import Fortran2003 as F
        out, has_receive = [], False
        for child in node.content:
            if isinstance(child, F.If_Then_Stmt):
                self.reads |= _names(child.items[0])
                out.append(f"IF ({child.items[0]}) THEN")
            elif isinstance(child, F.Else_If_Stmt):
                self.reads |= _names(child.items[0])
                out.append(f"ELSE IF ({child.items[0]}) THEN")
            elif isinstance(child, F.Else_Stmt):
                out.append("ELSE")
            elif isinstance(child, F.End_If_Stmt):
                out.append("END IF")
            else:
                inner = self.block(child)
                has_receive |= bool(inner)
                out += inner
        return out if has_receive else []


WHOLE_STATEMENTS = {"Nonlabel_Do_Stmt", "Label_Do_Stmt", "End_Do_Stmt", "If_Then_Stmt", "Else_If_Stmt",
                    "Else_Stmt", "End_If_Stmt", "If_Stmt", "Continue_Stmt", "Block_Stmt", "End_Block_Stmt"}


def _loop_variables(node, top) -> set[str]:
    """The variables of the DO loops around `node`, up to `top`."""
    from fparser.two import Fortran2003 as F
    from fparser.two.utils import walk
    found = set()
    while node is not None and node is not top.parent:
        if isinstance(node, (F.Block_Nonlabel_Do_Construct, F.Block_Label_Do_Construct)):
            controls = list(walk(node.content[0], F.Loop_Control))
            if controls:
                found.add(str(controls[0]).split("=")[0].strip().lower())
        node = getattr(node, "parent", None)
    return found


def program_unit_of(node):
    """The program, subprogram or module a node stands in (its declarations are there)."""
    while node is not None and type(node).__name__ not in (
            "Main_Program", "Subroutine_Subprogram", "Function_Subprogram", "Module"):
        node = getattr(node, "parent", None)
    return node


def _copied_when_passed(node) -> set[str]:
    """The arrays of the program unit around `node` that gfortran may pass to an MPI routine
    as a contiguous copy: pointers, and assumed-shape dummies (not allocatables)."""
    from fparser.two import Fortran2003 as F
    from fparser.two.utils import walk
    node = program_unit_of(node)
    copied = set()
    shapes = (F.Assumed_Shape_Spec, F.Deferred_Shape_Spec)
    for declaration in walk(node, F.Type_Declaration_Stmt) if node is not None else []:
        attributes = declaration.items[1]
        pointer = "POINTER" in str(attributes or "").upper()
        allocatable = "ALLOCATABLE" in str(attributes or "").upper()
        shaped_by_attribute = bool(walk(attributes, shapes)) if attributes is not None else False
        for entity in walk(declaration, F.Entity_Decl):
            shaped = shaped_by_attribute or bool(walk(entity, shapes))
            if pointer or (shaped and not allocatable):
                copied.add(str(entity.items[0]).lower())
    return copied


def _receives_only(node) -> bool:
    """Whether a block holds nothing but receives, waits, loops and IFs, each receive into a
    buffer passed by its own address (not a copy, which would be gone when the message lands)
    and different with every loop around it, by its subscripts or its datatype (two receives
    posted into one buffer at once would be erroneous MPI)."""
    from fparser.two import Fortran2003 as F
    from fparser.two.utils import walk
    copied = _copied_when_passed(node)
    for statement in [node, *walk(node)]:
        kind = type(statement).__name__
        if isinstance(statement, F.Call_Stmt):
            name = str(statement.items[0]).lower()
            if name in RECEIVES:
                args = _args(statement)
                if len(args) < 3 or not _stable_address(args[0]) or base_variable(args[0]) in copied:
                    return False
                varies = (_names(args[0]) - {base_variable(args[0])}) | _names(args[2])
                if not _loop_variables(statement, node) <= varies:
                    return False
            elif name not in WAITS:
                return False
        elif kind.endswith("_Stmt") and kind not in WHOLE_STATEMENTS:
            return False
    return True


def _stable_address(buf) -> bool:
    """Whether a buffer argument is passed by its own address: a variable, or an array element
    with scalar subscripts (a section may be passed as a temporary copy, which would be gone
    when the announced receive lands)."""
    text = str(buf)
    if re.fullmatch(r"\w+", text):
        return True
    return bool(re.fullmatch(r"\w+\s*\((?:[^():]|\([^()]*\))*\)", text))


def following(statements, line: int, lines: list[str]):
    """The outermost statement or construct that starts first after `line`, with only comments
    and blank lines between."""
    best = None
    for node in statements:
        span = statement_lines(node)
        if not span or span[0] <= line:
            continue
        if best is None or span[0] < best[1][0] or (span[0] == best[1][0] and span[1] > best[1][1]):
            best = (node, span)
    if best is None:
        return None
    between = lines[line:best[1][0] - 1]
    if any(text.strip() and not text.lstrip().startswith("!") and text[:1] not in "cC*" for text in between):
        return None
    return best


def _code_end(text: str) -> int:
    """Where a line's code ends: before a trailing comment (a `!` outside a string)."""
    quote = None
    for i, char in enumerate(text):
        if quote:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "!":
            return i
    return len(text)


def lower_directives(tree, lines: list[str], own_line, site, fixed_form: bool, lowering: Lowering) -> None:
    """Edits for the directives on the lines `own_line(n)` says are the file's own; `site(n)`
    is the file and line a rule written on line n reports its waits at. In fixed form the
    statements written start at column 7 at the earliest, where a statement may. Adds the
    edits to `lowering`."""
    statements = list(statements_of(tree))
    for number, text in enumerate(lines, 1):
        directive = DIRECTIVE.match(text)
        if not directive or not own_line(number):
            continue
        indent, kind, rest = directive.group(1), directive.group(2).lower(), directive.group(3).strip()
        if fixed_form:
            indent = indent.ljust(6)
        if kind not in ("olap", "send", "receive", "priority", "dimension"):
            lowering.errors.append((number, f"unknown Bamboo directive '{kind}' (olap, send, receive, priority, "
                                            "dimension)"))
            continue
        if kind == "priority":
            # From here on, as C's: EXPR is the task's priority (gfortran checks it, on this line).
            if not rest:
                lowering.errors.append((number, "'!$bamboo priority' needs an integer expression"))
                continue
            lowering.lines[number] = f"{indent}CALL bamboo_set_priority({rest})"
            lowering.explanation.append(f"line {number}: priority {rest} from here on")
            continue
        if kind == "dimension":
            # The layouts' geometry, as in C: checked, not needed by the runtime yet.
            if not re.fullmatch(r"[1-9]\d*", rest):
                lowering.errors.append((number, "'!$bamboo dimension' takes a positive integer"))
            continue
        found = following(statements, number, lines)
        if found is None:
            lowering.errors.append((number, f"'!$bamboo {kind}' must be followed by a statement or construct"))
            continue
        node, (first, last) = found
        if kind == "olap":
            lowering.explanation.append(f"line {number}: olap region, lines {first}-{last}")
        elif kind == "send":
            lowering.lines[number] = f"{indent}CALL bamboo_send_block_begin()"
            lowering.append(last, "; CALL bamboo_send_block_end()")
            lowering.explanation.append(f"line {number}: send block, lines {first}-{last}: its messages to "
                                        "another process may leave together")
        else:
            rule = _Rule(_receives_only(node))
            try:
                statements_of_rule = rule.block(node)
                conflict = sorted(rule.reads & rule.writes)
                if conflict:
                    raise NotAnnounced(f"it assigns {', '.join(conflict)}, which the rule reads")
            except NotAnnounced as why:
                lowering.notes.append((number, f"the receive block's messages are not announced: {why}; "
                                               "each of its receives waits on its own"))
                continue
            if not statements_of_rule:
                lowering.notes.append((number, "the receive block has no receive to announce"))
                continue
            where, line = site(number)
            fire = "CALL bamboo_fire_at('{}', {})".format(where.replace("'", "''"), line)
            lowering.lines[number] = indent + "; ".join([*statements_of_rule, fire])
            how = "whole (received into their buffers as they arrive)" if rule.whole else "by source and tag"
            lowering.explanation.append(f"line {number}: receive block, lines {first}-{last}, announced {how}:")
            lowering.explanation += [f"    {s}" for s in statements_of_rule]


def apply(lines: list[str], lowering: Lowering, columns: int | None = None) -> str:
    """The file with the edits. The translation is compiled without a line length limit (a
    rule may be long), so in fixed form, whose compiler ignores what stands past `columns`
    (old code keeps sequence numbers there), the user's lines are cut at that column first."""
    out = []
    for number, text in enumerate(lines, 1):
        if columns is not None and number not in lowering.lines:
            text = text[:columns]
        text = lowering.lines.get(number, text)
        if number in lowering.appended:
            end = _code_end(text)
            text = text[:end].rstrip() + lowering.appended[number] + (" " + text[end:] if end < len(text) else "")
        out.append(text)
    return "\n".join(out) + "\n"
