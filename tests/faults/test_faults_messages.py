"""Messages a new user meets first (issue 14, "found trying it as a new user"): a missing field is called
missing, moment numbers say whose they are, an exact mismatch shows both sides."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "core"))

from test_compare import case, e

from oracle.harness.compare import compare
from oracle.model import CaseReply


def test_a_missing_final_field_is_called_missing_not_null():
    v = compare(case({"final": {"cards": {"a": {"sleeping": False}}}}),
                CaseReply(id="t.case", trace=[], final={"cards": {"a": {"zone": "battlefield"}}}))
    assert "final cards.a.sleeping is missing" in v.divergence.message and "null" not in v.divergence.message
    v = compare(case({"final": {"cards": {"a": {"sleeping": False}}}}),
                CaseReply(id="t.case", trace=[], final={"cards": {"a": {"sleeping": None}}}))
    assert "final cards.a.sleeping is null, expected false" in v.divergence.message


def test_moment_numbers_say_whose_they_are():
    expect = {"events": [{"drew": {"player": "alice", "count": 1}}, {"won": "alice"}]}
    trace = [e(10, "drew", player="alice", count=1), e(11, "lost", player="bob")]
    msg = compare(case(expect), CaseReply(id="t.case", trace=trace)).divergence.message
    assert msg.startswith("expected moment 1 ") and "after the engine's moment 10" in msg
    assert "where expected moment 0 matched" in msg


def test_an_exact_mismatch_shows_both_moments():
    expect = {"events": [{"drew": {"player": "alice", "count": 1}}], "exact": True}
    trace = [e(7, "drew", player="alice", count=2)]
    msg = compare(case(expect), CaseReply(id="t.case", trace=trace)).divergence.message
    assert '"count": 1' in msg and '"count": 2' in msg and "the engine's moment 7" in msg
