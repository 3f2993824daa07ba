"""Ability parameters are checked when loaded (issue 25, item 2): the grammar of oracle/core/params.py, each
game's schemas, and the loader's located errors for a card pool (a suite's cards.yaml) and for abilities a
case's setup adds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from oracle import registry
from oracle.cli import main
from oracle.core.params import (
    AbilityName,
    Alternatives,
    Context,
    Field,
    Int,
    Keyed,
    ListOf,
    Mapping,
    Named,
    Nothing,
    Omittable,
    OneOf,
    render,
)
from oracle.loader import load_cards, load_suite
from oracle.paths import cases_dir

CTX = Context("toy", {"flying": Nothing(), "draw": Int(minimum=1)})


# -- the grammar --------------------------------------------------------------------------------------------

def test_each_description_checks_and_renders():
    assert Nothing().check(None, ("flying",), CTX) == []
    assert Nothing().check(2, ("flying",), CTX) == [(("flying",), "flying takes no parameter (write the name "
                                                                   "alone), got 2")]
    assert Int(minimum=1).check(True, ("n",), CTX) == [(("n",), "n: expected int >= 1, got true")]
    assert Int(minimum=1).check(0, ("n",), CTX) == [(("n",), "n: expected int >= 1, got 0")]
    assert Int(1, 3).grammar() == "int 1..3" and Int(1, 3).check(4, ("n",), CTX)
    assert OneOf(("you", "opponent")).check("me", ("who",), CTX) == [
        (("who",), "who: 'me' is not one of you | opponent")]
    assert ListOf(Int(), min_items=1).check([], ("xs",), CTX)[0][1].startswith("xs: expected [int, ...] with at least 1")
    assert ListOf(Int()).check([1, "x"], ("xs",), CTX) == [(("xs", 1), "xs[1]: expected int, got 'x'")]


def test_a_mapping_refuses_unknown_and_missing_fields_and_renders_its_defaults():
    m = Mapping((Field("power", Int()), Field("who", OneOf(("you", "opponent")), "you"),
                 Field("kinds", ListOf(Int()), None, "any")))
    assert m.grammar() == "{power: int, who?: you | opponent = you, kinds?: [int, ...] = any}"
    assert m.check({"power": 1}, ("a",), CTX) == []
    assert m.check({"who": "you"}, ("a",), CTX) == [(("a",), f"a: missing field 'power' ({m.grammar()})")]
    assert m.check({"power": 1, "pwr": 2}, ("a",), CTX) == [
        (("a", "pwr"), f"a: unknown field 'pwr'; the fields are {m.grammar()}")]
    assert m.check("power", ("a",), CTX) == [(("a",), f"a: expected a mapping {m.grammar()}, got 'power'")]


def test_alternatives_check_the_form_of_the_value_s_shape():
    target = Alternatives((OneOf(("self",)), Mapping((Field("role", OneOf(("attacker",)), None, "any"),))))
    assert target.check("self", ("t",), CTX) == [] and target.check({}, ("t",), CTX) == []
    assert target.check({"role": "x"}, ("t",), CTX) == [(("t", "role"), "t.role: 'x' is not one of attacker")]
    assert target.check(3, ("t",), CTX) == [(("t",), f"t: expected {target.grammar()}, got 3")]


def test_keyed_parts_named_subgrammars_and_ability_names():
    filt = Named("FILTER", Omittable(Mapping((Field("other", Int(), 0),)), {}))
    effects = Keyed("effect", "Toy", (("draw", Omittable(Int(minimum=1), 1)), ("hit", filt), ("gain", AbilityName(bare=True))),
                    bare=True, listed=True)
    assert render(effects) == ("draw: int >= 1 (omitted: 1) | hit: FILTER | gain: ability (one, a list of them, done in "
                               "order); FILTER = {other?: int = 0} (omitted: {})")
    assert effects.check(["draw", {"hit": None}, {"gain": "flying"}], ("e",), CTX) == []
    assert effects.check({"zap": 1}, ("e",), CTX) == [
        (("e",), "e: effect 'zap' is not a Toy effect; the effects are draw: int >= 1 (omitted: 1), hit: FILTER, "
                 "gain: ability; FILTER = {other?: int = 0} (omitted: {})")]
    assert effects.check({"draw": 1, "hit": None}, ("e",), CTX)[0][1] == "e: one effect per mapping, got 2 (draw, hit)"
    assert effects.check({"gain": "draw"}, ("e",), CTX)[0][1].startswith("e.gain: 'draw' needs a parameter (int >= 1)")
    assert effects.check({"gain": "fly"}, ("e",), CTX)[0][1].startswith("e.gain: 'fly' is not an ability of toy")


# -- every game: the examples and each kind of mistake, located ------------------------------------

POOL = """schema_version: 1
game: {game}
cards:
  - name: Broken
    synthetic: true
    abilities:
      - {ability}
"""

CASES = [
    # game, ability as a card writes it, field of the error (below cards[0].abilities[0]), words of the message
    ("ijinden", "{legacy: {effect: {destroy}, target: {types: [mahou]}}}", ".legacy.target.types[0]",
     "'mahou' is not one of ijin | guardian | haikei"),
    ("ijinden", "{legacy: {effect: {destroy}, target: {level_max: 4}}}", ".legacy.target.level_max",
     "unknown field 'level_max'; the fields are {types?"),
    ("ijinden", "{legacy: {effect: {mana_charge: 1}}}", ".legacy.effect",
     "effect 'mana_charge' is not an Ijinden effect; the effects are destroy, return_to_hand, power: int, "
     "gain: ability"),
    ("ijinden", "{voyage_draw: two}", ".voyage_draw", "voyage_draw: expected int >= 1, got 'two'"),
    ("ijinden", "{legacy: {target: self}}", ".legacy", "legacy: missing field 'effect'"),
    ("ijinden", "attack_plus", "", "attack_plus needs a parameter: write {attack_plus: int}"),
    ("ijinden", "{when_blocked: {effect: {gain: pressure}, target: self}}", ".when_blocked.effect.gain",
     "'pressure' needs a parameter"),
    ("ijinden", "{grant_by_power: {ability: block_plus, params: high}}", ".grant_by_power.params",
     "grant_by_power.params: expected int, got 'high'"),
    ("duelmasters", "{on_attack: {destroy_target: {min_power: 3000}}}", ".on_attack.destroy_target.min_power",
     "unknown field 'min_power'; the fields are {controller?"),
    ("duelmasters", "{spell: mana_charge}", ".spell", "effect 'mana_charge' is not a Duel Masters effect"),
    ("duelmasters", "{spell: [{draw: 1}, {power_plus: big}]}", ".spell[1].power_plus",
     "spell[1].power_plus: expected int, got 'big'"),
    ("duelmasters", "{on_attack: {discard: {count: 1, who: you}}}", ".on_attack.discard.who",
     "unknown field 'who'"),
    ("duelmasters", "{power_attacker: null}", ".power_attacker", "power_attacker needs a parameter"),
    ("duelmasters", "{s_back: red}", ".s_back", "'red' is not one of light | water | darkness | fire | nature"),
    ("duelmasters", "{blocker: 1}", ".blocker", "blocker takes no parameter"),
    ("duelmasters", "{revolution_change: {civ: red}}", ".revolution_change.civ",
     "'red' is not one of light | water | darkness | fire | nature"),
    ("duelmasters", "{revolution_change: {race: ドラゴン, cost: 5}}", ".revolution_change.cost",
     "unknown field 'cost'; the fields are {civ?"),
    ("duelmasters", "{revolution_change: {min_cost: five}}", ".revolution_change.min_cost",
     "min_cost: expected int >= 0, got 'five'"),
    ("duelmasters", "{revolution_change: {civ: [fire, 2]}}", ".revolution_change.civ[1]", "2 is not one of light"),
    ("duelmasters", "{evolution: {civ: red}}", ".evolution.civ", "'red' is not one of light | water | darkness"),
    ("duelmasters", "{evolution: {race: 1}}", ".evolution.race", "evolution.race: expected text, got 1"),
    ("mtg", "{draw: many}", ".draw", "draw: expected int >= 1, got 'many'"),
    ("mtg", "{flying: 2}", ".flying", "flying takes no parameter (write the name alone), got 2"),
    ("mtg", "{become_creature: {power: 3}}", ".become_creature", "missing field 'toughness'"),
    ("mtg", "{become_creature: {power: 3, toughness: 3, colour: red}}", ".become_creature.colour",
     "unknown field 'colour'"),
    ("mtg", "{deal_damage: 0}", ".deal_damage", "deal_damage: expected int >= 1, got 0"),
]


@pytest.mark.parametrize("game, ability, field, words", CASES)
def test_a_suite_card_pool_with_a_wrong_parameter_is_a_located_error(pool_error, game, ability, field, words):
    cards, err = pool_error(game, POOL.format(game=game, ability=ability))
    assert (err.path, err.line, err.field) == (str(cards), 7, "cards[0].abilities[0]" + field), str(err)
    assert words in err.message and "card 'Broken'" in err.message, err.message


@pytest.mark.parametrize("game, ability, field, words", CASES)
def test_an_ability_a_case_adds_with_a_wrong_parameter_is_a_located_error(tmp_path, game, ability, field, words):
    """The same mistakes in a case's setup (``abilities:`` added to a card): the case's error, at its line."""
    case, where = _a_golden_case_with_a_card(game)
    pid, j = where
    case["setup"]["players"][pid]["battlefield"][j]["abilities"] = ["ABILITY"]
    text = yaml.safe_dump(case, allow_unicode=True, sort_keys=False).replace("- ABILITY", f"- {ability}")
    path = tmp_path / game / "case.yaml"
    path.parent.mkdir()
    path.write_text(text, encoding="utf-8")
    suite = load_suite([tmp_path])
    assert not suite.cases and len(suite.errors) == 1, [str(e) for e in suite.errors]
    err = suite.errors[0]
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.strip() == f"- {ability}")
    assert (err.case_id, err.line) == (case["id"], line), str(err)
    assert err.field == f"setup.players.{pid}.battlefield[{j}].abilities[0]{field}", str(err)
    assert words in err.message, err.message


def _a_golden_case_with_a_card(game: str) -> tuple[dict, tuple[str, int]]:
    """A golden case of ``game`` (as its file writes it) with a card on a battlefield, and where that card is."""
    for f in sorted((cases_dir() / game).glob("*.yaml")):
        if f.name in ("rules.yaml", "cards.yaml", "block_counts.yaml"):
            continue
        for case in yaml.safe_load(f.read_text(encoding="utf-8")):
            for pid, p in case["setup"]["players"].items():
                for j, cs in enumerate(p.get("battlefield") or []):
                    if isinstance(cs, dict) and not cs.get("abilities"):
                        return case, (pid, j)
    raise AssertionError(f"no golden case of {game} with a card")


def test_validate_says_where_and_exits_2(tmp_path, capsys):
    cards = tmp_path / "mtg" / "cards.yaml"
    cards.parent.mkdir()
    cards.write_text(POOL.format(game="mtg", ability="{draw: many}"), encoding="utf-8")
    assert main(["validate", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert (f"{cards}:7: field cards[0].abilities[0].draw: card 'Broken': draw: expected int >= 1, got 'many'"
            in err), err


def test_a_back_face_is_checked_too(pool_error):
    _, err = pool_error("mtg", "schema_version: 1\ngame: mtg\ncards:\n  - name: Broken\n    synthetic: true\n"
                               "    back:\n      name: Broken back\n      abilities: [{flying: 2}]\n")
    assert (err.line, err.field) == (8, "cards[0].back.abilities[0].flying"), str(err)


def test_every_problem_of_a_card_pool_is_said_at_once(pool_error):
    """Bad input loses nothing: the first problem locates the error, and every other one of the file (another
    card's, a back face's) follows it with its line and field, so one run shows all there is to fix."""
    _, err = pool_error("mtg", "schema_version: 1\ngame: mtg\ncards:\n  - name: Broken\n    synthetic: true\n"
                               "    abilities: [{draw: many}]\n"
                               "    back:\n      name: Broken back\n      abilities: [{flying: 2}]\n"
                               "  - name: Also broken\n    synthetic: true\n    abilities: [{deal_damage: 0}]\n")
    assert (err.line, err.field) == (6, "cards[0].abilities[0].draw"), str(err)
    assert "(and 2 more problem(s) in this file; line 9, field cards[0].back.abilities[0].flying" in err.message
    assert "line 12, field cards[1].abilities[0].deal_damage: card 'Also broken'" in err.message, err.message


# -- what the grammars say, and where they are said ----------------------------------------------------------

@pytest.mark.parametrize("game", registry.names())
def test_every_built_in_card_and_case_ability_follows_its_grammar(game):
    """Every card of the built-in pool loads (load_cards checks them), and every built-in case too."""
    assert load_cards(game)
    suite = load_suite(games=[game])
    assert not suite.errors, [str(e) for e in suite.errors][:5]


@pytest.mark.parametrize("game", registry.names())
def test_the_rendered_grammars_are_on_the_vocabulary_page(game):
    page = (Path(__file__).resolve().parents[2] / "docs" / "vocabulary" / f"{game}.md").read_text(encoding="utf-8")
    for spec in registry.get(game).vocabulary.abilities.values():
        shown = spec.params.replace("|", "\\|")
        assert (shown in page if shown else re.search(rf"\| `{spec.name}` \| — \|", page)), (spec.name, shown)


def test_the_core_grammar_names_no_game():
    import oracle.core.params as params

    text = Path(params.__file__).read_text(encoding="utf-8")
    assert "oracle.games" not in text and "from ..games" not in text


@pytest.mark.parametrize("game", registry.names())
def test_each_grammar_s_sample_is_accepted(game):
    """What the generators add to a board for an ability no card writes (generators/facts.py) checks."""
    voc = registry.get(game).vocabulary
    for name, spec in voc.abilities.items():
        sample = spec.schema.sample(voc.ability_context)
        assert spec.schema.check(sample, (name,), voc.ability_context) == [], (name, sample)


@pytest.mark.parametrize("props, field, words", [
    ("{civ: red}", "props.civ", "props.civ: 'red' is not one of light | water | darkness | fire | nature"),
    ("{civ: [fire, blue]}", "props.civ[1]", "'blue' is not one of light"),
    ("{colour: fire}", "props.colour", "props: unknown field 'colour'; the fields are {civ?"),
])
def test_a_duel_masters_card_s_civilization_is_checked_when_loaded(pool_error, props, field, words):
    """Duel Masters reads a card's civilization (props.civ: 106.2; Ｓ・バック, 革命チェンジ, 進化, a summon's cost): a
    civilization, or a list of them, and no other prop -- else a located error at the props line."""
    text = ("schema_version: 1\ngame: duelmasters\ncards:\n  - name: Broken\n    synthetic: true\n"
            f"    types: [creature]\n    props: {props}\n")
    cards, err = pool_error("duelmasters", text)
    assert (err.path, err.line, err.field) == (str(cards), 7, f"cards[0].{field}"), str(err)
    assert words in err.message and "card 'Broken'" in err.message, err.message
