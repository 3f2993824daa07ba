"""Moments and how an expected event or moment matches an actual one. Shared by the comparison
(``oracle.harness.compare``) and the report (``oracle.reports``).

An expected moment matches an actual moment when both hold the same events as sets, each event compared
on the fields the case wrote (lists as multisets, booleans never equal to numbers).
"""

from __future__ import annotations

from typing import Any, Iterable

from ..model import TraceEntry


def moments(trace: Iterable[TraceEntry]) -> list[list[TraceEntry]]:
    """Group trace entries by moment, in order."""
    out: list[list[TraceEntry]] = []
    last = None
    for e in trace:
        if out and e.moment == last:
            out[-1].append(e)
        else:
            out.append([e])
            last = e.moment
    return out


def same(expected: Any, actual: Any) -> bool:
    if isinstance(expected, dict) and isinstance(actual, dict):
        return all(k in actual and same(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and _pairs(expected, actual, same)
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    return expected == actual


def _pairs(expected: list[Any], actual: list[Any], match: Any) -> bool:
    """A one-to-one pairing of ``expected`` with ``actual`` (a multiset comparison), each pair matching.
    Scalars first, greedily (matching scalars is an equivalence, so greedy is exact and never backtracks
    through the permutations of equal elements); then the rest by search."""
    used = [False] * len(actual)
    rest = []
    for e in expected:
        if isinstance(e, (dict, list)):
            rest.append(e)
            continue
        j = next((j for j, a in enumerate(actual) if not used[j] and match(e, a)), None)
        if j is None:
            return False
        used[j] = True
    return _search(rest, actual, match, used)


def _search(expected: list[Any], actual: list[Any], match: Any, used: list[bool]) -> bool:
    """Backtracking search for a one-to-one pairing of ``expected`` with the unused ``actual`` items."""

    def assign(i: int) -> bool:
        if i == len(expected):
            return True
        for j, a in enumerate(actual):
            if not used[j] and match(expected[i], a):
                used[j] = True
                if assign(i + 1):
                    return True
                used[j] = False
        return False

    return assign(0)


def event_matches(kind: str, fields: dict[str, Any], entry: TraceEntry) -> bool:
    return entry.kind == kind and all(k in entry.args and same(v, entry.args[k]) for k, v in fields.items())


def moment_matches(expected: list[tuple[str, dict[str, Any]]], actual: list[TraceEntry]) -> bool:
    """Same events as sets: a one-to-one pairing, each pair matching on the fields written."""
    if len(expected) != len(actual):
        return False
    return _search(expected, actual, lambda e, a: event_matches(e[0], e[1], a), [False] * len(actual))
