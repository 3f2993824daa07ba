"""One case over several editions of its game's rules (``run --ruleset all``, or a merge of runs under several
rulesets): a results file then holds one result per case and edition, each naming its ``ruleset``.

A case's status over its editions is the worst of the results it was played for (pass > skip, not checkable >
fail > error, as a baseline ranks them); a skip because the case does not hold for a run's ruleset
(``holds_for``) is no result of the case in that edition, and counts only when the case was played under
no edition at all.
"""

from __future__ import annotations

from typing import Iterable

from .model import CaseResult

RANK: dict[str, int] = {"pass": 3, "skip": 2, "not_checkable": 2, "fail": 1, "error": 0}


def not_held(c: CaseResult) -> bool:
    """A skip because the case does not hold for the run's ruleset."""
    return c.status == "skip" and c.holds_for is not None


def per_case(cases: Iterable[CaseResult]) -> dict[str, dict[str | None, CaseResult]]:
    """Case id -> edition -> result, in run order; a not-held skip only where the case has no other result."""
    out: dict[str, dict[str | None, CaseResult]] = {}
    for c in cases:
        eds = out.setdefault(c.id, {})
        if not_held(c):
            if not eds:
                eds[c.ruleset] = c
            continue
        if eds and all(not_held(x) for x in eds.values()):
            eds.clear()
        eds.setdefault(c.ruleset, c)
    return out


def combined(cases: Iterable[CaseResult]) -> list[CaseResult]:
    """One result per case id: the worst over its editions (the first of equals), in run order."""
    return [worst(eds.values()) for eds in per_case(cases).values()]


def worst(results: Iterable[CaseResult]) -> CaseResult:
    best: CaseResult | None = None
    for c in results:
        if best is None or RANK[c.status] < RANK[best.status]:
            best = c
    assert best is not None
    return best


def editions_of(cases: Iterable[CaseResult], game: str | None = None) -> list[str]:
    """The editions results were played under (not-held skips left out), in order of appearance."""
    return list(dict.fromkeys(c.ruleset for c in cases
                              if c.ruleset and not not_held(c) and (game is None or c.game == game)))
