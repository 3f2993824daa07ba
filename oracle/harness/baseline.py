"""``--baseline FILE``: the expected status of each case for one engine (like WPT expectation files).

File (YAML, or JSON when the name ends in ``.json``)::

    schema_version: 1
    engine: my-engine          # the engine the statuses were recorded for
    cases:                     # case id -> expected status (pass | fail | error | skip)
      ijinden.qa.yoshimitsu-attack-plus: pass
      ijinden.d2.double-loss: fail

A *regression* is a case whose status is worse than its baseline (pass > skip > fail > error), or a case
missing from the baseline that fails or errs. Only regressions exit 1. Newly passing cases are listed
(record them with ``--update-baseline``). Cases of the baseline that this run did not run (another shard,
``-k``) are not regressions.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from ..model import SCHEMA_VERSION, STATUSES, Results

RANK = {"pass": 3, "skip": 2, "fail": 1, "error": 0}
EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


class BaselineError(ValueError):
    pass


@dataclass(frozen=True)
class Baseline:
    engine: str | None
    cases: dict[str, str]


@dataclass
class Comparison:
    regressions: list[tuple[str, str | None, str]] = field(default_factory=list)  # (id, was, now)
    newly_passing: list[tuple[str, str]] = field(default_factory=list)            # (id, was)
    other_changes: list[tuple[str, str, str]] = field(default_factory=list)       # improvements short of pass
    not_run: list[str] = field(default_factory=list)


def load_baseline(path: Path) -> Baseline:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BaselineError(f"baseline {path} does not exist; write it with --update-baseline") from None
    if path.suffix == ".json":
        data = json.loads(text)
    else:
        import yaml  # noqa: PLC0415

        data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    if not isinstance(data, dict) or not isinstance(data.get("cases"), dict):
        raise BaselineError(f"baseline {path}: expected a mapping with schema_version, engine and "
                            f"cases: {{case id: status}}")
    if data.get("schema_version", SCHEMA_VERSION) != SCHEMA_VERSION:
        raise BaselineError(f"baseline {path}: schema_version {data.get('schema_version')} is not {SCHEMA_VERSION}")
    bad = {k: v for k, v in data["cases"].items() if v not in STATUSES}
    if bad:
        k, v = next(iter(bad.items()))
        raise BaselineError(f"baseline {path}: case {k}: status {v!r} is not one of {', '.join(STATUSES)}")
    return Baseline(engine=data.get("engine"), cases={str(k): v for k, v in data["cases"].items()})


def dump_baseline(results: Results, path: Path) -> None:
    data: dict[str, Any] = {"schema_version": SCHEMA_VERSION, "engine": results.engine.name,
                            "cases": {c.id: c.status for c in results.cases}}
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".json":
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    else:
        import yaml  # noqa: PLC0415

        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


def compare_baseline(results: Results, baseline: Baseline) -> Comparison:
    out = Comparison()
    seen = set()
    for c in results.cases:
        seen.add(c.id)
        was = baseline.cases.get(c.id)
        now = c.status
        if was is None:
            if now in ("fail", "error"):
                out.regressions.append((c.id, None, now))
        elif RANK[now] < RANK[was]:
            out.regressions.append((c.id, was, now))
        elif now == "pass" and was != "pass":
            out.newly_passing.append((c.id, was))
        elif now != was:
            out.other_changes.append((c.id, was, now))
    out.not_run = [cid for cid in baseline.cases if cid not in seen]
    return out


def report(cmp: Comparison, stream: TextIO) -> None:
    for cid, was, now in cmp.regressions:
        print(f"REGRESSION {cid}: {now}" + (f" (baseline: {was})" if was else " (new case, not in the baseline)"),
              file=stream)
    for cid, was in cmp.newly_passing:
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
        dump_baseline(results, path)
        print(f"baseline written: {path} ({len(results.cases)} case(s))", file=stream)
        return EXIT_OK
    try:
        baseline = load_baseline(path)
    except (BaselineError, ValueError) as exc:
        print(f"tcg-oracle: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if baseline.engine and baseline.engine != results.engine.name:
        print(f"warning: baseline {path} was recorded for engine {baseline.engine}, this run is "
              f"{results.engine.name}", file=sys.stderr)
    cmp = compare_baseline(results, baseline)
    report(cmp, stream)
    return EXIT_FAIL if cmp.regressions else EXIT_OK
