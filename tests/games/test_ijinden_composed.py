"""Ijinden's composed abilities (issue 25): bad compositions refused by the loader with located errors; the
general machinery the golden cases do not reach with a sourced card -- several targets (one on each side), every
card a filter allows (``count: all``), a trigger watching another card of yours, the decision shapes -- on invented
compositions, through the reference engine; every named ability is the shorthand of a composition."""

from __future__ import annotations

import pytest
import yaml

from oracle.core.compose import Triggered
from oracle.core.errors import ScriptError
from oracle.games.ijinden import abilities
from oracle.games.ijinden.procedure import run
from oracle.loader import load_suite
from oracle.model import CaseRequest

POOL = """schema_version: 1
game: ijinden
cards:
  - name: Broken
    synthetic: true
    abilities:
      - {ability}
"""

BAD = [
    # ability as a card writes it, field of the error (below cards[0].abilities[0]), words of the message
    ("{triggered: {when: {event: sleeps}, effects: [{draw: 1}]}}", ".triggered.when.event",
     "'sleeps' is not one of became_attacker | attacked | slept | became_blocker | blocked | destroyed | put_into_graveyard"),
    ("{triggered: {when: {event: destroyed, watch: mine}, effects: [{draw: 1}]}}", ".triggered.when.watch",
     "'mine' is not one of this | another_yours | yours | opponents | any"),
    ("{triggered: {when: {event: destroyed}, targets: [{name: a}, {name: b}], effects: [{destroy: null}]}}",
     ".triggered.effects[0]", "which card? write `on: this | subject | <target name>`"),
    ('{triggered: {when: {event: destroyed}, effects: [{draw: 1, "on": this}]}}', ".triggered.effects[0].on",
     "draw, discard and guardian_from_deck are the ability's controller's"),
    ('{triggered: {when: {event: destroyed}, effects: [{destroy: null, "on": t}]}}', ".triggered.effects[0].on",
     "'t' names no target of this ability"),
    ("{triggered: {when: {event: destroyed}, targets: [{name: t}], effects: [{destroy: null, on: u}]}}",
     ".triggered.effects[0].on", "'u' names no target of this ability"),  # a bare on (YAML: true) is on
    ("{triggered: {when: {event: attacked}, effects: [{draw: 1}]}}", ".triggered.when.watch",
     "`attacked` is about a player"),
    ('{triggered: {when: {event: destroyed, condition: {attackers: {min: 3}}}, effects: [{draw: 1}]}}',
     ".triggered.when.condition.attackers", "only `attacked` counts the attackers"),
    ('{triggered: {when: {event: destroyed}, cost: {put_into_graveyard: {types: [guardian]}}, '
     'effects: [{undestroy: null, "on": this}]}}', ".triggered.cost", "write `optional: true`"),
    ('{triggered: {when: {event: blocked}, targets: [{name: t, filter: {level: 3}}], effects: [{destroy: null}]}}',
     ".triggered.targets[0].filter.level", "expected"),
    ('{triggered: {when: {event: blocked}, targets: [{name: t, filter: {level_max: 3}}], effects: [{destroy: null}]}}',
     ".triggered.targets[0].filter.level_max", "unknown field 'level_max'"),
    ('{triggered: {when: {event: blocked}, targets: [{name: a}, {name: b}], effects: [{destroy: null, "on": [a, c]}]}}',
     ".triggered.effects[0].on[1]", "'c' names no target of this ability"),
    ('{triggered: {when: {event: blocked}, targets: [{name: a}], effects: [{destroy: null, "on": [a, a]}]}}',
     ".triggered.effects[0].on", "a list of two or more different target names"),
    ('{triggered: {when: {event: blocked}, targets: [{name: a}], effects: [{destroy: null, "on": [a, this]}]}}',
     ".triggered.effects[0].on", "a list of two or more different target names"),
    ('{triggered: {when: {event: blocked}, targets: [{name: a}], effects: [{put_onto_battlefield: null}]}}',
     ".triggered.effects[0]", "put_onto_battlefield acts on a card in a graveyard"),
    ('{triggered: {when: {event: blocked}, targets: [{name: a, filter: {zone: graveyard}}], '
     'effects: [{destroy: null}]}}', ".triggered.effects[0]", "'a' is a target in a graveyard"),
    ('{triggered: {when: {event: blocked}, optional: true, cost: {sleep: {zone: graveyard}}, effects: [{draw: 1}]}}',
     ".triggered.cost", "a cost is paid with cards on the battlefield"),
    ("{static: {zone: graveyard, affects: {zone: graveyard}, grants: [watcher]}}", ".static.affects.zone",
     "a static reads cards on the battlefield"),
    ("{static: {zone: hand, grants: [watcher]}}", ".static.zone", "'hand' is not one of battlefield | graveyard"),
    ("{triggered: {when: {event: blocked, condition: {from: graveyard}}, effects: [{draw: 1}]}}",
     ".triggered.when.condition.from", "only `put_onto_battlefield` comes from a zone"),
    ("{triggered: {when: {event: put_onto_battlefield, condition: {from: hand}}, effects: [{draw: 1}]}}",
     ".triggered.when.condition.from", "'hand' is not one of graveyard"),
    ('{triggered: {when: {event: blocked}, effects: [{guardian_from_deck: 1, "on": this}]}}',
     ".triggered.effects[0].on", "draw, discard and guardian_from_deck are the ability's controller's"),
    ("{triggered: {when: {event: blocked}, effects: [{guardian_from_deck: 0}]}}",
     ".triggered.effects[0].guardian_from_deck", "expected"),
    ("{static: {rules: [{destroyed_in_battle: {blockers_include: {types: [guardian]}}}]}}",
     ".static.rules[0].destroyed_in_battle", "filter"),
    ("{static: {affects: {types: [ijin]}, rules: [{destroyed_in_battle: {filter: {role: attacker}}}]}}",
     ".static.affects", "destroyed_in_battle names its cards in its own filter"),
    ('{triggered: {when: {event: blocked}, targets: [{name: t, count: 0}], effects: [{destroy: null}]}}',
     ".triggered.targets[0].count", "expected"),
    ("{triggered: {when: {event: blocked}, effects: [{mana_charge: 1}]}}", ".triggered.effects[0]",
     "effect 'mana_charge' is not an Ijinden effect"),
    ("{triggered: {when: {event: blocked}, effects: []}}", ".triggered.effects", "at least 1"),
    ("{static: {grants: [flying]}}", ".static.grants[0]", "'flying' is not an ability of ijinden"),
    ("{static: {grants: [{attack_plus: big}]}}", ".static.grants[0].attack_plus", "expected int"),
    ("{static: {affects: this}}", ".static", "grants nothing and changes no rule does nothing"),
    ("{static: {condition: {cards: {zone: mana, player: opponent, max: 5}}, grants: [watcher]}}",
     ".static.condition.cards.zone", "'mana' is not one of battlefield | hand | deck | graveyard"),
]


@pytest.mark.parametrize("ability, field, words", BAD)
def test_a_bad_composition_in_a_card_pool_is_a_located_error(pool_error, ability, field, words):
    cards, err = pool_error("ijinden", POOL.format(ability=ability))
    assert (err.path, err.line, err.field) == (str(cards), 7, "cards[0].abilities[0]" + field), str(err)
    assert words in err.message and "card 'Broken'" in err.message, err.message


def test_a_bad_composition_a_case_adds_is_the_case_s_located_error(tmp_path):
    """In a case's setup: the case's error, at the line of the ability, naming the card's setup field."""
    case = {"id": "t.bad", "game": "ijinden", "rulesets": ["ijinden-rulecard-2.0-231225"], "title": "t",
            "source": {"kind": "generated", "seed": 1, "command": "t", "date": "2026-12-02"}, "rules": ["ijinden:A1"],
            "setup": {"active": "alice", "players": {
                "alice": {"battlefield": [{"id": "a", "card": "テスト用イジン", "power": 1000, "abilities": ["X"]}]},
                "bob": {"battlefield": []}}},
            "script": [{"alice": {"declare_attackers": ["a"]}}], "expect": {"winner": "alice"}}
    text = yaml.safe_dump(case, allow_unicode=True, sort_keys=False).replace(
        "- X", "- {triggered: {when: {event: became_attacker}, targets: [{name: t}, {name: u}], "
               "effects: [{power: 1000}]}}")
    path = tmp_path / "ijinden" / "case.yaml"
    path.parent.mkdir()
    path.write_text(text, encoding="utf-8")
    suite = load_suite([tmp_path])
    assert not suite.cases and len(suite.errors) == 1, [str(e) for e in suite.errors]
    err = suite.errors[0]
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "triggered" in t)
    assert (err.case_id, err.line) == ("t.bad", line), str(err)
    assert err.field == "setup.players.alice.battlefield[0].abilities[0].triggered.effects[0]", str(err)
    assert "which card?" in err.message


# -- the machinery, on invented compositions -------------------------------------------------------------------

def card(name: str, *abilities) -> dict:
    return {"name": name, "types": ["ijin"], "abilities": list(abilities)}


def play(cards: dict, alice: list, bob: list, script: list, **players) -> tuple[list, dict]:
    setup = {"active": "alice", "players": {"alice": {"battlefield": alice, "deck": 5, **players.get("alice", {})},
                                            "bob": {"battlefield": bob, "deck": 5, **players.get("bob", {})}}}
    reply = run(CaseRequest(id="t", game="ijinden", ruleset="r", cards={"v": card("v"), **cards}, setup=setup,
                            script=[{"player": p, "kind": k, "args": a} for e in script for p, d in e.items()
                                    for k, a in d.items()]))
    return [(e.kind, e.args) for e in reply.trace], reply.final


def c(cid, name="v", power=1000, **kw):
    return {"id": cid, "card": name, "power": power, **kw}


TWO_SIDES = {"triggered": {"name": "duel", "when": {"event": "became_blocker"}, "optional": True,
                           "targets": [{"name": "mine", "filter": {"controller": "you", "types": ["ijin"]}},
                                       {"name": "theirs", "filter": {"controller": "opponent", "role": "attacker"}}],
                           "effects": [{"power": 2000, "on": "mine"}, {"power": -1000, "on": "theirs"}]}}


def test_two_targets_one_on_each_side_are_named_by_targets():
    cards = {"duel": card("duel", TWO_SIDES)}
    base = [{"alice": {"declare_attackers": ["a"]}}, {"bob": {"declare_blockers": {"a": ["d"]}}}]
    trace, final = play(cards, [c("a", power=3000)], [c("d", "duel", 1000), c("o")], base + [
        {"bob": {"activate": {"card": "d", "target": "o"}}},                        # one target named: malformed
        {"bob": {"activate": {"card": "d", "targets": {"mine": "a", "theirs": "a"}}}},  # a is not bob's
        {"bob": {"activate": {"card": "d", "targets": {"mine": "o"}}}},             # theirs left out
        {"bob": {"activate": {"card": "d", "targets": {"mine": "d", "theirs": "a"}}}},
        {"bob": {"choose_attacker": "a"}}])
    refused = [e["reason"] for k, e in trace if k == "rejected"]
    assert refused == ["malformed_decision", "illegal_target", "illegal_target"]
    mods = [e for k, e in trace if k == "power_modified"]
    assert mods == [{"card": "d", "amount": 2000, "power": 3000}, {"card": "a", "amount": -1000, "power": 2000}]
    assert final["cards"]["a"]["zone"] == "graveyard" and final["cards"]["d"]["zone"] == "battlefield"


def test_every_card_a_filter_allows_is_affected_and_nothing_is_asked():
    """``count: all``: every attacker of the opponent, when this becomes a blocker (mandatory: nothing asked)."""
    every = {"triggered": {"when": {"event": "became_blocker"},
                           "targets": [{"name": "all", "filter": {"controller": "opponent", "role": "attacker"},
                                        "count": "all"}],
                           "effects": [{"power": -1000}]}}
    trace, final = play({"w": card("w", every)}, [c("a1", power=3000), c("a2", power=2500), c("h")],
                        [c("b", "w", 1000), c("b2", power=2000)],
                        [{"alice": {"declare_attackers": ["a1", "a2"]}},
                         {"bob": {"declare_blockers": {"a1": ["b"], "a2": ["b2"]}}},
                         {"bob": {"choose_attacker": "a2"}}, {"bob": {"choose_attacker": "a1"}}])
    assert ("resolved", {"card": "b", "ability": "triggered", "player": "bob"}) in trace
    mods = [e["card"] for k, e in trace if k == "power_modified"]
    assert sorted(mods) == ["a1", "a2"] and not [k for k, e in trace if k == "decided" and e.get("decision") == "activate"]
    assert final["cards"]["a2"]["zone"] == "graveyard" and final["cards"]["h"]["power"] == 1000


def test_a_trigger_watching_another_card_of_yours():
    """``watch: another_yours`` on ``destroyed``: a draw when another of your cards is destroyed, not when this one
    or an opponent's is."""
    mourn = {"triggered": {"name": "mourn", "when": {"event": "destroyed", "watch": "another_yours"},
                           "effects": [{"draw": 1}]}}
    trace, final = play({"m": card("m", mourn)}, [c("a", power=3000)], [c("b", power=1000), c("m1", "m")],
                        [{"alice": {"declare_attackers": ["a"]}}, {"bob": {"declare_blockers": {"a": ["b", "m1"]}}},
                         {"bob": {"choose_attacker": "a"}}])
    assert [e for k, e in trace if k == "triggered"] == [{"card": "m1", "ability": "mourn", "player": "bob"}]
    assert len(final["players"]["bob"]["hand"]) == 1 and ("destroyed", {"card": "m1"}) in trace


def test_a_mandatory_composition_with_a_target_refuses_decline():
    """Not 発動できる, with a target: asked ``activate`` naming it; ``decline`` is mandatory_trigger."""
    hit = {"triggered": {"when": {"event": "blocked"}, "targets": [{"name": "t", "filter": {"role": "blocker"}}],
                         "effects": [{"power": -1000}]}}
    trace, _ = play({"h": card("h", hit)}, [c("a", "h", 2000)], [c("b", power=2000)],
                    [{"alice": {"declare_attackers": ["a"]}}, {"bob": {"declare_blockers": {"a": ["b"]}}},
                     {"alice": {"decline": "a"}}, {"alice": {"activate": {"card": "a", "target": "b"}}},
                     {"bob": {"choose_attacker": "a"}}])
    assert [e["reason"] for k, e in trace if k == "rejected"] == ["mandatory_trigger"]
    assert ("won_battle", {"card": "a", "power": 2000, "against": 1000}) in trace


def test_a_decision_the_script_lacks_names_activate():
    with pytest.raises(ScriptError, match="activate"):
        play({"duel": card("duel", TWO_SIDES)}, [c("a", power=3000)], [c("d", "duel")],
             [{"alice": {"declare_attackers": ["a"]}}, {"bob": {"declare_blockers": {"a": ["d"]}}}])


@pytest.mark.parametrize("name", sorted(abilities.SHORTHAND))
def test_every_named_triggered_ability_is_a_composition(name):
    made = abilities.composition(name, None)
    assert isinstance(made, Triggered) and made.name == name and made.effects
    assert made.optional is (name in abilities.OPTIONAL | abilities.GENERIC_OPTIONAL)


def test_the_legality_api_lists_every_choice_of_several_targets():
    """Two targets (one of bob's two Ijin, alice's one attacker): 2 activates and the decline (発動できる)."""
    from oracle.core import legality as L

    setup = {"active": "alice", "players": {"alice": {"battlefield": [c("a", power=3000)]},
                                            "bob": {"battlefield": [c("d", "duel"), c("o")]}}}
    req = {"game": "ijinden", "ruleset": "r", "setup": setup, "cards": {"v": card("v"), "duel": card("duel", TWO_SIDES)},
           "script": [{"alice": {"declare_attackers": ["a"]}}, {"bob": {"declare_blockers": {"a": ["d"]}}}]}
    p = L.legal_decisions(req, 2)
    assert (p.player, p.kinds) == ("bob", ("activate", "decline"))
    acts = sorted(o.args["targets"]["mine"] for o in p.legal if o.kind == "activate")
    assert acts == ["d", "o"] and [o.args for o in p.legal if o.kind == "decline"] == ["d"]
