"""Coverage over every edition of a game: ``run --ruleset all`` plays each case under each edition it holds
for, and one report counts a clause covered when a case asserted it under any edition -- every
scenario-testable clause of Magic (both editions' clauses) and Duel Masters, where the default run (each case
under one edition) leaves the other edition's clauses uncovered."""

from __future__ import annotations

import pytest

from oracle.harness.engine import ReferenceEngine
from oracle.harness.runner import run_suite
from oracle.loader import load_catalog, load_suite
from oracle.reports import render


@pytest.fixture(scope="module")
def suite():
    return load_suite()


def _coverage(results) -> dict[str, tuple[int, int]]:
    return {c.game: (c.covered, len(c.testable)) for c in render.build(results)["coverage"]}


def _testable(game: str) -> int:
    return sum(1 for c in load_catalog(game).clauses if c.testable)


def test_every_edition_in_one_run(suite):
    results = run_suite(ReferenceEngine(), suite, games=["mtg", "duelmasters"], ruleset="all")
    cov = _coverage([results])
    assert cov["mtg"] == (_testable("mtg"), _testable("mtg")) and _testable("mtg") == 91  # 88, then 603.6c, 603.10a (put_into_graveyard), 603.4
    assert cov["duelmasters"] == (_testable("duelmasters"), 51)  # 44, CR507.1b (blocks_if_able), CR506.3b, CR603.2f,
    # CR701.26a (革命チェンジ), CR301.1, CR112.2a, CR801.1 (summon)
    by_case: dict[str, set[str]] = {}
    for c in results.cases:
        by_case.setdefault(c.id, set()).add(c.ruleset)
    assert all(by_case[lc.case.id] == set(lc.case.rulesets) for lc in suite.cases if lc.case.game == "mtg")
    from oracle.cli import _coverage_line

    line = _coverage_line(results)
    assert "mtg 91/91 over 2 editions" in line and "duelmasters 51/51 over 2 editions" in line


def test_the_default_run_alone_leaves_the_other_edition_uncovered(suite):
    default = run_suite(ReferenceEngine(), suite, games=["mtg"])
    covered, testable = _coverage([default])["mtg"]
    assert covered < testable  # the cr-20260807 clauses of cases run under cr-20231117


def test_runs_under_each_ruleset_given_to_the_report_join(suite):
    runs = [run_suite(ReferenceEngine(), suite, games=["mtg"], ruleset=rs) for rs in ("cr-20231117", "cr-20260807")]
    ctx = render.build(runs)
    assert len(ctx["runs"]) == 1 and not ctx["histories"]
    (cov,) = ctx["coverage"]
    assert (cov.covered, len(cov.testable)) == (91, 91) and cov.editions == ["cr-20231117", "cr-20260807"]
    cell = ctx["summary"][-1]["cells"][0]
    n_cases = sum(1 for lc in suite.cases if lc.case.game == "mtg")
    assert cell["total"] == n_cases and cell["counts"]["pass"] == n_cases  # one case, its editions joined


def test_the_default_run_and_one_editions_run_given_to_the_report_join(suite):
    """The default run (most cases under cr-20231117, a few under cr-20260807) and a run --ruleset cr-20260807:
    one column and no history (no false pass -> skip changes); the editions' clauses all covered."""
    default = run_suite(ReferenceEngine(), suite, games=["mtg"])
    other = run_suite(ReferenceEngine(), suite, games=["mtg"], ruleset="cr-20260807")
    ctx = render.build([default, other])
    assert len(ctx["runs"]) == 1 and not ctx["histories"]
    (cov,) = ctx["coverage"]
    assert (cov.covered, len(cov.testable)) == (91, 91)
    assert {c.status for c in ctx["runs"][0].cases.values()} == {"pass"}
