"""``tcg-oracle merge RESULTS.json... --out FILE [--junit FILE] [--baseline FILE]``: join shards, or runs of
several engines, into one file; with ``--baseline``, gate the merged run (exit 1 only on regressions).

- Runs of one engine (same name and version) are joined into one :class:`Results`: each case once, in the
  order of the whole run (each result carries ``order``, its position in the selection before sharding;
  the case-file errors every shard repeats come first, once), counts recomputed, ``partial`` if any part
  was, ``started``/``finished`` spanning the parts, the command that of the whole run (the shards' commands
  without ``--shard``, when they agree). Merged shards equal the whole run but for timing, wherever each
  shard ran: results record no path of the machine (see :mod:`oracle.portable`).
- Runs of several engines are one results document too: the engines' cases one engine after the other,
  each case result naming its ``engine`` (the top-level ``engine`` lists the names, ``summary`` counts all);
  ``tcg-oracle report`` splits it back into columns, as does :func:`split_engines`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..errors import MergeError
from ..headline import headline
from ..limits import loads_json
from ..model import STATUSES, CaseResult, EngineInfo, Results, RunPart
from ..portable import without_shard
from ..outputs import write_json
from ..text import printable
from .shards import missing_shards, shard_of_command



def read_results(path: Path) -> list[Results]:
    """A results file: one results document (a JSON object: a run, shards merged, or a merge of several
    engines or editions). Anything else is refused with the file and what was found."""
    try:
        data = loads_json(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise MergeError(f"{path}: cannot read results: {exc}") from None
    if not isinstance(data, dict):
        found = "an empty list" if data == [] else f"a JSON {_json_type(data)}"
        raise MergeError(f"{path}: not a results file: its top level is {found}, not an object (a results file "
                         f"is one JSON object, as `tcg-oracle run --results` and `merge --out` write it; see "
                         f"`tcg-oracle schema results`)")
    try:
        return [Results.model_validate(data)]
    except ValidationError as exc:
        err = exc.errors()[0]
        raise MergeError(f"{path}: not a results file (field {'.'.join(map(str, err['loc']))}: {err['msg']}); "
                         f"see `tcg-oracle schema results`") from None


def _json_type(value: Any) -> str:
    return {list: "array", str: "string", bool: "boolean", int: "number", float: "number",
            type(None): "null"}.get(type(value), type(value).__name__)


def _key(c: CaseResult, seen: int) -> tuple[int, int, int]:
    return (1, c.order, seen) if c.order is not None else (0, seen, seen)


def _same_run_command(command: str | None) -> str | None:
    """What shards (and editions) of one run share: the command without ``--shard`` and ``--ruleset``."""
    from ..portable import without_option

    return without_option(without_shard(command), "--ruleset")


def _check_agree(runs: list[Results], names: list[str]) -> None:
    """Runs of one engine joined into one must be of one run: the same engine version, suite version and
    command (but for ``--shard`` and ``--ruleset``); a mix is refused naming the two files and the field."""
    first, fname = runs[0], names[0]
    fields = (("engine.version", lambda r: r.engine.version), ("suite_version", lambda r: r.suite_version),
              ("engine.level", lambda r: r.engine.level),
              ("command", lambda r: _same_run_command(r.command)))
    for run, name in zip(runs[1:], names[1:]):
        for label, get in fields:
            a, b = get(first), get(run)
            if label in ("command", "engine.level") and (a is None or b is None):
                continue  # a run through the API records no command
            if a != b:
                raise MergeError(
                    f"{fname} and {name} differ in {label} ({a!r} and {b!r}), both of engine "
                    f"{first.engine.name}: shards of one run must agree (runs of two versions are a history: give "
                    f"them to `tcg-oracle report`, not to merge)")


def _outcome(c: CaseResult) -> tuple[Any, ...]:
    return (c.status, c.error, c.order, c.divergence.message if c.divergence else None, c.skip_reason)


def merge_runs(runs: list[Results], names: list[str] | None = None) -> Results:
    """Runs of one engine (shards, or runs under several rulesets) -> the results of one whole run: each case
    once per edition it was played under (a skip because it does not hold for a ruleset is dropped when another
    edition played it), in the order of the whole run."""
    from ..editions import not_held

    names = names or [f"input {i + 1}" for i in range(len(runs))]
    _check_agree(runs, names)
    chosen: dict[tuple[Any, ...], tuple[CaseResult, str, int]] = {}
    for run, name in zip(runs, names):
        repeats: dict[tuple[Any, ...], int] = {}
        for c in run.cases:
            if c.order is None:  # a case-file error: every shard repeats it (possibly several per case id)
                k = (c.id, c.error)
                repeats[k] = repeats.get(k, 0) + 1
                key: tuple[Any, ...] = (*k, repeats[k])
            else:
                key = (c.id, c.ruleset)
            prev = chosen.get(key)
            if prev is None:
                chosen[key] = (c, name, len(chosen))
            elif _outcome(prev[0]) != _outcome(c):
                where = f" (edition {c.ruleset})" if c.ruleset else ""
                raise MergeError(f"case {c.id} is in {prev[1]} ({prev[0].status}) and in {name} ({c.status}){where} "
                                 f"with different outcomes; shards of one run hold each case once")
    played = {c.id for c, _, _ in chosen.values() if not not_held(c)}
    kept = [t for t in chosen.values() if not (not_held(t[0]) and t[0].id in played)]
    once: dict[str, tuple[CaseResult, str, int]] = {}  # a case no edition played: one skip
    for t in kept:
        if not_held(t[0]):
            once.setdefault(t[0].id, t)
    kept = [t for t in kept if not not_held(t[0]) or once[t[0].id] is t]
    cases = [c for c, _, n in sorted(kept, key=lambda t: _key(t[0], t[2]))]
    first = runs[0]
    rulesets = list(dict.fromkeys(r.ruleset for r in runs))
    parts: list[RunPart] = []
    if len(rulesets) > 1:  # several editions: each edition's run, with its own command
        for rs in rulesets:
            group = [r for r in runs if r.ruleset == rs]
            parts.append(RunPart(engine=first.engine, ruleset=rs, suite_version=first.suite_version,
                                 command=_command(group), started=min(r.started for r in group),
                                 finished=max((r.finished for r in group if r.finished), default=None),
                                 partial=any(r.partial for r in group)))
    return Results(engine=first.engine, ruleset=rulesets[0] if len(rulesets) == 1 else None,
                   suite_version=first.suite_version,
                   started=min(r.started for r in runs),
                   finished=max((r.finished for r in runs if r.finished), default=None),
                   partial=any(r.partial for r in runs), command=_command(runs) if len(rulesets) == 1 else None,
                   cases=cases, summary=Results.count(cases), parts=parts)


def _command(runs: list[Results]) -> str | None:
    """The command of the whole run: the parts' commands, each without its ``--shard I/N``, when they agree."""
    commands = {without_shard(r.command) for r in runs}
    return commands.pop() if len(commands) == 1 else None


def _parts(run: Results) -> list[RunPart]:
    """The runs a (merged) results document holds, each with its engine, edition and command."""
    if run.parts:
        return list(run.parts)
    return [RunPart(engine=run.engine, ruleset=run.ruleset, suite_version=run.suite_version, command=run.command,
                    started=run.started, finished=run.finished, partial=run.partial)]


def merge(runs: list[Results], names: list[str] | None = None) -> Results:
    """Any runs -> one :class:`Results`: shards (and editions) of an engine joined, engines one after the
    other, each engine's version and command kept in ``parts``."""
    names = names or [f"input {i + 1}" for i in range(len(runs))]
    groups: dict[str, list[tuple[Results, str]]] = {}
    for run, name in zip(runs, names):
        for part in split_engines(run):
            groups.setdefault(part.engine.name, []).append((part, name))
    per_engine = [merge_runs([r for r, _ in g], [n for _, n in g]) for g in groups.values()]
    if len(per_engine) == 1:
        return per_engine[0]
    cases = [c if c.engine else c.model_copy(update={"engine": r.engine.name}) for r in per_engine for c in r.cases]
    engine = EngineInfo(name=", ".join(dict.fromkeys(r.engine.name for r in per_engine)), version="merged")
    parts = [p for r in per_engine for p in _parts(r)]
    suites = {r.suite_version for r in per_engine}
    return Results(engine=engine, ruleset=None, suite_version=per_engine[0].suite_version if len(suites) == 1
                   else ", ".join(sorted(suites)),
                   started=min(r.started for r in per_engine),
                   finished=max((r.finished for r in per_engine if r.finished), default=None),
                   partial=any(r.partial for r in per_engine), command=None, cases=cases,
                   summary=Results.count(cases), parts=parts)


def split_engines(results: Results) -> list[Results]:
    """A results document -> one per engine (a merged file of several engines holds cases of each; its
    ``parts`` give each engine its own version, level, edition and command back)."""
    engines = list(dict.fromkeys(c.engine or results.engine.name for c in results.cases))
    if len(engines) <= 1 and not (results.parts and len({p.engine.name for p in results.parts}) > 1):
        return [results]
    out = []
    for name in engines:
        cases = [c for c in results.cases if (c.engine or results.engine.name) == name]
        parts = [p for p in results.parts if p.engine.name == name]
        level = next((c.level for c in cases if c.level), None)  # each case records its engine's level
        info = parts[0].engine if parts else EngineInfo(name=name, version=results.engine.version, level=level)
        rulesets = list(dict.fromkeys(p.ruleset for p in parts))
        out.append(results.model_copy(update={
            "engine": info, "cases": cases, "summary": Results.count(cases),
            "ruleset": rulesets[0] if len(rulesets) == 1 else None if parts else results.ruleset,
            "command": parts[0].command if len(parts) == 1 else None,
            "suite_version": parts[0].suite_version if parts else results.suite_version,
            "started": min(p.started for p in parts) if parts else results.started,
            "finished": max((p.finished for p in parts if p.finished), default=None) if parts else results.finished,
            "partial": any(p.partial for p in parts) if parts else results.partial,
            "parts": parts if len(parts) > 1 else []}))
    return out


def dump(results: Results) -> Any:
    return results.model_dump(mode="json", exclude_none=True)


def _missing(runs: list[Results]) -> str | None:
    """Shards missing from a run (per engine and edition); none when a whole run of it is among the inputs
    (its shards are then parts of it, not a partial run)."""
    groups: dict[tuple[str, str | None], list[str | None]] = {}
    for run in runs:
        for part in split_engines(run):
            for p in _parts(part):
                groups.setdefault((p.engine.name, p.ruleset), []).append(p.command)
    out = []
    for commands in groups.values():
        if any(shard_of_command(c) is None for c in commands):
            continue  # the whole run is there
        missing = missing_shards(commands)
        if missing:
            out.append(missing)
    return "; ".join(out) or None


def main(args: argparse.Namespace) -> int:
    runs: list[Results] = []
    names: list[str] = []
    try:
        for p in args.inputs:
            got = read_results(p)
            runs.extend(got)
            names.extend([str(p)] * len(got))
        merged = merge(runs, names)
    except MergeError as exc:
        print(f"tcg-oracle merge: {exc}", file=sys.stderr)
        return 2
    missing = _missing(runs)
    if missing:  # shard 1/2 alone must not look like the whole run
        print(f"tcg-oracle merge: warning: shards missing: {missing}; the merged results are partial",
              file=sys.stderr)
        merged = merged.model_copy(update={"partial": True, "aborted": f"shards missing: {missing}"})
    out = Path(args.out)
    try:
        write_json(out, dump(merged))
    except OSError as exc:
        print(f"tcg-oracle merge: cannot write {exc}", file=sys.stderr)
        return 2
    from ..editions import combined, editions_of

    for r in split_engines(merged):
        cases = combined(r.cases)  # one per case, over the editions it was played under
        s = Results.count(cases)
        eds = editions_of(r.cases)
        print(f"{printable(r.engine.name)}: {len(cases)} case(s)"
              + (f" over {len(eds)} editions ({len(r.cases)} results)" if len(eds) > 1 else "") + ", "
              + ", ".join(f"{s.get(k, 0)} {k}" for k in STATUSES if k in s or k != "not_checkable")
              + (f" (level {r.engine.level})" if r.engine.level else "")
              + (" (partial)" if r.partial else "")
              + f"; pass: {headline(s).text()}")
    print(f"merged {len(args.inputs)} file(s) into {out}")
    if getattr(args, "junit", None):  # with --baseline, its expected failures are no <failure> (as run writes them)
        from ..baseline import readable_baseline
        from .junit import write_junit

        write_junit(merged, Path(args.junit), baseline=readable_baseline(getattr(args, "baseline", None)))
    if getattr(args, "baseline", None):  # shards merged on a CI fleet: one gate for the whole run
        from .gate import gate

        code = gate(merged, args.baseline)
        return 1 if code == 0 and merged.partial else code
    return 0
