"""Engines side by side (as wpt.fyi shows browsers): per clause, how many of its cases each engine passes;
how the engines agree case by case; and the cases that every engine other than the reference fails -- the
first place to look for a case of the suite that is wrong, since independent engines rarely share a bug.

"Fails" means status ``fail`` (the engine decided differently from the case); a case an engine skipped,
could not check, or could not run (``error``) is not counted as failed by it. A case is listed when every
engine that *checked* it (pass or fail) fails it, and at least one did; the engines that did not check it
are named beside it. With several versions of one engine, its newest run stands for it (the history view
shows the others). The reference engine, and mutants (the reference with one misreading), are not
engines under test here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from .runs import EngineRun

REFERENCE = "reference"
CHECKED = ("pass", "fail")


def is_engine_under_test(run: EngineRun) -> bool:
    """A real engine (or a toy one): not the reference engine and not a mutant of it."""
    return run.name != REFERENCE and not run.name.startswith("mutant:")


def newest_per_engine(runs: Iterable[EngineRun]) -> list[EngineRun]:
    """One run per engine name, the newest (by finish time, then the order given), in first-seen order."""
    out: dict[str, EngineRun] = {}
    for run in runs:
        have = out.get(run.name)
        if have is None or (run.finished or "") >= (have.finished or ""):
            out[run.name] = run
    return list(out.values())


@dataclass(frozen=True)
class EngineFailure:
    engine: str
    status: str
    message: str


@dataclass(frozen=True)
class CommonFailure:
    """A case every engine under test that checked it fails."""

    id: str
    game: str
    title: str
    rules: list[str]
    failures: list[EngineFailure]
    unchecked_by: list[tuple[str, str]]  # engine, its status (skip, not_checkable, error) or "not run"
    reference: str | None                # the reference engine's status, when its results were given


@dataclass(frozen=True)
class EngineClauseRow:
    clause: str
    game: str
    cells: list[tuple[int, int, int]]  # per engine column: (pass, checked, cases run)


@dataclass
class EnginesView:
    engines: list[EngineRun]
    """The columns: the reference first when given, then each engine under test (its newest run)."""
    common: list[CommonFailure] = field(default_factory=list)
    clauses: list[EngineClauseRow] = field(default_factory=list)
    agreement: dict[str, int] = field(default_factory=dict)
    """Cases run by two or more columns: ``all pass``, ``all fail``, ``differ`` (pass on some, fail on others)."""


def _message(run: EngineRun, cid: str) -> str:
    c = run.cases[cid]
    if c.divergence is not None:
        return c.divergence.message
    return c.error or c.skip_reason or ""


def common_failures(runs: list[EngineRun], reference: EngineRun | None = None) -> list[CommonFailure]:
    """The cases every engine under test (``runs``) that checked them fails, in the order first seen."""
    ids: dict[str, None] = {}
    for run in runs:
        ids.update(dict.fromkeys(run.cases))
    out = []
    for cid in ids:
        checked = [r for r in runs if cid in r.cases and r.cases[cid].status in CHECKED]
        if not checked or any(r.cases[cid].status != "fail" for r in checked):
            continue
        first = checked[0].cases[cid]
        out.append(CommonFailure(
            id=cid, game=first.game, title=first.title or "", rules=list(first.rules),
            failures=[EngineFailure(r.key, "fail", _message(r, cid)) for r in checked],
            unchecked_by=[(r.key, r.cases[cid].status if cid in r.cases else "not run") for r in runs
                          if r not in checked],
            reference=reference.cases[cid].status if reference is not None and cid in reference.cases else None))
    return out


def clause_rows(columns: list[EngineRun], games: list[str]) -> list[EngineClauseRow]:
    """Per clause the cases cite, per column: (passed, checked: pass or fail, run: any result)."""
    order: dict[tuple[str, str], None] = {}
    for run in columns:
        for c in run.cases.values():
            for clause in c.rules:
                order[(c.game, clause)] = None
    rows = []
    for game in games:
        for g, clause in order:
            if g != game:
                continue
            cells = []
            for run in columns:
                mine = [c for c in run.cases.values() if c.game == game and clause in c.rules]
                cells.append((sum(c.status == "pass" for c in mine), sum(c.status in CHECKED for c in mine),
                              len(mine)))
            rows.append(EngineClauseRow(clause, game, cells))
    return rows


def agreement(columns: list[EngineRun]) -> dict[str, int]:
    out = {"all pass": 0, "all fail": 0, "differ": 0}
    ids: dict[str, None] = {}
    for run in columns:
        ids.update(dict.fromkeys(run.cases))
    for cid in ids:
        statuses = {r.cases[cid].status for r in columns if cid in r.cases and r.cases[cid].status in CHECKED}
        if sum(1 for r in columns if cid in r.cases and r.cases[cid].status in CHECKED) < 2:
            continue
        out["all pass" if statuses == {"pass"} else "all fail" if statuses == {"fail"} else "differ"] += 1
    return out


def engines_view(runs: list[EngineRun], games: list[str]) -> EnginesView | None:
    """The view, or ``None`` when no engine under test is among the runs (a run of the reference alone)."""
    under_test = newest_per_engine(r for r in runs if is_engine_under_test(r))
    if not under_test:
        return None
    refs = [r for r in runs if r.name == REFERENCE]
    reference = refs[-1] if refs else None
    columns = ([reference] if reference else []) + under_test
    return EnginesView(engines=columns, common=common_failures(under_test, reference),
                       clauses=clause_rows(columns, games), agreement=agreement(columns))


def view_dict(view: EnginesView | None) -> dict[str, Any] | None:
    """What the template partial ``_engines.html.j2`` reads."""
    if view is None:
        return None
    return {"engines": [r.key for r in view.engines], "common": view.common, "clauses": view.clauses,
            "agreement": view.agreement, "has_reference": any(r.name == REFERENCE for r in view.engines),
            "under_test": sum(1 for r in view.engines if is_engine_under_test(r))}
