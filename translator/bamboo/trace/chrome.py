"""The Chrome trace-event JSON that ``--bamboo-trace FILE`` writes (docs/tracing.md, "The
JSON"): ``read`` it, list where it breaks the format's promises (``problems``), and ``build``
from a well-formed one the model the summary and the plot read: processes, their lanes, the
spans on each lane, and the messages with both ends.

``load`` does all three, and refuses a file with problems: figures computed from a trace
whose spans do not close or whose messages lack an end would look plausible and be wrong."""
from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from .intervals import Interval

VERSION = 1

# What each kind of lane (by its thread_name) carries: the categories of its spans.
LANE_CATEGORIES = {"worker": ("task", "idle"), "comm engine": ("engine",), "vrank": ("wait",)}
WAIT_KINDS = ("receive", "send", "requests", "collective", "firing rule", "other")
PHASES = ("B", "E", "s", "f", "M")

LaneKey = tuple[int, int]  # (pid, tid)


class TraceError(Exception):
    """A file that cannot be used as a Bamboo trace; the message says which and why."""


@dataclass(frozen=True)
class Span:
    begin: float
    end: float
    name: str
    cat: str
    args: dict[str, Any]

    @property
    def duration(self) -> float:
        return self.end - self.begin


@dataclass(frozen=True)
class Lane:
    process: int
    tid: int
    name: str            # "worker 0", "comm engine", "vrank 3"
    spans: list[Span]    # in time order

    @property
    def kind(self) -> str:
        """"worker", "comm engine" or "vrank"."""
        return lane_kind(self.name) or ""

    @property
    def label(self) -> str:
        """The lane as the plot names it: "p0 worker 0", "p0 engine", "p0 vrank 3"."""
        return f"p{self.process} {'engine' if self.kind == 'comm engine' else self.name}"


@dataclass(frozen=True)
class Endpoint:
    process: int
    tid: int
    ts: float


@dataclass(frozen=True)
class Message:
    id: int | str
    send: Endpoint       # on the sending task's worker lane
    arrival: Endpoint    # on the receiving task's vrank lane
    args: dict[str, Any]
    category: str = "message"  # or "rma": a one-sided operation, from its call to its target

    @property
    def remote(self) -> bool:
        return self.send.process != self.arrival.process


@dataclass(frozen=True)
class Stop:
    at: float
    why: str             # "deadlock report", "fault (SIGSEGV)", "SIGTERM", "MPI_Abort (...)"


@dataclass(frozen=True)
class Process:
    number: int
    workers: int
    vranks: list[int]
    run: Interval        # when its workers started and stopped running tasks
    lanes: list[Lane]    # in thread_sort_index order
    stopped: Stop | None = None  # where the job did not end well: when and why it stopped


@dataclass(frozen=True)
class Trace:
    events: int
    vf: int
    truncated_at: float | None
    processes: list[Process]
    messages: list[Message]
    missing: list[int] = field(default_factory=list)  # processes that left no part
    filter: str | None = None  # --bamboo-trace-filter, where one cut the trace


def lane_kind(name: str) -> str | None:
    """The kind of lane a thread_name names, or None if it names none of docs/tracing.md's."""
    if name == "comm engine":
        return name
    word, _, number = name.partition(" ")
    return word if word in ("worker", "vrank") and number.isdigit() else None


def read(path: str) -> dict:
    """The file's JSON, if it is a Bamboo trace at all (well formed or not)."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        raise TraceError(f"{path}: {e.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise TraceError(f"{path}: not JSON ({e})") from None
    if not isinstance(data, dict) or not isinstance(data.get("traceEvents"), list):
        raise TraceError(f"{path}: not a trace-event file (no traceEvents list)")
    if not isinstance(data.get("otherData"), dict) or "bamboo" not in data["otherData"]:
        raise TraceError(f"{path}: not a Bamboo trace (no otherData.bamboo)")
    return data


def load(path: str) -> Trace:
    data = read(path)
    found = problems(data)
    if found:
        more = f" (and {len(found) - 1} more problems)" if len(found) > 1 else ""
        raise TraceError(f"{path}: not well formed: {found[0]}{more}; "
                         f"'bamboo trace check {path}' lists them")
    return build(data)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _args(event: dict) -> dict:
    return event["args"] if isinstance(event.get("args"), dict) else {}


# The args the summary and the plot read, and what each must be: of the spans by category,
# and of both ends of a message.
REQUIRED_ARGS = {
    "task": {"vrank": (_is_int, "an integer")},
    "wait": {"vrank": (_is_int, "an integer"),
             "kind": (lambda v: v in WAIT_KINDS, f"one of {', '.join(WAIT_KINDS)}"),
             "for": (lambda v: isinstance(v, str), "a string")},
    "message": {"from": (_is_int, "an integer"), "to": (_is_int, "an integer"),
                "bytes": (lambda v: _is_int(v) and v >= 0, "a byte count"),
                "remote": (lambda v: isinstance(v, bool), "true or false")},
}


def _is_run(value: Any) -> bool:
    return (isinstance(value, list) and len(value) == 2 and all(map(_is_number, value))
            and value[0] <= value[1])


# What otherData.bamboo holds (docs/tracing.md), and each of its processes: field -> (is it
# valid, what it must be).
HEADER_FIELDS = {
    "vf": (lambda v: _is_int(v) and v > 0, "a positive integer"),
    "truncated_at": (lambda v: v is None or _is_number(v), "null or a time"),
    "processes": (lambda v: isinstance(v, list) and bool(v), "a non-empty list"),
}
PROCESS_FIELDS = {
    "process": (_is_int, "an integer"),
    "workers": (lambda v: _is_int(v) and v > 0, "a positive integer"),
    "vranks": (lambda v: isinstance(v, list) and all(map(_is_int, v)), "a list of integers"),
    "run": (_is_run, "[start, end]"),
}


def _is_stop(value: Any) -> bool:
    return value is None or (isinstance(value, dict) and _is_number(value.get("at"))
                             and isinstance(value.get("why"), str))


# Fields a trace of a job that did not end well has (docs/tracing.md), checked where present.
OPTIONAL_HEADER_FIELDS = {
    "missing": (lambda v: isinstance(v, list) and all(map(_is_int, v)), "a list of integers"),
    "filter": (lambda v: v is None or isinstance(v, str), "null or a string"),
}
OPTIONAL_PROCESS_FIELDS = {
    "stopped": (_is_stop, 'null or {"at": a time, "why": a string}'),
}


def _field_problems(record: dict, where: str, fields: dict, optional: dict | None = None) -> list[str]:
    found = []
    for name, (valid, what) in (optional or {}).items():
        if name in record and not valid(record[name]):
            found.append(f"{where}.{name}: {record[name]!r} is not {what}")
    for name, (valid, what) in fields.items():
        if name not in record:
            found.append(f"{where}.{name}: missing")
        elif not valid(record[name]):
            found.append(f"{where}.{name}: {record[name]!r} is not {what}")
    return found


def _processes(bamboo: Any) -> list:
    """otherData.bamboo.processes, if it is a list."""
    processes = bamboo.get("processes") if isinstance(bamboo, dict) else None
    return processes if isinstance(processes, list) else []


def _header_problems(bamboo: Any) -> list[str]:
    """What otherData.bamboo lacks of what docs/tracing.md says it holds."""
    if not isinstance(bamboo, dict):
        return ["otherData.bamboo: missing or not an object"]
    found = []
    if not (_is_int(bamboo.get("version")) and bamboo["version"] == VERSION):  # True == 1
        found.append(f"otherData.bamboo.version: {bamboo.get('version')!r} "
                     f"(this reader knows version {VERSION})")
    found += _field_problems(bamboo, "otherData.bamboo", HEADER_FIELDS, OPTIONAL_HEADER_FIELDS)
    for k, process in enumerate(_processes(bamboo)):
        where = f"otherData.bamboo.processes[{k}]"
        if isinstance(process, dict):
            found += _field_problems(process, where, PROCESS_FIELDS, OPTIONAL_PROCESS_FIELDS)
        else:
            found.append(f"{where}: not an object")
    return found


class _Checker:
    """One pass over the events in file order, with what each lane and message has seen."""

    def __init__(self, events: list, bamboo: Any):
        self.events = events
        self.found: list[str] = []
        self.listed = {p.get("process") for p in _processes(bamboo)
                       if isinstance(p, dict) and _is_int(p.get("process"))}
        self.end = bamboo.get("truncated_at") if isinstance(bamboo, dict) else None
        self.names = self._lane_names()
        self.first_event: dict[LaneKey, int] = {}      # of every lane with timed events
        self.last: dict[LaneKey, int] = {}             # the lane's latest timed event
        self.open: dict[LaneKey, list[int]] = defaultdict(list)  # its unended B events
        self.flow_ends: dict[Any, dict[str, list[int]]] = defaultdict(lambda: {"s": [], "f": []})
        self.unlisted: set[int] = set()

    def _lane_names(self) -> dict[LaneKey, str]:
        """The lanes' names, from the metadata events, which it checks."""
        names = {}
        for i, e in enumerate(self.events):
            if not (isinstance(e, dict) and e.get("ph") == "M"
                    and e.get("name") in ("thread_name", "thread_sort_index")):
                continue  # other metadata (process_name, say) is for the viewers
            args = _args(e)
            if not (_is_int(e.get("pid")) and _is_int(e.get("tid"))):
                self.found.append(f"event {i}: {e['name']} without an integer pid and tid")
            elif e["name"] == "thread_sort_index":
                if not _is_number(args.get("sort_index")):
                    self.found.append(f"event {i}: thread_sort_index without a numeric "
                                      "args.sort_index")
            elif not isinstance(args.get("name"), str) or lane_kind(args["name"]) is None:
                self.found.append(f"event {i}: thread_name {args.get('name')!r} names no lane "
                                  "of docs/tracing.md ('worker N', 'comm engine', 'vrank V')")
            else:
                names[(e["pid"], e["tid"])] = args["name"]
        return names

    def lane(self, key: LaneKey) -> str:
        name = self.names.get(key)
        return f"p{key[0]} '{name}'" if name else f"p{key[0]} tid {key[1]}"

    def describe(self, i: int) -> str:
        e = self.events[i]
        what = {"B": f"B {e.get('name')!r}", "E": "E",
                "s": f"s of message {e.get('id')!r}", "f": f"f of message {e.get('id')!r}"}
        return (f"event {i} ({what[e['ph']]} at {e['ts']} "
                f"on {self.lane((e['pid'], e['tid']))})")

    def check(self) -> list[str]:
        for i, e in enumerate(self.events):
            if self.timed_event(i, e):
                self.on_lane(i, e)
        self.finish()
        return self.found

    def timed_event(self, i: int, e: Any) -> bool:
        """Whether event i is a B, E, s or f with what every one needs."""
        if not isinstance(e, dict):
            self.found.append(f"event {i}: not an object")
            return False
        if e.get("ph") not in PHASES:
            self.found.append(f"event {i}: unknown phase {e.get('ph')!r}")
            return False
        if e["ph"] == "M":
            return False
        needs = (("pid", _is_int), ("tid", _is_int), ("ts", _is_number))
        lacking = [field for field, valid in needs if not valid(e.get(field))]
        if lacking:
            self.found.append(f"event {i} ({e['ph']}): no integer pid, tid and numeric ts "
                              f"({', '.join(lacking)})")
            return False
        if e["ph"] in ("s", "f") and not isinstance(e.get("id"), (int, str)):
            self.found.append(f"event {i} ({e['ph']}): a message end without an id")
            return False
        return True

    def on_lane(self, i: int, e: dict) -> None:
        key = (e["pid"], e["tid"])
        self.first_event.setdefault(key, i)
        if e["pid"] not in self.listed and e["pid"] not in self.unlisted:
            self.unlisted.add(e["pid"])
            self.found.append(f"{self.describe(i)}: process {e['pid']} is not in "
                              "otherData.bamboo.processes")
        if _is_number(self.end) and e["ts"] > self.end:
            self.found.append(f"{self.describe(i)}: after truncated_at ({self.end})")
        previous = self.last.get(key)
        if previous is not None and e["ts"] < self.events[previous]["ts"]:
            self.found.append(f"{self.describe(i)}: earlier than the lane's previous event, "
                              f"event {previous} at {self.events[previous]['ts']}")
        self.last[key] = i
        if e["ph"] == "B":
            self.begin(i, e, key)
        elif e["ph"] == "E":
            self.end_span(i, e, key)
        else:
            self.flow_ends[e["id"]][e["ph"]].append(i)
            self.require_args(i, e, "message")

    def begin(self, i: int, e: dict, key: LaneKey) -> None:
        if self.open[key]:
            j = self.open[key][-1]
            self.found.append(f"{self.describe(i)}: begins while {self.describe(j)} has not "
                              "ended: spans on a lane overlap")
        self.open[key].append(i)
        cat = e.get("cat") if isinstance(e.get("cat"), str) else None
        kind = lane_kind(self.names.get(key, ""))
        if kind and cat not in LANE_CATEGORIES[kind]:
            self.found.append(f"{self.describe(i)}: a span of category {cat!r} on a {kind} lane "
                              f"(which carries {', '.join(LANE_CATEGORIES[kind])})")
        self.require_args(i, e, cat)

    def end_span(self, i: int, e: dict, key: LaneKey) -> None:
        if not self.open[key]:
            self.found.append(f"{self.describe(i)}: ends no span (none is open on the lane)")
            return
        j = self.open[key].pop()
        if "name" in e and e["name"] != self.events[j].get("name"):
            self.found.append(f"{self.describe(i)}: named {e['name']!r}, but ends "
                              f"{self.describe(j)}")

    def require_args(self, i: int, e: dict, category: str | None) -> None:
        args = _args(e)
        for name, (valid, what) in REQUIRED_ARGS.get(category, {}).items():
            if name not in args:
                self.found.append(f"{self.describe(i)}: no args.{name}")
            elif not valid(args[name]):
                self.found.append(f"{self.describe(i)}: args.{name} {args[name]!r} is not {what}")

    def finish(self) -> None:
        for stack in self.open.values():
            self.found += [f"{self.describe(j)}: never ends" for j in stack]
        for key, i in self.first_event.items():
            if key not in self.names:
                self.found.append(f"lane {self.lane(key)}: no thread_name metadata names it "
                                  f"(its first event: event {i})")
        for ident, ends in self.flow_ends.items():
            self.message(ident, ends["s"], ends["f"])

    def message(self, ident: Any, sends: list[int], arrivals: list[int]) -> None:
        if len(sends) != 1 or len(arrivals) != 1:
            ends = ", ".join(f"event {i}" for i in sends + arrivals)
            self.found.append(f"message {ident!r}: {len(sends)} s and {len(arrivals)} f events "
                              f"({ends}); a message has one of each")
            return
        send, arrival = self.events[sends[0]], self.events[arrivals[0]]
        if arrival["ts"] < send["ts"]:
            self.found.append(f"message {ident!r}: {self.describe(arrivals[0])} arrives before "
                              f"{self.describe(sends[0])} sends it")
        remote = send["pid"] != arrival["pid"]
        if _args(send).get("remote") != remote:
            self.found.append(f"message {ident!r}: args.remote is not {str(remote).lower()}, "
                              f"yet it goes from p{send['pid']} to p{arrival['pid']}")


def problems(data: dict) -> list[str]:
    """Where the trace breaks docs/tracing.md's promises, one line each, naming the event,
    lane or message: spans that do not end or overlap on their lane, times that go back on a
    lane, messages without exactly one send and one arrival (or arriving before they are
    sent), lanes no thread_name names, and what otherData.bamboo lacks."""
    bamboo = (data.get("otherData") or {}).get("bamboo")
    return _header_problems(bamboo) + _Checker(data.get("traceEvents") or [], bamboo).check()


def build(data: dict) -> Trace:
    """The model of a trace in which ``problems`` finds nothing."""
    names: dict[LaneKey, str] = {}
    order: dict[LaneKey, int] = {}
    spans: dict[LaneKey, list[Span]] = defaultdict(list)
    open_spans: dict[LaneKey, dict] = {}
    ends: dict[str, dict[Any, dict]] = {"s": {}, "f": {}}
    for e in data["traceEvents"]:
        ph = e["ph"]
        if ph == "M":
            if e.get("name") == "thread_name":
                names[(e["pid"], e["tid"])] = e["args"]["name"]
            elif e.get("name") == "thread_sort_index":
                order[(e["pid"], e["tid"])] = e["args"]["sort_index"]
            continue
        key = (e["pid"], e["tid"])
        if ph == "B":
            open_spans[key] = e
        elif ph == "E":
            begin = open_spans.pop(key)
            spans[key].append(Span(begin["ts"], e["ts"], str(begin.get("name", "")),
                                   begin["cat"], _args(begin)))
        else:
            ends[ph][e["id"]] = e

    def lanes_of(pid: int) -> list[Lane]:
        keys = sorted((key for key in names if key[0] == pid),
                      key=lambda key: (order.get(key, 0), key[1]))
        return [Lane(pid, tid, names[(pid, tid)], spans[(pid, tid)]) for _, tid in keys]

    def endpoint(e: dict) -> Endpoint:
        return Endpoint(e["pid"], e["tid"], e["ts"])

    def stop_of(p: dict) -> Stop | None:
        stopped = p.get("stopped")
        return Stop(stopped["at"], stopped["why"]) if stopped else None

    bamboo = data["otherData"]["bamboo"]
    processes = [Process(p["process"], p["workers"], p["vranks"], tuple(p["run"]),
                         lanes_of(p["process"]), stop_of(p)) for p in bamboo["processes"]]
    messages = [Message(ident, endpoint(send), endpoint(ends["f"][ident]), send["args"],
                        send.get("cat", "message"))
                for ident, send in ends["s"].items()]
    return Trace(len(data["traceEvents"]), bamboo["vf"], bamboo["truncated_at"],
                 sorted(processes, key=lambda p: p.number), messages, bamboo.get("missing", []),
                 bamboo.get("filter"))
