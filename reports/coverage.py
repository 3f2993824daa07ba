"""Rules coverage per game: every clause of the catalog, executed and asserted, pass/fail per engine.

DESIGN.md: both measures come from the reference engine's trace; only *asserted* coverage counts a
clause as covered; a clause marked not scenario-testable is reported as such, never as covered. When no
run is of the reference engine, the runs given are used when their results carry asserted clauses (an engine
that tags its trace with clauses) and the report says so; when none does, coverage is not available in that
report (said as such: "0 % covered, every clause uncovered" would be false).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from oracle.model import STATUSES, Catalog

from .runs import EngineRun, rate

REFERENCE = "reference"


@dataclass
class ClauseRow:
    id: str
    text: str
    summary: str
    document: str | None
    edition: str | None
    testable: bool
    reason: str | None
    in_catalog: bool
    measured: bool = True
    """False: no run of the report carries asserted clauses, so coverage is not available (state ``unmeasured``)."""
    cited: int = 0
    executed: int = 0
    asserted: int = 0
    per_engine: list[dict[str, int]] = field(default_factory=list)
    proofs: list[Any] = field(default_factory=list)
    """Bounded properties tied to the clause (``reports.proofs.ProofRow``), when a prove run was given."""

    @property
    def proved(self) -> list[Any]:
        return [p for p in self.proofs if p.status == "proved"]

    @property
    def state(self) -> str:
        if not self.in_catalog:
            return "unknown"
        if not self.testable:
            return "untestable"
        if not self.measured:
            return "unmeasured"
        if self.asserted:
            return "covered"
        return "executed" if self.executed else "uncovered"


@dataclass
class GameCoverage:
    game: str
    catalog_error: str | None
    source: str
    clauses: list[ClauseRow]
    assumptions: list[dict[str, Any]]
    available: bool = True
    """False: no reference run, and no run shown carries asserted clauses: coverage is not computed."""
    editions: list[str] = field(default_factory=list)
    """The editions (rulesets) whose results the coverage joins: each clause asserted under any of them."""

    @property
    def testable(self) -> list[ClauseRow]:
        return [c for c in self.clauses if c.in_catalog and c.testable]

    @property
    def covered(self) -> int:
        return sum(1 for c in self.testable if c.asserted)

    @property
    def executed(self) -> int:
        return sum(1 for c in self.testable if c.executed)

    @property
    def percent(self) -> float:
        return rate(self.covered, len(self.testable))

    @property
    def executed_percent(self) -> float:
        return rate(self.executed, len(self.testable))

    @property
    def proved(self) -> int:
        return sum(1 for c in self.testable if c.proved)

    def count(self, state: str) -> int:
        return sum(1 for c in self.clauses if c.state == state)


def game_coverage(game: str, catalog: Catalog | None, catalog_error: str | None,
                  runs: list[EngineRun], proofs: Mapping[str, list[Any]] | None = None) -> GameCoverage:
    ref = [r for r in runs if r.name == REFERENCE and any(c.game == game for c in r.cases.values())]
    source_runs = ref[:1] or runs
    tagged = any(c.asserted or c.executed for r in source_runs for c in r.results() if c.game == game)
    available = bool(ref) or tagged
    if ref:
        source = f"coverage from the {REFERENCE} engine's trace"
    elif tagged:
        source = ("no reference run given: coverage from the clauses the runs shown tagged their traces with ("
                  + ", ".join(r.key for r in runs) + ")")
    else:
        source = (f"coverage is computed from the {REFERENCE} engine's trace (each entry tagged with its clause), "
                  f"and no run in this report is of the {REFERENCE} engine or carries asserted clauses: coverage "
                  f"is not available here; add a reference run (tcg-oracle run --results ref.json) to the "
                  f"report's inputs")
    rows: dict[str, ClauseRow] = {}
    if catalog is not None:
        for c in catalog.clauses:
            rows[c.id] = ClauseRow(c.id, c.text, c.summary, c.document, c.edition, c.testable, c.reason, True)

    def row(cid: str) -> ClauseRow:
        if cid not in rows:
            rows[cid] = ClauseRow(cid, "", "", None, None, True, None, False)
        return rows[cid]

    executed: dict[str, set[str]] = {}
    asserted: dict[str, set[str]] = {}
    editions: list[str] = []
    for run in source_runs:
        for c in run.results():  # every edition the case was played under: the coverage joins them
            if c.game != game:
                continue
            if c.ruleset and c.ruleset not in editions and (c.executed or c.asserted):
                editions.append(c.ruleset)
            for cid in c.executed:
                executed.setdefault(cid, set()).add(c.id)
            for cid in c.asserted:
                asserted.setdefault(cid, set()).add(c.id)
    cited: dict[str, set[str]] = {}
    for run in runs:
        for c in run.cases.values():
            if c.game == game:
                for cid in c.rules:
                    cited.setdefault(cid, set()).add(c.id)
    for cid in {*executed, *asserted, *cited}:
        r = row(cid)
        r.executed = len(executed.get(cid, ()))
        r.asserted = len(asserted.get(cid, ()))
        r.cited = len(cited.get(cid, ()))
    for r in rows.values():
        r.measured = available
        ids = cited.get(r.id, set()) | asserted.get(r.id, set())
        for run in runs:
            counts = {s: 0 for s in STATUSES}
            for cid in ids:
                res = run.cases.get(cid)
                if res is not None:
                    counts[res.status] += 1
            r.per_engine.append(counts)
    for cid, rows_ in (proofs or {}).items():
        if cid.startswith(f"{game}:"):
            row(cid).proofs = list(rows_)
    assumptions = []
    if catalog is not None:
        relying: dict[str, list[str]] = {}
        for run in runs:
            for c in run.cases.values():
                for a in (c.case or {}).get("assumptions") or []:
                    if c.id not in relying.setdefault(a, []):
                        relying[a].append(c.id)
        for a in catalog.assumptions:
            assumptions.append({"id": a.id, "reading": a.reading, "weighed": a.weighed, "clauses": a.clauses,
                                "cases": relying.get(a.id, [])})
    order = list(rows)
    if catalog is not None:  # catalog order first, then clauses the catalog does not know
        known = [c.id for c in catalog.clauses]
        order = known + sorted(k for k in rows if k not in set(known))
    return GameCoverage(game, catalog_error, source, [rows[k] for k in order], assumptions, available, editions)


def load_catalogs(games: list[str], given: Mapping[str, Catalog] | None = None
                  ) -> dict[str, tuple[Catalog | None, str | None]]:
    """The catalog of each game, or the reason it could not be loaded (the report still renders)."""
    out: dict[str, tuple[Catalog | None, str | None]] = {}
    for g in games:
        if given is not None and g in given:
            out[g] = (given[g], None)
            continue
        try:
            from oracle.loader import load_catalog

            out[g] = (load_catalog(g), None)
        except Exception as exc:  # a missing or broken catalog must not cost the report
            out[g] = (None, f"{type(exc).__name__}: {exc}")
    return out
