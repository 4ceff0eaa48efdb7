"""The translation pipeline: one input file in, generated C (or diagnostics) out.

comm directives lowered first, if the file has any (comm_directives/) -> for a plain MPI or
OpenSHMEM output (--comm-only, or a source that includes shmem.h and not mpi.h), the loop
communication optimization (loop_comm/), and that is all; for Bamboo tasks: load (frontend/) ->
analyse (analysis/: summaries, helper companions, regions and their plans) -> plan the
privatization -> check every transformation (transforms/) -> if no error, apply each to one
EditBuffer -> write the output (emit/), and the explanation if asked.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .analysis.companions import analyse_helpers
from .analysis.region_plans import plan_regions
from .analysis.regions import RegionFinder
from .analysis.summaries import summarize
from .comm_directives import lower as lower_comm_directives
from .comm_directives.clauses import SHMEM
from .diagnostics import Diagnostics
from .emit.edits import UTF8_BOM, EditBuffer
from .emit.explain import explain as explain_text
from .frontend.load import load
from .frontend.parses import Parses
from .loop_comm import INCLUDE_DIR as LOOP_INCLUDE_DIR
from .loop_comm import includes_mpi, is_shmem_program, with_mpi_header
from .loop_comm import optimize as optimize_loops
from .source import SourceFile
from .toolchain import is_cxx_source
from .transforms.companions import AddHelperCompanions
from .transforms.firing_rules import InsertFiringRules
from .transforms.lower_directives import LowerDirectives
from .transforms.privatize import PrivatizeGlobals, plan_privatization
from .transforms.rename_main import RenameMain
from .transforms.reorder_blocks import ReorderBlocks


@dataclass
class TranslationResult:
    text: str | None
    diagnostics: list = field(default_factory=list)
    explanation: str = ""
    targets: set = field(default_factory=set)   # of its comm directives
    shmem_program: bool = False     # an OpenSHMEM program: built with oshcc, not as tasks
    loop_runtime: bool = False      # it has optimized loops: link runtime/loopcomm

    @property
    def ok(self) -> bool:
        return self.text is not None and not any(d.severity == "error" for d in self.diagnostics)


def translate_file(path: str, compiler_args=(), display: str | None = None,
                   explain: bool = False, comm_only: bool = False,
                   loop_opt: bool = True) -> TranslationResult:
    """Translate one annotated MPI C file for the Bamboo runtime; with ``comm_only``, or for
    an OpenSHMEM program, only lower its comm directives and optimize its loops with remote
    accesses (unless not ``loop_opt``): the result is a plain MPI or OpenSHMEM program.

    Never raises for a problem in the input or in the translator itself: both come back as
    error diagnostics (OSError for an unreadable file excepted)."""
    diags = Diagnostics()
    try:
        src = SourceFile(path, display=display or path)
        parses = Parses(src)
        shmem_program = is_shmem_program(src.text) and not includes_mpi(src.text)
        lowered = lower_comm_directives(src, list(compiler_args),
                                        is_cxx_source(path, list(compiler_args)), diags, parses,
                                        tasks=not (comm_only or shmem_program))
        if lowered.text is None:
            return TranslationResult(None, diags.sorted())
        if comm_only or shmem_program:
            return _plain_program(parses, lowered, compiler_args, loop_opt, shmem_program, diags)
        if SHMEM in lowered.targets:
            line, col = src.line_col(lowered.targets[SHMEM])
            diags.error(display or path, line, col, "TARGET_COMM_SHMEM cannot run on Bamboo tasks "
                        "(the runtime is MPI): lower the directives alone with `bamboo translate "
                        "--comm-only` or `bamboocc --bamboo-comm-only`, and build with oshcc")
            return TranslationResult(None, diags.sorted())
        text = lowered.text if lowered.found else src.text
        loops = ""
        if loop_opt:
            optimized = optimize_loops(parses.source(text), compiler_args, diags, parses,
                                       shmem=False)
            if optimized.text is None:
                return TranslationResult(None, diags.sorted())
            if optimized.mpi_nests and includes_mpi(optimized.text):
                text, loops = with_mpi_header(optimized.text), optimized.explanation
                compiler_args = [*compiler_args, f"-I{LOOP_INCLUDE_DIR}"]
            elif optimized.mpi_nests:
                loops = (f"{src.display}: loops of MPI one-sided accesses left as written: the "
                         "file does not include mpi.h itself\n")
        result = _translate(parses.source(text), parses, compiler_args, explain, diags)
        result.explanation = lowered.explanation + loops + result.explanation
        result.targets = set(lowered.targets)
        return result
    except OSError:
        raise
    except Exception as e:  # noqa: BLE001 - a translator bug must still read like a diagnostic
        diags.error(display or path, 0, 0, f"internal error in the Bamboo translator: {e!r}; "
                    "please report it with this file")
        return TranslationResult(None, diags.sorted())


def _plain_program(parses: Parses, lowered, compiler_args, loop_opt: bool,
                   shmem_program: bool, diags: Diagnostics) -> TranslationResult:
    src = parses.original
    text, explanation, header, library = lowered.text, lowered.explanation, "", False
    if loop_opt:
        optimized = optimize_loops(parses.source(text), compiler_args, diags, parses)
        if optimized.text is None:
            return TranslationResult(None, diags.sorted())
        text, header, library = optimized.text, optimized.header, optimized.nests > 0
        explanation += optimized.explanation
    # both steps keep every line where it was: one #line names the user's file; a byte order
    # mark, no longer at the start of the file, would be a stray character there
    text = f'{header}#line 1 "{src.display}"\n{text.removeprefix(UTF8_BOM)}'
    return TranslationResult(text, diags.sorted(), explanation, set(lowered.targets),
                             shmem_program, library)


def _translate(src: SourceFile, parses: Parses, compiler_args, explain: bool,
               diags: Diagnostics) -> TranslationResult:
    prog = load(src, list(compiler_args), diags, parses)
    if prog is None:
        return TranslationResult(None, diags.sorted())
    # analysis, then the plans (values the transformations only read), then the checks
    sums = summarize(prog)
    companions = analyse_helpers(prog, sums)
    plans = plan_regions(prog, sums, companions, RegionFinder(prog).run())
    privatization = plan_privatization(prog)
    # generated code spells the user's expressions with the privatized names
    rewrites = privatization.rewrites
    rename_main = RenameMain(prog)
    add_companions = AddHelperCompanions(prog, plans, companions, rewrites)
    transformations = [PrivatizeGlobals(prog, privatization), rename_main,
                       ReorderBlocks(prog, sums, plans),
                       InsertFiringRules(prog, sums, plans, rewrites), add_companions,
                       LowerDirectives(prog, rewrites)]
    for t in transformations:
        t.check()
    if diags.has_errors:
        return TranslationResult(None, diags.sorted())
    buf = EditBuffer(prog.src)
    for t in transformations:
        t.apply(buf)
    explanation = ""
    if explain:
        explanation = explain_text(prog, plans, privatization.variables, rename_main.info,
                                   add_companions.used_companions())
    # a C++ file says so to bamboo.h, which the runtime's own C++ includes as well; one
    # that never includes <errno.h> may use `errno` as a name of its own, which bamboo.h
    # must then leave alone
    header = ('#define BAMBOO_TRANSLATED_CXX 1\n' if prog.cxx else '') + \
             ('' if 'errno' in prog.macro_definitions else '#define BAMBOO_WITHOUT_ERRNO_H 1\n') + \
             '#include "bamboo.h"\n'
    return TranslationResult(buf.output(header), diags.sorted(), explanation)
