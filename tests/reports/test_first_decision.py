"""The first divergence is the first decision, state or event that differs, at every observation level: an
engine of level ``final`` that wrongly accepts decision 0 (an attack with an Ijin placed this turn, A1) is
told about decision 0 -- not about decision 1, which it then refused because the attack had already been
declared -- in the terminal, JUnit, ``explain`` and the report's data."""

from __future__ import annotations

import io
import json
import re

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


def test_explain_names_the_first_decision_that_differs():
    from oracle.explain import explain

    buf = io.StringIO()
    code = explain(CASE, engine=sick_engine.engine(), console=Console(file=buf, width=300, color_system=None))
    out = buf.getvalue()
    assert code == 1
    verdict = out[out.index("sick: fail"):]
    assert "decision 0 (alice: declare_attackers" in verdict and "decision 1 (alice" not in verdict
