"""Per decision of a case's script: who decides what, what the case expects (accepted, or refused with its
reason) and what the engine reported -- what an engine below level ``trace`` shows of each decision (its
reply's ``decisions``), set beside the case (the report's decision table and ``explain``'s)."""

from __future__ import annotations

from typing import Any, Iterable, Mapping, NamedTuple

from .board_view import script_view
from .traces import expected_shown


class DecisionRow(NamedTuple):
    at: int
    player: str
    what: str
    expected: str      # "accepted" | "refused (REASON)"
    engine: str        # "accepted" | "refused (REASON)" | "refused" | "automatic" | "not asked" | "not reported"
    differs: bool      # the engine's outcome is not the case's


def _args(v: Any) -> str:
    import json

    return "" if v is None else v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)


def expected_refusals(case: Mapping[str, Any] | None) -> dict[int, str | None]:
    """Script entry -> the refusal's reason the case expects (``expect.rejected``, or a ``rejected`` event)."""
    out: dict[int, str | None] = {}
    rej = ((case or {}).get("expect") or {}).get("rejected") or []
    for r in rej if isinstance(rej, list) else [rej]:
        if isinstance(r, Mapping) and isinstance(r.get("at"), int):
            out[r["at"]] = r.get("reason")
    for s in expected_shown(case):
        for kind, fields in s.events:
            if kind == "rejected" and isinstance(fields.get("at"), int) and not s.note.startswith("absent"):
                out.setdefault(fields["at"], fields.get("reason"))
    return out


def decision_rows(case: Mapping[str, Any] | None, decisions: Iterable[Any] | None) -> list[DecisionRow]:
    """One row per script entry; ``decisions``: the engine's outcomes (``DecisionOutcome`` or their dumps)."""
    got: dict[int, tuple[str, str | None]] = {}
    for d in decisions or []:
        at = d.get("at") if isinstance(d, Mapping) else d.at
        outcome = d.get("outcome") if isinstance(d, Mapping) else d.outcome
        reason = d.get("reason") if isinstance(d, Mapping) else d.reason
        got[at] = (outcome, reason)
    refusals = expected_refusals(case)
    rows = []
    for at, player, kind, args in script_view(case):
        reason = refusals.get(at, "") if at in refusals else None
        expected = "accepted" if at not in refusals else "refused" + (f" ({reason})" if reason else "")
        if at in got:
            outcome, why = got[at]
            engine = "refused" + (f" ({why})" if why else "") if outcome == "refused" else outcome.replace("_", " ")
            accepted = outcome in ("accepted", "automatic")
            differs = (at in refusals) == accepted if outcome != "not_asked" else False
            if outcome == "refused" and at in refusals and reason and why and why != reason:
                differs = True
        else:
            engine, differs = "not reported", False
        rows.append(DecisionRow(at, str(player), f"{kind} {_args(args)}".strip(), expected, engine, differs))
    return rows
