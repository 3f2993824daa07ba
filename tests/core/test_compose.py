"""The composed-ability grammars (oracle.core.compose): one triggered and one static grammar built from a
game's parts, checked with located messages, read into frozen data with every default filled in."""

from __future__ import annotations

import pytest

from oracle.core.compose import (SUBJECT, THIS, AbilityRef, Effect, Example, Target, When, parse_static,
                                 parse_triggered, static_grammar, triggered_grammar, watched)
from oracle.core.params import Context, Field, Int, Keyed, ListOf, Mapping, Nothing, OneOf, render

FILTER = Mapping((Field("controller", OneOf(("you", "opponent", "any")), "any"),
                  Field("role", OneOf(("attacker", "blocker")), None, "any role")))
EFFECTS = Keyed("effect", "Toy", (("destroy", Nothing()), ("draw", Int(minimum=1)), ("power", Int())))
TRIGGERED = triggered_grammar(events=("became_blocker", "destroyed"), effects=EFFECTS, filter=FILTER,
                              cost=Mapping((Field("sleep", Int(minimum=0)),)))
STATIC = static_grammar(affects=FILTER, grants=AbilityRef(),
                        rules=Keyed("rule", "Toy", (("cannot_be_destroyed", Nothing()),), bare=True))
CTX = Context("toy", {"double_pressure": Nothing(), "attack_plus": Int()})


def problems(grammar, value):
    return [(loc, msg) for loc, msg in grammar.check(value, ("triggered",), CTX)]


GOOD = {"when": {"event": "became_blocker"}, "optional": True,
        "targets": [{"name": "t", "filter": {"role": "attacker"}}],
        "effects": [{"destroy": None, "on": "t"}, {"draw": 1}]}


def test_a_composition_is_read_with_its_defaults():
    assert problems(TRIGGERED, GOOD) == []
    ab = parse_triggered(GOOD)
    assert ab.name == "triggered" and ab.when == When("became_blocker", THIS, None) and ab.optional
    assert ab.targets == (Target("t", {"role": "attacker"}, 1),) and ab.cost is None
    assert ab.effects == (Effect("destroy", None, "t"), Effect("draw", 1, None))
    assert ab.target("t").every is False and ab.target("x") is None


@pytest.mark.parametrize("value, where, says", [
    ({**GOOD, "when": {"event": "sleeps"}}, ("triggered", "when", "event"), "is not one of became_blocker | destroyed"),
    ({**GOOD, "when": {"event": "destroyed", "watch": "mine"}}, ("triggered", "when", "watch"), "is not one of this"),
    ({**GOOD, "effects": [{"mana_charge": 1}]}, ("triggered", "effects", 0), "'mana_charge' is not a Toy effect"),
    ({**GOOD, "effects": [{"destroy": None, "on": "u"}]}, ("triggered", "effects", 0, "on"), "'u' names no target"),
    ({**GOOD, "effects": []}, ("triggered", "effects"), "at least 1"),
    ({**GOOD, "targets": [{"name": "this"}]}, ("triggered", "targets", 0, "name"), "reserved"),
    ({**GOOD, "targets": [{"name": "t"}, {"name": "t"}]}, ("triggered", "targets", 1, "name"), "used twice"),
    ({**GOOD, "targets": [{"name": "t", "count": 0}]}, ("triggered", "targets", 0, "count"), "expected"),
    ({**GOOD, "cost": {"sleep": "any"}}, ("triggered", "cost", "sleep"), "expected int >= 0"),
    ({**GOOD, "optional": "yes"}, ("triggered", "optional"), "expected bool"),
    ({**GOOD, "trigger": {}}, ("triggered", "trigger"), "unknown field 'trigger'"),
    ({k: v for k, v in GOOD.items() if k != "when"}, ("triggered",), "missing field 'when'"),
])
def test_every_part_is_checked_with_its_location(value, where, says):
    found = problems(TRIGGERED, value)
    assert any(loc == where and says in msg for loc, msg in found), found


def test_every_card_the_filter_allows_and_the_subject():
    value = {"when": {"event": "destroyed", "watch": "another_yours"},
             "targets": [{"name": "all_attackers", "filter": {"role": "attacker"}, "count": "all"}],
             "effects": [{"power": -1000, "on": "all_attackers"}, {"destroy": None, "on": SUBJECT}]}
    assert problems(TRIGGERED, value) == []
    ab = parse_triggered(value)
    assert ab.targets[0].every and ab.when.watch == "another_yours"


def test_a_static_ability():
    value = {"affects": {"controller": "you"}, "grants": [{"attack_plus": 1000}], "rules": ["cannot_be_destroyed"]}
    assert STATIC.check(value, ("static",), CTX) == []
    st = parse_static(value)
    assert st.affects == {"controller": "you"} and st.grants == (("attack_plus", 1000),)
    assert st.rules == (("cannot_be_destroyed", None),) and st.name == "static"
    assert parse_static({"grants": ["double_pressure"]}).affects == THIS
    bad = STATIC.check({"grants": [{"attack_plus": "big"}]}, ("static",), CTX)
    assert bad and bad[0][0] == ("static", "grants", 0, "attack_plus"), bad
    nothing = STATIC.check({"affects": "this"}, ("static",), CTX)
    assert nothing and "does nothing" in nothing[0][1]


def test_the_grammar_renders_once_with_its_named_parts():
    text = render(TRIGGERED)
    assert text.startswith("{name?: name = triggered, when: {event: became_blocker | destroyed, watch?: ")
    assert "; EFFECT = {destroy | draw: int >= 1 | power: int}" in text
    assert render(ListOf(Int())) == "[int, ...]"


@pytest.mark.parametrize("watch, about, ctl, expected", [
    ("this", "c", "alice", True), ("this", "d", "alice", False),
    ("another_yours", "c", "alice", False), ("another_yours", "d", "alice", True), ("another_yours", "d", "bob", False),
    ("yours", "c", "alice", True), ("yours", "d", "bob", False),
    ("opponents", "d", "bob", True), ("opponents", "d", "alice", False), ("any", "d", "bob", True),
])
def test_whose_card_a_trigger_watches(watch, about, ctl, expected):
    assert watched(watch, "alice", "c", about, ctl) is expected


def test_a_game_adds_its_own_checks_and_an_example():
    """``also``: a game's checks of the whole composition, after the core's (located like them); ``Example``: the
    grammar unchanged, with a sample the game's checks accept."""

    def needs_a_card(value, loc, ctx):
        return [(loc + ("effects", i), "which card?") for i, e in enumerate(value["effects"])
                if "destroy" in e and "on" not in e]

    grammar = triggered_grammar(events=("destroyed",), effects=EFFECTS, filter=FILTER, also=needs_a_card)
    value = {"when": {"event": "destroyed"}, "effects": [{"draw": 1}, {"destroy": None}]}
    assert problems(grammar, value) == [(("triggered", "effects", 1), "which card?")]
    example = Example(grammar, {"when": {"event": "destroyed"}, "effects": [{"destroy": None, "on": THIS}]})
    assert problems(example, example.sample(CTX)) == [] and problems(grammar, grammar.sample(CTX))
    assert render(example) == render(grammar)


def test_a_bare_on_key_read_from_a_file_is_on():
    """PyYAML (YAML 1.1) alone reads ``on:`` as the boolean true; the suite's reader keeps it ``on``, so
    ``{destroy: null, on: t}`` from a card file is checked and parsed as written."""
    from oracle.yamlfile import compose

    value, _ = compose("when: {event: became_blocker}\ntargets: [{name: t}]\neffects: [{destroy: null, on: t}]")
    assert value["effects"][0] == {"destroy": None, "on": "t"}
    assert problems(TRIGGERED, value) == []
    assert parse_triggered(value).effects == (Effect("destroy", None, "t"),)
    bad, _ = compose("when: {event: became_blocker}\neffects: [{destroy: null, on: u}]")
    assert any(loc == ("triggered", "effects", 0, "on") for loc, _ in problems(TRIGGERED, bad))


def test_a_game_s_own_check_of_the_whole_ability():
    """``also``: the game's check runs after the core's, on a well-formed value, with its location."""
    def no_draw_on_destroyed(value, loc, ctx):
        if value["when"]["event"] == "destroyed" and any("draw" in e for e in value["effects"]):
            return [(loc + ("effects",), "no draw on destroyed")]
        return []
    grammar = triggered_grammar(events=("became_blocker", "destroyed"), effects=EFFECTS, filter=FILTER,
                                also=no_draw_on_destroyed)
    assert grammar.check(GOOD, ("triggered",), CTX) == []
    bad = {"when": {"event": "destroyed"}, "effects": [{"draw": 1}]}
    assert grammar.check(bad, ("triggered",), CTX) == [(("triggered", "effects"), "no draw on destroyed")]
    unknown_target = {"when": {"event": "destroyed"}, "effects": [{"draw": 1, "on": "u"}]}
    assert [loc for loc, _ in grammar.check(unknown_target, ("triggered",), CTX)] == [("triggered", "effects", 0, "on")]


@pytest.mark.parametrize("game", ["ijinden", "duelmasters", "mtg"])
def test_a_bare_on_in_a_card_file_reaches_the_engine_as_on(tmp_path, game):
    """Every game reads a card file's unquoted ``on:`` (YAML 1.1: the boolean true) as ``on``, and the loaded
    ability -- what a request sends an engine -- holds the key ``on``, never ``true``."""
    import json

    from oracle.loader import load_cards, suite_extras

    event = {"ijinden": "destroyed", "duelmasters": "enters", "mtg": "entered"}[game]
    effect = {"ijinden": "destroy: null", "duelmasters": "destroy: null", "mtg": "deal_damage: 1"}[game]
    target = "{name: t, filter: {is: creature}}" if game == "mtg" else "{name: t}"
    folder = tmp_path / game
    folder.mkdir()
    (folder / "cards.yaml").write_text(
        f"schema_version: 1\ngame: {game}\ncards:\n  - name: Test Bare On\n    synthetic: true\n    text: x\n"
        f"    types: [{'ijin' if game == 'ijinden' else 'creature'}]\n    abilities:\n"
        f"      - triggered: {{when: {{event: {event}}}, targets: [{target}], effects: [{{{effect}, on: t}}]}}\n",
        encoding="utf-8")
    card = load_cards(game, extra=suite_extras(tmp_path, game))["Test Bare On"]
    sent = json.loads(json.dumps(card.abilities))
    assert sent[0]["triggered"]["effects"][0]["on"] == "t" and "true" not in sent[0]["triggered"]["effects"][0]
