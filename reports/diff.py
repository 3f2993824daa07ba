"""``tcg-oracle diff A.json B.json [CASE]``: what changed between two results files (two versions of an
engine, two dates, two editions' runs), per case: both statuses and both verdicts -- what the case expected
and what the engine did, in each run. With ``CASE``, that case in full: each run's verdict (expected against
actual), the decisions an engine below level ``trace`` reported, what was not checkable, and the first moment
where the two traces part.

Cases are matched by id (and edition, for runs that played several). Exit codes: 0 nothing changed, 1 some
case changed, 2 bad usage (a file that is not results, a case in neither file, a file of several engines).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from oracle.editions import per_case
from oracle.model import CaseResult, Results
from oracle.text import printable

EXIT_SAME, EXIT_CHANGED, EXIT_USAGE = 0, 1, 2


def _j(v: Any) -> str:
    return v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, default=str)


def _one_engine(results: Results, path: Path) -> None:
    engines = list(dict.fromkeys(c.engine or results.engine.name for c in results.cases))
    if len(engines) > 1:
        raise ValueError(f"{path}: holds the results of {len(engines)} engines ({', '.join(engines)}); diff compares "
                         f"two runs of one engine: give each engine's own results file")


def _key(cid: str, rs: str | None, eds: dict) -> str:
    return f"{cid} [{rs}]" if rs and len(eds) > 1 else cid


def pairs(a: Results, b: Results) -> list[tuple[str, CaseResult | None, CaseResult | None]]:
    """(label, result in A, result in B) of every case and edition in either, A's order first."""
    pa, pb = per_case(a.cases), per_case(b.cases)
    out = []
    for cid in dict.fromkeys([*pa, *pb]):
        ea, eb = pa.get(cid, {}), pb.get(cid, {})
        if len(ea) <= 1 and len(eb) <= 1:  # one edition each (maybe two different ones): the case itself
            out.append((cid, next(iter(ea.values()), None), next(iter(eb.values()), None)))
            continue
        for rs in dict.fromkeys([*ea, *eb]):
            out.append((_key(cid, rs, {**ea, **eb}), ea.get(rs), eb.get(rs)))
    return out


def verdict(c: CaseResult | None) -> str:
    """One line: the status and what the engine did differently (or why it was not run)."""
    if c is None:
        return "not in this run"
    why = (c.divergence.message if c.divergence else c.error or c.skip_reason or "")
    return c.status + (f": {why}" if why else "")


def changed(a: CaseResult | None, b: CaseResult | None) -> bool:
    return verdict(a) != verdict(b)


def _detail(c: CaseResult | None, name: str, out: list[str]) -> None:
    out.append(f"{name}: {verdict(c)}")
    if c is None:
        return
    if c.ruleset:
        out.append(f"  edition {c.ruleset}" + (f" · level {c.level}" if c.level else ""))
    d = c.divergence
    if d is not None:
        out.append(f"  first divergence ({d.what}" + (f", #{d.index}" if d.index is not None else "") + ")")
        out.append(f"    expected: {_j(d.expected)}")
        out.append(f"    actual:   {_j(d.actual)}")
    if c.decisions is not None:
        from .decisions import decision_rows

        out.append("  decisions (decision · who · what · expected · engine):")
        for row in decision_rows(c.case, c.decisions):
            out.append(f"    {'✗' if row.differs else ' '} {row.at} · {row.player} · {row.what} · {row.expected} · "
                       f"{row.engine}")
    for u in c.unchecked:
        out.append(f"  not checked: {u.what} needs {u.needs} ({u.why})")


def _traces(a: CaseResult | None, b: CaseResult | None, out: list[str]) -> None:
    from oracle.core.moments import moments

    if a is None or b is None or a.trace is None or b.trace is None:
        return
    ma, mb = moments(a.trace), moments(b.trace)
    key = lambda m: sorted((e.kind, json.dumps(e.args, sort_keys=True, default=str)) for e in m)  # noqa: E731
    for j in range(max(len(ma), len(mb))):
        x = ma[j] if j < len(ma) else None
        y = mb[j] if j < len(mb) else None
        if x is not None and y is not None and key(x) == key(y):
            continue
        show = lambda m: "; ".join(f"{e.kind} {_j(e.args)}" for e in m) if m else "(the trace has ended)"  # noqa: E731
        out.append(f"traces part at moment {j}:")
        out.append(f"  A: {show(x)}")
        out.append(f"  B: {show(y)}")
        return
    out.append("the two traces are the same, moment for moment")


def diff(a: Results, b: Results, case_id: str | None = None) -> tuple[int, list[str]]:
    """(exit code, lines)."""
    rows = pairs(a, b)
    if case_id is not None:
        rows = [r for r in rows if r[0] == case_id or r[0].startswith(case_id + " [")]
        if not rows:
            return EXIT_USAGE, [f"tcg-oracle diff: case {case_id!r} is in neither file"]
        out: list[str] = []
        for label, x, y in rows:
            out.append(f"{label}{'' if changed(x, y) else ' (unchanged)'}")
            _detail(x, "A", out)
            _detail(y, "B", out)
            _traces(x, y, out)
        return (EXIT_CHANGED if any(changed(x, y) for _, x, y in rows) else EXIT_SAME), out
    out = []
    n = 0
    for label, x, y in rows:
        if not changed(x, y):
            continue
        n += 1
        out.append(f"{label}: {x.status if x else 'not run'} -> {y.status if y else 'not run'}")
        out.append(f"  A: {verdict(x)}")
        out.append(f"  B: {verdict(y)}")
    out.append(f"{n} of {len(rows)} case(s) changed" + ("; `tcg-oracle diff A B CASE` shows one in full" if n else ""))
    return (EXIT_CHANGED if n else EXIT_SAME), out


def main(args: argparse.Namespace) -> int:
    from .cli import load_results

    try:
        a, b = load_results(Path(args.before)), load_results(Path(args.after))
        _one_engine(a, args.before)
        _one_engine(b, args.after)
    except ValueError as exc:
        print(f"tcg-oracle diff: {exc}", file=sys.stderr)
        return EXIT_USAGE
    code, lines = diff(a, b, getattr(args, "case_id", None))
    stream = sys.stderr if code == EXIT_USAGE else sys.stdout
    for line in lines:
        print(printable(line), file=stream)
    return code
