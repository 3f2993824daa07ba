"""The toy game (tests/harness/toygame.py) and its fixture cases, registered for a test."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures" / "cases"
ENGINES = HERE.parent / "engines"
TOY_CASES = FIXTURES / "toy"

if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))


@pytest.fixture
def toy(monkeypatch):
    """Register the toy game and point the case root at the fixtures."""
    from oracle import paths, registry

    monkeypatch.setitem(registry._GAMES, "toy", "toygame")
    monkeypatch.setattr(paths, "cases_dir", lambda: FIXTURES)
    return TOY_CASES
