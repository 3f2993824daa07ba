"""The first divergence is the first decision, state or event that differs, at every observation level: an
engine of level ``final`` that wrongly accepts decision 0 (an attack with an Ijin placed this turn, A1) is
told about decision 0 -- not about decision 1, which it then refused because the attack had already been
declared -- in the terminal, JUnit, ``explain`` and the report's data."""

from __future__ import annotations

import io
import json
import re

import pytest
from rich.console import Console

import sick_engine  # tests/reports is on sys.path: see conftest.py

CASE = "ijinden.refuse.attacker-placed-this-turn"  # script: 0 attack a1+a2 (refused: a1 placed), 1 attack a2


def _blob(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', html, re.S)
    assert m
    return json.loads(m.group(1))


def _names_decision_0(message: str) -> None:
    assert message.startswith("decision 0 "), message
    assert "attacker_placed_this_turn" in message and "accepted" in message
    assert "decision 1" not in message


def test_the_wrongly_accepted_decision_is_the_first_divergence(tmp_path, capsys):
    from oracle.cli import main

    results, junit, report = tmp_path / "r.json", tmp_path / "j.xml", tmp_path / "r.html"
    code = main(["run", "--engine", "py:sick_engine:engine", "-k", CASE, "--results", str(results),
                 "--junit", str(junit), "--report", str(report)])
    assert code == 1
    out = " ".join(capsys.readouterr().out.split())  # the terminal wraps long lines
    assert f"fail {CASE}: decision 0 (alice: declare_attackers" in out
    assert "decision 1 (alice" not in out
    (case,) = json.loads(results.read_text(encoding="utf-8"))["cases"]
    assert case["status"] == "fail" and case["level"] == "final"
    _names_decision_0(case["divergence"]["message"])
    assert case["divergence"]["index"] == 0
    xml = junit.read_text(encoding="utf-8")
    assert 'message="decision 0 (alice: declare_attackers' in xml and "unexpected_decision" not in xml
    (shown,) = _blob(report.read_text(encoding="utf-8"))["cases"]
    _names_decision_0(shown["runs"][0]["div"]["message"])
    # the decisions it did send, beside what the case expects: decision N, who, what, expected, engine's outcome
    assert shown["runs"][0]["dec"] == [
        [0, "alice", 'declare_attackers ["a1", "a2"]', "refused (attacker_placed_this_turn)", "accepted", True],
        [1, "alice", 'declare_attackers ["a2"]', "accepted", "refused (unexpected_decision)", True],
        [2, "bob", "declare_blockers {}", "accepted", "accepted", False],
        [3, "bob", "choose_attacker a2", "accepted", "accepted", False]]


def test_explain_names_the_first_decision_that_differs():
    from oracle.explain import explain

    buf = io.StringIO()
    code = explain(CASE, engine=sick_engine.engine(), console=Console(file=buf, width=300, color_system=None))
    out = buf.getvalue()
    assert code == 1
    verdict = out[out.index("sick: fail"):]
    assert "decision 0 (alice: declare_attackers" in verdict and "decision 1 (alice" not in verdict
    table = out[out.index("Decisions · what the case expects and what sick reported"):out.index("sick: fail")]
    assert re.search(r'│ 0 +│ alice +│ declare_attackers \["a1", "a2"\] +│ refused \(attacker_placed_this_turn\) +│ '
                     r'✗ accepted', table), table
    assert re.search(r"│ 1 +│ alice +│ .*│ accepted +│ ✗ refused \(unexpected_decision\)", table)
    assert "not checkable at level final" in table


@pytest.mark.browser
@pytest.mark.slow
def test_the_report_draws_the_decisions_and_no_red_events(tmp_path):
    """In Chromium: the case of an engine that sends no trace shows its decisions table, and its expected
    events as not checkable at its level -- none painted "not in the trace"."""
    from oracle.cli import main
    from oracle.reports.browser import dump_dom, find_chromium

    if find_chromium() is None:
        pytest.skip("chromium not found")
    report = tmp_path / "r.html"
    assert main(["run", "--engine", "py:sick_engine:engine", "-k", CASE, "--results", str(tmp_path / "r.json"),
                 "--report", str(report), "--quiet"]) == 1
    dom = dump_dom(report, f"case={CASE}")
    start = dom.index('<tr class="detail"')
    detail = dom[start:dom.index('<button id="more"', start)]  # the case's detail, not the page's script
    assert '<table class="trace decisions">' in detail and "engine (level final)" in detail
    assert re.search(r'<tr class="diverged"><td class="m">0</td><td>alice</td>.*?✗ </span>accepted</td>', detail)
    assert "not checkable at level final" in detail and "not in the trace" not in detail


def test_a_state_that_differed_before_the_decision_comes_first():
    """Level checkpoints: the state after decision 1 already differs from the case's; decision 2 is then refused.
    The first divergence is the state after decision 1, not the later refusal."""
    from oracle.harness.compare import compare
    from oracle.loader import load_suite
    from oracle.model import CaseReply, Checkpoint, DecisionOutcome, EngineInfo, Hello, StateCheck

    (lc,) = [lc for lc in load_suite().cases if lc.case.id == CASE]
    after = StateCheck(decision=1, state={"cards": {"a2": {"attacker": True}}})
    case = lc.case.model_copy(update={"expect": lc.case.expect.model_copy(update={"after": [after]})})
    reply = CaseReply(id=CASE, winner="alice", final={},
                      decisions=[DecisionOutcome(at=0, outcome="refused", reason="attacker_placed_this_turn"),
                                 DecisionOutcome(at=1, outcome="accepted"),
                                 DecisionOutcome(at=2, outcome="refused", reason="unexpected_decision"),
                                 DecisionOutcome(at=3, outcome="accepted")],
                      checkpoints=[Checkpoint(after=n, state={"cards": {"a2": {"attacker": False}}})
                                   for n in range(-1, 4)])
    hello = Hello(engine=EngineInfo(name="cp"), games=["ijinden"], observation="checkpoints")
    got = compare(case, reply, hello)
    assert got.status == "fail" and got.divergence.what == "after" and got.divergence.index == 1, got.divergence
    assert "after decision 1" in got.divergence.message
