"""Expected and actual traces side by side: which actual moment each expected moment matched, and
where the first divergence is.

Matching is the comparison's own (:mod:`oracle.core.moments`): an expected moment matches an actual
moment holding the same events as sets (or at least them, ``contains``), compared on the fields written,
in order (the placement :func:`~oracle.core.moments.match_items` finds for moments, unordered groups and
absences, or the whole trace with ``exact``).
"""

from __future__ import annotations

from functools import cache
from typing import Any, Iterable, Mapping, NamedTuple

from oracle.core.moments import (
    AbsentItem,
    Item,
    Miss,
    MomentItem,
    Placement,
    UnorderedItem,
    match_items,
    moment_matches,
    moments,
)
from oracle.model import TraceEntry


@cache
def _primary_fields(game: str) -> dict[str, str]:
    try:
        from oracle import registry

        return {k: s.primary for k, s in registry.get(game).vocabulary.events.items() if s.primary}
    except Exception:  # an unknown game still renders: fall back to the common primary fields
        return {}


def _resolve(kind: str, fields: Mapping[str, Any], game: str) -> dict[str, Any]:
    if "_primary" not in fields:
        return dict(fields)
    out = {k: v for k, v in fields.items() if k != "_primary"}
    primary = _primary_fields(game).get(kind) or ("player" if kind in ("won", "lost", "drew") else "card")
    out[primary] = fields["_primary"]
    return out


def _event(raw: Any) -> tuple[str, dict[str, Any]] | None:
    """An expected event in dumped (``{kind, fields}``) or short (``{kind: value}``) form."""
    if isinstance(raw, str):
        return raw, {}
    if not isinstance(raw, dict):
        return None
    if "kind" in raw:
        return str(raw["kind"]), dict(raw.get("fields") or {})
    if len(raw) == 1:
        (kind, body), = raw.items()
        return str(kind), dict(body) if isinstance(body, dict) else {"_primary": body}
    return None


class Shown(NamedTuple):
    """One expected moment as the report shows it: its events, a note for what is not a plain moment
    (``contains``, a member of an unordered group, an absence), and the item of ``expect.events`` it
    belongs to (with its member for a group)."""

    events: list[tuple[str, dict[str, Any]]]
    note: str
    item: int
    member: int | None = None


def _moment(raw: Any, game: str) -> tuple[list[tuple[str, dict[str, Any]]], bool]:
    """A dumped (``{events, match}``) or short moment: its events and whether it is matched by contains."""
    contains = False
    if isinstance(raw, dict) and "events" in raw:
        contains, raw = raw.get("match") == "contains", raw.get("events")
    elif isinstance(raw, dict) and set(raw) == {"contains"}:
        contains, raw = True, raw["contains"]
    elif not isinstance(raw, list):
        raw = [raw]
    events = [e for e in (_event(r) for r in raw or []) if e is not None]
    return [(k, _resolve(k, f, game)) for k, f in events], contains


def expected_shown(case: Mapping[str, Any] | None) -> list[Shown]:
    """``expect.events`` of a dumped case as the moments the report shows, short forms resolved: each
    moment, each member of an unordered group, each absence."""
    if not case:
        return []
    game = str(case.get("game", ""))
    out: list[Shown] = []
    for i, m in enumerate((case.get("expect") or {}).get("events") or []):
        if isinstance(m, dict) and set(m) == {"absent"}:
            events = [e for e in (_event(r) for r in m["absent"] or []) if e is not None]
            out.append(Shown([(k, _resolve(k, f, game)) for k, f in events], "absent: must not happen here", i))
        elif isinstance(m, dict) and set(m) == {"unordered"}:
            members = m["unordered"] or []
            for k, member in enumerate(members):
                events, contains = _moment(member, game)
                out.append(Shown(events, f"unordered group {i}, {k + 1} of {len(members)}"
                                         + (", contains" if contains else ""), i, k))
        else:
            events, contains = _moment(m, game)
            out.append(Shown(events, "contains" if contains else "", i))
    return out


def expected_moments(case: Mapping[str, Any] | None) -> list[list[tuple[str, dict[str, Any]]]]:
    """``expect.events`` of a dumped case as moments of (kind, fields), short forms resolved (see
    :func:`expected_shown`)."""
    return [s.events for s in expected_shown(case)]


def _items(shown: list[Shown]) -> list[Item]:
    items: list[Item] = []
    for s in shown:
        if s.note.startswith("absent"):
            items.append(AbsentItem(s.events))
        elif s.member is not None:
            member = MomentItem(s.events, s.note.endswith("contains"))
            if s.member == 0:
                items.append(UnorderedItem([member]))
            else:
                items[-1].moments.append(member)  # type: ignore[union-attr]
        else:
            items.append(MomentItem(s.events, s.note == "contains"))
    return items


def as_entries(trace: Iterable[Any] | None) -> list[TraceEntry]:
    out = []
    for e in trace or []:
        if isinstance(e, TraceEntry):
            out.append(e)
        elif isinstance(e, dict):
            out.append(TraceEntry.model_construct(moment=e.get("moment", 0), kind=e.get("kind", "?"),
                                                  args=e.get("args") or {}, clause=e.get("clause")))
    return out


def align(case: Mapping[str, Any] | None, trace: Iterable[Any] | None,
          divergence: Mapping[str, Any] | None = None,
          expected: list[list[tuple[str, dict[str, Any]]]] | None = None,
          shown: list[Shown] | None = None) -> dict[str, Any]:
    """``{"match": [actual moment index or -1 per expected moment], "near": index or -1,
    "first": expected index that diverged or -1, "rejected": {actual index: at}}``.

    Moment indices count the actual trace's moments from 0. ``near`` is the actual moment the
    divergence is shown against (the nearest one for a missing moment, the differing one in an exact
    trace, the refused decision for a rejection)."""
    if shown is None:  # the caller may pass expected_shown(case), computed once per case
        shown = expected_shown(case)
    if expected is None:
        expected = [s.events for s in shown]
    actual = moments(as_entries(trace))
    exact = bool(((case or {}).get("expect") or {}).get("exact"))
    match: list[int] = []
    first = near = -1
    if exact:
        for i, exp in enumerate(expected):
            if i < len(actual) and moment_matches(exp, actual[i]):
                match.append(i)
            else:
                match.append(-1)
                if first < 0:
                    first, near = i, (i if i < len(actual) else -1)
    else:
        match, first, near = _placed(shown, actual)
    rejected = {}
    for j, m in enumerate(actual):
        for e in m:
            if e.kind == "rejected":
                rejected[j] = e.args.get("at")
    if divergence and divergence.get("what") == "rejection":
        at = divergence.get("index")
        near = next((j for j, a in rejected.items() if a == at), near)
    elif divergence and divergence.get("what") in ("winner", "final") and near < 0 and actual:
        near = len(actual) - 1
    return {"match": match, "first": first, "near": near, "rejected": rejected}


def _placed(shown: list[Shown], actual: list[list[TraceEntry]]) -> tuple[list[int], int, int]:
    """Each shown moment's actual moment (-1: none; an absence always -1), as the comparison places them
    (:func:`oracle.core.moments.match_items`); the first shown moment that diverged and its nearest."""
    items = _items(shown)
    found = _match(items, actual)
    first = near = -1
    if isinstance(found, Miss):
        upto = found.index
        head = upto - 1 if upto and isinstance(items[upto - 1], AbsentItem) else upto  # an absence before the
        prefix = _match(items[:head], actual) if head else Placement([], [])   # miss has no right neighbour
        placed = prefix.moments if isinstance(prefix, Placement) else [[] for _ in range(head)]
        placed = placed + [[] for _ in range(upto - head)]
        placed = placed + [[] for _ in range(len(items) - upto)]
        owner = [n for n, s in enumerate(shown) if _item_index(shown, n) == upto]
        member = found.member if found.member is not None else 0
        first = owner[min(member, len(owner) - 1)] if owner else -1
        if found.why == "present" and found.entry is not None:
            near = next((j for j, m in enumerate(actual) if found.entry in m), -1)
        elif first >= 0:
            near = _nearest(shown[first].events, actual, found.after)
    else:
        placed = found.moments
    match: list[int] = []
    for n, s in enumerate(shown):
        where = placed[_item_index(shown, n)]
        k = s.member or 0
        match.append(where[k] if k < len(where) else -1)
    return match, first, near


def _match(items: list[Item], actual: list[list[TraceEntry]]) -> Placement | Miss:
    """:func:`~oracle.core.moments.match_items`, shortened where every item is a plain moment (most cases):
    each at the first actual moment after the one before that matches. That is the placement the search
    finds (its first choice; a later one only leaves fewer moments to the rest) and, without one, its miss
    (the first item with no match after its predecessor's). The entries paired are not kept (not shown)."""
    if not all(isinstance(item, MomentItem) for item in items):
        return match_items(items, actual)
    placed: list[list[int]] = []
    pos = 0
    for i, item in enumerate(items):
        j = next((j for j in range(pos, len(actual)) if moment_matches(item.events, actual[j], item.contains)), None)
        if j is None:
            return Miss(i, "missing", after=pos)
        placed.append([j])
        pos = j + 1
    return Placement(placed, [[] for _ in placed])


def _item_index(shown: list[Shown], n: int) -> int:
    """The position among the matcher's items of the item shown moment ``n`` belongs to."""
    return len({s.item for s in shown[:n + 1]}) - 1


def _nearest(exp: list[tuple[str, dict[str, Any]]], actual: list[list[TraceEntry]], start: int) -> int:
    """The actual moment after ``start`` that shares the most with the expected one (as compare does)."""
    from oracle.core.moments import event_matches

    best, score = -1, 0.0
    for j in range(start, len(actual)):
        m = actual[j]
        s = sum(1.0 for kind, f in exp if any(event_matches(kind, f, e) for e in m))
        s += sum(0.1 for kind, _ in exp if any(e.kind == kind for e in m))
        if s > score:
            best, score = j, s
    return best
