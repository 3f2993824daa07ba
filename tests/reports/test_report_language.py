"""The report shows the wider case language: contains moments, unordered groups and absences are placed
where the comparison placed them, and the expected absences and state checks are listed."""

from __future__ import annotations

from oracle.model import TraceEntry
from oracle.reports.render import _expect
from oracle.reports.traces import align, expected_moments, expected_shown


def e(moment, kind, **args):
    return TraceEntry(moment=moment, kind=kind, args=args)


TRACE = [e(1, "drew", player="alice", count=1), e(2, "slept", card="a"), e(2, "slept", card="b"),
         e(3, "moved", card="x"), e(4, "moved", card="y"), e(5, "won", player="alice")]


def case(events, **expect):
    return {"game": "ijinden", "expect": {"events": events, **expect}}


DUMPED = case([
    {"events": [{"kind": "slept", "fields": {"card": "a"}}], "match": "contains"},
    {"absent": [{"kind": "drew", "fields": {"_primary": "alice"}}]},
    {"unordered": [{"events": [{"kind": "moved", "fields": {"card": "y"}}], "match": "equals"},
                   {"events": [{"kind": "moved", "fields": {"card": "x"}}], "match": "equals"}]},
    {"events": [{"kind": "won", "fields": {"_primary": "alice"}}], "match": "equals"},
], absent=[{"kind": "lost", "fields": {"_primary": "alice"}}],
    after=[{"decision": 0, "state": {"cards": {"a": {"sleeping": True}}}}])


def test_each_shown_moment_is_placed_where_the_comparison_placed_it():
    shown = expected_shown(DUMPED)
    assert [s.note for s in shown] == ["contains", "absent: must not happen here", "unordered group 2, 1 of 2",
                                       "unordered group 2, 2 of 2", ""]
    al = align(DUMPED, TRACE)
    assert al["match"] == [1, -1, 3, 2, 4] and al["first"] == -1


def test_a_broken_absence_is_the_first_divergence_shown_at_the_offending_moment():
    broken = case([{"drew": "alice"}, {"absent": [{"slept": "b"}]}, {"won": "alice"}])
    al = align(broken, TRACE)
    assert al["first"] == 1 and al["near"] == 1 and al["match"][0] == 0


def test_a_missing_group_member_is_the_first_divergence():
    missing = case([{"contains": [{"slept": "a"}]}, {"unordered": [{"moved": "x"}, {"moved": "z"}]}])
    al = align(missing, TRACE)
    assert al["first"] == 2 and al["match"][0] == 1


def test_the_expectations_block_lists_notes_absences_and_state_checks():
    out = _expect(DUMPED, expected_moments(DUMPED))
    assert out["notes"][1].startswith("absent") and out["notes"][0] == "contains"
    assert out["absent"] == [{"lost": {"_primary": "alice"}}]
    assert out["after"][0]["decision"] == 0


def test_explain_marks_contains_moments_absences_and_state_checks():
    from io import StringIO

    from rich.console import Console

    from oracle.explain import explain

    out = StringIO()
    code = explain("ijinden.step.block-sleeping-blocker-refused", console=Console(file=out, width=200))
    text = out.getvalue()
    assert code == 0 and "(contains)" in text
    assert "✓ after decision 0" in text and "✓ after decision 1" in text
    out = StringIO()
    assert explain("ijinden.step.resolution-abe-not-destroyed-no-legacy", console=Console(file=out, width=200)) == 0
    assert "between its neighbours" in out.getvalue() and "anywhere" in out.getvalue()
