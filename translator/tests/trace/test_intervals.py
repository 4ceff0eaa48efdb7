"""Interval unions and intersections (bamboo/trace/intervals.py), on cases small enough to
check by eye."""
from bamboo.trace.intervals import intersection, length, union


def test_union_merges_overlapping_and_touching_intervals_in_any_order():
    assert union([(5, 7), (0, 2), (1, 3), (3, 4), (6, 6.5), (10, 10)]) == [(0, 4), (5, 7), (10, 10)]


def test_union_of_nothing_is_empty():
    assert union([]) == [] and length([]) == 0


def test_a_contained_interval_does_not_shorten_the_one_around_it():
    assert union([(0, 10), (2, 3)]) == [(0, 10)]


def test_length_of_a_union_counts_shared_time_once():
    assert length(union([(0, 4), (2, 6), (10, 11)])) == 7


def test_intersection_keeps_only_common_time():
    a = union([(0, 10), (20, 30)])
    b = union([(5, 25), (28, 40)])
    assert intersection(a, b) == [(5, 10), (20, 25), (28, 30)]
    assert intersection(b, a) == intersection(a, b)


def test_intervals_that_only_touch_have_nothing_in_common():
    assert intersection([(0, 5)], [(5, 9)]) == []
    assert intersection([(0, 5)], []) == []
