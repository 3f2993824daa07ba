"""Fault injection, the Magic reference's 509.1c block-requirement search: on a board past its bound it
stops with an error naming the bound (never 100 s and 2 GB), and an in-process engine honours
``--timeout``."""

from __future__ import annotations

import time

import yaml

from oracle.harness.engine import ReferenceEngine
from oracle.harness.runner import run_suite
from oracle.loader import load_suite


def _menace_board(tmp_path, n: int):
    """``n`` menace attackers that must be blocked against ``n`` possible blockers (a synthetic board)."""
    attackers = [{"id": f"m{i}", "card": "Oracle Provoker"} for i in range(n)]
    blockers = [{"id": f"y{i}", "card": "Oracle Bear"} for i in range(n)]
    case = {
        "id": f"faults.mtg.menace-{n}", "game": "mtg", "rulesets": ["cr-20260807"],
        "title": f"{n} menace attackers that must be blocked against {n} possible blockers",
        "source": {"kind": "external", "document": "test", "edition": "1", "page": "1", "quote": "test"},
        "rules": ["mtg:509.1c"],
        "setup": {"active": "alice", "phase": "combat",
                  "players": {"alice": {"battlefield": attackers}, "bob": {"battlefield": blockers}}},
        "script": [{"alice": {"declare_attackers": {f"m{i}": "bob" for i in range(n)}}},
                   {"bob": {"declare_blockers": {}}},
                   {"bob": {"declare_blockers": {"y0": "m0", "y1": "m0"}}},
                   {"alice": {"assign_combat_damage": {"m0": {"y0": 2, "y1": 2}}}}],
        "expect": {"rejected": {"at": 1, "reason": "block_requirements_not_maximized"}},
    }
    (tmp_path / "case.yaml").write_text(yaml.safe_dump([case]), encoding="utf-8")
    return load_suite([tmp_path])


def test_a_search_past_its_bound_is_an_error_naming_the_bound(tmp_path):
    """Defect 3: 16 menace attackers against 16 possible blockers ran past 100 s and 2 GB."""
    suite = _menace_board(tmp_path, 16)
    assert not suite.errors, suite.errors
    start = time.monotonic()
    (c,) = run_suite(ReferenceEngine(), suite, timeout=0).cases
    assert c.status == "error" and "CR 509.1c" in c.error and "MAX_STATES" in c.error
    assert time.monotonic() - start < 60


def test_a_small_board_is_still_searched_exactly(tmp_path):
    (c,) = run_suite(ReferenceEngine(), _menace_board(tmp_path, 3)).cases
    assert c.status == "pass", c.error or c.divergence


def test_the_reference_in_process_honours_the_timeout(tmp_path, monkeypatch):
    """Defect 3: the in-process reference ignored --timeout (the bound lifted, the search runs long)."""
    from oracle.games.mtg import requirements

    monkeypatch.setattr(requirements, "MAX_STATES", 10 ** 9)
    start = time.monotonic()
    (c,) = run_suite(ReferenceEngine(), _menace_board(tmp_path, 16), timeout=1).cases
    assert c.status == "error" and c.error.startswith("timeout") and time.monotonic() - start < 30
