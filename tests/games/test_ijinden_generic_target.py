"""遺業 / 冥府発動 / ブロックされたとき without ``target``: the vocabulary's ``target?`` left out is any card on the
battlefield (its doc: "the effect on a target the filter allows (any card on the battlefield ...)"); it raised
``KeyError: None`` when it resolved before contract 3."""

from __future__ import annotations

import pytest

from oracle.core.errors import ScriptError
from oracle.games.ijinden.procedure import run
from oracle.model import CaseRequest

CARDS = {
    "ijin": {"name": "ijin", "types": ["ijin"]},
    "legacy": {"name": "legacy", "types": ["ijin"], "abilities": [{"legacy": {"effect": {"destroy": None}}}]},
}


def play(*after_block: dict) -> list[tuple[str, dict]]:
    """alice's a1 (3000) attacks and beats bob's blocker b1 (1000), whose 遺業 has no target; a2 stays home."""
    players = {"alice": {"battlefield": [{"id": "a1", "card": "ijin", "power": 3000},
                                         {"id": "a2", "card": "ijin", "power": 1000}], "deck": 5},
               "bob": {"battlefield": [{"id": "b1", "card": "legacy", "power": 1000}], "deck": 5}}
    script = [{"player": "alice", "kind": "declare_attackers", "args": ["a1"]},
              {"player": "bob", "kind": "declare_blockers", "args": {"a1": ["b1"]}},
              {"player": "bob", "kind": "choose_attacker", "args": "a1"}, *after_block]
    reply = run(CaseRequest(id="t", game="ijinden", ruleset="r", cards=CARDS,
                            setup={"active": "alice", "players": players}, script=script))
    return [(e.kind, e.args) for e in reply.trace]


@pytest.mark.parametrize("target", ["a1", "a2"])
def test_legacy_without_target_affects_the_card_its_owner_names(target):
    trace = play({"player": "bob", "kind": "activate", "args": {"card": "b1", "target": target}})
    assert ("resolved", {"card": "b1", "ability": "legacy", "player": "bob"}) in trace
    assert ("destroyed", {"card": target}) in trace


def test_legacy_without_target_still_asks_which_card():
    with pytest.raises(ScriptError, match="activate"):
        play()
