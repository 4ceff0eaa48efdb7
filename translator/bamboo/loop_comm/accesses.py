"""The fine-grained remote accesses the optimizer can move: ``shmem_TYPE_g(addr, pe)``,
``shmem_TYPE_p(addr, value, pe)``, the one-element ``shmem_TYPE_get(dest, addr, 1, pe)`` and
``shmem_TYPE_put(addr, src, 1, pe)``; and the one-element ``MPI_Get``/``MPI_Put`` of MPI
one-sided communication, which complete only when their epoch does (a fence, an unlock), so
that all of a loop's may move as one after it."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..frontend import cx

GET = "get"
PUT = "put"

# OpenSHMEM 1.4's standard RMA types: the TYPENAME of shmem_TYPENAME_g and its C type.
SHMEM_TYPES = {
    "float": "float", "double": "double", "longdouble": "long double", "char": "char",
    "schar": "signed char", "short": "short", "int": "int", "long": "long",
    "longlong": "long long", "uchar": "unsigned char", "ushort": "unsigned short",
    "uint": "unsigned int", "ulong": "unsigned long", "ulonglong": "unsigned long long",
    "int8": "int8_t", "int16": "int16_t", "int32": "int32_t", "int64": "int64_t",
    "uint8": "uint8_t", "uint16": "uint16_t", "uint32": "uint32_t", "uint64": "uint64_t",
    "size": "size_t", "ptrdiff": "ptrdiff_t",
}
_NAME = re.compile(r"shmem_(\w+?)_(g|p|get|put)$")


MPI_FORMS = {"MPI_Get": GET, "MPI_Put": PUT}


@dataclass
class RemoteAccess:
    call: object          # the CALL_EXPR cursor
    direction: str        # GET or PUT
    ctype: str | None     # SHMEM: the element's C type
    address: object       # SHMEM: the remote address; MPI: the origin (local) address
    pe: object            # cursor of the PE (the MPI rank) argument
    local: object | None  # SHMEM: value (p), source (put) or destination (get) argument
    form: str             # g, p, get, put, MPI_Get or MPI_Put
    target: object = None    # MPI: the target displacement
    datatype: object = None         # MPI: the origin's datatype
    target_datatype: object = None  # MPI: the target's (nests.py: it must be the same)
    window: object = None           # MPI: the window

    @property
    def name(self) -> str:
        return self.call.spelling

    @property
    def mpi(self) -> bool:
        return self.form in MPI_FORMS


def remote_access(call) -> RemoteAccess | str | None:
    """The access a call makes, a reason why the optimizer cannot move it (a str), or None
    when the call is no fine-grained remote access."""
    if call.spelling in MPI_FORMS:
        return _mpi_access(call)
    m = _NAME.match(call.spelling)
    if not m or m.group(1) not in SHMEM_TYPES:
        return None
    typename, form = m.groups()
    args = list(call.get_arguments())
    ctype = SHMEM_TYPES[typename]
    if form == "g" and len(args) == 2:
        return RemoteAccess(call, GET, ctype, args[0], args[1], None, form)
    if form == "p" and len(args) == 3:
        return RemoteAccess(call, PUT, ctype, args[0], args[2], args[1], form)
    if form in ("get", "put") and len(args) == 4:
        if cx.integer_literal(args[2]) != 1:
            return f"{call.spelling} moves a block of elements, not one"
        if form == "get":
            return RemoteAccess(call, GET, ctype, args[1], args[3], args[0], form)
        return RemoteAccess(call, PUT, ctype, args[0], args[3], args[1], form)
    return None


def _mpi_access(call) -> RemoteAccess | str | None:
    args = list(call.get_arguments())
    if len(args) != 8:
        return None
    for count in (args[1], args[5]):
        if cx.integer_literal(count) != 1:
            return f"{call.spelling} moves a block of elements, not one"
    return RemoteAccess(call, MPI_FORMS[call.spelling], None, args[0], args[3], None,
                        call.spelling, target=args[4], datatype=args[2],
                        target_datatype=args[6], window=args[7])
