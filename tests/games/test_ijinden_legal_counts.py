"""Perft-style counts of legal Ijinden decisions at trigger and choice points, counted by hand from the ability
texts (seed 000) and PROCEDURE.md; the legality API (oracle.core.legality) must give the same numbers. Added for
issue 13 item 4: mutmut showed no test counted these points (docs/contributing/mutmut-ijinden-survivors.md, legality.key)."""

from __future__ import annotations

from oracle.core import legality as L
from oracle.loader import load_cards
from oracle.model import Setup

RULESET = "ijinden-rulecard-2.0-231225"
IJIN, GUARDIAN = "テスト用イジン", "テスト用ガーディアン"


def _request(setup: dict, script: list) -> dict:
    pool = load_cards("ijinden")
    setup = Setup.model_validate(setup).model_dump(mode="json", exclude_none=True)
    names = {c["card"] for p in setup["players"].values() for z in p.values() if isinstance(z, list) for c in z}
    cards = {n: pool[n].model_dump(mode="json", exclude_none=True) for n in names}
    return {"game": "ijinden", "ruleset": RULESET, "setup": setup, "script": script, "cards": cards}


def _kinds(p: L.Pending) -> dict[str, int]:
    out: dict[str, int] = {}
    for o in p.legal:
        out[o.kind] = out.get(o.kind, 0) + 1
    return out


def test_netherworld_unattack_one_activate_per_attacker_and_a_decline():
    """冥府発動 「アタッカー1体を指定して発動できる」 at D5 of x1's battle: x1, x2 and x3 are still attackers (x1 until
    D6), so 3 activates, one per target, and the decline (発動できる): 4."""
    req = _request({"active": "alice", "players": {
        "alice": {"battlefield": [{"id": x, "card": IJIN, "power": 1000} for x in ("x1", "x2", "x3")]},
        "bob": {"battlefield": [{"id": "mu", "card": "テスト用マホウ（冥府発動・アタッカー除外）"}]}}},
        [{"alice": {"declare_attackers": ["x1", "x2", "x3"]}},
         {"bob": {"declare_blockers": {"x1": ["mu"]}}},
         {"bob": {"choose_attacker": "x1"}}])
    p = L.legal_decisions(req, 3)
    assert (p.player, p.kinds) == ("bob", ("activate", "decline"))
    assert _kinds(p) == {"activate": 3, "decline": 1}
    assert {o.args["target"] for o in p.legal if o.kind == "activate"} == {"x1", "x2", "x3"}


def test_undestroy_one_activate_per_guardian_to_pay():
    """安倍晴明 「自分の戦場のガーディアン1体を墓地に置いて発動できる」 with two guardians of bob on the battlefield:
    2 activates (one per cost) and the decline: 3."""
    req = _request({"active": "alice", "players": {
        "alice": {"battlefield": [{"id": "a1", "card": IJIN, "power": 3000}]},
        "bob": {"battlefield": [{"id": "abe", "card": "安倍晴明", "power": 1000},
                                {"id": "g1", "card": GUARDIAN}, {"id": "g2", "card": GUARDIAN}]}}},
        [{"alice": {"declare_attackers": ["a1"]}},
         {"bob": {"declare_blockers": {"a1": ["abe"]}}},
         {"bob": {"choose_attacker": "a1"}}])
    p = L.legal_decisions(req, 3)
    assert _kinds(p) == {"activate": 2, "decline": 1}
    assert {o.args["cost"] for o in p.legal if o.kind == "activate"} == {"g1", "g2"}


def test_choose_attacker_one_per_attacker():
    """C1a 「防御側プレイヤーはアタッカーを1体選ぶ」 with three unblocked attackers: 3 choices."""
    req = _request({"active": "alice", "players": {
        "alice": {"battlefield": [{"id": x, "card": IJIN, "power": 1000} for x in ("x1", "x2", "x3")]},
        "bob": {"battlefield": []}}},
        [{"alice": {"declare_attackers": ["x1", "x2", "x3"]}}, {"bob": {"declare_blockers": {}}}])
    p = L.legal_decisions(req, 2)
    assert _kinds(p) == {"choose_attacker": 3}


def test_order_of_two_draw_discard_voyages():
    """Two 航海 (1ドローして、自分の手札1枚を墓地に置く) of alice trigger at A4: she orders them, 2 orders."""
    req = _request({"active": "alice", "players": {
        "alice": {"battlefield": [{"id": a, "card": "テスト用イジン（航海ドロー捨て）", "power": 1000} for a in ("a1", "a2")],
                  "deck": 10},
        "bob": {"battlefield": []}}},
        [{"alice": {"declare_attackers": ["a1", "a2"]}}])
    p = L.legal_decisions(req, 1)
    assert _kinds(p) == {"order_triggers": 2}
