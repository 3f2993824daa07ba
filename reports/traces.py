"""Expected and actual traces side by side: which actual moment each expected moment matched, and
where the first divergence is.

Matching is the comparison's own (:mod:`oracle.core.moments`): an expected moment matches an actual
moment holding the same events as sets, compared on the fields written, in order (a subsequence, or
the whole trace with ``exact``).
"""

from __future__ import annotations

from functools import cache
from typing import Any, Iterable, Mapping

from oracle.core.moments import moment_matches, moments
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


def expected_moments(case: Mapping[str, Any] | None) -> list[list[tuple[str, dict[str, Any]]]]:
    """``expect.events`` of a dumped case as moments of (kind, fields), short forms resolved."""
    if not case:
        return []
    game = str(case.get("game", ""))
    out = []
    for m in (case.get("expect") or {}).get("events") or []:
        raw = m.get("events") if isinstance(m, dict) and "events" in m else (m if isinstance(m, list) else [m])
        events = [e for e in (_event(r) for r in raw) if e is not None]
        out.append([(k, _resolve(k, f, game)) for k, f in events])
    return out


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
          expected: list[list[tuple[str, dict[str, Any]]]] | None = None) -> dict[str, Any]:
    """``{"match": [actual moment index or -1 per expected moment], "near": index or -1,
    "first": expected index that diverged or -1, "rejected": {actual index: at}}``.

    Moment indices count the actual trace's moments from 0. ``near`` is the actual moment the
    divergence is shown against (the nearest one for a missing moment, the differing one in an exact
    trace, the refused decision for a rejection)."""
    if expected is None:
        expected = expected_moments(case)
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
        pos = 0
        kinds = [sorted(e.kind for e in m) for m in actual]
        for i, exp in enumerate(expected):
            want = sorted(k for k, _ in exp)  # a moment can only match one with the same kinds
            j = next((k for k in range(pos, len(actual)) if kinds[k] == want and moment_matches(exp, actual[k])),
                     None)
            if j is None:
                match.append(-1)
                if first < 0:
                    first, near = i, _nearest(exp, actual, pos)
                continue
            match.append(j)
            pos = j + 1
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
