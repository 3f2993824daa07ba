"""Running the golden cases against the mutants: who kills whom, and the kill matrix.

A mutant is *killed* by a case only when that case's status is ``fail`` on it (its expectation caught the
misreading); an ``error`` never kills -- it is a defect of the mutant or of the case, reported apart.
Beyond the golden cases a mutant may be killed by a *property* (:mod:`oracle.mutants.properties`: the
bounded block-legality agreement with the solver, a fixed-seed fuzz budget), checked after the cases: by
default only on the mutants no case killed, up to the first that kills (``properties="survivors"``); every
property on every mutant with ``"all"`` (what each source kills, for the matrix; slower); never with
``"none"``. A property kills only by a failing check; one that raises is an error of that property on that
mutant.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Literal

from .. import __version__
from ..loader import Suite
from .model import Mutant

SCHEMA_VERSION = 1
KIND = "tcg-oracle-kill-matrix"

Sources = Literal["survivors", "all", "none"]
SOURCES: tuple[str, ...] = ("survivors", "all", "none")


@dataclass
class MutantRun:
    mutant: Mutant
    cases: int = 0
    kills: list[str] = field(default_factory=list)
    """The ids of the cases that fail on the mutant, in suite order (the first is what killed it first)."""
    errors: list[tuple[str, str]] = field(default_factory=list)
    properties: list[str] = field(default_factory=list)
    """The properties that fail on the mutant, in the order they ran."""
    evidence: dict[str, str] = field(default_factory=dict)
    """Per failing property, what failed."""
    checked: list[str] = field(default_factory=list)
    """The properties checked on the mutant (each failed, held or erred)."""
    property_errors: list[tuple[str, str]] = field(default_factory=list)

    @property
    def killed_by(self) -> str | None:
        if self.kills:
            return self.kills[0]
        return f"property {self.properties[0]}" if self.properties else None

    @property
    def killed(self) -> bool:
        return self.killed_by is not None


def check_properties(run: MutantRun, properties: Iterable[Any], until_killed: bool = False) -> None:
    """Each property on the run's mutant: a failing check is a kill (its evidence kept), an exception an
    error of that property (never a kill). ``until_killed``: stop at the first kill."""
    for prop in properties:
        if until_killed and run.killed:
            break
        run.checked.append(prop.name)
        try:
            failed = prop.check(run.mutant)
        except Exception as exc:  # an error never kills
            run.property_errors.append((prop.name, f"{type(exc).__name__}: {exc}"))
            continue
        if failed is not None:
            run.properties.append(prop.name)
            run.evidence[prop.name] = failed


class MutantsInterrupted(KeyboardInterrupt):
    """A stop signal during the mutants: ``runs``, the mutants finished before it; ``mutant``, the one whose
    cases it stopped after ``cases`` of them (never recorded as tested)."""

    def __init__(self, runs: list[MutantRun], mutant: str, cases: int) -> None:
        super().__init__(f"interrupted on mutant {mutant} after {cases} case(s)")
        self.runs, self.mutant, self.cases = runs, mutant, cases


def run_mutants(mutants: Iterable[Mutant], suite: Suite, *, on_done: Callable[[MutantRun], None] | None = None,
                properties: Sources = "survivors", checks: list[Any] | None = None) -> list[MutantRun]:
    """Every case of the mutant's game on each mutant (the case's default ruleset, as ``run``), then the
    properties (``checks``, default :data:`oracle.mutants.properties.PROPERTIES`) as ``properties`` says."""
    from ..harness.runner import run_suite
    from .engine import MutantEngine

    if checks is None and properties != "none":
        from .properties import PROPERTIES  # z3 and Hypothesis: only when properties run

        checks = PROPERTIES
    runs = []
    for m in mutants:
        engine = MutantEngine(m)
        try:
            results = run_suite(engine, suite, games=[m.game])
        except KeyboardInterrupt as exc:  # a run_suite that hands the interrupt on
            raise MutantsInterrupted(runs, m.name, 0) from exc
        if results.partial:  # Ctrl-C or SIGTERM stopped its cases: this mutant is not recorded as tested
            raise MutantsInterrupted(runs, m.name, len(results.cases))
        run = MutantRun(m, cases=len(results.cases))
        for c in results.cases:
            if c.status == "fail":
                run.kills.append(c.id)
            elif c.status == "error":
                run.errors.append((c.id, c.error or ""))
        if properties == "all":
            check_properties(run, checks or [])
        elif properties == "survivors" and not run.kills:
            check_properties(run, checks or [], until_killed=True)
        runs.append(run)
        if on_done:
            on_done(run)
    return runs


def kill_matrix(runs: list[MutantRun], suite: Suite) -> dict[str, Any]:
    """The kill-matrix file ``tcg-oracle mutants --results FILE`` writes and ``report`` reads.

    ``cases``: case id -> the mutants it kills; ``by_property``: property -> the mutants it kills (of those
    it was checked on); ``clauses``: per clause of a mutant, its mutants, how many
    are killed, and how many by the clause's own cases (cases that list that clause); ``weak``: the clauses
    with a surviving mutant."""
    rules_of = {lc.case.id: set(lc.case.rules) for lc in suite.cases}
    cases: dict[str, list[str]] = {}
    by_property: dict[str, list[str]] = {}
    clauses: dict[str, dict[str, Any]] = {}
    for r in runs:
        for cid in r.kills:
            cases.setdefault(cid, []).append(r.mutant.name)
        for name in r.properties:
            by_property.setdefault(name, []).append(r.mutant.name)
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
                     "properties_checked": r.checked, "evidence": r.evidence,
                     "errors": [{"case": c, "error": e} for c, e in r.errors],
                     "property_errors": [{"property": p, "error": e} for p, e in r.property_errors]}
                    for r in runs],
        "cases": cases,
        "by_property": by_property,
        "clauses": dict(sorted(clauses.items())),
        "weak": sorted(c for c, row in clauses.items() if row["survivors"]),
        "summary": {"mutants": len(runs), "killed": killed,
                    "kill_rate": round(killed / len(runs), 4) if runs else None,
                    "errors": sum(len(r.errors) for r in runs),
                    "property_errors": sum(len(r.property_errors) for r in runs)},
    }


def is_kill_matrix(data: Any) -> bool:
    return isinstance(data, dict) and data.get("kind") == KIND
