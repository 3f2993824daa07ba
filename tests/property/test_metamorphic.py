"""Metamorphic relations of the reference engines: renaming card ids, reordering the cards of a zone and
adding a card no rule touches change nothing observable (trace and final state, read through the change)."""

from __future__ import annotations

import json
from typing import Any, Callable

import pytest
from hypothesis import assume, given, strategies as st

from oracle import registry
from oracle.generators.cases import Play, plays, reference
from oracle.generators.facts import facts
from oracle.generators.scripts import request
from oracle.model import CaseReply

GAMES = registry.names()


def _map(value: Any, f: Callable[[str], str]) -> Any:
    """Every string (values and mapping keys) through ``f``."""
    if isinstance(value, str):
        return f(value)
    if isinstance(value, list):
        return [_map(v, f) for v in value]
    if isinstance(value, dict):
        return {_map(k, f): _map(v, f) for k, v in value.items()}
    return value


def _ids(setup: dict[str, Any]) -> set[str]:
    return {c["id"] for p in setup["players"].values() for z in p.values() if isinstance(z, list) for c in z}


def _observed(reply: CaseReply, *, ordered: bool = True, names: Callable[[str], str] = str) -> Any:
    """Trace (moments as multisets when not ``ordered``), final state, winner; every string through ``names``."""
    moments: dict[int, list[str]] = {}
    for e in reply.trace:
        moments.setdefault(e.moment, []).append(json.dumps(_map([e.kind, e.args, e.clause], names), sort_keys=True))
    trace = list(moments.values()) if ordered else [sorted(m) for m in moments.values()]
    final = _map(reply.final, names)
    if not ordered:
        final = {"players": {p: {k: sorted(v) if isinstance(v, list) else v for k, v in fields.items()}
                             for p, fields in final["players"].items()}, "cards": final.get("cards")}
    return trace, final, reply.winner


def _play(play: Play, setup: dict[str, Any], script: list[dict[str, Any]]) -> CaseReply:
    return reference(request(play.game, play.ruleset, setup, script))


@pytest.mark.parametrize("game", GAMES)
@given(data=st.data())
def test_renaming_card_ids_changes_nothing(game, data):
    play: Play = data.draw(plays(game), label="play")
    ids = _ids(play.setup)
    # every string equal to an id is renamed: an id that is also an ability's or a player's name (a seed case's
    # card `arena` with the ability `arena`) would rename that too, and change the game
    assume(ids.isdisjoint({*registry.get(game).vocabulary.abilities, *play.setup["players"]}))
    # a prefix keeps the ids' order: an engine may list cards by id, and that order is not the point here
    there = lambda s: "r" + s if s in ids else s
    back = {there(i): i for i in ids}

    def named_back(s: str) -> str:
        """An id, or an id derived from one (DESIGN: a token's id is its creator's plus a suffix, ``r.token1``)."""
        head, dot, tail = s.partition(".")
        return back.get(s) or (back[head] + dot + tail if dot and head in back else s)

    renamed = _play(play, _map(play.setup, there), _map(play.script, there))
    assert _observed(renamed, names=named_back) == _observed(play.reply)


REORDERED = {"ijinden": ("battlefield", "hand", "graveyard"), "duelmasters": ("hand", "graveyard"),
             "mtg": ("hand", "graveyard")}
"""Zones whose order is no part of the game. Decks and libraries are drawn from the top. Magic asks the
choices of several permanents at once (a protector for each battle, 310.10) in battlefield order, so a
script written for one order answers other questions in another: the battlefield is left in order there.
Duel Masters resolves one player's abilities that trigger at one moment from several cards (two
「自分のターンが終わる時」) in battlefield order: its reading X-trigger-order orders players and steps, not
cards, and no decision asks the player for that order, so the battlefield is left in order there too."""


@pytest.mark.parametrize("game", GAMES)
@given(data=st.data())
def test_reordering_the_cards_of_a_zone_changes_nothing_observable(game, data):
    play: Play = data.draw(plays(game), label="play")
    setup = json.loads(json.dumps(play.setup))
    for p in setup["players"].values():
        for zone in REORDERED[game]:
            if isinstance(p.get(zone), list):
                p[zone].reverse()
    assert _observed(_play(play, setup, play.script), ordered=False) == _observed(play.reply, ordered=False)


@pytest.mark.parametrize("game", GAMES)
@given(data=st.data())
def test_adding_a_plain_card_to_a_graveyard_changes_nothing_observable(game, data):
    plain = facts(game).cards[0]
    assert not facts(game).pool[plain].abilities

    play: Play = data.draw(plays(game), label="play")
    setup = json.loads(json.dumps(play.setup))
    # the last player still in the game at the end: a player who leaves a multiplayer game takes the cards they
    # own, their graveyard's included, out of the game (Magic 800.4a), which is observable
    final_players = (play.reply.final or {}).get("players", {})
    player = [*list(setup["players"])[-1:], *(p for p in setup["players"] if not final_players.get(p, {}).get("lost"))][-1]
    # a graveyard written as a count of anonymous cards has no list to add a card to
    assume(not isinstance(setup["players"][player].get("graveyard"), int))
    setup["players"][player].setdefault("graveyard", []).append({"id": "untouched", "card": plain})
    trace, final, winner = _observed(_play(play, setup, play.script))
    final["players"][player]["graveyard"].remove("untouched")
    del final["cards"]["untouched"]
    assert (trace, final, winner) == _observed(play.reply)
