"""Ijinden: the refusal order PROCEDURE.md states ("the first in this order is the reason") is the
reference's, on boards where two reasons apply (as tests/games/test_dm_precedence.py does for Duel Masters)."""

from __future__ import annotations

from pathlib import Path

import pytest

from oracle.core.legality import check
from oracle.harness.request import make_request
from oracle.model import Case

RULESET = "ijinden-rulecard-2.0-231225"
PROCEDURE = (Path(__file__).resolve().parents[2] / "cases/ijinden/PROCEDURE.md").read_text(encoding="utf-8")
ORDER_TEXT = PROCEDURE.split("the first in this order is the reason:", 1)[1].split("\n\n", 1)[0]


def request(setup: dict, script: list) -> dict:
    case = Case.model_validate({
        "id": "unit", "game": "ijinden", "rulesets": [RULESET], "title": "unit",
        "source": {"kind": "seed", "document": "battle-article", "quote": "x"}, "rules": ["ijinden:A1"],
        "setup": setup, "script": script, "expect": {"winner": None}})
    return make_request(case, RULESET).model_dump(
        mode="json", include={"game", "ruleset", "setup", "script", "cards"})  # the board a legality query holds


def ijin(cid: str, **kw) -> dict:
    return {"id": cid, "card": "テスト用イジン", "power": 1000, **kw}


def documented_before(first: str, other: str, within: str) -> bool:
    """In the PROCEDURE's line for ``within`` (its text from that phrase on), ``first`` comes before ``other``."""
    text = ORDER_TEXT.split(within, 1)[1]
    return f"`{first}`" in text and text.index(f"`{first}`") < text.index(f"`{other}`")


ATTACK = "the battle declaration:"
BLOCK = "then per blocker:"
CASES = [
    ("not-yours-before-sleeping", ATTACK,
     {"active": "alice", "players": {"alice": {"battlefield": [ijin("a1")]},
                                     "bob": {"battlefield": [ijin("b1", sleeping=True)]}}},
     [], {"alice": {"declare_attackers": ["b1"]}}, "attacker_not_yours", "attacker_sleeping"),
    ("not-ijin-before-sleeping", ATTACK,
     {"active": "alice", "players": {"alice": {"battlefield": [{"id": "g1", "card": "テスト用ガーディアン",
                                                                 "sleeping": True}]},
                                     "bob": {"battlefield": []}}},
     [], {"alice": {"declare_attackers": ["g1"]}}, "attacker_not_ijin", "attacker_sleeping"),
    ("sleeping-before-placed-this-turn", ATTACK,
     {"active": "alice", "players": {"alice": {"battlefield": [ijin("a1", sleeping=True, entered_this_turn=True)]},
                                     "bob": {"battlefield": []}}},
     [], {"alice": {"declare_attackers": ["a1"]}}, "attacker_sleeping", "attacker_placed_this_turn"),
    ("per-card-in-order-not-unknown-first", ATTACK,
     {"active": "alice", "players": {"alice": {"battlefield": [ijin("a1")]},
                                     "bob": {"battlefield": [ijin("b1")]}}},
     [], {"alice": {"declare_attackers": ["b1", "ghost"]}}, "attacker_not_yours", None),
    ("not-defenders-before-sleeping", BLOCK,
     {"active": "alice", "step": "block",
      "players": {"alice": {"battlefield": [ijin("a1", sleeping=True, attacking=True), ijin("a2", sleeping=True)]},
                  "bob": {"battlefield": [ijin("b2")]}}},
     [], {"bob": {"declare_blockers": {"a1": ["a2"]}}}, "blocker_not_defenders", "blocker_sleeping"),
]


@pytest.mark.parametrize("cid, within, setup, before, decision, first, other", CASES, ids=[c[0] for c in CASES])
def test_the_documented_ijinden_order_is_the_references(cid, within, setup, before, decision, first, other):
    assert other is None or documented_before(first, other, within), (first, other)
    verdict = check(request(setup, [*before, decision]), len(before), decision)
    assert verdict is not None and verdict.reason == first, (cid, verdict)
