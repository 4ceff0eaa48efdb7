"""One libclang parse per text in a translation. The stages that read a file's tree (the comm
directives' lowering, the loop communication optimizer, the Bamboo front end) run one after
the other, each on the text the one before it left; where a stage changed nothing, the next
reuses its tree instead of parsing the same text again. A text a stage made is parsed once
when a later stage first needs it (the comm directives' probe, a text of its own with every
clause's expression written out as C, is parsed by buffers.py alone)."""
from __future__ import annotations

from ..source import SourceFile
from . import cx


class Parses:
    def __init__(self, original: SourceFile):
        self.original = original
        self._sources = {original.text: original}
        self._trees = {}

    def source(self, text: str) -> SourceFile:
        """The file with ``text`` as its contents: one SourceFile per distinct text."""
        src = self._sources.get(text)
        if src is None:
            src = self._sources[text] = SourceFile(self.original.path, text,
                                                   self.original.display)
        return src

    def tree(self, src: SourceFile, compiler_args) -> cx.ci.TranslationUnit:
        """libclang's tree of ``src`` parsed with ``compiler_args``, made on first request."""
        key = (src.text, tuple(compiler_args))
        tu = self._trees.get(key)
        if tu is None:
            tu = self._trees[key] = cx.parse(src.path, list(compiler_args),
                                             unsaved_text=src.text)
        return tu
