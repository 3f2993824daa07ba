"""Duel Masters 革命チェンジ (revolution_change): the legality API's declarations, listed by hand from CR506.3b (the
attacking player declares each change of the hand whose condition the attacker meets: `use` or `decline` of that
card) and the condition of each card (civ, race 203.2, min_cost); a refusal that changes nothing; no declaration
under the seed's ruleset (X-revolution-change-edition)."""

from __future__ import annotations

from oracle.core import legality as L
from oracle.loader import load_cards
from oracle.model import Setup

SEED, CURRENT = "dm-seed-crossgear-era", "dm-comprehensive-2024-02-15"
FIRE_DRAGON, WATER_DRAGON = "試作型火のドラゴンテスター", "試作型水のドラゴンテスター"
SMALL, HUMANOID = "試作型火の小型ドラゴンテスター", "試作型火のヒューマノイドテスター"
CHANGE, WATER_CHANGE, FIRE_CHANGE = "試作型革命チェンジテスター", "試作型水の革命チェンジテスター", "試作型革命チェンジ出現テスター"


def _request(attacker: str, hand: list[tuple[str, str]], ruleset: str = CURRENT, script: list | None = None) -> dict:
    pool = load_cards("duelmasters")
    setup = Setup.model_validate({"active": "alice", "players": {
        "alice": {"battlefield": [{"id": "a", "card": attacker, "power": 5000}],
                  "hand": [{"id": cid, "card": name, "power": 9000} for cid, name in hand], "deck": 3},
        "bob": {"shields": [{"id": "s1", "card": "試験用バニラ"}]}}}).model_dump(mode="json", exclude_none=True)
    names = {c["card"] for p in setup["players"].values() for z in p.values() if isinstance(z, list) for c in z}
    return {"game": "duelmasters", "ruleset": ruleset, "setup": setup,
            "script": [{"alice": {"attack": {"attacker": "a", "target": "bob"}}}, *(script or [])],
            "cards": {n: pool[n].model_dump(mode="json", exclude_none=True) for n in names}}


def _declarations(attacker: str, hand: list[tuple[str, str]], script: list | None = None) -> set[tuple[str, str]]:
    n = 1 + len(script or [])
    p = L.legal_decisions(_request(attacker, hand, script=script), n)
    assert (p.player, p.kinds) == ("alice", ("use", "decline")) and p.complete, p
    return {(o.kind, o.args if isinstance(o.args, str) else o.args["card"]) for o in p.legal}


HAND = [("rc", CHANGE), ("w", WATER_CHANGE), ("f", FIRE_CHANGE)]


def test_each_change_whose_condition_the_attacker_meets_is_offered():
    """A fire dragon of cost 6: rc (fire or nature, dragon, cost 5 or more) and f (fire); not w (water)."""
    assert _declarations(FIRE_DRAGON, HAND) == {("use", "rc"), ("decline", "rc"), ("use", "f"), ("decline", "f")}


def test_the_condition_reads_civilization_race_and_cost():
    """A water dragon: only w. A fire dragon of cost 3, a fire humanoid of cost 6: only f (rc needs cost 5 and a
    race holding ドラゴン, 203.2)."""
    assert _declarations(WATER_DRAGON, HAND) == {("use", "w"), ("decline", "w")}
    for attacker in (SMALL, HUMANOID):
        assert _declarations(attacker, HAND) == {("use", "f"), ("decline", "f")}, attacker


def test_an_answered_change_is_not_offered_again():
    """After rc is declined, f alone is open; after f is declared too, the next point is the shield."""
    assert _declarations(FIRE_DRAGON, HAND, [{"alice": {"decline": "rc"}}]) == {("use", "f"), ("decline", "f")}
    after = L.pending(_request(FIRE_DRAGON, HAND, script=[{"alice": {"decline": "rc"}}, {"alice": {"use": "f"}}]), 3)
    assert after.kinds == ("choose_shield",)


def test_the_refusal_changes_nothing_and_asks_again():
    """use w (water) for a fire attacker: revolution_change_condition, tagged CR506.3b; the same decision again."""
    verdict = L.check(_request(FIRE_DRAGON, HAND), 1, {"alice": {"use": "w"}})
    assert verdict is not None and (verdict.reason, verdict.clause) == ("revolution_change_condition",
                                                                        "duelmasters:CR506.3b"), verdict
    after = L.pending(_request(FIRE_DRAGON, HAND, script=[{"alice": {"use": "w"}}]), 2)
    assert (after.player, after.kinds) == ("alice", ("use", "decline"))


def test_no_declaration_under_the_seed_or_without_an_offered_card():
    """The seed's procedure has no use declaration (X-revolution-change-edition); nor is one asked when no card of
    the hand is of the attacker's condition: the next point is the shield."""
    assert L.pending(_request(FIRE_DRAGON, HAND, SEED), 1).kinds == ("choose_shield",)
    assert L.pending(_request(FIRE_DRAGON, [("w", WATER_CHANGE)]), 1).kinds == ("choose_shield",)
