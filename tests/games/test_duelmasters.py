"""Duel Masters: the reference engine clause by clause, the golden cases, seed quotes and coverage, under both
rulesets (the seed's edition, the default, and the current 総合ルール's shield breaks)."""

from __future__ import annotations

from collections import Counter

import pytest

from oracle import registry
from oracle.cli import main as cli_main
from oracle.core.errors import MissingDecision
from oracle.harness.compare import compare, moments
from oracle.harness.engine import ReferenceEngine
from oracle.harness.runner import run_suite
from oracle.loader import load_cards, load_catalog, load_suite
from oracle.model import Case, CaseRequest

GAME = registry.get("duelmasters")
RULESET = "dm-seed-crossgear-era"
CURRENT = "dm-comprehensive-2024-02-15"
NEW_CLAUSES = ("duelmasters:CR113.6", "duelmasters:CR113.6a", "duelmasters:CR104.2a")


# -- helpers ------------------------------------------------------------------------------------

def run(players: dict, script: list, *, active: str = "alice", props: dict | None = None, ruleset: str = RULESET):
    """Play a small board: ``players`` as in a case setup, ``script`` as {player: {kind: args}}."""
    case = Case.model_validate({
        "id": "unit", "game": "duelmasters", "rulesets": [RULESET], "title": "unit",
        "source": {"kind": "seed", "document": "dm-seed-002", "quote": "x"}, "rules": ["duelmasters:A1"],
        "setup": {"active": active, "players": players, "props": props or {}},
        "script": script, "expect": {"winner": None}})
    pool = load_cards("duelmasters")
    names = {cs.card for p in case.setup.players.values() for z in p.zones.values() if not isinstance(z, int)
             for cs in z}
    request = CaseRequest(id="unit", game="duelmasters", ruleset=ruleset,
                          setup=case.setup.model_dump(mode="json", exclude_none=True),
                          script=[d.model_dump(mode="json") for d in case.script],
                          cards={n: pool[n].model_dump(mode="json", exclude_none=True) for n in names})
    return GAME.run(request)


def events(reply, kind: str) -> list:
    return [e for e in reply.trace if e.kind == kind]


def one(reply, kind: str, **args):
    hits = [e for e in reply.trace if e.kind == kind and all(e.args.get(k) == v for k, v in args.items())]
    assert len(hits) == 1, (kind, args, [(e.kind, e.args) for e in reply.trace])
    return hits[0]


def vanilla(cid: str, power: int, **kw) -> dict:
    return {"id": cid, "card": "試験用バニラ", "power": power, **kw}


def shields(*ids: str, card: str = "試験用バニラ") -> list:
    return [{"id": i, "card": card} for i in ids]


def atk(attacker: str, target: str, who: str = "alice") -> dict:
    return {who: {"attack": {"attacker": attacker, "target": target}}}


# -- P: who attacks -----------------------------------------------------------------------------

def test_p2_summoning_sick_refused_and_nothing_changes():
    r = run({"alice": {"battlefield": [vanilla("a", 3000, entered_this_turn=True)]},
             "bob": {"shields": shields("s1")}}, [atk("a", "bob")])
    rej = one(r, "rejected", reason="summoning_sick")
    assert rej.clause == "duelmasters:P2"
    assert r.trace[-1] is rej and r.final["cards"]["a"]["tapped"] is False


def test_n1_speed_attacker_and_evolution_attack_when_new():
    for card in ("試験用スピードアタッカー", "試験用進化クリーチャー"):
        r = run({"alice": {"battlefield": [{"id": "n", "card": card, "power": 1000, "entered_this_turn": True}]},
                 "bob": {"shields": shields("s1")}}, [atk("n", "bob"), {"alice": {"choose_shield": "s1"}}])
        assert one(r, "attacked", card="n").clause == "duelmasters:N1"
        assert r.final["cards"]["s1"]["zone"] == "hand"


def test_p1_only_own_creatures_in_the_battle_zone():
    r = run({"alice": {"hand": [vanilla("h", 1000)]}, "bob": {"battlefield": [vanilla("x", 1000)]}},
            [atk("x", "bob"), atk("h", "bob")])
    assert [(e.args["reason"], e.clause) for e in events(r, "rejected")] == [
        ("attacker_not_yours", "duelmasters:P1"), ("attacker_not_in_battle_zone", "duelmasters:P1")]


def test_a1_tapped_creature_cannot_attack_again():
    r = run({"alice": {"battlefield": [vanilla("a", 1000)]}, "bob": {"shields": shields("s1", "s2")}},
            [atk("a", "bob"), {"alice": {"choose_shield": "s1"}}, atk("a", "bob")])
    assert one(r, "rejected", at=2).args["reason"] == "attacker_tapped"


def test_a1_tap_and_declaration_are_one_moment_naming_only_the_player():
    r = run({"alice": {"battlefield": [vanilla("a", 1000)]}, "bob": {"shields": shields("s1")}},
            [atk("a", "s1"), atk("a", "bob"), {"alice": {"choose_shield": "s1"}}])
    assert one(r, "rejected", at=0).args["reason"] == "attack_target_shield"
    tapped, attacked = one(r, "tapped", card="a"), one(r, "attacked", card="a")
    assert tapped.moment == attacked.moment and attacked.args["target"] == "bob"
    assert attacked.clause == "duelmasters:A1"


def test_p3_n2_tap_trigger_needs_a_creature_that_could_attack():
    board = {"alice": {"battlefield": [{"id": "tt", "card": "試験用タップトリガー", "power": 1000,
                                        "entered_this_turn": True}]},
             "bob": {"battlefield": [vanilla("c", 1000)]}}
    r = run(board, [{"alice": {"tap_ability": "tt"}}])
    assert one(r, "rejected").clause == "duelmasters:N2"
    board["alice"]["battlefield"][0]["entered_this_turn"] = False
    r = run(board, [{"alice": {"tap_ability": "tt"}}, {"alice": {"choose_target": "c"}}])
    used = one(r, "used", card="tt")
    assert used.clause == "duelmasters:P3" and used.moment == one(r, "tapped", card="tt").moment
    assert r.final["cards"]["c"]["tapped"] is True


def test_n2_dynamo_when_a_battle_begins_not_at_the_open_point():
    """X-dynamo: 'バトルのはじめ' = the printed 'バトルが始まる時'; at the open point ダイナモ needs a creature that
    could attack, as a tap trigger does."""
    board = {"alice": {"battlefield": [{"id": "dy", "card": "試験用ダイナモ", "power": 1000, "entered_this_turn": True},
                                       vanilla("a", 1000)]},
             "bob": {"battlefield": [vanilla("c", 2000, tapped=True)]}}
    r = run(board, [{"alice": {"tap_ability": "dy"}}])
    assert one(r, "rejected").args["reason"] == "tap_ability_cannot_attack" and r.final["cards"]["dy"]["tapped"] is False
    r = run(board, [atk("a", "c"), {"alice": {"tap_ability": "dy"}}, {"alice": {"choose_target": "a"}}])
    used = one(r, "used", card="dy")
    assert used.clause == "duelmasters:N2" and used.moment == one(r, "tapped", card="dy").moment
    assert one(r, "attacked").moment < used.moment < one(r, "won_battle").moment
    assert one(r, "won_battle").args == {"card": "a", "power": 3000, "against": "c"}
    r = run(board, [atk("a", "c"), {"alice": {"decline": "dy"}}])
    assert one(r, "won_battle").args["card"] == "c" and r.final["cards"]["dy"]["tapped"] is False


def test_look_take_malformed_choices_are_refused_not_crashes():
    board = {"alice": {"battlefield": [vanilla("a", 2000)]},
             "bob": {"battlefield": [{"id": "fc", "card": "フェアリー・キャンドル"}],
                     "deck": [vanilla("d1", 1), vanilla("d2", 1)], "shields": 1}}
    bad = [None, ["d1"], {"bottom": ["d2"]}, {"take": "d1", "bottom": 5}, {"take": "d1", "bottom": ["d2", "d2"]}]
    r = run(board, [atk("a", "bob"), {"bob": {"block": "fc"}}, *({"bob": {"choose_card": b}} for b in bad),
                    {"bob": {"choose_card": {"take": "d2", "bottom": ["d1"]}}}])
    assert [e.args["reason"] for e in events(r, "rejected")] == ["malformed_decision"] * len(bad)
    assert r.final["cards"]["d2"]["zone"] == "hand" and r.final["players"]["bob"]["deck"] == ["d1"]


# -- A3, B: blocks and battles ------------------------------------------------------------------

def test_a3_block_refusals():
    board = {"alice": {"battlefield": [vanilla("a", 1000)]},
             "bob": {"battlefield": [{"id": "b", "card": "試験用ブロッカー", "power": 1, "tapped": True},
                                     vanilla("v", 1)], "shields": shields("s1")}}
    r = run(board, [atk("a", "bob"), {"bob": {"block": "v"}}, {"bob": {"block": "b"}}, {"bob": "no_block"},
                    {"alice": {"choose_shield": "s1"}}])
    assert [(e.args["reason"], e.clause) for e in events(r, "rejected")] == [
        ("blocker_not_blocker", "duelmasters:A3"), ("blocker_tapped", "duelmasters:A3")]


def test_a3_no_block_decision_without_a_blocker():
    r = run({"alice": {"battlefield": [vanilla("a", 1000)]},
             "bob": {"battlefield": [vanilla("v", 9000)], "shields": shields("s1")}},
            [atk("a", "bob"), {"alice": {"choose_shield": "s1"}}])
    assert r.final["cards"]["s1"]["zone"] == "hand"


def test_b1_b2_order_and_b3_battle_with_pluses():
    r = run({"alice": {"battlefield": [{"id": "sl", "card": "試作型スレッジ・テスター"}]},
             "bob": {"battlefield": [{"id": "b", "card": "試験用ブロックドロー", "power": 6000}], "deck": 1, "shields": 1}},
            [atk("sl", "bob"), {"bob": {"block": "b"}}])
    trig = events(r, "triggered")
    assert {e.clause for e in trig} == {"duelmasters:N3", "duelmasters:N4"} and len({e.moment for e in trig}) == 1
    res = events(r, "resolved")
    assert [(e.args["card"], e.clause) for e in res] == [("sl", "duelmasters:B1"), ("b", "duelmasters:B2")]
    won = one(r, "won_battle")
    assert won.args == {"card": "sl", "power": 7000, "against": "b"} and won.clause == "duelmasters:B3"


def test_b4_n5_tie_both_destroyed_at_once_and_no_win_effect():
    r = run({"alice": {"battlefield": [{"id": "a", "card": "試験用勝利ドロー", "power": 2000}], "deck": 1},
             "bob": {"battlefield": [{"id": "b", "card": "試験用ブロッカー", "power": 2000}], "shields": 1}},
            [atk("a", "bob"), {"bob": {"block": "b"}}])
    lost = events(r, "lost_battle")
    assert len(lost) == 2 and {e.clause for e in lost} == {"duelmasters:N5"} and not events(r, "won_battle")
    destroyed = events(r, "destroyed")
    assert {e.args["card"] for e in destroyed} == {"a", "b"} and len({e.moment for e in destroyed}) == 1
    assert destroyed[0].clause == "duelmasters:B4" and not events(r, "triggered")


# -- U: not blocked -----------------------------------------------------------------------------

def test_u1_unblocked_effect_before_the_shield_and_win_without_shields():
    r = run({"alice": {"battlefield": [{"id": "mz", "card": "試作型ザウルス・テスター"}], "deck": 1}, "bob": {}},
            [atk("mz", "bob")])
    kinds = [e.kind for e in r.trace]
    assert kinds.index("resolved") < kinds.index("won") and r.winner == "alice"
    assert one(r, "resolved").clause == "duelmasters:U1" and one(r, "won").clause == "duelmasters:U2"


def test_u3_block_after_the_shield_is_chosen_is_refused():
    r = run({"alice": {"battlefield": [{"id": "w", "card": "試験用Ｗ・ブレイカー", "power": 6000}]},
             "bob": {"battlefield": [{"id": "b", "card": "試験用ブロッカー", "power": 9000}], "shields": shields("s1", "s2")}},
            [atk("w", "bob"), {"bob": "no_block"}, {"alice": {"choose_shield": "s1"}}, {"bob": {"block": "b"}},
             {"alice": {"choose_shield": "s2"}}])
    rej = one(r, "rejected")
    assert rej.args["reason"] == "block_after_shield_chosen" and rej.clause == "duelmasters:U3"
    assert r.final["cards"]["b"]["tapped"] is False


def test_u4_to_u8_one_shield_at_a_time_with_its_trigger_window():
    r = run({"alice": {"battlefield": [{"id": "w", "card": "試験用Ｗ・ブレイカー", "power": 6000}]},
             "bob": {"shields": shields("s1", "s2", card="試験用Ｓ・トリガードロー"), "deck": 2}},
            [atk("w", "bob"), {"alice": {"choose_shield": "s2"}}, {"bob": {"use": "s2"}},
             {"alice": {"choose_shield": "s1"}}, {"bob": {"decline": "s1"}}])
    seq = [(e.kind, e.args.get("card"), e.clause) for e in r.trace
           if e.kind in ("shield_chosen", "broken", "used", "drew")]
    assert seq == [("shield_chosen", "s2", "duelmasters:U2"), ("broken", "s2", "duelmasters:U4"), ("used", "s2", "duelmasters:U5"),
                   ("drew", None, "duelmasters:U6"), ("shield_chosen", "s1", "duelmasters:U8"), ("broken", "s1", "duelmasters:U8")]
    broken = one(r, "broken", card="s2")
    assert one(r, "moved", card="s2", to="hand").moment == broken.moment


def test_u9_breaks_continue_after_the_attacker_left():
    r = run({"alice": {"battlefield": [{"id": "w", "card": "試験用Ｗ・ブレイカー", "power": 6000}]},
             "bob": {"shields": [{"id": "s1", "card": "試験用Ｓ・トリガー破壊"}, *shields("s2")]}},
            [atk("w", "bob"), {"alice": {"choose_shield": "s1"}}, {"bob": {"use": "s1"}},
             {"bob": {"choose_target": "w"}}, {"alice": {"choose_shield": "s2"}}])
    assert r.final["cards"]["w"]["zone"] == "graveyard" and r.final["cards"]["s2"]["zone"] == "hand"
    assert one(r, "broken", card="s2").clause == "duelmasters:U9"


def test_n7_s_trigger_only_from_the_broken_shield_and_s_back():
    r = run({"alice": {"battlefield": [vanilla("a", 1000)]},
             "bob": {"hand": [{"id": "h", "card": "試験用Ｓ・トリガードロー"}, {"id": "sb", "card": "試験用Ｓ・バック"}],
                     "shields": [{"id": "s1", "card": "試験用光カード"}, {"id": "s2", "card": "試験用Ｓ・トリガードロー"}],
                     "deck": 1}},
            [atk("a", "bob"), {"alice": {"choose_shield": "s2"}}, {"bob": {"use": "h"}}, {"bob": {"decline": "s2"}}])
    assert one(r, "rejected").clause == "duelmasters:N7"
    r = run({"alice": {"battlefield": [vanilla("a", 1000)]},
             "bob": {"hand": [{"id": "sb", "card": "試験用Ｓ・バック"}], "shields": [{"id": "s1", "card": "試験用光カード"}]}},
            [atk("a", "bob"), {"alice": {"choose_shield": "s1"}}, {"bob": {"use": "sb"}}])
    used = one(r, "used", card="sb")
    assert one(r, "moved", card="s1", to="graveyard").moment == used.moment and used.clause == "duelmasters:N7"
    assert r.final["cards"]["sb"]["zone"] == "battlefield"


def test_n8_bone_slime_destroyed_after_the_attack_on_a_player_only():
    r = run({"alice": {"battlefield": [{"id": "bs", "card": "ねじれる者ボーン・スライム"}]}, "bob": {"shields": shields("s1")}},
            [atk("bs", "bob"), {"alice": {"choose_shield": "s1"}}])
    ended, destroyed = one(r, "attack_ended"), one(r, "destroyed", card="bs")
    assert ended.clause == "duelmasters:U7" and destroyed.clause == "duelmasters:N8" and ended.moment < destroyed.moment
    r = run({"alice": {"battlefield": [{"id": "bs", "card": "ねじれる者ボーン・スライム"}]},
             "bob": {"battlefield": [vanilla("c", 500, tapped=True)]}}, [atk("bs", "c")])
    assert r.final["cards"]["bs"]["zone"] == "battlefield"


# -- the current 総合ルール (ruleset dm-comprehensive-2024-02-15) ---------------------------------

def test_cr113_6_cr113_6a_shields_wait_together_then_move_together():
    r = run({"alice": {"battlefield": [{"id": "w", "card": "試験用Ｗ・ブレイカー", "power": 6000}]},
             "bob": {"shields": shields("s1", "s2", card="試験用Ｓ・トリガードロー"), "deck": 2}},
            [atk("w", "bob"), {"alice": {"choose_shield": "s2"}}, {"alice": {"choose_shield": "s1"}},
             {"bob": {"decline": "s1"}}, {"bob": {"use": "s2"}}], ruleset=CURRENT)
    seq = [(e.kind, e.args.get("card"), e.clause) for e in r.trace
           if e.kind in ("shield_chosen", "waiting", "declared", "broken", "used", "drew")]
    assert seq == [("shield_chosen", "s2", "duelmasters:U2"), ("shield_chosen", "s1", "duelmasters:U2"),
                   ("waiting", "s2", "duelmasters:CR113.6a"), ("waiting", "s1", "duelmasters:CR113.6a"),
                   ("declared", "s2", "duelmasters:CR113.6"), ("broken", "s2", "duelmasters:U4"), ("broken", "s1", "duelmasters:U4"),
                   ("used", "s2", "duelmasters:U5"), ("drew", None, "duelmasters:U6")]
    assert len({e.moment for e in events(r, "waiting")}) == 1
    to_hand = [e for e in events(r, "moved") if e.args["to"] == "hand"]
    assert {e.moment for e in to_hand} == {one(r, "broken", card="s1").moment} and len(to_hand) == 2
    assert {e.clause for e in to_hand} == {"duelmasters:CR113.6"}
    assert r.final["cards"]["s1"]["zone"] == "hand" and r.final["cards"]["s2"]["zone"] == "graveyard"


def test_the_seed_breaks_one_at_a_time_on_the_same_board():
    r = run({"alice": {"battlefield": [{"id": "w", "card": "試験用Ｗ・ブレイカー", "power": 6000}]},
             "bob": {"shields": shields("s1", "s2")}},
            [atk("w", "bob"), {"alice": {"choose_shield": "s2"}}, {"alice": {"choose_shield": "s1"}}])
    assert not events(r, "waiting") and one(r, "broken", card="s2").moment != one(r, "broken", card="s1").moment
    r = run({"alice": {"battlefield": [{"id": "w", "card": "試験用Ｗ・ブレイカー", "power": 6000}]},
             "bob": {"shields": shields("s1", "s2")}},
            [atk("w", "bob"), {"alice": {"choose_shield": "s2"}}, {"alice": {"choose_shield": "s1"}}], ruleset=CURRENT)
    assert one(r, "broken", card="s2").moment == one(r, "broken", card="s1").moment


def test_current_break_refusals():
    board = {"alice": {"battlefield": [{"id": "w", "card": "試験用Ｗ・ブレイカー", "power": 6000}]},
             "bob": {"battlefield": [{"id": "b", "card": "試験用ブロッカー", "power": 1}],
                     "hand": [{"id": "h", "card": "試験用Ｓ・トリガー破壊"}, {"id": "sb", "card": "試験用Ｓ・バック"}],
                     "shields": [{"id": "s1", "card": "試験用光カード"}, {"id": "s2", "card": "試験用Ｓ・トリガードロー"}],
                     "deck": 1}}
    r = run(board, [atk("w", "bob"), {"bob": "no_block"}, {"alice": {"choose_shield": "s1"}},
                    {"alice": {"choose_shield": "s1"}}, {"alice": {"choose_shield": "s2"}},
                    {"bob": {"block": "b"}}, {"bob": {"use": "h"}}, {"bob": {"use": {"card": "sb", "discard": "s2"}}},
                    {"bob": {"use": "sb"}}, {"bob": {"decline": "s2"}}], ruleset=CURRENT)
    assert [(e.args["reason"], e.clause) for e in events(r, "rejected")] == [
        ("shield_already_chosen", "duelmasters:U2"), ("block_after_shield_chosen", "duelmasters:U3"),
        ("s_trigger_not_broken", "duelmasters:N7"), ("illegal_target", "duelmasters:CR113.6")]
    discard = one(r, "moved", card="s1")                    # the default discard: the light waiting shield
    assert discard.args["from"] == "shields" and discard.moment == one(r, "declared", card="sb").moment
    assert r.final["cards"]["sb"]["zone"] == "battlefield" and r.final["cards"]["s2"]["zone"] == "hand"
    assert not any(e.args.get("card") == "s1" for e in events(r, "broken"))


def test_cr104_2a_direct_attack_wins_before_unblocked_effects_only_now():
    board = {"alice": {"battlefield": [{"id": "mz", "card": "試作型ザウルス・テスター"}], "deck": 1}, "bob": {}}
    r = run(board, [atk("mz", "bob")], ruleset=CURRENT)
    assert one(r, "won").clause == "duelmasters:CR104.2a" and not events(r, "triggered") and r.winner == "alice"
    r = run(board, [atk("mz", "bob")])
    assert one(r, "won").clause == "duelmasters:U2" and one(r, "resolved").clause == "duelmasters:U1"


# -- C: attacking a creature --------------------------------------------------------------------

def test_c1_only_tapped_creatures_unless_an_effect_allows():
    board = {"alice": {"battlefield": [vanilla("a", 5000)]}, "bob": {"battlefield": [vanilla("c", 1000)]}}
    r = run(board, [atk("a", "c")])
    assert one(r, "rejected").args["reason"] == "target_untapped_creature" and one(r, "rejected").clause == "duelmasters:C1"
    board["alice"]["battlefield"][0] = {"id": "a", "card": "試験用アンタップ攻撃", "power": 5000}
    r = run(board, [atk("a", "c")])
    assert one(r, "attacked").clause == "duelmasters:C1" and r.final["cards"]["c"]["zone"] == "graveyard"


def test_n9_target_gone_ends_the_attack_without_battle():
    r = run({"alice": {"battlefield": [{"id": "a", "card": "試験用アタック破壊", "power": 1000}]},
             "bob": {"battlefield": [vanilla("c", 9000, tapped=True)]}}, [atk("a", "c"), {"alice": {"choose_target": "c"}}])
    assert one(r, "attack_ended").clause == "duelmasters:N9" and not events(r, "won_battle")


def test_c4_c5_c6_c7_battle_then_after_battle_active_player_first():
    r = run({"alice": {"battlefield": [{"id": "a", "card": "試験用勝利ドロー", "power": 5000}], "deck": 1},
             "bob": {"battlefield": [{"id": "sl", "card": "試験用スレイヤー", "power": 1000, "tapped": True}]}},
            [atk("a", "sl")])
    assert one(r, "won_battle").clause == "duelmasters:C4" and one(r, "destroyed", card="sl").clause == "duelmasters:C5"
    trig = events(r, "triggered")
    assert {e.clause for e in trig} == {"duelmasters:C6"} and len({e.moment for e in trig}) == 1
    assert [e.args["player"] for e in events(r, "resolved")] == ["alice", "bob"]
    assert r.final["cards"]["a"]["zone"] == "graveyard" and one(r, "attack_ended").clause == "duelmasters:C8"


def test_e1_end_of_turn_effects_of_the_active_player_only():
    r = run({"alice": {"battlefield": [{"id": "e", "card": "試験用ターン終了ドロー", "power": 1}], "deck": 1},
             "bob": {"battlefield": [{"id": "f", "card": "試験用ターン終了ドロー", "power": 1}], "deck": 1}},
            [{"alice": "end_turn"}])
    assert [e.args["card"] for e in events(r, "triggered")] == ["e"]
    assert one(r, "turn_ended").clause == "duelmasters:E1" and r.final["players"]["bob"]["hand"] == []


# -- the engine's contract ----------------------------------------------------------------------

def test_a_missing_decision_is_a_script_error():
    with pytest.raises(MissingDecision):
        run({"alice": {"battlefield": [vanilla("a", 1000)]}, "bob": {"shields": 1}}, [atk("a", "bob")])


def test_every_trace_clause_is_in_the_catalog_and_in_the_ruleset():
    """Every trace clause is a catalog clause of the ruleset the case runs under (U8/U9 only in the seed's
    edition, CR… only in the current one)."""
    from oracle.harness.request import make_request

    catalog = load_catalog("duelmasters")
    editions = {c.id: set(c.rulesets) for c in catalog.clauses}
    suite = load_suite(games=["duelmasters"])
    seen = Counter()
    for lc in suite.cases:
        for ruleset in lc.case.rulesets:
            reply = GAME.run(make_request(lc.case, ruleset))
            clauses = {e.clause for e in reply.trace}
            assert clauses <= set(editions), lc.case.id
            wrong = {c for c in clauses if editions[c] and ruleset not in editions[c]}
            assert not wrong, (lc.case.id, ruleset, wrong)
            seen.update((ruleset, c) for c in clauses)
    assert seen[(RULESET, "duelmasters:U8")] and seen[(CURRENT, "duelmasters:CR113.6a")]


def test_card_pool_abilities_are_in_the_vocabulary():
    voc = GAME.vocabulary
    for card in load_cards("duelmasters").values():
        for ref in card.abilities:
            assert (ref if isinstance(ref, str) else next(iter(ref))) in voc.abilities, card.name


def test_a_wrong_expectation_fails():
    lc = next(c for c in load_suite(games=["duelmasters"]).cases if c.case.id == "dm.block.higher-power-wins")
    from oracle.harness.request import make_request

    reply = GAME.run(make_request(lc.case, RULESET))
    wrong = lc.case.model_copy(update={"expect": lc.case.expect.model_copy(update={"final": {"cards": {"a": {"zone": "graveyard"}}}})})
    assert compare(lc.case, reply).status == "pass" and compare(wrong, reply).status == "fail"
    assert len(moments(reply.trace)) > 3


# -- the golden cases ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def results():
    suite = load_suite(games=["duelmasters"])
    assert not suite.errors, [str(e) for e in suite.errors]
    return run_suite(ReferenceEngine(), suite, games=["duelmasters"])


@pytest.fixture(scope="module")
def current_results():
    return run_suite(ReferenceEngine(), load_suite(games=["duelmasters"]), games=["duelmasters"], ruleset=CURRENT)


def test_every_golden_case_passes(results):
    bad = {c.id: (c.status, c.error, c.divergence and c.divergence.message) for c in results.cases if c.status != "pass"}
    assert not bad
    assert len(results.cases) >= 40
    assert {c.ruleset for c in results.cases} == {RULESET, CURRENT}   # current-only cases run under theirs


def test_every_case_listing_the_current_ruleset_passes_under_it(current_results):
    cases = {lc.case.id: lc.case for lc in load_suite(games=["duelmasters"]).cases}
    by_status = Counter(c.status for c in current_results.cases)
    bad = {c.id: (c.status, c.error, c.divergence and c.divergence.message)
           for c in current_results.cases if c.status not in ("pass", "skip")}
    assert not bad
    skipped = {c.id for c in current_results.cases if c.status == "skip"}
    assert skipped == {i for i, c in cases.items() if CURRENT not in c.rulesets}
    assert by_status["pass"] >= 60 and all(c.ruleset == CURRENT for c in current_results.cases if c.status == "pass")
    current_only = [i for i, c in cases.items() if c.rulesets == [CURRENT]]
    assert len(current_only) >= 6


def test_cli_ruleset_selects_the_edition(tmp_path):
    out = tmp_path / "r.json"
    code = cli_main(["run", "--game", "duelmasters", "--ruleset", CURRENT, "--results", str(out), "--report", ""])
    assert code == 0
    from oracle.model import Results

    res = Results.model_validate_json(out.read_text(encoding="utf-8"))
    assert res.ruleset == CURRENT and res.summary["fail"] == 0 and res.summary["error"] == 0
    assert {c.id for c in res.cases if c.status == "skip"} >= {"dm.break.w-breaker-one-at-a-time"}
    assert next(c for c in res.cases if c.id == "dm.current.w-breaker-both-chosen-before-trigger").status == "pass"


def _status_under(case: Case, ruleset: str) -> str:
    from oracle.harness.request import make_request

    try:
        reply = GAME.run(make_request(case, ruleset))
    except Exception:          # e.g. MissingDecision: the other edition asks for another decision
        return "error"
    return "error" if reply.error else compare(case, reply).status


def test_cases_of_one_edition_do_not_pass_under_the_other():
    """A case listing one ruleset only differs between the editions: the other edition's engine fails it."""
    single = [lc.case for lc in load_suite(games=["duelmasters"]).cases if len(lc.case.rulesets) == 1]
    assert {c.rulesets[0] for c in single} == {RULESET, CURRENT}
    passing = {}
    for case in single:
        other = CURRENT if case.rulesets[0] == RULESET else RULESET
        assert _status_under(case, case.rulesets[0]) == "pass", case.id
        passing[case.id] = _status_under(case, other)
    assert not {i: s for i, s in passing.items() if s == "pass"}


def test_a_current_case_fails_not_errs_under_the_seed_when_its_script_fits_both():
    """Same decisions in both editions, different trace: the seed's engine fails the assertion."""
    case = next(lc.case for lc in load_suite(games=["duelmasters"]).cases
                if lc.case.id == "dm.current.w-breaker-last-shields-then-direct-attack")
    assert _status_under(case, CURRENT) == "pass" and _status_under(case, RULESET) == "fail"


def test_every_testable_clause_asserted_by_two_passing_cases(results, current_results):
    """Counted over the default run and the current-ruleset run, each clause in the runs of its rulesets."""
    catalog = load_catalog("duelmasters")
    counts: Counter = Counter()
    for run_ in (results, current_results):
        for c in run_.cases:
            if c.status == "pass":
                counts.update(f"{cl}@{c.ruleset}" for cl in c.asserted)
    thin = {}
    for clause in catalog.clauses:
        rulesets = clause.rulesets or [RULESET, CURRENT]
        cases = {c.id for run_ in (results, current_results) for c in run_.cases
                 if c.status == "pass" and c.ruleset in rulesets and clause.id in c.asserted}
        if clause.testable and len(cases) < 2:
            thin[clause.id] = len(cases)
    assert not thin
    for clause in NEW_CLAUSES:
        assert counts[f"{clause}@{CURRENT}"] >= 2, clause


def test_every_case_asserts_the_clauses_it_lists(results):
    missing = {c.id: sorted(set(c.rules) - set(c.asserted)) for c in results.cases if set(c.rules) - set(c.asserted)}
    assert not missing


def test_external_quotes_of_the_current_rules_are_the_catalog_text():
    """A case citing an official change page quotes a substring of the clause text the catalog gives it."""
    catalog = load_catalog("duelmasters")
    texts = {d.id: [c.text for c in catalog.clauses if c.document == d.id] for d in catalog.documents}
    urls = {d.id: d.url for d in catalog.documents}
    cited = [lc.case for lc in load_suite(games=["duelmasters"]).cases
             if lc.case.source.kind == "external" and lc.case.source.document.startswith("dm-rulechange")]
    assert len(cited) >= 7
    for case in cited:
        src = case.source
        assert src.url == urls[src.document] and src.edition, case.id
        assert any(src.quote in t for t in texts[src.document]), case.id


def test_the_effect_table_does_every_effect_the_vocabulary_documents():
    from oracle.games.duelmasters import abilities, vocabulary

    documented = [name for name, _ in vocabulary.EFFECTS.parts]
    assert set(documented) == set(abilities.EFFECTS) and len(documented) == len(abilities.EFFECTS)
    assert all(f"{name}" in vocabulary.ABILITIES["spell"].params for name in documented)
