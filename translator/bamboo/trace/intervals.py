"""Time as sets of intervals: the union of many (possibly overlapping) intervals, its length,
and the intersection of two unions, by sorted sweeps: O(n log n) for a union, linear after.

An interval is a ``(begin, end)`` pair with begin <= end; a union is a list of disjoint
intervals in increasing order, which is what ``union`` returns and ``intersection`` takes."""
from __future__ import annotations

from collections.abc import Iterable

Interval = tuple[float, float]


def union(intervals: Iterable[Interval]) -> list[Interval]:
    """The disjoint, sorted intervals that cover exactly the points some interval covers.
    Intervals that only touch are merged: a point has no length."""
    merged: list[Interval] = []
    for begin, end in sorted(intervals):
        if merged and begin <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((begin, end))
    return merged


def length(disjoint: Iterable[Interval]) -> float:
    """The total length of disjoint intervals (a union's)."""
    return sum(end - begin for begin, end in disjoint)


def intersection(a: list[Interval], b: list[Interval]) -> list[Interval]:
    """The points in both of two unions, as a union: one sweep over both."""
    common: list[Interval] = []
    i = j = 0
    while i < len(a) and j < len(b):
        begin, end = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if begin < end:
            common.append((begin, end))
        # The interval that ends first cannot meet anything further in the other list.
        if a[i][1] <= b[j][1]:
            i += 1
        else:
            j += 1
    return common
