"""The code of an optimized nest, written over the user's loop on the user's lines: set-up and
the strip loop on the line of its `for`, each remote access replaced in place by its element
of the run time's buffer, the end of the strip loop after the loop's last line.

    { static bamboo_lc_site site = ...;            /* the plan is cached per site */
      bounds and trip counts of the nest's loops, evaluated once;
      [fine = the PE of a conflicting reference is this PE;]
      if (!fine) { begin; one bamboo_lc_ref per access [and _ref_source per PUT of a local
                   array's elements]; strips = plan; buffers; }
      for (k = 0; k < strips; k++) {
          advance(k);                              /* strip k here, k+1 on its way */
          for (j = lo + first(k) * step; j < lo + first(k + 1) * step; j += step)
              BODY                                 /* ...b[(&x[j] - base) - origin]... */
      } end; }

A PUT whose values are elements of a local array the nest does not write is also described by
that array's LMAD: the run time puts straight from it when the strides agree, and its buffer is
then NULL, which the rewritten access tests before it stores.

The run time gets each reference's LMAD from the user's own address evaluated at the corners
of the iteration space (the loop variables declared anew in a block, so that macros in the
address expand as written): the offset at the first iteration, and one stride per loop.

A GET whose elements no LMAD describes (an indirect index, a triangular nest) is inspected:
before the plan, unless the run time has the inspection cached under the nest's key, an
inspector (the nest's loops with their bounds, reporting each element with its outer
iteration, _inspector) runs; in the body the access reads its buffer through
bamboo_lc_slot, which checks that the element arrived by this strip.

A nest of MPI one-sided accesses keeps its loop as it is; its calls become no-ops and one
bamboo_lc_mpi_move per access after the loop moves them all (_mpi_edits).
"""
from __future__ import annotations

from ..frontend import cx
from ..frontend.cx import statement_end, unwrap
from ..source import SourceFile
from .accesses import GET
from .nests import Nest, Reference


def c_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


class NestWriter:
    """The edits (start, end, text) that optimize one nest, number ``n`` of the file; the
    texts are single lines, and whoever applies them keeps the lines they replace."""

    def __init__(self, src: SourceFile, nest: Nest, n: int):
        self.src = src
        self.nest = nest
        self.n = n
        self.dim = {lp.cursor.hash: d for d, lp in enumerate(nest.loops)}
        self.conflicts = [r for r in nest.references if r.local_conflict]
        # one PE for every access: when it is this PE, the accesses are local ones
        self.one_pe = len({" ".join(self._text(r.access.pe).split())
                           for r in nest.references}) == 1

    def name(self, what: str, ref: int | None = None) -> str:
        return f"bamboo_lc_{what}_{self.n}" + ("" if ref is None else f"_{ref}")

    def edits(self) -> list:
        if self.nest.mpi:
            return self._mpi_edits()
        root = self.nest.root
        start = root.cursor.extent.start.offset
        end = statement_end(self.src, root.cursor)
        out = [(start, root.header_end, self._opening())]
        out += self._accesses()
        out.append((end, end, f" }} if ({self.name('nest')}) "
                              f"bamboo_lc_end({self.name('nest')}); }}"))
        return out

    def _mpi_edits(self) -> list:
        """MPI one-sided accesses complete with their epoch: the loop stays as it is, less its
        accesses, and one bamboo_lc_mpi_move per access after it moves them all."""
        root = self.nest.root
        start = root.cursor.extent.start.offset
        end = statement_end(self.src, root.cursor)
        setup = ["{"] + self._bounds()
        moves = []
        for i, r in enumerate(self.nest.references):
            setup.append(self._origin_and_target(i, r))
            a = r.access
            direction = "BAMBOO_LC_GET" if a.direction == GET else "BAMBOO_LC_PUT"
            moves.append(f"bamboo_lc_mpi_move({direction}, (void *)({self.name('base', i)} + "
                         f"{self.name('off', i)}), sizeof *{self.name('base', i)}, "
                         f"{len(r.loops)}, {self.name('stride', i)}, {self.name('count', i)}, "
                         f"{self._text(a.datatype)}, {self._text(a.pe)}, {self.name('disp', i)}, "
                         f"{self.name('tstride', i)}, {self._text(a.window)});")
        out = [(start, start, " ".join(setup) + " ")]
        for r in self.nest.references:
            c = r.access.call
            done = "(void)0" if r.statement else "MPI_SUCCESS"
            out.append((c.extent.start.offset, c.extent.end.offset, done))
        out.append((end, end, " " + " ".join(moves) + " }"))
        return out

    def _origin_and_target(self, i: int, r: Reference) -> str:
        """The origin's LMAD from its address, the target's from its displacement."""
        dims = len(r.loops)
        element = self._origin_type(r)
        base, off, stride = self.name("base", i), self.name("off", i), self.name("stride", i)
        disp, tstride = self.name("disp", i), self.name("tstride", i)
        counts = ", ".join(self.name("trip", self.dim[lp.cursor.hash]) for lp in r.loops)
        origin = f"(long)({self._address(r)} - {base})"
        target = f"(long)({self._text(r.access.target)})"
        text = [f"const {element} *{base} = (const {element} *)({r.address.name}); long {off}, "
                f"{stride}[{dims}], {self.name('count', i)}[{dims}] = {{ {counts} }}, {disp}, "
                f"{tstride}[{dims}];",
                self._corner(r, None, f"{off} = {origin}; {disp} = {target};")]
        for d in range(dims):
            text.append(self._corner(r, d, f"{stride}[{d}] = {origin} - {off}; "
                                           f"{tstride}[{d}] = {target} - {disp};"))
        return " ".join(text)

    @staticmethod
    def _origin_type(r: Reference) -> str:
        """The element type of the origin address, before its conversion to void *."""
        origin = unwrap(r.access.address, (cx.CK.UNEXPOSED_EXPR,))
        return origin.type.get_pointee().spelling

    # -- set-up ---------------------------------------------------------------------------

    def _bounds(self) -> list[str]:
        """The first value and the trip count of each loop of the nest, evaluated once."""
        parts = []
        for d, lp in enumerate(self.nest.loops):
            lo = self.name("lo", d)
            parts.append(f"const long {lo} = (long)({self._text(lp.lo)}), {self.name('trip', d)}"
                         f" = {lp.trip(lo, self._text(lp.end))};")
        return parts

    def _opening(self) -> str:
        nest, src = self.nest, self.src
        root = nest.root
        line = src.line_of(root.cursor.extent.start.offset)
        parts = [f"{{ static bamboo_lc_site {self.name('site')} = BAMBOO_LC_SITE("
                 f"{c_string(src.display)}, {line}, {nest.ops_per_iteration});"]
        parts += self._bounds()
        fine = " || ".join(f"({self._text(r.access.pe)}) == shmem_my_pe()"
                           for r in self.conflicts)
        parts.append(f"const int {self.name('fine')} = {fine or '0'};")
        nest_name = self.name("nest")
        parts.append(f"bamboo_lc_nest *{nest_name} = 0; long {self.name('strips')} = "
                     f"{self.name('trip', 0)} > 0;")
        for i, r in enumerate(nest.references):
            t = r.access.ctype
            parts.append(f"{t} *{self.name('b', i)} = 0; long {self.name('o', i)} = 0; "
                         f"const {t} *{self.name('base', i)} = (const {t} *)({r.address.name});")
            if r.inspected:
                parts.append(f"bamboo_lc_view {self.name('v', i)} = {{0}}; int {self.name('r', i)} = 0;")
        parts.append(f"if (!{self.name('fine')}) {{ {nest_name} = bamboo_lc_begin(&"
                     f"{self.name('site')}, {self.name('trip', 0)});")
        parts += [self._reference(i, r) for i, r in enumerate(nest.references)]
        if any(r.inspected for r in nest.references):
            parts.append(self._inspector())
        parts.append(f"{self.name('strips')} = bamboo_lc_plan({nest_name});")
        for i, r in enumerate(nest.references):
            parts.append(f"{self.name('b', i)} = ({r.access.ctype} *)bamboo_lc_buffer("
                         f"{nest_name}, {self.name('r', i)}, &{self.name('o', i)});")
        parts.append("}")
        var = root.var.spelling
        if not root.declared:
            parts.append(f"{var} = ({root.var.type.spelling}){self.name('lo', 0)};")
        k = self.name("k")
        first, last = self.name("first"), self.name("last")
        parts.append(f"for (long {k} = 0; {k} < {self.name('strips')}; {k}++) {{ "
                     f"const long {first} = {nest_name} ? (bamboo_lc_advance({nest_name}, {k}), "
                     f"bamboo_lc_strip_first({nest_name}, {k})) : 0; "
                     f"const long {last} = {nest_name} ? bamboo_lc_strip_first({nest_name}, "
                     f"{k} + 1) : {self.name('trip', 0)};")
        views = [f"{self.name('v', i)} = bamboo_lc_view_strip({nest_name}, {self.name('r', i)}, {k});"
                 for i, r in enumerate(nest.references) if r.inspected]
        if views:
            parts.append(f"if ({nest_name}) {{ {' '.join(views)} }}")
        declare = f"{root.var.type.spelling} " if root.declared else ""
        lo, step = self.name("lo", 0), root.step
        parts.append(f"for ({declare}{var} = {lo} + {first} * {step}; {var} < {lo} + {last} * "
                     f"{step}; {var} += {step})")
        return " ".join(parts)

    def _reference(self, i: int, r: Reference) -> str:
        if r.inspected:
            return (f"{self.name('r', i)} = bamboo_lc_ref_inspected({self.name('nest')}, "
                    f"{self.name('base', i)}, sizeof({r.access.ctype}), {self._text(r.access.pe)});")
        dims = len(r.loops)
        off, stride, count = self.name("off", i), self.name("stride", i), self.name("count", i)
        counts = ", ".join(self.name("trip", self.dim[lp.cursor.hash]) for lp in r.loops)
        text = [f"int {self.name('r', i)}; {{ long {off}, {stride}[{dims}], "
                f"{count}[{dims}] = {{ {counts} }};"]
        text.append(self._corner(r, None, f"{off} = (long)({self._address(r)} - "
                                          f"{self.name('base', i)});"))
        for d in range(dims):
            text.append(self._corner(r, d, f"{stride}[{d}] = (long)({self._address(r)} - "
                                           f"{self.name('base', i)}) - {off};"))
        direction = "BAMBOO_LC_GET" if r.access.direction == GET else "BAMBOO_LC_PUT"
        text.append(f"{self.name('r', i)} = bamboo_lc_ref({self.name('nest')}, {direction}, "
                    f"{self.name('base', i)}, sizeof({r.access.ctype}), "
                    f"{self._text(r.access.pe)}, {off}, {dims}, {stride}, {count});")
        if r.source:
            text.append(self._source(i, r))
        return " ".join(text) + " }"

    def _source(self, i: int, r: Reference) -> str:
        """The LMAD of a PUT's source array, from the value's own address at the corners,
        handed to the run time (bamboo_lc_ref_source)."""
        dims, t = len(r.loops), r.access.ctype
        sbase, soff, sstride = self.name("sbase", i), self.name("soff", i), self.name("sstride", i)
        address = self._text(r.source.address)
        address = f"(&({address}))" if r.source.of_value else f"({address})"
        text = [f"{{ const {t} *{sbase} = (const {t} *)({r.source.name}); long {soff}, {sstride}[{dims}];",
                self._corner(r, None, f"{soff} = (long)({address} - {sbase});")]
        for d in range(dims):
            text.append(self._corner(r, d, f"{sstride}[{d}] = (long)({address} - {sbase}) - {soff};"))
        text.append(f"bamboo_lc_ref_source({self.name('nest')}, {self.name('r', i)}, {sbase}, "
                    f"{soff}, {sstride}); }}")
        return " ".join(text)

    def _inspector(self) -> str:
        """The inspector: the nest's loops as they run, in blocks that declare their variables
        anew, reporting each inspected reference's element with its outer iteration; run when
        no inspection is cached under the key: the nest's first value and the values of the
        variables the indices and inner bounds read (integers and pointers)."""
        refs = [(i, r) for i, r in enumerate(self.nest.references) if r.inspected]
        key = [self.name("lo", 0)] + [f"(long)({v})" for v in self._key_variables(refs)]
        root, t = self.nest.root, self.name("t")
        var_type = root.var.type.spelling
        seen = " ".join(f"bamboo_lc_seen *{self.name('s', i)} = bamboo_lc_seen_of({self.name('nest')}, "
                        f"{self.name('r', i)});" for i, _ in refs)
        text = [f"{{ const long {self.name('key')}[] = {{ {', '.join(key)} }}; if (bamboo_lc_inspect("
                f"{self.name('nest')}, {len(key)}, {self.name('key')})) {{ {seen} "
                f"for (long {t} = 0; {t} < {self.name('trip', 0)}; {t}++) {{ "
                f"{var_type} {root.var.spelling} = ({var_type})({self.name('lo', 0)} + {t} * "
                f"{root.step}); (void){root.var.spelling};",
                self._inspect_loop(refs, 0), "} } }"]
        return " ".join(text)

    def _inspect_loop(self, refs, depth: int) -> str:
        """The body of the inspector's loop at ``depth`` (of the references ``refs``, whose
        loops agree up to it): the elements of those whose innermost loop it is, then the loops
        inside it, each with its own bounds as the nest evaluates them."""
        out = [f"bamboo_lc_see({self.name('s', i)}, {self.name('t')}, "
               f"{self._element_index(i, r)});"
               for i, r in refs if len(r.loops) == depth + 1]
        inner = {}
        for i, r in refs:
            if len(r.loops) > depth + 1:
                inner.setdefault(r.loops[depth + 1].cursor.hash, []).append((i, r))
        for group in inner.values():
            lp = group[0][1].loops[depth + 1]
            lo, trip, t = self.name("ilo", depth + 1), self.name("itrip", depth + 1), self.name("it", depth + 1)
            var_type, var = lp.var.type.spelling, lp.var.spelling
            out.append(f"{{ const long {lo} = (long)({self._text(lp.lo)}), {trip} = "
                       f"{lp.trip(lo, self._text(lp.end))}; for (long {t} = 0; {t} < {trip}; {t}++) "
                       f"{{ {var_type} {var} = ({var_type})({lo} + {t} * {lp.step}); (void){var}; "
                       f"{self._inspect_loop(group, depth + 1)} }} }}")
        return " ".join(out)

    def _key_variables(self, refs) -> list[str]:
        """The variables declared outside the nest that inspected indices and inner bounds
        read, of integer or pointer type, by name, in order of appearance."""
        loop_vars = {lp.var.hash for _, r in refs for lp in r.loops}
        names, seen = [], set()
        for _, r in refs:
            exprs = list(r.address.subscripts) + [e for lp in r.loops[1:] for e in (lp.lo, lp.end)]
            for e in exprs:
                for c in cx.walk_preorder(e):
                    v = c.referenced if c.kind == cx.CK.DECL_REF_EXPR else None
                    if v is None or v.hash in loop_vars or v.hash in seen or \
                            v.kind not in (cx.CK.VAR_DECL, cx.CK.PARM_DECL):
                        continue
                    kind = v.type.get_canonical().kind
                    if kind == cx.TK.POINTER or kind in cx.INTEGER_KINDS:
                        seen.add(v.hash)
                        names.append(c.spelling)
        return names

    def _corner(self, r: Reference, moved: int | None, statement: str) -> str:
        """``statement`` with the loop variables declared at the first iteration, one of them
        (``moved``) at its second; a block each, as loops of one name shadow each other."""
        opened = []
        for d, lp in enumerate(r.loops):
            value = self.name("lo", self.dim[lp.cursor.hash])
            if d == moved:
                value += f" + {lp.step}"
            t, v = lp.var.type.spelling, lp.var.spelling
            opened.append(f"{{ {t} {v} = ({t}){value}; (void){v};")
        return " ".join(opened) + f" {statement} " + "}" * len(opened)

    # -- the body --------------------------------------------------------------------------

    def _accesses(self) -> list:
        calls = {r.access.call.hash: (i, r) for i, r in enumerate(self.nest.references)}
        top = [r for r in self.nest.references
               if not any(_within(r.access.call, o.access.call) for o in self.nest.references
                          if o is not r)]
        out = []
        for r in top:
            c = r.access.call
            out.append((c.extent.start.offset, c.extent.end.offset, self._replacement(calls, r)))
        return out

    def _replacement(self, calls: dict, r: Reference) -> str:
        """An access as an element of its buffer; in a nest that falls back to fine-grained
        accesses when a PE is its own, the access as written, or, when the nest has one PE,
        as the local load or store it then is."""
        i = next(n for n, x in calls.values() if x is r)
        element = f"{self.name('b', i)}[{self._element_index(i, r)} - {self.name('o', i)}]"
        if r.inspected:   # checked: an index that changed since the inspection is read at once
            element = (f"{self.name('b', i)}[bamboo_lc_slot({self.name('v', i)}, "
                       f"{self._element_index(i, r)})]")
        bulk = self._access(calls, r.access, element)
        if r.source:   # the run time may put from the source: then there is no buffer to fill
            bulk = f"({self.name('b', i)} ? {bulk} : (void)0)"
        if not self.conflicts:
            return f"({bulk})"
        if self.one_pe:
            fine = self._access(calls, r.access, f"*{self._address(r)}")
        else:
            fine = self._rewritten(calls, r.access.call)
        return f"({self.name('fine')} ? {fine} : {bulk})"

    def _access(self, calls: dict, a, element: str) -> str:
        """What the access does, with ``element`` the remote element's lvalue."""
        if a.form == "g":
            return element
        local = self._rewritten(calls, a.local)
        if a.form == "p":
            return f"(void)({element} = ({local}))"
        if a.form == "get":
            return f"(void)(*({local}) = {element})"
        return f"(void)({element} = *({local}))"

    def _rewritten(self, calls: dict, cursor) -> str:
        """The text of an expression with the accesses inside it replaced, on one line."""
        start, end = cursor.extent.start.offset, cursor.extent.end.offset
        inner = sorted((x for x in self.nest.references if _within(x.access.call, cursor)),
                       key=lambda x: x.access.call.extent.start.offset)
        out, pos = [], start
        for x in inner:
            c = x.access.call
            if c.extent.start.offset < pos:
                continue   # inside an access already replaced
            out.append(self._span(pos, c.extent.start.offset))
            out.append(self._replacement(calls, x))
            pos = c.extent.end.offset
        out.append(self._span(pos, end))
        return "".join(out)

    def _element_index(self, i: int, r: Reference) -> str:
        """The index of the remote element: its address less the array's, or, for an address
        written ``&x[e]`` or ``x + e``, e itself, the same number (x is not assigned in the
        nest) computed without the pointer arithmetic, which cost a read of CGI's product 5 %.
        Only where the address is written so at the call: an address a macro expands to
        (``&ROW(j)``) has no subscript text of its own."""
        if len(r.address.subscripts) == 1:
            index = self._text(r.address.subscripts[0])
            written, name, e = ("".join(self._text(r.access.address).split()), r.address.name,
                                "".join(index.split()))
            if written in (f"&{name}[{e}]", f"{name}+{e}", f"{name}+({e})"):
                return f"(long)({index})"
        return f"(long)({self._address(r)} - {self.name('base', i)})"

    def _address(self, r: Reference) -> str:
        return f"({self._text(r.access.address)})"

    def _text(self, cursor) -> str:
        return self._span(cursor.extent.start.offset, cursor.extent.end.offset)

    def _span(self, start: int, end: int) -> str:
        """The user's text without its comments, on one line (the caller keeps the lines)."""
        return " ".join(self.src.no_comments[start:end].split("\n"))


def _within(inner, outer) -> bool:
    a, b = inner.extent.start.offset, inner.extent.end.offset
    return outer.extent.start.offset <= a and b <= outer.extent.end.offset and \
        (a, b) != (outer.extent.start.offset, outer.extent.end.offset)
