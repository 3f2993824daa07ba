"""Magic's composed abilities (issue 25): bad compositions are refused where they are written (file, line, card,
field) by the loader and ``validate``; named triggered abilities are shorthand for compositions run by the same
interpreter (oracle.games.mtg.triggers)."""

from __future__ import annotations

import pytest

from oracle.cli import main
from oracle.core.compose import THIS, Effect, When
from oracle.games.mtg.abilities import SHORTHAND, TRIGGER_EFFECTS
from oracle.games.mtg.vocabulary import ABILITIES
from oracle.loader import load_cards

POOL = """schema_version: 1
game: mtg
cards:
  - name: Broken
    synthetic: true
    abilities:
      - {ability}
"""

BAD = [
    # ability as a card writes it (YAML flow), field of the error below cards[0].abilities[0], words of the message
    ("{triggered: {when: {event: dies}, effects: [{draw: 1}]}}", ".triggered.when.event",
     "'dies' is not one of entered | became_attacker"),
    ("{triggered: {when: {event: entered, condition: {attackers_at_least: 3}}, effects: [{draw: 1}]}}",
     ".triggered.when.condition.attackers_at_least", "only a became_attacker trigger counts attackers"),
    ("{triggered: {when: {event: entered}, effects: [{deal_damage: 2, on: t}]}}", ".triggered.effects[0].on",
     "'t' names no target of this ability"),
    ("{triggered: {when: {event: entered}, effects: [{deal_damage: 2}]}}", ".triggered.effects[0]",
     "deal_damage needs on: this, subject or a target"),
    ("{triggered: {when: {event: entered}, targets: [{name: c, filter: {is: creature}}], effects: [{discard: 1, on: c}]}}",
     ".triggered.effects[0].on", "discard acts on a player"),
    ("{triggered: {when: {event: entered}, targets: [{name: p, filter: {is: player}}], "
     "effects: [{put_p1p1_counters: 1, on: p}]}}", ".triggered.effects[0].on", "acts on a permanent"),
    ("{triggered: {when: {event: entered}, effects: [{create_token: {card: Oracle Soldier Token}, on: this}]}}",
     ".triggered.effects[0].on", "create_token acts on nothing"),
    ("{triggered: {when: {event: entered}, effects: [{create_token: {count: 2}}]}}",
     ".triggered.effects[0].create_token", "missing field 'card'"),
    ("{triggered: {when: {event: entered}, targets: [{name: t, filter: {is: wizard}}], effects: [{draw: 1}]}}",
     ".triggered.targets[0].filter.is", "'wizard' is not one of permanent"),
    ("{triggered: {when: {event: entered}, targets: [{name: t, count: 0}], effects: [{draw: 1}]}}",
     ".triggered.targets[0].count", "expected"),
    ("{triggered: {when: {event: became_attacker}, effects: [{scry: 1}]}}", ".triggered.effects[0]",
     "effect 'scry' is not a Magic effect"),
    ("{static: {affects: {is: creature}, grants: [shroud]}}", ".static.grants[0]",
     "'shroud' is not one of flying | reach"),
    ("{static: {affects: {is: creature}, grants: [attack_drain]}}", ".static.grants[0]",
     "'attack_drain' is not one of flying | reach"),
    ("{static: {affects: this}}", ".static", "does nothing"),
]


@pytest.mark.parametrize("ability, field, words", BAD)
def test_a_bad_composition_is_a_located_error(pool_error, ability, field, words):
    cards, err = pool_error("mtg", POOL.format(ability=ability))
    assert (err.path, err.line, err.field) == (str(cards), 7, "cards[0].abilities[0]" + field), str(err)
    assert words in err.message and "card 'Broken'" in err.message, err.message


def test_validate_names_the_file_line_card_and_field(tmp_path, capsys):
    cards = tmp_path / "mtg" / "cards.yaml"
    cards.parent.mkdir()
    cards.write_text(POOL.format(ability=BAD[3][0]), encoding="utf-8")
    assert main(["validate", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"{cards}:7: field cards[0].abilities[0].triggered.effects[0]: card 'Broken':" in err, err


def test_a_good_composition_in_block_style_with_a_bare_on_key_loads(tmp_path):
    cards = tmp_path / "mtg" / "cards.yaml"
    cards.parent.mkdir()
    cards.write_text("schema_version: 1\ngame: mtg\ncards:\n  - name: Fine\n    synthetic: true\n    abilities:\n"
                     "      - triggered:\n          when: {event: entered}\n"
                     "          targets: [{name: t, filter: {is: any_target}}]\n"
                     "          effects:\n            - deal_damage: 1\n              on: t\n", encoding="utf-8")
    assert "Fine" in load_cards("mtg", extra=(cards,))


def test_every_named_triggered_ability_is_shorthand_or_kept_named_for_a_reason():
    """attack_drain is a composition; the Siege's trigger (310.11b) stays named (abilities.TRIGGER_EFFECTS says
    why); keywords stay keywords."""
    assert set(SHORTHAND) == {"attack_drain"} and set(TRIGGER_EFFECTS) == {"siege"}
    ab = SHORTHAND["attack_drain"](2)
    assert ab.name == "attack_drain" and ab.when == When("became_attacker", THIS)
    assert ab.effects == (Effect("defending_player_loses_life", 2, THIS),) and not ab.targets and not ab.optional
    assert "shorthand" in ABILITIES["attack_drain"].doc


def test_a_player_leaving_leaves_a_token_that_ceased_to_exist_where_it_is(tmp_path):
    """704.5d: a token that ceased to exist is no object; when its owner later leaves the game (800.4a), nothing of
    it moves. Found by the generated boards: the reference tried to take it out of a zone it was no longer in."""
    import json
    import textwrap

    suite = tmp_path / "suite" / "mtg"
    suite.mkdir(parents=True)
    (suite / "case.yaml").write_text(textwrap.dedent("""\
        id: user.ceased-token-owner-leaves
        game: mtg
        rulesets: [cr-20260807]
        title: bob's token is returned to his hand and ceases to exist; bob then concedes and leaves the game
        source: {kind: external, document: "Magic: The Gathering Comprehensive Rules", edition: "20260807",
                 url: "https://media.wizards.com/2026/downloads/MagicCompRules%2020260819.txt",
                 quote: "704.5d If a token is in a zone other than the battlefield, it ceases to exist."}
        rules: [mtg:704.5d, mtg:104.3a]
        setup:
          active: alice
          players:
            alice: {hand: [{id: rc, card: Oracle Recall}]}
            bob: {battlefield: [{id: tk, card: Oracle Soldier Token}, {id: y, card: Oracle Bear}]}
            carol: {}
        script:
          - {alice: {cast: {card: rc, targets: [tk]}}}
          - {alice: pass}
          - {bob: pass}
          - {carol: pass}
          - {bob: concede}
        expect:
          events:
            - [{ceased_to_exist: {card: tk}}]
            - {lost: bob}
            - {left_game: bob}
            - [{moved: {card: y, from: battlefield, to: outside_game}}]
          absent:
            - {moved: {card: tk, to: outside_game}}
        """), encoding="utf-8")
    out = tmp_path / "r.json"
    main(["run", "--cases", str(tmp_path / "suite"), "--game", "mtg", "--results", str(out), "--report", "",
          "--quiet"])
    (case,) = json.loads(out.read_text(encoding="utf-8"))["cases"]
    assert case["status"] == "pass", case.get("divergence") or case.get("error")
