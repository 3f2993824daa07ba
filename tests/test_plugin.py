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


def test_catalogs_card_pools_and_block_counts_are_not_case_files(toy_project):
    """block_counts.yaml (the z3 checks' board counts) was collected as a case file: 8 bogus failures."""
    from oracle import paths

    shutil.copy(paths.cases_dir() / "ijinden" / "block_counts.yaml", toy_project.path / "cases" / "toy")
    result = toy_project.runpytest_subprocess("--tcg-engine", "reference", "cases")
    result.assert_outcomes(passed=15, failed=1)


def test_builtin_names_the_installed_suite(toy_project):
    result = toy_project.runpytest_subprocess("--tcg-engine", "reference", "builtin", "--collect-only", "-q")
    assert len([line for line in result.outlines if "::toy." in line]) == 16, result.outlines


@pytest.mark.parametrize("option, words", [
    (["--tcg-timeout", "nan"], "--tcg-timeout nan: give seconds, a finite number 0 or more"),
    (["--tcg-timeout", "-1"], "--tcg-timeout -1: give seconds"),
    (["--tcg-ruleset", "nosuch"], "--tcg-ruleset 'nosuch': unknown ruleset; the rulesets are"),
    (["--tcg-baseline", "missing.yaml"], "--tcg-baseline: baseline missing.yaml does not exist"),
])
def test_bad_options_are_usage_errors_as_for_run(toy_project, option, words):
    result = toy_project.runpytest_subprocess("--tcg-engine", "reference", *option, "cases")
    assert result.ret == 2
    assert words in result.stdout.str() + result.stderr.str()


BASELINE = """\
schema_version: 1
engine: reference
cases:
  toy.unblocked-wins: {status: fail, reason: "the fixture expects bob", bug: "https://example.org/issues/3"}
  toy.bigger-blocker: {status: fail, reason: "was broken"}
  toy.end-turn: pass
"""


def test_a_baselined_failure_is_xfail_with_its_reason_and_a_fixed_one_xpass(toy_project):
    (toy_project.path / "base.yaml").write_text(BASELINE)
    result = toy_project.runpytest_subprocess("--tcg-engine", "reference", "--tcg-baseline", "base.yaml", "cases",
                                              "-rxX")
    result.assert_outcomes(passed=14, xfailed=1, xpassed=1)
    assert result.ret == 0  # a known failure no longer fails the session; XPASS is not strict by default
    result.stdout.fnmatch_lines([
        "*XFAIL cases/toy/basic.yaml::toy.unblocked-wins*expected fail: the fixture expects bob "
        "(https://example.org/issues/3)*",
        "*XPASS cases/toy/basic.yaml::toy.bigger-blocker*expected fail: was broken*",
    ])
    strict = toy_project.runpytest_subprocess("--tcg-engine", "reference", "--tcg-baseline", "base.yaml",
                                              "--tcg-baseline-strict", "cases")
    strict.assert_outcomes(passed=14, xfailed=1, failed=1)


def test_a_failure_worse_than_its_baseline_still_fails(toy_project):
    """An error where the baseline expects fail is a regression; a fail where it expects error is not."""
    (toy_project.path / "base.yaml").write_text(
        "schema_version: 1\ncases:\n  toy.unblocked-wins: error\n")
    result = toy_project.runpytest_subprocess("--tcg-engine", "reference", "--tcg-baseline", "base.yaml", "cases")
    result.assert_outcomes(passed=15, xfailed=1)
    engine = f"cmd:{sys.executable} {HARNESS.parent / 'engines' / 'toy_engine.py'} --crash toy.end-turn"
    (toy_project.path / "base.yaml").write_text("schema_version: 1\ncases:\n  toy.end-turn: fail\n")
    result = toy_project.runpytest_subprocess("--tcg-engine", engine, "--tcg-baseline", "base.yaml", "cases")
    result.assert_outcomes(passed=14, failed=2)


@pytest.mark.slow
def test_the_builtin_suite_is_green_on_the_reference():
    """`pytest --tcg-engine reference` over the shipped cases, as the README shows it: no bogus item."""
    from oracle import paths

    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:randomly", "-p", "no:xdist", "-rfE",
                           "--tcg-engine", "reference", str(paths.cases_dir())],
                          capture_output=True, text=True, cwd=paths.cases_dir().parent)
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert " passed" in proc.stdout and "failed" not in proc.stdout and "block_counts" not in proc.stdout
