"""The translation pipeline: one input file in, generated C (or diagnostics) out."""
from __future__ import annotations

from dataclasses import dataclass, field

from .analysis import summaries as analysis
from .analysis.companions import analyse_helpers
from .diagnostics import Diagnostics
from .emit import explain as explain_mod
from .emit.edits import EditBuffer
from .frontend import load as frontend
from .transforms import rename_main as entry
from .transforms.companions import add_companions
from .transforms.privatize import Privatizer
from .transforms.regions import RegionBuilder


@dataclass
class TranslationResult:
    text: str | None
    diagnostics: list = field(default_factory=list)
    explanation: str = ""

    @property
    def ok(self) -> bool:
        return self.text is not None and not any(d.severity == "error" for d in self.diagnostics)


def _used_helpers(regions, helpers) -> set:
    """Helpers whose companion a firing rule calls, directly or through other companions."""
    used = set()
    stack = []
    for r in regions.regions:
        for w in r.windows:
            stack += [d.helper.name for d in w.analysis.included if d.helper is not None]
    while stack:
        name = stack.pop()
        if name in used:
            continue
        used.add(name)
        h = helpers.get(name)
        if h is not None and h.analysis is not None:
            stack += [d.helper.name for d in h.analysis.included if d.helper is not None]
    return used


def _notes(prog, regions, helpers, used):
    for r in regions.regions:
        for w in r.windows:
            for d in w.analysis.left_out:
                prog.note(d.node.start, f"{d.what} is left out of the firing rule and waits on "
                                        f"its own: {d.reason}")
    for name in sorted(used):
        h = helpers[name]
        if h.analysis is None:
            continue
        for d in h.analysis.left_out:
            prog.note(d.node.start, f"{d.what} is left out of the firing rule of {name}() and "
                                    f"waits on its own: {d.reason}")


def translate_file(path: str, compiler_args=(), display: str | None = None,
                   explain: bool = False) -> TranslationResult:
    """Translate one annotated MPI C file for the Bamboo runtime.

    Never raises for a problem in the input or in the translator itself: both come back as
    error diagnostics (OSError for an unreadable file excepted)."""
    diags = Diagnostics()
    try:
        return _translate(path, compiler_args, display, explain, diags)
    except OSError:
        raise
    except Exception as e:  # noqa: BLE001 - a translator bug must still read like a diagnostic
        diags.error(display or path, 0, 0, f"internal error in the Bamboo translator: {e!r}; "
                    "please report it with this file")
        return TranslationResult(None, diags.sorted())


def _translate(path, compiler_args, display, explain, diags) -> TranslationResult:
    prog = frontend.load(path, list(compiler_args), diags, display=display)
    if prog is None:
        return TranslationResult(None, diags.sorted())
    sums = analysis.summarize(prog)
    priv = Privatizer(prog).run()
    helpers = analyse_helpers(prog, sums)
    regions = RegionBuilder(prog, sums, helpers, priv.rewrites).run()
    entry.rename_main(prog, None)  # checks main's signature; renamed below, if all is well
    used = _used_helpers(regions, helpers)
    if diags.has_errors:
        return TranslationResult(None, diags.sorted())
    _notes(prog, regions, helpers, used)
    buf = EditBuffer(prog.src)
    priv.apply(buf)
    main_info = entry.rename_main(prog, buf)
    regions.apply(buf)
    add_companions(prog, helpers, buf, used, priv.rewrites)
    explanation = ""
    if explain:
        explanation = explain_mod.explain(prog, regions, priv, main_info, helpers, used)
    if diags.has_errors:
        return TranslationResult(None, diags.sorted(), explanation)
    return TranslationResult(buf.output(), diags.sorted(), explanation)

