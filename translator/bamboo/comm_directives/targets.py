"""The C each target library gets for a transfer: one writer per target, with the same four
parts (a group's storage, a region's start, an instance's post, a group's completion).

Generated names start with ``bamboo_comm_``; every part is one line of C (the lowering
keeps the user's line numbers).  What the targets do:

- MPI two-sided: the receiver posts ``MPI_Irecv``, the sender ``MPI_Isend`` (tag
  ``TAG_BASE`` + the instance's number, on the directives' own communicator: ``WORLD``); a
  group completes with one ``MPI_Waitall``.  A list of buffers travels as one message of an MPI struct datatype, and
  so do the buffers of adjacent instances between the same peers (groups.py fuses them).
- MPI one-sided: one dynamic window per group (``MPI_Win_create_dynamic`` over ``WORLD``),
  with each object the group's ``rbuf`` items lie in attached to it and every process's
  address of the object gathered once, in a passive epoch (``MPI_Win_lock_all``) for the
  window's life; the sender puts (``MPI_Put``) at the receiver's address of its ``rbuf``.
  Synchronized point to point by empty messages on ``WORLD`` (runtime/commdir/src/mpi_sync.c):
  no fence, so processes that do not exchange do not wait for each other.
- SHMEM: typed non-blocking puts (``shmem_double_put_nbi``...) to the ``rbuf`` address,
  which names symmetric storage, synchronized point to point by runtime/commdir (class
  Shmem); the region's start also checks that SHMEM is running (a clear error, not a fault,
  in a program that has not called ``shmem_init``).
"""
from __future__ import annotations

from .datatypes import Basic, Record

TAG_BASE = 32000
MAX_INSTANCES = 32767 - TAG_BASE
# One-sided: a group's synchronization messages use tags 2 * its number ("you may put") and
# that plus 1 ("the data is there"); the directives' communicator is theirs alone, so the tags
# below TAG_BASE are free.

# The directives' messages travel on a communicator of their own (MPI_COMM_WORLD's ranks, a
# context of its own), so that a receive of the program's with MPI_ANY_TAG never takes one.
# It is made where all ranks are sure to be, in MPI_Init: by the Bamboo runtime for tasks,
# by runtime/commdir's MPI_Init (over PMPI) in a plain MPI program.  __FILE__ and __LINE__
# (the user's, through #line) locate the error of a directive that runs before MPI_Init.
WORLD = "bamboo_comm_world(__FILE__, __LINE__)"


def declarations(targets: set, cxx: bool) -> str:
    """The prototypes of runtime/commdir/include/bamboo_commdir.h that the lowered file's
    targets call, on one line (written before the first function that calls them)."""
    text = ""
    if targets & {"TARGET_COMM_MPI_2SIDE", "TARGET_COMM_MPI_1SIDE"}:
        text += "MPI_Comm bamboo_comm_world(const char *, int); "
    if "TARGET_COMM_MPI_1SIDE" in targets:
        text += ("struct bamboo_comm_sync; "
                 "struct bamboo_comm_sync *bamboo_comm_sync_new(MPI_Comm, int, int, const char *, int); "
                 "void bamboo_comm_sync_expect(struct bamboo_comm_sync *, int, const char *, int); "
                 "void bamboo_comm_sync_before_put(struct bamboo_comm_sync *, int, const char *, int); "
                 "void bamboo_comm_sync_complete(struct bamboo_comm_sync *, MPI_Win, const char *, int); "
                 "void bamboo_comm_sync_free(struct bamboo_comm_sync *); ")
    if "TARGET_COMM_SHMEM" in targets:
        text += ("void bamboo_comm_shmem_start(const char *, int); "
                 "void bamboo_comm_shmem_before_put(int, const char *, int); "
                 "void bamboo_comm_shmem_sent(int, const void *); "
                 "void bamboo_comm_shmem_expect(int, const char *, int); "
                 "void bamboo_comm_shmem_complete(const char *, int); ")
    return f'extern "C" {{ {text}}} ' if cxx and text else text


def element_type(elem, record_names: dict) -> str:
    """The MPI datatype expression of one element."""
    return elem.mpi if isinstance(elem, Basic) else record_names[elem.spelling]


def record_type_setup(elem, record_names: dict) -> str:
    """Creates the cached MPI struct type of a Record the first time it is used."""
    if not isinstance(elem, Record):
        return ""
    name = record_names[elem.spelling]
    n = len(elem.blocks)
    lengths = ", ".join(str(count) for _, count, _ in elem.blocks)
    offsets = ", ".join(str(offset) for offset, _, _ in elem.blocks)
    types = ", ".join(b.mpi for _, _, b in elem.blocks)
    return (f"if (!{name}_made) {{ int bamboo_comm_lengths[{n}] = {{{lengths}}}; "
            f"MPI_Aint bamboo_comm_offsets[{n}] = {{{offsets}}}; "
            f"MPI_Datatype bamboo_comm_types[{n}] = {{{types}}}, bamboo_comm_fields; "
            f"MPI_Type_create_struct({n}, bamboo_comm_lengths, bamboo_comm_offsets, "
            f"bamboo_comm_types, &bamboo_comm_fields); "
            f"MPI_Type_create_resized(bamboo_comm_fields, 0, {elem.size}, &{name}); "
            f"MPI_Type_free(&bamboo_comm_fields); MPI_Type_commit(&{name}); {name}_made = 1; }} ")


def request_array(array: str, counter: str, capacity: str, least: int, named: str) -> tuple[str, str]:
    """The declaration of an array of MPI requests and its counter of those posted, and the
    array's length: ``capacity``, a number, or an expression of max_comm_iter (an array of
    that length: a VLA in C, an extension GCC and Clang accept in C++, held in ``named``)."""
    if capacity.isdigit():
        return f"MPI_Request {array}[{capacity}]; int {counter} = 0; ", capacity
    # max_comm_iter may be 0 (or less): a VLA of length 0 is undefined, and a post needs
    # room for `least` requests (the guard in post() then completes before each)
    length = f"{named} > {least} ? {named} : {least}"
    return f"int {named} = {capacity}; MPI_Request {array}[{length}]; int {counter} = 0; ", length


class TwoSided:
    name = "MPI two-sided"
    requests_per_post = 2   # the receive and the send

    def storage(self, g, capacity: str) -> str:
        n = g.number
        text, length = request_array(f"bamboo_comm_requests_{n}", f"bamboo_comm_posted_{n}", capacity,
                                     self.requests_per_post, f"bamboo_comm_capacity_{n}")
        if g.list_types:
            text += (f"MPI_Datatype bamboo_comm_list_types_{n}[{length}]; "
                     f"int bamboo_comm_listed_{n} = 0; ")
        return text

    def region_start(self, region) -> str:
        return ""

    def complete(self, g) -> str:
        n = g.number
        text = (f"MPI_Waitall(bamboo_comm_posted_{n}, bamboo_comm_requests_{n}, "
                f"MPI_STATUSES_IGNORE); bamboo_comm_posted_{n} = 0; ")
        if g.list_types:
            text += (f"while (bamboo_comm_listed_{n} > 0) "
                     f"MPI_Type_free(&bamboo_comm_list_types_{n}[--bamboo_comm_listed_{n}]); ")
        return text

    def post(self, inst, g, record_names: dict, sides=("rbufs", "sbufs")) -> str:
        """The instance's receive and send (or those of ``sides``); instances fused into it
        (groups.py) travel in the same message, each buffer with its own instance's count."""
        n = g.number
        text = ""
        if inst.in_loop:
            # max_comm_iter too small, or not given: complete what is pending, stay correct
            room = f"(int)(sizeof bamboo_comm_requests_{n} / sizeof(MPI_Request))"
            text += f"if (bamboo_comm_posted_{n} + 2 > {room}) {{ {self.complete(g)}}} "
        if inst.waits_for_earlier:
            text += self.complete(g)
        parts = [(inst, "bamboo_comm_count")]
        for k, member in enumerate(inst.fused, 1):
            parts.append((member, f"bamboo_comm_count_{k}"))
            text += f"int bamboo_comm_count_{k} = (int){member.count}; "
        records = {b.element.spelling: b.element for part, _ in parts
                   for b in part.sbufs + part.rbufs if isinstance(b.element, Record)}
        text += "".join(record_type_setup(e, record_names) for e in records.values())
        tag = TAG_BASE + inst.number
        for side, when, peer, call in (("rbufs", "receivewhen", "sender", "MPI_Irecv"),
                                       ("sbufs", "sendwhen", "receiver", "MPI_Isend")):
            if side not in sides:
                continue
            pieces = [(b, count) for part, count in parts for b in getattr(part, side)]
            setup, address, count, dtype = self._message(pieces, g, record_names)
            request = f"&bamboo_comm_requests_{n}[bamboo_comm_posted_{n}++]"
            body = (f"{setup}{call}({address}, {count}, {dtype}, ({inst.clause(peer).expr.text}), "
                    f"{tag}, {WORLD}, {request}); ")
            condition = inst.clause(when)
            text += f"if ({condition.expr.text}) {{ {body}}} " if condition else f"{{ {body}}} "
        return text

    def _message(self, pieces, g, record_names):
        """(set-up code, address, count, datatype) of the message of ``pieces``, (buffer,
        count) pairs: one buffer as it is, several as one struct datatype over them."""
        if len(pieces) == 1:
            b, count = pieces[0]
            return "", b.address, count, element_type(b.element, record_names)
        k = len(pieces)
        name = f"bamboo_comm_list_types_{g.number}[bamboo_comm_listed_{g.number}]"
        types = ", ".join(element_type(b.element, record_names) for b, _ in pieces)
        setup = (f"MPI_Aint bamboo_comm_at[{k}]; int bamboo_comm_lengths[{k}]; "
                 f"MPI_Datatype bamboo_comm_types[{k}] = {{{types}}}; ")
        for j, (b, count) in enumerate(pieces):
            setup += (f"MPI_Get_address({b.address}, &bamboo_comm_at[{j}]); "
                      f"bamboo_comm_lengths[{j}] = {count}; ")
        setup += (f"for (int bamboo_comm_k = {k} - 1; bamboo_comm_k >= 0; bamboo_comm_k--) "
                  "bamboo_comm_at[bamboo_comm_k] -= bamboo_comm_at[0]; "
                  f"MPI_Type_create_struct({k}, bamboo_comm_lengths, bamboo_comm_at, "
                  f"bamboo_comm_types, &{name}); MPI_Type_commit(&{name}); ")
        dtype = f"bamboo_comm_list_types_{g.number}[bamboo_comm_listed_{g.number}++]"
        return setup, pieces[0][0].address, "1", dtype


class OneSided:
    """A dynamic window's displacements are addresses in the target's process: each process
    gathers every process's address of each attached object into a table of its own
    (MPI_Alloc_mem, so that no header is needed), read by the puts. The group's
    synchronization (struct bamboo_comm_sync) is made and freed with its window."""
    name = "MPI one-sided"
    requests_per_post = 0   # the synchronization keeps its own, a few per peer

    def storage(self, g, capacity: str) -> str:
        return "" if g.windows_around is not None else self._declare(g)

    def _declare(self, g) -> str:
        return (f"MPI_Win {g.window}; int {g.window_procs}; struct bamboo_comm_sync *{g.window_sync}; "
                + "".join(f"MPI_Aint *{table}; " for table in g.window_bases.values()))

    def region_start(self, region) -> str:
        g = region.group
        return "" if g.windows_around is not None else self.open_windows(g, region.opens_windows)

    def open_windows(self, g, opened) -> str:
        """The group's first objects make its window; later ones (of a later region of the
        group) are attached to it then."""
        if not opened:
            return ""
        first = opened[0][0] == next(iter(g.window_bases))
        text = self._create(g) if first else ""
        return text + "".join(self._attach(g, key) for key, _ in opened)

    def _create(self, g) -> str:
        """The window, in one passive epoch for its whole life: the messages order the puts."""
        return (f"MPI_Win_create_dynamic(MPI_INFO_NULL, {WORLD}, &{g.window}); "
                f"MPI_Comm_size({WORLD}, &{g.window_procs}); "
                f"MPI_Win_lock_all(MPI_MODE_NOCHECK, {g.window}); "
                f"{g.window_sync} = bamboo_comm_sync_new({WORLD}, {2 * g.number}, {2 * g.number + 1}, "
                f"__FILE__, __LINE__); ")

    def _attach(self, g, key) -> str:
        obj = g.window_variables[key].spelling
        table = g.window_bases[key]
        return (f"MPI_Win_attach({g.window}, &({obj}), (MPI_Aint)sizeof({obj})); "
                f"MPI_Alloc_mem((MPI_Aint){g.window_procs} * (MPI_Aint)sizeof(MPI_Aint), MPI_INFO_NULL, "
                f"&{table}); {{ MPI_Aint bamboo_comm_address; "
                f"MPI_Get_address(&({obj}), &bamboo_comm_address); "
                f"MPI_Allgather(&bamboo_comm_address, 1, MPI_AINT, {table}, 1, MPI_AINT, {WORLD}); }} ")

    def complete(self, g) -> str:
        text = f"bamboo_comm_sync_complete({g.window_sync}, {g.window}, __FILE__, __LINE__); "
        return text if g.windows_around is not None else text + self.free(g)

    def free(self, g) -> str:
        text = f"bamboo_comm_sync_free({g.window_sync}); MPI_Win_unlock_all({g.window}); "
        text += "".join(f"MPI_Win_detach({g.window}, &({g.window_variables[key].spelling})); "
                        f"MPI_Free_mem({table}); " for key, table in g.window_bases.items())
        return text + f"MPI_Win_free(&{g.window}); "

    def around_loop(self, g) -> tuple[str, str]:
        """What goes before and after the loop a group's window is hoisted to."""
        make = self._create(g) + "".join(self._attach(g, key) for key in g.window_bases)
        return f"{{ {self._declare(g)}{make}", f" {self.free(g)}}}"

    def post(self, inst, g, record_names: dict) -> str:
        """The receiving side first: see runtime/commdir/src/mpi_sync.c for why. An instance
        that transfers a buffer of an earlier one completes the group first, where it stands:
        the synchronization starts over (its receiver's go-ahead comes at this transfer)."""
        text = ""
        if inst.waits_for_earlier:
            text += f"bamboo_comm_sync_complete({g.window_sync}, {g.window}, __FILE__, __LINE__); "
        receive = (f"bamboo_comm_sync_expect({g.window_sync}, ({inst.clause('sender').expr.text}), "
                   f"__FILE__, __LINE__); ")
        # MPI_PROC_NULL reads no table entry (a receiver out of range has stopped the job)
        send = (f"int bamboo_comm_to = ({inst.clause('receiver').expr.text}); "
                f"bamboo_comm_sync_before_put({g.window_sync}, bamboo_comm_to, __FILE__, __LINE__); "
                f"int bamboo_comm_known = bamboo_comm_to >= 0 && bamboo_comm_to < {g.window_procs}; ")
        for s, r in zip(inst.sbufs, inst.rbufs):
            send += record_type_setup(s.element, record_names)
            obj = r.variable.spelling
            table = g.window_bases[r.variable.hash]
            dtype = element_type(s.element, record_names)
            send += (f"MPI_Put({s.address}, bamboo_comm_count, {dtype}, bamboo_comm_to, "
                     f"(bamboo_comm_known ? {table}[bamboo_comm_to] : 0) + "
                     f"(MPI_Aint)((char *)({r.address}) - (char *)&({obj})), bamboo_comm_count, "
                     f"{dtype}, {g.window}); ")
        for body, condition in ((receive, inst.clause("receivewhen")), (send, inst.clause("sendwhen"))):
            text += f"if ({condition.expr.text}) {{ {body}}} " if condition else f"{{ {body}}} "
        return text


class Shmem:
    """Point-to-point synchronization (runtime/commdir/src/shmem_sync.c): a sender waits,
    before its group's first put to a PE, until that PE is done with what it sent it before,
    and signals each PE it put to at the group's end; a receiver counts the transfers it
    expects (receivewhen) and waits for them there. No barrier: PEs that do not exchange do
    not wait for each other."""
    name = "SHMEM"
    requests_per_post = 0

    def storage(self, g, capacity: str) -> str:
        return ""

    def region_start(self, region) -> str:
        return "bamboo_comm_shmem_start(__FILE__, __LINE__); "

    def complete(self, g) -> str:
        return "bamboo_comm_shmem_complete(__FILE__, __LINE__); "

    def post(self, inst, g, record_names: dict) -> str:
        pe = f"({inst.clause('receiver').expr.text})"
        send = f"bamboo_comm_shmem_before_put({pe}, __FILE__, __LINE__); "
        for s, r in zip(inst.sbufs, inst.rbufs):
            e = s.element
            if isinstance(e, Basic) and e.shmem:
                t = e.c_name
                send += (f"shmem_{e.shmem}_put_nbi(({t} *)({r.address}), "
                         f"(const {t} *)({s.address}), (size_t)bamboo_comm_count, {pe}); ")
            else:
                send += (f"shmem_putmem_nbi({r.address}, {s.address}, "
                         f"(size_t)bamboo_comm_count * {e.size}, {pe}); ")
        send += f"bamboo_comm_shmem_sent({pe}, {inst.rbufs[0].address}); "
        receive = f"bamboo_comm_shmem_expect(({inst.clause('sender').expr.text}), __FILE__, __LINE__); "
        text = ""
        for body, condition in ((send, inst.clause("sendwhen")), (receive, inst.clause("receivewhen"))):
            text += f"if ({condition.expr.text}) {{ {body}}} " if condition else f"{{ {body}}} "
        return text


WRITERS = {"TARGET_COMM_MPI_2SIDE": TwoSided(), "TARGET_COMM_MPI_1SIDE": OneSided(),
           "TARGET_COMM_SHMEM": Shmem()}
