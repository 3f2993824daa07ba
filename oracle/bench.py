"""``tcg-oracle bench [--quick]``: the speed figures of the README, measured.

- CLI start: wall time of ``tcg-oracle --version`` in a fresh interpreter (median), next to a bare
  ``python -c pass``; and whether ``run`` imports z3 or hypothesis (it must not).
- Engine time per golden case: every loaded case on the in-process reference engine, median of repeats
  per case; the median, 90th percentile and maximum over the cases. Again with checkpoints (the state
  after each script entry, protocol 2), as ``serve`` sends them and an in-process run computes them for
  the cases that read them.
- JSON-lines round trips per second against ``tcg-oracle serve`` (one persistent process; see
  :func:`round_trips` for what one is): cycling through the golden cases, and one small case over and
  over (the protocol's own cost), each with the CPU time per round trip of the harness and of ``serve``
  (goal: 5,000 round trips/s); next to one process per case, and their ratio.
- Run time against the number of cases: the whole runner (load excluded) over the suite repeated 1x, 10x
  and 100x (``--quick``: 1x and 10x), seconds and seconds per case at each size, and the cost per case at
  the largest size over the smallest (1 or less: linear growth).
- The machine: its core count and load average, printed with the figures (other work on the machine slows
  every figure; compare runs made under the same load).
- Rendering the HTML report of 10,000 results (synthetic, with traces and boards): wall-clock and CPU
  seconds, and the file size (goals: under 2 s, under 8 MB).
- Z3 (``oracle/smt/bench.py``): a legality verdict on a 6x6 Magic board, next to the reference engine's
  and the brute force's; block-count enumeration by z3 against the brute force.
- Legal decisions (:mod:`oracle.core.legality`) at every decision point of every golden case: time per
  point to replay the prefix and enumerate (median of repeats per point; the median, 90th percentile and
  maximum over the points), candidates tried, legal decisions found.

- Generated examples per second (``tcg-oracle fuzz``), per game, one process: against the in-process
  reference engine and against ``cmd:"tcg-oracle serve"`` (generation, the reference's reply, the engine's
  reply and the comparison of each example).

Figures are printed, never asserted: speed is measured here, not by tests.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SERVE = [sys.executable, "-m", "oracle", "serve"]


def _median_run(argv: list[str], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def start_time(repeats: int) -> dict[str, float]:
    return {"python -c pass": _median_run([sys.executable, "-c", "pass"], repeats),
            "tcg-oracle --version": _median_run([sys.executable, "-m", "oracle", "--version"], repeats)}


def heavy_imports_of_run() -> list[str]:
    """Modules among z3 / hypothesis that ``tcg-oracle run`` imports (should be none)."""
    with tempfile.TemporaryDirectory() as tmp:
        code = ("import sys, json\nfrom oracle.cli import main\n"
                f"main(['run', '--results', {str(Path(tmp) / 'r.json')!r}, '--report', '', '--quiet'])\n"
                "print(json.dumps(sorted(m for m in ('z3', 'hypothesis') if m in sys.modules)))\n")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _requests(views: bool = False) -> list[Any]:
    """A request per golden case (its first ruleset that applies); ``views``: as the runner sends it to
    ``serve`` (level ``trace``, capability ``views``: checkpoints only where a check reads them)."""
    from . import registry
    from .harness.request import make_request, views_read
    from .harness.runner import choose_ruleset
    from .harness.serve import Behaviour
    from .loader import load_suite

    hello = Behaviour().hello(registry.names()) if views else None
    out = []
    for lc in load_suite().cases:
        ruleset, skip = choose_ruleset(lc, None)
        if not skip:
            out.append(make_request(lc.case, ruleset, lc.extra, views=views_read(lc.case, hello)))
    return out


def engine_time(requests: list[Any], repeats: int) -> dict[str, float]:
    from . import registry

    per_case = []
    for req in requests:
        game = registry.get(req.game)
        times = []
        try:
            for _ in range(repeats):
                t = time.perf_counter()
                game.run(req)
                times.append(time.perf_counter() - t)
        except Exception:  # a case that errs is not timed
            continue
        per_case.append(statistics.median(times))
    if not per_case:
        return {}
    per_case.sort()
    return {"cases": len(per_case), "median": statistics.median(per_case),
            "p90": per_case[int(0.9 * (len(per_case) - 1))], "max": per_case[-1]}


def legality_time(requests: list[Any], repeats: int = 1) -> dict[str, float]:
    """:func:`oracle.core.legality.legal_decisions` at every script entry of every golden case (the replay of
    the prefix included, as the harness asks it), median of ``repeats`` per point."""
    from .core.legality import legal_decisions

    per_point, tried, legal, most = [], 0, 0, 0
    for req in {r.game: r for r in requests if r.script}.values():  # warm up: each game's modules imported
        legal_decisions(req, 0)
    for req in requests:
        for i in range(len(req.script)):
            times = []
            try:
                for _ in range(repeats):
                    t = time.perf_counter()
                    p = legal_decisions(req, i)
                    times.append(time.perf_counter() - t)
            except Exception:  # a case that errs is not timed
                break
            per_point.append(statistics.median(times))
            tried, legal, most = tried + p.tried, legal + p.count, max(most, p.tried)
    if not per_point:
        return {}
    per_point.sort()
    return {"points": len(per_point), "median": statistics.median(per_point),
            "p90": per_point[int(0.9 * (len(per_point) - 1))], "max": per_point[-1],
            "tried": tried, "legal": legal, "most_tried": most}


def _cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) of a process so far, from ``/proc`` (``None`` where there is none)."""
    import os

    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _timed_round_trips(requests: list[Any], count: int, window: int = 1) -> dict[str, float]:
    """``count`` round trips over one ``serve`` process, cycling through ``requests``, with up to ``window``
    requests in flight (1: one request, then its reply; more: as ``run`` sends them to an engine that
    declares ``pipeline``, through :class:`oracle.harness.runner.Ahead`): per second (wall), and
    the CPU microseconds per round trip of the harness (this process: writing the request, reading, parsing
    and checking the reply) and of ``serve`` (reading the request, the engine, writing the reply)."""
    import resource

    from .harness.adapters import SubprocessEngine
    from .harness.runner import Ahead

    engine = SubprocessEngine(SERVE)
    # every request of the run its own id, as every case of a run has (several may be in flight at once)
    timed = [requests[n % len(requests)].model_copy(update={"id": f"{requests[n % len(requests)].id}#{n}"})
             for n in range(count)]
    try:
        engine.hello()
        assert window == 1 or engine.window >= window, "serve declares the capability pipeline"
        for req in requests[:count]:  # warm up: every game's modules imported, every case once
            engine.run_case(req, timeout=30)
        pid = engine._proc.pid if engine._proc is not None else 0
        serve0, own0 = _cpu_seconds(pid), resource.getrusage(resource.RUSAGE_SELF)
        ahead = Ahead(engine if window > 1 else object(), timed.__getitem__, count)  # as the runner sends them
        t = time.perf_counter()
        for n in range(count):
            engine.run_case(ahead.send_after(n), timeout=30)
        wall = time.perf_counter() - t
        serve1, own1 = _cpu_seconds(pid), resource.getrusage(resource.RUSAGE_SELF)
    finally:
        engine.close()
    own = (own1.ru_utime + own1.ru_stime) - (own0.ru_utime + own0.ru_stime)
    out = {"per_second": count / wall, "harness_us": own / count * 1e6}
    if serve0 is not None and serve1 is not None:
        out["serve_us"] = (serve1 - serve0) / count * 1e6
    return out


def round_trips(requests: list[Any], count: int, processes: int) -> dict[str, Any]:
    """JSON-lines round trips against ``tcg-oracle serve`` (the reference at level ``trace``). A round trip:
    the harness writes one ``case`` request line (as the runner sends it, with its ``views``), ``serve``
    answers one ``result`` line, the harness reads and checks it (:func:`oracle.harness.jsonl.parse_reply`:
    the whole reply validated against the protocol) -- everything of ``run_case`` but the comparison.

    - ``suite``: cycling through every golden case (the engine's own time included);
    - ``plumbing``: the golden case with the shortest request, over and over (the engine's time near
      zero: what the protocol itself costs);
    each pipelined (``PIPELINE_WINDOW`` in flight, as ``run`` sends them: serve declares ``pipeline``, so
    the harness checks one reply while serve plays the next case) and one at a time (``..._one``);
    - one process per case (a fresh ``serve`` for each, its start included), and the suite's ratio to it."""
    from .harness.adapters import PIPELINE_WINDOW, SubprocessEngine

    smallest = min(requests, key=lambda r: len(r.model_dump_json()))
    out: dict[str, Any] = {"cases": len(requests), "plumbing_case": smallest.id, "window": PIPELINE_WINDOW}
    for key, cycle in (("suite", requests), ("plumbing", [smallest])):
        out[key] = _timed_round_trips(cycle, count, PIPELINE_WINDOW)
        out[f"{key}_one"] = _timed_round_trips(cycle, count)
    t = time.perf_counter()
    for n in range(processes):
        one = SubprocessEngine(SERVE)
        try:
            one.hello()
            one.run_case(requests[n % len(requests)], timeout=30)
        finally:
            one.close()
    out["per_process"] = processes / (time.perf_counter() - t)
    out["ratio"] = out["suite"]["per_second"] / out["per_process"]
    return out


def linearity(factors: tuple[int, ...]) -> dict[int, dict[str, float]]:
    """``run_suite`` on the reference over the suite repeated ``factor`` times: its cases, seconds, and
    seconds per case (flat or falling as the suite grows: linear), wall clock and CPU (this process: what
    other work on the machine inflates least)."""
    from .harness.engine import ReferenceEngine
    from .harness.runner import run_suite
    from .loader import Suite, load_suite

    cases = load_suite().cases
    out = {}
    for factor in factors:
        suite = Suite(cases=cases * factor)
        t, cpu = time.perf_counter(), time.process_time()
        run_suite(ReferenceEngine(), suite)
        seconds, cpu = time.perf_counter() - t, time.process_time() - cpu
        n = max(1, len(suite.cases))
        out[factor] = {"cases": len(suite.cases), "seconds": seconds, "per_case": seconds / n, "cpu": cpu,
                       "cpu_per_case": cpu / n}
    return out


def render(n: int) -> dict[str, float]:
    from .reports.bench import render_times

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.html"
        seconds, cpu = render_times(n, out=out)
        return {"results": n, "seconds": seconds, "cpu": cpu, "megabytes": out.stat().st_size / 1e6}


def fuzz_rates(examples: int) -> dict[str, dict[str, float]]:
    """Examples per second of ``tcg-oracle fuzz`` per game: in process and over ``serve`` (one core)."""
    from . import registry
    from .fuzz import campaign  # imports hypothesis: only here and in fuzz

    serve = "cmd:" + " ".join(f'"{a}"' for a in SERVE)
    out: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for game in registry.names():
            out[game] = {}
            for label, spec in (("in process", "reference"), ("serve", serve)):
                o = campaign(game, spec, examples, 1, Path(tmp), "bench")
                out[game][label] = o.stats.examples / o.stats.seconds if o.stats.seconds else 0.0
    return out
def machine() -> dict[str, Any]:
    import os

    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return {"cores": os.cpu_count(), "load": [round(x, 2) for x in load] if load else None}


def measure(quick: bool = False) -> dict[str, Any]:
    figures: dict[str, Any] = {"quick": quick, "machine": machine()}
    figures["start"] = start_time(3 if quick else 10)
    figures["run_imports"] = heavy_imports_of_run()
    requests = _requests()
    figures["engine"] = engine_time(requests, 5 if quick else 30)
    figures["legality"] = legality_time(requests, 3 if quick else 10)
    from .core.game import observing

    with observing(checkpoints=True):
        figures["engine_checkpoints"] = engine_time(requests, 5 if quick else 30)
    if requests:
        figures["protocol"] = round_trips(_requests(views=True), 200 if quick else 2000, 5 if quick else 20)
    figures["linearity"] = linearity((1, 10) if quick else (1, 10, 100))
    figures["render"] = render(2000 if quick else 10000)
    figures.update(optional_figures(quick))
    return figures


NEEDS = {"fuzz": ("hypothesis", "fuzz: generated examples/s per game, in process / over serve",
                  "pip install 'tcg-oracle[fuzz]'"),
         "smt": ("z3", "z3: legality verdict, model building, block-count enumeration",
                 "pip install 'tcg-oracle[smt]'")}
"""The rows that need an optional dependency: figure key -> (module, rows, how to install it)."""


def _importable(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def optional_figures(quick: bool) -> dict[str, Any]:
    """The fuzz (Hypothesis) and z3 figures, each when its dependency is installed; ``needs``: the rows left
    out and what to install for them (``pip install -e .`` has neither)."""
    out: dict[str, Any] = {"needs": {}}
    for key, (module, rows, install) in NEEDS.items():
        if not _importable(module):
            out["needs"][rows] = install
        elif key == "fuzz":
            out["fuzz"] = fuzz_rates(50 if quick else 300)
        else:
            from .smt.bench import figures as smt_figures

            out["smt"] = smt_figures(quick)
    return out


def _table(fig: dict[str, Any]) -> Any:
    from rich.table import Table

    t = Table(title="tcg-oracle bench" + (" (--quick)" if fig["quick"] else ""))
    t.add_column("measure", overflow="fold")
    t.add_column("figure", justify="right")
    m = fig.get("machine") or {}
    t.add_row("machine: cores (load average 1/5/15 min at the start)",
              f"{m.get('cores')} ({' / '.join(map(str, m['load'])) if m.get('load') else 'n/a'})")
    for k, v in fig["start"].items():
        t.add_row(f"start: {k} (median)", f"{v * 1000:.0f} ms")
    t.add_row("start: z3 / hypothesis imported by run", ", ".join(fig["run_imports"]) or "none")
    e = fig["engine"]
    if e:
        t.add_row(f"engine: time per golden case, median of {e['cases']} cases", f"{e['median'] * 1e6:.0f} µs")
        t.add_row("engine: 90th percentile / max", f"{e['p90'] * 1e6:.0f} / {e['max'] * 1e6:.0f} µs")
    lg = fig.get("legality")
    if lg:
        t.add_row(f"legality: time per decision point, median / p90 / max of {lg['points']}",
                  f"{lg['median'] * 1e6:.0f} / {lg['p90'] * 1e6:.0f} / {lg['max'] * 1e6:.0f} µs")
        t.add_row("legality: candidates tried / legal found (most at one point)",
                  f"{lg['tried']:,} / {lg['legal']:,} ({lg['most_tried']:,})")
    c = fig.get("engine_checkpoints")
    if c:
        t.add_row("engine with checkpoints: median / p90 / max",
                  f"{c['median'] * 1e6:.0f} / {c['p90'] * 1e6:.0f} / {c['max'] * 1e6:.0f} µs")
    p = fig.get("protocol")
    if p:
        for key, what in (("suite", f"every golden case in turn ({p['cases']})"),
                          ("plumbing", f"one small case, {p['plumbing_case']}")):
            for suffix, how in (("", f"{p.get('window', 1)} in flight (pipeline, as `run` sends them)"),
                                ("_one", "one at a time")):
                r = p.get(key + suffix)
                if not r:
                    continue
                cpu = f"; CPU µs per round trip: harness {r['harness_us']:.0f}" + (
                    f", serve {r['serve_us']:.0f}" if "serve_us" in r else "")
                t.add_row(f"JSON lines: round trips/s, one `serve` process (reference, level trace), {what}, "
                          f"{how}", f"{r['per_second']:.0f}/s{cpu}")
        t.add_row("JSON lines: cases/s, one process per case", f"{p['per_process']:.1f}/s")
        t.add_row("JSON lines: ratio (every golden case, one process / one per case)", f"{p['ratio']:.0f}x")
    runs = fig.get("linearity") or {}
    for factor, r in runs.items():
        t.add_row(f"run: the suite x{factor} ({r['cases']:,} cases), reference in process",
                  f"{r['seconds']:.2f} s, {r['per_case'] * 1000:.2f} ms per case; CPU {r['cpu']:.2f} s, "
                  f"{r['cpu_per_case'] * 1000:.2f} ms per case")
    if len(runs) > 1:
        first, last = min(runs), max(runs)
        growth = runs[last]["cpu_per_case"] / runs[first]["cpu_per_case"]
        t.add_row(f"run: CPU per case at x{last} / at x{first} (linear: about 1; quadratic: about "
                  f"{last // first})", f"{growth:.2f}")
    r = fig.get("render")
    if r:
        t.add_row(f"report: render {r['results']:,} results (synthetic, traces and boards included)",
                  f"{r['seconds']:.2f} s (CPU {r['cpu']:.2f} s), {r['megabytes']:.1f} MB")
    for game, rates in (fig.get("fuzz") or {}).items():
        t.add_row(f"fuzz: {game} generated examples/s, in process / over serve (one core)",
                  " / ".join(f"{v:.0f}/s" for v in rates.values()))
    if fig.get("smt"):
        from .smt.bench import rows

        for measure_, figure in rows(fig["smt"]):
            t.add_row(measure_, figure)
    from rich.markup import escape

    for rows_, install in (fig.get("needs") or {}).items():  # escaped: rich would read [fuzz] as a style
        t.add_row(rows_, escape(f"not measured: {install}"))
    return t


def main(args: argparse.Namespace) -> int:
    from rich.console import Console

    fig = measure(quick=getattr(args, "quick", False))
    Console().print(_table(fig))
    print(f"command: {sys.executable} -m oracle bench" + (" --quick" if fig["quick"] else ""))
    for rows_, install in (fig.get("needs") or {}).items():
        print(f"tcg-oracle bench: not measured ({rows_}): {install}", file=sys.stderr)
    return 0
