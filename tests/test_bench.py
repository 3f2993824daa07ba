"""Benchmarks (pytest-benchmark, few rounds so the normal run stays quick) and the bench command's parts.

Nothing here asserts a time: the figures are read from ``tcg-oracle bench`` and ``--benchmark-only``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HARNESS = Path(__file__).resolve().parent / "harness"
ROUNDS = dict(rounds=5, iterations=1, warmup_rounds=1)


@pytest.fixture
def toy_requests(monkeypatch):
    from oracle import paths, registry
    from oracle.harness.request import make_request
    from oracle.loader import load_suite

    monkeypatch.syspath_prepend(str(HARNESS))
    monkeypatch.setitem(registry._GAMES, "toy", "toygame")
    monkeypatch.setattr(paths, "cases_dir", lambda: HARNESS / "fixtures" / "cases")
    return [make_request(lc.case, lc.case.rulesets[0]) for lc in load_suite(None, games=["toy"]).cases]


def test_bench_reference_engine_per_case(benchmark, toy_requests):
    from oracle import registry

    game = registry.get("toy")
    replies = benchmark.pedantic(lambda: [game.run(r) for r in toy_requests], **ROUNDS)
    assert [r.id for r in replies] == [r.id for r in toy_requests] and not any(r.error for r in replies)


def test_bench_protocol_framing(benchmark, toy_requests):
    from oracle import registry
    from oracle.harness import jsonl

    replies = [registry.get("toy").run(r) for r in toy_requests]

    def frame():
        return [jsonl.parse_reply(jsonl.encode(r), r.id) for r in replies]

    back = benchmark.pedantic(frame, **ROUNDS)
    assert [b.model_dump(mode="json") for b in back] == [r.model_dump(mode="json") for r in replies]


def test_bench_serve_round_trip(benchmark, toy_requests):
    from oracle.harness.adapters import SubprocessEngine

    engine = SubprocessEngine([sys.executable, str(HARNESS.parent / "engines" / "toy_oracle.py"), "serve"])
    try:
        engine.hello()
        replies = benchmark.pedantic(lambda: [engine.run_case(r, timeout=30) for r in toy_requests], **ROUNDS)
    finally:
        engine.close()
    assert engine.restarts == 0 and all(r.error is None for r in replies)


def test_bench_measures_engine_time(toy_requests):
    from oracle.bench import engine_time

    fig = engine_time(toy_requests, repeats=2)
    assert fig["cases"] == len(toy_requests) and 0 < fig["median"] <= fig["p90"] <= fig["max"]


def test_run_imports_neither_z3_nor_hypothesis():
    from oracle.bench import heavy_imports_of_run

    assert heavy_imports_of_run() == []


def test_bench_measures_legality_at_every_decision_point():
    from oracle.bench import legality_time
    from oracle.harness.request import make_request
    from oracle.loader import load_suite

    requests = [make_request(lc.case, lc.case.rulesets[0]) for lc in load_suite(games=["ijinden"]).cases[:3]]
    fig = legality_time(requests)
    assert fig["points"] == sum(len(r.script) for r in requests)
    assert 0 < fig["median"] <= fig["p90"] <= fig["max"] and fig["legal"] >= fig["points"] > 0


def test_bench_without_the_optional_dependencies_says_what_to_install(monkeypatch, capsys):
    """`pip install -e .` has neither Hypothesis nor z3: bench crashed with a traceback (fuzz imports
    hypothesis); it measures what it can and names the rows that need an extra."""
    from rich.console import Console

    from oracle import bench

    monkeypatch.setitem(sys.modules, "hypothesis", None)  # `import hypothesis` raises ImportError
    monkeypatch.setitem(sys.modules, "z3", None)
    fig = bench.optional_figures(quick=True)
    assert "fuzz" not in fig and "smt" not in fig
    assert sorted(fig["needs"].values()) == ["pip install 'tcg-oracle[fuzz]'", "pip install 'tcg-oracle[smt]'"]
    table = {"quick": True, "machine": {}, "start": {}, "run_imports": [], "engine": None, **fig}
    console = Console(width=300)
    with console.capture() as out:
        console.print(bench._table(table))
    text = "".join(out.get().split())  # the table folds long cells
    assert "notmeasured:pipinstall'tcg-oracle[fuzz]'" in text and "'tcg-oracle[smt]'" in text
