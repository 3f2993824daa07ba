"""The report's alignment shortcut for plain expected moments (``reports.traces._match``) places them as the
comparison's search (``oracle.core.moments.match_items``) does, and misses where it misses: checked on every
golden case's expected moments against its reference trace, and against that trace with each moment taken out
in turn (so that most placements fail somewhere)."""

from __future__ import annotations

from oracle.core.moments import Miss, match_items, moments
from oracle.harness.engine import ReferenceEngine
from oracle.harness.request import make_request
from oracle.harness.runner import choose_ruleset
from oracle.loader import load_suite
from oracle.reports.traces import _items, _match, expected_shown


def _same(a, b) -> bool:
    if isinstance(a, Miss) or isinstance(b, Miss):
        return isinstance(a, Miss) and isinstance(b, Miss) and (a.index, a.why, a.after) == (b.index, b.why, b.after)
    return a.moments == b.moments


def test_the_shortcut_finds_what_the_search_finds():
    engine = ReferenceEngine()
    compared = misses = 0
    for lc in load_suite().cases:
        ruleset, skip = choose_ruleset(lc, None)
        if skip:
            continue
        items = _items(expected_shown(lc.case.model_dump(mode="json", exclude_none=True)))
        if not items or not all(type(i).__name__ == "MomentItem" for i in items):
            continue
        actual = moments(engine.run_case(make_request(lc.case, ruleset)).trace)
        for cut in [None, *range(len(actual))]:
            trace = actual if cut is None else actual[:cut] + actual[cut + 1:]
            fast, full = _match(items, trace), match_items(items, trace)
            assert _same(fast, full), (lc.case.id, cut, fast, full)
            compared += 1
            misses += isinstance(full, Miss)
    assert compared > 1000 and misses > 100  # both placements and misses were compared
