"""What a fuzz campaign counts of its examples: each example's status, the expectations the engine could not
show (grouped by what they are, not by the example's own card ids), the examples an adapter or the harness
could not run, and the disagreements grouped by kind (:func:`signature`), so that one campaign with
``--keep-going`` names each distinct way the engine decides differently from the reference once.

A disagreement is a ``fail`` only: the engine decided differently (DESIGN, "Statuses mean one thing each").
``not_checkable`` expectations and ``error`` examples are counted and listed, never reported as disagreements.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .model import Case, CaseResult, Unchecked

_INDEX = re.compile(r"\b(after decision|decision|step|moment|rejected|events|after)\[?\s?-?\d+\]?")
_PATH = re.compile(r"^(final|after decision -?\d+) (players|cards)\.[^.\s]+(\.\S+)?$")


def unchecked_key(u: Unchecked) -> str:
    """An unchecked expectation without the example's own ids and indexes: ``final players.*.outside_game
    (field:outside_game)``, ``events[*].triggered (events:triggered)``."""
    m = _PATH.match(u.what)
    if m:
        where = "after" if m.group(1).startswith("after") else "final"
        what = f"{where} {m.group(2)}.*{m.group(3) or ''}"
    else:
        what = re.sub(r"\[\d+\]", "[*]", u.what)
    return f"{what} ({u.needs})"


def _kinds(pattern: Any) -> list[str]:
    if isinstance(pattern, dict) and "unordered" in pattern:
        pattern = [e for m in pattern["unordered"] for e in m]
    if isinstance(pattern, dict) and "absent" in pattern:
        pattern = pattern["absent"]
    if not isinstance(pattern, list):
        return []
    return sorted({k for e in pattern if isinstance(e, dict) for k in e})


def _state_path(expected: Any) -> str:
    """``players.*.life`` / ``cards.*.zone`` / ``cards.*`` of a final or after divergence's expected part."""
    state = expected.get("state", expected) if isinstance(expected, dict) else {}
    for part in ("players", "cards"):
        objs = state.get(part) if isinstance(state, dict) else None
        if isinstance(objs, dict) and objs:
            fields = next(iter(objs.values()))
            if isinstance(fields, dict) and len(fields) == 1:
                return f"{part}.*.{next(iter(fields))}"
            return f"{part}.*"
    return "?"


def signature(case: Case, result: CaseResult) -> str:
    """One disagreement's kind, the same for two examples that disagree the same way on other boards: what
    diverged (a state field, the event kinds of a moment, a decision's kind and outcome, the winner)."""
    d = result.divergence
    if d is None:
        return f"{result.status}: ?"
    if d.what in ("final", "after"):
        return f"{d.what} {_state_path(d.expected)}"
    if d.what in ("moment", "exact", "absent"):
        return f"{d.what} [{', '.join(_kinds(d.expected))}]"
    if d.what == "rejection":
        at = d.index
        kind = case.script[at].kind if isinstance(at, int) and 0 <= at < len(case.script) else "?"
        shape = "refused, expected accepted" if "expects it to be accepted" in d.message else \
            "accepted, expected refused" if "should be refused" in d.message else _INDEX.sub(r"\1 N", d.message)
        return f"rejection {kind}: {shape}"
    return d.what


def error_key(result: CaseResult) -> str:
    """An error's (or skip's) first line, without the example's ids where the adapters' messages start with
    one."""
    text = (result.error or result.skip_reason or "?").splitlines()[0]
    text = re.sub(r"^cannot be set up on [^:]+: ", "", text)
    return re.sub(r"^[\w.-]+: ", "CARD: ", text)[:200]


@dataclass
class Tally:
    """What the examples of one campaign (or several, added) came to."""

    statuses: Counter = field(default_factory=Counter)
    unchecked: Counter = field(default_factory=Counter)
    """unchecked_key -> the examples with at least one such expectation."""
    errors: Counter = field(default_factory=Counter)
    """``skip: REASON`` / ``error: MESSAGE`` -> the examples not run so."""
    disagreements: Counter = field(default_factory=Counter)
    """signature -> the examples that disagree that way."""

    def count(self, case: Case, result: CaseResult) -> str | None:
        """Count one example's result; its disagreement's signature when it is a ``fail``."""
        self.statuses[result.status] += 1
        self.unchecked.update({unchecked_key(u) for u in result.unchecked})
        if result.status in ("error", "skip"):
            self.errors[f"{result.status}: {error_key(result)}"] += 1
        if result.status != "fail":
            return None
        sig = signature(case, result)
        self.disagreements[sig] += 1
        return sig

    def add(self, other: "Tally") -> None:
        for mine, theirs in ((self.statuses, other.statuses), (self.unchecked, other.unchecked),
                             (self.errors, other.errors), (self.disagreements, other.disagreements)):
            mine.update(theirs)

    def lines(self, top: int = 8) -> list[str]:
        """The summary's lines after the campaign's figure line."""
        s = self.statuses
        out = [f"  examples: {s['pass']} agree, {s['fail']} disagree, {s['not_checkable']} not checkable, "
               f"{s['skip'] + s['error']} not run ({s['skip']} cannot be set up on the engine, {s['error']} adapter or "
               f"harness error)"]
        if self.unchecked:
            out.append(f"  not checkable at the engine's level (examples; {len(self.unchecked)} kinds):")
            out += [f"    {n:>6}  {k}" for k, n in self.unchecked.most_common(top)]
            if len(self.unchecked) > top:
                out.append(f"    ... and {len(self.unchecked) - top} more kinds")
        if self.errors:
            out.append(f"  not run ({len(self.errors)} kinds):")
            out += [f"    {n:>6}  {k}" for k, n in self.errors.most_common(top)]
        if self.disagreements:
            out.append(f"  disagreements ({len(self.disagreements)} kinds):")
            out += [f"    {n:>6}  {k}" for k, n in self.disagreements.most_common()]
        return out
