"""phase.rs through its adapter (``--engine py:oracle.engines.phase_rs:engine``) on a handful of Magic cases.

Skipped, saying how to install it, where ``phase-python`` is missing (CI installs it: ``.ci/run``)."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

from oracle.harness.request import make_request
from oracle.loader import load_suite

ROOT = Path(__file__).resolve().parents[2]
SPEC = "py:oracle.engines.phase_rs:engine"
BASELINES = {None: ROOT / "docs" / "phase-rs.baseline.yaml",
             "cr-20260807": ROOT / "docs" / "phase-rs.cr-20260807.baseline.yaml"}
"""The committed baseline of each ruleset phase.rs is run under (docs/phase-rs.md; None: the default)."""

if importlib.util.find_spec("phase") is None:
    if os.environ.get("CI"):
        pytest.fail("phase-python is not installed on this CI machine: .ci/run installs it "
                    "(pip install 'phase-python==0.103.0')", pytrace=False)
    pytest.skip("phase.rs is not installed: pip install 'tcg-oracle[phase]' "
                "(or pip install 'phase-python==0.103.0')", allow_module_level=True)

from oracle.engines import phase_rs


@pytest.fixture(scope="module")
def engine():
    return phase_rs.engine()


@pytest.fixture(scope="module")
def cases():
    return {lc.case.id: lc.case for lc in load_suite(games=["mtg"]).cases}


def _play(engine, case):
    reply = engine.play(make_request(case, case.rulesets[0]))
    assert not reply.get("error"), reply.get("error")
    return reply


def _holds(expected, actual, path=""):
    """The case's ``final`` projection against phase's (zones as sets of ids)."""
    for key, want in expected.items():
        got = actual.get(key) if isinstance(actual, dict) else None
        if isinstance(want, dict) and key != "counters":
            _holds(want, got, f"{path}.{key}")
        elif isinstance(want, list) and path.startswith(".players"):
            assert sorted(want) == sorted(got), f"{path}.{key}: {got}"
        elif isinstance(want, list):
            assert sorted(want) == sorted(got or []), f"{path}.{key}: {got}"
        elif isinstance(want, int) and not isinstance(want, bool) and isinstance(got, list):
            assert len(got) == want, f"{path}.{key}: {got}"     # a zone given as a count
        else:
            assert want == got, f"{path}.{key}: {got}"


def _outcomes(reply):
    return [d["outcome"] for d in reply["decisions"]]


def test_hello_declares_steps_without_reason_codes(engine):
    hello = engine.hello()
    assert hello.engine.name == "phase.rs" and hello.games == ["mtg"]
    assert "become_artifact_creature" not in hello.abilities["mtg"]
    if "observation" in type(hello).model_fields:
        assert (hello.observation, hello.reason_codes) == ("steps", False)
        assert "triggered" not in hello.events["mtg"] and "damaged" in hello.events["mtg"]


@pytest.mark.parametrize("case_id", [
    "mtg.attack.controller-attacks-own-siege",          # 310.8b/310.6: combat damage removes defense counters
    "mtg.block.flying-needs-flying-or-reach",           # 310.8c + flying: one refusal, then the block
    "mtg.cast.siege-three-players-choose-among-opponents",  # 310.11a: the protector chosen among opponents
    "mtg.damage.spell-any-target-battle",               # a battle is "any target"
    "mtg.siege.zero-defense-stays-while-trigger-on-stack",  # 310.7: the trigger's source stays
    "mtg.step.declare-blockers-protector-blocks",       # setup.step: the attacker's own attacking: field
    "mtg.step.combat-damage-unblocked-attacker-hits-battle",  # setup.step: blocking: too
    "mtg.mp.2hg-untyped-battle-controller-protects",    # 310.8a; passes implied to the main-phase end_main
    "mtg.req.lure-every-able-creature-blocks",          # 509.1c, worded "All creatures able to block ~ do so."
    "mtg.req.cr-example-no-block-refused",              # 509.1c: a declaration obeying fewer requirements refused
    "mtg.strike.first-strike-attacker-kills-blocker-first",  # 702.7b/510.4: two combat damage steps
    "mtg.trample.excess-to-the-attacked-battle",        # 702.19b: the excess is phase's trample_damage
    "mtg.counters.proliferate-chooses-only-what-has-counters",  # 701.34a: phase's ProliferateChoice
    "mtg.zones.draw-takes-the-top-card",                # the case's library is listed from the top
    "mtg.zones.draw-two-one-at-a-time",                 # anonymous library cards (library: 5) as fillers
    "mtg.zones.bounce-returns-to-owner-without-counters",  # 400.7: +1/+1 counters (phase's P1P1) gone
])
def test_phase_agrees_with_the_ruling(engine, cases, case_id):
    case = cases[case_id]
    reply = _play(engine, case)
    refused = {r.at for r in case.expect.rejected}
    assert [i for i, o in enumerate(_outcomes(reply)) if o == "refused"] == sorted(refused)
    _holds(case.expect.final or {}, reply["final"])


def test_a_refusal_changes_nothing(engine, cases):
    reply = _play(engine, cases["mtg.attack.refused-protector-attacks-battle"])
    assert _outcomes(reply)[0] == "refused" and "508.1" in reply["why"][0]
    before, after = (next(c["state"] for c in reply["checkpoints"] if c["after"] == n) for n in (-1, 0))
    assert before == after


def test_a_protector_phase_chooses_itself_is_automatic(engine, cases):
    # 310.10/310.11a: the Siege's new controller (bob) has one opponent; phase sets alice without asking, so
    # the script's illegal choice (bob) was never asked and its choice of alice is automatic
    reply = _play(engine, cases["mtg.sba.control-of-siege-goes-to-protector"])
    assert _outcomes(reply)[3:] == ["not_asked", "automatic"]
    assert reply["final"]["cards"]["b"]["protector"] == "alice"


def test_a_trigger_s_only_legal_target_phase_chooses_itself_is_automatic(engine, cases):
    # 603.3d: Oracle Herald's only legal target is bob's creature; phase chooses it without asking, so the script's
    # illegal choice (alice's own creature) was never asked and its choice of bob's is automatic
    reply = _play(engine, cases["mtg.composed.enters-trigger-target-must-fit-its-filter"])
    assert _outcomes(reply)[3:5] == ["not_asked", "automatic"]
    assert reply["final"]["cards"]["z"]["damage"] == 2


def test_a_token_phase_creates_gets_the_reference_s_id(engine, cases):
    # 111.2: the token is <source id>.token<n>, defined by the pool card the composition names
    reply = _play(engine, cases["mtg.composed.token-created-by-an-optional-enters-trigger"])
    made = [e["args"] for st in reply["steps"] for e in st["events"] if e["kind"] == "token_created"]
    assert made == [{"card": "r.token1", "player": "alice", "name": "Oracle Soldier Token"}]
    assert reply["final"]["cards"]["r.token1"]["subtypes"] == ["Soldier"]


def test_an_ability_that_waits_for_a_choice_as_it_resolves_is_resolved_not_countered(engine, cases):
    # phase takes the trigger off its stack before the discard choice (StackResolved, no EffectResolved yet)
    reply = _play(engine, cases["mtg.composed.enters-trigger-opponent-chooses-the-discard"])
    kinds = [(e["kind"], e["args"].get("card")) for st in reply["steps"] for e in st["events"]]
    assert ("resolved", "q") in kinds and ("countered", "q") not in kinds


def test_phase_lets_an_animated_battle_attack(engine, cases):
    # docs/phase-rs.md, bug 1 (CR 508.1a: attackers "can't also be battles"): phase accepts the declaration
    reply = _play(engine, cases["mtg.attack.refused-animated-battle-attacks"])
    assert _outcomes(reply)[4] == "accepted"
    assert reply["final"]["players"]["bob"]["life"] == 17


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", list(BASELINES))
def test_the_committed_baseline_holds(tmp_path, ruleset):
    import subprocess

    edition = ["--ruleset", ruleset] if ruleset else []
    done = subprocess.run([sys.executable, "-m", "oracle", "run", "--game", "mtg", *edition, "--engine", SPEC,
                           "--baseline", str(BASELINES[ruleset]), "--results", str(tmp_path / "r.json"),
                           "--report", ""],
                          cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def test_no_pass_is_implied_beyond_the_cases_turn(engine, cases):
    # docs/phase-rs.md, bug 5: phase never asks bob for the protector at decision 5, so its implied passes
    # run through combat; the declare_blockers entry (8) then finds the end step of the case's turn, and
    # phase's own skipped declaration stands for it: the adapter does not pass on into the next turn
    case = cases["mtg.combat.attacked-siege-control-to-protector"]
    play = phase_rs._Play(engine.phase, make_request(case, case.rulesets[0]))
    play.start()
    turn = play.game.state()["state"]["turn_number"]
    for at, entry in enumerate(play.req.script):
        play.decide(at, entry)
    play.finish()
    assert [d["outcome"] for d in play.record.decisions][5::3] == ["automatic", "automatic"]
    assert play.game.state()["state"]["turn_number"] == turn and play.game.phase in phase_rs.TURN_OVER


def test_a_concession_is_phases_concede_action_and_its_elimination_the_loss(engine, cases):
    # 104.3a: phase's Concede (legal at any time there); the conceder leaves and the opponent wins. phase
    # reports the elimination (PlayerEliminated) and no PlayerLost: the adapter reads that elimination as the
    # loss (docs/phase-rs.md, 10: a gap in what phase reports, not a wrong game state); it reported no `lost`
    reply = _play(engine, cases["mtg.concede.two-player-opponent-wins"])
    assert _outcomes(reply) == ["accepted"] * 3 and reply["winner"] == "alice"
    assert reply["final"]["players"]["bob"]["lost"] is True
    events = [(e["kind"], e["args"].get("player")) for s in reply["steps"] if s["after"] == 2 for e in s["events"]]
    assert ("lost", "bob") in events and ("left_game", "bob") in events and ("won", "alice") in events
    assert events.index(("lost", "bob")) < events.index(("left_game", "bob"))


def test_phase_deals_combat_damage_to_a_player_who_left(engine, cases):
    # docs/phase-rs.md, bug 11 (CR 800.4e): carol conceded; the creature attacking her still deals her 2
    reply = _play(engine, cases["mtg.concede.attacked-player-concedes-damage-not-assigned"])
    assert reply["final"]["players"]["carol"]["lost"] is True
    assert reply["final"]["players"]["carol"]["life"] == 18


def test_phase_puts_a_proliferate_spell_into_the_graveyard_before_the_choice(engine, cases):
    # docs/phase-rs.md, bug 12 (CR 608.2n): the spell is in the graveyard while its controller still chooses
    reply = _play(engine, cases["mtg.counters.proliferate-battle-gets-a-defense-counter"])
    after = {c["after"]: c["state"] for c in reply["checkpoints"]}
    assert after[2]["cards"]["pr"]["zone"] == "graveyard"          # before the proliferate choice (entry 3)
    assert reply["final"]["cards"]["b"]["defense"] == 4 and reply["final"]["cards"]["x"]["counters"] == {"+1/+1": 2}


def test_a_checkpoint_includes_the_implied_passes_before_the_next_decision(engine, cases):
    # the first-strike damage step comes in the passes implied before entry 2 (refused: not lethal to the
    # blocker first); the checkpoint after entry 1 shows it, so the refusal changes nothing
    reply = _play(engine, cases["mtg.trample.lethal-counts-damage-already-marked"])
    assert _outcomes(reply)[2:] == ["refused", "accepted"]
    after = {c["after"]: c["state"] for c in reply["checkpoints"]}
    assert after[1]["cards"]["k"]["damage"] == 3 and after[1] == after[2]


@pytest.mark.parametrize("case_id", [
    "mtg.sba.zero-toughness-and-zero-defense-at-once",  # a toughness set by the case: a face written for it
    "mtg.trample.power-equal-to-lethal-leaves-no-excess-though-toughness-is-greater",  # a power set by the case
    "mtg.setup.stat-and-added-ability-are-played",       # a power and an ability added by the setup
    "mtg.zones.bounced-transformed-siege-is-front-face-up",  # set up back face up: the faces swapped (712.8d)
    "mtg.faces.set-up-back-face-up-has-its-back-faces-abilities",
])
def test_a_setup_phase_can_be_given_is_played_not_an_error(engine, cases, case_id):
    # these were `error`s ("cannot be placed on phase.rs"): load_game rehydrates each object from its printed
    # reference, so the adapter writes a face for the case's stats and swaps the faces of a back-face setup
    case = cases[case_id]
    reply = _play(engine, case)
    # a block nothing can make is never asked (phase declares no blocks itself): the entry is not_asked
    assert [i for i, o in enumerate(_outcomes(reply)) if o in ("refused", "not_asked")] == sorted(
        r.at for r in case.expect.rejected)
    _holds(case.expect.final or {}, reply["final"])


def test_a_card_set_up_back_face_up_is_its_back_face(engine, cases):
    reply = _play(engine, cases["mtg.faces.set-up-back-face-up-has-its-back-faces-abilities"])
    start = next(c["state"] for c in reply["checkpoints"] if c["after"] == -1)
    backs = [c for c in start["cards"].values() if c["face"] == "back"]
    assert backs and all("creature" in c["types"] and "battle" not in c["types"] for c in backs)


def test_a_library_the_case_does_not_state_is_empty(engine, cases):
    # the case format: bob's library is unstated, so empty; he draws from it and loses (121.4) -- the adapter
    # padded every unstated library with 20 cards, so bob drew one and stayed in the game. Alice, the active
    # player of a three-player game (no draw skipped, 103.8), draws nothing in the setup either.
    reply = _play(engine, cases["mtg.mp.empty-library-loser-leaves-a-multiplayer-game"])
    players = reply["final"]["players"]
    assert players["bob"]["lost"] is True and players["alice"]["lost"] is False
    assert all(not p["library"] and not p["hand"] for p in players.values())
    assert not any(s["after"] == -1 and any(e["kind"] == "drew" for e in s["events"]) for s in reply["steps"])


def test_a_zone_phase_lacks_is_cannot_set_up_not_an_error(engine, cases):
    from oracle.errors import CannotSetUp

    case = cases["mtg.mp.leaving-players-card-already-outside-the-game-does-not-move"]
    with pytest.raises(CannotSetUp, match="bob.outside_game: the engine has no zone 'outside_game'"):
        engine.play(make_request(case, case.rulesets[0]))


def test_a_spell_whose_targets_are_all_illegal_is_not_reported_resolved(engine, cases):
    # CR 608.2b: it leaves the stack without resolving. phase emits its StackResolved bookkeeping event for it
    # too (game/stack.rs, the fizzle branch) but runs no effect: no EffectResolved; the adapter read
    # StackResolved alone as a resolution (docs/phase-rs.md, bug 15, withdrawn)
    reply = _play(engine, cases["mtg.cast.spell-whose-target-left-the-battlefield-is-countered"])
    last = [e for s in reply["steps"] if s["after"] == 6 for e in s["events"]]
    kinds = [(e["kind"], e["args"].get("card")) for e in last]
    assert ("countered", "g") in kinds and ("resolved", "g") not in kinds


def test_hello_names_the_release_installed(engine, monkeypatch):
    import importlib.metadata

    real = importlib.metadata.version
    monkeypatch.setattr(importlib.metadata, "version", lambda d: "0.77.0" if d == "phase-python" else real(d))
    assert engine.hello().engine.version == "phase-python 0.77.0"


def test_life_after_each_change_is_worked_back_from_the_state_when_the_event_lacks_it():
    # phase-python 0.77 and 0.83: LifeChanged carries the amount only; the life after it comes from the state
    class Game:
        def player(self, seat):
            return {"life": {0: 17, 1: 20}[seat]}

    events = [{"type": "LifeChanged", "data": {"player_id": 0, "amount": -2}},
              {"type": "DamageDealt", "data": {}},
              {"type": "LifeChanged", "data": {"player_id": 0, "amount": -1}}]
    assert phase_rs._lives(events, Game()) == {0: 18, 2: 17}


def test_a_life_change_reports_the_life_after_it(engine, cases):
    reply = _play(engine, cases["mtg.attack.drain-on-planeswalker-hits-its-controller"])
    lives = [e["args"] for s in reply["steps"] for e in s["events"] if e["kind"] == "life_changed"]
    assert lives and all(isinstance(a["life"], int) for a in lives)


def test_a_damage_division_written_as_a_list_reaches_phase_in_its_order(engine, cases):
    """The list form of assign_combat_damage ([{to, damage}, ...], its order the damage assignment order): the
    adapter gives phase the division in that order, and refuses a list naming a recipient twice (the protocol's
    shape, as a mapping's keys are), instead of refusing every list."""
    reply = _play(engine, cases["mtg.damage-order.list-form-malformed"])
    outcomes = [d["outcome"] for d in reply["decisions"]]
    assert outcomes[2:4] == ["refused", "accepted"], outcomes
    reply = _play(engine, cases["mtg.damage-order.list-form-is-the-order"])
    # phase follows the current 510.1c (no damage assignment order): the division refused under 20231117.0 is
    # accepted -- the edition difference of docs/phase-rs.md -- and the list itself is not refused
    assert reply["decisions"][2]["outcome"] == "accepted", reply["decisions"]
