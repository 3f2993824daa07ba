"""Duel Masters summoning and evolving (`summon`, current rules): the legality API's summons, listed by hand from
CR301.1 (a creature of the hand, in the main step), 112.2a/112.2c (one card per civilization, as many cards as the
cost) and 801.1 (an evolution creature onto a creature of its condition of the summoner's); none under the seed's
ruleset (X-summon); a refusal changes nothing."""

from __future__ import annotations

from oracle.core import legality as L
from oracle.loader import load_cards
from oracle.model import Setup

SEED, CURRENT = "dm-seed-crossgear-era", "dm-comprehensive-2024-02-15"
FIRE, FIRE_NATURE, EVO = "試作型火の召喚テスター", "試作型火自然の召喚テスター", "試作型火の進化召喚テスター"
FIRE_MANA, WATER, PLAIN = "試作型火の小型ドラゴンテスター", "試作型水のドラゴンテスター", "試験用バニラ"


def _request(alice: dict, ruleset: str = CURRENT, script: list | None = None, bob: dict | None = None) -> dict:
    pool = load_cards("duelmasters")
    setup = Setup.model_validate({"active": "alice", "players": {"alice": alice, "bob": bob or {"shields": 1}}}
                                 ).model_dump(mode="json", exclude_none=True)
    names = {c["card"] for p in setup["players"].values() for z in p.values() if isinstance(z, list) for c in z}
    return {"game": "duelmasters", "ruleset": ruleset, "setup": setup, "script": script or [],
            "cards": {n: pool[n].model_dump(mode="json", exclude_none=True) for n in names}}


def card(cid: str, name: str, **kw) -> dict:
    return {"id": cid, "card": name, "power": 1000, **kw}


def _summons(alice: dict, bob: dict | None = None) -> set[tuple]:
    p = L.legal_decisions(_request(alice, bob=bob), 0)
    assert p.player == "alice" and "summon" in p.kinds and p.complete, p
    return {(o.args["card"], tuple(sorted(o.args["mana"])), o.args.get("onto")) for o in p.legal if o.kind == "summon"}


def test_every_exact_payment_is_a_summon():
    """A fire creature of cost 2 with mana f1, f2 (fire), c (colorless), t (tapped fire): the pairs holding a fire
    card among the untapped -- {f1,f2}, {f1,c}, {f2,c}: 3 (not t, not three cards, not c alone)."""
    alice = {"hand": [card("h", FIRE)],
             "mana": [card("f1", FIRE_MANA), card("f2", FIRE_MANA), card("c", PLAIN), card("t", FIRE_MANA, tapped=True)]}
    assert _summons(alice) == {("h", ("f1", "f2"), None), ("h", ("c", "f1"), None), ("h", ("c", "f2"), None)}


def test_a_multicolored_card_pays_one_civilization():
    """A fire/nature creature of cost 3 with mana fn (fire/nature), f (fire), c1, c2: fn must pay nature, so f
    pays fire: {fn, f, c1}, {fn, f, c2}: 2 (fn with two colorless cards does not pay)."""
    alice = {"hand": [card("h", FIRE_NATURE)],
             "mana": [card("fn", FIRE_NATURE), card("f", FIRE_MANA), card("c1", PLAIN), card("c2", PLAIN)]}
    assert _summons(alice) == {("h", ("c1", "f", "fn"), None), ("h", ("c2", "f", "fn"), None)}


def test_an_evolution_creature_goes_onto_a_fire_creature_of_the_summoners():
    """「進化―自分の火のクリーチャー1体の上に置く」, cost 2, mana f, c: onto s (alice's fire creature) only -- not w (water),
    not b (bob's fire creature), not without a source."""
    alice = {"battlefield": [card("s", FIRE), card("w", WATER)], "hand": [card("e", EVO)],
             "mana": [card("f", FIRE_MANA), card("c", PLAIN)]}
    bob = {"battlefield": [card("b", FIRE)], "shields": 1}
    assert _summons(alice, bob) == {("e", ("c", "f"), "s")}


def test_no_summon_under_the_seed_nor_after_the_first_attack():
    """The seed's procedure starts at the attacks (X-summon); under the current rules the main step ends with the
    first attack: the open point after it offers no summon."""
    alice = {"battlefield": [card("a", PLAIN)], "hand": [card("h", FIRE)],
             "mana": [card("f1", FIRE_MANA), card("f2", FIRE_MANA)]}
    assert "summon" not in L.pending(_request(alice, SEED), 0).kinds
    script = [{"alice": {"attack": {"attacker": "a", "target": "bob"}}}, {"alice": {"choose_shield": "bob.shields.1"}}]
    after = L.pending(_request(alice, script=script), 2)
    assert after.kinds == ("attack", "tap_ability", "end_turn"), after


def test_the_refusal_changes_nothing_and_asks_again():
    """cost_not_paid (tagged CR112.2a): nothing tapped; the same player is asked the open point again."""
    alice = {"hand": [card("h", FIRE)], "mana": [card("c1", PLAIN), card("c2", PLAIN)]}
    decision = {"alice": {"summon": {"card": "h", "mana": ["c1", "c2"]}}}
    verdict = L.check(_request(alice), 0, decision)
    assert verdict is not None and (verdict.reason, verdict.clause) == ("cost_not_paid", "duelmasters:CR112.2a")
    after = L.pending(_request(alice, script=[decision]), 1)
    assert after.player == "alice" and "summon" in after.kinds
