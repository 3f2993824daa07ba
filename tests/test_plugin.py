"""The pytest plugin: golden cases as items, only with --tcg-engine; light to import; works with xdist."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

HARNESS = Path(__file__).resolve().parent / "harness"
TOY = HARNESS / "fixtures" / "cases" / "toy"

CONFTEST = f"""
import sys
from pathlib import Path
sys.path.insert(0, {str(HARNESS)!r})
from oracle import paths, registry
registry._GAMES["toy"] = "toygame"
paths.cases_dir = lambda: Path(__file__).parent / "cases"
"""


@pytest.fixture
def toy_project(pytester):
    shutil.copytree(TOY, pytester.path / "cases" / "toy")
    pytester.makeconftest(CONFTEST)
    # a golden case the engine gets wrong: the expected winner is bob
    text = (TOY / "basic.yaml").read_text().replace("winner: alice", "winner: bob", 1)
    (pytester.path / "cases" / "toy" / "basic.yaml").write_text(text)
    return pytester


def test_plugin_import_is_light():
    code = ("import sys, oracle.pytest_plugin as p; "
            "heavy = [m for m in ('pydantic', 'yaml', 'jinja2', 'rich', 'z3', 'hypothesis') if m in sys.modules]; "
            "print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_nothing_collected_without_the_option(toy_project):
    result = toy_project.runpytest_subprocess("cases")
    result.assert_outcomes()
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED


def test_cases_are_items_with_ruling_and_divergence(toy_project):
    result = toy_project.runpytest_subprocess("--tcg-engine", "reference", "cases", "-rA")
    result.assert_outcomes(passed=15, failed=1)
    result.stdout.fnmatch_lines([
        "*FAIL: toy.unblocked-wins (*basic.yaml:1)*",
        "*ruling (toy-rules): toy rules (harness test fixture)*",
        '*first divergence (winner): winner is "alice", expected "bob"*',
        "*PASSED cases/toy/refusals.yaml::toy.refuse.tapped-attacker*",
    ])


def test_select_by_feature_with_k(toy_project):
    result = toy_project.runpytest_subprocess("--tcg-engine", "reference", "cases", "-k", "unblocked and not wins")
    result.assert_outcomes(passed=6)
    result = toy_project.runpytest_subprocess("--tcg-engine", "reference", "cases", "--collect-only")
    assert len([line for line in result.outlines if "<CaseItem toy." in line]) == 16


def test_ruleset_option_skips(toy_project):
    result = toy_project.runpytest_subprocess("--tcg-engine", "reference", "--tcg-ruleset", "toy-2", "cases/toy/zz-more.yaml")
    result.assert_outcomes(passed=1, skipped=6)


def test_invalid_case_file_is_a_failing_item(toy_project):
    (toy_project.path / "cases" / "toy" / "bad.yaml").write_text("id: toy.bad\ngame: toy\ntitle: x\n")
    result = toy_project.runpytest_subprocess("--tcg-engine", "reference", "cases/toy/bad.yaml")
    assert result.parseoutcomes()["failed"] >= 1
    result.stdout.fnmatch_lines(["*invalid case file*bad.yaml:1: case toy.bad: field*"])


def test_works_with_xdist_and_a_cmd_engine(toy_project):
    pytest.importorskip("xdist")
    engine = f"cmd:{sys.executable} {HARNESS.parent / 'engines' / 'toy_engine.py'}"
    result = toy_project.runpytest_subprocess("-p", "xdist", "-n", "2", "--tcg-engine", engine, "cases")
    result.assert_outcomes(passed=15, failed=1)


def test_a_case_not_checkable_at_the_engine_level_is_skipped_with_the_level(toy_project):
    result = toy_project.runpytest_subprocess("--tcg-engine", "py:level_engines:final", "cases", "-rs")
    out = result.stdout.str()
    assert "not checkable at level final: events needs steps" in out
    o = result.parseoutcomes()  # the case expecting the wrong winner still fails at level final
    assert o["failed"] == 1 and o["skipped"] >= 1 and o["passed"] + o["skipped"] == 15
