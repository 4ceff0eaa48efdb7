"""Seed 003's communication directives in Fortran, lowered to MPI two-sided, line for line.

    !$comm_parameters CLAUSE...    a param region: the statement or construct after it
    !$comm_p2p CLAUSE...           an instance: its transfer is posted on its line; the
                                   statement after it is computation that may overlap it

The clauses and their meaning are C's (docs/comm-directives.md, comm_directives/clauses.py).
An instance posts `bamboo_cd_transfer(sbuf, rbuf, bytes, sender, receiver, sendwhen,
receivewhen, tag, file, line)` on its line (the receive, then the send, on the directives'
communicator: runtime/fortran/src/comm_directives.cpp); its region completes every transfer
it posted at its end (`bamboo_cd_complete`, appended to the region's last line). An
instance outside any region is a region of its own.

A buffer is a variable or an element or component of one. The bytes moved are its count
(the `count` clause, or by default the fewer elements of `sbuf` and `rbuf`, from their
declarations) times `storage_size(sbuf) / 8`. Like C's lowering, an instance that names a
buffer an earlier instance of its region named, or that runs in a loop of its region without
`max_comm_iter`, completes what is pending before it posts: correct, with less overlap.

Only the MPI two-sided target, one buffer per clause and `place_sync(END_PARAM_REGION)` are
lowered for Fortran; anything else is an error where the directive stands.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..comm_directives.clauses import (CLAUSES, END_PARAM_REGION, PARAMETERS, P2P, REGION_ONLY,
                                       REQUIRED, TWO_SIDED)
from ..comm_directives.targets import TAG_BASE
from .directives import Lowering, base_variable, following, program_unit_of, statement_lines, statements_of

DIRECTIVE = re.compile(r"^(\s*)[!cC*]\$(comm_parameters|comm_p2p)\b(.*)$", re.IGNORECASE)


class ClauseError(Exception):
    """What is wrong with a directive's clauses."""


@dataclass
class Directive:
    line: int
    kind: str            # PARAMETERS or P2P
    indent: str
    clauses: dict[str, str]
    first: int = 0       # the lines of the statement it applies to
    last: int = 0


def parse_clauses(text: str, kind: str) -> dict[str, str]:
    """`name(value) ...` as a dict; the value is the text between the parentheses."""
    clauses, i = {}, 0
    while i < len(text):
        if text[i].isspace() or text[i] == ",":
            i += 1
            continue
        match = re.match(r"[A-Za-z_]\w*", text[i:])
        if not match:
            raise ClauseError(f"expected a clause at '{text[i:].strip()}'")
        name = match.group(0).lower()
        if name not in CLAUSES:
            raise ClauseError(f"unknown clause '{name}' ({', '.join(CLAUSES)})")
        if name in clauses:
            raise ClauseError(f"clause '{name}' given twice")
        if kind == P2P and name in REGION_ONLY:
            raise ClauseError(f"'{name}' is a clause of comm_parameters only")
        j = i + len(name)
        while j < len(text) and text[j].isspace():
            j += 1
        if j >= len(text) or text[j] != "(":
            raise ClauseError(f"clause '{name}' needs a value in parentheses")
        depth, k = 0, j
        for k in range(j, len(text)):
            depth += {"(": 1, ")": -1}.get(text[k], 0)
            if depth == 0:
                break
        if depth:
            raise ClauseError(f"clause '{name}' has no closing parenthesis")
        value = text[j + 1:k].strip()
        if not value:
            raise ClauseError(f"clause '{name}' is empty")
        clauses[name] = value
        i = k + 1
    return clauses


def _top_level_items(text: str) -> list[str]:
    items, depth, start = [], 0, 0
    for i, char in enumerate(text):
        depth += {"(": 1, ")": -1, "[": 1, "]": -1}.get(char, 0)
        if char == "," and depth == 0:
            items.append(text[start:i].strip())
            start = i + 1
    items.append(text[start:].strip())
    return items


def _declarations(node) -> dict[str, tuple[str, bool]]:
    """The variables the program unit around `node` declares: name -> (type, is an array)."""
    from fparser.two import Fortran2003 as F
    from fparser.two.utils import walk
    node = program_unit_of(node)
    found = {}
    for declaration in walk(node, F.Type_Declaration_Stmt) if node is not None else []:
        type_text = str(declaration.items[0]).upper().replace(" ", "")
        attributes = str(declaration.items[1] or "").upper()
        for entity in walk(declaration, F.Entity_Decl):
            found[str(entity.items[0]).lower()] = (type_text, entity.items[1] is not None or "DIMENSION" in attributes)
    return found


def _byte_count(clauses: dict[str, str], sbuf: str, rbuf: str, declared) -> str:
    """The Fortran expression of the bytes one transfer moves."""
    element = f"(storage_size({sbuf}) / 8)"
    if "count" in clauses:
        return f"({clauses['count']}) * {element}"
    counts = []
    for buffer in (sbuf, rbuf):
        name = base_variable(buffer)
        if not re.fullmatch(r"\w+", buffer) or name not in declared:
            raise ClauseError(f"give count(...): the size of '{buffer}' is not known from a declaration in "
                              "this program unit")
        counts.append(f"size({buffer})" if declared[name][1] else "1")
    return f"min({', '.join(counts)}) * {element}" if counts[0] != counts[1] else f"{counts[0]} * {element}"


def _loops_between(statements, line: int, first: int, last: int) -> bool:
    """Whether a DO loop inside lines first..last holds `line`."""
    from fparser.two import Fortran2003 as F
    for node in statements:
        if isinstance(node, (F.Block_Nonlabel_Do_Construct, F.Block_Label_Do_Construct)):
            span = statement_lines(node)
            if span and first <= span[0] and span[1] <= last and span[0] < line < span[1]:
                return True
    return False


def _jumps_out(statements, first: int, last: int) -> int | None:
    """The line of a RETURN or GO TO between lines first and last: it would skip the
    region's completion."""
    from fparser.two import Fortran2003 as F
    for node in statements:
        if isinstance(node, (F.Return_Stmt, F.Goto_Stmt, F.Computed_Goto_Stmt)):
            span = statement_lines(node)
            if span and first <= span[0] <= last:
                return span[0]
    return None


def lower_comm_directives(tree, lines: list[str], own_line, site, fixed_form: bool, lowering: Lowering) -> None:
    """Adds the edits of the file's communication directives to `lowering` (its errors too)."""
    statements = list(statements_of(tree))
    directives: list[Directive] = []
    for number, text in enumerate(lines, 1):
        match = DIRECTIVE.match(text)
        if not match or not own_line(number):
            continue
        indent, kind = match.group(1).ljust(6) if fixed_form else match.group(1), match.group(2).lower()
        try:
            clauses = parse_clauses(match.group(3), kind)
        except ClauseError as error:
            lowering.errors.append((number, f"{kind}: {error}"))
            continue
        found = following(statements, number, lines)
        if found is None:
            lowering.errors.append((number, f"'!${kind}' must be followed by a statement or construct "
                                            "('block; end block' for none)"))
            continue
        _, (first, last) = found
        directives.append(Directive(number, kind, indent, clauses, first, last))

    regions = [d for d in directives if d.kind == PARAMETERS]
    instances = [d for d in directives if d.kind == P2P]
    posted: dict[int, set[str]] = {}  # region line -> buffers its instances named so far
    for index, instance in enumerate(instances):
        around = [r for r in regions if r.first <= instance.line <= r.last]
        region = min(around, key=lambda r: r.last - r.first) if around else None
        clauses = {**(region.clauses if region else {}), **instance.clauses}
        start, end = (region.first, region.last) if region else (instance.first, instance.last)
        try:
            call = _transfer(clauses, instance, index, site, _declarations(
                following(statements, instance.line, lines)[0]))
        except ClauseError as error:
            lowering.errors.append((instance.line, f"comm_p2p: {error}"))
            continue
        named = {base_variable(clauses["sbuf"]), base_variable(clauses["rbuf"])}
        key = region.line if region else instance.line
        in_loop = _loops_between(statements, instance.line, start, end) and "max_comm_iter" not in clauses
        wait_first = bool(named & posted.get(key, set())) or in_loop
        posted.setdefault(key, set()).update(named)
        where, line = site(instance.line)
        complete = "CALL bamboo_cd_complete('{}', {})".format(where.replace("'", "''"), line)
        lowering.lines[instance.line] = instance.indent + "; ".join([complete] * wait_first + [call])
        if not region:
            lowering.append(instance.last, f"; {complete}")
        lowering.explanation.append(
            f"line {instance.line}: comm_p2p (MPI two-sided"
            + (f", region at line {region.line}" if region else ", a region of its own")
            + f"): {clauses['sbuf']} -> {clauses['rbuf']}, tag {TAG_BASE + index} on the directives' communicator"
            + ("; completes what its region posted first" if wait_first else ""))

    for region in regions:
        if "place_sync" in region.clauses and region.clauses["place_sync"] != END_PARAM_REGION:
            lowering.errors.append((region.line, f"comm_parameters: place_sync({region.clauses['place_sync']}) "
                                                 "is not lowered for Fortran yet (only END_PARAM_REGION)"))
            continue
        jump = _jumps_out(statements, region.first, region.last)
        if jump:
            lowering.errors.append((jump, f"a jump out of the comm_parameters region at line {region.line} would "
                                          "skip the completion of its transfers"))
            continue
        where, line = site(region.line)
        lowering.append(region.last, "; CALL bamboo_cd_complete('{}', {})".format(where.replace("'", "''"), line))
        lowering.explanation.append(f"line {region.line}: comm_parameters, lines {region.first}-{region.last}: "
                                    "its transfers complete at its end")


def _transfer(clauses: dict[str, str], instance: Directive, index: int, site, declared) -> str:
    missing = [name for name in REQUIRED if name not in clauses]
    if missing:
        raise ClauseError(f"missing {', '.join(missing)}")
    target = clauses.get("target", TWO_SIDED)
    if target != TWO_SIDED:
        raise ClauseError(f"target({target}) is not lowered for Fortran yet (only {TWO_SIDED})")
    if ("sendwhen" in clauses) != ("receivewhen" in clauses):
        raise ClauseError("sendwhen and receivewhen go together")
    sbufs, rbufs = _top_level_items(clauses["sbuf"]), _top_level_items(clauses["rbuf"])
    if len(sbufs) != 1 or len(rbufs) != 1:
        raise ClauseError("lists of buffers are not lowered for Fortran yet: one sbuf and one rbuf")
    sbuf, rbuf = sbufs[0], rbufs[0]
    types = [declared.get(base_variable(b), (None,))[0] for b in (sbuf, rbuf)]
    if re.fullmatch(r"\w+", sbuf) and re.fullmatch(r"\w+", rbuf) and None not in types and types[0] != types[1]:
        raise ClauseError(f"rbuf '{rbuf}' is {types[1]}, sbuf '{sbuf}' is {types[0]}: the types must agree")
    where, line = site(instance.line)
    return "CALL bamboo_cd_transfer({}, {}, {}, {}, {}, {}, {}, {}, '{}', {})".format(
        sbuf, rbuf, _byte_count(clauses, sbuf, rbuf, declared), clauses["sender"], clauses["receiver"],
        clauses.get("sendwhen", ".TRUE."), clauses.get("receivewhen", ".TRUE."), TAG_BASE + index,
        where.replace("'", "''"), line)
