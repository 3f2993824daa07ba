"""Results files -> engine runs side by side.

Each :class:`~oracle.model.Results` is one engine run; a merged file may hold several engines (each
case result names its engine), and shards of one engine join into one column. Two different runs that
share an engine name and case ids (e.g. two runs of ``reference``), or are of two versions of an engine,
get distinct columns (and the report's history view, :mod:`.history`).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from oracle.editions import editions_of, not_held, worst
from oracle.headline import headline
from oracle.model import STATUSES, CaseResult, Results


@dataclass
class EngineRun:
    key: str
    name: str
    version: str
    spec: str
    partial: bool = False
    started: str | None = None
    finished: str | None = None
    ruleset: str | None = None
    level: str | None = None
    reason_codes: bool | None = None
    commands: list[str] = field(default_factory=list)
    cases: dict[str, CaseResult] = field(default_factory=dict)
    """One result per case: the worst over the editions it was played under (:mod:`oracle.editions`)."""
    editions: dict[str, dict[str | None, CaseResult]] = field(default_factory=dict)
    """Case id -> edition -> result (a case played under one edition has one)."""
    requested: set[str | None] = field(default_factory=set)
    """The ``--ruleset`` of each results file joined (``None``: each case under its default edition)."""

    def add(self, c: CaseResult) -> None:
        """A result of this run: a case's first, or its result under another edition."""
        eds = self.editions.setdefault(c.id, {})
        if not_held(c):
            if eds:
                return
        elif eds and all(not_held(x) for x in eds.values()):
            eds.clear()
        elif c.ruleset in eds:  # the same case under the same edition in two runs joined: the first
            return
        eds[c.ruleset] = c
        self.cases[c.id] = worst(eds.values())

    def results(self) -> Iterator[CaseResult]:
        """Every result, each case under each of its editions."""
        for eds in self.editions.values():
            yield from eds.values()

    @property
    def rulesets(self) -> list[str]:
        """The editions this run played (in order of appearance)."""
        return editions_of(self.results())

    def counts(self, game: str | None = None) -> dict[str, int]:
        out = {s: 0 for s in STATUSES}
        for c in self.cases.values():
            if game is None or c.game == game:
                out[c.status] += 1
        return out


    def checking(self) -> dict[str, int]:
        """How much of its cases the engine's observation level let the suite check: ``full`` (pass or fail
        with nothing left unchecked), ``partly`` (pass or fail, something unchecked), ``none``
        (not checkable)."""
        out = {"full": 0, "partly": 0, "none": 0}
        for c in self.cases.values():
            if c.status == "not_checkable":
                out["none"] += 1
            elif c.status in ("pass", "fail"):
                out["partly" if c.unchecked else "full"] += 1
        return out


def engine_spec(name: str, command: str | None) -> str:
    """The ``--engine`` SPEC that reproduces a run: from its command line when recorded."""
    if command:
        try:
            argv = shlex.split(command)
        except ValueError:
            argv = command.split()
        for i, a in enumerate(argv):
            if a == "--engine" and i + 1 < len(argv):
                return argv[i + 1]
            if a.startswith("--engine="):
                return a.split("=", 1)[1]
        if "run" in argv:
            return "reference"
    return name


def _played(cases: Iterable[CaseResult]) -> set[tuple[str, str | None]]:
    """(case id, edition) of the results that are the case's own (not a not-held skip)."""
    return {(c.id, c.ruleset) for c in cases if not not_held(c)}


def split_runs(results: Iterable[Results]) -> list[EngineRun]:
    """Engine runs, one column each. Results of one engine at one version join one column when they are runs
    under different rulesets (a case skipped under one ruleset and played under another is one case with its
    per-edition results; a case both played under the same edition: the first result), or hold no case under the
    same edition twice (shards); otherwise (two runs of one engine, at two versions or two dates) each gets its
    own column and the report draws their history."""
    runs: dict[str, EngineRun] = {}
    owner: dict[str, int] = {}  # run key -> id() of the Results it first came from
    for res in results:
        by_engine: dict[str, list[CaseResult]] = {}
        for c in res.cases:
            by_engine.setdefault(c.engine or res.engine.name, []).append(c)
        if not by_engine:
            by_engine[res.engine.name] = []
        parts = {p.engine.name: p for p in res.parts}
        for name, cases in by_engine.items():
            key, n = name, 1
            part = [p for p in res.parts if p.engine.name == name]
            info = part[0].engine if part else res.engine if name == res.engine.name else None
            version = info.version if info is not None else "?"
            commands = [p.command for p in part if p.command] if part else [res.command] if res.command else []
            while key in runs and owner[key] != id(res) and (runs[key].version != version or (
                    res.ruleset in runs[key].requested and _played(runs[key].results()) & _played(cases))):
                n += 1
                key = f"{name} ({n})"
            run = runs.get(key)
            if run is None:
                run = runs[key] = EngineRun(key=key, name=name, version=version,
                                            spec=engine_spec(name, commands[0] if commands else None),
                                            started=part[0].started if part else res.started,
                                            finished=res.finished, ruleset=res.ruleset if not part else
                                            (parts[name].ruleset if len(part) == 1 else None),
                                            level=info.level if info is not None else None,
                                            reason_codes=info.reason_codes if info is not None else None)
                owner[key] = id(res)
            else:
                owner[key] = id(res)
                if run.ruleset != res.ruleset:
                    run.ruleset = None  # several editions: each result names its own
            run.requested.add(res.ruleset)
            run.partial = run.partial or res.partial or any(p.partial for p in part)
            for cmd in commands:
                if cmd not in run.commands:
                    run.commands.append(cmd)
            if res.finished and (run.finished or "") < res.finished:
                run.finished = res.finished
            for c in cases:
                run.add(c)
                run.level = run.level or c.level
    return list(runs.values())


def rate(part: int, whole: int) -> float:
    return 100.0 * part / whole if whole else 0.0


def summary(runs: list[EngineRun], games: list[str]) -> list[dict[str, Any]]:
    """Rows per game (and ``all``): for each engine, counts per status, total, the cases run (neither skipped
    nor not checkable at the engine's level), the pass rate of those, and the headline that says both."""
    rows = []
    for game in [*games, None]:
        cells = []
        for run in runs:
            counts = run.counts(game)
            total = sum(counts.values())
            head = headline(counts)
            cells.append({"counts": counts, "total": total, "pass_rate": rate(counts["pass"], head.run),
                          "run": head.run, "headline": head.text(),
                          "widths": {s: rate(counts[s], total) for s in STATUSES}})
        rows.append({"game": game or "all", "cells": cells})
    return rows
