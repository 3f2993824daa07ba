"""Duel Masters 「可能であればブロックする」 (blocks_if_able): the legality API's block declarations, counted by hand
from CR507.1b (current rules: every required creature chosen, in any order) and the seed's reading
X-blocks-if-able-seed (one blocker, one of the required), and a refusal that changes nothing."""

from __future__ import annotations

from oracle.core import legality as L
from oracle.loader import load_cards
from oracle.model import Setup

SEED, CURRENT = "dm-seed-crossgear-era", "dm-comprehensive-2024-02-15"
MUST, BLOCKER, NOT_BLOCKER = "試験用強制ブロッカー", "試験用ブロッカー", "試験用強制ブロック"


def _request(bob: list, ruleset: str, script: list | None = None) -> dict:
    pool = load_cards("duelmasters")
    setup = Setup.model_validate({"active": "alice", "players": {
        "alice": {"battlefield": [{"id": "a", "card": "試験用バニラ", "power": 5000}]},
        "bob": {"battlefield": bob, "shields": [{"id": "s1", "card": "試験用バニラ"}]}}}).model_dump(
        mode="json", exclude_none=True)
    names = {c["card"] for p in setup["players"].values() for z in p.values() if isinstance(z, list) for c in z}
    return {"game": "duelmasters", "ruleset": ruleset, "setup": setup,
            "script": [{"alice": {"attack": {"attacker": "a", "target": "bob"}}}, *(script or [])],
            "cards": {n: pool[n].model_dump(mode="json", exclude_none=True) for n in names}}


def _blocks(bob: list, ruleset: str) -> tuple[set, bool]:
    p = L.legal_decisions(_request(bob, ruleset), 1)
    assert (p.player, p.kinds) == ("bob", ("block", "no_block")) and p.complete
    blocks = {tuple(o.args) if isinstance(o.args, list) else (o.args,) for o in p.legal if o.kind == "block"}
    return blocks, any(o.kind == "no_block" for o in p.legal)


def card(cid: str, name: str, **kw) -> dict:
    return {"id": cid, "card": name, "power": 1000, **kw}


TWO_REQUIRED = [card("r1", MUST), card("r2", MUST), card("b", BLOCKER)]


def test_current_rules_every_required_blocker_is_chosen():
    """r1, r2 must block if able, b may: the ordered lists holding both r1 and r2 -- 2 of two cards, 3! of three: 8
    (without the keyword 3 + 6 + 6 = 15 lists and no_block); no no_block."""
    blocks, no_block = _blocks(TWO_REQUIRED, CURRENT)
    assert len(blocks) == 8 and not no_block
    assert all({"r1", "r2"} <= set(b) for b in blocks)
    blocks, no_block = _blocks([card("r1", BLOCKER), card("r2", BLOCKER), card("b", BLOCKER)], CURRENT)
    assert len(blocks) == 15 and no_block


def test_seed_one_of_the_required_blocks():
    """The seed's one blocker (X-blocks-if-able-seed): block r1 or r2; not b alone, not no_block: 2."""
    assert _blocks(TWO_REQUIRED, SEED) == ({("r1",), ("r2",)}, False)


def test_a_required_blocker_that_cannot_block_requires_nothing():
    """Tapped (507.1a 例), or without ブロッカー (701.12a): nothing is required, in both rulesets: b or no block."""
    bob = [card("t", MUST, tapped=True), card("f", NOT_BLOCKER), card("b", BLOCKER)]
    for ruleset in (SEED, CURRENT):
        assert _blocks(bob, ruleset) == ({("b",)}, True), ruleset


def test_the_refusal_changes_nothing_and_asks_again():
    """no_block refused required_blocker_left_out (tagged CR507.1b under the current rules, A3 under the seed's
    reading); the same player is asked the same decision."""
    for ruleset, clause in ((CURRENT, "duelmasters:CR507.1b"), (SEED, "duelmasters:A3")):
        req = _request(TWO_REQUIRED, ruleset)
        verdict = L.check(req, 1, {"bob": "no_block"})
        assert verdict is not None and (verdict.reason, verdict.clause) == ("required_blocker_left_out", clause), verdict
        after = L.pending(_request(TWO_REQUIRED, ruleset, [{"bob": "no_block"}]), 2)
        assert (after.player, after.kinds) == ("bob", ("block", "no_block")), ruleset
