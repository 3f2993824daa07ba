"""Edge cases of the comparison: values inside lists, and replies whose fields are missing or of the
wrong type (a broken reply fails or errs its case; it never crashes the comparison)."""

from __future__ import annotations

from oracle.core.moments import same
from oracle.harness.compare import compare
from oracle.model import CaseReply, TraceEntry

from test_compare import case, e


def test_lists_are_multisets_of_values_compared_like_any_value():
    assert same([{"a": 1, "b": 2}], [{"b": 2, "a": 1}])  # JSON key order is not a difference
    assert same([1, 2], [2, 1.0])                      # 1 == 1.0 outside a list, so inside one too
    assert same([["x", "y"]], [["y", "x"]])            # nested lists are multisets too
    assert not same([True], [1]) and not same([1], [True])
    assert not same(["a", "a"], ["a", "b"]) and not same(["a"], ["a", "a"])


def test_a_refusal_without_a_usable_index_fails_the_case_without_crashing():
    for args in ({"player": "alice", "reason": "r"}, {"at": "0", "player": "alice", "reason": "r"}):
        trace = [TraceEntry(moment=1, kind="rejected", args=args, clause="ijinden:X")]
        v = compare(case({"winner": None}), CaseReply(id="t.case", trace=trace))
        assert v.status == "fail" and v.divergence.what == "rejection"


def test_final_state_of_the_wrong_shape_fails_the_case_without_crashing():
    players = case({"final": {"players": {"alice": {"hand": 1}}}})
    for final in ({"players": {"alice": None}}, {"players": []}, {"players": None}):
        v = compare(players, CaseReply(id="t.case", trace=[e(1, "drew", player="alice", count=1)], final=final))
        assert v.status == "fail" and v.divergence.what == "final"
    cards = case({"final": {"cards": {"a": {"tapped": True}}}})
    for final in ({"cards": {"a": 5}}, {"cards": ["a"]}):
        v = compare(cards, CaseReply(id="t.case", trace=[], final=final))
        assert v.status == "fail" and v.divergence.what == "final"


def test_a_long_list_of_equal_values_that_differs_is_refused_without_trying_every_pairing():
    # a search through the 20! pairings of equal elements would never end
    assert not same(["x"] * 20 + ["y"], ["x"] * 21)
    assert same(["x"] * 20 + [{"a": 1}], [{"a": 1, "b": 2}] + ["x"] * 20)
