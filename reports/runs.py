"""Results files -> engine runs side by side.

Each :class:`~oracle.model.Results` is one engine run; a merged file may hold several engines (each
case result names its engine), and shards of one engine join into one column. Two different runs that
share an engine name and case ids (e.g. two runs of ``reference``), or are of two versions of an engine,
get distinct columns (and the report's history view, :mod:`.history`).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Any, Iterable

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


def split_runs(results: Iterable[Results]) -> list[EngineRun]:
    runs: dict[str, EngineRun] = {}
    owner: dict[str, int] = {}  # run key -> id() of the Results it first came from
    for res in results:
        by_engine: dict[str, list[CaseResult]] = {}
        for c in res.cases:
            by_engine.setdefault(c.engine or res.engine.name, []).append(c)
        if not by_engine:
            by_engine[res.engine.name] = []
        for name, cases in by_engine.items():
            key, n = name, 1
            version = res.engine.version if name == res.engine.name else "?"
            while key in runs and owner[key] != id(res) and (set(runs[key].cases) & {c.id for c in cases}
                                                             or runs[key].version != version):
                n += 1
                key = f"{name} ({n})"
            run = runs.get(key)
            if run is None:
                run = runs[key] = EngineRun(key=key, name=name, version=version,
                                            spec=engine_spec(name, res.command), started=res.started,
                                            finished=res.finished, ruleset=res.ruleset,
                                            level=res.engine.level if name == res.engine.name else None,
                                            reason_codes=res.engine.reason_codes if name == res.engine.name
                                            else None)
                owner[key] = id(res)
            run.partial = run.partial or res.partial
            if res.command and res.command not in run.commands:
                run.commands.append(res.command)
            if res.finished and (run.finished or "") < res.finished:
                run.finished = res.finished
            for c in cases:
                run.cases[c.id] = c
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
