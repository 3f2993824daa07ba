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
from ..model import STATUSES, CaseResult, EngineInfo, Results
from ..outputs import write_json
from ..text import printable
from .shards import missing_shards



def read_results(path: Path) -> list[Results]:
    """A results file: one results document, or a list of them (a merge of several engines)."""
    try:
        data = loads_json(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise MergeError(f"{path}: cannot read results: {exc}") from None
    items = data if isinstance(data, list) else [data]
    try:
        return [Results.model_validate(d) for d in items]
    except ValidationError as exc:
        err = exc.errors()[0]
        raise MergeError(f"{path}: not a results file (field {'.'.join(map(str, err['loc']))}: {err['msg']}); "
                         f"see `tcg-oracle schema results`") from None


def _key(c: CaseResult, seen: int) -> tuple[int, int]:
    return (1, c.order) if c.order is not None else (0, seen)


def merge_runs(runs: list[Results], names: list[str] | None = None) -> Results:
    """Runs of one engine (shards) -> the results of one whole run."""
    names = names or [f"input {i + 1}" for i in range(len(runs))]
    chosen: dict[tuple[Any, ...], tuple[CaseResult, str, int]] = {}
    for run, name in zip(runs, names):
        repeats: dict[tuple[Any, ...], int] = {}
        for c in run.cases:
            if c.order is None:  # a case-file error: every shard repeats it (possibly several per case id)
                k = (c.id, c.error)
                repeats[k] = repeats.get(k, 0) + 1
                key: tuple[Any, ...] = (*k, repeats[k])
            else:
                key = (c.id,)
            prev = chosen.get(key)
            if prev is None:
                chosen[key] = (c, name, len(chosen))
            elif (prev[0].status, prev[0].error, prev[0].order) != (c.status, c.error, c.order):
                raise MergeError(f"case {c.id} is in {prev[1]} ({prev[0].status}) and in {name} ({c.status}); "
                                 f"shards of one run hold each case once")
    cases = [c for c, _, n in sorted(chosen.values(), key=lambda t: _key(t[0], t[2]))]
    first = runs[0]

    def common(attr: str) -> Any:
        values = {getattr(r, attr) for r in runs}
        return values.pop() if len(values) == 1 else None

    return Results(engine=first.engine, ruleset=common("ruleset"), suite_version=first.suite_version,
                   started=min(r.started for r in runs),
                   finished=max((r.finished for r in runs if r.finished), default=None),
                   partial=any(r.partial for r in runs), command=_command(runs),
                   cases=cases, summary=Results.count(cases))


def _command(runs: list[Results]) -> str | None:
    """The command of the whole run: the parts' commands, each without its ``--shard I/N``, when they agree."""
    from ..portable import without_shard

    commands = {without_shard(r.command) for r in runs}
    return commands.pop() if len(commands) == 1 else None


def merge(runs: list[Results], names: list[str] | None = None) -> Results:
    """Any runs -> one :class:`Results`: shards of an engine joined, engines one after the other."""
    names = names or [f"input {i + 1}" for i in range(len(runs))]
    groups: dict[tuple[str, str], list[tuple[Results, str]]] = {}
    for run, name in zip(runs, names):
        for part in split_engines(run):
            groups.setdefault((part.engine.name, part.engine.version), []).append((part, name))
    per_engine = [merge_runs([r for r, _ in g], [n for _, n in g]) for g in groups.values()]
    if len(per_engine) == 1:
        return per_engine[0]
    cases = [c if c.engine else c.model_copy(update={"engine": r.engine.name}) for r in per_engine for c in r.cases]
    engine = EngineInfo(name=", ".join(dict.fromkeys(r.engine.name for r in per_engine)), version="merged")
    return Results(engine=engine, ruleset=None, suite_version=per_engine[0].suite_version,
                   started=min(r.started for r in per_engine),
                   finished=max((r.finished for r in per_engine if r.finished), default=None),
                   partial=any(r.partial for r in per_engine), command=None, cases=cases,
                   summary=Results.count(cases))


def split_engines(results: Results) -> list[Results]:
    """A results document -> one per engine (a merged file of several engines holds cases of each)."""
    engines = list(dict.fromkeys(c.engine or results.engine.name for c in results.cases))
    if len(engines) <= 1:
        return [results]
    out = []
    for name in engines:
        cases = [c for c in results.cases if (c.engine or results.engine.name) == name]
        level = next((c.level for c in cases if c.level), None)  # each case records its engine's level
        out.append(results.model_copy(update={"engine": EngineInfo(name=name, version=results.engine.version,
                                                                   level=level),
                                              "cases": cases, "summary": Results.count(cases)}))
    return out


def dump(results: Results) -> Any:
    return results.model_dump(mode="json", exclude_none=True)


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
    missing = missing_shards([r.command for r in runs])
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
    for r in split_engines(merged):
        s = r.summary
        print(f"{printable(r.engine.name)}: {len(r.cases)} case(s), "
              + ", ".join(f"{s.get(k, 0)} {k}" for k in STATUSES if k in s or k != "not_checkable")
              + (f" (level {r.engine.level})" if r.engine.level else "")
              + (" (partial)" if r.partial else "")
              + f"; pass: {headline(r.summary).text()}")
    print(f"merged {len(args.inputs)} file(s) into {out}")
    if getattr(args, "junit", None):
        from .junit import write_junit

        write_junit(merged, Path(args.junit))
    if getattr(args, "baseline", None):  # shards merged on a CI fleet: one gate for the whole run
        from .gate import gate

        code = gate(merged, args.baseline)
        return 1 if code == 0 and merged.partial else code
    return 0
