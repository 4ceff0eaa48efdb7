"""C types as the comm directives transfer them: a basic type maps to an MPI datatype and a
typed SHMEM put; a structure becomes one MPI struct datatype (its fields flattened, nested
structures and arrays included) and a byte put.  Types a transfer cannot carry (pointers,
unions, bit-fields, flexible array members) are refused with the reason."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..frontend.cx import CK, TK


class Unsupported(Exception):
    """A type the directives cannot transfer; the message says why."""


@dataclass(frozen=True)
class Basic:
    c_name: str
    mpi: str
    shmem: str | None         # the TYPE of shmem_TYPE_put_nbi; None: shmem_putmem_nbi
    size: int


@dataclass
class Record:
    spelling: str             # as C names it, for messages and comments
    size: int
    blocks: list = field(default_factory=list)   # [(byte offset, count, Basic)]


_BASIC = {
    TK.CHAR_S: ("char", "MPI_CHAR", "char"), TK.CHAR_U: ("char", "MPI_CHAR", "char"),
    TK.SCHAR: ("signed char", "MPI_SIGNED_CHAR", "schar"),
    TK.UCHAR: ("unsigned char", "MPI_UNSIGNED_CHAR", "uchar"),
    TK.SHORT: ("short", "MPI_SHORT", "short"),
    TK.USHORT: ("unsigned short", "MPI_UNSIGNED_SHORT", "ushort"),
    TK.INT: ("int", "MPI_INT", "int"), TK.UINT: ("unsigned", "MPI_UNSIGNED", "uint"),
    TK.LONG: ("long", "MPI_LONG", "long"),
    TK.ULONG: ("unsigned long", "MPI_UNSIGNED_LONG", "ulong"),
    TK.LONGLONG: ("long long", "MPI_LONG_LONG", "longlong"),
    TK.ULONGLONG: ("unsigned long long", "MPI_UNSIGNED_LONG_LONG", "ulonglong"),
    TK.FLOAT: ("float", "MPI_FLOAT", "float"), TK.DOUBLE: ("double", "MPI_DOUBLE", "double"),
    TK.LONGDOUBLE: ("long double", "MPI_LONG_DOUBLE", "longdouble"),
}
_COMPLEX = {TK.FLOAT: "MPI_C_FLOAT_COMPLEX", TK.DOUBLE: "MPI_C_DOUBLE_COMPLEX",
            TK.LONGDOUBLE: "MPI_C_LONG_DOUBLE_COMPLEX"}
ARRAY_KINDS = (TK.CONSTANTARRAY, TK.INCOMPLETEARRAY, TK.VARIABLEARRAY)


def element(t, cxx: bool):
    """The Basic or Record a value of type ``t`` (not an array) is sent as."""
    c = t.get_canonical()
    k = c.kind
    if k in _BASIC:
        name, mpi, shmem = _BASIC[k]
        return Basic(name, mpi, shmem, c.get_size())
    if k == TK.BOOL:
        return Basic("bool", "MPI_CXX_BOOL" if cxx else "MPI_C_BOOL", None, c.get_size())
    if k == TK.ENUM:
        return element(c.get_declaration().enum_type, cxx)
    if k == TK.COMPLEX and c.element_type.get_canonical().kind in _COMPLEX:
        return Basic(c.spelling, _COMPLEX[c.element_type.get_canonical().kind], None, c.get_size())
    if k == TK.RECORD:
        return _record(c, cxx)
    if k == TK.POINTER:
        raise Unsupported(f"its elements are pointers ('{t.spelling}'): an address means nothing "
                          "in another process")
    raise Unsupported(f"the directives cannot transfer values of type '{t.spelling}'")


def strip_arrays(t) -> tuple:
    """(element type, number of elements or None when an extent is unknown) of an array
    type, all dimensions flattened; (t, 1) for a non-array."""
    c = t.get_canonical()
    count = 1
    while c.kind in ARRAY_KINDS:
        if c.kind != TK.CONSTANTARRAY:
            count = None
        elif count is not None:
            count *= c.element_count
        c = c.element_type.get_canonical()
    return c, count


def _record(c, cxx: bool) -> Record:
    decl = c.get_declaration()
    if decl.kind == CK.UNION_DECL:
        raise Unsupported(f"'{c.spelling}' is a union: which member to transfer is not known")
    record = Record(c.spelling, c.get_size())
    _flatten(c, 0, record, cxx, c.spelling)
    return record


def _flatten(c, base: int, record: Record, cxx: bool, outer: str):
    fields = list(c.get_fields())
    if not fields:
        raise Unsupported(f"'{c.spelling}' has no fields to transfer")
    for f in fields:
        where = f"field '{f.spelling}' of {outer}" if f.spelling else f"an unnamed field of {outer}"
        if f.is_bitfield():
            raise Unsupported(f"{where} is a bit-field: MPI and SHMEM address whole bytes")
        ft = f.type.get_canonical()
        offset = base + f.get_field_offsetof() // 8
        if ft.kind in (TK.INCOMPLETEARRAY, TK.VARIABLEARRAY):
            raise Unsupported(f"{where} is a flexible array member: its length is not in the type")
        elem, count = strip_arrays(ft)
        if elem.kind == TK.POINTER:
            raise Unsupported(f"{where} is a pointer: an address means nothing in another process "
                              "(transfer what it points to as a buffer of its own)")
        if elem.kind == TK.RECORD:
            if elem.get_declaration().kind == CK.UNION_DECL:
                raise Unsupported(f"{where} is a union: which member to transfer is not known")
            for k in range(count):
                _flatten(elem, offset + k * elem.get_size(), record, cxx, outer)
            continue
        try:
            basic = element(elem, cxx)
        except Unsupported as e:
            raise Unsupported(f"{where}: {e}") from None
        record.blocks.append((offset, count, basic))
