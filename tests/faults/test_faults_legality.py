"""Fault injection, the legality query: an engine that crashes on it, answers another query's id or
sends a bogus reply has broken its answer -- the case is an ``error`` (the run exits 1), as a broken
reply to a case is, never a quiet "not checkable"."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HARNESS = Path(__file__).resolve().parent.parent / "harness"
sys.path.insert(0, str(HARNESS))

import level_engines  # noqa: E402

from oracle.harness.adapters import PythonEngine  # noqa: E402
from oracle.harness.serve import Behaviour  # noqa: E402
from oracle.harness.runner import run_suite  # noqa: E402
from oracle.loader import load_suite  # noqa: E402
from oracle.model import LegalityReply  # noqa: E402

SIEGE = "mtg.cast.siege-protector-must-be-opponent"  # its refusal is asked through the legality query


class Broken(level_engines.LevelEngine):
    def __init__(self, how: str) -> None:
        super().__init__(Behaviour(observation="final", automatic=True))
        self.how = how

    def legality(self, request, timeout=None):
        if self.how == "raises":
            raise RuntimeError("legality crashed")
        if self.how == "wrong-id":
            return LegalityReply(id="someone-else", accepted=False)
        if self.how == "bogus":
            return {"id": request.id, "accepted": "perhaps", "bogus": 1}
        return None


@pytest.mark.parametrize("how, words", [("raises", "RuntimeError: legality crashed"),
                                        ("wrong-id", "answered legality query 'someone-else'"),
                                        ("bogus", "does not match the protocol"),
                                        ("none", "returned NoneType")])
def test_a_broken_legality_answer_is_the_cases_error(how, words):
    """Defect 14: a crash, a wrong id or a bogus reply only made the check "not checkable" (exit 0)."""
    engine = PythonEngine(lambda: Broken(how), f"py:broken-{how}")
    suite = load_suite(games=["mtg"])
    (c,) = run_suite(engine, suite, k=SIEGE).cases
    assert c.status == "error" and words in c.error and "legality query on decision" in c.error


def test_a_good_legality_answer_still_passes():
    engine = PythonEngine(lambda: level_engines.LevelEngine(Behaviour(observation="final", automatic=True)), "x")
    (c,) = run_suite(engine, load_suite(games=["mtg"]), k=SIEGE).cases
    assert c.status == "pass"
