"""The regressions view: per engine column, the cases that regressed, newly pass, changed, or are in the
baseline but were not run. The file and the classification are :mod:`oracle.baseline`'s (the CI gate's),
so the report and the exit code agree.

A baseline applies to the engine it names; when it names none, or an engine this report does not show,
it applies to every engine shown (and the view says so).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from oracle.baseline import Baseline, BaselineError, classify, load_baseline

from .runs import EngineRun

__all__ = ["Baseline", "BaselineError", "EngineChange", "Diff", "diff", "resolve"]


def resolve(source: str | Path | Baseline) -> Baseline:
    """A baseline given as a path (read strictly) or already loaded."""
    if isinstance(source, Baseline):
        return source
    if isinstance(source, (str, Path)):
        return load_baseline(source)
    raise TypeError(f"a baseline is a path or an oracle.baseline.Baseline, not {type(source).__name__}")


@dataclass(frozen=True)
class EngineChange:
    """A case whose status in one engine's run (a report column) differs from the baseline."""

    engine: str  # the run's column key
    id: str
    game: str
    title: str
    was: str | None
    now: str | None  # None: not run


@dataclass
class Diff:
    baseline: Baseline
    applies_to: list[str]  # the run keys the baseline is compared with
    note: str              # which engines it applies to, and why
    regressions: list[EngineChange] = field(default_factory=list)
    fixed: list[EngineChange] = field(default_factory=list)
    changed: list[EngineChange] = field(default_factory=list)
    missing: list[EngineChange] = field(default_factory=list)
    expected_failures: list[EngineChange] = field(default_factory=list)
    """Fail or error, as the baseline expects (with its reason and bug: :meth:`expectation`)."""

    @property
    def empty(self) -> bool:
        return not (self.regressions or self.fixed or self.changed or self.missing)

    def expected_failure(self, engine: str, case_id: str, status: str) -> Any:
        """The baseline's entry (``oracle.baseline.Expectation``: status, reason, bug) when ``status`` is the
        fail or error it expects of the case in column ``engine``; else ``None``."""
        if engine not in self.applies_to:
            return None
        return self.baseline.expected_failure(case_id, status)

    def expected(self, engine: str, case_id: str) -> str | None:
        """The baseline's status of a case in the column ``engine`` (None where it does not apply)."""
        return self.baseline.cases.get(case_id) if engine in self.applies_to else None


def _scope(baseline: Baseline, runs: Sequence[EngineRun]) -> tuple[list[str], str]:
    named = [r.key for r in runs if r.name == baseline.engine]
    if baseline.engine is None:
        return [r.key for r in runs], "The baseline names no engine: it is applied to every engine shown."
    if not named:
        return [r.key for r in runs], (f"The baseline was recorded for engine {baseline.engine}, which this "
                                       f"report does not show: it is applied to every engine shown.")
    return named, f"The baseline was recorded for engine {baseline.engine} and is applied to it only."


def _change(run: EngineRun, cid: str, was: str | None, now: str | None) -> EngineChange:
    c = run.cases.get(cid)
    return EngineChange(run.key, cid, c.game if c else "", (c.title or "") if c else "", was, now)


def diff(baseline: Baseline, runs: Sequence[EngineRun]) -> Diff:
    """Each run the baseline applies to, classified by :func:`oracle.baseline.classify`."""
    keys, note = _scope(baseline, runs)
    out = Diff(baseline, keys, note)
    for run in runs:
        if run.key not in keys:
            continue
        cmp = classify({cid: c.status for cid, c in run.cases.items()}, baseline)
        out.regressions += [_change(run, *ch) for ch in cmp.regressions]
        out.fixed += [_change(run, *ch) for ch in cmp.newly_passing]
        out.changed += [_change(run, *ch) for ch in cmp.other_changes]
        out.missing += [_change(run, cid, baseline.cases[cid], None) for cid in sorted(cmp.not_run)]
        out.expected_failures += [_change(run, *ch) for ch in cmp.expected]
    return out
