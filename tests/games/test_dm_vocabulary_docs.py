"""Duel Masters: what the vocabulary and PROCEDURE.md say each event and field means is what the reference
emits, on every golden case (the points an outside engine author found undocumented)."""

from __future__ import annotations

import pytest

from oracle import registry
from oracle.errors import ScriptError
from oracle.games.duelmasters.vocabulary import CARD_FIELDS, EVENTS
from oracle.harness.request import make_request
from oracle.loader import load_suite

from test_duelmasters import atk, run, shields, vanilla

GAME = registry.get("duelmasters")


@pytest.fixture(scope="module")
def replies():
    out = []
    for lc in load_suite(games=["duelmasters"]).cases:
        for ruleset in lc.case.rulesets or ["dm-seed-crossgear-era"]:
            try:
                out.append((lc.case.id, GAME.run(make_request(lc.case, ruleset))))
            except ScriptError:        # a case that pins a script error: nothing to read here
                continue
    assert len(out) > 100
    return out


def test_every_player_field_is_defined():
    """Each event with a `player` field says which player that is (owner, controller, chooser...)."""
    vague = [k for k, e in EVENTS.items() if "player" in e.fields and k not in ("decided", "rejected")
             and "`player`" not in e.doc]
    assert not vague


def test_the_game_ends_with_won_alone(replies):
    assert "lost" not in EVENTS and "only event of the game's end" in EVENTS["won"].doc
    assert not [cid for cid, r in replies if any(e.kind == "lost" for e in r.trace)]
    assert [cid for cid, r in replies if any(e.kind == "won" for e in r.trace)]


def test_a_draw_is_one_drew_event_and_no_moved(replies):
    """The vocabulary: a draw's only event is `drew` -- its moment holds no `moved` of a card to the hand."""
    draws = 0
    for cid, r in replies:
        for e in r.trace:
            if e.kind == "drew":
                draws += 1
                same = [x for x in r.trace if x.moment == e.moment and x is not e]
                assert not [x for x in same if x.kind == "moved"], cid
                assert not [x for x in r.trace if x.kind == "moved" and x.args["from"] == "deck"
                            and x.args["to"] == "hand" and x.moment in (e.moment - 1, e.moment + 1)], cid
    assert draws >= 5


def test_moved_from_is_the_zone_left_and_player_the_owner(replies):
    seen_bottom = False
    for cid, r in replies:
        owners = {c: f["owner"] for c, f in r.final["cards"].items()} if r.final else {}
        for e in r.trace:
            if e.kind == "moved":
                assert e.args["player"] == owners.get(e.args["card"], e.args["player"]), cid
                seen_bottom |= e.args["from"] == e.args["to"] == "deck"
    assert seen_bottom     # look_take's bottom cards, as the vocabulary's `moved` says


def test_look_take_bottom_cards_are_moved_deck_to_deck_one_moment_each():
    board = {"alice": {"battlefield": [vanilla("a", 2000)]},
             "bob": {"battlefield": [{"id": "fc", "card": "フェアリー・キャンドル"}],
                     "deck": [vanilla("d1", 1), vanilla("d2", 1), vanilla("d3", 1)], "shields": shields("s1")}}
    r = run(board, [atk("a", "bob"), {"bob": {"block": "fc"}},
                    {"bob": {"choose_card": {"take": "d2", "bottom": ["d3", "d1"]}}}])
    moved = [e for e in r.trace if e.kind == "moved" and e.args["from"] == "deck"]
    assert [(e.args["card"], e.args["to"]) for e in moved] == [("d2", "hand"), ("d3", "deck"), ("d1", "deck")]
    assert len({e.moment for e in moved}) == 3
    assert r.final["players"]["bob"]["deck"] == ["d3", "d1"]


def test_power_is_an_int_in_the_battle_zone_and_may_be_null_elsewhere(replies):
    assert CARD_FIELDS["power"].startswith("int | null")
    nulls = 0
    for cid, r in replies:
        for card, f in (r.final or {}).get("cards", {}).items():
            if f["zone"] == "battlefield":
                assert isinstance(f["power"], int), (cid, card, f)
            else:
                assert f["power"] is None or isinstance(f["power"], int), (cid, card, f)
                nulls += f["power"] is None
    assert nulls


def test_target_defaults_as_documented():
    """X-target-filters / X-tap-untap-targets: destroy_target null = an opposing creature; tap_target an untapped
    opposing one; pump_target N one of the controller's other creatures (no filter written)."""
    from oracle.core.legality import check
    from test_dm_precedence import request

    def reason(board, before, decision):
        v = check(request(board, [*before, decision], "dm-seed-crossgear-era"), len(before), decision)
        return v and v.reason

    destroy = {"alice": {"battlefield": [{"id": "k", "card": "試験用アタック破壊", "power": 1000}, vanilla("m", 1)]},
               "bob": {"battlefield": [vanilla("c", 1000)], "shields": shields("s1")}}
    assert reason(destroy, [atk("k", "bob")], {"alice": {"choose_target": "m"}}) == "illegal_target"
    assert reason(destroy, [atk("k", "bob")], {"alice": {"choose_target": "c"}}) is None
    tap = {"alice": {"battlefield": [{"id": "tt", "card": "試験用タップトリガー", "power": 1000}, vanilla("m", 1)]},
           "bob": {"battlefield": [vanilla("c", 1000), vanilla("ct", 1000, tapped=True)]}}
    tap_it = {"alice": {"tap_ability": "tt"}}
    assert reason(tap, [tap_it], {"alice": {"choose_target": "ct"}}) == "illegal_target"   # already tapped
    assert reason(tap, [tap_it], {"alice": {"choose_target": "m"}}) == "illegal_target"    # not the opponent's
    assert reason(tap, [tap_it], {"alice": {"choose_target": "c"}}) is None
    pump = {"alice": {"battlefield": [{"id": "dy", "card": "試験用ダイナモ", "power": 1000}, vanilla("m", 1)]},
            "bob": {"battlefield": [vanilla("c", 1000)]}}
    use = {"alice": {"tap_ability": "dy"}}
    assert reason(pump, [use], {"alice": {"choose_target": "dy"}}) == "illegal_target"    # 他の: not itself
    assert reason(pump, [use], {"alice": {"choose_target": "c"}}) == "illegal_target"     # 自分の: not bob's
    assert reason(pump, [use], {"alice": {"choose_target": "m"}}) is None
