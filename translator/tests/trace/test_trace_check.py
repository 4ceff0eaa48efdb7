"""The validator (bamboo/trace/chrome.py, problems): a well-formed synthetic trace has none;
each edit below breaks one of docs/tracing.md's promises, and the validator says which event,
lane or message breaks it, in exactly the problems expected (no check's absence would go
unnoticed: each case's problem comes from one check alone)."""
from __future__ import annotations

import copy

import pytest
from trace_builder import ENGINE_TID, VRANK_TID, two_processes

from bamboo.trace.chrome import build, problems
from bamboo.trace.summary import summarize


def matching(data: dict, **fields) -> list[int]:
    """The indexes of the events with these fields."""
    return [i for i, e in enumerate(data["traceEvents"])
            if all(e.get(k) == v for k, v in fields.items())]


def find(data: dict, **fields) -> int:
    """The index of the one event with these fields."""
    found = matching(data, **fields)
    assert len(found) == 1, (fields, found)
    return found[0]


def delete(**fields):
    def edit(data: dict) -> None:
        del data["traceEvents"][find(data, **fields)]
    return edit


def change(where: dict, **values):
    def edit(data: dict) -> None:
        data["traceEvents"][find(data, **where)].update(values)
    return edit


def bamboo(edit):
    def on_header(data: dict) -> None:
        edit(data["otherData"]["bamboo"])
    return on_header


def duplicate_send(data: dict) -> None:
    i = find(data, ph="s", id=2)
    data["traceEvents"].insert(i + 1, copy.deepcopy(data["traceEvents"][i]))


def forget_arg(name: str, **where):
    def edit(data: dict) -> None:
        del data["traceEvents"][find(data, **where)]["args"][name]
    return edit


def test_a_well_formed_trace_has_no_problems():
    data = two_processes().data()
    assert problems(data) == []
    assert len(build(data).messages) == 3


def event(data: dict, **fields) -> str:
    return f"event {find(data, **fields)}"


# (edit, the problems it causes: a function of the edited trace, whose events it counts)
CASES = [
    pytest.param(delete(ph="E", pid=0, tid=1, ts=120),
                 lambda d: [f"{event(d, ph='B', pid=0, tid=1, ts=115)} (B 'vrank 1' at 115 on "
                            "p0 'worker 1'): never ends"], id="unended span"),
    pytest.param(delete(ph="B", pid=0, tid=1, ts=115),
                 lambda d: [f"{event(d, ph='E', pid=0, tid=1, ts=120)} (E at 120 on "
                            "p0 'worker 1'): ends no span (none is open on the lane)"],
                 id="end without begin"),
    pytest.param(change(dict(ph="E", pid=1, tid=0, ts=40), ts=9),
                 lambda d: [f"{event(d, ph='E', pid=1, tid=0, ts=9)} (E at 9 on p1 'worker 0'): "
                            "earlier than the lane's previous event, "
                            f"{event(d, ph='B', pid=1, tid=0, ts=10)} at 10"],
                 id="time goes back on a lane"),
    pytest.param(delete(ph="f", id=2),
                 lambda d: [f"message 2: 1 s and 0 f events ({event(d, ph='s', id=2)}); "
                            "a message has one of each"], id="message without arrival"),
    pytest.param(duplicate_send,
                 lambda d: ["message 2: 2 s and 1 f events (event {}, event {}, {}); a message "
                            "has one of each".format(*matching(d, ph="s", id=2),
                                                     event(d, ph="f", id=2))],
                 id="message sent twice"),
    pytest.param(delete(ph="M", pid=1, tid=VRANK_TID + 2, name="thread_name"),
                 lambda d: ["lane p1 tid 2002: no thread_name metadata names it (its first event: "
                            f"{event(d, ph='B', pid=1, tid=VRANK_TID + 2)})"], id="unnamed lane"),
    pytest.param(change(dict(ph="M", pid=1, tid=VRANK_TID + 2, name="thread_name"),
                        args={"name": "helper"}),
                 lambda d: [f"{event(d, ph='M', name='thread_name', args={'name': 'helper'})}: "
                            "thread_name 'helper' names no lane of docs/tracing.md ('worker N', "
                            "'comm engine', 'vrank V')",
                            "lane p1 tid 2002: no thread_name metadata names it (its first event: "
                            f"{event(d, ph='B', pid=1, tid=VRANK_TID + 2)})"],
                 id="lane named outside the format"),
    pytest.param(forget_arg("for", ph="B", pid=1, tid=VRANK_TID + 2),
                 lambda d: [f"{event(d, ph='B', pid=1, tid=VRANK_TID + 2)} (B 'MPI_Recv' at 10 on "
                            "p1 'vrank 2'): no args.for"], id="wait without for"),
    pytest.param(change(dict(ph="E", pid=0, tid=ENGINE_TID, ts=21), name="other"),
                 lambda d: [f"{event(d, ph='E', pid=0, tid=ENGINE_TID, ts=21)} (E at 21 on "
                            "p0 'comm engine'): named 'other', but ends "
                            f"{event(d, ph='B', pid=0, tid=ENGINE_TID, ts=20)} (B 'progress' at 20 "
                            "on p0 'comm engine')"], id="E names another span"),
    pytest.param(change(dict(ph="s", id=2), args={"from": 0, "to": 2, "tag": 7, "comm": "world",
                                                  "bytes": 4096, "remote": False}),
                 lambda d: ["message 2: args.remote is not true, yet it goes from p0 to p1"],
                 id="remote flag contradicts the ends"),
    pytest.param(change(dict(ph="B", pid=0, tid=ENGINE_TID, ts=20), ph="X"),
                 lambda d: [f"{event(d, ph='X')}: unknown phase 'X'",
                            f"{event(d, ph='E', pid=0, tid=ENGINE_TID, ts=21)} (E at 21 on "
                            "p0 'comm engine'): ends no span (none is open on the lane)"],
                 id="unknown phase"),
    pytest.param(change(dict(ph="B", pid=0, tid=ENGINE_TID, ts=20), ts="20"),
                 lambda d: [f"{event(d, ph='B', ts='20')} (B): no integer pid, tid and numeric ts "
                            f"(ts)", f"{event(d, ph='E', pid=0, tid=ENGINE_TID, ts=21)} (E at 21 "
                            "on p0 'comm engine'): ends no span (none is open on the lane)"],
                 id="ts not a number"),
    pytest.param(bamboo(lambda b: b.update(truncated_at=119)),
                 lambda d: [f"{event(d, ph='E', pid=pid, tid=tid, ts=120)} (E at 120 on "
                            f"p{pid} 'worker {tid}'): after truncated_at (119)"
                            for pid, tid in ((0, 0), (0, 1), (1, 0))],
                 id="events after the end"),
    pytest.param(bamboo(lambda b: b["processes"].pop()),
                 lambda d: [f"{event(d, ph='B', pid=1, tid=0, ts=0)} (B 'vrank 2' at 0 on "
                            "p1 'worker 0'): process 1 is not in otherData.bamboo.processes"],
                 id="process not listed"),
    pytest.param(bamboo(lambda b: b.update(version=2)),
                 lambda d: ["otherData.bamboo.version: 2 (this reader knows version 1)"],
                 id="version"),
    pytest.param(bamboo(lambda b: b.pop("vf")), lambda d: ["otherData.bamboo.vf: missing"],
                 id="no vf"),
    pytest.param(bamboo(lambda b: b["processes"][1].update(workers=0, run=[5, 1])),
                 lambda d: ["otherData.bamboo.processes[1].workers: 0 is not a positive integer",
                            "otherData.bamboo.processes[1].run: [5, 1] is not [start, end]"],
                 id="process fields"),
    pytest.param(bamboo(lambda b: (b["processes"][0].update(stopped={"at": "late"}), b.update(missing=[2, "x"]))),
                 lambda d: ["otherData.bamboo.missing: [2, 'x'] is not a list of integers",
                            "otherData.bamboo.processes[0].stopped: {'at': 'late'} is not null or "
                            '{"at": a time, "why": a string}'],
                 id="stop fields"),
    pytest.param(bamboo(lambda b: b.update(filter=3)),
                 lambda d: ["otherData.bamboo.filter: 3 is not null or a string"], id="filter field"),
]


@pytest.mark.parametrize("edit, expected", CASES)
def test_each_broken_promise_is_reported_where_it_is(edit, expected):
    data = two_processes().data()
    edit(data)
    assert problems(data) == expected(data)


def test_overlapping_spans_on_a_lane():
    # Properly nested (the second ends first), but a lane's spans must not overlap at all.
    d = two_processes().engine(0, 20.5, 20.8).data()
    assert problems(d) == [
        f"{event(d, ph='B', pid=0, tid=ENGINE_TID, ts=20.5)} (B 'progress' at 20.5 on p0 "
        f"'comm engine'): begins while {event(d, ph='B', pid=0, tid=ENGINE_TID, ts=20)} "
        "(B 'progress' at 20 on p0 'comm engine') has not ended: spans on a lane overlap"]


def test_a_message_arriving_before_it_is_sent():
    d = two_processes().message((1, 0), 3, 30, 0, 0, 29, 8).data()
    assert problems(d) == [f"message 4: {event(d, ph='f', id=4)} (f of message 4 at 29 on "
                           f"p0 'vrank 0') arrives before {event(d, ph='s', id=4)} (s of message 4 "
                           "at 30 on p1 'worker 0') sends it"]


def test_a_span_of_the_wrong_category_for_its_lane():
    d = two_processes().span(0, VRANK_TID + 0, 1, 2, "vrank 0", "task", {"vrank": 0}).data()
    assert problems(d) == [f"{event(d, ph='B', pid=0, tid=VRANK_TID, ts=1)} (B 'vrank 0' at 1 on "
                           "p0 'vrank 0'): a span of category 'task' on a vrank lane "
                           "(which carries wait)"]


def test_without_otherdata_bamboo_every_process_is_unlisted():
    data = two_processes().data()
    del data["otherData"]
    found = problems(data)
    assert found[0] == "otherData.bamboo: missing or not an object"
    assert [p for p in found[1:] if "is not in otherData.bamboo.processes" in p] == found[1:]
    assert len(found) == 3


ODD_VALUES = [None, [], {}, "x", -1, 0.5, True]


def test_no_value_of_any_field_makes_the_validator_or_the_summary_fail():
    # Whatever a field holds, problems() says what is wrong instead of raising, and a trace it
    # finds nothing wrong with can be summarized.
    pristine = two_processes().data()
    for i, e in enumerate(pristine["traceEvents"]):
        fields = [[field] for field in sorted(set(e) | {"id", "args"})]
        fields += [["args", name] for name in e.get("args", {})]
        for path in fields:
            for value in ODD_VALUES:
                data = copy.deepcopy(pristine)
                event = data["traceEvents"][i]
                (event if len(path) == 1 else event[path[0]])[path[-1]] = value
                if not problems(data):
                    summarize(build(data), "t.json")
    for field in ("version", "vf", "truncated_at", "processes"):
        for value in ODD_VALUES:
            data = copy.deepcopy(pristine)
            data["otherData"]["bamboo"][field] = value
            assert problems(data) or (field, value) == ("truncated_at", None)
    for field in ("process", "workers", "vranks", "run"):
        for value in ODD_VALUES:
            data = copy.deepcopy(pristine)
            data["otherData"]["bamboo"]["processes"][1][field] = value
            assert problems(data) or (field, value) == ("vranks", [])
