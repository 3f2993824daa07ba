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
    assert [d["outcome"] for d in play.decisions][5::3] == ["automatic", "automatic"]
    assert play.game.state()["state"]["turn_number"] == turn and play.game.phase in phase_rs.TURN_OVER
