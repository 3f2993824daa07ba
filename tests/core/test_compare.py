"""The comparison of expectations against a reply: moments as sets, subsequence, exact, refusals,
winner, final state, asserted coverage."""

from __future__ import annotations

from oracle.harness.compare import compare, moment_matches
from oracle.model import Case, CaseReply, TraceEntry


def case(expect, script=None):
    return Case.model_validate({
        "id": "t.case", "game": "ijinden", "rulesets": ["r"], "title": "t",
        "source": {"kind": "external", "document": "d", "edition": "1", "page": "1", "quote": "q"}, "rules": ["ijinden:A3"],
        "setup": {"active": "alice", "players": {"alice": {}, "bob": {}}},
        "script": script or [{"alice": {"declare_attackers": ["a"]}}, {"bob": {"declare_blockers": {}}}],
        "expect": expect,
    })


def e(moment, kind, clause="ijinden:X", **args):
    return TraceEntry(moment=moment, kind=kind, args=args, clause=clause)


TRACE = [
    e(1, "decided", "ijinden:BATTLE", at=0, player="alice", decision="declare_attackers"),
    e(2, "slept", "ijinden:A3", card="a"), e(2, "slept", "ijinden:A3", card="b"),
    e(2, "became_attacker", "ijinden:A3", card="a"), e(2, "became_attacker", "ijinden:A3", card="b"),
    e(3, "drew", "ijinden:A4", player="alice", count=1),
    e(4, "decided", "ijinden:B1", at=1, player="bob", decision="declare_blockers"),
    e(5, "won", "ijinden:C1b", player="alice"),
]


def reply(trace=TRACE, **kw):
    return CaseReply(id="t.case", trace=trace, **kw)


def test_a_moment_matches_only_as_a_whole_set():
    m = [x for x in TRACE if x.moment == 2]
    full = [("slept", {"card": "a"}), ("slept", {"card": "b"}),
            ("became_attacker", {"card": "b"}), ("became_attacker", {"card": "a"})]
    assert moment_matches(full, m)
    assert not moment_matches(full[:3], m)  # a missing event is a different moment
    assert not moment_matches(full[:3] + [("slept", {"card": "a"})], m)  # a is slept once, not twice


def test_fields_not_written_are_not_compared():
    v = compare(case({"events": [{"drew": {"player": "alice"}}]}), reply())
    assert v.status == "pass" and v.asserted == ["ijinden:A4"]


def test_moments_must_appear_in_order():
    ok = case({"events": [[{"slept": {"card": "a"}}, {"slept": {"card": "b"}}, {"became_attacker": {"card": "a"}},
                            {"became_attacker": {"card": "b"}}], {"drew": {"player": "alice", "count": 1}}]})
    assert compare(ok, reply()).status == "pass"
    swapped = case({"events": [{"drew": {"player": "alice", "count": 1}},
                               [{"slept": {"card": "a"}}, {"slept": {"card": "b"}},
                                {"became_attacker": {"card": "a"}}, {"became_attacker": {"card": "b"}}]]})
    v = compare(swapped, reply())
    assert v.status == "fail" and v.divergence.what == "moment" and v.divergence.index == 1


def test_wrong_value_fails_with_the_nearest_moment_shown():
    v = compare(case({"events": [{"drew": {"player": "alice", "count": 2}}]}), reply())
    assert v.status == "fail"
    assert v.divergence.actual == [{"drew": {"player": "alice", "count": 1}}]
    assert "count" in str(v.divergence.expected)


def test_exact_demands_the_whole_trace():
    v = compare(case({"exact": True, "events": [{"decided": {"at": 0}}]}), reply())
    assert v.status == "fail" and v.divergence.what == "exact"


def test_winner_and_its_clause_is_asserted():
    v = compare(case({"winner": "alice"}), reply(winner="alice"))
    assert v.status == "pass" and v.asserted == ["ijinden:C1b"]
    assert compare(case({"winner": "bob"}), reply(winner="alice")).status == "fail"


def test_explicit_no_winner():
    c = case({"winner": None})
    assert c.expect.asserts_winner
    assert compare(c, reply(winner="alice")).status == "fail"
    no_win = [x for x in TRACE if x.kind != "won"]
    v = compare(c, reply(trace=no_win))
    assert v.status == "pass" and v.asserted == []  # an absence matches no trace entry: no clause credited


def test_unexpected_refusal_fails():
    t = TRACE[:1] + [e(9, "rejected", "ijinden:B1", at=1, player="bob", reason="blocker_sleeping")]
    v = compare(case({"events": [{"decided": {"at": 0}}]}), reply(trace=t))
    assert v.status == "fail" and v.divergence.what == "rejection" and "accepted" in v.divergence.message


def test_expected_refusal_with_wrong_reason_or_state_change_fails():
    script = [{"alice": {"declare_attackers": ["a"]}}, {"alice": {"declare_attackers": ["b"]}}]
    t = [e(1, "rejected", "ijinden:A1", at=0, player="alice", reason="attacker_sleeping"),
         e(2, "decided", "ijinden:BATTLE", at=1, player="alice", decision="declare_attackers")]
    good = case({"rejected": {"at": 0, "reason": "attacker_sleeping"}}, script)
    v = compare(good, reply(trace=t))
    assert v.status == "pass" and v.asserted == ["ijinden:A1"]
    wrong = case({"rejected": {"at": 0, "reason": "attacker_not_ijin"}}, script)
    assert compare(wrong, reply(trace=t)).status == "fail"
    changed = [t[0], e(2, "slept", "ijinden:A3", card="a"), t[1]]
    v = compare(good, reply(trace=changed))
    assert v.status == "fail" and "state changed" in v.divergence.message


def test_expected_refusal_that_was_accepted_fails():
    script = [{"alice": {"declare_attackers": ["a"]}}, {"bob": {"declare_blockers": {}}}]
    v = compare(case({"rejected": [{"at": 0, "reason": "attacker_sleeping"}]}, script), reply())
    assert v.status == "fail" and "accepted" in v.divergence.message


def test_final_counts_lists_and_card_fields():
    final = {"players": {"alice": {"hand": ["x", "y"], "deck": 8}}, "cards": {"a": {"zone": "graveyard"}}}
    moved = TRACE + [e(6, "moved", "ijinden:D4", card="a", player="alice", **{"from": "battlefield", "to": "graveyard"})]
    actual = {"players": {"alice": {"hand": ["y", "x"], "deck": list("12345678")}},
              "cards": {"a": {"zone": "graveyard", "sleeping": True}}}
    v = compare(case({"final": final}), reply(trace=moved, final=actual))
    assert v.status == "pass"
    assert "ijinden:D4" in v.asserted
    bad = {**actual, "players": {"alice": {"hand": ["x"], "deck": list("12345678")}}}
    v = compare(case({"final": final}), reply(trace=moved, final=bad))
    assert v.status == "fail" and "players.alice.hand" in v.divergence.message
    bad_card = {**actual, "cards": {"a": {"zone": "battlefield"}}}
    assert compare(case({"final": final}), reply(trace=moved, final=bad_card)).status == "fail"


def test_booleans_are_not_numbers():
    final = {"cards": {"a": {"sleeping": True}}}
    v = compare(case({"final": final}), reply(final={"cards": {"a": {"sleeping": 1}}}))
    assert v.status == "fail"


def test_events_outside_the_closed_vocabulary_break_the_reply():
    from oracle.harness.compare import vocabulary_problems

    assert vocabulary_problems(reply(), "ijinden") is None
    bad_kind = TRACE + [e(9, "became_atacker", card="a")]
    assert '"became_atacker" (moment 9) that is not in the ijinden vocabulary' in vocabulary_problems(
        reply(trace=bad_kind), "ijinden")
    bad_field = TRACE + [e(9, "slept", card="a", why="tired")]
    assert 'has field(s) ["why"]' in vocabulary_problems(reply(trace=bad_field), "ijinden")


def test_no_counters_of_a_kind_and_zero_counters_of_it_are_the_same_state():
    """Found by fuzzing phase.rs (2026-12-02): the reference projects a setup's ``counters: {defense: 0}`` as
    written, phase.rs as ``{}``; neither decided anything differently."""
    expect = {"final": {"cards": {"a": {"counters": {"defense": 0}}}}}
    for have in ({}, {"defense": 0}, {"loyalty": 0}):
        reply = CaseReply(id="t.case", trace=TRACE, final={"cards": {"a": {"counters": have}}})
        assert compare(case(expect), reply).status == "pass", have
    reply = CaseReply(id="t.case", trace=TRACE, final={"cards": {"a": {"counters": {"defense": 1}}}})
    assert compare(case(expect), reply).status == "fail"
    one = {"final": {"cards": {"a": {"counters": {"defense": 1}}}}}
    for have in ({}, {"defense": 0}):
        reply = CaseReply(id="t.case", trace=TRACE, final={"cards": {"a": {"counters": have}}})
        assert compare(case(one), reply).status == "fail", have


def test_a_cards_abilities_are_the_same_names_in_any_order():
    """What a card has is a set of names (``docs/vocabulary``: ``abilities: [name, ...]``): an engine that lists them
    in another order decided nothing differently; a missing, extra or repeated name is a fail."""
    expect = {"final": {"cards": {"a": {"abilities": ["triggered", "watcher"]}}}}
    for have, status in ((["watcher", "triggered"], "pass"), (["triggered", "watcher"], "pass"),
                         (["triggered"], "fail"), (["triggered", "watcher", "watcher"], "fail"),
                         (["triggered", "watcher", "sokuou"], "fail")):
        reply = CaseReply(id="t.case", trace=TRACE, final={"cards": {"a": {"abilities": have}}})
        assert compare(case(expect), reply).status == status, have
