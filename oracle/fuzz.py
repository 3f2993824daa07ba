"""``tcg-oracle fuzz``: an engine against the reference engine on generated boards and scripts.

Each example is a generated case (:mod:`oracle.generators`) whose expectations are the reference engine's
reply; it is run on the engine under test and compared at the level the engine declares, within the
abilities its hello declares, exactly as a golden case is -- except that a state field the engine's state
does not have is not checkable (the expectations are the reference's whole state, not fields a case chose).

A disagreement is an example that fails: the engine decided differently. Expectations it cannot show are
counted as not checkable, examples its adapter cannot run (``error``) as not run (:mod:`.fuzz_tally`).
The first disagreement is shrunk by Hypothesis (smaller board, fewer decisions), its expectations cut to the
fewest that still show it, and written as a case file that passes on the reference and fails on the engine;
``--keep-going`` instead plays every example and saves, per kind of disagreement, its smallest example (its
expectations cut, its board not shrunk further). ``--workers`` runs campaigns with different seeds on the
cores of this machine. Only this command and the generators import Hypothesis.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import shlex
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import yaml
from hypothesis import HealthCheck, Phase, event, given, seed as hseed, settings, target

from .errors import Disagreement
from . import registry
from .fuzz_tally import Tally
from .generators.cases import Play, expectations, final_fields, moments_of, plays, to_case
from .generators.facts import facts
from .generators.profiles import database
from .harness.adapters import make_engine
from .harness.engine import Engine, ReferenceEngine
from .harness.runner import run_case
from .loader import LoadedCase
from .model import Case, CaseResult, Hello

EXIT_OK, EXIT_DISAGREE, EXIT_USAGE, EXIT_ENGINE = 0, 1, 2, 3
PHASES = (Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink)
"""No ``target`` phase: measured on 1,000 examples per game it spent the budget hill-climbing around a few
boards (fewer distinct boards, fewer clauses). The ``target`` scores are still reported, for HypoFuzz."""


@dataclass
class Stats:
    examples: int = 0
    seconds: float = 0.0
    boards: set[str] = field(default_factory=set)
    clauses: Counter = field(default_factory=Counter)
    tally: Tally = field(default_factory=Tally)

    def add(self, other: "Stats") -> None:
        self.examples += other.examples
        self.seconds = max(self.seconds, other.seconds)
        self.boards |= other.boards
        self.clauses.update(other.clauses)
        self.tally.add(other.tally)


@dataclass
class FuzzOutcome:
    stats: Stats
    failure: str | None = None
    """The saved case file of the (first) disagreement."""
    message: str | None = None
    found: list[tuple[str, str]] = field(default_factory=list)
    """Every saved disagreement: (case file, message) -- one, or one per kind with ``--keep-going``."""


def full_case(play: Play, seed: Any, command: str) -> Case:
    return to_case(play, expectations(play.reply), seed=seed, command=command)


DEFAULT_TIMEOUT = 10.0
"""Seconds a generated case may take on the engine (``fuzz --timeout``), as ``run``'s default."""


def verdict(engine: Engine, hello: Hello, case: Case, timeout: float | None = DEFAULT_TIMEOUT) -> CaseResult:
    """The generated case on ``engine``, at its declared level (as ``tcg-oracle run`` would), a state field
    the engine does not have being not checkable; a hang costs the case (an ``error``) after ``timeout``
    seconds."""
    return run_case(engine, LoadedCase(case, "<generated>", 0), case.rulesets[0], hello.engine.name,
                    timeout=timeout or None, keep_trace=False, hello=hello, unshown=True)


def fewest(play: Play, engine: Engine, hello: Hello, seed: Any, command: str,
           timeout: float | None = DEFAULT_TIMEOUT) -> Case:
    """The case with the fewest expectations that passes on the reference and fails on ``engine``: one
    winner, one final field or one moment when one shows it (every refusal stays expected: a refusal a case
    does not expect fails it); else two moments, the one the whole case fails at and one before it (an
    engine at level ``steps`` that reports a decision's events in another step: each moment alone is found);
    else all of them."""
    reference, ref_hello = ReferenceEngine(), ReferenceEngine().hello()
    reply = play.reply
    tries: list[dict[str, Any]] = [expectations(reply, events=None, final=None, winner=True)]
    tries += [expectations(reply, events=None, final=[f], winner=False) for f in final_fields(reply)]
    tries += [expectations(reply, events=[i], final=None, winner=False) for i in range(len(moments_of(reply)))]
    for expect in tries:
        case = to_case(play, expect, seed=seed, command=command)
        if verdict(engine, hello, case, timeout).status == "fail" and \
                verdict(reference, ref_hello, case).status == "pass":
            return case
    whole = to_case(play, expectations(reply), seed=seed, command=command)
    d = verdict(engine, hello, whole, timeout).divergence
    if d is not None and d.what == "moment" and isinstance(d.index, int):
        for j in reversed(range(d.index)):
            case = to_case(play, expectations(reply, events=[j, d.index], final=None, winner=False), seed=seed,
                           command=command)
            if verdict(engine, hello, case, timeout).status == "fail" and \
                    verdict(reference, ref_hello, case).status == "pass":
                return case
    return whole


def save(case: Case, directory: Path) -> Path:
    """The case as a new file in ``directory``: ``<id>.yaml``, or ``<id>-2.yaml`` ... when that name is taken
    (a case saved by an earlier campaign is never overwritten)."""
    from .outputs import write_new

    data = case.model_dump(mode="json", exclude_unset=True)
    text = (f"# Found by: {case.source.command}\n"  # type: ignore[union-attr]
            + yaml.safe_dump([data], allow_unicode=True, sort_keys=False, width=120))
    return write_new(directory, case.id, ".yaml", text)


def _size(play: Play) -> tuple[int, int]:
    return len(play.script), len(repr(play.setup))


def campaign(game: str, spec: str, examples: int, seed: int, save_dir: Path | None, command: str,
             seeds: bool = True, timeout: float | None = DEFAULT_TIMEOUT, keep_going: bool = False,
             tick: Callable[[], None] | None = None,
             on_play: Callable[[Play], None] | None = None) -> FuzzOutcome:
    """One Hypothesis campaign of ``examples`` generated cases on one engine (``seeds``: some boards start
    from golden setups, mutated; ``on_play``: called with every example counted). It stops at the first
    disagreement and shrinks it; ``keep_going``: plays every example and keeps each kind's smallest."""
    engine = make_engine(spec)
    try:
        hello = engine.hello()
        abilities = (hello.abilities or {}).get(game)
        stats = Stats()
        failing: list[Play] = []
        kinds: dict[str, tuple[Play, str]] = {}  # keep_going: signature -> smallest example, its message
        facts(game)  # what the generators read of the game (its golden cases): loaded once, before the clock
        start = time.perf_counter()

        @settings(max_examples=examples, database=database(), deadline=None, derandomize=False,
                  suppress_health_check=list(HealthCheck), report_multiple_bugs=False, print_blob=False,
                  phases=PHASES)
        @hseed(seed)
        @given(plays(game, abilities, seeds))
        def differential(play: Play) -> None:
            shrinking = bool(failing)  # its attempts at the first disagreement are not examples of the campaign
            if not shrinking:
                stats.examples += 1
                stats.boards.add(play.board_key)
                clauses = play.clauses
                stats.clauses.update(set(clauses))
                for c in clauses:
                    event(c)
                target(float(len(set(clauses))), label="distinct clauses")
                target(sum(1.0 / stats.clauses[c] for c in set(clauses)), label="rare clauses")
                if tick:
                    tick()
                if on_play:
                    on_play(play)
            case = full_case(play, seed, command)
            result = verdict(engine, hello, case, timeout)
            if shrinking:
                sig = "shrinking" if result.status == "fail" else None
            else:
                sig = stats.tally.count(case, result)
            if sig is None:
                return
            if keep_going:
                if sig not in kinds or _size(play) < _size(kinds[sig][0]):
                    kinds[sig] = (play, _why(result))
                return
            if not failing:
                stats.seconds = time.perf_counter() - start  # the campaign's time: shrinking is not counted
            failing.append(play)
            raise Disagreement(_why(result))  # one place: Hypothesis tells failures apart by where they raise

        try:
            differential()
        except Disagreement as exc:
            case = fewest(failing[-1], engine, hello, seed, command, timeout)
            path = save(case, save_dir or Path("fuzz-failures"))
            return FuzzOutcome(stats, str(path), str(exc), [(str(path), str(exc))])
        stats.seconds = time.perf_counter() - start
        found = []
        for sig, (play, why) in kinds.items():
            path = save(fewest(play, engine, hello, seed, command, timeout), save_dir or Path("fuzz-failures"))
            found.append((str(path), f"[{sig}] {why}"))
        return FuzzOutcome(stats, found[0][0] if found else None, found[0][1] if found else None, found)
    finally:
        engine.close()


def _why(result: CaseResult) -> str:
    return f"{result.status}: {result.divergence.message if result.divergence else result.error}"


_COUNTER: Any = None


def _init(counter: Any) -> None:
    global _COUNTER
    _COUNTER = counter


def _tick() -> None:
    with _COUNTER.get_lock():
        _COUNTER.value += 1


def _worker(job: tuple) -> FuzzOutcome:
    return campaign(*job, tick=_tick)


def clause_table(game: str, clauses: Counter, ruleset: str | None = None) -> tuple[list[str], int, int]:
    """Lines ``clause  count`` for every scenario-testable clause of the catalog (``clauses``: clause -> the
    examples whose reference trace is tagged with it), and (executed, testable): a clause the trace names
    that the catalog does not mark testable is not counted."""
    f = facts(game)
    testable = sorted(f.testable)
    lines = [f"  {c:<40} {clauses.get(c, 0):>7}" for c in testable]
    return lines, sum(1 for c in testable if clauses.get(c)), len(testable)


def summary(game: str, stats: Stats, elapsed: float, workers: int) -> str:
    """The line a campaign ends with: examples, rate, distinct boards, and the clause figure (scenario-testable
    clauses of the catalog that at least one example's reference trace executed, over all of them)."""
    _, executed, testable = clause_table(game, stats.clauses)
    rate = stats.examples / elapsed if elapsed else 0.0
    return (f"{game}: {stats.examples} examples in {elapsed:.1f} s ({rate:.0f} examples/s, {workers} "
            f"worker{'s' if workers > 1 else ''}); {len(stats.boards)} distinct boards; "
            f"clauses executed {executed}/{testable} scenario-testable ({100 * executed / max(testable, 1):.0f}%)")


def main(args: argparse.Namespace) -> int:
    game = args.game
    if game not in registry.names():
        print(f"tcg-oracle: --game {game!r}: unknown game; the games are {', '.join(registry.names())}",
              file=sys.stderr)
        return EXIT_USAGE
    if args.examples < 1 or args.workers < 1:
        print("tcg-oracle: --examples and --workers take 1 or more", file=sys.stderr)
        return EXIT_USAGE
    if not math.isfinite(args.timeout) or args.timeout < 0:
        print(f"tcg-oracle: --timeout {args.timeout:g}: give seconds, a finite number 0 or more (0: no timeout)",
              file=sys.stderr)
        return EXIT_USAGE
    from .outputs import unwritable_folder

    if args.save_failures and (why := unwritable_folder(args.save_failures)):  # said before the campaign
        print(f"tcg-oracle: --save-failures {args.save_failures}: {why}", file=sys.stderr)
        return EXIT_USAGE
    from .core.errors import EngineStartError

    try:
        engine = make_engine(args.engine)
        hello = engine.hello()
        engine.close()
    except ValueError as exc:
        print(f"tcg-oracle: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except EngineStartError as exc:
        print(f"tcg-oracle: the engine could not be started: {exc}", file=sys.stderr)
        return EXIT_ENGINE
    if game not in hello.games:
        print(f"tcg-oracle: engine {hello.engine.name} does not play {game}", file=sys.stderr)
        return EXIT_USAGE
    command = "tcg-oracle " + shlex.join(getattr(args, "argv", None) or
                                         ["fuzz", "--game", game, "--engine", args.engine,
                                          "--examples", str(args.examples), "--seed", str(args.seed)])
    n = args.workers
    shares = [args.examples // n + (1 if i < args.examples % n else 0) for i in range(n)]
    keep_going = bool(getattr(args, "keep_going", False))
    jobs = [(game, args.engine, share, args.seed * 1009 + i if i else args.seed, args.save_failures, command,
             not args.no_seeds, args.timeout, keep_going) for i, share in enumerate(shares) if share]
    show = not args.quiet and sys.stderr.isatty()
    start = time.perf_counter()
    outcomes = _run(jobs, show, args.examples)
    elapsed = time.perf_counter() - start
    total = Stats()
    for o in outcomes:
        total.add(o.stats)
    lines, _, _ = clause_table(game, total.clauses)
    print(summary(game, total, elapsed, len(jobs)))
    print("\n".join(total.tally.lines()))
    if args.clauses:
        print("\n".join(lines))
    else:
        missing = [line.split()[0] for line in lines if line.split()[-1] == "0"]
        if missing:
            print(f"  not executed: {', '.join(missing)}")
    failures = [f for o in outcomes for f in o.found]
    for path, message in failures:
        print(f"DISAGREEMENT with {hello.engine.name}: {message}\n  {'case' if keep_going else 'shrunk case'}: "
              f"{path}\n  replay: tcg-oracle run --engine {shlex.quote(args.engine)} --cases {path}")
    if failures:
        return EXIT_DISAGREE
    if total.examples and total.tally.statuses["error"] == total.examples:
        print(f"tcg-oracle: {hello.engine.name} ran none of the {total.examples} examples (every one an error)",
              file=sys.stderr)
        return EXIT_ENGINE
    return EXIT_OK


def _run(jobs: list[tuple], show: bool, total: int) -> list[FuzzOutcome]:
    if len(jobs) == 1 and not show:
        return [campaign(*jobs[0])]
    if len(jobs) == 1:
        with _bar(total) as advance:
            return [campaign(*jobs[0], tick=advance)]
    counter = mp.get_context("spawn").Value("i", 0)
    with ProcessPoolExecutor(len(jobs), mp_context=mp.get_context("spawn"), initializer=_init,
                             initargs=(counter,)) as pool:
        futures = [pool.submit(_worker, job) for job in jobs]
        if show:
            with _bar(total) as advance:
                seen = 0
                while not all(f.done() for f in futures):
                    time.sleep(0.2)
                    now = counter.value
                    for _ in range(now - seen):
                        advance()
                    seen = now
        return [f.result() for f in futures]


class _bar:
    def __init__(self, total: int) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.progress = Progress(TextColumn("fuzz"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                                 console=Console(stderr=True), transient=True)
        self.total = total

    def __enter__(self) -> Callable[[], None]:
        self.progress.__enter__()
        task = self.progress.add_task("fuzz", total=self.total)
        return lambda: self.progress.update(task, advance=1)

    def __exit__(self, *exc: Any) -> None:
        self.progress.__exit__(*exc)
