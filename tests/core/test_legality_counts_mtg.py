"""Legal-decision counts of Magic decision points (oracle.core.legality), hand-counted from the rule text on small
boards (the perft-style counts of test_legality.py, for the points its Magic counts do not reach): a damage
assignment among two blockers under the damage assignment order of cr-20231117, and the choice of a Siege's
trigger. Added from the mutation run (docs/contributing/mutmut-mtg-survivors.md, 2026-12-01, branch mtgcases2)."""

from __future__ import annotations

from oracle.core import legality as L
from legality_requests import advance_to, request

RULESET = "cr-20231117"  # 510.1c as 20220429 words it: the damage assignment order (mtg:A-cr-wording)


def _request(setup: dict, script: list | tuple = ()) -> dict:
    return request("mtg", RULESET, setup, script)


def _blocked_by_two_bears(attacker: str) -> L.Pending:
    """alice's ``attacker`` (card) attacks bob, who blocks it with two 2/2s, b1 and b2: the assignment point."""
    req = _request({"active": "alice", "phase": "combat", "players": {
        "alice": {"battlefield": [{"id": "a", "card": attacker}]},
        "bob": {"battlefield": [{"id": "b1", "card": "Oracle Bear"}, {"id": "b2", "card": "Oracle Bear"}]}}},
        [{"alice": {"declare_attackers": {"a": "bob"}}}])
    p = advance_to(req, "declare_blockers")
    assert (p.player, p.kinds) == ("bob", ("declare_blockers",))
    req["script"].append({"bob": {"declare_blockers": {"b1": "a", "b2": "a"}}})
    p = advance_to(req, "assign_combat_damage")
    assert (p.player, p.kinds) == ("alice", ("assign_combat_damage",))
    return p


def _splits(p: L.Pending) -> list[list[tuple[str, int]]]:
    """Each legal assignment of attacker a as its recipients and amounts, in the order written."""
    return sorted([list(o.args["a"].items()) for o in p.legal])


def test_count_damage_assignment_of_an_attacker_whose_power_is_not_its_toughness():
    """510.1a: "Each attacking creature and each blocking creature assigns combat damage equal to its power."
    510.1c (20220429): two blockers, "according to the damage assignment order announced for it", and "it can't
    assign combat damage to a creature that's blocking it unless ... each creature that precedes that blocking
    creature in its order is assigned lethal damage". Oracle Sprinter is 2/1: its 2 damage (not 1, its toughness)
    split between b1 and b2 (toughness 2): in the order b1, b2 only 2/0 (1/1 and 0/2 give b2 damage before b1 has
    lethal); the same in the order b2, b1: 2 decisions."""
    p = _blocked_by_two_bears("Oracle Sprinter")
    assert p.count == 2
    assert _splits(p) == [[("b1", 2), ("b2", 0)], [("b2", 2), ("b1", 0)]]


def test_count_damage_assignment_keeps_the_damage_assignment_order():
    """510.1c (20220429), as above, for Oracle Brute (5/5): in the order b1, b2 the first gets at least its lethal 2
    before the second gets any: 2/3, 3/2, 4/1, 5/0 (0/5 and 1/4 break the order): 4; in the order b2, b1 also 4.
    509.2 (20220429): "the active player announces that creature's damage assignment order, which consists of the
    creatures blocking it in an order of that player's choice": the order is part of the decision, so b1 2, b2 3
    in the order b1, b2 and b2 3, b1 2 in the order b2, b1 are two decisions: 8 in all (the amounts alone would
    be 6: b1 gets 2 to 5 in the first order, 0 to 3 in the second)."""
    p = _blocked_by_two_bears("Oracle Brute")
    assert p.count == 8
    assert _splits(p) == sorted(
        [[("b1", n), ("b2", 5 - n)] for n in (2, 3, 4, 5)] + [[("b2", n), ("b1", 5 - n)] for n in (2, 3, 4, 5)])


def test_count_cast_transformed_of_a_back_face_with_no_target():
    """310.11b (the seed; 20260807: 310.12b): Sieges have the intrinsic ability "When the last defense counter is
    removed from this permanent, exile it, then you may cast it transformed without paying its mana cost." Its back
    face, Glasswater Reach Warden, is a creature with no target: cast it or not, 2 decisions."""
    req = _request({"active": "alice", "phase": "combat", "players": {
        "alice": {"battlefield": [{"id": "s", "card": "Siege of Glasswater Reach", "protector": "bob",
                                   "counters": {"defense": 2}}, {"id": "x", "card": "Oracle Bear"}]},
        "bob": {}}},
        [{"alice": {"declare_attackers": {"x": "s"}}}])
    p = advance_to(req, "declare_blockers")
    req["script"].append({"bob": {"declare_blockers": {}}})
    p = advance_to(req, "cast_transformed")
    assert (p.player, p.kinds) == ("alice", ("cast_transformed",))
    assert p.count == 2
    assert sorted(repr(o.args) for o in p.legal) == ["False", "True"]
