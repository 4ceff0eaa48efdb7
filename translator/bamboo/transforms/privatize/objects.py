"""C++ objects each task constructs (a type with a constructor, destructor or copy of its own,
which cannot start as a copy of the template's bytes): the declaration becomes a typedef of the
type; where the object is defined, its initializer moves into a function that constructs it in
the task's slot, registered with ``bamboo_register_object``; a function-local one is
constructed in place at the task's first pass (``BAMBOO_FIRST_PASS``)."""
from __future__ import annotations

from ...frontend import cx
from ...frontend.cx import CK
from .declarators import Declarator, declaration_end, declarator, qualifier, storage_keywords
from .registration import cxx_offset_declaration, object_entry_end, object_entry_start
from .variables import MIXED_DECLARATION, PrivateVar


class ObjectDeclarations:
    """Plans the edits of constructed objects' declarations into the draft. ``declared``:
    declaration start -> the name offsets of its variables; ``declaration_start``: a
    variable's name offset -> its declaration's start."""

    def __init__(self, draft, declared: dict, declaration_start: dict):
        self.prog = draft.prog
        self.draft = draft
        self.declared = declared
        self.declaration_start = declaration_start
        self.objects = {}   # declaration start -> [(VAR_DECL cursor, qualified)]

    @staticmethod
    def _construction(pv: PrivateVar, d: Declarator, capture: str) -> tuple:
        """The code that constructs the object at ``bamboo_at`` from the initializer as
        written, around the initializer's text: (before, after). Copy-initialization
        (``= value``) stays one: the value is returned as the type, and C++17 constructs the
        object from that directly, without a copy or a move (std::mutex has neither)."""
        t = pv.type_name
        if d.init == "=" and not d.is_array:  # an array's `= {...}` is its `{...}`
            return f"::new (bamboo_at) {t}([{capture}]() -> {t} {{ return ", "; }())"
        return f"::new (bamboo_at) {t}", ""

    def declare(self, pv: PrivateVar, c, name_offset: int):
        """A declaration of an object each task constructs becomes a typedef of its type
        (``typedef std::string bamboo_initial_name;``: check()); where it is defined, its
        initializer moves into the function that constructs it, in the registration after
        the declaration. A definition with a qualifier (``std::vector<int> Log::all = ...;``)
        follows a declaration in its class or namespace, which has the typedef: it is left
        out."""
        blank, edits = self.prog.src.blanked, self.draft.object_edits
        d = declarator(blank, c, name_offset)
        qualified = bool(qualifier(blank, name_offset))
        start = self.declaration_start.get(name_offset, c.extent.start.offset)
        self.objects.setdefault(start, []).append((c, qualified))
        if qualified:
            edits.append((start, d.value, ""))
        else:
            self.draft.rewrites[name_offset] = (name_offset + len(pv.name), pv.type_name)
            if d.empty_bound is not None:  # the typedef has no initializer to count
                edits.append((d.empty_bound, d.empty_bound,
                              str(c.type.get_canonical().element_count)))
            if d.init == "=":
                edits.append((d.init_start, d.value, ""))
        construct = None
        if c.is_definition():
            before, after = self._construction(pv, d, "")
            construct = [f"[](void *bamboo_at) {{ {before}", (d.value, d.end), f"{after}; }}"]
        self.draft.offset_declarations.setdefault(declaration_end(blank, c), []).append(
            cxx_offset_declaration(self.prog, pv, c, name_offset, construct))

    def construct_in_place(self, stmt, pvs):
        """A function-local static object is constructed where it is declared, at the task's
        first pass: each variable of the declaration becomes ``if (BAMBOO_FIRST_PASS(f__s)) {
        ...construction...; bamboo_constructed(&bamboo_offset_f__s); }`` around its initializer,
        which stays in place. Its type's typedef and its offset go before the function, as a
        trivial static's template does (PrivatizeGlobals.apply)."""
        blank, edits = self.prog.src.blanked, self.draft.object_edits
        at, pending, types = stmt.start, "", []
        first_name = self.declared[stmt.start][0]
        specifiers = blank[stmt.start:first_name]
        for a, b in reversed(storage_keywords(blank, stmt.start, first_name)):
            specifiers = specifiers[:a - stmt.start] + specifiers[b - stmt.start:]
        specifiers = " ".join(specifiers.split())
        for vd, pv in zip([v for v in stmt.children if v.kind == CK.VAR_DECL], pvs):
            c = vd.cursor
            _, _, _, name = cx.file_location(c.location)
            d = declarator(blank, c, name)
            m = pv.mangled
            before, after = self._construction(pv, d, "&")
            edits.append((at, d.value, f"{pending}if (BAMBOO_FIRST_PASS({m})) {{ void "
                                       f"*bamboo_at = BAMBOO_GLOBALS + bamboo_offset_{m}; "
                                       f"{before}"))
            pending = f"{after}; bamboo_constructed(&bamboo_offset_{m}); }} "
            at = d.end
            bounds = blank[name + len(pv.name):d.bounds_end]
            if d.empty_bound is not None:
                k = d.empty_bound - name - len(pv.name)
                bounds = bounds[:k] + str(c.type.get_canonical().element_count) + bounds[k:]
            types.append(f"typedef {specifiers} {pv.type_name}"
                         f"{''.join(bounds.split())}; static size_t bamboo_offset_{m} = "
                         f"{object_entry_start(self.prog, pv)}nullptr{object_entry_end(pv)};")
        edits.append((at, stmt.stmt_end(), pending.rstrip()))
        self.draft.local_object_types[stmt.start] = " ".join(types)

    def check(self):
        """A declaration of constructed objects becomes a typedef: ``typedef`` in front, its
        storage class (static, extern, inline) out; all its variables must be objects."""
        prog, blank = self.prog, self.prog.src.blanked
        for start, objects in self.objects.items():
            if len(objects) != len(self.declared[start]):
                prog.error(start, MIXED_DECLARATION)
                continue
            if any(qualified for _, qualified in objects):
                if len(objects) > 1:
                    prog.error(start, "a definition of several variables with a qualifier, of a "
                                      "non-trivial type, cannot be privatized; split it")
                continue
            c = objects[0][0]
            _, _, _, name = cx.file_location(c.location)
            keywords = storage_keywords(blank, start, name)
            if c.storage_class in (cx.ci.StorageClass.STATIC, cx.ci.StorageClass.EXTERN) and \
                    not keywords:
                prog.error(start, f"the storage class of '{c.spelling}' comes from a macro, and "
                                  "privatization turns the declaration into a typedef; write it")
                continue
            self.draft.object_edits.append((start, start, "typedef "))  # an insertion
            self.draft.object_edits.extend((a, b, "") for a, b in keywords)
