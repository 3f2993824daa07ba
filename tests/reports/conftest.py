"""The report toy game (report_toy.py) registered for a test, with its cases in a temporary folder."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))


def _clear_caches() -> None:
    from oracle import loader, registry

    loader.load_catalog.cache_clear()
    loader.load_cards.cache_clear()
    registry.get.cache_clear()


@pytest.fixture
def rtoy(monkeypatch, tmp_path):
    """Register the toy game; its catalog, cards and cases live under tmp_path/cases/rtoy."""
    from oracle import paths, registry

    import report_toy

    root = tmp_path / "cases"
    report_toy.write_toy(root)
    monkeypatch.setitem(registry._GAMES, report_toy.GAME_NAME, "report_toy")
    monkeypatch.setattr(paths, "cases_dir", lambda: root)
    _clear_caches()
    yield root
    _clear_caches()


@pytest.fixture
def toy_results(rtoy):
    """[reference results, results of the one-at-a-time engine] on the toy cases."""
    from oracle.harness.engine import ReferenceEngine
    from oracle.harness.runner import run_suite
    from oracle.loader import load_suite

    import report_toy

    suite = load_suite(games=[report_toy.GAME_NAME])
    assert not suite.errors, suite.errors
    ref = run_suite(ReferenceEngine(games=[report_toy.GAME_NAME]), suite, command="tcg-oracle run --game rtoy")
    mut = run_suite(report_toy.OneAtATime(), suite,
                    command="tcg-oracle run --engine py:report_toy:OneAtATime --game rtoy")
    return [ref, mut]
