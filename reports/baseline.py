"""Baselines for the regressions view: case id -> expected status, for every engine or per engine.

Tolerant of the shapes a baseline may take (YAML or JSON):

- ``{case_id: status}`` (one engine, or every engine);
- ``{engine: {case_id: status}}`` or ``{case_id: {engine: status}}``;
- ``{case_id: {status: s}}``, a list of ``{id, status, engine?}``;
- any of these under a top-level ``cases``, ``expected``, ``statuses``, ``engines`` or ``baseline`` key
  (``schema_version`` and other metadata are ignored).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

import yaml

from oracle.model import STATUSES

ANY_ENGINE = "*"
_WRAPPERS = ("cases", "expected", "statuses", "engines", "baseline", "expectations")
BAD = ("fail", "error")
try:  # the gate's order of statuses, so that the report and the exit code agree
    from oracle.harness.baseline import RANK
except ImportError:  # pragma: no cover
    RANK = {"pass": 3, "skip": 2, "fail": 1, "error": 0}


class BaselineError(ValueError):
    pass


Baseline = dict[str, dict[str, str]]
"""engine (or ``*``) -> case id -> expected status."""


def load_baseline(source: Any, engines: Iterable[str] = ()) -> Baseline:
    """Read a baseline from a path (YAML or JSON) or take an already-loaded mapping."""
    data = source
    if isinstance(source, (str, Path)):
        path = Path(source)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise BaselineError(f"baseline {path}: cannot read: {exc}") from None
        try:
            data = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
        except (ValueError, yaml.YAMLError) as exc:
            raise BaselineError(f"baseline {path}: not valid YAML/JSON: {exc}") from None
    return normalize(data, set(engines))


def _status(v: Any) -> str | None:
    if isinstance(v, str) and v.lower() in STATUSES:
        return v.lower()
    if isinstance(v, Mapping):
        return _status(v.get("status") or v.get("expected"))
    return None


def normalize(data: Any, engines: set[str] = frozenset()) -> Baseline:  # type: ignore[assignment]
    out: Baseline = {}
    if data is None:
        return out
    if isinstance(data, list):
        for item in data:
            if isinstance(item, Mapping) and "id" in item and _status(item):
                out.setdefault(str(item.get("engine") or ANY_ENGINE), {})[str(item["id"])] = _status(item)  # type: ignore[index]
        return out
    if not isinstance(data, Mapping):
        raise BaselineError(f"a baseline is a mapping of case id to status, got {type(data).__name__}")
    for key in _WRAPPERS:
        if isinstance(data.get(key), (Mapping, list)):
            inner = normalize(data[key], engines)
            if key != "engines" and isinstance(data.get("engine"), (str, Mapping)) and ANY_ENGINE in inner:
                name = data["engine"] if isinstance(data["engine"], str) else data["engine"].get("name")
                inner = {str(name): inner.pop(ANY_ENGINE), **inner}
            return inner
    for k, v in data.items():
        if k in ("schema_version", "engine", "suite_version", "created", "command", "ruleset"):
            continue
        status = _status(v)
        if status:
            out.setdefault(ANY_ENGINE, {})[str(k)] = status
        elif isinstance(v, Mapping):
            inner = {str(ik): st for ik, iv in v.items() if (st := _status(iv))}
            keys = set(inner)
            # engine -> {case: status} or case -> {engine: status}: known engine names decide; else
            # dotted inner keys look like case ids (ijinden.qa.x), plain ones like engine names.
            engine_first = str(k) in engines or (not keys & engines and any("." in i for i in keys))
            if engine_first:
                out.setdefault(str(k), {}).update(inner)
            else:
                for engine, st in inner.items():
                    out.setdefault(engine, {})[str(k)] = st
    return out


def expected_status(baseline: Baseline, engine: str, case_id: str) -> str | None:
    per = baseline.get(engine)
    if per is not None and case_id in per:
        return per[case_id]
    return baseline.get(ANY_ENGINE, {}).get(case_id)


@dataclass
class Change:
    engine: str
    id: str
    game: str
    title: str
    was: str | None
    now: str | None


@dataclass
class Diff:
    regressions: list[Change] = field(default_factory=list)
    fixed: list[Change] = field(default_factory=list)
    changed: list[Change] = field(default_factory=list)
    missing: list[Change] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.regressions or self.fixed or self.changed or self.missing)


def diff(baseline: Baseline, engines: Mapping[str, Mapping[str, Any]]) -> Diff:
    """Compare statuses (engine -> case id -> CaseResult) with the baseline, as the gate does
    (:mod:`oracle.harness.baseline`): a regression is a status worse than the baseline's
    (pass > skip > fail > error), or a case the baseline does not list that fails or errs."""
    if len(baseline) == 1 and not set(baseline) & {*engines, ANY_ENGINE}:
        # a baseline recorded under another engine name: it is the expectation of whatever ran
        baseline = {ANY_ENGINE: next(iter(baseline.values()))}
    out = Diff()
    for engine, cases in engines.items():
        for cid, res in cases.items():
            was = expected_status(baseline, engine, cid)
            now = res.status
            ch = Change(engine, cid, res.game, res.title or "", was, now)
            if (was is None and now in BAD) or (was is not None and RANK[now] < RANK[was]):
                out.regressions.append(ch)
            elif was is not None and now == "pass" and was != "pass":
                out.fixed.append(ch)
            elif was is not None and was != now:
                out.changed.append(ch)
        listed = set(baseline.get(engine, {})) | set(baseline.get(ANY_ENGINE, {}))
        for cid in sorted(listed - set(cases)):
            out.missing.append(Change(engine, cid, "", "", expected_status(baseline, engine, cid), None))
    return out
