"""Argument types the bench scripts share: comma-separated lists and N:ITERATIONS sizes, read by
argparse itself (``type=``), so that a malformed value ends in argparse's one-line error
naming the option, exit status 2, rather than a traceback."""
from __future__ import annotations

import argparse


def _list(text: str, convert, what: str) -> list:
    parts = text.split(",")
    try:
        values = [convert(part) for part in parts]
    except ValueError:
        values = None
    if values is None or any(part.strip() == "" for part in parts):
        raise argparse.ArgumentTypeError(f"expected {what} separated by commas, got '{text}'")
    return values


def integers(text: str) -> list[int]:
    """``1,2,4``"""
    return _list(text, int, "whole numbers")


def numbers(text: str) -> list[float]:
    """``1,1.5,2``"""
    return _list(text, float, "numbers")


def words(text: str) -> list[str]:
    """``jacobi3d,cannon``"""
    return _list(text, str, "names")


def size(text: str) -> tuple[int, int]:
    """``N:ITERATIONS``, e.g. ``96:200``"""
    parts = text.split(":")
    try:
        n, iterations = (int(part) for part in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected N:ITERATIONS (two whole numbers), got '{text}'")
    return n, iterations


def sizes(text: str) -> list[tuple[int, int]]:
    """``96:200,192:40``"""
    values = []
    for part in text.split(","):
        try:
            values.append(size(part))
        except argparse.ArgumentTypeError:
            raise argparse.ArgumentTypeError(f"expected N:ITERATIONS pairs separated by commas, "
                                             f"got '{text}'") from None
    return values


def words_among(known) -> callable:
    """A type for a list of names each of which is one of ``known``."""
    def among(text: str) -> list[str]:
        values = words(text)
        unknown = [v for v in values if v not in known]
        if unknown:
            raise argparse.ArgumentTypeError(f"unknown {', '.join(unknown)} (known: {', '.join(known)})")
        return values
    return among
