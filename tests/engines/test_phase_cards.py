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

    for name, card in _pool().items():
        try:
            faces = phase_cards.transform_faces(card) if card.get("back") else [phase_cards.face(card)]
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
