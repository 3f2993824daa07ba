"""The ``tcg-oracle`` command.

Exit codes, for every command: 0 as expected; 1 failures or regressions; 2 bad usage or invalid case
files; 3 the engine under test could not be started or broke the protocol.

Start-up stays light: argparse only; each command imports what it needs when it runs (``run`` never
imports z3 or hypothesis).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Sequence

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_ENGINE = 0, 1, 2, 3
DEFAULT_RESULTS = "out/results.json"
DEFAULT_REPORT = "out/report.html"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tcg-oracle", description=__doc__.split("\n\n")[0])
    p.add_argument("--version", action="store_true", help="print the version and exit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    run = sub.add_parser("run", help="replay golden cases on an engine; write results and a report")
    run.add_argument("--engine", default="reference", metavar="SPEC",
                     help="reference (default), py:module:factory, cmd:\"program args\", mutant:NAME")
    run.add_argument("--game", action="append", metavar="G", help="only this game (repeatable)")
    run.add_argument("--cases", action="append", metavar="PATH", type=Path,
                     help="case files or folders (default: every game's cases)")
    run.add_argument("-k", metavar="EXPR", help='select by words of id, title, clause: "ijinden and not qa"')
    run.add_argument("--ruleset", metavar="R", help="run only cases that hold for this edition")
    run.add_argument("--shard", metavar="I/N", help="run the I-th of N deterministic shards")
    run.add_argument("--results", default=DEFAULT_RESULTS, metavar="FILE", help=f"(default {DEFAULT_RESULTS})")
    run.add_argument("--report", default=DEFAULT_REPORT, metavar="FILE",
                     help=f"HTML report (default {DEFAULT_REPORT}); '' for none")
    run.add_argument("--junit", metavar="FILE", help="also write JUnit XML")
    run.add_argument("--baseline", metavar="FILE", help="expected statuses; exit 1 only on regressions")
    run.add_argument("--update-baseline", action="store_true", help="write the baseline from this run")
    run.add_argument("--timeout", type=float, default=10.0, metavar="S", help="per-case timeout (default 10)")
    run.add_argument("--quiet", action="store_true", help="no summary table")

    val = sub.add_parser("validate", help="check case files, catalogs and card pools")
    val.add_argument("paths", nargs="*", type=Path, metavar="PATH")
    val.add_argument("--cases", action="append", metavar="PATH", type=Path, default=[],
                     help="case files or folders (as the PATH arguments; a folder may bring its own "
                          "<game>/rules.yaml and cards.yaml)")

    sch = sub.add_parser("schema", help="print a JSON Schema")
    sch.add_argument("name", choices=["case", "catalog", "cards", "protocol", "results"])

    serve = sub.add_parser("serve", help="run the reference engine over the JSON-lines protocol")
    serve.add_argument("--game", action="append", metavar="G")
    serve.add_argument("--observation", choices=("final", "checkpoints", "steps", "trace"), default="trace",
                       help="play an engine of this observation level (protocol 2; default trace)")
    serve.add_argument("--no-reason-codes", action="store_true",
                       help="play an engine whose refusals carry no reason codes")
    serve.add_argument("--automatic", action="store_true",
                       help="play an engine that takes decisions with exactly one legal option itself (those "
                            "whose options it can list: Magic choose_protector)")

    merge = sub.add_parser("merge", help="join results files (shards, or several engines)")
    merge.add_argument("inputs", nargs="+", type=Path, metavar="RESULTS.json")
    merge.add_argument("--out", required=True, type=Path, metavar="FILE")
    merge.add_argument("--junit", metavar="FILE", help="also write JUnit XML of the merged results")
    merge.add_argument("--baseline", metavar="FILE",
                       help="gate the merged results: exit 1 only on regressions (the CI fleet's last step)")

    rep = sub.add_parser("report", help="render results files as one HTML report")
    rep.add_argument("inputs", nargs="+", type=Path, metavar="RESULTS.json")
    rep.add_argument("--out", required=True, type=Path, metavar="FILE")
    rep.add_argument("--baseline", metavar="FILE")
    rep.add_argument("--cases", action="append", metavar="PATH", type=Path,
                     help="the case folders the results came from, when they bring their own rules.yaml")

    exp = sub.add_parser("explain", help="narrate a case's board and trace, clause by clause")
    exp.add_argument("case_id", metavar="CASE_ID")
    exp.add_argument("--engine", default="reference", metavar="SPEC")
    exp.add_argument("--cases", action="append", metavar="PATH", type=Path,
                     help="case files or folders to find the case in (default: every game's cases)")
    exp.add_argument("--request", action="store_true",
                     help="print the JSON request line an engine receives for this case, and nothing else")

    bench = sub.add_parser("bench", help="measure start-up, engine time per case, protocol round trips")
    bench.add_argument("--quick", action="store_true", help="fewer repetitions")

    from .mutants.cli import add_parser as add_mutants

    add_mutants(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = _parser().parse_args(argv)
    args.argv = argv
    if args.version:
        from . import __version__

        print(f"tcg-oracle {__version__}")
        return EXIT_OK
    if not args.command:
        _parser().print_help()
        return EXIT_USAGE
    handler = _COMMANDS[args.command]
    try:
        return handler(args)
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return EXIT_OK


# ---------------------------------------------------------------------------------------------


def cmd_run(args: argparse.Namespace) -> int:
    from . import registry
    from .core.errors import EngineStartError
    from .harness.engine import make_engine
    from .harness.runner import run_suite
    from .harness.select import SelectError
    from .loader import load_suite

    games = args.game or None
    for g in games or []:
        if g not in registry.names():
            return _usage(f"--game {g!r}: unknown game; the games are {', '.join(registry.names())}")
    shard = None
    if args.shard:
        from .harness.shards import parse_shard

        try:
            shard = parse_shard(args.shard)
        except ValueError as exc:
            return _usage(str(exc))
    if args.timeout is not None and args.timeout < 0:
        return _usage(f"--timeout {args.timeout:g}: give seconds, 0 or more (0: no timeout)")
    if args.update_baseline and not args.baseline:
        return _usage("--update-baseline needs --baseline FILE (where to write it)")
    if args.baseline and not args.update_baseline:  # a broken baseline is said before the run, not after
        from .baseline import BaselineError, load_baseline

        try:
            load_baseline(args.baseline)
        except BaselineError as exc:
            return _usage(str(exc))
    suite = load_suite(args.cases, games=games)
    try:
        engine = make_engine(args.engine)
        command = "tcg-oracle " + shlex.join(args.argv)  # quoted: pasted into a shell it reproduces the run
        try:
            with _progress(len(suite.cases), quiet=args.quiet) as advance:
                results = run_suite(engine, suite, ruleset=args.ruleset, k=args.k, games=games,
                                    timeout=args.timeout, shard=shard, command=command, on_result=advance)
        finally:
            engine.close()
        results = _portable(results, args)
    except SelectError as exc:
        return _usage(str(exc))
    except EngineStartError as exc:
        print(f"tcg-oracle: the engine could not be started: {exc}", file=sys.stderr)
        _write_outputs(_portable(_aborted(exc, args.engine), args), args)
        print(f"tcg-oracle: partial results (the cases run before it stopped): {args.results}", file=sys.stderr)
        return EXIT_ENGINE
    except (KeyError, ValueError) as exc:
        return _usage(str(exc.args[0] if exc.args else exc))
    except KeyboardInterrupt:  # before the first case (while the engine starts): nothing run, say so
        _write_outputs(_aborted(KeyboardInterrupt("interrupted while the engine was starting"), args.engine), args)
        print(f"tcg-oracle: interrupted; partial results: {args.results}", file=sys.stderr)
        return EXIT_FAIL

    _write_outputs(results, args)
    code = EXIT_FAIL if results.partial else EXIT_OK  # an interrupted run is never "as expected"
    if args.update_baseline and results.partial:
        print("tcg-oracle: the run did not finish; the baseline is left as it was", file=sys.stderr)
        code = EXIT_FAIL
    elif args.baseline or args.update_baseline:
        from .harness.baseline import gate

        code = gate(results, args.baseline, update=args.update_baseline)
        if results.partial and code == EXIT_OK:
            code = EXIT_FAIL
    elif results.summary.get("fail") or results.summary.get("error"):
        code = EXIT_FAIL
    if suite.errors:
        for err in suite.errors:
            print(f"invalid case file: {err}", file=sys.stderr)
        code = EXIT_USAGE
    if not args.quiet:
        _print_summary(results, args.results, args.report)
    return code


@contextmanager
def _progress(total: int, *, quiet: bool) -> Iterator[Any]:
    """A progress bar on a terminal (stderr); nothing when not on one, or with --quiet."""
    if quiet or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("cases", total=total)
        yield lambda result: bar.update(task, advance=1, description=f"{result.game}")


def _aborted(exc: Exception, spec: str):
    """The results of a run the engine stopped: those of the cases run before (a restart failed mid-run),
    or none (it never started); marked partial, with the reason."""
    from . import __version__
    from .harness.runner import now
    from .model import EngineInfo, Results

    partial = getattr(exc, "results", None)
    if partial is None:
        partial = Results(engine=EngineInfo(name=spec), suite_version=__version__, started=now(), finished=now(),
                          partial=True, summary=Results.count([]))
    return partial.model_copy(update={"partial": True, "aborted": str(exc)})


def _write_outputs(results, args: argparse.Namespace) -> None:
    """results.json, the report and JUnit XML: written for every run, finished or not."""
    _write_json(Path(args.results), results.model_dump(mode="json", exclude_none=True))
    if args.report:
        from .loader import suite_catalogs
        from .reports import render_report

        baseline = args.baseline if args.baseline and Path(args.baseline).is_file() else None
        try:  # a suite's own clauses count in its coverage (a broken catalog: said by validation)
            catalogs = suite_catalogs(args.cases) or None
        except Exception:  # noqa: BLE001
            catalogs = None
        try:
            render_report([results], Path(args.report), baseline=baseline, catalogs=catalogs)
        except ValueError:  # an unreadable baseline: the gate says why; the report still comes
            render_report([results], Path(args.report), catalogs=catalogs)
    if args.junit:
        from .harness.junit import write_junit

        write_junit(results, Path(args.junit))


def _print_summary(results, results_path: str, report_path: str) -> None:
    from rich.console import Console
    from rich.table import Table

    from .model import STATUSES

    per_game: dict[str, dict[str, int]] = {}
    for c in results.cases:
        row = per_game.setdefault(c.game, dict.fromkeys(STATUSES, 0))
        row[c.status] += 1
    level = results.engine.level
    table = Table(title=f"tcg-oracle · engine {results.engine.name} {results.engine.version}"
                        + (f" · level {level}" if level and level != "trace" else "")
                        + (" · PARTIAL" if results.partial else ""))
    shown = [s for s in STATUSES if s != "not_checkable" or results.summary.get(s)]
    for col in ("game", *shown, "total"):
        table.add_column(col.replace("_", " "), justify="left" if col == "game" else "right")
    for game, row in sorted(per_game.items()):
        table.add_row(game, *(str(row[s]) for s in shown), str(sum(row.values())))
    s = results.summary
    table.add_row("all", *(str(s.get(k, 0)) for k in shown), str(len(results.cases)), style="bold")
    console = Console(stderr=False)
    console.print(table)
    for c in results.cases:
        if c.status in ("fail", "error"):
            why = c.divergence.message if c.divergence else (c.error or "")
            console.print(f"[red]{c.status}[/red] {c.id}: {why}", markup=True, highlight=False)
    console.print(f"results: {results_path}" + (f"   report: {report_path}" if report_path else ""))


def _portable(results, args: argparse.Namespace):
    """No path of this machine in what a run writes (results, report, baseline): see oracle/portable.py."""
    from .portable import portable

    return portable(results, args.cases)


def cmd_validate(args: argparse.Namespace) -> int:
    from . import registry
    from .core.errors import CaseFileError
    from .loader import CATALOG_FILE, CARDS_FILE, game_dir, load_cards, load_catalog, load_suite

    errors: list[str] = []
    for g in registry.names():
        for what, loader_ in ((CATALOG_FILE, load_catalog), (CARDS_FILE, load_cards)):
            if (game_dir(g) / what).exists():
                try:
                    loader_(g)
                except CaseFileError as exc:
                    errors.append(str(exc))
    suite = load_suite([*args.paths, *args.cases] or None)
    errors.extend(str(e) for e in suite.errors)
    for e in errors:
        print(e, file=sys.stderr)
    print(f"{len(suite.cases)} valid case(s), {len(errors)} error(s)")
    return EXIT_USAGE if errors else EXIT_OK


def cmd_schema(args: argparse.Namespace) -> int:
    from .model import json_schema

    print(json.dumps(json_schema(args.name), indent=2, ensure_ascii=False))
    return EXIT_OK


def _lazy(module: str, func: str = "main"):
    def handler(args: argparse.Namespace) -> int:
        import importlib

        return getattr(importlib.import_module(module, __package__), func)(args)

    return handler


def _usage(message: str) -> int:
    print(f"tcg-oracle: {message}", file=sys.stderr)
    return EXIT_USAGE


def _write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    tmp.replace(path)


_COMMANDS = {
    "run": cmd_run,
    "validate": cmd_validate,
    "schema": cmd_schema,
    "serve": _lazy(".harness.serve"),
    "merge": _lazy(".harness.merge"),
    "report": _lazy(".reports.cli"),
    "explain": _lazy(".explain"),
    "bench": _lazy(".bench"),
    "mutants": _lazy(".mutants.cli"),
}


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
