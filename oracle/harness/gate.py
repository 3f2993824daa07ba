"""``--baseline FILE`` in CI: exit 1 only on a regression; ``--update-baseline`` writes the file.

The file format, its loader and the classification of statuses live in :mod:`oracle.baseline` (shared
with the report's regressions view); this module prints the comparison and chooses the exit code.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from ..baseline import (RANK, Baseline, BaselineError, StatusChange, Classification, classify, dump_baseline,
                        load_baseline, run_statuses)
from ..model import Results
from ..text import printable

__all__ = ["RANK", "Baseline", "BaselineError", "Classification", "compare_baseline", "dump_baseline",
           "gate", "load_baseline", "report"]

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


def compare_baseline(results: Results, baseline: Baseline) -> Classification:
    """The statuses of a run against the baseline."""
    return classify(run_statuses(results), baseline)


def report(cmp: Classification, stream: TextIO) -> None:
    """The changes, one line each (case ids escaped: a broken file's raw id may hold control characters)."""
    cmp = Classification(*(tuple(StatusChange(printable(c.id), c.was, c.now) for c in part) for part in
                           (cmp.regressions, cmp.newly_passing, cmp.other_changes)), cmp.not_run)
    for cid, was, now in cmp.regressions:
        print(f"REGRESSION {cid}: {now}" + (f" (baseline: {was})" if was else " (new case, not in the baseline)"),
              file=stream)
    for cid, was, _ in cmp.newly_passing:
        print(f"newly passing {cid} (baseline: {was}); record it with --update-baseline", file=stream)
    for cid, was, now in cmp.other_changes:
        print(f"changed {cid}: {was} -> {now}", file=stream)
    print(f"baseline: {len(cmp.regressions)} regression(s), {len(cmp.newly_passing)} newly passing, "
          f"{len(cmp.not_run)} baseline case(s) not run", file=stream)


def gate(results: Results, baseline_path: str | Path | None, *, update: bool = False,
         stream: TextIO | None = None) -> int:
    """The exit code of a run with ``--baseline``: 1 only on regressions; ``update`` writes the file."""
    stream = stream or sys.stdout
    if baseline_path is None:
        print("tcg-oracle: --update-baseline needs --baseline FILE (where to write it)", file=sys.stderr)
        return EXIT_USAGE
    path = Path(baseline_path)
    if update:
        try:
            keep = load_baseline(path) if path.exists() else None
        except BaselineError as exc:
            print(f"tcg-oracle: {exc}", file=sys.stderr)
            return EXIT_USAGE
        try:
            dump_baseline(results, path, keep=keep)
        except OSError as exc:
            print(f"tcg-oracle: cannot write baseline {path}: {exc.strerror or exc}", file=sys.stderr)
            return EXIT_USAGE
        ran = run_statuses(results)
        kept = len(set(keep.cases) - set(ran)) if keep else 0
        print(f"baseline written: {path} ({len(ran)} case(s) of this run"
              + (f", {kept} kept from before: not in this run" if kept else "") + ")", file=stream)
        return EXIT_OK
    try:
        baseline = load_baseline(path)
    except BaselineError as exc:
        print(f"tcg-oracle: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if baseline.engine and baseline.engine != results.engine.name:
        print(f"warning: baseline {path} was recorded for engine {baseline.engine}, this run is "
              f"{results.engine.name}", file=sys.stderr)
    cmp = compare_baseline(results, baseline)
    report(cmp, stream)
    return EXIT_FAIL if cmp.regressions else EXIT_OK
