"""Moments and how an expected event or moment matches an actual one. Shared by the comparison
(``oracle.harness.compare``) and the report (``oracle.reports``).

An expected moment matches an actual moment when both hold the same events as sets (``contains``: the
actual moment holds at least the expected events), each event compared on the fields the case wrote
(lists as multisets, booleans never equal to numbers).

The items of ``expect.events`` -- moments, absences, unordered groups -- are matched against the actual
moments by :func:`match_items`: an ordered search for one placement of every item that satisfies them all
(observation level ``trace``: it needs moments in order).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Union

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


Pattern = tuple[str, dict[str, Any]]
"""An expected event: its kind and the fields the case wrote (short forms resolved)."""


def moment_matches(expected: list[Pattern], actual: list[TraceEntry], contains: bool = False) -> bool:
    """Same events as sets: a one-to-one pairing, each pair matching on the fields written
    (``contains``: every expected event paired with its own actual event; others may be there too)."""
    return pairing(expected, actual, contains) is not None


def pairing(expected: list[Pattern], actual: list[TraceEntry], contains: bool = False) -> list[int] | None:
    """The indices of the actual entries the expected events pair with, or None when the moment does not
    match."""
    if len(expected) > len(actual) or (not contains and len(expected) != len(actual)):
        return None
    kinds = {a.kind for a in actual}
    for kind, _ in expected:  # most moments differ in their kinds: said before any search
        if kind not in kinds:
            return None
    used = [False] * len(actual)
    if not _search(expected, actual, lambda e, a: event_matches(e[0], e[1], a), used):
        return None
    return [j for j, u in enumerate(used) if u]


def any_event(patterns: list[Pattern], entries: Iterable[TraceEntry]) -> TraceEntry | None:
    """The first entry matching one of the patterns (what an absence forbids)."""
    return next((e for e in entries if any(event_matches(k, f, e) for k, f in patterns)), None)


# --------------------------------------------------------------------------------------------
# The items of expect.events


@dataclass(frozen=True)
class MomentItem:
    events: list[Pattern]
    contains: bool = False


@dataclass(frozen=True)
class AbsentItem:
    events: list[Pattern]


@dataclass(frozen=True)
class UnorderedItem:
    moments: list[MomentItem]


Item = Union[MomentItem, AbsentItem, UnorderedItem]


@dataclass
class Placement:
    """Where every item matched: per item the actual moment indices (a moment: one; a group: one per
    member, in the members' order; an absence: none) and the entries its expectations paired with."""

    moments: list[list[int]]
    entries: list[list[TraceEntry]]


@dataclass
class Miss:
    """Why no placement exists, at the furthest item the search reached: ``missing`` (item ``index``, or
    its ``member``, has no match at or after actual moment ``after``) or ``present`` (the absence at
    ``index`` is broken by ``entry``)."""

    index: int
    why: str
    after: int = 0
    member: int | None = None
    entry: TraceEntry | None = None


@dataclass
class _Search:
    items: list[Item]
    actual: list[list[TraceEntry]]
    miss: Miss | None = None
    failed: set[tuple[int, int]] = field(default_factory=set)

    def note(self, miss: Miss) -> None:
        if self.miss is None or miss.index > self.miss.index:
            self.miss = miss

    def hits(self, m: MomentItem, start: int) -> list[tuple[int, list[int]]]:
        out = []
        for j in range(start, len(self.actual)):
            p = pairing(m.events, self.actual[j], m.contains)
            if p is not None:
                out.append((j, p))
        return out

    def absence_broken(self, i: int, since: int, until: int) -> bool:
        """Whether the absence just before item ``i`` is broken in actual moments [since, until)."""
        if i == 0 or not isinstance(self.items[i - 1], AbsentItem):
            return False
        for m in self.actual[since:until]:
            hit = any_event(self.items[i - 1].events, m)
            if hit is not None:
                self.note(Miss(i - 1, "present", entry=hit))
                return True
        return False

    def run(self, i: int, pos: int) -> Placement | None:
        if i == len(self.items):
            return None if self.absence_broken(i, pos, len(self.actual)) else Placement([], [])
        if (i, pos) in self.failed:  # the absence before item i (if any) covers from pos: (i, pos) is the state
            return None
        item = self.items[i]
        found = None
        if isinstance(item, AbsentItem):
            found = self._after(self.run(i + 1, pos), [], [])
        elif isinstance(item, MomentItem):
            found = self._moment(i, item, pos)
        else:
            found = self._group(i, item, pos)
        if found is None:
            self.failed.add((i, pos))
        return found

    def _moment(self, i: int, item: MomentItem, pos: int) -> Placement | None:
        hits = self.hits(item, pos)
        if not hits:
            self.note(Miss(i, "missing", after=pos))
        for j, p in hits:
            if self.absence_broken(i, pos, j):
                return None  # a later placement only widens the window the absence covers
            rest = self._after(self.run(i + 1, j + 1), [j], [self.actual[j][k] for k in p])
            if rest is not None:
                return rest
        return None

    def _group(self, i: int, item: UnorderedItem, pos: int) -> Placement | None:
        options = [self.hits(m, pos) for m in item.moments]
        for k, o in enumerate(options):
            if not o:
                self.note(Miss(i, "missing", after=pos, member=k))
                return None
        chosen: list[tuple[int, list[int]]] = []

        def assign(k: int) -> Placement | None:
            if k == len(options):
                where = [j for j, _ in chosen]
                if self.absence_broken(i, pos, min(where)):
                    return None
                entries = [self.actual[j][x] for j, p in chosen for x in p]
                return self._after(self.run(i + 1, max(where) + 1), where, entries)
            for j, p in options[k]:
                if all(j != c for c, _ in chosen):
                    chosen.append((j, p))
                    found = assign(k + 1)
                    chosen.pop()
                    if found is not None:
                        return found
            return None

        found = assign(0)
        if found is None:
            self.note(Miss(i, "missing", after=pos))  # no placement of the members at distinct moments
        return found

    @staticmethod
    def _after(rest: Placement | None, where: list[int], entries: list[TraceEntry]) -> Placement | None:
        if rest is None:
            return None
        return Placement([where, *rest.moments], [entries, *rest.entries])


def match_items(items: list[Item], actual: list[list[TraceEntry]]) -> Placement | Miss:
    """One placement of the expected items in the actual moments, in order: a moment at a later actual
    moment than the item before it; an unordered group's members at distinct moments, in any order, all
    after the item before and before the item after; an absence: none of its events in the actual moments
    strictly between its neighbours' moments. Without a placement: the :class:`Miss` furthest along."""
    search = _Search(items, actual)
    found = search.run(0, 0)
    if found is not None:
        return found
    return search.miss or Miss(0, "missing")
