"""The history view: one engine's runs at several versions (or dates), oldest first.

A regression gate says *what* broke; the history says *since when*. Given several results of one engine
(the same engine name, different versions or start times), the view shows, per version, the pass rate
of each game (a table, and an inline SVG chart: no fetch, nothing the report's Content-Security-Policy
has to allow), and the cases whose status changed between consecutive versions, each with the first
version of the failing streak it is in ("failing since"). Failing means ``fail`` or ``error``: what a
baseline gate calls a regression.

Versions are ordered by their number (``1.10`` after ``1.9``), then by start time; runs of one version
are told apart by their date.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from .runs import EngineRun, summary

FAILING = ("fail", "error")
CHART_W, CHART_H, PAD_L, PAD_R, PAD_T, PAD_B = 520, 200, 44, 16, 14, 40


@dataclass(frozen=True)
class Point:
    """One version of the engine: its column in the report, its label, pass rate per game (None: no case
    of the game was run)."""

    key: str
    label: str
    started: str | None
    rates: dict[str, float | None]
    totals: dict[str, int]


@dataclass(frozen=True)
class VersionChange:
    """A case whose status changed from one version of the engine to the next."""

    id: str
    game: str
    title: str
    at: str            # the version where the status changed
    was: str | None    # None: not run in the version before
    now: str | None    # None: not run in this version
    since: str | None  # failing now: the first version of its failing streak


@dataclass
class History:
    engine: str
    games: list[str]
    points: list[Point]
    changes: list[VersionChange] = field(default_factory=list)
    failing: list[tuple[str, str, str, str, str]] = field(default_factory=list)  # in the latest: id, game, title, status, since
    chart: dict[str, Any] = field(default_factory=dict)

    @property
    def started_failing(self) -> list[VersionChange]:
        """Changes from not failing to failing: where each regression first appeared."""
        return [c for c in self.changes if c.now in FAILING and c.was not in FAILING]


def _version_key(version: str) -> tuple[tuple[int, Any], ...]:
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in re.findall(r"\d+|[^\d.\-+_ ]+", version))


def _label(run: EngineRun, same_version: bool) -> str:
    when = (run.started or "")[:19].replace("T", " ")
    if same_version:
        return when or run.key
    return run.version if run.version not in ("", "?") else when or run.key


def histories(runs: list[EngineRun], games: list[str]) -> list[History]:
    """One history per engine name shown at two or more versions (or dates)."""
    by_name: dict[str, list[EngineRun]] = {}
    for run in runs:
        by_name.setdefault(run.name, []).append(run)
    out = []
    for name, group in by_name.items():
        if len(group) < 2:
            continue
        group = sorted(group, key=lambda r: (_version_key(r.version), r.started or ""))
        out.append(_history(name, group, games))
    return out


def _history(name: str, group: list[EngineRun], games: list[str]) -> History:
    same_version = len({r.version for r in group}) == 1
    labels = [_label(r, same_version) for r in group]
    seen: dict[str, int] = {}
    for i, lab in enumerate(labels):  # two runs with one label: number them
        if lab in seen:
            labels[i] = f"{lab} ({seen[lab] + 1})"
        seen[lab] = seen.get(lab, 0) + 1
    played = [g for g in games if any(c.game == g for r in group for c in r.cases.values())]
    points = []
    for run, label in zip(group, labels):
        rows = {row["game"]: row["cells"][0] for row in summary([run], played)}
        points.append(Point(run.key, label, run.started,
                            {g: rows[g]["pass_rate"] if rows[g]["run"] else None
                             for g in played},
                            {g: rows[g]["total"] for g in played}))
    hist = History(name, played, points)

    ids: list[str] = list(dict.fromkeys(cid for r in group for cid in r.cases))
    since: dict[str, str] = {cid: labels[0] for cid, c in group[0].cases.items() if c.status in FAILING}
    for (before, after), label in zip(zip(group, group[1:]), labels[1:]):
        for cid in ids:
            a, b = before.cases.get(cid), after.cases.get(cid)
            was, now = (a.status if a else None), (b.status if b else None)
            if was == now:
                continue
            if now in FAILING:
                if was not in FAILING:
                    since[cid] = label
            else:
                since.pop(cid, None)
            some = b or a
            hist.changes.append(VersionChange(cid, some.game, some.title or "", label, was, now, since.get(cid)))
    last = group[-1]
    hist.failing = [(cid, c.game, c.title or "", c.status, since.get(cid, "")) for cid, c in last.cases.items()
                    if c.status in FAILING]
    hist.chart = _chart(hist)
    return hist


def _chart(hist: History) -> dict[str, Any]:
    """Coordinates for the inline SVG: one line per game, pass rate against version; the rate axis runs
    from 100 % down to the ten below the lowest rate shown (0 % when it is under 10 %)."""
    n = len(hist.points)
    inner_w, inner_h = CHART_W - PAD_L - PAD_R, CHART_H - PAD_T - PAD_B

    def x(i: int) -> float:
        return round(PAD_L + (inner_w * i / (n - 1) if n > 1 else inner_w / 2), 1)

    rates = [r for p in hist.points for r in p.rates.values() if r is not None]
    low = max(0, min(90, math.floor((min(rates, default=0) - 1) / 10) * 10))  # small drops stay visible

    def y(rate: float) -> float:
        return round(PAD_T + inner_h * (100 - rate) / (100 - low), 1)

    lines = []
    for k, g in enumerate(hist.games):
        pts = [(x(i), y(p.rates[g]), p.label, p.rates[g]) for i, p in enumerate(hist.points) if p.rates[g] is not None]
        lines.append({"game": g, "n": k % 6, "points": pts,
                      "path": " ".join(f"{px},{py}" for px, py, _, _ in pts)})
    return {"w": CHART_W, "h": CHART_H, "left": PAD_L, "right": CHART_W - PAD_R, "top": PAD_T,
            "bottom": CHART_H - PAD_B,
            "grid": [(f"{r:g}", y(r)) for r in (low + (100 - low) * k / 4 for k in range(5))],
            "xs": [(x(i), p.label) for i, p in enumerate(hist.points)], "lines": lines}
