"""Messages an engine author meets at the weaker observation levels, found by an engine written from the
README alone: a refusal that changed the state names the field that changed; a checkpoints engine that
left out the state before the first decision is told that, not sent to the trace level."""

from __future__ import annotations

from oracle.harness.compare import compare
from oracle.loader import load_suite
from oracle.model import CaseReply, Checkpoint, DecisionOutcome, EngineInfo, Hello



def refusal_case():
    (lc,) = [lc for lc in load_suite().cases if lc.case.expect.rejected and lc.case.expect.rejected[0].at == 0
             and lc.case.game == "ijinden"][:1]
    return lc.case


def hello() -> Hello:
    return Hello(protocol_version=2, engine=EngineInfo(name="blind"), games=["ijinden"], observation="checkpoints")


def reply(case, checkpoints):
    outcomes = [DecisionOutcome(at=0, outcome="refused", reason=case.expect.rejected[0].reason)] + [
        DecisionOutcome(at=i, outcome="accepted") for i in range(1, len(case.script))]
    return CaseReply(id=case.id, decisions=outcomes, checkpoints=checkpoints, final={}, winner=None)


STATE = {"players": {"alice": {"battle_declared": False}, "bob": {"battle_declared": False}}}
CHANGED = {"players": {"alice": {"battle_declared": False}, "bob": {"battle_declared": True}}}


def test_a_refusal_that_changed_the_state_names_the_field():
    case = refusal_case()
    v = compare(case, reply(case, [Checkpoint(after=-1, state=STATE), Checkpoint(after=0, state=CHANGED)]), hello())
    assert v.status == "fail" and v.divergence.what == "rejection"
    assert "players.bob.battle_declared: false -> true" in v.divergence.message


def test_a_missing_state_before_the_first_decision_is_named():
    case = refusal_case()
    v = compare(case, reply(case, [Checkpoint(after=0, state=STATE)]), hello())
    (u,) = [u for u in v.unchecked if u.what.endswith(".unchanged")]
    assert u.needs == "checkpoints" and "after: -1" in u.why and "trace" not in u.needs
