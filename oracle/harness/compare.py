"""Expectations against a reply, each checked at the strongest observation level the engine offers.

Each expectation kind is one :class:`Check` of the table :data:`CHECKS`: the level it needs to be
checked at all, and a function that checks it against the reply's views (:mod:`oracle.harness.views`).
A check the engine's level cannot support is recorded in ``unchecked`` with the level it needs, never
failed; a check that runs partly (events at level ``steps``, a refusal without reason codes) records the
part it could not check. A case none of whose expectations could be checked is ``not_checkable``.

- Events (``steps``): at ``trace`` an expected moment matches an actual moment when both hold the same
  events as sets (``contains``: at least these), each event compared on the fields the case wrote;
  expected items appear in order (moments a subsequence of the actual moments, an unordered group's
  moments in any order between its neighbours, an absence: none of its events between its neighbours),
  or are the whole trace with ``exact: true`` (:func:`oracle.core.moments.match_items`). At ``steps`` each
  expected moment's events must all be among the events of one step, steps in order (moment grouping,
  order inside a step, ``exact``, unordered groups and absences between moments need ``trace``). An event kind the engine does not report (its
  hello's ``events``) is left out of the moment and recorded unchecked.
- Rejections (``final``): every refused decision must be expected (``rejected: {at, reason}``); its reason
  is checked when the engine has reason codes; that nothing changed between the refusal and the next
  decision needs the trace (or checkpoints: the one after the refusal equals the one before). An
  ``automatic`` entry counts as accepted; a refusal expected on an entry the engine took automatically or
  never asked is asked of the engine (capability ``legality``) or is not checkable.
- ``absent`` (``steps``): none of these events anywhere.
- ``after`` (``checkpoints``): the state after decision N, projected as ``final``.
- ``winner`` and ``final`` (``final``). A field, card or player the engine's state lacks fails the case ("is
  missing"), except with ``unshown`` (``tcg-oracle fuzz``): then it is not checkable (needs ``field:NAME``).
  A card's ``counters`` count a kind the engine leaves out as 0.
- ``order`` (``trace``, on every case): the procedure's ordering constraints (:mod:`oracle.smt.order`, plain
  Python); a trace that breaks one fails with the clauses it breaks.
- ``asserted`` coverage: the clauses of the trace entries an expectation matched (trace level only).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

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
from ..model import (
    AbsentEvents,
    Case,
    CaseReply,
    Divergence,
    ExpectedEvent,
    ExpectedMoment,
    Hello,
    LegalityReply,
    TraceEntry,
    Unchecked,
)
from .views import DECISION_KINDS, Observation, at_least, observe


def _j(value: Any) -> str:
    """A value as JSON (what engine authors send and see), not as a Python repr."""
    return json.dumps(value, ensure_ascii=False, default=str)


CONTEXT = 3
Ask = Callable[[int], LegalityReply]
"""A legality query: would the engine accept script entry N after entries 0..N-1?"""


@dataclass
class Comparison:
    """A reply compared with its case: the status, the first divergence, what was asserted and executed,
    what could not be checked at the engine's level."""

    status: str
    divergence: Divergence | None = None
    asserted: list[str] = field(default_factory=list)
    executed: list[str] = field(default_factory=list)
    unchecked: list[Unchecked] = field(default_factory=list)
    level: str = "trace"


@dataclass
class Ctx:
    """One comparison: the case, the reply's views, and what the checks found."""

    case: Case
    obs: Observation
    ask: Ask | None = None
    unshown: bool = False
    """A state field (or card, or player) the engine's state lacks is not checkable, not a divergence."""
    asserted: list[str] = field(default_factory=list)
    unchecked: list[Unchecked] = field(default_factory=list)
    checked: int = 0  # expectations of the case (or parts of them) that were checked

    @property
    def trace(self) -> list[TraceEntry]:
        return self.obs.trace or []

    def not_checkable(self, what: str, needs: str, why: str) -> None:
        self.unchecked.append(Unchecked(what=what, needs=needs, why=why))

    def not_shown(self, label: str, path: str) -> bool:
        """A state field, card or player the engine's state lacks (``label``: ``final`` or ``after decision
        N:``; ``path``: ``players.alice.life``, ``cards.x``): not checkable when :attr:`unshown`, else False
        (the caller reports the divergence). It needs ``field:NAME`` (or ``card``): the engine to show it."""
        if not self.unshown:
            return False
        parts = path.split(".")
        needs = f"field:{parts[2]}" if len(parts) == 3 else "card"
        where = label.rstrip(":")
        self.not_checkable(f"{where} {path}", needs, f"the engine's state {where.replace('final', 'at the end')} "
                                                     f"has no {path}")
        return True


@dataclass(frozen=True)
class Check:
    """One kind of expectation: the weakest level that can check it (at least partly), whether a case
    has it, and the check itself (a divergence or ``None``; it records what it checked and what not).
    ``reads`` names reply views beyond the trace it reads even at level ``trace`` (``checkpoints``), so
    that an in-process reference engine computes them only for cases that need them."""

    name: str
    needs: str
    applies: Callable[[Case], bool]
    run: Callable[[Ctx], Divergence | None]
    reads: tuple[str, ...] = ()
    implicit: bool = False
    """Not an expectation the case writes but an invariant of the procedure, checked on every reply whose
    level allows it; below that level it is silently not run (nothing to report as unchecked)."""


def compare(case: Case, reply: CaseReply, hello: Hello | None = None, ask: Ask | None = None, *,
            unshown: bool = False) -> Comparison:
    """Check every expectation of ``case`` that the engine's level allows (``hello`` None or protocol 1:
    level ``trace`` with reason codes); ``ask`` answers legality queries when the engine offers them.
    ``unshown``: a ``final`` / ``after`` field, card or player the engine's state does not have at all is
    recorded not checkable instead of failing (``tcg-oracle fuzz``, whose expectations are the reference's
    whole state, not fields a case chose to assert)."""
    obs = observe(reply, hello, case.game)
    ctx = Ctx(case, obs, ask, unshown)
    executed = list(dict.fromkeys(e.clause for e in ctx.trace if e.clause))
    divergence = None
    for check in CHECKS:
        if not check.applies(case):
            continue
        if not at_least(obs.level, check.needs):
            if check.implicit:
                continue
            ctx.not_checkable(check.name, check.needs, f"{check.name} needs level {check.needs}; the engine "
                                                       f"reports {obs.level}")
            continue
        divergence = check.run(ctx)
        if divergence is not None:
            divergence = _earlier_state(ctx, divergence)
            break
    if divergence is not None:
        status = "fail"
    elif ctx.checked == 0 and ctx.unchecked:
        status = "not_checkable"
    else:
        status = "pass"
    return Comparison(status, divergence, list(dict.fromkeys(ctx.asserted)), executed, ctx.unchecked, obs.level)


def _earlier_state(ctx: Ctx, div: Divergence) -> Divergence:
    """A decision that differs (decision M) is the first divergence unless the state after an earlier decision
    N < M already differed (``after``, level checkpoints): that one came first."""
    if div.what != "rejection" or div.index is None or not ctx.case.expect.after \
            or not at_least(ctx.obs.level, "checkpoints"):
        return div
    before = [a for a in ctx.case.expect.after if a.decision < div.index]
    if not before:
        return div
    probe = Ctx(ctx.case.model_copy(update={"expect": ctx.case.expect.model_copy(update={"after": before})}),
                ctx.obs, ctx.ask)
    earlier = check_after(probe)
    return earlier if earlier is not None else div


def reads(case: Case) -> set[str]:
    """The reply views beyond the trace that the case's checks read (see :attr:`Check.reads`)."""
    return {v for c in CHECKS if c.applies(case) for v in c.reads}


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
    seen = [(ev.kind, ev.args, f"step {step.after}") for step in reply.steps or [] for ev in step.events]
    seen += [(e.kind, e.args, f"moment {e.moment}") for e in reply.trace]
    for kind, args, where in seen:
        spec = events.get(kind)
        if spec is None:
            return (f"the reply has an event {_j(kind)} ({where}) that is not in the {game} vocabulary; the "
                    f"events are listed in the README's {game} vocabulary")
        extra = sorted(set(args) - set(spec.fields))
        if extra:
            return (f"the reply's event {_j(kind)} ({where}) has field(s) {_j(extra)} it does not define; its "
                    f"fields are {_j(list(spec.fields))}")
    return None


def _credit(asserted: list[str], entries: Iterable[TraceEntry]) -> None:
    asserted.extend(e.clause for e in entries if e.clause)


def _decision(case: Case, at: int) -> str:
    if 0 <= at < len(case.script):
        d = case.script[at]
        return f"{d.player}: {d.kind} {d.args if d.args is not None else ''}".strip()
    return "?"


def _entry_of(trace: list[TraceEntry], kind: str, at: int) -> tuple[int, TraceEntry] | None:
    return next(((i, e) for i, e in enumerate(trace) if e.kind == kind and e.args.get("at") == at), None)


# --------------------------------------------------------------------------------------------
# rejections (level final; the reason needs reason codes; "nothing changed" needs checkpoints or trace)


def check_rejections(ctx: Ctx) -> Divergence | None:
    case, obs, trace = ctx.case, ctx.obs, ctx.trace
    for e in trace:  # a broken reply: fail the case, never crash
        if e.kind == "rejected":
            at = e.args.get("at")
            if not isinstance(at, int) or isinstance(at, bool):
                return Divergence(what="rejection", expected="a refusal naming its decision (at: N)",
                                  actual=e.args, context=_context(trace, e.moment),
                                  message=f"a refusal names no decision index: \"at\" is {_j(at)}")
    expected = {r.at: (i, r.reason) for i, r in enumerate(case.expect.rejected)}
    if obs.decisions is None:
        for i in range(len(case.expect.rejected)):
            ctx.not_checkable(f"rejected[{i}]", "final", "the reply has no decisions (each script entry's outcome)")
        return None
    refused = {d.at: d for d in obs.decisions.values() if d.outcome == "refused"}
    in_events: dict[int, tuple[str, str | None]] = {}
    for label, at, reason in _rejections_in_events(case):
        if at not in expected:
            in_events.setdefault(at, (label, reason))
    # decision by decision, in script order: the first decision whose outcome differs from the case's is the
    # first divergence (an accepted decision the case expects refused comes before the refusals it caused)
    for at in sorted({*refused, *expected, *in_events}):
        d = refused.get(at)
        if d is not None:
            div = _check_refused(ctx, d, expected)
        elif at in expected:
            div = _check_expected_refusal(ctx, at, *expected[at])
        else:  # a refusal the case writes only among its events
            label, reason = in_events[at]
            outcome = obs.outcome(at)
            if outcome in ("automatic", "not_asked"):
                div = _ask_legality(ctx, label, at, reason, outcome)
            elif outcome == "accepted":
                ctx.checked += 1
                div = _accepted_not_refused(ctx, at, reason)
            else:
                div = None
        if div is not None:
            return div
    return None


def _check_refused(ctx: Ctx, d: Any, expected: dict[int, tuple[int, str]]) -> Divergence | None:
    """A decision the engine refused: the case must expect that refusal, with that reason (when the engine
    has reason codes), and the refusal must change nothing."""
    case, obs, trace = ctx.case, ctx.obs, ctx.trace
    at = d.at
    hit = _entry_of(trace, "rejected", at)
    here = _context(trace, hit[1].moment) if hit else []
    actual = hit[1].args if hit else d.model_dump(exclude_none=True)
    if at not in expected:
        return Divergence(what="rejection", index=at, expected=f"decision {at} accepted", actual=actual,
                          context=here, message=f"decision {at} ({_decision(case, at)}) was refused with "
                                                f"{_j(d.reason)}, but the case expects it to be accepted")
    i, reason = expected[at]
    ctx.checked += 1
    if not obs.reason_codes:
        ctx.not_checkable(f"rejected[{i}].reason", "reason_codes",
                          f"the engine refuses without the vocabulary's reason codes; decision {at} was "
                          f"checked as refused, not for reason {_j(reason)}")
    elif not _reason_ok(case.game, d.reason, reason):
        return Divergence(what="rejection", index=at, expected={"at": at, "reason": reason}, actual=actual,
                          context=here, message=f"decision {at} was refused with reason {_j(d.reason)}, "
                                                f"expected {_j(reason)}")
    div = _unchanged_after_refusal(ctx, i, at, hit)
    if div is not None:
        return div
    if hit and hit[1].clause:
        ctx.asserted.append(hit[1].clause)
    return None


def _check_expected_refusal(ctx: Ctx, at: int, i: int, reason: str) -> Divergence | None:
    """A refusal the case expects on a decision the engine did not refuse: accepted (a divergence), taken
    automatically or never asked (the legality query), or never reached."""
    outcome = ctx.obs.outcome(at)
    if outcome in ("automatic", "not_asked"):
        return _ask_legality(ctx, f"rejected[{i}]", at, reason, outcome)
    return _accepted_not_refused(ctx, at, reason)


def _accepted_not_refused(ctx: Ctx, at: int, reason: str | None) -> Divergence:
    case, obs, trace = ctx.case, ctx.obs, ctx.trace
    outcome = obs.outcome(at)
    accepted = _entry_of(trace, "decided", at)
    return Divergence(what="rejection", index=at, expected={"at": at, "reason": reason},
                      actual=accepted[1].args if accepted else outcome or "decision never reached",
                      context=_context(trace, accepted[1].moment if accepted else None),
                      message=f"decision {at} ({_decision(case, at)}) should be refused with "
                              f"{_j(reason)}, but it was " + ("accepted" if outcome else "never reached"))


def _unchanged_after_refusal(ctx: Ctx, i: int, at: int, hit: tuple[int, TraceEntry] | None) -> Divergence | None:
    """A refusal changes nothing: no event before the next decision (trace), or the checkpoint after the
    refused entry equals the one before it (checkpoints)."""
    trace, obs = ctx.trace, ctx.obs
    if at == len(ctx.case.script) - 1:
        # The script ends at the refusal. A case that plays on from there does so without a decision (Magic's
        # implied pass: an exhausted script passes while the stack is empty, cases/mtg/PROCEDURE.md), so what
        # follows is the game going on, not the refusal's doing; the refusal and its reason are still checked.
        return None
    if obs.trace is not None and hit is not None:
        n, e = hit
        after = trace[n + 1] if n + 1 < len(trace) else None
        if after is not None and after.kind not in DECISION_KINDS:
            return Divergence(what="rejection", index=at, expected="no change after a refused decision",
                              actual=_show([after]), context=_context(trace, e.moment),
                              message=f"decision {at} was refused, but the state changed before the next "
                                      f"decision: {after.kind} {after.args}")
        return None
    cps = obs.checkpoints
    if cps is not None and at in cps and at - 1 in cps:
        if cps[at] != cps[at - 1]:
            changed = _state_changes(cps[at - 1], cps[at])
            return Divergence(what="rejection", index=at, expected={"after": at - 1, "state": cps[at - 1]},
                              actual={"after": at, "state": cps[at]},
                              message=f"decision {at} was refused, but the state after it differs from the state "
                                      f"before it (checkpoints {at - 1} and {at}): "
                                      + "; ".join(changed[:5]) + (f"; and {len(changed) - 5} more" if len(changed) > 5
                                                                  else ""))
        return None
    if cps is None:
        needs, why = "checkpoints", "the engine reports no state after each decision"
    else:  # a checkpoints engine that left out one of the two states: say which, not "report a trace"
        missing = [str(n) for n in (at - 1, at) if n not in cps]
        needs = "checkpoints"
        why = (f"the reply has no checkpoint after: {', '.join(missing)} (the state "
               + ("before the first decision, after: -1, " if at == 0 else "")
               + "is what the refused decision must leave unchanged)")
    ctx.not_checkable(f"rejected[{i}].unchanged", needs, f"that nothing changed after refused decision {at}: {why}")
    return None


def _state_changes(before: Any, after: Any, path: str = "") -> list[str]:
    """Where two projected states differ, field by field (``players.bob.battle_declared: false -> true``)."""
    if isinstance(before, dict) and isinstance(after, dict):
        out: list[str] = []
        for k in list(before) + [k for k in after if k not in before]:
            if k not in after:
                out.append(f"{path}{k}: missing after")
            elif k not in before:
                out.append(f"{path}{k}: new after ({_j(after[k])})")
            else:
                out += _state_changes(before[k], after[k], f"{path}{k}.")
        return out
    return [] if same(before, after) and same(after, before) else [f"{path.rstrip('.')}: {_j(before)} -> {_j(after)}"]


def _rejections_in_events(case: Any) -> list[tuple[str, int, str | None]]:
    """The ``rejected`` events ``expect.events`` names (label, at, reason), in its moments and groups."""
    out = []
    for i, it in enumerate(case.expect.events):
        groups = [(f"events[{i}]", it)] if isinstance(it, ExpectedMoment) else [
            (f"events[{i}].unordered[{k}]", m) for k, m in enumerate(getattr(it, "unordered", None) or [])]
        for label, m in groups:
            for ev in m.events:
                if ev.kind == "rejected":
                    f = resolve_primary(ev.kind, ev.fields, case.game)
                    if isinstance(f.get("at"), int) and not isinstance(f.get("at"), bool):
                        out.append((f"{label}.rejected", f["at"], f.get("reason")))
    return out


def _reason_ok(game: str, actual: str | None, expected: str | None) -> bool:
    """The engine's refusal code is the expected one, or a code that refines it (``Vocabulary.refines``)."""
    return actual == expected or (expected is not None and
                                  registry.get(game).vocabulary.reason_satisfies(actual, expected))


def _ask_legality(ctx: Ctx, label: str, at: int, reason: str | None, outcome: str) -> Divergence | None:
    """A refusal expected (in ``expect.rejected``, or only among ``expect.events``: ``label``) on an entry the
    engine took itself (``automatic``) or never asked for (``not_asked``): asked of the engine when it offers
    ``legality``, else not checkable."""
    case, obs = ctx.case, ctx.obs
    took = "took decision {at} itself (automatic)" if outcome == "automatic" else "never asked for decision {at}"
    took = took.format(at=at)
    if not obs.legality or ctx.ask is None:
        ctx.not_checkable(label, "legality",
                          f"the engine {took}, so it could not refuse it; it offers no legality query")
        return None
    answer = ctx.ask(at)
    if answer.error:  # a broken answer is the engine's error, as a broken reply to a case is
        from ..errors import EngineError

        raise EngineError(f"the engine {took}; its answer to the legality query on decision {at} is broken: "
                          f"{answer.error}")
    ctx.checked += 1
    if answer.accepted:
        return Divergence(what="rejection", index=at, expected={"at": at, "reason": reason},
                          actual={"at": at, "accepted": True},
                          message=f"decision {at} ({_decision(case, at)}) should be refused with {_j(reason)}, but "
                                  f"the engine's legality query accepts it (the engine {took})")
    if reason is None:
        return None
    if not obs.reason_codes:
        ctx.not_checkable(f"{label}.reason", "reason_codes",
                          f"the engine refuses without the vocabulary's reason codes; decision {at} was checked "
                          f"as refused (legality query), not for reason {_j(reason)}")
    elif not _reason_ok(case.game, answer.reason, reason):
        return Divergence(what="rejection", index=at, expected={"at": at, "reason": reason},
                          actual={"at": at, "reason": answer.reason},
                          message=f"decision {at} would be refused with reason {_j(answer.reason)} (legality "
                                  f"query), expected {_j(reason)}")
    return None


# --------------------------------------------------------------------------------------------
# events (level steps: one step per expected moment; trace: moments)


Pattern = list[tuple[str, dict[str, Any]]]


def _filtered(ctx: Ctx, label: str, events: list[ExpectedEvent]) -> tuple[Pattern, list[str]]:
    """An expected moment's (or absence's) events as patterns; event kinds the engine does not report are
    left out (returned), and so is a refusal's reason without reason codes (recorded)."""
    case, obs = ctx.case, ctx.obs
    pats: Pattern = []
    dropped: list[str] = []
    for ev in events:
        fields = resolve_primary(ev.kind, ev.fields, case.game)
        if not obs.reports(ev.kind):
            dropped.append(ev.kind)
            continue
        if ev.kind in DECISION_KINDS and isinstance(fields.get("at"), int) and obs.outcome(fields["at"]) == "not_asked":
            how = ("the refusal itself was put to its legality query" if obs.legality and ev.kind == "rejected"
                   else "it offers no legality query to put the refusal to" if ev.kind == "rejected" else "")
            if any(u.what == f"{label}.{ev.kind}" for u in ctx.unchecked):
                continue                        # already noted where the legality query was (not) asked
            ctx.not_checkable(f"{label}.{ev.kind}", "legality",
                              f"the engine never asked for decision {fields.get('at')} (it took that decision "
                              f"itself), so its trace has no {ev.kind} event for it and the moment cannot be "
                              f"found" + (f"; {how}" if how else ""))
            continue
        if ev.kind == "rejected" and "reason" in fields and not obs.reason_codes:
            fields = {k: v for k, v in fields.items() if k != "reason"}
            ctx.not_checkable(f"{label}.reason", "reason_codes",
                              "the engine refuses without the vocabulary's reason codes")
        elif ev.kind == "rejected" and isinstance(fields.get("reason"), str):  # a narrower code matches too
            voc = registry.get(ctx.case.game).vocabulary
            if voc.refines:
                from ..core.vocabulary import RefusalCode

                fields = {**fields, "reason": RefusalCode(fields["reason"], voc.narrower(fields["reason"]))}
        pats.append((ev.kind, fields))
    return pats, dropped


def _note_dropped(ctx: Ctx, label: str, dropped: list[str], kept: bool, what: str = "moment") -> None:
    if dropped:
        kinds = ",".join(dict.fromkeys(dropped))
        ctx.not_checkable(label if not kept else f"{label}.{kinds}", f"events:{kinds}",
                          f"the engine does not report {kinds} events"
                          + (f"; the {what} was checked without them" if kept else ""))


def _moment(ctx: Ctx, label: str, m: ExpectedMoment) -> MomentItem | None:
    pats, dropped = _filtered(ctx, label, m.events)
    _note_dropped(ctx, label, dropped, bool(pats))
    return MomentItem(pats, m.contains) if pats else None


def _expected_items(ctx: Ctx) -> list[tuple[int, Item]]:
    """The items of ``expect.events`` as :mod:`oracle.core.moments` items, numbered as in the case, with
    what the engine does not report left out. An absence next to an item left out is left out too (its
    window would widen past what the case said)."""
    out: list[tuple[int, Item]] = []
    lost = False
    for i, it in enumerate(ctx.case.expect.events):
        label = f"events[{i}]"
        item: Item | None
        if isinstance(it, ExpectedMoment):
            item = _moment(ctx, label, it)
        elif isinstance(it, AbsentEvents):
            pats, dropped = _filtered(ctx, label, it.absent)
            _note_dropped(ctx, label, dropped, bool(pats), "absence")
            item = AbsentItem(pats) if pats else None
        else:
            members = [_moment(ctx, f"{label}.unordered[{k}]", m) for k, m in enumerate(it.unordered)]
            kept = [m for m in members if m is not None]
            item = UnorderedItem(kept) if kept else None
        if item is None:
            lost = True
        else:
            out.append((i, item))
    if lost and any(isinstance(it, AbsentItem) for _, it in out):
        for i, it in out:
            if isinstance(it, AbsentItem):
                ctx.not_checkable(f"events[{i}]", "events:all", "an absence between two expected items, one of "
                                                                "which names only events the engine does not report")
        out = [(i, it) for i, it in out if not isinstance(it, AbsentItem)]
    return out


def _expected_moments(ctx: Ctx, items: list[tuple[int, Item]]) -> list[tuple[int, Pattern]]:
    """The plain moments among the items (what ``exact`` and the ``steps`` level compare); groups and
    absences are recorded as needing the trace."""
    out = []
    for i, it in items:
        if isinstance(it, MomentItem):
            out.append((i, it.events))
        else:
            kind = "an absence between two moments" if isinstance(it, AbsentItem) else "an unordered group of moments"
            ctx.not_checkable(f"events[{i}]", "trace", f"{kind} needs the moments in order (level trace)")
    return out


def check_events(ctx: Ctx) -> Divergence | None:
    items = _expected_items(ctx)
    filtered = len(items) < len(ctx.case.expect.events) or any(u.needs.startswith("events:") for u in ctx.unchecked)
    if not items:
        return None
    if ctx.obs.trace is None:
        return _events_in_steps(ctx, _expected_moments(ctx, items))
    ctx.checked += 1
    if ctx.case.expect.exact and not filtered:  # the loader allows only plain moments with exact
        return _events_exact(ctx, [p for _, p in _expected_moments(ctx, items)])
    if ctx.case.expect.exact:
        ctx.not_checkable("exact", "events:all", "the whole trace is compared only when the engine reports "
                                                 "every event kind the case names")
    return _events_in_order(ctx, items)


def _events_exact(ctx: Ctx, expected: list[Pattern]) -> Divergence | None:
    trace = ctx.trace
    actual = moments(trace)
    for i, (exp, act) in enumerate(zip(expected, actual)):
        if not moment_matches(exp, act):
            return Divergence(what="exact", index=i, expected=_pattern(exp), actual=_show(act),
                              context=_context(trace, act[0].moment),
                              message=f"moment {i} differs (exact trace expected): expected {_j(_pattern(exp))}, "
                                      f"the engine's moment {act[0].moment} holds {_j(_show(act))}")
        _credit(ctx.asserted, act)
    if len(expected) != len(actual):
        extra = actual[len(expected):] if len(actual) > len(expected) else []
        return Divergence(what="exact", index=min(len(expected), len(actual)),
                          expected=[_pattern(e) for e in expected[len(actual):]],
                          actual=[_show(m) for m in extra],
                          context=_context(trace, extra[0][0].moment if extra else None),
                          message=f"the trace has {len(actual)} moments, the case expects exactly {len(expected)}")
    return None


# level: trace -- moments in order (contains, absences between moments and unordered groups included)
def _events_in_order(ctx: Ctx, numbered: list[tuple[int, Item]]) -> Divergence | None:
    trace = ctx.trace
    actual = moments(trace)
    items = [it for _, it in numbered]
    found = match_items(items, actual)
    if isinstance(found, Placement):
        for entries in found.entries:
            _credit(ctx.asserted, entries)
        return None
    item, index = items[found.index], numbered[found.index][0]
    where = (f" after the engine's moment {actual[found.after - 1][0].moment} (where expected moment {index - 1} "
             f"matched; expected moments count from 0 in the case's events, the engine's are its trace's "
             f"numbers)" if found.after and index else "")
    if found.why == "present" and found.entry is not None:
        hit = found.entry
        return Divergence(what="absent", index=index, expected={"absent": _pattern(item.events)},
                          actual=_show([hit]), context=_context(trace, hit.moment),
                          message=f"expected item {index} says {_j(_pattern(item.events))} does not happen "
                                  f"between its neighbours, but moment {hit.moment} has {_j(_show([hit])[0])}")
    if isinstance(item, UnorderedItem):
        member = item.moments[found.member] if found.member is not None else None
        exp = member.events if member else [ev for m in item.moments for ev in m.events]
        near = _nearest(exp, actual[found.after:])
        what = (f"moment {found.member} of the unordered group {index} {_j(_pattern(exp))} was not found"
                if member else f"the unordered group {index} found no distinct moment for each member")
        return Divergence(what="moment", index=index,
                          expected={"unordered": [_pattern(m.events) for m in item.moments]},
                          actual=_show(near) if near else None,
                          context=_context(trace, near[0].moment if near else None),
                          message=what + where + (f"; nearest: {_j(_show(near))}" if near else _ended(ctx)))
    exp = item.events
    near = _nearest(exp, actual[found.after:])
    label = "expected moment" + (" (contains)" if isinstance(item, MomentItem) and item.contains else "")
    return Divergence(
        what="moment", index=index, expected=_pattern(exp), actual=_show(near) if near else None,
        context=_context(trace, near[0].moment if near else None),
        message=f"{label} {index} {_j(_pattern(exp))} was not found" + where
                + (f"; nearest: {_j(_show(near))}" if near else _ended(ctx)))


def _ended(ctx: Ctx) -> str:
    """How the engine's trace ended, in the rules' terms where its end state says more: objects left waiting in
    a zone the game names (Magic: a spell on the stack that nobody passed priority over)."""
    final = ctx.obs.final
    waiting = registry.get(ctx.case.game).vocabulary.waiting
    cards = (final or {}).get("cards") if isinstance(final, dict) else None
    if waiting and isinstance(cards, dict):
        for zone, why in waiting.items():
            left = [cid for cid, c in cards.items() if isinstance(c, dict) and c.get("zone") == zone]
            if left:
                return f"; the trace ended with {', '.join(left)} left in zone `{zone}`: {why}"
    return "; the trace ended"


def _blocks(ctx: Ctx) -> list[tuple[str, list[TraceEntry]]]:
    """The steps view as blocks in order: each decision's outcome (a decided / rejected event naming the
    script entry), then the events it caused."""
    case, obs = ctx.case, ctx.obs
    steps = {s.after: s for s in obs.steps or []}
    out: list[tuple[str, list[TraceEntry]]] = []

    def step(after: int) -> None:
        s = steps.get(after)
        if s is not None:
            out.append((f"step {after}", [TraceEntry.model_construct(moment=after, kind=e.kind, args=e.args,
                                                                      clause=None) for e in s.events]))

    step(-1)
    for at in sorted((set(steps) | set(obs.decisions or {})) - {-1}):
        d = (obs.decisions or {}).get(at)
        if d is not None and d.outcome != "not_asked" and 0 <= at < len(case.script):
            entry = case.script[at]
            if d.outcome == "refused":
                args: dict[str, Any] = {"at": at, "player": entry.player}
                if d.reason is not None:
                    args["reason"] = d.reason
                out.append((f"decision {at}", [TraceEntry.model_construct(moment=at, kind="rejected", args=args,
                                                                           clause=None)]))
            else:
                args = {"at": at, "player": entry.player, "decision": entry.kind}
                if d.outcome == "automatic":
                    args["automatic"] = True
                out.append((f"decision {at}", [TraceEntry.model_construct(moment=at, kind="decided", args=args,
                                                                           clause=None)]))
        step(at)
    return out


def _events_in_steps(ctx: Ctx, expected: list[tuple[int, Pattern]]) -> Divergence | None:
    """Level ``steps``: each expected moment's events all among one step's events, steps in order."""
    if ctx.obs.steps is None:
        ctx.not_checkable("events", "steps", "the reply has no steps")
        return None
    blocks = _blocks(ctx)
    ctx.checked += 1
    ctx.not_checkable("events.moments", "trace", "at level steps each expected moment is checked as events of "
                                                 "one step, steps in order; which events are simultaneous and "
                                                 "their order inside a step are not checked")
    if ctx.case.expect.exact:
        ctx.not_checkable("exact", "trace", "the whole trace in moments needs level trace")
    pos = 0
    for i, exp in expected:
        kinds = {k in DECISION_KINDS for k, _ in exp}
        if len(kinds) > 1:
            ctx.not_checkable(f"events[{i}]", "trace", "a moment holding a decision and other events: steps "
                                                       "separate decisions from what they caused")
            continue
        j = next((k for k in range(pos, len(blocks))
                  if all(any(event_matches(kind, f, e) for e in blocks[k][1]) for kind, f in exp)), None)
        if j is None:
            near = max(blocks[pos:], default=None,
                       key=lambda b: sum(any(event_matches(kind, f, e) for e in b[1]) for kind, f in exp))
            where = f" at or after {blocks[pos][0]}" if pos < len(blocks) else " (no step left)"
            return Divergence(
                what="moment", index=i, expected=_pattern(exp), actual=_show(near[1]) if near else None,
                message=f"expected moment {i} {_j(_pattern(exp))}: its events did not all happen in one step"
                        + where + (f"; nearest: {near[0]} {_j(_show(near[1]))}" if near else ""))
        pos = j
    return None


def _pattern(exp: Pattern) -> list[dict[str, Any]]:
    return [{k: f} for k, f in exp]


def _nearest(exp: Pattern, candidates: list[list[TraceEntry]]) -> list[TraceEntry] | None:
    """The actual moment sharing the most matching events with the expected one."""
    best, score = None, 0
    for m in candidates:
        s = sum(1 for kind, f in exp if any(event_matches(kind, f, e) for e in m))
        s += sum(0.1 for kind, _ in exp if any(e.kind == kind for e in m))
        if s > score:
            best, score = m, s
    return best


# --------------------------------------------------------------------------------------------
# absent anywhere (level steps: the events that happened, in any grouping; credits nothing)


def check_absent(ctx: Ctx) -> Divergence | None:
    case, obs = ctx.case, ctx.obs
    pats, dropped = _filtered(ctx, "absent", case.expect.absent)
    _note_dropped(ctx, "absent", dropped, bool(pats), "absence")
    if not pats:
        return None
    if obs.trace is not None:
        happened = ctx.trace
    elif obs.steps is not None:
        happened = [TraceEntry.model_construct(moment=s.after, kind=e.kind, args=e.args, clause=None)
                    for s in obs.steps for e in s.events]
    else:
        ctx.not_checkable("absent", "steps", "the reply has no steps")
        return None
    ctx.checked += 1
    hit = any_event(pats, happened)
    if hit is None:
        return None
    where = f"moment {hit.moment}" if obs.trace is not None else f"step {hit.moment}"
    return Divergence(what="absent", expected={"absent": _pattern(pats)}, actual=_show([hit]),
                      context=_context(ctx.trace, hit.moment) if obs.trace is not None else [],
                      message=f"the case expects no {_j(_pattern(pats))} anywhere, but {where} has "
                              f"{_j(_show([hit])[0])}")


# --------------------------------------------------------------------------------------------
# state after decision N (level checkpoints)


def check_after(ctx: Ctx) -> Divergence | None:
    case, cps = ctx.case, ctx.obs.checkpoints
    if cps is None:
        for i in range(len(case.expect.after)):
            ctx.not_checkable(f"after[{i}]", "checkpoints", "the reply has no checkpoints")
        return None
    for check in case.expect.after:
        n = check.decision
        ctx.checked += 1
        state = cps.get(n)
        if not isinstance(state, dict):
            return Divergence(what="after", index=n, expected={"after": n, "state": check.state}, actual=None,
                              context=_context(ctx.trace, None),
                              message=f"the reply has no state after decision {n} ({_decision(case, n)})")
        div = _check_state(case, check.state, state, _until_decision(ctx.trace, n + 1), ctx.asserted, "after",
                           f"after decision {n}:", ctx.not_shown)
        if div is not None:
            return div.model_copy(update={"index": n})
    return None


def _until_decision(trace: list[TraceEntry], at: int) -> list[TraceEntry]:
    """The trace before decision ``at`` was taken (all of it when there is none)."""
    for i, e in enumerate(trace):
        if e.kind in DECISION_KINDS and e.args.get("at") == at:
            return trace[:i]
    return trace


# --------------------------------------------------------------------------------------------
# winner and final state (level final)



def check_winner(ctx: Ctx) -> Divergence | None:
    case, obs, trace = ctx.case, ctx.obs, ctx.trace
    ctx.checked += 1
    if obs.winner != case.expect.winner:
        return Divergence(what="winner", expected=case.expect.winner, actual=obs.winner,
                          context=_context(trace, None),
                          message=f"winner is {_j(obs.winner)}, expected {_j(case.expect.winner)}")
    # "nobody won" matches no trace entry, so it credits no clause (only the win event does)
    _credit(ctx.asserted, [e for e in trace if e.kind == "won"])
    return None


def check_order(ctx: Ctx) -> Divergence | None:
    """The order the procedure puts its steps in (``oracle.smt.order``: a partial order over trace events,
    each step tied to its clause), on every trace: an engine whose trace breaks it decided differently
    from the rules, whatever the case's own expectations say."""
    from ..smt.order import check_order as broken_orders

    violations = broken_orders(ctx.case.game, ctx.trace)
    if not violations:
        return None
    v = violations[0]
    clauses = sorted({c for x in violations for c in x.clauses})
    return Divergence(what="order", expected=f"{v.first} ({v.clauses[0]}) before {v.then} ({v.clauses[-1]})",
                      actual={"first_moment": v.first_moment, "then_moment": v.then_moment},
                      context=_context(ctx.trace, v.then_moment),
                      message=f"the trace breaks the procedure's order ({', '.join(clauses)}): {v.message}"
                              + (f"; and {len(violations) - 1} more" if len(violations) > 1 else ""))


def check_final(ctx: Ctx) -> Divergence | None:
    ctx.checked += 1
    return _check_state(ctx.case, ctx.case.expect.final or {}, ctx.obs.final, ctx.trace, ctx.asserted, "final",
                        "final", ctx.not_shown)


def _check_state(case: Case, expected: dict[str, Any], actual: dict[str, Any], trace: list[TraceEntry],
                 asserted: list[str], what: str, label: str,
                 not_shown: Callable[[str, str], bool] | None = None) -> Divergence | None:
    """A projection of a state (``final``, or ``after`` decision N) against the engine's state; each field
    that matches credits the clause of the last trace entry that changed it. ``not_shown(label, path)``
    is asked first of a field, card or player the engine's state lacks: True means it was recorded not
    checkable (:attr:`Ctx.unshown`), False that the absence is a divergence."""
    voc = registry.get(case.game).vocabulary
    for pid, fields in (expected.get("players") or {}).items():
        have = _part(_part(actual.get("players")).get(pid))
        for f, want in (fields or {}).items():
            if f not in have and not_shown is not None and not_shown(label, f"players.{pid}.{f}"):
                continue
            got = have.get(f)
            counted = isinstance(want, int) and not isinstance(want, bool) and isinstance(got, list)
            ok = len(got) == want if counted else _same_zone(want, got)
            if not ok:
                return Divergence(what=what, expected={"players": {pid: {f: want}}},
                                  actual={"players": {pid: {f: got}}}, context=_context(trace, None),
                                  message=f"{label} players.{pid}.{f} {_is(have, f)}, expected {_j(want)}")
            _credit(asserted, _last_change_of_player(trace, voc, pid, f, want))
    for cid, fields in (expected.get("cards") or {}).items():
        have = _part(actual.get("cards")).get(cid)
        if not isinstance(have, dict) and not_shown is not None and not_shown(label, f"cards.{cid}"):
            continue
        if not isinstance(have, dict):
            return Divergence(what=what, expected={"cards": {cid: fields}}, actual=None,
                              context=_context(trace, None), message=f"{label} state has no card {_j(cid)}")
        for f, want in (fields or {}).items():
            if f not in have and not_shown is not None and not_shown(label, f"cards.{cid}.{f}"):
                continue
            if not _same_field(f, want, have.get(f)):
                return Divergence(what=what, expected={"cards": {cid: {f: want}}},
                                  actual={"cards": {cid: {f: have.get(f)}}}, context=_context(trace, None),
                                  message=f"{label} cards.{cid}.{f} {_is(have, f)}, expected {_j(want)}")
            _credit(asserted, _last_change_of_card(trace, voc, cid, f))
    return None


def _same_field(field_: str, want: Any, got: Any) -> bool:
    """A card field as expected; ``counters``: each kind written has that count, a kind the engine leaves out
    counting 0 -- ``{defense: 0}`` and ``{}`` are the same state (a permanent has none of that counter, CR
    122.1), whichever way an engine writes it; ``abilities``: the same names in any order."""
    if field_ == "counters" and isinstance(want, dict) and isinstance(got, dict):
        return all(same(n, got.get(kind, 0)) for kind, n in want.items())
    if field_ == "abilities":  # what a card has, in no order: compared as a multiset, as a zone's cards are
        return _same_zone(want, got)
    return same(want, got)


def _is(have: dict[str, Any], f: str) -> str:
    """"is missing" when the engine's final state lacks the field, else "is VALUE"."""
    return f"is {_j(have[f])}" if f in have else "is missing (the engine's final state has no such field)"
CHECKS: list[Check] = [
    # order = precedence of the first divergence
    Check("rejected", "final", lambda c: True, check_rejections),  # also: no refusal the case does not expect
    Check("events", "steps", lambda c: bool(c.expect.events), check_events),
    Check("absent", "steps", lambda c: bool(c.expect.absent), check_absent),
    Check("after", "checkpoints", lambda c: bool(c.expect.after), check_after, reads=("checkpoints",)),
    Check("winner", "final", lambda c: c.expect.asserts_winner, check_winner),
    Check("final", "final", lambda c: bool(c.expect.final), check_final),
    Check("order", "trace", lambda c: True, check_order, implicit=True),
]
"""The expectation kinds, in the order their divergences take precedence. A new kind is one entry."""


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
