"""Duel Masters: the reference engine clause by clause, the golden cases, seed quotes and coverage."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from oracle import registry
from oracle.core.errors import MissingDecision
from oracle.harness.compare import compare, moments
from oracle.harness.engine import ReferenceEngine
from oracle.harness.runner import run_suite
from oracle.loader import load_cards, load_catalog, load_suite
from oracle.model import Case, CaseRequest
from oracle.paths import seeds_dir

GAME = registry.get("duelmasters")
RULESET = "dm-seed-crossgear-era"
G = "duelmasters:"


# -- helpers ------------------------------------------------------------------------------------

def run(players: dict, script: list, *, active: str = "alice", props: dict | None = None):
    """Play a small board: ``players`` as in a case setup, ``script`` as {player: {kind: args}}."""
    case = Case.model_validate({
        "id": "unit", "game": "duelmasters", "rulesets": [RULESET], "title": "unit",
        "source": {"kind": "seed", "document": "dm-seed-002", "quote": "x"}, "rules": [G + "A1"],
        "setup": {"active": active, "players": players, "props": props or {}},
        "script": script, "expect": {"winner": None}})
    pool = load_cards("duelmasters")
    names = {cs.card for p in case.setup.players.values() for z in p.zones.values() if not isinstance(z, int)
             for cs in z}
    request = CaseRequest(id="unit", game="duelmasters", ruleset=RULESET,
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
    assert rej.clause == G + "P2"
    assert r.trace[-1] is rej and r.final["cards"]["a"]["tapped"] is False


def test_n1_speed_attacker_and_evolution_attack_when_new():
    for card in ("試験用スピードアタッカー", "試験用進化クリーチャー"):
        r = run({"alice": {"battlefield": [{"id": "n", "card": card, "power": 1000, "entered_this_turn": True}]},
                 "bob": {"shields": shields("s1")}}, [atk("n", "bob"), {"alice": {"choose_shield": "s1"}}])
        assert one(r, "attacked", card="n").clause == G + "N1"
        assert r.final["cards"]["s1"]["zone"] == "hand"


def test_p1_only_own_creatures_in_the_battle_zone():
    r = run({"alice": {"hand": [vanilla("h", 1000)]}, "bob": {"battlefield": [vanilla("x", 1000)]}},
            [atk("x", "bob"), atk("h", "bob")])
    assert [(e.args["reason"], e.clause) for e in events(r, "rejected")] == [
        ("attacker_not_yours", G + "P1"), ("attacker_not_in_battle_zone", G + "P1")]


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
    assert attacked.clause == G + "A1"


def test_p3_n2_tap_trigger_needs_a_creature_that_could_attack():
    board = {"alice": {"battlefield": [{"id": "tt", "card": "試験用タップトリガー", "power": 1000,
                                        "entered_this_turn": True}]},
             "bob": {"battlefield": [vanilla("c", 1000)]}}
    r = run(board, [{"alice": {"tap_ability": "tt"}}])
    assert one(r, "rejected").clause == G + "N2"
    board["alice"]["battlefield"][0]["entered_this_turn"] = False
    r = run(board, [{"alice": {"tap_ability": "tt"}}, {"alice": {"choose_target": "c"}}])
    used = one(r, "used", card="tt")
    assert used.clause == G + "P3" and used.moment == one(r, "tapped", card="tt").moment
    assert r.final["cards"]["c"]["tapped"] is True


def test_n2_dynamo_at_battle_start_only():
    board = {"alice": {"battlefield": [{"id": "dy", "card": "試験用ダイナモ", "power": 1000, "entered_this_turn": True},
                                       vanilla("a", 1000)]}, "bob": {"shields": 1}}
    r = run(board, [{"alice": {"tap_ability": "dy"}}, {"alice": {"choose_target": "a"}}])
    assert one(r, "used", card="dy").clause == G + "N2" and r.final["cards"]["a"]["power"] == 3000
    r = run(board, [{"alice": {"tap_ability": "dy"}}], props={"attacks_this_turn": 1})
    assert one(r, "rejected").args["reason"] == "tap_ability_cannot_attack"


# -- A3, B: blocks and battles ------------------------------------------------------------------

def test_a3_block_refusals():
    board = {"alice": {"battlefield": [vanilla("a", 1000)]},
             "bob": {"battlefield": [{"id": "b", "card": "試験用ブロッカー", "power": 1, "tapped": True},
                                     vanilla("v", 1)], "shields": shields("s1")}}
    r = run(board, [atk("a", "bob"), {"bob": {"block": "v"}}, {"bob": {"block": "b"}}, {"bob": "no_block"},
                    {"alice": {"choose_shield": "s1"}}])
    assert [(e.args["reason"], e.clause) for e in events(r, "rejected")] == [
        ("blocker_not_blocker", G + "A3"), ("blocker_tapped", G + "A3")]


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
    assert {e.clause for e in trig} == {G + "N3", G + "N4"} and len({e.moment for e in trig}) == 1
    res = events(r, "resolved")
    assert [(e.args["card"], e.clause) for e in res] == [("sl", G + "B1"), ("b", G + "B2")]
    won = one(r, "won_battle")
    assert won.args == {"card": "sl", "power": 7000, "against": "b"} and won.clause == G + "B3"


def test_b4_n5_tie_both_destroyed_at_once_and_no_win_effect():
    r = run({"alice": {"battlefield": [{"id": "a", "card": "試験用勝利ドロー", "power": 2000}], "deck": 1},
             "bob": {"battlefield": [{"id": "b", "card": "試験用ブロッカー", "power": 2000}], "shields": 1}},
            [atk("a", "bob"), {"bob": {"block": "b"}}])
    lost = events(r, "lost_battle")
    assert len(lost) == 2 and {e.clause for e in lost} == {G + "N5"} and not events(r, "won_battle")
    destroyed = events(r, "destroyed")
    assert {e.args["card"] for e in destroyed} == {"a", "b"} and len({e.moment for e in destroyed}) == 1
    assert destroyed[0].clause == G + "B4" and not events(r, "triggered")


# -- U: not blocked -----------------------------------------------------------------------------

def test_u1_unblocked_effect_before_the_shield_and_win_without_shields():
    r = run({"alice": {"battlefield": [{"id": "mz", "card": "試作型ザウルス・テスター"}], "deck": 1}, "bob": {}},
            [atk("mz", "bob")])
    kinds = [e.kind for e in r.trace]
    assert kinds.index("resolved") < kinds.index("won") and r.winner == "alice"
    assert one(r, "resolved").clause == G + "U1" and one(r, "won").clause == G + "U2"


def test_u3_block_after_the_shield_is_chosen_is_refused():
    r = run({"alice": {"battlefield": [{"id": "w", "card": "試験用Ｗ・ブレイカー", "power": 6000}]},
             "bob": {"battlefield": [{"id": "b", "card": "試験用ブロッカー", "power": 9000}], "shields": shields("s1", "s2")}},
            [atk("w", "bob"), {"bob": "no_block"}, {"alice": {"choose_shield": "s1"}}, {"bob": {"block": "b"}},
             {"alice": {"choose_shield": "s2"}}])
    rej = one(r, "rejected")
    assert rej.args["reason"] == "block_after_shield_chosen" and rej.clause == G + "U3"
    assert r.final["cards"]["b"]["tapped"] is False


def test_u4_to_u8_one_shield_at_a_time_with_its_trigger_window():
    r = run({"alice": {"battlefield": [{"id": "w", "card": "試験用Ｗ・ブレイカー", "power": 6000}]},
             "bob": {"shields": shields("s1", "s2", card="試験用Ｓ・トリガードロー"), "deck": 2}},
            [atk("w", "bob"), {"alice": {"choose_shield": "s2"}}, {"bob": {"use": "s2"}},
             {"alice": {"choose_shield": "s1"}}, {"bob": {"decline": "s1"}}])
    seq = [(e.kind, e.args.get("card"), e.clause) for e in r.trace
           if e.kind in ("shield_chosen", "broken", "used", "drew")]
    assert seq == [("shield_chosen", "s2", G + "U2"), ("broken", "s2", G + "U4"), ("used", "s2", G + "U5"),
                   ("drew", None, G + "U6"), ("shield_chosen", "s1", G + "U8"), ("broken", "s1", G + "U8")]
    broken = one(r, "broken", card="s2")
    assert one(r, "moved", card="s2", to="hand").moment == broken.moment


def test_u9_breaks_continue_after_the_attacker_left():
    r = run({"alice": {"battlefield": [{"id": "w", "card": "試験用Ｗ・ブレイカー", "power": 6000}]},
             "bob": {"shields": [{"id": "s1", "card": "試験用Ｓ・トリガー破壊"}, *shields("s2")]}},
            [atk("w", "bob"), {"alice": {"choose_shield": "s1"}}, {"bob": {"use": "s1"}},
             {"bob": {"choose_target": "w"}}, {"alice": {"choose_shield": "s2"}}])
    assert r.final["cards"]["w"]["zone"] == "graveyard" and r.final["cards"]["s2"]["zone"] == "hand"
    assert one(r, "broken", card="s2").clause == G + "U9"


def test_n7_s_trigger_only_from_the_broken_shield_and_s_back():
    r = run({"alice": {"battlefield": [vanilla("a", 1000)]},
             "bob": {"hand": [{"id": "h", "card": "試験用Ｓ・トリガードロー"}, {"id": "sb", "card": "試験用Ｓ・バック"}],
                     "shields": [{"id": "s1", "card": "試験用光カード"}, {"id": "s2", "card": "試験用Ｓ・トリガードロー"}],
                     "deck": 1}},
            [atk("a", "bob"), {"alice": {"choose_shield": "s2"}}, {"bob": {"use": "h"}}, {"bob": {"decline": "s2"}}])
    assert one(r, "rejected").clause == G + "N7"
    r = run({"alice": {"battlefield": [vanilla("a", 1000)]},
             "bob": {"hand": [{"id": "sb", "card": "試験用Ｓ・バック"}], "shields": [{"id": "s1", "card": "試験用光カード"}]}},
            [atk("a", "bob"), {"alice": {"choose_shield": "s1"}}, {"bob": {"use": "sb"}}])
    used = one(r, "used", card="sb")
    assert one(r, "moved", card="s1", to="graveyard").moment == used.moment and used.clause == G + "N7"
    assert r.final["cards"]["sb"]["zone"] == "battlefield"


def test_n8_bone_slime_destroyed_after_the_attack_on_a_player_only():
    r = run({"alice": {"battlefield": [{"id": "bs", "card": "ねじれる者ボーン・スライム"}]}, "bob": {"shields": shields("s1")}},
            [atk("bs", "bob"), {"alice": {"choose_shield": "s1"}}])
    ended, destroyed = one(r, "attack_ended"), one(r, "destroyed", card="bs")
    assert ended.clause == G + "U7" and destroyed.clause == G + "N8" and ended.moment < destroyed.moment
    r = run({"alice": {"battlefield": [{"id": "bs", "card": "ねじれる者ボーン・スライム"}]},
             "bob": {"battlefield": [vanilla("c", 500, tapped=True)]}}, [atk("bs", "c")])
    assert r.final["cards"]["bs"]["zone"] == "battlefield"


# -- C: attacking a creature --------------------------------------------------------------------

def test_c1_only_tapped_creatures_unless_an_effect_allows():
    board = {"alice": {"battlefield": [vanilla("a", 5000)]}, "bob": {"battlefield": [vanilla("c", 1000)]}}
    r = run(board, [atk("a", "c")])
    assert one(r, "rejected").args["reason"] == "target_untapped_creature" and one(r, "rejected").clause == G + "C1"
    board["alice"]["battlefield"][0] = {"id": "a", "card": "試験用アンタップ攻撃", "power": 5000}
    r = run(board, [atk("a", "c")])
    assert one(r, "attacked").clause == G + "C1" and r.final["cards"]["c"]["zone"] == "graveyard"


def test_n9_target_gone_ends_the_attack_without_battle():
    r = run({"alice": {"battlefield": [{"id": "a", "card": "試験用アタック破壊", "power": 1000}]},
             "bob": {"battlefield": [vanilla("c", 9000, tapped=True)]}}, [atk("a", "c"), {"alice": {"choose_target": "c"}}])
    assert one(r, "attack_ended").clause == G + "N9" and not events(r, "won_battle")


def test_c4_c5_c6_c7_battle_then_after_battle_active_player_first():
    r = run({"alice": {"battlefield": [{"id": "a", "card": "試験用勝利ドロー", "power": 5000}], "deck": 1},
             "bob": {"battlefield": [{"id": "sl", "card": "試験用スレイヤー", "power": 1000, "tapped": True}]}},
            [atk("a", "sl")])
    assert one(r, "won_battle").clause == G + "C4" and one(r, "destroyed", card="sl").clause == G + "C5"
    trig = events(r, "triggered")
    assert {e.clause for e in trig} == {G + "C6"} and len({e.moment for e in trig}) == 1
    assert [e.args["player"] for e in events(r, "resolved")] == ["alice", "bob"]
    assert r.final["cards"]["a"]["zone"] == "graveyard" and one(r, "attack_ended").clause == G + "C8"


def test_e1_end_of_turn_effects_of_the_active_player_only():
    r = run({"alice": {"battlefield": [{"id": "e", "card": "試験用ターン終了ドロー", "power": 1}], "deck": 1},
             "bob": {"battlefield": [{"id": "f", "card": "試験用ターン終了ドロー", "power": 1}], "deck": 1}},
            [{"alice": "end_turn"}])
    assert [e.args["card"] for e in events(r, "triggered")] == ["e"]
    assert one(r, "turn_ended").clause == G + "E1" and r.final["players"]["bob"]["hand"] == []


# -- the engine's contract ----------------------------------------------------------------------

def test_a_missing_decision_is_a_script_error():
    with pytest.raises(MissingDecision):
        run({"alice": {"battlefield": [vanilla("a", 1000)]}, "bob": {"shields": 1}}, [atk("a", "bob")])


def test_every_trace_clause_is_in_the_catalog():
    ids = {c.id for c in load_catalog("duelmasters").clauses}
    suite = load_suite(games=["duelmasters"])
    for lc in suite.cases:
        from oracle.harness.request import make_request

        reply = GAME.run(make_request(lc.case, RULESET))
        assert {e.clause for e in reply.trace} <= ids, lc.case.id


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


def test_every_golden_case_passes(results):
    bad = {c.id: (c.status, c.error, c.divergence and c.divergence.message) for c in results.cases if c.status != "pass"}
    assert not bad
    assert len(results.cases) >= 40


def test_every_testable_clause_asserted_by_two_passing_cases(results):
    counts = Counter(cl for c in results.cases if c.status == "pass" for cl in c.asserted)
    thin = {c.id: counts[c.id] for c in load_catalog("duelmasters").clauses if c.testable and counts[c.id] < 2}
    assert not thin


def test_every_case_asserts_the_clauses_it_lists(results):
    missing = {c.id: sorted(set(c.rules) - set(c.asserted)) for c in results.cases if set(c.rules) - set(c.asserted)}
    assert not missing


def test_seed_quotes_are_verbatim():
    seeds = seeds_dir()
    if seeds is None:
        pytest.skip("shared/seeds is not beside this checkout")
    text = (Path(seeds) / GAME.seed).read_text(encoding="utf-8")
    quotes = [lc.case for lc in load_suite(games=["duelmasters"]).cases if lc.case.source.kind == "seed"]
    assert quotes
    for case in quotes:
        assert case.source.quote in text, case.id
