"""The wider case language (issue 9 item 3): moments matched by contains, absent events (nowhere, and
between two expected moments), unordered groups, state checks after decision N; and `validate`'s located
errors for their misuse."""

from __future__ import annotations

import re

import pytest

from oracle.harness.compare import compare
from oracle.model import CaseReply

from test_compare import case, e  # one case builder and one trace-entry builder for the comparison tests
from test_loader import GOOD, load, root, write  # noqa: F401 - the fixture is used by name


TRACE = [
    e(1, "decided", "ijinden:BATTLE", at=0, player="alice", decision="declare_attackers"),
    e(2, "slept", "ijinden:A3", card="a"), e(2, "slept", "ijinden:A3", card="b"),
    e(2, "became_attacker", "ijinden:A3", card="a"), e(2, "became_attacker", "ijinden:A3", card="b"),
    e(3, "drew", "ijinden:A4", player="alice", count=1),
    e(4, "decided", "ijinden:B1", at=1, player="bob", decision="declare_blockers"),
    e(5, "destroyed", "ijinden:D2", card="x"), e(5, "destroyed", "ijinden:D2", card="y"),
    e(6, "moved", "ijinden:D4", card="x", to="discard"),
    e(7, "moved", "ijinden:D4", card="y", to="discard"),
    e(8, "won", "ijinden:C1b", player="alice"),
]


def reply(trace=TRACE, **kw):
    return CaseReply(id="t.case", trace=trace, **kw)


# ------------------------------------------------------------------------------------------ contains


def test_contains_matches_part_of_a_moment_and_credits_only_what_it_matched():
    v = compare(case({"events": [{"contains": [{"became_attacker": "a"}]}]}), reply())
    assert v.status == "pass" and v.asserted == ["ijinden:A3"]
    # the same pattern as a plain moment demands the whole moment
    v = compare(case({"events": [{"became_attacker": "a"}]}), reply())
    assert v.status == "fail" and v.divergence.what == "moment"


def test_contains_still_pairs_each_event_with_its_own():
    twice = {"events": [{"contains": [{"slept": "a"}, {"slept": "a"}]}]}
    v = compare(case(twice), reply())
    assert v.status == "fail" and "(contains)" in v.divergence.message


def test_contains_is_ordered_like_any_moment():
    v = compare(case({"events": [{"drew": "alice"}, {"contains": [{"became_attacker": "b"}]}]}), reply())
    assert v.status == "fail" and v.divergence.index == 1


# ------------------------------------------------------------------------------------------ absent


def test_absent_nowhere():
    assert compare(case({"absent": [{"won": "bob"}, {"slept": "c"}]}), reply()).status == "pass"
    v = compare(case({"absent": [{"drew": "alice"}]}), reply())
    assert v.status == "fail" and v.divergence.what == "absent" and "moment 3" in v.divergence.message
    assert v.asserted == []  # an absence matches no entry: it credits nothing


def test_absent_between_two_moments():
    ok = {"events": [{"drew": "alice"}, {"absent": [{"became_attacker": "a"}, {"won": "alice"}]},
                     {"decided": 1}]}
    assert compare(case(ok), reply()).status == "pass"
    broken = {"events": [{"decided": 1}, {"absent": [{"moved": "x"}]}, {"won": "alice"}]}
    v = compare(case(broken), reply())
    assert v.status == "fail" and v.divergence.what == "absent" and v.divergence.index == 1
    assert v.divergence.actual == [{"moved": {"card": "x", "to": "discard"}}]


def test_absent_looks_for_any_placement_that_keeps_it():
    """A moment that happens twice: the absence holds when the later one is taken."""
    trace = [e(1, "drew", player="alice", count=1), e(2, "slept", card="a"), e(3, "drew", player="alice", count=1),
             e(4, "won", player="alice")]
    exp = {"events": [{"drew": "alice"}, {"absent": [{"slept": "a"}]}, {"won": "alice"}]}
    assert compare(case(exp), reply(trace)).status == "pass"
    assert compare(case(exp), reply(trace[:2] + trace[3:])).status == "fail"


# ------------------------------------------------------------------------------------------ unordered


def test_unordered_group_in_either_order():
    x_then_y = [{"moved": {"card": "x", "to": "discard"}}, {"moved": {"card": "y", "to": "discard"}}]
    for members in (x_then_y, x_then_y[::-1]):
        v = compare(case({"events": [{"decided": 1}, {"unordered": members}, {"won": "alice"}]}), reply())
        assert v.status == "pass", v.divergence
        assert v.asserted.count("ijinden:D4") == 1 and "ijinden:C1b" in v.asserted


def test_unordered_members_are_distinct_moments_between_the_neighbours():
    same_twice = {"events": [{"unordered": [{"moved": "x"}, {"moved": "x"}]}]}
    v = compare(case({"events": [{"unordered": [{"contains": [{"moved": "x"}]}, {"contains": [{"moved": "x"}]}]}]}),
                reply())
    assert v.status == "fail" and v.divergence.index == 0
    assert compare(case(same_twice), reply()).status == "fail"
    # both members after decision 1 and before alice wins: the draw (before decision 1) is outside
    v = compare(case({"events": [{"decided": 1}, {"unordered": [{"moved": "x"}, {"drew": "alice"}]}]}), reply())
    assert v.status == "fail" and "unordered group 1" in v.divergence.message
    v = compare(case({"events": [{"unordered": [{"moved": "y"}, {"moved": "x"}]}, {"moved": "y"}]}), reply())
    assert v.status == "fail" and v.divergence.index == 1


# ------------------------------------------------------------------------------------------ after N


def test_state_after_decision_n_from_checkpoints():
    exp = {"after": [{"decision": 0, "state": {"cards": {"a": {"attacker": True}}}}]}
    good = reply(checkpoints=[{"after": 0, "state": {"cards": {"a": {"attacker": True}}}}])
    v = compare(case(exp), good)
    assert v.status == "pass" and v.asserted == ["ijinden:A3"]  # the event that made a an attacker
    bad = reply(checkpoints=[{"after": 0, "state": {"cards": {"a": {"attacker": False}}}}])
    v = compare(case(exp), bad)
    assert v.status == "fail" and v.divergence.what == "after" and "after decision 0" in v.divergence.message
    v = compare(case(exp), reply(checkpoints=[{"after": 1, "state": {}}]))
    assert v.status == "fail" and "no state after decision 0" in v.divergence.message


def test_after_is_not_checkable_without_checkpoints_and_absent_needs_steps():
    from oracle.model import Hello

    final_only = Hello(protocol_version=2, engine={"name": "x"}, games=["ijinden"], observation="final")
    exp = {"after": [{"decision": 0, "state": {"cards": {"a": {"attacker": True}}}}], "absent": [{"won": "bob"}],
           "events": [{"drew": "alice"}, {"absent": [{"slept": "a"}]}, {"won": "alice"}]}
    v = compare(case(exp), reply(), hello=final_only)
    assert v.status == "not_checkable"
    assert {(u.what, u.needs) for u in v.unchecked} == {("after", "checkpoints"), ("absent", "steps"),
                                                        ("events", "steps")}
    steps = Hello(protocol_version=2, engine={"name": "x"}, games=["ijinden"], observation="steps")
    from oracle.harness.views import steps_from_trace

    stepped = CaseReply(id="t.case", steps=steps_from_trace(TRACE))
    v = compare(case({"absent": [{"drew": "alice"}]}), stepped, hello=steps)
    assert v.status == "fail" and v.divergence.what == "absent" and "step 0" in v.divergence.message
    v = compare(case(exp | {"after": []}), stepped, hello=steps)
    assert v.status == "pass" and ("events[1]", "trace") in {(u.what, u.needs) for u in v.unchecked}


# ------------------------------------------------------------------------------------------ validate


EVENTS = "  events:\n    - {became_attacker: a}\n"


@pytest.mark.parametrize("events, field, words", [
    ("  events:\n    - {absent: [{slept: a}]}\n    - {became_attacker: a}\n", "expect.events[0]", "first"),
    ("  events:\n    - {became_attacker: a}\n    - {absent: [{slept: a}]}\n", "expect.events[1]", "last"),
    ("  events:\n    - {became_attacker: a}\n    - {absent: [{slept: a}]}\n    - {absent: [{drew: alice}]}\n"
     "    - {drew: alice}\n", "expect.events[2]", "in a row"),
    ("  events:\n    - {became_attacker: a}\n    - {absent: [{flew: a}]}\n    - {drew: alice}\n",
     "expect.events[1].absent[0]", "unknown event 'flew'"),
    ("  events:\n    - {contains: [{became_attacker: a}, {sleept: a}]}\n", "expect.events[0].contains[1]",
     "unknown event 'sleept'"),
    ("  exact: true\n  events:\n    - {contains: [{became_attacker: a}]}\n", "expect.events[0]", "exact"),
    ("  events:\n    - {unordered: [{became_attacker: a}, [{drew: alice}, {slept: {card: a, power: 2}}]]}\n",
     "expect.events[0].unordered[1][1].slept", "no field 'power'"),
    ("  events:\n    - {unordered: [{became_attacker: a}]}\n", "expect.events[0].unordered", "at least 2"),
    ("  absent: [{slept: {card: a, how: x}}]\n", "expect.absent[0].slept", "no field 'how'"),
    ("  after:\n    - {decision: 1, state: {cards: {a: {attacker: true}}}}\n", "expect.after[0].decision",
     "decision 1 does not exist"),
    ("  after:\n    - {decision: 0, state: {cards: {zz: {attacker: true}}}}\n", "expect.after[0].state.cards.zz",
     "not in the setup"),
    ("  after:\n    - {decision: 0, state: {cards: {a: {atacking: true}}}}\n", "expect.after[0].state.cards.a.atacking",
     "unknown card field"),
])
def test_misuse_is_a_located_error(root, events, field, words):  # noqa: F811
    p = write(root, "bad.yaml", GOOD.replace(EVENTS, events))
    suite = load(root)
    assert len(suite.errors) == 1, [str(x) for x in suite.errors]
    err = suite.errors[0]
    assert (err.path, err.case_id, err.field) == (str(p), "t.good", field) and words in err.message, str(err)
    lines = GOOD.replace(EVENTS, events).splitlines()
    names = [w for w in re.split(r"[.\[\]]", field) if w and not w.isdigit()]
    line = lines[err.line - 1]  # the item itself, or the line naming the field
    assert (field.endswith("]") and line.strip().startswith("-")) or any(w in line for w in names[1:]), (err.line, line)


def test_the_new_items_load(root):  # noqa: F811
    events = ("  events:\n    - {contains: [{became_attacker: a}]}\n    - {absent: [{won: bob}]}\n"
              "    - {unordered: [{drew: alice}, [{slept: a}]]}\n  absent: [{won: bob}]\n"
              "  after:\n    - {decision: 0, state: {cards: {a: {attacker: true}}}}\n")
    write(root, "good.yaml", GOOD.replace(EVENTS, events))
    suite = load(root)
    assert not suite.errors, [str(x) for x in suite.errors]
    ex = suite.cases[0].case.expect
    assert ex.events[0].contains and ex.events[1].absent[0].kind == "won"
    assert [len(m.events) for m in ex.events[2].unordered] == [1, 1] and ex.after[0].decision == 0


# ------------------------------------------------------------------------------------------ setup.step

IJINDEN_STEP = """\
id: t.step
game: ijinden
rulesets: [ijinden-rulecard-2.0-231225]
title: a later-step setup
source: {kind: external, document: d, edition: "1", page: "1", quote: q}
rules: ["ijinden:B1"]
setup:
  active: alice
  step: resolution
  players:
    alice: {battlefield: [{id: a, card: テスト用イジン, power: 1000, sleeping: true, attacking: true}]}
    bob: {battlefield: [{id: b, card: テスト用イジン, power: 1000, blocking: a}]}
script:
  - {bob: {choose_attacker: a}}
expect:
  winner: null
"""

DM_STEP = """\
id: t.dmstep
game: duelmasters
rulesets: [dm-seed-crossgear-era]
title: a later-step setup
source: {kind: external, document: d, edition: "1", page: "1", quote: q}
rules: ["duelmasters:A3"]
setup:
  active: alice
  step: block
  players:
    alice: {battlefield: [{id: a, card: 試験用バニラ, power: 1000, tapped: true, attacking: bob}]}
    bob: {battlefield: [{id: c, card: 試験用バニラ, power: 1000, tapped: true}], shields: 1}
expect:
  winner: null
"""


@pytest.mark.parametrize("text, change, field, words", [
    (IJINDEN_STEP, ("step: resolution", "step: blocking"), "setup.step", "unknown step 'blocking'"),
    (IJINDEN_STEP, ("  step: resolution\n", ""), "setup.players.alice.battlefield[0].attacking",
     "need a setup.step"),
    (IJINDEN_STEP, ("step: resolution", "step: block"), "setup.players.bob.battlefield[0].blocking",
     "after the blockers are declared"),
    (IJINDEN_STEP, ("sleeping: true, attacking: true", "attacking: true"), "setup.players.alice.battlefield[0].attacking",
     "sleeping: true"),
    (IJINDEN_STEP, ("attacking: true", "attacking: bob"), "setup.players.alice.battlefield[0].attacking",
     "attacking: true"),
    (IJINDEN_STEP, ("blocking: a", "blocking: b"), "setup.players.bob.battlefield[0].blocking",
     "not an attacking card"),
    (IJINDEN_STEP, ("power: 1000, sleeping: true, attacking: true", "power: 1000"), "setup.step", "1 or more attacking"),
    (IJINDEN_STEP, ("step: resolution", "step: after_battle"), "setup.players.alice.battlefield[0].attacking",
     "need a setup.step"),
    (DM_STEP, ("attacking: bob", "attacking: true"), "setup.players.alice.battlefield[0].attacking",
     "name what the card attacks"),
    (DM_STEP, ("attacking: bob", "attacking: alice"), "setup.players.alice.battlefield[0].attacking",
     "not an opponent"),
    (DM_STEP, ("{id: c, card: 試験用バニラ, power: 1000, tapped: true}", "{id: c, card: 試験用バニラ, power: 1000, "
               "tapped: true, attacking: bob}"), "setup.players.bob.battlefield[0].attacking", "active player's"),
    (DM_STEP, ("alice: {battlefield: [{id: a, card: 試験用バニラ, power: 1000, tapped: true, attacking: bob}]}",
               "alice: {battlefield: [{id: a, card: 試験用バニラ, tapped: true, attacking: bob}, "
               "{id: a2, card: 試験用バニラ, tapped: true, attacking: c}]}"),
     "setup.players.alice.battlefield[0].attacking", "at most 1"),
])
def test_step_misuse_is_a_located_error(tmp_path, text, change, field, words):
    from oracle.loader import load_suite

    assert change[0] in text
    p = tmp_path / "step.yaml"
    p.write_text(text.replace(*change), encoding="utf-8")
    errors = load_suite([p]).errors
    assert any(e.field == field and words in e.message and e.line and e.case_id for e in errors), \
        [str(e) for e in errors]


@pytest.mark.parametrize("text", [IJINDEN_STEP, DM_STEP])
def test_a_coherent_later_step_setup_loads(tmp_path, text):
    from oracle.loader import load_suite

    p = tmp_path / "step.yaml"
    p.write_text(text, encoding="utf-8")
    assert not load_suite([p]).errors
