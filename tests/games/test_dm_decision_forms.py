"""Duel Masters: a decision's arguments take the shapes of the vocabulary's decision table and no other.

The table (vocabulary.py ``DECISIONS``) gives each kind a bare card id and, for some kinds, one mapping form
(``block {blocker}``, ``tap_ability``/``decline {card}``, ``use {card, discard?}``, ``choose_card {take,
bottom}``, ``attack {attacker, target}``). Any other mapping -- a key the table does not name for that kind, a
key missing -- is ``malformed_decision`` and changes nothing (PROCEDURE.md, "Refusal precedence"). Each row:
the board, the decisions before, the decision, the ruleset, and the verdict (None: accepted)."""

from __future__ import annotations

import pytest

from oracle.core.legality import check

from test_dm_precedence import TT, blocker, request
from test_duelmasters import CURRENT, RULESET, atk, events, one, run, shields, vanilla

ATTACK = {"alice": {"battlefield": [vanilla("a", 1000)]}, "bob": {"shields": shields("s1")}}
BLOCK = {"alice": {"battlefield": [vanilla("a", 1000)]}, "bob": {"battlefield": [blocker("b")], "shields": shields("s1")}}
TARGET = {"alice": {"battlefield": [{"id": "k", "card": "試験用アタック破壊", "power": 1000}]},
          "bob": {"battlefield": [vanilla("c", 1000)], "shields": shields("s1")}}
DISCARD = {"alice": {"battlefield": [{"id": "h", "card": "試作型ハンデステスター", "power": 1000}]},
           "bob": {"hand": [vanilla("h1", 1)], "shields": shields("s1")}}
LOOK = {"alice": {"battlefield": [vanilla("a", 2000)]},
        "bob": {"battlefield": [{"id": "fc", "card": "フェアリー・キャンドル"}], "deck": [vanilla("d1", 1), vanilla("d2", 1)],
                "shields": 1}}
TRIGGER = {"alice": {"battlefield": [vanilla("a", 1000)]},
           "bob": {"shields": [{"id": "st", "card": "試験用Ｓ・トリガードロー"}], "deck": 2}}
DYNAMO = {"alice": {"battlefield": [vanilla("a", 1000), {"id": "dy", "card": "試験用ダイナモ", "power": 1000}]},
          "bob": {"battlefield": [vanilla("c", 2000, tapped=True)]}}
OPEN_TT = {"alice": {"battlefield": [{"id": "tt", "card": TT, "power": 1000}]},
           "bob": {"battlefield": [vanilla("c", 1000)]}}
BLOCKED = [atk("a", "bob")]
SHIELD = [atk("a", "bob"), {"alice": {"choose_shield": "st"}}]

# (id, board, before, decision, ruleset, verdict)
FORMS = [
    # attack {attacker, target}: exactly these keys
    ("attack-documented", ATTACK, [], atk("a", "bob"), RULESET, None),
    ("attack-extra-key", ATTACK, [], {"alice": {"attack": {"attacker": "a", "target": "bob", "shield": "s1"}}},
     RULESET, "malformed_decision"),
    ("attack-null", ATTACK, [], {"alice": {"attack": None}}, RULESET, "malformed_decision"),
    # tap_ability: card (or {card: card}), at the open point and when a battle begins
    ("tap-ability-card-key", OPEN_TT, [], {"alice": {"tap_ability": {"card": "tt"}}}, RULESET, None),
    ("tap-ability-other-key", OPEN_TT, [], {"alice": {"tap_ability": {"creature": "tt"}}}, RULESET,
     "malformed_decision"),
    ("dynamo-card-key", DYNAMO, [atk("a", "c")], {"alice": {"tap_ability": {"card": "dy"}}}, RULESET, None),
    ("dynamo-decline-card-key", DYNAMO, [atk("a", "c")], {"alice": {"decline": {"card": "dy"}}}, RULESET, None),
    ("dynamo-other-key", DYNAMO, [atk("a", "c")], {"alice": {"tap_ability": {"dynamo": "dy"}}}, RULESET,
     "malformed_decision"),
    # block: card (or {blocker: card}) | [card, ...]
    ("block-blocker-key", BLOCK, BLOCKED, {"bob": {"block": {"blocker": "b"}}}, RULESET, None),
    ("block-card-key", BLOCK, BLOCKED, {"bob": {"block": {"card": "b"}}}, RULESET, "malformed_decision"),
    ("block-blocker-and-extra-key", BLOCK, BLOCKED, {"bob": {"block": {"blocker": "b", "attacker": "a"}}}, RULESET,
     "malformed_decision"),
    # choose_shield: card
    ("shield-bare", ATTACK, BLOCKED, {"alice": {"choose_shield": "s1"}}, RULESET, None),
    ("shield-card-key", ATTACK, BLOCKED, {"alice": {"choose_shield": {"card": "s1"}}}, RULESET, "malformed_decision"),
    ("shield-shield-key", ATTACK, BLOCKED, {"alice": {"choose_shield": {"shield": "s1"}}}, CURRENT,
     "malformed_decision"),
    # choose_target: card
    ("target-card-key", TARGET, [atk("k", "bob")], {"alice": {"choose_target": {"card": "c"}}}, RULESET,
     "malformed_decision"),
    ("target-target-key", TARGET, [atk("k", "bob")], {"alice": {"choose_target": {"target": "c"}}}, RULESET,
     "malformed_decision"),
    # discard: card
    ("discard-card-key", DISCARD, [atk("h", "bob")], {"bob": {"discard": {"card": "h1"}}}, RULESET,
     "malformed_decision"),
    # choose_card: card or {take, bottom}
    ("look-take-without-bottom", LOOK, [atk("a", "bob"), {"bob": {"block": "fc"}}],
     {"bob": {"choose_card": {"take": "d1"}}}, RULESET, "malformed_decision"),
    ("look-take-extra-key", LOOK, [atk("a", "bob"), {"bob": {"block": "fc"}}],
     {"bob": {"choose_card": {"take": "d1", "bottom": ["d2"], "top": []}}}, RULESET, "malformed_decision"),
    ("look-take-and-bottom", LOOK, [atk("a", "bob"), {"bob": {"block": "fc"}}],
     {"bob": {"choose_card": {"take": "d1", "bottom": ["d2"]}}}, RULESET, None),
    # use: card (or {card, discard?}); decline: card (or {card})
    ("use-card-key", TRIGGER, SHIELD, {"bob": {"use": {"card": "st"}}}, RULESET, None),
    ("decline-card-key", TRIGGER, SHIELD, {"bob": {"decline": {"card": "st"}}}, RULESET, None),
    ("use-other-key", TRIGGER, SHIELD, {"bob": {"use": {"trigger": "st"}}}, RULESET, "malformed_decision"),
    ("decline-with-discard", TRIGGER, SHIELD, {"bob": {"decline": {"card": "st", "discard": "st"}}}, RULESET,
     "malformed_decision"),
    ("current-decline-with-discard", TRIGGER, SHIELD, {"bob": {"decline": {"card": "st", "discard": "st"}}}, CURRENT,
     "malformed_decision"),
    ("current-use-card-key", TRIGGER, SHIELD, {"bob": {"use": {"card": "st"}}}, CURRENT, None),
    ("current-use-discard-a-list", TRIGGER, SHIELD, {"bob": {"use": {"card": "st", "discard": ["st"]}}}, CURRENT,
     "malformed_decision"),
]


@pytest.mark.parametrize("cid, board, before, decision, ruleset, verdict", FORMS, ids=[f[0] for f in FORMS])
def test_only_the_vocabularys_forms_are_accepted(cid, board, before, decision, ruleset, verdict):
    got = check(request(board, [*before, decision], ruleset), len(before), decision)
    if verdict is None:
        assert got is None, (cid, got)
    else:
        assert got is not None and got.reason == verdict and got.stage == "well_formed", (cid, got)


def test_a_refused_mapping_form_changes_nothing_and_the_bare_id_then_plays():
    """The same player decides again after the refusal (PROCEDURE.md): the bare id that follows is accepted."""
    r = run(BLOCK, [*BLOCKED, {"bob": {"block": {"card": "b"}}}, {"bob": {"block": "b"}}])
    assert [e.args["reason"] for e in events(r, "rejected")] == ["malformed_decision"]
    assert one(r, "rejected").clause == "duelmasters:A3"
    assert one(r, "blocked").args == {"card": "b", "attacker": "a"}
    r = run(ATTACK, [*BLOCKED, {"alice": {"choose_shield": {"card": "s1"}}}, {"alice": {"choose_shield": "s1"}}])
    assert [e.args["reason"] for e in events(r, "rejected")] == ["malformed_decision"]
    assert r.final["cards"]["s1"]["zone"] == "hand"

