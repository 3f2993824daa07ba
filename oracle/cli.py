"""The ``tcg-oracle`` command.

Exit codes, for every command: 0 as expected; 1 failures or regressions; 2 bad usage or invalid case
files; 3 the engine under test could not be started or broke the protocol.

Start-up stays light: argparse only; each command imports what it needs when it runs (``run`` never
imports z3 or hypothesis).
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Sequence

from .text import printable, trim_text

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_ENGINE = 0, 1, 2, 3
DEFAULT_RESULTS = "out/results.json"
DEFAULT_REPORT = "out/report.html"


DESCRIPTION = """\
tcg-oracle: a rules test-oracle and conformance suite for trading-card-game battle rules (Ijinden, Duel
Masters, Magic: The Gathering battles). Golden cases, each citing its official ruling, are replayed on the
reference engine or on yours (any language, over a JSON-lines protocol); each disagreement is shown with
the ruling and the first divergence. Results gate CI on regressions and render as an HTML report."""

EPILOG = """\
exit codes (every command):
  0  as expected (with --baseline: no regression)
  1  a case failed or erred (with --baseline: a regression), or the run was interrupted
  2  bad usage, invalid case files, an output that cannot be written, or a run that tested nothing
  3  the engine under test could not be started or broke the protocol

examples:
  tcg-oracle run                                             # every golden case on the reference engine
  tcg-oracle run --engine cmd:"./my-engine" --baseline tcg-baseline.yaml --junit out/junit.xml
  tcg-oracle run --engine py:my_engine:make --cases builtin --cases my-suite/ --lf

'tcg-oracle COMMAND --help' describes each command."""


def _parser() -> argparse.ArgumentParser:
    from .paths import cases_arg

    p = argparse.ArgumentParser(prog="tcg-oracle", description=DESCRIPTION, epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="store_true", help="print the version and exit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    run = sub.add_parser("run", help="replay golden cases on an engine; write results and a report")
    run.add_argument("--engine", default="reference", metavar="SPEC",
                     help="reference (default), py:module:factory, cmd:\"program args\", mutant:NAME")
    run.add_argument("--game", action="append", metavar="G", help="only this game (repeatable)")
    run.add_argument("--cases", action="append", metavar="PATH", type=cases_arg,
                     help="case files or folders, 'builtin' for the installed suite (repeatable; default: the "
                          "installed suite)")
    run.add_argument("-k", metavar="EXPR", help='select by words of id, title, clause: "ijinden and not qa"')
    run.add_argument("--ruleset", metavar="R", help="run only cases that hold for this edition; `all`: each case "
                                                    "under each edition it holds for")
    run.add_argument("--shard", metavar="I/N", help="run the I-th of N deterministic shards")
    run.add_argument("--results", default=DEFAULT_RESULTS, metavar="FILE", help=f"(default {DEFAULT_RESULTS})")
    run.add_argument("--report", default=DEFAULT_REPORT, metavar="FILE",
                     help=f"HTML report (default {DEFAULT_REPORT}); '' for none")
    run.add_argument("--junit", metavar="FILE", help="also write JUnit XML")
    run.add_argument("--baseline", metavar="FILE", help="expected statuses; exit 1 only on regressions")
    run.add_argument("--update-baseline", action="store_true", help="write the baseline from this run")
    run.add_argument("--allow-engine-change", action="store_true",
                     help="let --update-baseline relabel a baseline recorded for another engine (else exit 2)")
    run.add_argument("--timeout", type=float, default=10.0, metavar="S", help="per-case timeout (default 10)")
    run.add_argument("--last-failed", "--lf", nargs="?", const=DEFAULT_RESULTS, default=None, metavar="RESULTS.json",
                     dest="last_failed",
                     help=f"run only the cases that failed or erred in these results (default {DEFAULT_RESULTS})")
    run.add_argument("--log", metavar="FILE",
                     help="stream one JSON line per finished case to FILE as it finishes (suite_start, test_end, "
                          "suite_end), flushed: a killed run leaves what it did")
    run.add_argument("--quiet", action="store_true", help="no summary table")
    run.add_argument("--isolate", action="store_true",
                     help="run a py: engine in a child process (one that calls os._exit or crashes its process "
                          "costs a case, not the run; see docs/faults.md)")

    val = sub.add_parser("validate", help="check case files, catalogs and card pools")
    val.add_argument("paths", nargs="*", type=cases_arg, metavar="PATH")
    val.add_argument("--cases", action="append", metavar="PATH", type=cases_arg, default=[],
                     help="case files or folders (as the PATH arguments; a folder may bring its own "
                          "<game>/rules.yaml and cards.yaml; 'builtin': the installed suite)")
    val.add_argument("--seeds", metavar="DIR", type=Path,
                     help="the seed texts: check every source.kind: seed quote verbatim (default "
                          "$TCG_ORACLE_SEEDS, else shared/seeds beside a checkout; none: said, not checked)")

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
    merge.add_argument("--out", required=True, type=Path, metavar="FILE", help="the merged results file to write")
    merge.add_argument("--junit", metavar="FILE", help="also write JUnit XML of the merged results")
    merge.add_argument("--baseline", metavar="FILE",
                       help="gate the merged results: exit 1 only on regressions (the CI fleet's last step)")

    rep = sub.add_parser("report", help="render results files as one HTML report")
    rep.add_argument("inputs", nargs="+", type=Path, metavar="RESULTS.json")
    rep.add_argument("--out", required=True, type=Path, metavar="FILE")
    rep.add_argument("--baseline", metavar="FILE")
    rep.add_argument("--cases", action="append", metavar="PATH", type=cases_arg,
                     help="the case folders the results came from, when they bring their own rules.yaml "
                          "('builtin': the installed suite)")
    rep.add_argument("--proofs", metavar="FILE", type=Path,
                     help="a 'tcg-oracle prove --json' file: the coverage table shows the clauses it proved")

    dif = sub.add_parser("diff", help="what changed between two results files: per case, both verdicts")
    dif.add_argument("before", type=Path, metavar="A.json")
    dif.add_argument("after", type=Path, metavar="B.json")
    dif.add_argument("case_id", nargs="?", metavar="CASE", help="one case in full: expected against actual in both")

    exp = sub.add_parser("explain", help="narrate a case's board and trace, clause by clause")
    exp.add_argument("case_id", metavar="CASE_ID")
    exp.add_argument("--engine", default="reference", metavar="SPEC",
                     help="the engine whose play is narrated: reference (default), py:module:factory, "
                          "cmd:\"program args\", mutant:NAME")
    exp.add_argument("--cases", action="append", metavar="PATH", type=cases_arg,
                     help="case files or folders to find the case in, 'builtin' for the installed suite "
                          "(default: every game's cases)")
    exp.add_argument("--timeout", type=float, default=10.0, metavar="S",
                     help="seconds the engine may take on the case (default 10; 0: no timeout)")
    exp.add_argument("--request", action="store_true",
                     help="print the JSON request line an engine receives for this case, and nothing else")

    fuzz = sub.add_parser("fuzz", help="an engine against the reference on generated boards (Hypothesis)")
    fuzz.add_argument("--game", required=True, metavar="G", help="the game to generate boards of")
    fuzz.add_argument("--engine", default="reference", metavar="SPEC", help="engine under test (default reference)")
    fuzz.add_argument("--examples", type=int, default=200, metavar="N", help="generated cases (default 200)")
    fuzz.add_argument("--seed", type=int, default=0, metavar="S", help="Hypothesis seed (default 0)")
    fuzz.add_argument("--save-failures", type=Path, default=Path("fuzz-failures"), metavar="DIR",
                      help="where a shrunk disagreement is written as a case file (default fuzz-failures)")
    fuzz.add_argument("--workers", type=int, default=1, metavar="N", help="processes on this machine (default 1)")
    fuzz.add_argument("--timeout", type=float, default=10.0, metavar="S",
                      help="seconds a generated case may take on the engine (default 10; 0: no timeout)")
    fuzz.add_argument("--clauses", action="store_true", help="list every scenario-testable clause with its count")
    fuzz.add_argument("--no-seeds", action="store_true",
                      help="every board from scratch (by default about one in three mutates a golden setup)")
    fuzz.add_argument("--keep-going", action="store_true",
                      help="play every example; save each kind of disagreement's smallest example (not shrunk)")
    fuzz.add_argument("--quiet", action="store_true", help="no progress bar")
    prove = sub.add_parser("prove", help="bounded proofs of rule properties with z3 (boards of up to K cards)")
    prove.add_argument("--game", action="append", metavar="G", help="only this game (repeatable)")
    prove.add_argument("--max-cards", type=int, default=4, metavar="K", help="prove for every board of up to K cards "
                       "(default 4; CI runs 3)")
    prove.add_argument("--json", type=Path, metavar="FILE", help="also write the outcomes, with clause ids, as JSON")

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
        if args.command == "run":  # its own handling: partial results written (cmd_run, oracle/signals.py)
            return handler(args)
        return _stoppable(handler, args)
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return EXIT_OK
    except KeyboardInterrupt:  # a command other than run (mutants, fuzz, bench) stopped by Ctrl-C: no traceback
        print("tcg-oracle: interrupted", file=sys.stderr)
        return EXIT_FAIL


def _stoppable(handler: Any, args: argparse.Namespace) -> int:
    """Every command but ``run``: SIGINT, SIGTERM and SIGHUP stop it like Ctrl-C -- the engine it started is
    closed on the way out (``finally``), a file being written is finished first (oracle/outputs.py) -- and it
    says so on one line, exit 1; never a traceback, never a silent death by SIGTERM."""
    from .signals import StopSignals

    stop = StopSignals()
    try:
        with stop.run():
            return handler(args)
    except KeyboardInterrupt:
        print(f"tcg-oracle {args.command}: interrupted ({stop.first or 'SIGINT'}); stopped", file=sys.stderr)
        return EXIT_FAIL


# ---------------------------------------------------------------------------------------------


def cmd_run(args: argparse.Namespace) -> int:
    from . import registry
    from .loader import load_suite
    from .signals import StopSignals

    games = args.game or None
    for g in games or []:
        if g not in registry.names():
            return _usage(f"--game {g!r}: unknown game; the games are {', '.join(registry.names())}")
    shard = None
    if args.shard:
        from .harness.shards import parse_shard

        from .errors import ShardError

        try:
            shard = parse_shard(args.shard)
        except ShardError as exc:
            return _usage(str(exc))
    if not math.isfinite(args.timeout) or args.timeout < 0:  # nan would make every case an error
        return _usage(f"--timeout {args.timeout:g}: give seconds, a finite number 0 or more (0: no timeout)")
    if args.update_baseline and not args.baseline:
        return _usage("--update-baseline needs --baseline FILE (where to write it)")
    bad_output = _unwritable_outputs(args)
    if bad_output:
        return _usage(bad_output)
    if args.baseline and (not args.update_baseline or Path(args.baseline).exists()):
        from .baseline import load_baseline
        from .errors import BaselineError  # a broken baseline is said before the run

        try:
            load_baseline(args.baseline)
        except BaselineError as exc:
            return _usage(str(exc) + ("; delete it to record a new one" if args.update_baseline else ""))
    if args.ruleset and (why := _unknown_ruleset(args.ruleset, games or registry.names())):
        return _usage(why)
    stop = StopSignals()
    with stop.deferred():  # a signal between loading, the run and the writing is noted, never lost (see _run)
        try:
            with stop.run():  # Ctrl-C or SIGTERM while the cases load: partial (empty) results, said
                suite = load_suite(args.cases, games=games)
        except KeyboardInterrupt as exc:
            results = _portable(_aborted(KeyboardInterrupt(f"{exc or 'interrupted'} while the cases were loading"),
                                         args.engine), args)
            write_failed = _write_outputs(results, args)
            print(f"tcg-oracle: interrupted ({stop.first or 'SIGINT'}) while the cases were loading; no case was "
                  f"run; partial results: {args.results}", file=sys.stderr)
            return EXIT_USAGE if write_failed else EXIT_FAIL
        if args.last_failed:
            suite, why = _last_failed(suite, Path(args.last_failed))
            if suite is None:
                return _usage(why)
            print(f"tcg-oracle: {why}", file=sys.stderr)
        return _run(args, suite, games, shard, stop)


def _run(args: argparse.Namespace, suite: Any, games: list[str] | None, shard: Any, stop: Any) -> int:
    """Run the suite (the first stop signal raises, as Ctrl-C does), then close the engine and write the
    outputs (signals only noted)."""
    from .errors import EngineSpecError, EngineStartError, SelectError
    from .harness.adapters import make_engine
    from .harness.runner import run_suite

    seen: list[Any] = []  # every result as it comes: what an interrupt outside the case loop keeps
    engine = None
    results = None
    command = "tcg-oracle " + shlex.join(args.argv)  # quoted: pasted into a shell it reproduces the run
    log = _open_log(args, command, len(suite.cases))
    try:
        with stop.run():
            engine = make_engine(args.engine, isolate=args.isolate)
            total = (sum(len(lc.case.rulesets) for lc in suite.cases) if args.ruleset == "all"  # a result per edition
                     else len(suite.cases))
            with _progress(total, quiet=args.quiet) as advance:
                def on_result(res: Any) -> None:
                    seen.append(res)
                    if log is not None:
                        log.test_end(res)
                    if advance:
                        advance(res)

                results = run_suite(engine, suite, ruleset=args.ruleset, k=args.k, games=games,
                                    timeout=args.timeout, shard=shard, command=command, on_result=on_result)
    except (SelectError, EngineSpecError) as exc:  # bad usage, found once the run starts
        _close(engine, stop)
        if log is not None:
            log.close()
        return _usage(str(exc))
    except EngineStartError as exc:
        print(f"tcg-oracle: the engine could not be started: {printable(exc, newlines=True)}", file=sys.stderr)
        _close(engine, stop)
        aborted = _portable(_aborted(exc, args.engine, seen), args)
        if log is not None:
            log.suite_end(aborted)
            log.close()
        _write_outputs(aborted, args)
        print(f"tcg-oracle: partial results (the cases run before it stopped): {args.results}", file=sys.stderr)
        return EXIT_ENGINE
    except KeyboardInterrupt as exc:  # in the case loop (run_suite hands its partial results on) or outside it
        results = getattr(exc, "results", None)
        if results is None:
            why = f"{exc}" if seen else f"{exc or 'interrupted'} while the engine was starting"
            results = _aborted(KeyboardInterrupt(why), args.engine, seen)
        print("interrupted: writing partial results", file=sys.stderr)
    # from here on a signal is noted, never raised: the outputs are finished first
    _close(engine, stop)
    if results.partial and results.aborted is None and stop.first:
        results = results.model_copy(update={"aborted": f"interrupted by {stop.first}"})
    results = _portable(results, args)
    if log is not None:
        log.suite_end(results)
        log.close()
    write_failed = _write_outputs(results, args)
    code = _exit_code(results, suite, args)
    if stop.received and results.partial:
        print(f"tcg-oracle: interrupted ({stop.first}); partial results: {args.results}", file=sys.stderr)
        code = max(code, EXIT_FAIL) if code != EXIT_USAGE else code
    elif stop.received:  # it came after the last case, while the engine closed or the outputs were written
        print(f"tcg-oracle: {stop.first} after the last case; the results are complete: {args.results}",
              file=sys.stderr)
        code = max(code, EXIT_FAIL) if code != EXIT_USAGE else code
    return EXIT_USAGE if write_failed else code


def _open_log(args: argparse.Namespace, command: str, cases: int) -> Any:
    """``--log FILE``: the structured log, started (``None`` without the option)."""
    if not args.log:
        return None
    from .harness.log import StructuredLog

    baseline = _readable_baseline(args)
    log = StructuredLog(args.log, expected=dict(baseline.cases) if baseline is not None else None)
    log.suite_start(command=command, cases=cases)
    return log


def _last_failed(suite: Any, path: Path) -> tuple[Any, str]:
    """``--last-failed RESULTS``: the suite cut to the cases that failed or erred in those results, and what
    was chosen; ``(None, why)`` when the file cannot be read or holds no such case."""
    from .errors import MergeError
    from .harness.merge import read_results
    from .loader import Suite

    if not path.is_file():
        return None, f"--last-failed {path}: no such results file (a run writes it with --results)"
    try:
        runs = read_results(path)
    except MergeError as exc:
        return None, f"--last-failed: {exc}"
    failed = {c.id for run in runs for c in run.cases if c.status in ("fail", "error")}
    if not failed:
        return None, f"--last-failed {path}: no case failed or erred there: nothing to rerun"
    kept = [lc for lc in suite.cases if lc.case.id in failed]
    gone = sorted(failed - {lc.case.id for lc in kept} - {getattr(e, "case_id", None) for e in suite.errors})
    why = f"--last-failed {path}: rerunning the {len(kept)} case(s) that failed or erred there"
    if gone:
        why += f"; {len(gone)} are not in this suite: {', '.join(map(printable, gone[:5]))}" + \
            (" ..." if len(gone) > 5 else "")
    return Suite(cases=kept, errors=list(suite.errors)), why


def _exit_code(results: Any, suite: Any, args: argparse.Namespace) -> int:
    """The summary, then what the run means: interrupted, regressions, failures, nothing tested."""
    if not args.quiet:
        _print_summary(results, args.results, args.report, _readable_baseline(args))
    code = EXIT_FAIL if results.partial else EXIT_OK  # an interrupted run is never "as expected"
    if args.update_baseline and results.partial:
        print("tcg-oracle: the run did not finish; the baseline is left as it was", file=sys.stderr)
        code = EXIT_FAIL
    elif args.baseline or args.update_baseline:
        from .harness.gate import gate

        code = gate(results, args.baseline, update=args.update_baseline,
                    allow_engine_change=args.allow_engine_change)
        if results.partial and code == EXIT_OK:
            code = EXIT_FAIL
    elif results.summary.get("fail") or results.summary.get("error"):
        code = EXIT_FAIL
    if suite.errors:
        for err in suite.errors:
            print(f"invalid case file: {printable(err)}", file=sys.stderr)
        code = EXIT_USAGE
    elif not results.partial and (why := _nothing_tested(results, args)):
        print(f"tcg-oracle: nothing was tested: {why}", file=sys.stderr)
        code = EXIT_USAGE
    return code


def _nothing_tested(results: Any, args: argparse.Namespace) -> str | None:
    """Why a run tested nothing (``None`` when it tested a case): no case sent to the engine, or every case
    sent ``not_checkable`` at the engine's level -- a green run must have tested something."""
    sent = [c for c in results.cases if c.order is not None and c.status != "skip"]
    if any(c.status != "not_checkable" for c in sent):
        return None
    if sent:
        level = getattr(results.engine, "level", None) if results.engine else None
        at = f" at level {level}" if level else ""
        return (f"every one of the {len(sent)} case(s) sent was not_checkable{at}: none of their expectations "
                f"can be checked at what the engine reports (see each case's unchecked list in the results; a "
                f"higher observation level, reason codes or the legality query would let them be checked)")
    if not results.cases:
        where = f" under {', '.join(map(str, args.cases))}" if args.cases else ""
        sel = " ".join(x for x in (f"-k {args.k!r}" if args.k else "", f"--shard {args.shard}" if args.shard else "",
                                   f"--game {' --game '.join(args.game)}" if args.game else "") if x)
        return f"no case{where} matched the selection {sel}".rstrip() if sel else f"no case files{where}"
    reasons: dict[str, int] = {}
    for c in results.cases:
        reasons[c.skip_reason or c.status] = reasons.get(c.skip_reason or c.status, 0) + 1
    top = sorted(reasons.items(), key=lambda kv: -kv[1])[:3]
    hint = ""
    if any(" does not play " in r for r in reasons):
        from . import registry

        hint = (f"; an engine's hello names the games it plays exactly as this suite does "
                f"({', '.join(registry.names())})")
    return f"all {len(results.cases)} case(s) were skipped: " + "; ".join(
        f"{printable(trim_text(r, 300))} ({n})" for r, n in top) + hint


def _unknown_ruleset(ruleset: str, games: Sequence[str]) -> str | None:
    from .errors import CaseFileError
    from .loader import load_catalog

    known: list[str] = []
    for g in games:
        try:
            known += [r.id for r in load_catalog(g).rulesets]
        except (CaseFileError, OSError):
            continue
    if ruleset in known or ruleset == "all":
        return None
    return f"--ruleset {ruleset!r}: unknown ruleset; the rulesets are {', '.join(known)}"


def _unwritable_outputs(args: argparse.Namespace) -> str | None:
    from .outputs import unwritable

    outs = [("--results", args.results), ("--report", args.report), ("--junit", args.junit),
            ("--log", getattr(args, "log", None))]
    if args.update_baseline:
        outs.append(("--baseline", args.baseline))
    for flag, path in outs:
        if path and (why := unwritable(path)):
            return f"{flag} {path}: {why}"
    named = [str(Path(p).resolve()) for _, p in outs if p and not _special(p)]  # /dev/null twice is fine
    if len(set(named)) < len(named):
        return "two outputs name the same file: " + ", ".join(f"{f} {p}" for f, p in outs if p)
    return None


def _special(path: str) -> bool:
    """A device or a FIFO (written to, not replaced: oracle/outputs.py)."""
    p = Path(path)
    return p.exists() and not p.is_dir() and not p.is_file()


def _close(engine: Any, stop: Any) -> None:
    """Close the engine; a close that fails is said, and costs nothing else (the results are written)."""
    if engine is None:
        return
    try:
        engine.close()
    except Exception as exc:  # an engine's bug at close time must not lose the results
        print(f"tcg-oracle: warning: closing the engine failed: {type(exc).__name__}: "
              f"{printable(trim_text(str(exc)))}", file=sys.stderr)


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


def _aborted(exc: BaseException, spec: str, seen: Sequence[Any] = ()):
    """The results of a run that stopped outside the case loop: those the runner returned (a restart
    failed mid-run), else those seen so far (none when the engine never started); marked partial, with
    the reason."""
    from . import __version__
    from .harness.runner import now
    from .model import EngineInfo, Results

    partial = getattr(exc, "results", None)
    if partial is None:
        cases = list(seen)
        partial = Results(engine=EngineInfo(name=spec), suite_version=__version__, started=now(), finished=now(),
                          partial=True, cases=cases, summary=Results.count(cases))
    return partial.model_copy(update={"partial": True, "aborted": str(exc)})


def _write_outputs(results, args: argparse.Namespace) -> bool:
    """results.json, the report and JUnit XML: written for every run, finished or not, each on its own
    (one that cannot be written is said and costs no other). True when one failed."""
    failed = False

    def report() -> None:
        from .errors import BaselineError, CaseFileError
        from .loader import suite_catalogs
        from .reports import render_report

        baseline = args.baseline if args.baseline and Path(args.baseline).is_file() else None
        try:  # a suite's own clauses count in its coverage (a broken catalog: said by validation)
            catalogs = suite_catalogs(args.cases) or None
        except (CaseFileError, OSError):
            catalogs = None
        try:
            render_report([results], Path(args.report), baseline=baseline, catalogs=catalogs)
        except BaselineError:  # an unreadable baseline: the gate says why; the report still comes
            render_report([results], Path(args.report), catalogs=catalogs)

    def junit() -> None:
        from .harness.junit import write_junit

        write_junit(results, Path(args.junit), baseline=_readable_baseline(args))

    writers = [("--results", args.results, lambda: _write_json(Path(args.results),
                                                                results.model_dump(mode="json", exclude_none=True))),
               ("--report", args.report, report), ("--junit", args.junit, junit)]
    for flag, path, write in writers:
        if not path:
            continue
        try:
            write()
        except OSError as exc:
            print(f"tcg-oracle: {flag} {path}: cannot write: {exc.strerror or exc}", file=sys.stderr)
            failed = True
    return failed


def _readable_baseline(args: argparse.Namespace) -> Any:
    """The run's ``--baseline`` as it reads now (:func:`oracle.baseline.readable_baseline`)."""
    from .baseline import readable_baseline

    return readable_baseline(getattr(args, "baseline", None))


def _print_summary(results, results_path: str, report_path: str, baseline: Any = None) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from .headline import headline
    from .model import STATUSES, Results

    from .editions import combined, not_held

    cases = combined(results.cases)  # one result per case, over the editions it was played under
    per_game: dict[str, dict[str, int]] = {}
    for c in cases:
        row = per_game.setdefault(c.game, dict.fromkeys(STATUSES, 0))
        row[c.status] += 1
    per_edition: dict[str, dict[str, dict[str, int]]] = {}
    for c in results.cases:
        if c.ruleset and not not_held(c):
            row = per_edition.setdefault(c.game, {}).setdefault(c.ruleset, dict.fromkeys(STATUSES, 0))
            row[c.status] += 1
    from rich.markup import escape

    engine = escape(printable(trim_text(f"{results.engine.name} {results.engine.version}", 200)))
    level = results.engine.level
    table = Table(title=f"tcg-oracle · engine {engine}"
                        + (f" · level {level}" if level else "")
                        + (" · PARTIAL" if results.partial else ""))
    shown = [s for s in STATUSES if s != "not_checkable" or results.summary.get(s)]
    for col in ("game", *shown, "total", "pass of run"):
        table.add_column(col.replace("_", " "), justify="left" if col == "game" else "right")
    for game, row in sorted(per_game.items()):
        editions = per_edition.get(game, {})
        if len(editions) > 1:  # each edition, then the game's cases over them
            for ed, erow in editions.items():
                others = sum(row.values()) - sum(erow.values())  # cases that hold only for other editions
                table.add_row(f"{game} · {ed}" + (f" ({others} not in it)" if others else ""),
                              *(str(erow[s]) for s in shown), str(sum(erow.values())), _pass_of_run(erow), style="dim")
            game = f"{game} (over {len(editions)} editions)"
        table.add_row(game, *(str(row[s]) for s in shown), str(sum(row.values())), _pass_of_run(row))
    s = Results.count(cases)
    table.add_row("all", *(str(s.get(k, 0)) for k in shown), str(len(cases)), _pass_of_run(s), style="bold")
    console = Console(stderr=False)
    console.print(table)
    console.print(f"pass: {headline(s).text()}", highlight=False)
    coverage = _coverage_line(results)
    if coverage:
        console.print(coverage, highlight=False)
    for c in results.cases:
        if c.status in ("fail", "error"):
            why = c.divergence.message if c.divergence else (c.error or "")
            where = f" [{c.ruleset}]" if results.ruleset == "all" and c.ruleset else ""
            exp = baseline.expected_failure(c.id, c.status) if baseline is not None else None
            if exp is not None:  # as the baseline expects: said as such, with its reason, not in red
                console.print(Text(f"expected {c.status}", style="yellow")
                              + Text(f" {printable(c.id)}{where}: {printable(trim_text(exp.describe(), 400))}"),
                              highlight=False)
                continue
            console.print(Text(c.status, style="red") + Text(f" {printable(c.id)}{where}: {printable(_short(why))}"),
                          highlight=False)
    console.print(f"results: {results_path}" + (f"   report: {report_path}" if report_path else ""))


def _coverage_line(results: Any) -> str | None:
    """Asserted clause coverage per game, over every edition the run (or runs: a list) played, from a trace
    tagged with clauses (the reference engine's); ``None`` when the results carry no asserted clauses."""
    many = list(results) if isinstance(results, (list, tuple)) else [results]
    if not any(c.asserted for r in many for c in r.cases):
        return None
    from .reports.coverage import game_coverage, load_catalogs
    from .reports.runs import split_runs

    runs = split_runs(many)
    games = sorted({c.game for r in many for c in r.cases})
    parts, short = [], False
    for g, (cat, _err) in load_catalogs(games).items():
        cov = game_coverage(g, cat, None, runs)
        if cov.available and cat is not None:
            parts.append(f"{g} {cov.covered}/{len(cov.testable)}"
                         + (f" over {len(cov.editions)} editions" if len(cov.editions) > 1 else ""))
            short = short or (cov.covered < len(cov.testable) and len(cat.rulesets) > len(cov.editions or [1]))
    if not parts:
        return None
    played_all = any(r.ruleset == "all" for r in many)
    hint = ("; some editions' cases were not all played: `tcg-oracle run --ruleset all` plays each case under "
            "every edition it holds for" if not played_all and (short or _one_edition_each(many)) else "")
    return "coverage (scenario-testable clauses asserted): " + " · ".join(parts) + hint


def _one_edition_each(many: Any) -> bool:
    """Each case played under one edition only, while some case holds for more (seen in its dumped case)."""
    eds: dict[str, set[str]] = {}
    holds = False
    for r in many:
        for c in r.cases:
            if c.ruleset:
                eds.setdefault(c.id, set()).add(c.ruleset)
            holds = holds or len((c.case or {}).get("rulesets") or []) > 1
    return holds and all(len(v) == 1 for v in eds.values())


def _pass_of_run(counts: Any) -> str:
    """``37/38`` (the cases run: neither skipped nor not checkable), with the rate."""
    from .headline import headline, pct

    h = headline(counts)
    return f"{h.passed}/{h.run}" + (f" {pct(h.rate)}" if h.rate is not None else "")


def _short(message: str) -> str:
    """A failure's message for the terminal: what was expected and, trimmed apart, the nearest actual moment
    (the part that says what the engine did; the results file keeps the whole message)."""
    head, sep, near = message.partition("; nearest: ")
    return trim_text(head, 400) + (sep + trim_text(near, 400) if sep else "")


def _portable(results, args: argparse.Namespace):
    """No path of this machine in what a run writes (results, report, baseline): see oracle/portable.py."""
    from .portable import portable

    return portable(results, args.cases)


def cmd_validate(args: argparse.Namespace) -> int:
    from . import registry
    from .errors import CaseFileError
    from .loader import CATALOG_FILE, CARDS_FILE, game_dir, load_cards, load_catalog, load_suite

    errors: list[str] = []
    for g in registry.names():
        for what, loader_ in ((CATALOG_FILE, load_catalog), (CARDS_FILE, load_cards)):
            if (game_dir(g) / what).exists():
                try:
                    loader_(g)
                except CaseFileError as exc:
                    errors.append(str(exc))
    if args.seeds is not None and not args.seeds.is_dir():
        return _usage(f"--seeds {args.seeds}: not a folder (give the folder of the seed texts)")
    suite = load_suite([*args.paths, *args.cases] or None)
    errors.extend(str(e) for e in suite.errors)
    notice = None
    if any(lc.case.source.kind == "seed" for lc in suite.cases):
        from . import paths
        from .seedquotes import seed_quote_errors

        seeds = args.seeds or paths.seeds_dir()
        if seeds is None:
            notice = ("seed quotes not checked: no seed texts (give --seeds DIR or set TCG_ORACLE_SEEDS; "
                      "shared/seeds beside a checkout is found by itself)")
        else:
            checked, bad = seed_quote_errors(suite.cases, seeds)
            errors.extend(str(e) for e in bad)
            notice = f"seed quotes: {checked} checked against {seeds}, {len(bad)} problem(s)"
    for e in errors:
        print(printable(e), file=sys.stderr)
    if notice:
        print(f"tcg-oracle: {printable(notice)}", file=sys.stderr)
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


def _needs_hypothesis(args: argparse.Namespace) -> int:
    """``fuzz`` runs on Hypothesis, an optional dependency: say how to install it rather than a traceback."""
    try:
        import hypothesis  # noqa: F401
    except ImportError:
        return _usage("fuzz needs Hypothesis: pip install 'tcg-oracle[fuzz]'")
    return _lazy(".fuzz")(args)


def _usage(message: str) -> int:
    print(f"tcg-oracle: {message}", file=sys.stderr)
    return EXIT_USAGE


def _write_json(path: Path, data: Any) -> None:
    from .outputs import write_json

    write_json(path, data)


_COMMANDS = {
    "run": cmd_run,
    "validate": cmd_validate,
    "schema": cmd_schema,
    "serve": _lazy(".harness.serve"),
    "merge": _lazy(".harness.merge"),
    "report": _lazy(".reports.cli"),
    "explain": _lazy(".explain"),
    "diff": _lazy(".reports.diff"),
    "bench": _lazy(".bench"),
    "fuzz": lambda args: _needs_hypothesis(args),
    "prove": _lazy(".smt.cli"),
    "mutants": _lazy(".mutants.cli"),
}


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
