"""Expectations against a reply: moments, absences, rejections, winner, state after decision N, final
state. First divergence and coverage.

- An expected moment matches an actual moment when both hold the same events as sets (``contains``: the
  actual moment holds at least these), each event compared on the fields the case wrote. Expected items
  must appear in order (moments as a subsequence of the actual moments, an unordered group's moments in
  any order between its neighbours, an absence: none of its events between its neighbours), or be the
  whole trace with ``exact: true``. ``expect.absent``: none of these events anywhere.
- Every refused decision must be expected (``rejected: {at, reason}``), and nothing may happen between
  a refusal and the next decision (the state is left as it was).
- ``asserted`` coverage: the clauses of the trace entries an expectation matched (an absence matches
  nothing, so it credits nothing).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable

from ..core.moments import (
    AbsentItem,
    Item,
    MomentItem,
    Placement,
    UnorderedItem,
    any_event,
    event_matches,
    match_items,
    moment_matches,
    moments,
    same,
)
from .. import registry
from ..loader import resolve_primary
from ..model import AbsentEvents, Case, CaseReply, Divergence, ExpectedEvent, ExpectedMoment, TraceEntry

DECISION_KINDS = ("decided", "rejected")


def _j(value: Any) -> str:
    """A value as JSON (what engine authors send and see), not as a Python repr."""
    return json.dumps(value, ensure_ascii=False, default=str)
CONTEXT = 3


@dataclass
class Verdict:
    status: str
    divergence: Divergence | None = None
    asserted: list[str] = field(default_factory=list)
    executed: list[str] = field(default_factory=list)


def _show(entries: list[TraceEntry]) -> list[dict[str, Any]]:
    return [{e.kind: e.args} for e in entries]


def _context(trace: list[TraceEntry], around: int | None) -> list[TraceEntry]:
    """Entries of the moments around moment number ``around`` (the whole short trace if None)."""
    if around is None:
        return trace[-2 * CONTEXT:]
    return [e for e in trace if abs(e.moment - around) <= CONTEXT]


def vocabulary_problems(reply: CaseReply, game: str) -> str | None:
    """The event vocabulary is closed: an event kind or field the game does not define is a broken reply
    (a misspelt kind would otherwise pass unseen in a moment no case asserts)."""
    events = registry.get(game).vocabulary.events
    for e in reply.trace:
        spec = events.get(e.kind)
        if spec is None:
            return (f"the reply's trace has an event {_j(e.kind)} (moment {e.moment}) that is not in the {game} "
                    f"vocabulary; the events are listed in the README's {game} vocabulary")
        extra = sorted(set(e.args) - set(spec.fields))
        if extra:
            return (f"the reply's event {_j(e.kind)} (moment {e.moment}) has field(s) {_j(extra)} it does not "
                    f"define; its fields are {_j(list(spec.fields))}")
    return None


def compare(case: Case, reply: CaseReply) -> Verdict:
    trace = list(reply.trace)
    executed = list(dict.fromkeys(e.clause for e in trace if e.clause))
    asserted: list[str] = []
    divergence = (
        _check_rejections(case, trace, asserted)
        or _check_events(case, trace, asserted)
        or _check_absent(case, trace)
        or _check_after(case, reply, trace, asserted)
        or _check_winner(case, reply, trace, asserted)
        or _check_final(case, reply, trace, asserted)
    )
    return Verdict("fail" if divergence else "pass", divergence, list(dict.fromkeys(asserted)), executed)


def _credit(asserted: list[str], entries: Iterable[TraceEntry]) -> None:
    asserted.extend(e.clause for e in entries if e.clause)


def _check_rejections(case: Case, trace: list[TraceEntry], asserted: list[str]) -> Divergence | None:
    expected = {r.at: r.reason for r in case.expect.rejected}
    seen: set[int] = set()
    for i, e in enumerate(trace):
        if e.kind != "rejected":
            continue
        at = e.args.get("at")
        if not isinstance(at, int) or isinstance(at, bool):  # a broken reply: fail the case, never crash
            return Divergence(what="rejection", expected="a refusal naming its decision (at: N)",
                              actual=e.args, context=_context(trace, e.moment),
                              message=f"a refusal names no decision index: \"at\" is {_j(at)}")
        seen.add(at)
        if at not in expected:
            return Divergence(what="rejection", index=at, expected=f"decision {at} accepted",
                              actual=e.args, context=_context(trace, e.moment),
                              message=f"decision {at} ({_decision(case, at)}) was refused with "
                                      f"{_j(e.args.get('reason'))}, but the case expects it to be accepted")
        if e.args.get("reason") != expected[at]:
            return Divergence(what="rejection", index=at, expected={"at": at, "reason": expected[at]},
                              actual=e.args, context=_context(trace, e.moment),
                              message=f"decision {at} was refused with reason {_j(e.args.get('reason'))}, "
                                      f"expected {_j(expected[at])}")
        after = trace[i + 1] if i + 1 < len(trace) else None
        if after is not None and after.kind not in DECISION_KINDS:
            return Divergence(what="rejection", index=at, expected="no change after a refused decision",
                              actual=_show([after]), context=_context(trace, e.moment),
                              message=f"decision {at} was refused, but the state changed before the next "
                                      f"decision: {after.kind} {after.args}")
        asserted.append(e.clause) if e.clause else None
    for at, reason in expected.items():
        if at not in seen:
            accepted = next((e for e in trace if e.kind == "decided" and e.args.get("at") == at), None)
            return Divergence(what="rejection", index=at, expected={"at": at, "reason": reason},
                              actual=accepted.args if accepted else "decision never reached",
                              context=_context(trace, accepted.moment if accepted else None),
                              message=f"decision {at} ({_decision(case, at)}) should be refused with "
                                      f"{_j(reason)}, but it was " + ("accepted" if accepted else "never reached"))
    return None


def _decision(case: Case, at: int) -> str:
    if 0 <= at < len(case.script):
        d = case.script[at]
        return f"{d.player}: {d.kind} {d.args if d.args is not None else ''}".strip()
    return "?"


def _check_events(case: Case, trace: list[TraceEntry], asserted: list[str]) -> Divergence | None:
    if not case.expect.events:
        return None
    if case.expect.exact:  # the loader allows only plain moments with exact: true
        actual = moments(trace)
        expected = [_patterns(m.events, case.game) for m in case.expect.events if isinstance(m, ExpectedMoment)]
        for i, (exp, act) in enumerate(zip(expected, actual)):
            if not moment_matches(exp, act):
                return Divergence(what="exact", index=i, expected=_pattern(exp), actual=_show(act),
                                  context=_context(trace, act[0].moment),
                                  message=f"moment {i} differs (exact trace expected)")
            _credit(asserted, act)
        if len(expected) != len(actual):
            extra = actual[len(expected):] if len(actual) > len(expected) else []
            return Divergence(what="exact", index=min(len(expected), len(actual)),
                              expected=[_pattern(e) for e in expected[len(actual):]],
                              actual=[_show(m) for m in extra],
                              context=_context(trace, extra[0][0].moment if extra else None),
                              message=f"the trace has {len(actual)} moments, the case expects exactly {len(expected)}")
        return None
    return _check_items(case, trace, asserted)


# level: trace -- moments in order (contains, absences between moments and unordered groups included)
def _check_items(case: Case, trace: list[TraceEntry], asserted: list[str]) -> Divergence | None:
    actual = moments(trace)
    items = expected_items(case)
    found = match_items(items, actual)
    if isinstance(found, Placement):
        for entries in found.entries:
            _credit(asserted, entries)
        return None
    item = items[found.index]
    where = f" after moment {actual[found.after - 1][0].moment}" if found.after else ""
    if found.why == "present":
        hit = found.entry
        return Divergence(what="absent", index=found.index, expected={"absent": _pattern(item.events)},
                          actual=_show([hit]), context=_context(trace, hit.moment),
                          message=f"expected item {found.index} says {_j(_pattern(item.events))} does not happen "
                                  f"between its neighbours, but moment {hit.moment} has {_j(_show([hit])[0])}")
    if isinstance(item, UnorderedItem):
        member = item.moments[found.member] if found.member is not None else None
        exp = member.events if member else [ev for m in item.moments for ev in m.events]
        near = _nearest(exp, actual[found.after:])
        what = (f"moment {found.member} of the unordered group {found.index} {_j(_pattern(exp))} was not found"
                if member else f"the unordered group {found.index} found no distinct moment for each member")
        return Divergence(what="moment", index=found.index,
                          expected={"unordered": [_pattern(m.events) for m in item.moments]},
                          actual=_show(near) if near else None, context=_context(trace, near[0].moment if near else None),
                          message=what + where + (f"; nearest: {_j(_show(near))}" if near else "; the trace ended"))
    exp = item.events
    near = _nearest(exp, actual[found.after:])
    label = "expected moment" + (" (contains)" if item.contains else "")
    return Divergence(
        what="moment", index=found.index, expected=_pattern(exp), actual=_show(near) if near else None,
        context=_context(trace, near[0].moment if near else None),
        message=f"{label} {found.index} {_j(_pattern(exp))} was not found" + where
                + (f"; nearest: {_j(_show(near))}" if near else "; the trace ended"))


def _patterns(events: list[ExpectedEvent], game: str) -> list[tuple[str, dict[str, Any]]]:
    return [(ev.kind, resolve_primary(ev.kind, ev.fields, game)) for ev in events]


def _moment_item(m: ExpectedMoment, game: str) -> MomentItem:
    return MomentItem(_patterns(m.events, game), m.contains)


def expected_items(case: Case) -> list[Item]:
    """``expect.events`` as the items :func:`oracle.core.moments.match_items` places."""
    out: list[Item] = []
    for it in case.expect.events:
        if isinstance(it, ExpectedMoment):
            out.append(_moment_item(it, case.game))
        elif isinstance(it, AbsentEvents):
            out.append(AbsentItem(_patterns(it.absent, case.game)))
        else:
            out.append(UnorderedItem([_moment_item(m, case.game) for m in it.unordered]))
    return out


# level: steps -- needs only the events that happened, not their moments or order; credits nothing
def _check_absent(case: Case, trace: list[TraceEntry]) -> Divergence | None:
    if not case.expect.absent:
        return None
    patterns = _patterns(case.expect.absent, case.game)
    hit = any_event(patterns, trace)
    if hit is None:
        return None
    return Divergence(what="absent", expected={"absent": _pattern(patterns)}, actual=_show([hit]),
                      context=_context(trace, hit.moment),
                      message=f"the case expects no {_j(_pattern(patterns))} anywhere, but moment {hit.moment} "
                              f"has {_j(_show([hit])[0])}")


def _pattern(exp: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    return [{k: f} for k, f in exp]


def _nearest(exp: list[tuple[str, dict[str, Any]]], candidates: list[list[TraceEntry]]) -> list[TraceEntry] | None:
    """The actual moment sharing the most matching events with the expected one."""
    best, score = None, 0
    for m in candidates:
        s = sum(1 for kind, f in exp if any(event_matches(kind, f, e) for e in m))
        s += sum(0.1 for kind, _ in exp if any(e.kind == kind for e in m))
        if s > score:
            best, score = m, s
    return best


def _check_winner(case: Case, reply: CaseReply, trace: list[TraceEntry], asserted: list[str]) -> Divergence | None:
    if not case.expect.asserts_winner:
        return None
    if reply.winner != case.expect.winner:
        return Divergence(what="winner", expected=case.expect.winner, actual=reply.winner,
                          context=_context(trace, None),
                          message=f"winner is {_j(reply.winner)}, expected {_j(case.expect.winner)}")
    # "nobody won" matches no trace entry, so it credits no clause (only the win event does)
    _credit(asserted, [e for e in trace if e.kind == "won"])
    return None


def _check_final(case: Case, reply: CaseReply, trace: list[TraceEntry], asserted: list[str]) -> Divergence | None:
    return _check_state(case, case.expect.final, reply.final or {}, trace, asserted, "final", "final")


# level: checkpoints -- the state after each decision (``reply.checkpoints``)
def _check_after(case: Case, reply: CaseReply, trace: list[TraceEntry], asserted: list[str]) -> Divergence | None:
    if not case.expect.after:
        return None
    states = {c.get("after"): c.get("state") for c in (getattr(reply, "checkpoints", None) or [])
              if isinstance(c, dict)}
    for check in case.expect.after:
        n = check.decision
        label = f"after decision {n}"
        if not isinstance(states.get(n), dict):
            return Divergence(what="after", index=n, expected={"after": n, "state": check.state}, actual=None,
                              context=_context(trace, None),
                              message=f"the reply has no state after decision {n} ({_decision(case, n)})")
        upto = _until_decision(trace, n + 1)
        div = _check_state(case, check.state, states[n], upto, asserted, "after", f"{label}:")
        if div is not None:
            return div.model_copy(update={"index": n})
    return None


def _until_decision(trace: list[TraceEntry], at: int) -> list[TraceEntry]:
    """The trace before decision ``at`` was taken (all of it when there is none)."""
    for i, e in enumerate(trace):
        if e.kind in DECISION_KINDS and e.args.get("at") == at:
            return trace[:i]
    return trace


def _check_state(case: Case, expected: dict[str, Any] | None, actual: dict[str, Any], trace: list[TraceEntry],
                 asserted: list[str], what: str, label: str) -> Divergence | None:
    """A projection of a state (``final``, or ``after`` decision N) against the engine's state."""
    if not expected:
        return None
    voc = registry.get(case.game).vocabulary
    for pid, fields in (expected.get("players") or {}).items():
        have = _part(_part(actual.get("players")).get(pid))
        for f, want in (fields or {}).items():
            got = have.get(f)
            counted = isinstance(want, int) and not isinstance(want, bool) and isinstance(got, list)
            ok = len(got) == want if counted else _same_zone(want, got)
            if not ok:
                return Divergence(what=what, expected={"players": {pid: {f: want}}},
                                  actual={"players": {pid: {f: got}}}, context=_context(trace, None),
                                  message=f"{label} players.{pid}.{f} is {_j(got)}, expected {_j(want)}")
            _credit(asserted, _last_change_of_player(trace, voc, pid, f, want))
    for cid, fields in (expected.get("cards") or {}).items():
        have = _part(actual.get("cards")).get(cid)
        if not isinstance(have, dict):
            return Divergence(what=what, expected={"cards": {cid: fields}}, actual=None,
                              context=_context(trace, None), message=f"{label} state has no card {_j(cid)}")
        for f, want in (fields or {}).items():
            if not same(want, have.get(f)):
                return Divergence(what=what, expected={"cards": {cid: {f: want}}},
                                  actual={"cards": {cid: {f: have.get(f)}}}, context=_context(trace, None),
                                  message=f"{label} cards.{cid}.{f} is {_j(have.get(f))}, expected {_j(want)}")
            _credit(asserted, _last_change_of_card(trace, voc, cid, f))
    return None


def _part(value: Any) -> dict[str, Any]:
    """A mapping of the reply's final state; anything else (a broken reply) holds nothing."""
    return value if isinstance(value, dict) else {}


def _same_zone(want: Any, got: Any) -> bool:
    if isinstance(want, list) and isinstance(got, list):
        return sorted(map(str, want)) == sorted(map(str, got))
    return same(want, got)


def _mentions(entry: TraceEntry, cid: str) -> bool:
    for v in entry.args.values():
        if v == cid or (isinstance(v, (list, tuple)) and cid in v):
            return True
    return False


def _last_change_of_card(trace: list[TraceEntry], voc: Any, cid: str, field_: str) -> list[TraceEntry]:
    """The last event that changed this field of this card (what a final-state field asserts)."""
    kinds = voc.events_changing(field_)
    hit = [e for e in trace if e.kind in kinds and _mentions(e, cid)]
    return hit[-1:]


def _last_change_of_player(trace: list[TraceEntry], voc: Any, pid: str, field_: str, want: Any) -> list[TraceEntry]:
    """A zone given as card ids: the last move of each card; a zone count: the last move into or out of
    that zone of the player (or draw, for hand and deck); another field: its declared events."""
    if isinstance(want, list):
        out: list[TraceEntry] = []
        for cid in want:
            out.extend(_last_change_of_card(trace, voc, cid, "zone"))
        return out

    def changes(e: TraceEntry) -> bool:
        if e.args.get("player") != pid:
            return False
        if e.kind == "moved":
            return field_ in (e.args.get("to"), e.args.get("from"))
        if e.kind == "drew":
            return field_ in ("hand", "deck")
        return e.kind in voc.events_changing(field_)

    hit = [e for e in trace if changes(e)]
    return hit[-1:]
