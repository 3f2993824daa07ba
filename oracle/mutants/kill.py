"""Running the golden cases against the mutants: who kills whom, and the kill matrix.

A mutant is *killed* by a case only when that case's status is ``fail`` on it (its expectation caught the
misreading); an ``error`` never kills -- it is a defect of the mutant or of the case, reported apart.
Beyond the golden cases a mutant may be killed by a *property* (a fixed-seed fuzz budget, the bounded
proofs): :data:`PROPERTIES` holds those checks; it is empty until those commands land on main (see the
README, "Mutants").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from .. import __version__
from ..loader import Suite
from .model import Mutant

SCHEMA_VERSION = 1
KIND = "tcg-oracle-kill-matrix"

PROPERTIES: list[tuple[str, Callable[[Mutant], bool]]] = []
"""``(name, check)``: ``check(mutant)`` is True when the property fails on the mutant (kills it); run on every
mutant after the golden cases, in this order. The hook for ``tcg-oracle fuzz`` (a fixed-seed budget) and
``tcg-oracle prove`` (the bounded proofs) once they are on main; empty until then."""


@dataclass
class MutantRun:
    mutant: Mutant
    cases: int = 0
    kills: list[str] = field(default_factory=list)
    """The ids of the cases that fail on the mutant, in suite order (the first is what killed it first)."""
    errors: list[tuple[str, str]] = field(default_factory=list)
    properties: list[str] = field(default_factory=list)
    """The properties that fail on the mutant."""

    @property
    def killed_by(self) -> str | None:
        if self.kills:
            return self.kills[0]
        return f"property {self.properties[0]}" if self.properties else None

    @property
    def killed(self) -> bool:
        return self.killed_by is not None


def run_mutants(mutants: Iterable[Mutant], suite: Suite, *, on_done: Callable[[MutantRun], None] | None = None,
                ) -> list[MutantRun]:
    """Every case of the mutant's game on each mutant (the case's default ruleset, as ``run``)."""
    from ..harness.runner import run_suite  # noqa: PLC0415
    from .engine import MutantEngine  # noqa: PLC0415

    runs = []
    for m in mutants:
        engine = MutantEngine(m)
        results = run_suite(engine, suite, games=[m.game])
        run = MutantRun(m, cases=len(results.cases))
        for c in results.cases:
            if c.status == "fail":
                run.kills.append(c.id)
            elif c.status == "error":
                run.errors.append((c.id, c.error or ""))
        for name, check in PROPERTIES:
            if check(m):
                run.properties.append(name)
        runs.append(run)
        if on_done:
            on_done(run)
    return runs


def kill_matrix(runs: list[MutantRun], suite: Suite) -> dict[str, Any]:
    """The kill-matrix file ``tcg-oracle mutants --results FILE`` writes and ``report`` reads.

    ``cases``: case id -> the mutants it kills; ``clauses``: per clause of a mutant, its mutants, how many
    are killed, and how many by the clause's own cases (cases that list that clause); ``weak``: the clauses
    with a surviving mutant."""
    rules_of = {lc.case.id: set(lc.case.rules) for lc in suite.cases}
    cases: dict[str, list[str]] = {}
    clauses: dict[str, dict[str, Any]] = {}
    for r in runs:
        for cid in r.kills:
            cases.setdefault(cid, []).append(r.mutant.name)
        row = clauses.setdefault(r.mutant.clause, {"game": r.mutant.game, "mutants": [], "killed": 0,
                                                    "killed_by_own_cases": 0, "survivors": []})
        row["mutants"].append(r.mutant.name)
        if r.killed:
            row["killed"] += 1
        else:
            row["survivors"].append(r.mutant.name)
        if any(r.mutant.clause in rules_of.get(cid, ()) for cid in r.kills):
            row["killed_by_own_cases"] += 1
    killed = sum(r.killed for r in runs)
    return {
        "schema_version": SCHEMA_VERSION, "kind": KIND, "suite_version": __version__,
        "mutants": [{"name": r.mutant.name, "game": r.mutant.game, "clause": r.mutant.clause,
                     "misreading": r.mutant.misreading, "source": r.mutant.source, "cases": r.cases,
                     "killed_by": r.killed_by, "kills": r.kills, "properties": r.properties,
                     "errors": [{"case": c, "error": e} for c, e in r.errors]} for r in runs],
        "cases": cases,
        "clauses": dict(sorted(clauses.items())),
        "weak": sorted(c for c, row in clauses.items() if row["survivors"]),
        "summary": {"mutants": len(runs), "killed": killed,
                    "kill_rate": round(killed / len(runs), 4) if runs else None,
                    "errors": sum(len(r.errors) for r in runs)},
    }


def is_kill_matrix(data: Any) -> bool:
    return isinstance(data, dict) and data.get("kind") == KIND
