"""The generators: generated cases are ordinary, valid cases that pass on the reference; boards keep to
declared abilities; scripts hold illegal decisions too; the profiles build on Hypothesis's own."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from oracle import registry
from oracle.fuzz import full_case, verdict
from oracle.generators import profiles
from oracle.generators.cases import Play, plays
from oracle.generators.facts import ability_name, card_abilities, facts
from oracle.harness.engine import ReferenceEngine
from oracle.loader import check_case

GAMES = registry.names()
SEARCH = settings(max_examples=300, database=None, deadline=None, suppress_health_check=list(HealthCheck),
                  phases=(Phase.generate,))  # stop at the first example found, no shrinking


class Found(Exception):
    pass


def _exists(strategy, predicate) -> bool:
    """Some generated example satisfies ``predicate`` (within :data:`SEARCH`'s examples)."""
    @SEARCH
    @given(strategy)
    def search(value):
        if predicate(value):
            raise Found

    try:
        search()
    except Found:
        return True
    return False


@pytest.mark.parametrize("game", GAMES)
@given(data=st.data())
def test_a_generated_case_is_valid_and_passes_on_the_reference(game, data):
    play: Play = data.draw(plays(game), label="play")
    case = full_case(play, 0, "pytest")
    assert case.source.kind == "generated"
    assert check_case(case) == []
    engine = ReferenceEngine()
    assert verdict(engine, engine.hello(), case).status == "pass"


@given(data=st.data())
def test_boards_keep_to_the_declared_abilities(data):
    allowed = {"pressure", "double_pressure"}
    play: Play = data.draw(plays("ijinden", allowed), label="play")
    pool = facts("ijinden").pool
    for p in play.setup["players"].values():
        for content in p.values():
            for card in content if isinstance(content, list) else ():
                used = card_abilities(pool[card["card"]]) | {ability_name(a) for a in card.get("abilities", ())}
                assert used <= allowed, card


def _golden_stats(game: str) -> set[tuple[str, str, str]]:
    """(card id, card name, stat) of every stat a golden setup writes."""
    return {(c["id"], c["card"], stat) for setup in facts(game).seeds for p in setup["players"].values()
            for z in p.values() if isinstance(z, list) for c in z for stat in ("power", "toughness") if stat in c}


@pytest.mark.parametrize("game", GAMES)
@given(data=st.data())
def test_a_generated_board_sets_a_stat_only_where_the_source_leaves_it_to_the_case(game, data):
    """A printed stat (a Magic creature's power) is not overridden, and no stat is set on a kind of card the
    golden setups never give one (a Magic sorcery); a golden setup's own stat may be changed."""
    play: Play = data.draw(plays(game, None), label="play")
    f, golden = facts(game), _golden_stats(game)
    for p in play.setup["players"].values():
        for content in p.values():
            for card in content if isinstance(content, list) else ():
                for stat in ("power", "toughness"):
                    if stat in card and (card["id"], card["card"], stat) not in golden:
                        pool_card = f.pool[card["card"]]
                        assert getattr(pool_card, stat) is None, ("a printed stat overridden", card)
                        assert (stat, tuple(sorted(pool_card.types))) in f.stat_kinds, ("a stat on a kind of card "
                                                                                         "that has none", card)


def test_boards_still_set_stats_the_pool_leaves_empty():
    assert _exists(plays("ijinden"), lambda play: any(
        "power" in c for p in play.setup["players"].values() for z in p.values() if isinstance(z, list) for c in z))


@pytest.mark.parametrize("game", GAMES)
def test_scripts_hold_refused_decisions_and_reach_the_end_of_a_battle(game):
    assert _exists(plays(game), lambda p: any(e.kind == "rejected" for e in p.reply.trace))
    assert _exists(plays(game, seeds=False), lambda p: len(p.script) >= 3 and len(p.clauses) >= 5)


def test_the_ci_profile_is_built_on_hypothesis_own(monkeypatch, tmp_path):
    monkeypatch.setenv("CI", "1")
    monkeypatch.delenv(profiles.PROFILE_ENV, raising=False)
    monkeypatch.delenv(profiles.DB_ENV, raising=False)
    current = settings()
    try:
        assert profiles.register() == "tcg-ci"
        ci, ours = settings.get_profile("ci"), settings.get_profile("tcg-ci")
        assert ours.derandomize == ci.derandomize is True and ours.database is None
        assert settings.get_profile("ci").max_examples == ci.max_examples  # not redefined
        monkeypatch.setenv(profiles.DB_ENV, str(tmp_path / "db"))
        monkeypatch.setenv(profiles.PROFILE_ENV, "deep")
        assert profiles.register() == "deep"
        assert str(settings().database.path) == str(tmp_path / "db")  # type: ignore[union-attr]
    finally:
        settings.register_profile("restored", current)
        settings.load_profile("restored")


@settings(max_examples=200, database=None, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_decision_the_rules_allow_at_any_time_is_never_drawn_to_be_refused(data):
    """Magic's concede (104.3a: "at any time"): where a script gives it is the suite's reading (mtg:A-concede),
    so a generated case never expects it refused -- an engine that accepts it decides as the rules do."""
    play: Play = data.draw(plays("mtg"), label="play")
    refused = [d.at for d in play.reply.decisions or [] if d.outcome == "refused"] if play.reply.decisions else \
        [e.args["at"] for e in play.reply.trace if e.kind == "rejected"]
    assert all(play.script[at]["kind"] != "concede" for at in refused), play.script
