"""Duel Masters' composed triggered abilities (issue 25): the named triggered abilities are shorthand for
compositions and play exactly as their compositions do on every golden case; bad compositions are refused when
loaded, with the file, line, card and field."""

from __future__ import annotations

import copy
import inspect

import pytest

from oracle import registry
from oracle.games.duelmasters import abilities, vocabulary
from oracle.harness.request import make_request
from oracle.loader import load_cards, load_suite
from oracle.model import Case

GAME = registry.get("duelmasters")


def test_every_named_triggered_ability_is_shorthand_or_said_why_not():
    effect_abilities = {n for n, spec in vocabulary.ABILITIES.items() if spec.schema is vocabulary._EFFECTS}
    used = {"spell", "tap_trigger", "dynamo"}          # used, not triggered: no event triggers them
    assert effect_abilities - used == set(abilities.SHORTHAND)
    source = inspect.getsource(abilities)                # kept named, and why, where SHORTHAND is documented
    assert "Kept named, not shorthand: ``slayer``" in source and "``after_attack_destroy`` (※8" in source


def _written(name: str, param) -> dict:
    """The composition a named ability is shorthand for, as a card file would write it."""
    t = abilities.SHORTHAND[name](param)
    return {"triggered": {"name": t.name, "when": {"event": t.when.event, "watch": t.when.watch},
                          "effects": [{e.kind: e.param} for e in t.effects]}}


def _rewrite(refs: list) -> tuple[list, bool]:
    out, changed = [], False
    for ref in refs:
        name, param = (ref, None) if isinstance(ref, str) else next(iter(ref.items()))
        if name in abilities.SHORTHAND:
            out.append(_written(name, param))
            changed = True
        else:
            out.append(ref)
    return out, changed


def _composed_request(request):
    """The same request with every named triggered ability written as its composition."""
    cards, setup, changed = copy.deepcopy(request.cards), copy.deepcopy(request.setup), False
    for card in cards.values():
        card["abilities"], c = _rewrite(card.get("abilities", []))
        changed |= c
    for player in setup["players"].values():
        for zone in player.values():
            for cs in zone if isinstance(zone, list) else ():
                if isinstance(cs, dict) and cs.get("abilities"):
                    cs["abilities"], c = _rewrite(cs["abilities"])
                    changed |= c
    return request.model_copy(update={"cards": cards, "setup": setup}), changed


def _trace(reply) -> list:
    return [e.model_dump(mode="json") for e in reply.trace]


def test_named_abilities_play_exactly_as_their_compositions_on_every_golden_case():
    rewritten = 0
    for lc in load_suite(games=["duelmasters"]).cases:
        for ruleset in lc.case.rulesets:
            request = make_request(lc.case, ruleset)
            composed, changed = _composed_request(request)
            if not changed:
                continue
            rewritten += 1
            named, comp = GAME.run(request), GAME.run(composed)
            assert (_trace(comp), comp.winner, comp.error) == (_trace(named), named.winner, named.error), \
                (lc.case.id, ruleset)
    assert rewritten >= 40


def _play(players: dict, script: list):
    """A small board played on the reference (seed ruleset)."""
    case = Case.model_validate({
        "id": "unit", "game": "duelmasters", "rulesets": ["dm-seed-crossgear-era"], "title": "unit",
        "source": {"kind": "seed", "document": "dm-seed-002", "quote": "x"}, "rules": ["duelmasters:A1"],
        "setup": {"active": "alice", "players": players}, "script": script, "expect": {"winner": None}})
    return GAME.run(make_request(case, "dm-seed-crossgear-era"))


POOL = """schema_version: 1
game: duelmasters
cards:
  - name: 試作型壊れテスター
    synthetic: true
    abilities:
      - triggered: {ability}
"""


@pytest.mark.parametrize("ability, field, words", [
    ('{when: {event: summoned}, effects: [{draw: 1}]}', ".when.event",
     "'summoned' is not one of attacks | attack_blocked | blocks | unblocked | wins_battle | turn_ends | enters"),
    ('{when: {event: enters, watch: mine}, effects: [{draw: 1}]}', ".when.watch", "'mine' is not one of this"),
    ('{when: {event: turn_ends}, effects: [{draw: 1}]}', ".when.watch",
     "turn_ends is about a player's turn, not a card; watch yours, opponents or any"),
    ('{when: {event: enters}, effects: [{draw: 1, "on": this}]}', ".effects[0].on",
     "draw acts on no card named by on"),
    ('{when: {event: enters}, targets: [{name: t}], effects: [{destroy: null, "on": u}]}', ".effects[0].on",
     "'u' names no target of this ability"),
    ('{when: {event: enters}, targets: [{name: t}], effects: [{destroy: null, on: u}]}', ".effects[0].on",
     "'u' names no target of this ability"),  # a bare on, which YAML reads as true, is on
    ('{when: {event: enters}, targets: [{name: t, count: 0}], effects: [{destroy: null, "on": t}]}',
     ".targets[0].count", "expected int >= 1, got 0"),
    ('{when: {event: enters}, targets: [{name: t, filter: {controller: me}}], effects: [{destroy: null, "on": t}]}',
     ".targets[0].filter.controller", "'me' is not one of you | opponent | any"),
    ('{when: {event: enters}, effects: [{bounce: null}]}', ".effects[0]",
     "effect 'bounce' is not a Duel Masters effect"),
    ('{when: {event: enters}, effects: []}', ".effects", "at least 1"),
    ('{when: {event: turn_ends, watch: yours}, effects: [{destroy: null, "on": subject}]}', ".effects[0].on",
     "turn_ends is about a player, so there is no subject card"),
])
def test_a_bad_composition_is_a_located_error(pool_error, ability, field, words):
    cards, err = pool_error("duelmasters", POOL.format(ability=ability))
    assert (err.path, err.line, err.field) == (str(cards), 7, "cards[0].abilities[0].triggered" + field), str(err)
    assert words in err.message and "card '試作型壊れテスター'" in err.message, err.message


def test_the_built_in_compositions_read_as_written():
    pool = load_cards("duelmasters")
    card = pool["アクア・サーファー"].model_dump(mode="json", exclude_none=True)
    ((_, params),) = [a.items() for a in card["abilities"] if isinstance(a, dict)][0]
    from oracle.core.compose import parse_triggered
    t = parse_triggered(params)
    assert (t.name, t.when.event, t.when.watch, t.optional) == ("cip", "enters", "this", True)
    assert [(e.kind, e.on) for e in t.effects] == [("return_to_hand", "t")]


def test_a_static_affects_only_what_its_filter_allows():
    """「自分の他のクリーチャー」: an opposing creature destroyed goes to the graveyard, the static's own card too."""
    reply = _play({"alice": {"battlefield": [{"id": "a", "card": "試験用バニラ", "power": 1000}]},
                 "bob": {"battlefield": [{"id": "k", "card": "試作型味方手札送りテスター", "power": 1000, "tapped": True}]}},
                [{"alice": {"attack": {"attacker": "a", "target": "k"}}}])
    assert reply.final["cards"]["a"]["zone"] == "graveyard" and reply.final["cards"]["k"]["zone"] == "graveyard"


def test_a_static_grants_nothing_yet_and_says_so(pool_error):
    _, err = pool_error("duelmasters", POOL.replace("triggered: {ability}", "static: {ability}").format(
        ability="{grants: [blocker]}"))
    assert err.field == "cards[0].abilities[0].static.grants[0]", str(err)
    assert "grants no ability yet" in err.message


def test_collect_still_gives_a_named_ability_s_triggers():
    pool = load_cards("duelmasters")
    from oracle.core.board import card_from_setup

    card = card_from_setup({"id": "f", "card": "フェアリー・キャンドル"}, "bob", "battlefield",
                           pool["フェアリー・キャンドル"].model_dump(mode="json", exclude_none=True))
    (t,) = abilities.collect([card], "on_block")
    assert (t.card, t.ability, t.triggered.when.event, t.subject) == (card, "on_block", "blocks", "f")
    assert abilities.collect([card], "on_attack") == []
