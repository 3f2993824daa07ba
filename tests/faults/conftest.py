"""The fault-injection suite: the toy game registered, the fault engines importable."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
HARNESS = HERE.parent / "harness"
FIXTURES = HARNESS / "fixtures" / "cases"
for p in (HERE, HARNESS):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))


@pytest.fixture
def toy(monkeypatch):
    """Register the toy game and point the case root at the harness fixtures."""
    from oracle import paths, registry

    monkeypatch.setitem(registry._GAMES, "toy", "toygame")
    monkeypatch.setattr(paths, "cases_dir", lambda: FIXTURES)
    return FIXTURES / "toy"
