"""The baseline file: the expected status of each case for one engine (like WPT expectation files).

File (YAML, or JSON when the name ends in ``.json``)::

    schema_version: 1
    engine: my-engine          # the engine the statuses were recorded for (may be left out)
    cases:                     # case id -> expected status (pass | fail | error | skip | not_checkable)
      ijinden.qa.yoshimitsu-attack-plus: pass
      ijinden.d2.double-pressure-blockers-destroyed-at-once: fail
      ijinden.resolution.graveyard-card-is-not-being-destroyed:  # or a mapping: status, why, the bug
        status: fail
        reason: "treats a card in the graveyard as being destroyed"
        bug: "https://example.org/my-engine/issues/12"

No other shape is read; a file of plain statuses reads as before. An entry's :class:`Expectation` carries
its ``reason`` and ``bug`` (shown by the terminal summary, the pytest plugin's xfail, JUnit and the report).

A *regression* is a case whose status is worse than its baseline (pass > skip > fail > error), or a case
missing from the baseline that fails or errs; a case failing (or erring) as its entry says is an *expected
failure*. Newly passing cases are listed (record them with ``--update-baseline``). Cases of the baseline
that were not run (another shard, ``-k``) are not regressions. The CI gate (:mod:`oracle.harness.gate`)
and the report's regressions view both classify with :func:`classify`.
"""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping, NamedTuple

import yaml

from .errors import BaselineError, YamlSyntaxError
from .limits import loads_json
from .model import SCHEMA_VERSION, STATUSES, Results
from .outputs import write_atomic
from .yamlfile import compose

RANK: dict[str, int] = {"pass": 3, "skip": 2, "not_checkable": 2, "fail": 1, "error": 0}
"""Statuses from best to worst; a status lower than the baseline's is a regression."""
BAD = ("fail", "error")
KEYS = ("schema_version", "engine", "cases")
ENTRY_KEYS = ("status", "reason", "bug")
HINT = "write it with --update-baseline"


@dataclass(frozen=True)
class Expectation:
    """One case's entry: its expected status, and (optional) why and the engine's bug tracking it."""

    status: str
    reason: str | None = None
    bug: str | None = None

    def describe(self) -> str:
        """``expected fail: REASON (BUG)`` -- how an expected status reads in a summary, JUnit, pytest."""
        why = ": " + self.reason if self.reason else ""
        return f"expected {self.status}{why}" + (f" ({self.bug})" if self.bug else "")


@dataclass(frozen=True)
class Baseline:
    engine: str | None
    cases: dict[str, str]  # case id -> expected status
    notes: dict[str, Expectation] = field(default_factory=dict)  # the entries written as a mapping

    def expectation(self, case_id: str) -> Expectation | None:
        """The case's entry (status, reason, bug), ``None`` when the baseline does not list it."""
        if case_id not in self.cases:
            return None
        return self.notes.get(case_id) or Expectation(self.cases[case_id])

    def expectations(self) -> dict[str, Expectation]:
        """Every entry, in the file's order."""
        return {cid: self.expectation(cid) for cid in self.cases}  # type: ignore[misc]

    def expected_failure(self, case_id: str, status: str) -> Expectation | None:
        """The entry when ``status`` (fail or error) is what the baseline expects of the case, else ``None``."""
        exp = self.expectation(case_id)
        return exp if exp is not None and status in BAD and exp.status == status else None


class StatusChange(NamedTuple):
    """A case whose status in a run differs from the baseline's."""

    id: str
    was: str | None  # the baseline's status; None: not in the baseline
    now: str


@dataclass(frozen=True)
class Classification:
    regressions: tuple[StatusChange, ...] = ()    # worse than the baseline, or not in it and fail/error
    newly_passing: tuple[StatusChange, ...] = ()  # pass now, something else in the baseline
    other_changes: tuple[StatusChange, ...] = ()  # any other difference (e.g. fail -> skip)
    not_run: tuple[str, ...] = ()           # in the baseline, not among the statuses (not regressions)
    expected: tuple[StatusChange, ...] = ()  # fail or error, as the baseline expects (expected failures)


def run_statuses(results: Results) -> dict[str, str]:
    """Case id -> status of a run, in run order; the worst status where an id repeats (a case file
    that failed to load is reported once per case it might have held)."""
    out: dict[str, str] = {}
    for c in results.cases:
        if c.id not in out or RANK[c.status] < RANK[out[c.id]]:
            out[c.id] = c.status
    return out


def classify(statuses: Mapping[str, str], baseline: Baseline) -> Classification:
    """Statuses (case id -> status, in run order) against the baseline."""
    regressions: list[StatusChange] = []
    newly: list[StatusChange] = []
    other: list[StatusChange] = []
    expected: list[StatusChange] = []
    for cid, now in statuses.items():
        was = baseline.cases.get(cid)
        if was is None:
            if now in BAD:
                regressions.append(StatusChange(cid, None, now))
        elif RANK[now] < RANK[was]:
            regressions.append(StatusChange(cid, was, now))
        elif now == "pass" and was != "pass":
            newly.append(StatusChange(cid, was, now))
        elif now != was:
            other.append(StatusChange(cid, was, now))
        elif now in BAD:
            expected.append(StatusChange(cid, was, now))
    not_run = tuple(cid for cid in baseline.cases if cid not in statuses)
    return Classification(tuple(regressions), tuple(newly), tuple(other), not_run, tuple(expected))


# --------------------------------------------------------------------------------------------
# reading and writing


def load_baseline(path: str | Path) -> Baseline:
    """Read a baseline file strictly: the documented shape only; every error names the file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BaselineError(f"baseline {path} does not exist; {HINT}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BaselineError(f"baseline {path}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    if path.suffix == ".json":
        try:
            data = loads_json(text)
        except json.JSONDecodeError as exc:
            raise BaselineError(f"baseline {path}:{exc.lineno}: JSON syntax error: {exc.msg} "
                                f"(column {exc.colno})") from None
        except ValueError as exc:  # past the nesting limit
            raise BaselineError(f"baseline {path}: {exc}") from None
        lines: dict[str, int] = {}
    else:
        data, lines = _load_yaml(text, path)
    return _validate(data, path, lines)


def readable_baseline(path: str | Path | None) -> Baseline | None:
    """The baseline at ``path`` as it reads now, for showing expected failures (JUnit, the summary); ``None``
    when there is none or it cannot be read (the gate says why)."""
    if not path or not Path(path).is_file():
        return None
    try:
        return load_baseline(path)
    except BaselineError:
        return None


def _load_yaml(text: str, path: Path) -> tuple[Any, dict[str, int]]:
    """The document, and the line of each case id under ``cases`` (from the node marks)."""
    try:
        data, node = compose(text)
    except YamlSyntaxError as exc:
        where = f"{path}:{exc.line}" if exc.line else str(path)
        raise BaselineError(f"baseline {where}: {exc.message}") from None
    lines: dict[str, int] = {}
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if key.value == "cases" and isinstance(value, yaml.MappingNode):
                for k, _ in value.value:
                    if str(k.value) in lines:
                        raise BaselineError(f"baseline {path}:{k.start_mark.line + 1}: case {k.value} is "
                                            f"listed twice (first at line {lines[str(k.value)]})")
                    lines[str(k.value)] = k.start_mark.line + 1
    return data, lines


def _validate(data: Any, path: Path, lines: Mapping[str, int]) -> Baseline:
    shape = "expected a mapping of schema_version, engine and cases: {case id: status}"
    if not isinstance(data, dict):
        raise BaselineError(f"baseline {path}: {shape}, got {type(data).__name__}")
    unknown = [str(k) for k in data if k not in KEYS]
    if unknown:
        raise BaselineError(f"baseline {path}: unknown key(s) {', '.join(unknown)}; {shape}")
    version = data.get("schema_version")
    if type(version) is not int or version != SCHEMA_VERSION:
        raise BaselineError(f"baseline {path}: schema_version is {version!r}, expected {SCHEMA_VERSION}")
    engine = data.get("engine")
    if engine is not None and not isinstance(engine, str):
        raise BaselineError(f"baseline {path}: engine must be an engine name, got {engine!r}")
    cases = data.get("cases")
    if not isinstance(cases, dict):
        raise BaselineError(f"baseline {path}: cases must be a mapping of case id to status, "
                            f"got {type(cases).__name__}")
    statuses: dict[str, str] = {}
    notes: dict[str, Expectation] = {}
    for cid, entry in cases.items():
        where = f"{path}:{lines[str(cid)]}" if str(cid) in lines else str(path)
        if not isinstance(cid, str):
            raise BaselineError(f"baseline {where}: case id {cid!r} is not a string")
        if isinstance(entry, dict):
            notes[cid] = _entry(entry, where, cid)
            status = notes[cid].status
        else:
            status = entry
        if status not in STATUSES:
            raise BaselineError(f"baseline {where}: case {cid}: status {status!r} is not one of "
                                f"{', '.join(STATUSES)}")
        statuses[cid] = status
    return Baseline(engine=engine, cases=statuses, notes=notes)


def _entry(entry: dict[Any, Any], where: str, cid: str) -> Expectation:
    """A case's entry written as a mapping: ``{status: fail, reason: "...", bug: "https://..."}``."""
    unknown = [str(k) for k in entry if k not in ENTRY_KEYS]
    if unknown:
        raise BaselineError(f"baseline {where}: case {cid}: unknown key(s) {', '.join(unknown)}; an entry is a "
                            f"status or a mapping of {', '.join(ENTRY_KEYS)}")
    if "status" not in entry:
        raise BaselineError(f"baseline {where}: case {cid}: the entry has no status")
    for key in ("reason", "bug"):
        value = entry.get(key)
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise BaselineError(f"baseline {where}: case {cid}: {key} must be a non-empty string, got {value!r}")
    status = entry["status"]
    return Expectation(status if isinstance(status, str) else repr(status), entry.get("reason"), entry.get("bug"))


def dump_baseline(results: Results, path: str | Path, keep: Baseline | None = None) -> Path:
    """Record the statuses of a run (the worst one where a case id repeats) as a baseline file. With
    ``keep`` (the baseline as it was), only the cases the run included are updated: a run of a subset
    (``-k``, ``--shard``, ``--game``) keeps the others' entries, in their order. An entry's reason and bug
    are kept while its status stays; a case whose status changed is written as a plain status."""
    path = Path(path)
    return write_baseline(merged(keep, run_statuses(results), results.engine.name), path)


def merged(keep: Baseline | None, statuses: Mapping[str, str], engine: str | None) -> Baseline:
    """``keep`` with the statuses of a run: its entries updated (notes kept where the status is unchanged),
    new cases appended."""
    cases = dict(keep.cases) if keep is not None else {}
    notes = dict(keep.notes) if keep is not None else {}
    for cid, now in statuses.items():
        if cases.get(cid) != now:
            notes.pop(cid, None)
        cases[cid] = now
    return Baseline(engine=engine, cases=cases, notes=notes)


def dropped_notes(keep: Baseline | None, statuses: Mapping[str, str]) -> list[str]:
    """The cases whose reason or bug an update drops: their status changed."""
    if keep is None:
        return []
    return [cid for cid, now in statuses.items() if cid in keep.notes and keep.cases[cid] != now]


def write_baseline(baseline: Baseline, path: str | Path) -> Path:
    """Write the file (YAML, or JSON for ``.json``): plain statuses, a mapping where an entry has notes."""
    path = Path(path)
    cases: dict[str, Any] = {}
    for cid, status in baseline.cases.items():
        note = baseline.notes.get(cid)
        if note is None or (note.reason is None and note.bug is None):
            cases[cid] = status
        else:
            cases[cid] = {k: v for k, v in (("status", status), ("reason", note.reason), ("bug", note.bug))
                          if v is not None}
    data: dict[str, Any] = {"schema_version": SCHEMA_VERSION, "engine": baseline.engine, "cases": cases}
    if path.suffix == ".json":
        return write_atomic(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    return write_atomic(path, yaml.safe_dump(data, sort_keys=False, allow_unicode=True))


@contextmanager
def locked(path: str | Path) -> Iterator[None]:
    """An exclusive lock for updating the baseline ``path``, held on its folder (no lock file is left
    behind): two ``--update-baseline`` runs at once take turns, each merging into what the other wrote.
    Without ``fcntl`` (Windows) there is no lock."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on POSIX
        yield
        return
    folder = Path(path).resolve().parent
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
