"""The privatization plan: one value made once, before any edit, by the stages of this package in
order (variables, then uses, then declarations), which fill in a Draft; what they leave is
frozen into the PrivatizationPlan that PrivatizeGlobals applies and the other transformations
and ``--explain`` read."""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

from ...frontend.model import Program
from ...source import NameRewrites
from .declarations import DeclarationRewriter
from .uses import UseFinder
from .variables import VariableFinder


@dataclass
class Draft:
    """The plan while the stages make it (each stage writes only its own part)."""
    prog: Program
    variables: dict = field(default_factory=dict)   # key (USR) -> PrivateVar
    rewrites: dict = field(default_factory=dict)    # offset -> (end, replacement): uses and
                                                    # declaration names
    local_moves: list = field(default_factory=list)  # (DECL_STMT Node, Function, [PrivateVar])
    # offset after a declaration -> [declaration]; a declaration is a list of generated text
    # and (start, end) ranges of the user's text moved there (initializers)
    offset_declarations: dict = field(default_factory=dict)
    object_edits: list = field(default_factory=list)  # (start, end, text): a constructed
                                                      # object's declaration
    local_object_types: dict = field(default_factory=dict)  # function-local object's statement
                                                            # start -> typedefs
    header_copies: list = field(default_factory=list)  # (start, end, text): a header's code or
                                                       # macro, rewritten, in the translated file


@dataclass(frozen=True)
class PrivatizationPlan:
    variables: tuple                # PrivateVar, in the order they were found
    rewrites: NameRewrites          # what every transformation spells the user's code with
    local_moves: tuple              # (DECL_STMT Node, Function, (PrivateVar, ...))
    offset_declarations: Mapping    # as in Draft
    object_edits: tuple
    local_object_types: Mapping
    header_copies: tuple


def plan_privatization(prog: Program) -> PrivatizationPlan:
    """What privatizing the program's globals and statics takes; what cannot be privatized is
    reported to the program's diagnostics."""
    draft = Draft(prog)
    VariableFinder(draft).run()
    UseFinder(draft).run()
    DeclarationRewriter(draft).run()
    return PrivatizationPlan(
        variables=tuple(draft.variables.values()),
        rewrites=NameRewrites(prog.src, draft.rewrites),
        local_moves=tuple((stmt, fn, tuple(pvs)) for stmt, fn, pvs in draft.local_moves),
        offset_declarations=MappingProxyType({off: tuple(tuple(d) for d in decls) for off, decls
                                              in draft.offset_declarations.items()}),
        object_edits=tuple(draft.object_edits),
        local_object_types=MappingProxyType(dict(draft.local_object_types)),
        header_copies=tuple(draft.header_copies))
