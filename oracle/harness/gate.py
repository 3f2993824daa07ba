"""``--baseline FILE`` in CI: exit 1 only on a regression; ``--update-baseline`` writes the file.

The file format, its loader and the classification of statuses live in :mod:`oracle.baseline` (shared
with the report's regressions view); this module prints the comparison and chooses the exit code.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from ..baseline import (RANK, Baseline, BaselineError, StatusChange, Classification, classify, dropped_notes,
                        dump_baseline, load_baseline, locked, merged, run_statuses, write_baseline)
from ..model import Results
from ..text import printable

__all__ = ["RANK", "Baseline", "BaselineError", "Classification", "compare_baseline", "dump_baseline",
           "gate", "load_baseline", "report"]  # the file format: oracle.baseline (Expectation, write_baseline)

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


def compare_baseline(results: Results, baseline: Baseline) -> Classification:
    """The statuses of a run against the baseline."""
    return classify(run_statuses(results), baseline)


def report(cmp: Classification, stream: TextIO, baseline: Baseline | None = None) -> None:
    """The changes, one line each (case ids escaped: a broken file's raw id may hold control characters);
    the expected failures (with the baseline's reason and bug) are counted, newly passing cases listed."""
    cmp = Classification(*(tuple(StatusChange(printable(c.id), c.was, c.now) for c in part) for part in
                           (cmp.regressions, cmp.newly_passing, cmp.other_changes)), cmp.not_run, cmp.expected)
    for cid, was, now in cmp.regressions:
        print(f"REGRESSION {cid}: {now}" + (f" (baseline: {was})" if was else " (new case, not in the baseline)"),
              file=stream)
    for cid, was, _ in cmp.newly_passing:
        note = baseline.expectation(cid) if baseline is not None else None
        extra = f"; {printable(note.describe())}" if note is not None and (note.reason or note.bug) else ""
        print(f"newly passing {cid} (baseline: {was}{extra}); record it with --update-baseline", file=stream)
    for cid, was, now in cmp.other_changes:
        print(f"changed {cid}: {was} -> {now}", file=stream)
    print(f"baseline: {len(cmp.regressions)} regression(s), {len(cmp.expected)} expected failure(s), "
          f"{len(cmp.newly_passing)} newly passing, {len(cmp.not_run)} baseline case(s) not run", file=stream)


def gate(results: Results, baseline_path: str | Path | None, *, update: bool = False,
         stream: TextIO | None = None, allow_engine_change: bool = False) -> int:
    """The exit code of a run with ``--baseline``: 1 only on regressions; ``update`` writes the file."""
    stream = stream or sys.stdout
    if baseline_path is None:
        print("tcg-oracle: --update-baseline needs --baseline FILE (where to write it)", file=sys.stderr)
        return EXIT_USAGE
    path = Path(baseline_path)
    if update:
        return _update(results, path, stream, allow_engine_change)
    try:
        baseline = load_baseline(path)
    except BaselineError as exc:
        print(f"tcg-oracle: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if baseline.engine and baseline.engine != results.engine.name:
        print(f"warning: baseline {path} was recorded for engine {baseline.engine}, this run is "
              f"{results.engine.name}", file=sys.stderr)
    cmp = compare_baseline(results, baseline)
    report(cmp, stream, baseline)
    return EXIT_FAIL if cmp.regressions else EXIT_OK


def _update(results: Results, path: Path, stream: TextIO, allow_engine_change: bool) -> int:
    """``--update-baseline``: under the baseline's lock, read the file as it is on disk now (another run may
    have written it meanwhile), merge this run's statuses into it, write it. Another engine's baseline is
    refused (exit 2) unless ``allow_engine_change``: its statuses would be kept under this engine's name."""
    ran = run_statuses(results)
    try:
        with locked(path):
            keep = load_baseline(path) if path.exists() else None
            other = keep.engine if keep is not None and keep.engine else None
            if other and other != results.engine.name:
                if not allow_engine_change:
                    print(f"tcg-oracle: baseline {path} was recorded for engine {other}, this run is "
                          f"{results.engine.name}: not updated (its other cases would keep {other}'s statuses "
                          f"under {results.engine.name}'s name); give another --baseline FILE, or "
                          f"--allow-engine-change to relabel it", file=sys.stderr)
                    return EXIT_USAGE
                print(f"baseline {path}: relabelled from engine {other} to {results.engine.name} "
                      f"(--allow-engine-change)", file=stream)
            dropped = dropped_notes(keep, ran)
            write_baseline(merged(keep, ran, results.engine.name), path)
    except BaselineError as exc:
        print(f"tcg-oracle: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:
        print(f"tcg-oracle: cannot write baseline {path}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    kept = len(set(keep.cases) - set(ran)) if keep else 0
    print(f"baseline written: {path} ({len(ran)} case(s) of this run"
          + (f", {kept} kept from before: not in this run" if kept else "") + ")", file=stream)
    for cid in dropped:
        print(f"baseline: {printable(cid)} changed status: its reason/bug were dropped", file=stream)
    return EXIT_OK
