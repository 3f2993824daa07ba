"""The conformance dashboard: a Markdown page of the documentation site, from the committed results files of
real engines -- engines x releases x games, each cell linking into that run's HTML report (its case list
filtered to the game, each count to the game and status), and the cases every engine under test fails, each
linking to its case permalink (``report.html#case=ID``).

    python -m oracle.reports.dashboard docs/engines --report-name 'history{ruleset}.html' --out docs/engines/dashboard.md

Inputs are results files, or folders searched for ``*.json`` files that are results (others passed over).
Each run's report is the file ``--report-name`` (default ``{stem}.html``: ``{stem}`` the results file's name
without ``.json``, ``{ruleset}`` ``.RULESET`` for a run with ``--ruleset``) beside its results file; the links
are relative to the page written. The page says where each figure comes from: the engine's version, the
ruleset, the suite version, the date of the run and its results file.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable
from urllib.parse import quote

from oracle.model import Results

from .engines_view import common_failures, is_engine_under_test, newest_per_engine
from .runs import EngineRun, split_runs

EXIT_OK, EXIT_USAGE = 0, 2
SHOWN = ("pass", "fail", "error", "skip", "not_checkable")


@dataclass(frozen=True)
class Source:
    """One results file and the report beside it, as the page links them."""

    results: Path
    results_link: str  # the results file's address relative to the page
    report: str        # the report's address relative to the page


def _is_results(path: Path) -> bool:
    from .cli import load_results

    try:
        load_results(path)
    except ValueError:
        return False
    return True


def find_results(paths: Iterable[Path]) -> list[Path]:
    """The files given, and the results files among the ``*.json`` under each folder given (sorted); a path
    that is neither, or a folder with no results file, is a ``ValueError`` naming it."""
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            found = [f for f in sorted(p.rglob("*.json")) if _is_results(f)]
            if not found:
                raise ValueError(f"{p}: a folder with no tcg-oracle results file (*.json) under it")
            out += found
        elif p.is_file():
            out.append(p)
        else:
            raise ValueError(f"{p}: no such file or folder")
    return out


def _link(source: Source, fragment: str) -> str:
    return f"{source.report}#{fragment}"


def _md(text: str) -> str:
    """Text safe in a Markdown table cell (no pipe, no newline, no HTML)."""
    return (text.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")
            .replace("\n", " ").strip())


def _cell(run: EngineRun, game: str, source: Source) -> str:
    cases = [c for c in run.cases.values() if c.game == game]
    if not cases:
        return "—"
    counts = {s: sum(c.status == s for c in cases) for s in SHOWN}
    checked = counts["pass"] + counts["fail"]
    rate = f"{100 * counts['pass'] / checked:.0f}%" if checked else "n/a"
    g = quote(game)
    parts = [f"[**{rate}**]({_link(source, 'game=' + g)})"]
    parts += [f"[{counts[s]} {s.replace('_', ' ')}]({_link(source, f'game={g}&status={s}')})"
              for s in SHOWN if counts[s]]
    return " · ".join(parts)


def render(sources: list[Source], results: list[Results], date: str) -> str:
    """The page's Markdown."""
    rows: list[tuple[EngineRun, Source, Results]] = []
    for src, res in zip(sources, results):
        for run in split_runs([res]):
            rows.append((run, src, res))
    games = sorted({c.game for run, _, _ in rows for c in run.cases.values()})
    rows.sort(key=lambda r: (not is_engine_under_test(r[0]), r[0].name, r[2].ruleset or "",
                             r[0].finished or r[0].started or "", r[0].version))
    out = ["# Conformance dashboard", "",
           f"Generated {date} by `python -m oracle.reports.dashboard` from {len(sources)} committed results "
           f"file{'' if len(sources) == 1 else 's'}. Each cell: the pass rate (pass / (pass + fail): a case "
           "skipped, not checkable at the engine's observation level, or not run by its adapter (error) is not "
           "counted), linking to that run's case list for the game; each count links to those cases.", ""]
    head = ["engine", "release", "ruleset", "level", *games, "suite", "run", "results"]
    out += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for run, src, res in rows:
        level = (run.level or "trace") + ("" if run.reason_codes is not False else ", no reason codes")
        out.append("| " + " | ".join([
            _md(run.name), _md(run.version), _md(res.ruleset or "default"), level,
            *(_cell(run, g, src) for g in games), _md(res.suite_version),
            _md((run.finished or run.started or "")[:10]) + (" (partial)" if run.partial else ""),
            f"[{_md(src.results_link)}]({quote(src.results_link)})"]) + " |")
    where = {id(r): s for r, s, _ in rows}
    rulesets = list(dict.fromkeys(res.ruleset for _, _, res in rows))
    for ruleset in rulesets:  # the engines of one edition side by side: a case is compared under one ruleset
        under_test = newest_per_engine(r for r, _, res in rows if is_engine_under_test(r) and res.ruleset == ruleset)
        common = common_failures(under_test)
        label = f"ruleset {ruleset}" if ruleset else "default ruleset"
        out += ["", f"## Cases every engine under test fails, {label} ({len(common)})", "",
                f"Failed by every real engine that checked it (the newest release of each: "
                f"{', '.join(f'{r.name} {r.version}' for r in under_test) or 'none'}): the first place where the "
                "suite may be wrong. Each has a verdict in [all-engines-fail.md](all-engines-fail.md).", ""]
        if common:
            out += ["| case | game | title | failed by |", "|---|---|---|---|"]
            for c in common:
                engines = [next(r for r in under_test if r.key == f.engine) for f in c.failures]
                links = ", ".join(f"[{_md(r.name)}]({_link(where[id(r)], 'case=' + quote(c.id))})" for r in engines)
                out.append(f"| `{_md(c.id)}` | {c.game} | {_md(c.title)} | {links} |")
        else:
            out.append("None.")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m oracle.reports.dashboard", description=__doc__.split("\n\n")[0])
    ap.add_argument("inputs", nargs="+", type=Path, metavar="RESULTS", help="results files, or folders of them")
    ap.add_argument("--out", type=Path, required=True, metavar="FILE", help="the Markdown page to write")
    ap.add_argument("--report-name", default="{stem}.html", metavar="NAME",
                    help="the HTML report beside each results file: {stem} its name without .json, {ruleset} "
                         ".RULESET for a run with --ruleset (default {stem}.html)")
    ap.add_argument("--date", default=None, help="the date the page says it was generated (default today, UTC)")
    args = ap.parse_args(argv)
    from datetime import datetime, timezone

    from .cli import load_results

    try:
        files = find_results(args.inputs)
        results = [load_results(f) for f in files]
    except ValueError as exc:
        print(f"dashboard: {exc}", file=sys.stderr)
        return EXIT_USAGE
    page_dir = args.out.resolve().parent
    sources = [Source(f, Path(os.path.relpath(f.resolve(), page_dir)).as_posix(),
                      Path(os.path.relpath(f.resolve().parent / report_name(args.report_name, f, r), page_dir)).as_posix())
               for f, r in zip(files, results)]
    date = args.date or datetime.now(timezone.utc).date().isoformat()
    text = render(sources, results, date)
    from oracle.outputs import write_atomic

    try:
        write_atomic(args.out, text)
    except OSError as exc:
        print(f"dashboard: --out {args.out}: cannot write: {exc}", file=sys.stderr)
        return EXIT_USAGE
    print(f"dashboard: {args.out} ({len(files)} results file(s), {len(games_of(results))} game(s))")
    return EXIT_OK


def report_name(pattern: str, path: Path, results: Results) -> str:
    """``--report-name`` for one results file: ``{stem}`` and ``{ruleset}`` filled in."""
    return pattern.replace("{stem}", path.stem).replace("{ruleset}", f".{results.ruleset}" if results.ruleset else "")


def games_of(results: list[Results]) -> set[str]:
    return {c.game for r in results for c in r.cases}


if __name__ == "__main__":
    raise SystemExit(main())
