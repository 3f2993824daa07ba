"""Unit tests of the Ijinden reference engine, clause by clause (seed 000).

Boards are built directly as protocol requests with plain card definitions, so these tests do not
depend on the card pool; the golden cases test the same rules through the case files.
"""

from __future__ import annotations

from typing import Any

import pytest

from oracle.core.errors import MissingDecision, ScriptError
from oracle.core.script import Script
from oracle.core.trace import Trace
from oracle.games.ijinden.procedure import Procedure, run
from oracle.games.ijinden.state import build
from oracle.model import CaseRequest

CARDS = {
    "ijin": {"name": "ijin", "types": ["ijin"], "power": 2000},
    "guardian": {"name": "guardian", "types": ["guardian"]},
    "arena": {"name": "arena", "types": [], "abilities": ["arena"]},
    "yoshi": {"name": "yoshi", "types": ["ijin"], "power": 1000,
              "abilities": [{"grant_voyage": {"min_power": 3000, "draw": 1}}]},
}


def card(cid: str, kind: str = "ijin", **kw: Any) -> dict[str, Any]:
    return {"id": cid, "card": kind, **kw}


def play(alice: list, bob: list, script: list, *, alice_deck: int = 5, bob_deck: int = 5,
         alice_hand: list | None = None):
    players = {"alice": {"battlefield": alice, "deck": alice_deck, "hand": alice_hand or []},
               "bob": {"battlefield": bob, "deck": bob_deck}}
    decisions = []
    for d in script:
        (player, body), = d.items()
        kind, args = (body, None) if isinstance(body, str) else next(iter(body.items()))
        decisions.append({"player": player, "kind": kind, "args": args})
    req = CaseRequest(id="t", game="ijinden", ruleset="r", cards=CARDS,
                      setup={"active": "alice", "players": players}, script=decisions)
    return run(req)


def moments(reply) -> list[list[tuple]]:
    out: dict[int, list] = {}
    for e in reply.trace:
        out.setdefault(e.moment, []).append((e.kind, e.args.get("card", e.args.get("player")), e.clause))
    return list(out.values())


def events(reply, kind: str) -> list[dict]:
    return [e.args for e in reply.trace if e.kind == kind]


def rejected(reply) -> list[str]:
    return [e.args["reason"] for e in reply.trace if e.kind == "rejected"]


ATTACK_A = {"alice": {"declare_attackers": ["a"]}}
NO_BLOCK = {"bob": {"declare_blockers": {}}}


# -- A1 ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("attacker, reason", [
    (card("a", tapped=True), "attacker_sleeping"),
    (card("a", entered_this_turn=True), "attacker_placed_this_turn"),
    (card("a", "guardian"), "attacker_not_ijin"),
])
def test_a1_refuses_illegal_attackers_and_changes_nothing(attacker, reason):
    r = play([attacker], [], [ATTACK_A])
    assert rejected(r) == [reason]
    assert [e.kind for e in r.trace] == ["rejected"]
    assert r.final["cards"]["a"]["attacker"] is False


def test_a1_sokuou_may_attack_the_turn_it_was_placed():
    r = play([card("a", entered_this_turn=True, abilities=["sokuou"])], [], [ATTACK_A, NO_BLOCK,
                                                                           {"bob": {"choose_attacker": "a"}}])
    assert r.winner == "alice"


def test_a1_cards_of_the_defender_cannot_attack():
    r = play([], [card("b")], [{"alice": {"declare_attackers": ["b"]}}])
    assert rejected(r) == ["attacker_not_yours"]


def test_battle_once_per_main_phase():
    g = card("g", "guardian")
    r = play([card("a", power=5000), card("b")], [g], [
        ATTACK_A, {"bob": {"declare_blockers": {"a": ["g"]}}}, {"bob": {"choose_attacker": "a"}},
        {"alice": {"declare_attackers": ["b"]}}])
    assert rejected(r) == ["battle_already_declared"]
    assert r.final["players"]["alice"]["battle_declared"] is True


def test_only_the_turn_player_declares():
    r = play([], [card("b")], [{"bob": {"declare_attackers": ["b"]}}])
    assert rejected(r) == ["not_turn_player"]


# -- A2/A3/A4 -----------------------------------------------------------------------------------

def test_a3_is_one_moment_for_every_attacker():
    r = play([card("a"), card("b")], [], [{"alice": {"declare_attackers": ["a", "b"]}}, NO_BLOCK,
                                          {"bob": {"choose_attacker": "b"}}])
    a3 = next(m for m in moments(r) if any(k == "became_attacker" for k, *_ in m))
    assert sorted(a3) == sorted([("slept", "a", "ijinden:A3"), ("slept", "b", "ijinden:A3"),
                                 ("became_attacker", "a", "ijinden:A3"), ("became_attacker", "b", "ijinden:A3"),
                                 ("attacked", "alice", "ijinden:A3")])


def test_a2_attack_plus_applies_before_a3_so_yoshimitsu_grants_voyage():
    """Q&A: 2000 + アタック+1000 = 3000 -> 足利義満 gives 航海, one draw."""
    r = play([card("y", "yoshi"), card("a", abilities=[{"attack_plus": 1000}])], [],
             [ATTACK_A, NO_BLOCK, {"bob": {"choose_attacker": "a"}}])
    assert events(r, "triggered") == [{"card": "a", "ability": "voyage_draw", "player": "alice"}]
    assert events(r, "drew") == [{"player": "alice", "count": 1}]


def test_without_attack_plus_no_voyage():
    r = play([card("y", "yoshi"), card("a")], [], [ATTACK_A, NO_BLOCK, {"bob": {"choose_attacker": "a"}}])
    assert events(r, "triggered") == []


def test_a4_triggers_resolve_before_the_block_step_and_need_an_order():
    r = play([card("a", abilities=[{"voyage_draw": 1}]), card("b", abilities=[{"voyage_draw": 2}])], [],
             [{"alice": {"declare_attackers": ["a", "b"]}}, {"alice": {"order_triggers": ["b", "a"]}},
              NO_BLOCK, {"bob": {"choose_attacker": "a"}}])
    kinds = [e.kind for e in r.trace]
    assert kinds.index("drew") < kinds.index("decided", kinds.index("drew"))
    assert [d["count"] for d in events(r, "drew")] == [2, 1]


def test_a4_missing_order_is_a_script_error_naming_the_decision():
    with pytest.raises(MissingDecision, match="order_triggers"):
        play([card("a", abilities=[{"voyage_draw": 1}]), card("b", abilities=[{"voyage_draw": 1}])], [],
             [{"alice": {"declare_attackers": ["a", "b"]}}])


def test_voyage_draw_then_discard():
    r = play([card("a", abilities=[{"voyage_draw_discard": {"draw": 1, "discard": 1}}])], [],
             [ATTACK_A, {"alice": {"discard": "h"}}, NO_BLOCK, {"bob": {"choose_attacker": "a"}}],
             alice_hand=[card("h")])
    assert r.final["cards"]["h"]["zone"] == "graveyard"
    assert r.final["players"]["alice"]["hand"] == ["alice.deck.1"]


def test_lone_attack_gives_double_pressure_so_one_blocker_is_refused():
    r = play([card("a", abilities=["lone_attack_double_pressure"])], [card("g", "guardian"), card("h", "guardian")],
             [ATTACK_A, {"bob": {"declare_blockers": {"a": ["g"]}}}, {"bob": {"declare_blockers": {"a": ["g", "h"]}}},
              {"bob": {"choose_attacker": "a"}}])
    assert events(r, "gained") == [{"card": "a", "ability": "double_pressure"}]
    assert rejected(r) == ["pressure_not_met"]


def test_three_attackers_trigger_removes_one_and_destroys_itself():
    bob = [card("t", "guardian", abilities=["three_attackers_destroy"])]
    r = play([card("a"), card("b"), card("c")], bob,
             [{"alice": {"declare_attackers": ["a", "b", "c"]}}, {"bob": {"activate": {"card": "t", "target": "b"}}},
              NO_BLOCK, {"bob": {"choose_attacker": "a"}}])
    assert r.final["cards"]["b"]["attacker"] is False
    assert r.final["cards"]["t"]["zone"] == "graveyard"
    assert r.winner == "alice"


# -- B1-B4 -----------------------------------------------------------------------------------

@pytest.mark.parametrize("blockers, reason", [
    ({"a": ["s"]}, "blocker_sleeping"),
    ({"a": ["x"]}, "blocker_not_defenders"),
    ({"a": ["g"], "b": ["g"]}, "blocker_assigned_twice"),
])
def test_b1_refusals(blockers, reason):
    r = play([card("a"), card("b"), card("x")], [card("g", "guardian"), card("s", tapped=True)],
             [{"alice": {"declare_attackers": ["a", "b"]}}, {"bob": {"declare_blockers": blockers}},
              NO_BLOCK, {"bob": {"choose_attacker": "a"}}])
    assert rejected(r) == [reason]


def test_b1_pressure_is_checked_per_attacker():
    r = play([card("a", abilities=["triple_pressure"])], [card("g", "guardian"), card("h", "guardian")],
             [ATTACK_A, {"bob": {"declare_blockers": {"a": ["g", "h"]}}}, NO_BLOCK, {"bob": {"choose_attacker": "a"}}])
    assert rejected(r) == ["pressure_not_met"]


def test_b2_block_plus_and_b3_one_moment():
    r = play([card("a", power=3000)], [card("i", power=2000, abilities=[{"block_plus": 1000}]), card("j", power=500)],
             [ATTACK_A, {"bob": {"declare_blockers": {"a": ["i", "j"]}}}, {"bob": {"choose_attacker": "a"}}])
    b3 = next(m for m in moments(r) if any(k == "became_blocker" for k, *_ in m))
    assert sorted(x[:2] for x in b3) == [("became_blocker", "i"), ("became_blocker", "j"), ("blocked", "a")]
    d1 = {e["card"]: e for e in events(r, "won_battle") + events(r, "lost_battle")}
    assert d1["i"]["power"] == 3000 and d1["a"]["against"] == 3500


def test_blocking_does_not_put_the_blocker_to_sleep():
    r = play([card("a", power=1000)], [card("i", power=3000)],
             [ATTACK_A, {"bob": {"declare_blockers": {"a": ["i"]}}}, {"bob": {"choose_attacker": "a"}}])
    assert r.final["cards"]["i"]["sleeping"] is False


# -- C1 ---------------------------------------------------------------------------------------------

def test_c1b_unblocked_attacker_wins_at_once():
    r = play([card("a"), card("b")], [card("i", power=5000)],
             [{"alice": {"declare_attackers": ["a", "b"]}}, {"bob": {"declare_blockers": {"a": ["i"]}}},
              {"bob": {"choose_attacker": "b"}}])
    assert r.winner == "alice"
    assert r.trace[-1].kind == "won" and r.trace[-1].clause == "ijinden:C1b"


def test_no_decisions_after_the_game_is_over():
    with pytest.raises(ScriptError, match="never used"):
        play([card("a")], [], [ATTACK_A, NO_BLOCK, {"bob": {"choose_attacker": "a"}}, {"alice": "end_turn"}])


def test_pass_through_when_pressure_is_no_longer_met():
    """トリプルプレッシャー: blockers drop to two before C1a -> the attacker is unblocked and wins."""
    bob = [card("g1", "guardian"), card("g2", "guardian"), card("g3", "guardian", abilities=["block_unattack"]),
           card("k", abilities=["block_destroy"])]
    # k blocks b and, as it becomes a blocker, destroys g1; g3 declines its own ability.
    r = play([card("a", abilities=["triple_pressure"]), card("b", power=100)], bob,
             [{"alice": {"declare_attackers": ["a", "b"]}},
              {"bob": {"declare_blockers": {"a": ["g1", "g2", "g3"], "b": ["k"]}}},
              {"bob": {"order_triggers": ["k", "g3"]}},
              {"bob": {"activate": {"card": "k", "target": "g1"}}},
              {"bob": {"decline": "g3"}},
              {"bob": {"choose_attacker": "a"}}])
    unblocked = next(m for m in moments(r) if any(k == "unblocked" for k, *_ in m))
    # Issue 25: the block ends in the moment g1 leaves (PASS-THROUGH-2 as it happens), with g1's own ceasing.
    assert sorted(x[:2] for x in unblocked if x[0] in ("ceased_blocker", "unblocked")) == [
        ("ceased_blocker", "g1"), ("ceased_blocker", "g2"), ("ceased_blocker", "g3"), ("unblocked", "a")]
    assert any(x[:2] == ("moved", "g1") for x in unblocked)
    assert r.winner == "alice"


def test_pass_through_when_every_blocker_is_gone():
    bob = [card("g1", "guardian"), card("k", abilities=["block_destroy"])]
    r = play([card("a"), card("b", power=100)], bob,
             [{"alice": {"declare_attackers": ["a", "b"]}}, {"bob": {"declare_blockers": {"a": ["g1"], "b": ["k"]}}},
              {"bob": {"activate": {"card": "k", "target": "g1"}}}, {"bob": {"choose_attacker": "a"}}])
    assert events(r, "unblocked") == [{"card": "a"}]
    assert r.winner == "alice"


# -- D1-D6 ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("ap, bp, a_wins, b_wins", [
    (3000, 2000, True, False), (2000, 3000, False, True), (2000, 2000, False, False)])
def test_d1_one_blocker(ap, bp, a_wins, b_wins):
    r = play([card("a", power=ap)], [card("i", power=bp)],
             [ATTACK_A, {"bob": {"declare_blockers": {"a": ["i"]}}}, {"bob": {"choose_attacker": "a"}}])
    won = {e["card"] for e in events(r, "won_battle")}
    assert ("a" in won, "i" in won) == (a_wins, b_wins)
    assert {e["card"] for e in events(r, "destroyed")} == {"a", "i"} - won


def test_d1_several_blockers_sum_against_each():
    r = play([card("a", power=4000)], [card("i", power=2000), card("j", power=2500)],
             [ATTACK_A, {"bob": {"declare_blockers": {"a": ["i", "j"]}}}, {"bob": {"choose_attacker": "a"}}])
    res = {e["card"]: (e["power"], e["against"]) for e in events(r, "lost_battle")}
    assert res == {"a": (4000, 4500), "i": (2000, 4000), "j": (2500, 4000)}


def test_d1_guardian_counts_zero_and_wins_only_at_zero_or_less():
    r = play([card("a", power=0)], [card("g", "guardian")],
             [ATTACK_A, {"bob": {"declare_blockers": {"a": ["g"]}}}, {"bob": {"choose_attacker": "a"}}])
    assert events(r, "won_battle") == [{"card": "g", "power": 0, "against": 0}]
    r = play([card("a", power=1000)], [card("g", "guardian")],
             [ATTACK_A, {"bob": {"declare_blockers": {"a": ["g"]}}}, {"bob": {"choose_attacker": "a"}}])
    assert {e["card"] for e in events(r, "lost_battle")} == {"g"}


def test_d2_to_d6_order_and_undestroy_skips_the_graveyard():
    """安倍晴明: not destroyed any more -> not put into the graveyard -> no legacy."""
    alice = [card("a", power=1000)]
    bob = [card("s", power=1000, abilities=["undestroy", {"legacy_draw": 1}]), card("g", "guardian"),
           card("i", power=1000)]
    r = play(alice, bob, [ATTACK_A, {"bob": {"declare_blockers": {"a": ["s", "i"]}}},
                          {"bob": {"choose_attacker": "a"}}, {"bob": {"activate": {"card": "s", "cost": "g"}}}])
    d2 = next(m for m in moments(r) if any(k == "destroyed" for k, *_ in m))
    assert sorted(x[:2] for x in d2) == [("destroyed", "a"), ("destroyed", "i"), ("destroyed", "s")]
    assert r.final["cards"]["s"]["zone"] == "battlefield"
    assert r.final["cards"]["g"]["zone"] == "graveyard"
    assert events(r, "undestroyed") == [{"card": "s"}]
    assert not any(e["card"] == "s" for e in events(r, "triggered") if e["ability"] == "legacy_draw")


def test_d2_losers_destroyed_at_once_so_netherworld_comes_too_late():
    """ダブルプレッシャー blocked by two guardians: both destroyed at D2 before any 冥府発動 at D5."""
    bob = [card("g1", "guardian", abilities=["netherworld_destroy"]), card("g2", "guardian")]
    r = play([card("a", power=3000, abilities=["double_pressure"])], bob,
             [ATTACK_A, {"bob": {"declare_blockers": {"a": ["g1", "g2"]}}}, {"bob": {"choose_attacker": "a"}},
              {"bob": {"activate": {"card": "g1", "target": "a"}}}])
    d2 = next(m for m in moments(r) if any(k == "destroyed" for k, *_ in m))
    assert sorted(x[:3] for x in d2) == [("destroyed", "g1", "ijinden:D2"), ("destroyed", "g2", "ijinden:D2")]
    d4 = next(m for m in moments(r) if any(k == "moved" for k, *_ in m))
    assert {x[1] for x in d4 if x[0] == "moved"} == {"g1", "g2"}
    assert r.final["cards"]["g2"]["zone"] == "graveyard"


def test_d6_survivors_stop_being_attacker_and_blocker():
    alice = [card("a", power=1000, abilities=["undestroy"]), card("ga", "guardian")]
    r = play(alice, [card("i", power=3000)],
             [ATTACK_A, {"bob": {"declare_blockers": {"a": ["i"]}}}, {"bob": {"choose_attacker": "a"}},
              {"alice": {"activate": {"card": "a", "cost": "ga"}}}])
    d6 = next(m for m in moments(r) if any(k == "battle_resolution_ended" for k, *_ in m))
    assert sorted(d6) == [("battle_resolution_ended", "a", "ijinden:D6"), ("ceased_attacker", "a", "ijinden:D6"),
                          ("ceased_blocker", "i", "ijinden:D6")]
    assert r.final["cards"]["i"]["blocker"] is False and r.final["cards"]["a"]["attacker"] is False


def test_a_blocker_whose_attacker_left_ceases_in_that_moment():
    r = play([card("a", power=3000)], [card("i", power=1000, abilities=[{"block_plus": 5000}])],
             [ATTACK_A, {"bob": {"declare_blockers": {"a": ["i"]}}}, {"bob": {"choose_attacker": "a"}}])
    d4 = next(m for m in moments(r) if ("moved", "a", "ijinden:D4") in m)
    assert ("ceased_blocker", "i", "ijinden:CEASE-BLOCKER") in d4
    assert r.final["cards"]["i"]["blocker"] is False and r.final["cards"]["a"]["zone"] == "graveyard"
    assert events(r, "battle_ended") == [{"player": "alice"}]


# -- ceasing --------------------------------------------------------------------------------------

def test_arena_leaving_makes_the_guardian_attacker_cease_with_its_blockers():
    """Q&A: 円形闘技場 gone before resolution -> the guardian is neither Ijin nor attacker; its blockers cease."""
    alice = [card("ar", "arena"), card("g", "guardian", entered_this_turn=True), card("b", power=100)]
    bob = [card("i", power=1000), card("k", abilities=["block_destroy"])]
    r = play(alice, bob, [{"alice": {"declare_attackers": ["g", "b"]}},
                          {"bob": {"declare_blockers": {"g": ["i"], "b": ["k"]}}},
                          {"bob": {"activate": {"card": "k", "target": "ar"}}},
                          {"bob": {"choose_attacker": "b"}}])
    moved = next(m for m in moments(r) if ("moved", "ar", "ijinden:B4") in m)
    assert {x[:2] for x in moved} >= {("ceased_ijin", "g"), ("ceased_attacker", "g"), ("ceased_blocker", "i")}
    assert r.final["cards"]["g"]["ijin"] is False and r.final["cards"]["i"]["blocker"] is False


def test_arena_guardian_attacks_with_power_3000():
    alice = [card("ar", "arena"), card("g", "guardian")]
    r = play(alice, [card("i", power=2500)], [{"alice": {"declare_attackers": ["g"]}},
                                             {"bob": {"declare_blockers": {"g": ["i"]}}},
                                             {"bob": {"choose_attacker": "g"}}])
    assert events(r, "won_battle") == [{"card": "g", "power": 3000, "against": 2500}]



# -- refusals of shape and names; attack+ ending; end_turn ------------------------------------------

THREE = {"alice": {"declare_attackers": ["a", "b", "c"]}}


def partial(alice: list, bob: list, script: list) -> list:
    """Play until the script runs out (a missing decision, or the main phase's open point) and return
    the trace entries."""
    trace = Trace()
    players = {"alice": {"battlefield": alice, "deck": 5}, "bob": {"battlefield": bob, "deck": 5}}
    decisions = [{"player": p, "kind": k, "args": a}
                 for d in script for p, body in d.items()
                 for k, a in ([(body, None)] if isinstance(body, str) else body.items())]
    req = CaseRequest(id="t", game="ijinden", ruleset="r", cards=CARDS,
                      setup={"active": "alice", "players": players}, script=decisions)
    state = build(req, trace)
    try:
        Procedure(state, Script(req.script, trace)).main_phase()
    except MissingDecision:
        pass
    return trace.entries


@pytest.mark.parametrize("script, reason", [
    ([{"alice": {"declare_attackers": {"a": 1}}}], "malformed_decision"),
    ([{"alice": {"declare_attackers": ["nobody"]}}], "unknown_object"),
    ([ATTACK_A, {"bob": {"declare_blockers": {"a": [1]}}}], "malformed_decision"),
    ([ATTACK_A, {"bob": {"declare_blockers": {"a": ["nobody"]}}}], "unknown_object"),
    ([ATTACK_A, NO_BLOCK, {"bob": {"choose_attacker": "nobody"}}], "unknown_object"),
    ([ATTACK_A, NO_BLOCK, {"bob": {"choose_attacker": ["a"]}}], "malformed_decision"),
    ([THREE, {"bob": {"activate": ["t"]}}], "malformed_decision"),
    ([THREE, {"bob": {"decline": ["t"]}}], "malformed_decision"),
    ([THREE, {"bob": {"activate": {"card": "t", "target": "nobody"}}}], "unknown_object"),
    ([THREE, {"bob": {"activate": {"card": "t", "target": "i"}}}], "illegal_target"),
    ([THREE, {"bob": {"decline": "i"}}], "no_such_trigger"),
])
def test_refusals_name_their_reason_and_nothing_happens_after(script, reason):
    alice = [card("a"), card("b"), card("c")]
    bob = [card("t", abilities=["three_attackers_destroy"]), card("i")]
    entries = partial(alice, bob, script)
    assert entries[-1].kind == "rejected" and entries[-1].args["reason"] == reason
    assert [e.kind for e in entries].count("rejected") == 1


def test_order_triggers_must_be_a_list_naming_each_trigger_once():
    alice = [card("a", abilities=[{"voyage_draw": 1}]), card("b", abilities=[{"voyage_draw": 1}])]
    for order, reason in ((["a"], "wrong_order"), (["a", "a"], "wrong_order"), ({"a": 1}, "malformed_decision")):
        entries = partial(alice, [], [{"alice": {"declare_attackers": ["a", "b"]}}, {"alice": {"order_triggers": order}}])
        assert entries[-1].args["reason"] == reason


def test_attack_plus_stops_when_the_card_is_no_longer_an_attacker():
    """A2 on while an attacker (assumption ijinden:assume.plus-while-in-battle); 足利義満's 航海 goes with it."""
    alice = [card("y", "yoshi"), card("a", abilities=[{"attack_plus": 1000}]), card("b", abilities=[{"attack_plus": 1000}]),
             card("c")]
    r = play(alice, [card("t", abilities=["three_attackers_destroy"])],
             [THREE, {"alice": {"order_triggers": ["a", "b"]}}, {"bob": {"activate": {"card": "t", "target": "a"}}},
              NO_BLOCK, {"bob": {"choose_attacker": "b"}}])
    assert (r.final["cards"]["a"]["power"], r.final["cards"]["b"]["power"]) == (2000, 3000)
    assert "voyage_draw" not in r.final["cards"]["a"]["abilities"]
    assert "voyage_draw" in r.final["cards"]["b"]["abilities"]


def test_end_turn_ends_the_case_and_no_decision_may_follow():
    r = play([card("a")], [], [{"alice": "end_turn"}])
    assert [e.kind for e in r.trace] == ["decided"] and r.final["players"]["alice"]["battle_declared"] is False
    with pytest.raises(ScriptError, match="never used"):
        play([card("a")], [], [{"alice": "end_turn"}, ATTACK_A])


def test_the_trigger_table_and_the_effect_table_cover_the_same_abilities_of_the_vocabulary():
    """Every named triggered ability is shorthand for a composition (issue 25): the trigger table is read off the
    shorthand table, every ability is in the vocabulary, and every effect a shorthand uses is in the effect table
    and in the vocabulary's composed effects."""
    from oracle.games.ijinden import abilities, vocabulary

    triggered = {a for names in abilities.TRIGGERS.values() for a in names}
    assert triggered <= set(vocabulary.ABILITIES)
    assert triggered == set(abilities.SHORTHAND)
    kinds = {e.kind for n in abilities.SHORTHAND for e in abilities.composition(n, None).effects} - {"none"}
    assert kinds <= set(abilities.EFFECTS) and set(abilities.EFFECTS) - {"none"} == set(dict(vocabulary.COMPOSED_EFFECT.parts))
