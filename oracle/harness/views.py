"""What an engine's reply shows at its observation level (protocol 2), and the weaker views derived from
stronger ones: ``decisions`` and ``steps`` from a ``trace``.

- a decision's outcome, from a trace: a ``decided`` event is ``accepted`` (``automatic`` when it says
  ``automatic: true``), a ``rejected`` event ``refused`` (with its reason); an entry with neither was
  never asked (protocol 2) or never reached (protocol 1, which has no forced decisions);
- a step, from a trace: the events after decision N's ``decided``/``rejected`` entry up to the next
  decision's entry (step -1: the events before the first decision).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..model import LEVELS, CaseReply, DecisionOutcome, Hello, Step, StepEvent, TraceEntry

DECISION_KINDS = ("decided", "rejected")
RANK = {level: n for n, level in enumerate(LEVELS)}


def at_least(level: str, needed: str) -> bool:
    """Whether ``level`` reports everything ``needed`` does."""
    return RANK[level] >= RANK[needed]


def _index(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def decisions_from_trace(trace: list[TraceEntry]) -> list[DecisionOutcome]:
    """Each decided / rejected event as the outcome of its script entry, in trace order (entries whose
    ``at`` is not an index are left out: the rejection check reports them)."""
    out = []
    for e in trace:
        if e.kind not in DECISION_KINDS:
            continue
        at = _index(e.args.get("at"))
        if at is None or at < 0:
            continue
        if e.kind == "rejected":
            reason = e.args.get("reason")
            out.append(DecisionOutcome(at=at, outcome="refused", reason=reason if isinstance(reason, str) else None))
        else:
            out.append(DecisionOutcome(at=at, outcome="automatic" if e.args.get("automatic") is True else "accepted"))
    return out


def steps_from_trace(trace: list[TraceEntry]) -> list[Step]:
    """The events each decision caused: those after its decided / rejected entry, up to the next one."""
    steps = [Step(after=-1, events=[])]
    for e in trace:
        if e.kind in DECISION_KINDS and _index(e.args.get("at")) is not None:
            steps.append(Step(after=e.args["at"], events=[]))
        else:
            steps[-1].events.append(StepEvent(kind=e.kind, args=dict(e.args)))
    return steps if steps[0].events else steps[1:]


@dataclass
class Observation:
    """A reply as seen at the engine's level: each view is ``None`` where the engine does not show it."""

    level: str
    reason_codes: bool
    legality: bool
    final: dict[str, Any]
    winner: str | None
    decisions: dict[int, DecisionOutcome] | None
    checkpoints: dict[int, dict[str, Any]] | None
    trace: list[TraceEntry] | None
    reply: CaseReply
    reported_events: frozenset[str] | None = None
    absent_is_not_asked: bool = True
    _steps: list[Step] | None = field(default=None, repr=False)

    @property
    def steps(self) -> list[Step] | None:
        if self._steps is None and self.trace is not None:
            self._steps = steps_from_trace(self.trace)
        return self._steps

    def reports(self, kind: str) -> bool:
        """Whether the engine reports events of this kind (its hello's ``events``); decisions always."""
        return self.reported_events is None or kind in self.reported_events or kind in DECISION_KINDS

    def outcome(self, at: Any) -> str | None:
        """``accepted`` | ``refused`` | ``automatic`` | ``not_asked``; ``None``: never reached."""
        if self.decisions is None or _index(at) is None:
            return None
        d = self.decisions.get(at)
        if d is not None:
            return d.outcome
        if self.absent_is_not_asked and any(k > at for k in self.decisions):
            return "not_asked"
        return None


def observe(reply: CaseReply, hello: Hello | None, game: str) -> Observation:
    """The reply at the level the engine declared (a protocol-1 hello, or none: ``trace`` with reason
    codes). Views above the declared level are dropped even when sent; weaker ones are derived."""
    level = hello.observation if hello is not None else "trace"
    v1 = hello is None or hello.v1
    trace = list(reply.trace) if level == "trace" else None
    if reply.decisions is not None:
        decisions: dict[int, DecisionOutcome] | None = {d.at: d for d in reply.decisions}
    elif trace is not None:
        decisions = {d.at: d for d in decisions_from_trace(trace)}
    else:
        decisions = None
    checkpoints = {c.after: c.state for c in reply.checkpoints} \
        if reply.checkpoints is not None and at_least(level, "checkpoints") else None
    events = hello.events.get(game) if hello is not None and hello.events is not None else None
    obs = Observation(level=level, reason_codes=True if hello is None else hello.reason_codes,
                      legality=hello is not None and "legality" in hello.capabilities,
                      final=reply.final or {}, winner=reply.winner, decisions=decisions, checkpoints=checkpoints,
                      trace=trace, reply=reply, reported_events=frozenset(events) if events is not None else None,
                      absent_is_not_asked=not v1 and reply.decisions is None)
    if level == "steps" and reply.steps is not None:
        obs._steps = list(reply.steps)
    return obs


def project(reply: CaseReply, level: str, *, reason_codes: bool = True) -> CaseReply:
    """A full reply (trace, decisions, checkpoints) as an engine of ``level`` would send it: the views
    above the level dropped, ``steps`` derived for level ``steps``, reasons dropped without reason codes.
    ``serve --observation`` sends this; the level tests run it in process."""
    decisions = reply.decisions if reply.decisions is not None else decisions_from_trace(list(reply.trace))
    if not reason_codes:
        decisions = [d.model_copy(update={"reason": None}) for d in decisions]
    update: dict[str, Any] = {"decisions": decisions}
    if level == "trace":
        if not reason_codes:
            update["trace"] = [e.model_copy(update={"args": {k: v for k, v in e.args.items() if k != "reason"}})
                               if e.kind == "rejected" else e for e in reply.trace]
        return reply.model_copy(update=update)
    update["trace"] = []
    update["steps"] = steps_from_trace(list(reply.trace)) if level == "steps" else None
    if not at_least(level, "checkpoints"):
        update["checkpoints"] = None
    return reply.model_copy(update=update)
