"""Comparison by observation level (protocol 2): each rule of the gating, the views derived from a trace,
forced decisions and the legality query, and that protocol-1 engines are judged as before."""

from __future__ import annotations

import pytest

from oracle.harness.compare import compare
from oracle.harness.views import decisions_from_trace, project, steps_from_trace
from oracle.model import (Checkpoint, DecisionOutcome, EngineInfo, Hello, LegalityReply, Step, StepEvent)

from test_compare import TRACE, case, e, reply

SCRIPT2 = [{"alice": {"declare_attackers": ["a"]}}, {"alice": {"declare_attackers": ["b"]}}]


def hello(level="trace", **kw):
    return Hello(engine=EngineInfo(name="x"), games=["ijinden"], protocol_version=2, observation=level, **kw)


def outcomes(*pairs):
    return [DecisionOutcome(at=at, outcome=o, reason=r) for at, o, r in pairs]


def needs(v):
    return {(u.what, u.needs) for u in v.unchecked}


# -- views --------------------------------------------------------------------------------------


def test_decisions_and_steps_derived_from_a_trace():
    t = [e(1, "decided", at=0, player="alice", decision="x", automatic=True),
         e(2, "slept", card="a"), e(2, "drew", player="alice", count=1),
         e(3, "rejected", at=1, player="bob", reason="blocker_sleeping"),
         e(4, "decided", at=2, player="bob", decision="y"), e(5, "won", player="alice")]
    assert [(d.at, d.outcome, d.reason) for d in decisions_from_trace(t)] == [
        (0, "automatic", None), (1, "refused", "blocker_sleeping"), (2, "accepted", None)]
    steps = steps_from_trace(t)
    assert [(s.after, [x.kind for x in s.events]) for s in steps] == [
        (0, ["slept", "drew"]), (1, []), (2, ["won"])]
    before = steps_from_trace([e(1, "drew", player="alice", count=1)] + t)
    assert before[0].after == -1 and [x.kind for x in before[0].events] == ["drew"]


def test_projection_drops_what_a_level_does_not_report():
    full = reply(decisions=outcomes((0, "accepted", None), (1, "accepted", None)),
                 checkpoints=[Checkpoint(after=0, state={})], final={"players": {}}, winner="alice")
    fin = project(full, "final")
    assert fin.trace == [] and fin.steps is None and fin.checkpoints is None and fin.winner == "alice"
    assert fin.decisions == full.decisions
    st = project(full, "steps")
    assert st.trace == [] and st.checkpoints == full.checkpoints and [s.after for s in st.steps] == [0, 1]
    rej = reply(trace=[e(1, "rejected", at=0, player="alice", reason="attacker_sleeping")])
    no_codes = project(rej, "trace", reason_codes=False)
    assert "reason" not in no_codes.trace[0].args and no_codes.decisions[0].reason is None


# -- final level ----------------------------------------------------------------------------------


def test_final_level_checks_final_state_and_fails_a_wrong_engine():
    c = case({"final": {"cards": {"a": {"zone": "graveyard"}}}, "winner": "alice"})
    good = reply(trace=[], decisions=outcomes((0, "accepted", None), (1, "accepted", None)),
                 final={"cards": {"a": {"zone": "graveyard"}}}, winner="alice")
    v = compare(c, good, hello("final"))
    assert v.status == "pass" and v.unchecked == [] and v.level == "final"
    wrong = good.model_copy(update={"final": {"cards": {"a": {"zone": "battlefield"}}}})
    v = compare(c, wrong, hello("final"))
    assert v.status == "fail" and v.divergence.what == "final" and "cards.a.zone" in v.divergence.message
    assert compare(c, good.model_copy(update={"winner": "bob"}), hello("final")).status == "fail"


def test_final_level_never_fails_on_events_it_cannot_see():
    c = case({"events": [{"drew": {"player": "bob"}}]})  # the trace would not match it
    v = compare(c, reply(decisions=outcomes((0, "accepted", None), (1, "accepted", None))), hello("final"))
    assert v.status == "not_checkable" and needs(v) == {("events", "steps")}
    assert compare(c, reply()).status == "fail"  # the same reply at level trace does fail


def test_a_case_with_something_checkable_passes_and_lists_the_rest():
    c = case({"events": [{"drew": {"player": "alice"}}], "winner": "alice"})
    v = compare(c, reply(decisions=[], winner="alice"), hello("checkpoints"))
    assert v.status == "pass" and needs(v) == {("events", "steps")}


def test_refusals_at_final_level():
    c = case({"rejected": {"at": 0, "reason": "attacker_sleeping"}}, SCRIPT2)
    ok = reply(trace=[], decisions=outcomes((0, "refused", "attacker_sleeping"), (1, "accepted", None)))
    v = compare(c, ok, hello("final"))
    assert v.status == "pass" and needs(v) == {("rejected[0].unchanged", "checkpoints")}
    wrong_reason = ok.model_copy(update={"decisions": outcomes((0, "refused", "attacker_not_ijin"),
                                                               (1, "accepted", None))})
    assert compare(c, wrong_reason, hello("final")).status == "fail"
    accepted = ok.model_copy(update={"decisions": outcomes((0, "accepted", None), (1, "accepted", None))})
    v = compare(c, accepted, hello("final"))
    assert v.status == "fail" and "accepted" in v.divergence.message
    unexpected = case({"winner": None}, SCRIPT2)
    v = compare(unexpected, wrong_reason, hello("final"))
    assert v.status == "fail" and "expects it to be accepted" in v.divergence.message


def test_without_reason_codes_a_refusal_is_checked_as_refused_only():
    c = case({"rejected": {"at": 0, "reason": "attacker_sleeping"}}, SCRIPT2)
    other = reply(trace=[], decisions=outcomes((0, "refused", None), (1, "accepted", None)))
    v = compare(c, other, hello("final", reason_codes=False))
    assert v.status == "pass" and ("rejected[0].reason", "reason_codes") in needs(v)
    accepted = other.model_copy(update={"decisions": outcomes((0, "accepted", None), (1, "accepted", None))})
    assert compare(c, accepted, hello("final", reason_codes=False)).status == "fail"


def test_nothing_changes_after_a_refusal_is_checked_on_checkpoints():
    c = case({"rejected": {"at": 0, "reason": "attacker_sleeping"}}, SCRIPT2)
    before = {"cards": {"a": {"sleeping": False}}}
    cps = [Checkpoint(after=-1, state=before), Checkpoint(after=0, state=before),
           Checkpoint(after=1, state={"cards": {"a": {"sleeping": True}}})]
    r = reply(trace=[], decisions=outcomes((0, "refused", "attacker_sleeping"), (1, "accepted", None)),
              checkpoints=cps)
    v = compare(c, r, hello("checkpoints"))
    assert v.status == "pass" and v.unchecked == []
    changed = r.model_copy(update={"checkpoints": [cps[0], Checkpoint(after=0, state=cps[2].state), cps[2]]})
    v = compare(c, changed, hello("checkpoints"))
    assert v.status == "fail" and "differs from the state before it" in v.divergence.message
    no_first = r.model_copy(update={"checkpoints": cps[1:]})
    # the engine offers checkpoints but left out the state before the first decision: it is told that one
    # (after: -1), not sent to the trace level
    assert needs(compare(c, no_first, hello("checkpoints"))) == {("rejected[0].unchanged", "checkpoints")}


# -- steps level ------------------------------------------------------------------------------------


def steps_reply(steps, decisions=((0, "accepted", None), (1, "accepted", None))):
    return reply(trace=[], decisions=outcomes(*decisions),
                 steps=[Step(after=a, events=[StepEvent(kind=k, args=f) for k, f in evs]) for a, evs in steps])


def test_steps_level_checks_which_step_not_which_moment():
    exp = case({"events": [[{"slept": "a"}, {"became_attacker": "a"}], {"drew": {"player": "alice"}},
                           {"decided": {"at": 1, "player": "bob"}}, {"won": "alice"}]})
    one_step = steps_reply([(0, [("drew", {"player": "alice", "count": 1}), ("became_attacker", {"card": "a"}),
                                 ("slept", {"card": "a"})]), (1, [("won", {"player": "alice"})])])
    v = compare(exp, one_step, hello("steps"))
    assert v.status == "pass" and ("events.moments", "trace") in needs(v)
    split = steps_reply([(0, [("slept", {"card": "a"}), ("drew", {"player": "alice", "count": 1})]),
                         (1, [("became_attacker", {"card": "a"}), ("won", {"player": "alice"})])])
    v = compare(exp, split, hello("steps"))
    assert v.status == "fail" and v.divergence.index == 0 and "one step" in v.divergence.message
    late = steps_reply([(0, [("slept", {"card": "a"}), ("became_attacker", {"card": "a"})]),
                        (1, [("drew", {"player": "alice", "count": 1}), ("won", {"player": "alice"})])])
    v = compare(exp, late, hello("steps"))  # drew is after decision 1 here: out of order
    assert v.status == "fail" and v.divergence.index == 2


def test_steps_level_cannot_check_exact():
    c = case({"exact": True, "events": [{"won": "alice"}]})
    v = compare(c, steps_reply([(1, [("won", {"player": "alice"})])]), hello("steps"))
    assert v.status == "pass" and ("exact", "trace") in needs(v)


def test_an_event_kind_the_engine_does_not_report_is_not_checkable():
    c = case({"events": [[{"slept": "a"}, {"slept": "b"}, {"became_attacker": "a"}, {"became_attacker": "b"}],
                         {"drew": {"player": "alice"}}]})
    no_slept = [x for x in TRACE if x.kind != "slept"]
    h = hello(events={"ijinden": ["became_attacker", "drew", "won"]})
    v = compare(c, reply(trace=no_slept), h)
    assert v.status == "pass" and ("events[0].slept", "events:slept") in needs(v)
    only_drew = case({"events": [{"slept": "a"}]})
    assert compare(only_drew, reply(trace=no_slept), h).status == "not_checkable"
    wrong = [x for x in no_slept if x.kind != "became_attacker" or x.args["card"] != "a"]
    assert compare(c, reply(trace=wrong), h).status == "fail"  # what it does report is still checked


# -- forced decisions and the legality query --------------------------------------------------------


def test_an_automatic_decision_counts_as_accepted():
    c = case({"winner": "alice"})
    r = reply(trace=[], decisions=outcomes((0, "automatic", None), (1, "accepted", None)), winner="alice")
    assert compare(c, r, hello("final")).status == "pass"
    t = [e(1, "decided", at=0, player="alice", decision="declare_attackers", automatic=True)] + TRACE[1:]
    ev = case({"events": [{"decided": {"at": 0}}, {"drew": {"player": "alice"}}]})
    assert compare(ev, reply(trace=t), hello()).status == "pass"


def test_a_refusal_on_an_entry_never_asked_is_not_checkable_without_legality():
    c = case({"rejected": {"at": 0, "reason": "attacker_sleeping"}}, SCRIPT2)
    r = reply(trace=[], decisions=outcomes((0, "not_asked", None), (1, "automatic", None)))
    v = compare(c, r, hello("final"))
    assert v.status == "not_checkable" and needs(v) == {("rejected[0]", "legality")}
    # from a protocol-2 trace: the absent entry 0 (decision 1 was taken) was never asked
    t = [e(1, "decided", at=1, player="alice", decision="declare_attackers", automatic=True)]
    assert compare(c, reply(trace=t), hello()).status == "not_checkable"



def _asker(asked: list[int]):
    """A legality query that answers ``answer`` and records the entries it was asked about in ``asked``."""
    def ask(answer):
        def f(at):
            asked.append(at)
            return answer
        return f
    return ask

def test_the_legality_query_checks_a_refusal_the_engine_never_asked_for():
    c = case({"rejected": {"at": 0, "reason": "attacker_sleeping"}}, SCRIPT2)
    r = reply(trace=[], decisions=outcomes((0, "not_asked", None), (1, "automatic", None)))
    h = hello("final", capabilities=["legality"])
    asked: list[int] = []
    ask = _asker(asked)

    v = compare(c, r, h, ask(LegalityReply(id="q", accepted=False, reason="attacker_sleeping")))
    assert v.status == "pass" and asked == [0]
    v = compare(c, r, h, ask(LegalityReply(id="q", accepted=True)))
    assert v.status == "fail" and "legality query accepts it" in v.divergence.message
    assert compare(c, r, h, ask(LegalityReply(id="q", accepted=False, reason="attacker_not_ijin"))).status == "fail"
    # a broken answer is the engine's error (the case's `error`, run_case), never a quiet not_checkable
    from oracle.errors import EngineError

    with pytest.raises(EngineError, match="boom"):
        compare(c, r, h, ask(LegalityReply(id="q", error="boom")))


def test_a_refusal_written_only_among_the_events_is_put_to_the_legality_query():
    """At level trace, a ``rejected`` the case writes only in ``expect.events``, on an entry the engine never
    asked for: its moment cannot be found, but the refusal is put to the engine's legality query (it was
    not, though the unchecked note said so), and an engine that would accept it fails."""
    c = case({"events": [{"rejected": {"at": 0, "reason": "attacker_sleeping"}}]}, SCRIPT2)
    t = [e(1, "decided", at=1, player="alice", decision="declare_attackers", automatic=True)]
    h = hello("trace", capabilities=["legality"])
    asked: list[int] = []
    ask = _asker(asked)

    v = compare(c, reply(trace=t), h, ask(LegalityReply(id="q", accepted=True)))
    assert v.status == "fail" and "legality query accepts it" in v.divergence.message and asked == [0]
    v = compare(c, reply(trace=t), h, ask(LegalityReply(id="q", accepted=False, reason="attacker_not_ijin")))
    assert v.status == "fail" and "attacker_not_ijin" in v.divergence.message
    v = compare(c, reply(trace=t), h, ask(LegalityReply(id="q", accepted=False, reason="attacker_sleeping")))
    assert v.status != "fail"
    (note,) = [u for u in v.unchecked if u.what == "events[0].rejected"]
    assert "was put to its legality query" in note.why
    v = compare(c, reply(trace=t), hello("trace"))
    (note,) = [u for u in v.unchecked if u.what == "events[0].rejected"]
    assert "offers no legality query" in note.why


# -- protocol 1 ----------------------------------------------------------------------------------------


def test_protocol_1_engines_are_judged_as_before():
    v1 = Hello(engine=EngineInfo(name="x"), games=["ijinden"], protocol_version=1)
    c = case({"rejected": {"at": 1, "reason": "blocker_sleeping"}})
    skipped = [x for x in TRACE if x.kind != "decided" or x.args["at"] != 1]
    for h in (v1, None):
        v = compare(c, reply(trace=skipped), h)  # an absent entry was never reached: a failure, as before
        assert v.status == "fail" and "never reached" in v.divergence.message and v.level == "trace"
    assert compare(case({"winner": "alice"}), reply(winner="alice"), v1).unchecked == []


def test_events_before_the_first_decision_are_a_step_of_their_own():
    c = case({"events": [{"drew": {"player": "alice"}}, {"decided": {"at": 0}}, {"won": "alice"}]})
    r = steps_reply([(-1, [("drew", {"player": "alice", "count": 1})]), (0, [("won", {"player": "alice"})])])
    assert compare(c, r, hello("steps")).status == "pass"
    late = case({"events": [{"decided": {"at": 0}}, {"drew": {"player": "alice"}}]})
    assert compare(late, r, hello("steps")).status == "fail"  # drew came before decision 0, not after it


def test_an_expected_event_of_an_entry_never_asked_is_not_checkable():
    c = case({"events": [{"rejected": {"at": 0, "reason": "attacker_sleeping"}}, {"decided": {"at": 1}}]}, SCRIPT2)
    t = [e(1, "decided", at=1, player="alice", decision="declare_attackers", automatic=True)]
    v = compare(c, reply(trace=t), hello())
    assert v.status == "pass" and ("events[0].rejected", "legality") in needs(v)
    v1 = Hello(engine=EngineInfo(name="x"), games=["ijinden"], protocol_version=1)
    assert compare(c, reply(trace=t), v1).status == "fail"  # protocol 1: the refusal is simply missing


def test_a_step_event_outside_the_vocabulary_is_a_broken_reply():
    from oracle.harness.compare import vocabulary_problems

    bad = steps_reply([(0, [("exploded", {"card": "a"})])])
    assert "event \"exploded\" (step 0) that is not in the ijinden vocabulary" in vocabulary_problems(bad, "ijinden")
    extra = steps_reply([(1, [("drew", {"player": "alice", "colour": "red"})])])
    assert "field(s) [\"colour\"]" in vocabulary_problems(extra, "ijinden")
    assert vocabulary_problems(steps_reply([(0, [("drew", {"player": "alice"})])]), "ijinden") is None
