"""Duel Masters: the refusal precedence PROCEDURE.md documents is the one the reference follows.

Each board below breaks two reasons at once (hand-annotated: which two); the test reads the documented order
from PROCEDURE.md's "Refusal precedence" list and asserts (1) the documented order puts the one the reference
must answer first, and (2) the reference answers it. Change either the document or the engine and the other
must follow."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from oracle.core.legality import check
from oracle.games.duelmasters.vocabulary import REASONS
from oracle.harness.request import make_request
from oracle.model import Case

from test_duelmasters import CURRENT, RULESET, atk, shields, vanilla

ROOT = Path(__file__).resolve().parents[2]
PROCEDURE = (ROOT / "cases/duelmasters/PROCEDURE.md").read_text(encoding="utf-8")


def documented() -> dict[str, list[str]]:
    """Each line of the precedence list: its label (the text before the first ':') -> its reason codes in order
    (the common prefix, 'Every kind', included first)."""
    section = PROCEDURE.split("### Refusal precedence", 1)[1].split("\n\n`unknown_object` is", 1)[0]
    intro, _, items = section.partition("\n- ")
    common = [c for c in re.findall(r"`([a-z_]+)`", intro.split("Every kind:", 1)[1]) if c in REASONS]
    out = {}
    for item in ("- " + items).split("\n- "):
        item = item.removeprefix("- ")
        label, _, rest = item.partition(":")
        out[label.strip()] = common + [c for c in re.findall(r"`([a-z_]+)`", rest) if c in REASONS]
    return out


ORDER = documented()


def line(label_start: str) -> list[str]:
    hits = [v for k, v in ORDER.items() if k.startswith(label_start)]
    assert len(hits) == 1, (label_start, list(ORDER))
    return hits[0]


def before(order: list[str], first: str, other: str) -> bool:
    """``first`` is checked before ``other`` (a code listed twice: its first check, the other's last)."""
    return first in order and other in order and order.index(first) < len(order) - 1 - order[::-1].index(other)


def request(players: dict, script: list, ruleset: str) -> dict:
    """A legality request for a small board (``players`` as in a case setup; alice active)."""
    case = Case.model_validate({
        "id": "unit", "game": "duelmasters", "rulesets": [RULESET], "title": "unit",
        "source": {"kind": "seed", "document": "dm-seed-002", "quote": "x"}, "rules": ["duelmasters:A1"],
        "setup": {"active": "alice", "players": players}, "script": script, "expect": {"winner": None}})
    return make_request(case, ruleset).model_dump(
        mode="json", include={"game", "ruleset", "setup", "script", "cards"})  # the board a legality query holds


BLOCKER = "試験用ブロッカー"
TT = "試験用タップトリガー"
MUST = "試験用強制ブロッカー"


def blocker(cid: str, **kw) -> dict:
    return {"id": cid, "card": BLOCKER, "power": 1000, **kw}  # card=MUST: one that must block if able


REVOLUTION = {"alice": {"battlefield": [{"id": "d", "card": "試作型火のドラゴンテスター", "power": 6000}],
                        "hand": [{"id": "w", "card": "試作型水の革命チェンジテスター", "power": 1000},
                                 {"id": "rc", "card": "試作型革命チェンジテスター", "power": 1000}]},
              "bob": {"shields": shields("s1")}}


SUMMON = {"alice": {"battlefield": [{"id": "v", "card": "試作型火の召喚テスター", "power": 1000}],
                    "hand": [{"id": "h", "card": "試作型火の召喚テスター", "power": 1000},
                             {"id": "e", "card": "試作型火の進化召喚テスター", "power": 1000},
                             {"id": "sp", "card": "試験用Ｓ・トリガードロー"}],
                    "mana": [{"id": "m", "card": "試作型火の小型ドラゴンテスター"}, {"id": "c", "card": "試験用バニラ"},
                             {"id": "t", "card": "試験用バニラ", "tapped": True}]},
          "bob": {"shields": shields("s1")}}


# (id, documented line, board, script before the decision, the decision, ruleset, answered first, also broken
# or None when only one reason applies)
CASES = [
    ("unknown-target-before-tapped-attacker", "`attack`",
     {"alice": {"battlefield": [vanilla("a", 1000, tapped=True)]}, "bob": {"shields": shields("s1")}},
     [], atk("a", "ghost"), RULESET, "unknown_object", "attacker_tapped"),
    ("player-id-as-attacker", "`attack`",
     {"alice": {"battlefield": [vanilla("a", 1000)]}, "bob": {"shields": shields("s1")}},
     [], atk("alice", "alice"), RULESET, "attacker_not_in_battle_zone", "target_not_opponent"),   # a player
    ("several-attackers-before-unknown", "`attack`",
     {"alice": {"battlefield": [vanilla("a", 1000)]}, "bob": {"shields": shields("s1")}},
     [], {"alice": {"attack": {"attacker": ["ghost", "a"], "target": "bob"}}}, RULESET,
     "several_attackers", "unknown_object"),
    ("not-in-battle-zone-before-not-yours", "`attack`",
     {"alice": {"battlefield": [vanilla("a", 1000)]}, "bob": {"hand": [vanilla("h", 1000)]}},
     [], atk("h", "bob"), RULESET, "attacker_not_in_battle_zone", "attacker_not_yours"),
    ("cannot-attack-before-tapped", "`attack`",
     {"alice": {"battlefield": [{"id": "x", "card": "試験用攻撃不可", "power": 1000, "tapped": True}]},
      "bob": {"shields": shields("s1")}},
     [], atk("x", "bob"), RULESET, "attacker_cannot_attack", "attacker_tapped"),
    ("cannot-attack-before-summoning-sick", "`attack`",
     {"alice": {"battlefield": [{"id": "x", "card": "試験用攻撃不可", "power": 1000, "entered_this_turn": True}]},
      "bob": {"shields": shields("s1")}},
     [], atk("x", "bob"), RULESET, "attacker_cannot_attack", "summoning_sick"),
    ("tapped-before-summoning-sick", "`attack`",
     {"alice": {"battlefield": [vanilla("a", 1000, tapped=True, entered_this_turn=True)]},
      "bob": {"shields": shields("s1")}},
     [], atk("a", "bob"), RULESET, "attacker_tapped", "summoning_sick"),
    ("summoning-sick-before-own-creature-target", "`attack`",
     {"alice": {"battlefield": [vanilla("a", 1000, entered_this_turn=True), vanilla("m", 1000, tapped=True)]},
      "bob": {"shields": shields("s1")}},
     [], atk("a", "m"), RULESET, "summoning_sick", "target_not_opponent"),
    ("shield-before-not-opponent", "`attack`",
     {"alice": {"battlefield": [vanilla("a", 1000)], "shields": shields("own")}, "bob": {"shields": shields("s1")}},
     [], atk("a", "own"), RULESET, "attack_target_shield", "target_not_opponent"),
    ("not-opponent-before-untapped", "`attack`",
     {"alice": {"battlefield": [vanilla("a", 1000), vanilla("m", 1000)]}, "bob": {"shields": shields("s1")}},
     [], atk("a", "m"), RULESET, "target_not_opponent", "target_untapped_creature"),
    ("not-your-decision-before-unknown", "`attack`",
     {"alice": {"battlefield": [vanilla("a", 1000)]}, "bob": {"shields": shields("s1")}},
     [], atk("ghost", "alice", who="bob"), RULESET, "not_your_decision", "unknown_object"),
    ("unexpected-before-unknown", "`choose_shield`",
     {"alice": {"battlefield": [vanilla("a", 1000)]}, "bob": {"shields": shields("s1")}},
     [], {"alice": {"choose_shield": "ghost"}}, RULESET, "unexpected_decision", "unknown_object"),
    # tap_ability at the open point
    ("tap-unknown-player-id", "`tap_ability` at the open point",
     {"alice": {"battlefield": [vanilla("a", 1000)]}, "bob": {"shields": shields("s1")}},
     [], {"alice": {"tap_ability": "alice"}}, RULESET, "attacker_not_in_battle_zone", "no_tap_ability"),
    ("no-tap-ability-before-cannot-attack", "`tap_ability` at the open point",
     {"alice": {"battlefield": [vanilla("a", 1000, tapped=True)]}, "bob": {"shields": shields("s1")}},
     [], {"alice": {"tap_ability": "a"}}, RULESET, "no_tap_ability", "tap_ability_cannot_attack"),
    ("not-yours-before-no-tap-ability", "`tap_ability` at the open point",
     {"alice": {"battlefield": [vanilla("a", 1000)]}, "bob": {"battlefield": [vanilla("c", 1000)]}},
     [], {"alice": {"tap_ability": "c"}}, RULESET, "attacker_not_yours", "no_tap_ability"),
    ("tapped-tap-trigger-could-not-attack", "`tap_ability` at the open point",
     {"alice": {"battlefield": [{"id": "tt", "card": TT, "power": 1000, "tapped": True}]},
      "bob": {"battlefield": [vanilla("c", 1000)]}},
     [], {"alice": {"tap_ability": "tt"}}, RULESET, "tap_ability_cannot_attack", None),   # not attacker_tapped
    # block
    ("unknown-before-tapped-blocker", "`block`",
     {"alice": {"battlefield": [vanilla("a", 1000)]},
      "bob": {"battlefield": [blocker("b"), blocker("t", tapped=True)], "shields": shields("s1")}},
     [atk("a", "bob")], {"bob": {"block": ["t", "ghost"]}}, CURRENT, "unknown_object", "blocker_tapped"),
    ("player-id-as-blocker", "`block`",
     {"alice": {"battlefield": [vanilla("a", 1000)]}, "bob": {"battlefield": [blocker("b")], "shields": shields("s1")}},
     [atk("a", "bob")], {"bob": {"block": "alice"}}, RULESET, "blocker_not_defenders", "blocker_not_blocker"),
    ("not-defenders-before-not-blocker", "`block`",
     {"alice": {"battlefield": [vanilla("a", 1000), vanilla("v", 1000)]},
      "bob": {"battlefield": [blocker("b")], "shields": shields("s1")}},
     [atk("a", "bob")], {"bob": {"block": "v"}}, RULESET, "blocker_not_defenders", "blocker_not_blocker"),
    ("not-blocker-before-tapped", "`block`",
     {"alice": {"battlefield": [vanilla("a", 1000)]},
      "bob": {"battlefield": [blocker("b"), vanilla("v", 1, tapped=True)], "shields": shields("s1")}},
     [atk("a", "bob")], {"bob": {"block": "v"}}, RULESET, "blocker_not_blocker", "blocker_tapped"),
    ("tapped-before-attack-target", "`block`",
     {"alice": {"battlefield": [vanilla("a", 5000)]},
      "bob": {"battlefield": [blocker("b"), blocker("c", tapped=True)], "shields": shields("s1")}},
     [atk("a", "c")], {"bob": {"block": "c"}}, CURRENT, "blocker_tapped", "blocker_is_attack_target"),
    ("tapped-before-required-left-out", "`block`",
     {"alice": {"battlefield": [vanilla("a", 1000)]},
      "bob": {"battlefield": [blocker("r", card=MUST), blocker("t", tapped=True)], "shields": shields("s1")}},
     [atk("a", "bob")], {"bob": {"block": "t"}}, CURRENT, "blocker_tapped", "required_blocker_left_out"),
    ("attack-target-before-required-left-out", "`block`",
     {"alice": {"battlefield": [{"id": "a", "card": "試験用アンタップ攻撃", "power": 1000}]},
      "bob": {"battlefield": [blocker("r", card=MUST), blocker("c")]}},
     [atk("a", "c")], {"bob": {"block": "c"}}, CURRENT, "blocker_is_attack_target", "required_blocker_left_out"),
    ("seed-one-blocker-before-required", "`block`",
     {"alice": {"battlefield": [vanilla("a", 1000)]},
      "bob": {"battlefield": [blocker("r1", card=MUST), blocker("r2", card=MUST)], "shields": shields("s1")}},
     [atk("a", "bob")], {"bob": {"block": ["r1", "r2"]}}, RULESET, "several_blockers", None),
    ("required-left-out-of-a-list", "`block`",
     {"alice": {"battlefield": [vanilla("a", 1000)]},
      "bob": {"battlefield": [blocker("r1", card=MUST), blocker("r2", card=MUST)], "shields": shields("s1")}},
     [atk("a", "bob")], {"bob": {"block": ["r2"]}}, CURRENT, "required_blocker_left_out", None),
    ("no-block-with-a-required-blocker", "`no_block`",
     {"alice": {"battlefield": [vanilla("a", 1000)]},
      "bob": {"battlefield": [blocker("r", card=MUST)], "shields": shields("s1")}},
     [atk("a", "bob")], {"bob": "no_block"}, RULESET, "required_blocker_left_out", None),
    ("player-id-as-shield", "`choose_shield`",
     {"alice": {"battlefield": [vanilla("a", 1000)]}, "bob": {"shields": shields("s1")}},
     [atk("a", "bob")], {"alice": {"choose_shield": "bob"}}, RULESET, "shield_not_attacked_players", None),
    ("player-id-as-target", "`choose_target`",
     {"alice": {"battlefield": [{"id": "k", "card": "試験用アタック破壊", "power": 1000}]},
      "bob": {"battlefield": [vanilla("c", 1000)], "shields": shields("s1")}},
     [atk("k", "bob")], {"alice": {"choose_target": "bob"}}, RULESET, "illegal_target", None),
    ("player-id-as-discard", "`discard`",
     {"alice": {"battlefield": [{"id": "h", "card": "試作型ハンデステスター", "power": 1000}]},
      "bob": {"hand": [vanilla("h1", 1)], "shields": shields("s1")}},
     [atk("h", "bob")], {"bob": {"discard": "alice"}}, RULESET, "not_in_hand", None),
    # choose_shield, use, choose_target, discard, choose_card
    ("shield-unknown", "`choose_shield`",
     {"alice": {"battlefield": [vanilla("a", 1000)]}, "bob": {"shields": shields("s1")}},
     [atk("a", "bob")], {"alice": {"choose_shield": "s3"}}, RULESET, "unknown_object",
     "shield_not_attacked_players"),
    ("use-unknown", "`use` / `decline`",
     {"alice": {"battlefield": [vanilla("a", 1000)]},
      "bob": {"shields": [{"id": "st", "card": "試験用Ｓ・トリガードロー"}], "deck": 2}},
     [atk("a", "bob"), {"alice": {"choose_shield": "st"}}], {"bob": {"use": "h1"}}, RULESET,
     "unknown_object", "not_offered"),
    # 革命チェンジ's declaration (CR506.3b, current rules): a fire dragon attacks, a water and a fire change in hand
    ("change-malformed-before-condition", "革命チェンジ",
     REVOLUTION, [atk("d", "bob")], {"alice": {"use": {"card": "w", "discard": "s1"}}}, CURRENT,
     "malformed_decision", "revolution_change_condition"),
    ("change-unknown-before-condition", "革命チェンジ",
     REVOLUTION, [atk("d", "bob")], {"alice": {"use": "w9"}}, CURRENT, "unknown_object",
     "revolution_change_condition"),
    ("change-condition", "革命チェンジ",
     REVOLUTION, [atk("d", "bob")], {"alice": {"use": "w"}}, CURRENT, "revolution_change_condition", None),
    ("change-decline-not-offered", "革命チェンジ",
     REVOLUTION, [atk("d", "bob")], {"alice": {"decline": "w"}}, CURRENT, "not_offered", None),
    # summon (CR301.1, current rules): alice's hand h (fire, cost 2), e (evolution onto a fire creature); mana m
    # (fire), c (colorless), t (tapped); v a creature of her battle zone
    ("summon-unknown-mana-before-not-in-hand", "`summon`",
     SUMMON, [], {"alice": {"summon": {"card": "v", "mana": ["zz"]}}}, CURRENT, "unknown_object", "not_in_hand"),
    ("summon-not-in-hand-before-mana", "`summon`",
     SUMMON, [], {"alice": {"summon": {"card": "v", "mana": ["t"]}}}, CURRENT, "not_in_hand", "mana_not_available"),
    ("summon-source-before-mana", "`summon`",
     SUMMON, [], {"alice": {"summon": {"card": "e", "mana": ["t"]}}}, CURRENT, "illegal_evolution_source",
     "mana_not_available"),
    ("summon-mana-before-cost", "`summon`",
     SUMMON, [], {"alice": {"summon": {"card": "h", "mana": ["t"]}}}, CURRENT, "mana_not_available", "cost_not_paid"),
    ("summon-onto-for-a-plain-creature", "`summon`",
     SUMMON, [], {"alice": {"summon": {"card": "h", "onto": "v", "mana": ["c"]}}}, CURRENT, "malformed_decision",
     "cost_not_paid"),
    ("summon-a-spell", "`summon`",
     SUMMON, [], {"alice": {"summon": {"card": "sp", "mana": ["c"]}}}, CURRENT, "not_a_creature", "cost_not_paid"),
    ("target-unknown", "`choose_target`",
     {"alice": {"battlefield": [{"id": "k", "card": "試験用アタック破壊", "power": 1000}]},
      "bob": {"battlefield": [vanilla("c", 1000)], "shields": shields("s1")}},
     [atk("k", "bob")], {"alice": {"choose_target": "own"}}, RULESET, "unknown_object", "illegal_target"),
    ("discard-unknown", "`discard`",
     {"alice": {"battlefield": [{"id": "h", "card": "試作型ハンデステスター", "power": 1000}]},
      "bob": {"hand": [vanilla("h1", 1)], "shields": shields("s1")}},
     [atk("h", "bob")], {"bob": {"discard": "h2"}}, RULESET, "unknown_object", "not_in_hand"),
    ("look-unknown", "`choose_card`",
     {"alice": {"battlefield": [vanilla("a", 2000)]},
      "bob": {"battlefield": [{"id": "fc", "card": "フェアリー・キャンドル"}], "deck": [vanilla("d1", 1)],
              "shields": 1}},
     [atk("a", "bob"), {"bob": {"block": "fc"}}], {"bob": {"choose_card": {"take": "d9"}}}, RULESET,
     "unknown_object", "illegal_target"),
]


@pytest.mark.parametrize("cid, label, board, before_, decision, ruleset, first, other", CASES,
                         ids=[c[0] for c in CASES])
def test_the_documented_precedence_is_the_references(cid, label, board, before_, decision, ruleset, first, other):
    order = line(label)
    assert first in order, f"PROCEDURE.md does not list {first} for {label}: {order}"
    assert other is None or before(order, first, other), f"PROCEDURE.md lists {other} before {first} for {label}: {order}"
    verdict = check(request(board, [*before_, decision], ruleset), len(before_), decision)
    assert verdict is not None and verdict.reason == first, (cid, verdict)
    if first == "unknown_object":     # well-formedness, before any rule (README: the legality API's split)
        assert verdict.stage == "well_formed"


def test_every_reason_is_in_some_precedence_line():
    listed = {c for codes in ORDER.values() for c in codes}
    assert set(REASONS) <= listed, sorted(set(REASONS) - listed)


def test_procedures_name_only_files_that_exist():
    """A PROCEDURE.md pointing at a document names one of the repository (there is no VOCABULARY.md)."""
    for proc in sorted((ROOT / "cases").glob("*/PROCEDURE.md")):
        for name in re.findall(r"`([\w./-]+\.md)`", proc.read_text(encoding="utf-8")):
            if "/" in name:
                assert (ROOT / name).exists(), (proc, name)
            else:
                assert list(ROOT.glob(f"**/{name}")), (proc, name)
