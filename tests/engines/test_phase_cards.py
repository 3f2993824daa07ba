"""The Oracle wording the phase.rs adapter gives phase for the Magic card pool (no phase.rs needed)."""

from __future__ import annotations

import sys

import pytest

from oracle.core.errors import EngineStartError
from oracle.engines import phase_cards
from oracle.loader import load_cards


def _pool() -> dict[str, dict]:
    return {n: c.model_dump(mode="json", exclude_none=True) for n, c in load_cards("mtg").items()}


def test_spells_and_triggers_read_as_oracle_text():
    pool = _pool()
    assert phase_cards.rules_text(pool["Oracle Spark"]) == "Oracle Spark deals 3 damage to any target."
    assert phase_cards.rules_text(pool["Oracle Raider"]) == \
        "Whenever Oracle Raider attacks, defending player loses 1 life."
    assert phase_cards.rules_text(pool["Oracle Reinforcements"]) == "Put two defense counters on target battle."
    assert phase_cards.rules_text(pool["Oracle Animation"]) == \
        "Target permanent becomes a 3/3 creature in addition to its other types."
    assert phase_cards.rules_text(pool["Oracle Conscription"]) == \
        "Target creature becomes a battle in addition to its other types."


def test_requirements_counters_draws_and_bounce_read_as_oracle_text():
    pool = _pool()
    assert phase_cards.rules_text(pool["Oracle Taunter"]) == "Oracle Taunter must be blocked if able."
    assert phase_cards.rules_text(pool["Oracle Beacon"]) == "All creatures able to block Oracle Beacon do so."
    assert phase_cards.rules_text(pool["Oracle Sentry"]) == "Oracle Sentry blocks each combat if able."
    assert phase_cards.rules_text(pool["Oracle Provoker"]) == "Menace\nOracle Provoker must be blocked if able."
    assert phase_cards.rules_text(pool["Oracle Growth"]) == "Put two +1/+1 counters on target creature."
    assert phase_cards.rules_text(pool["Oracle Proliferation"]).startswith("Proliferate. (Choose any number")
    assert phase_cards.rules_text(pool["Oracle Insight"]) == "Draw two cards."
    assert phase_cards.rules_text(pool["Oracle Study"]) == "Draw a card."
    assert phase_cards.rules_text(pool["Oracle Recall"]) == "Return target permanent to its owner's hand."
    assert phase_cards.ability_text("put_p1p1_counters", 1, "X") == "Put a +1/+1 counter on target creature."


def test_composed_abilities_read_as_the_oracle_text_of_real_cards():
    """A triggered or static composition is worded as real cards word the same ability, a token from the pool card
    that defines it; a card's own name stands for ~."""
    pool = _pool()
    said = {n: phase_cards.rules_text(pool[n], pool) for n in (
        "Oracle Herald", "Oracle Recruiter", "Oracle Drummer", "Oracle Captain", "Oracle Vanguard", "Oracle Inquisitor",
        "Oracle Hand Raider", "Oracle Standard-Bearer", "Oracle Pyre Herald")}
    assert said == {
        "Oracle Herald": "When Oracle Herald enters, it deals 2 damage to target creature an opponent controls.",
        "Oracle Recruiter": "When Oracle Recruiter enters, you may create a 1/1 Soldier creature token.",
        "Oracle Drummer": "Whenever Oracle Drummer attacks, create a 1/1 Soldier creature token.",
        "Oracle Captain": "Whenever another creature you control enters, put a +1/+1 counter on Oracle Captain.",
        "Oracle Vanguard": "Whenever Oracle Vanguard and at least two other creatures attack, put a +1/+1 counter on "
                           "Oracle Vanguard.",
        "Oracle Inquisitor": "When Oracle Inquisitor enters, target opponent discards a card.",
        "Oracle Hand Raider": "When Oracle Hand Raider enters, target opponent discards a card at random.",
        "Oracle Standard-Bearer": "Other creatures you control have vigilance.",
        "Oracle Pyre Herald": "When Oracle Pyre Herald enters, it deals 1 damage to each creature your opponents control.",
    }
    marshal = pool["Oracle Siege of Twin Spires"]["back"]
    assert phase_cards.rules_text(marshal, pool) == ("When Oracle Twin Spires Marshal enters, it deals 2 damage to "
                                                     "target creature and target opponent loses 2 life.")


@pytest.mark.parametrize("param, why", [
    ({"when": {"event": "entered"}, "condition": {"cards": 1}, "effects": [{"draw": 1}]}, "a condition or a cost"),
    ({"when": {"event": "entered"}, "effects": [{"create_token": {"card": "Nowhere Token"}}]}, "outside the request"),
    ({"when": {"event": "entered"}, "targets": [{"name": "t", "count": 2}], "effects": [{"deal_damage": 1, "on": "t"}]},
     "several objects"),
    ({"when": {"event": "entered", "watch": "opponents"}, "effects": [{"draw": 1}]}, "the trigger"),
])
def test_a_composition_with_no_oracle_wording_is_unsupported_and_says_which_part(param, why):
    with pytest.raises(phase_cards.UnsupportedCard, match=why):
        phase_cards.composed_text("triggered", param, "X", _pool())


def test_keywords_are_one_oracle_line_and_mtgjson_keywords():
    back = _pool()["Invasion of Dominaria"]["back"]
    assert phase_cards.rules_text(back) == "Flying, vigilance"
    assert phase_cards.keywords(back) == ["Flying", "Vigilance"]
    rampager = _pool()["Oracle Rampager"]
    assert phase_cards.rules_text(rampager) == "Double strike, trample"
    assert phase_cards.keywords(rampager) == ["Double strike", "Trample"]


def test_every_card_of_the_pool_has_a_face_that_costs_nothing():
    """Every card the adapter can word; one it cannot (an ability with no Oracle wording yet, as a suite-local
    pool may have) uses an ability the adapter does not declare, so its cases are skipped, never sent."""
    from oracle.engines.phase_rs import ABILITIES

    pool = _pool()
    for name, card in pool.items():
        try:
            faces = phase_cards.transform_faces(card, pool) if card.get("back") else [phase_cards.face(card, pool=pool)]
        except phase_cards.UnsupportedCard:
            names = {a if isinstance(a, str) else next(iter(a))
                     for f in (card, card.get("back") or {}) for a in f.get("abilities", [])}  # both faces, as the
            assert names - set(ABILITIES), name  # harness's used_abilities reads them
            continue
        for f in faces:
            assert f["manaCost"] == "{0}", name          # mana is not modelled (mtg:A-no-mana)
            assert f["types"] and all(t[0].isupper() for t in f["types"]), name


def test_a_transforming_siege_is_two_faces_of_one_card():
    front, back = phase_cards.transform_faces(_pool()["Invasion of Tarkir"])
    assert front["name"] == back["name"] == "Invasion of Tarkir // Defiant Thundermaw"
    assert (front["faceName"], front["side"], back["faceName"], back["side"]) == \
        ("Invasion of Tarkir", "a", "Defiant Thundermaw", "b")
    assert front["layout"] == back["layout"] == "transform"
    assert front["identifiers"] == back["identifiers"]
    assert front["defense"] == "5" and back["power"] == back["toughness"] == "4"
    assert front["type"] == "Battle — Siege" and back["type"] == "Creature — Dragon"


def test_an_ability_without_oracle_wording_names_the_card():
    with pytest.raises(phase_cards.UnsupportedCard, match="Odd Card.*'fly_twice'"):
        phase_cards.rules_text({"name": "Odd Card", "abilities": ["fly_twice"]})


def test_without_phase_the_adapter_says_how_to_install_it(monkeypatch):
    from oracle.engines import phase_rs

    monkeypatch.setitem(sys.modules, "phase", None)      # import phase -> ImportError
    with pytest.raises(EngineStartError, match=r"pip install 'tcg-oracle\[phase\]'.*phase-python==0\.103\.0"):
        phase_rs.engine()
