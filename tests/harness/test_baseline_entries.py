"""Baseline entries with a reason and a bug (WPT's ``expected: FAIL`` with a bug link): read, kept by updates,
shown as expected failures in the summary and JUnit; updates refuse another engine's file and merge with
what a concurrent run wrote."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from helpers import run_cli, toy_cmd
from oracle.baseline import Baseline, Expectation, dump_baseline, load_baseline
from oracle.errors import BaselineError
from oracle.model import Results

pytestmark = pytest.mark.usefixtures("toy")

KNOWN = "toy.more.win-1"
BUG = "https://example.org/toy-engine/issues/7"
TOY_ORACLE = Path(__file__).resolve().parent.parent / "engines" / "toy_oracle.py"


def _write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_an_entry_may_be_a_status_or_a_mapping_with_reason_and_bug(tmp_path):
    base = load_baseline(_write(tmp_path / "b.yaml", f"""\
        schema_version: 1
        engine: toy-engine
        cases:
          toy.unblocked-wins: pass
          {KNOWN}: {{status: fail, reason: "counts the win twice", bug: "{BUG}"}}
          toy.more.win-2:
            status: error
    """))
    assert base.cases == {"toy.unblocked-wins": "pass", KNOWN: "fail", "toy.more.win-2": "error"}
    assert base.expectation(KNOWN) == Expectation("fail", "counts the win twice", BUG)
    assert base.expectation("toy.unblocked-wins") == Expectation("pass")
    assert base.expectation("toy.more.win-2") == Expectation("error")
    assert base.expectation("toy.not-listed") is None
    assert base.expected_failure(KNOWN, "fail") == base.expectation(KNOWN)
    assert base.expected_failure(KNOWN, "error") is None and base.expected_failure("toy.unblocked-wins", "pass") is None
    assert Expectation("fail", "counts the win twice", BUG).describe() == f"expected fail: counts the win twice ({BUG})"


@pytest.mark.parametrize("entry, message", [
    ("{status: fail, why: x}", r"b\.yaml:4: case toy\.a: unknown key\(s\) why"),
    ("{reason: x}", r"b\.yaml:4: case toy\.a: the entry has no status"),
    ("{status: failed, reason: x}", r"b\.yaml:4: case toy\.a: status 'failed' is not one of"),
    ("{status: fail, reason: 3}", r"b\.yaml:4: case toy\.a: reason must be a non-empty string, got 3"),
    ("{status: fail, bug: ''}", r"b\.yaml:4: case toy\.a: bug must be a non-empty string"),
])
def test_a_bad_entry_is_a_located_error(tmp_path, entry, message):
    path = _write(tmp_path / "b.yaml", f"schema_version: 1\ncases:\n  toy.b: pass\n  toy.a: {entry}\n")
    with pytest.raises(BaselineError, match=message):
        load_baseline(path)


def test_an_update_keeps_reason_and_bug_while_the_status_stays(tmp_path, capsys):
    path = _write(tmp_path / "b.yaml", f"""\
        schema_version: 1
        engine: toy-engine
        cases:
          {KNOWN}: {{status: fail, reason: "counts the win twice", bug: "{BUG}"}}
          toy.more.win-2: {{status: fail, reason: "was broken"}}
    """)
    code, _ = run_cli(tmp_path, "--engine", toy_cmd("--misread", KNOWN), "--baseline", str(path),
                      "--update-baseline")
    assert code == 0
    base = load_baseline(path)
    assert base.expectation(KNOWN) == Expectation("fail", "counts the win twice", BUG)  # still failing: kept
    assert base.expectation("toy.more.win-2") == Expectation("pass")  # passes now: the reason no longer holds
    assert "toy.more.win-2 changed status: its reason/bug were dropped" in capsys.readouterr().out
    for suffix in (".json", ".yaml"):  # what is written reads back the same, in either format
        other = tmp_path / f"again{suffix}"
        dump_baseline(Results.model_validate(json.loads((tmp_path / "results.json").read_text())), other, keep=base)
        assert load_baseline(other) == base


def test_an_expected_failure_is_said_with_its_reason_and_is_no_junit_failure(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")  # the summary's lines unwrapped
    path = _write(tmp_path / "b.yaml", f"""\
        schema_version: 1
        cases:
          {KNOWN}: {{status: fail, reason: "counts the win twice", bug: "{BUG}"}}
          toy.more.win-2: {{status: fail, reason: "was broken", bug: "{BUG}/2"}}
    """)
    junit = tmp_path / "j.xml"
    out = tmp_path / "r.json"
    from oracle.cli import main

    code = main(["run", "--game", "toy", "--engine", toy_cmd("--misread", KNOWN), "--baseline", str(path),
                 "--results", str(out), "--report", "", "--junit", str(junit)])
    text = capsys.readouterr().out
    assert code == 0
    assert f"expected fail {KNOWN}: expected fail: counts the win twice ({BUG})" in text
    assert f"newly passing toy.more.win-2 (baseline: fail; expected fail: was broken ({BUG}/2))" in text
    assert "1 expected failure(s)" in text
    root = ET.parse(junit).getroot()
    assert root.get("failures") == "0" and root.get("errors") == "0"
    [tc] = [t for t in root.iter("testcase") if t.get("name") == KNOWN]
    assert tc.find("failure") is None
    skipped = tc.find("skipped")
    assert skipped.get("type") == "expected-failure"
    assert skipped.get("message") == f"expected fail: counts the win twice ({BUG})"
    assert "first divergence" in skipped.text  # the failure's detail is kept
    [fixed] = [t for t in root.iter("testcase") if t.get("name") == "toy.more.win-2"]
    assert fixed.find("skipped") is None and fixed.find("failure") is None
    [prop] = fixed.iter("property")
    assert prop.get("name") == "tcg-oracle.baseline" and "newly passing" in prop.get("value")


def test_merge_junit_marks_the_baselines_expected_failures_as_run_does(tmp_path, capsys):
    """Shards merged on a CI fleet: `merge --junit --baseline` writes an expected failure as <skipped
    type="expected-failure">, not as a <failure> (it wrote every fail as a failure)."""
    from oracle.cli import main

    path = _write(tmp_path / "b.yaml", f"""\
        schema_version: 1
        cases:
          {KNOWN}: {{status: fail, reason: "counts the win twice", bug: "{BUG}"}}
    """)
    shards = []
    for i in (1, 2):
        shards.append(tmp_path / f"s{i}.json")
        assert main(["run", "--game", "toy", "--engine", toy_cmd("--misread", KNOWN), "--shard", f"{i}/2",
                     "--results", str(shards[-1]), "--report", "", "--quiet"]) in (0, 1)
    junit = tmp_path / "j.xml"
    assert main(["merge", *map(str, shards), "--out", str(tmp_path / "m.json"), "--junit", str(junit),
                 "--baseline", str(path)]) == 0
    capsys.readouterr()
    root = ET.parse(junit).getroot()
    assert root.get("failures") == "0"
    [tc] = [t for t in root.iter("testcase") if t.get("name") == KNOWN]
    assert tc.find("failure") is None and tc.find("skipped").get("type") == "expected-failure"


def test_update_refuses_the_baseline_of_another_engine_unless_told(tmp_path, capsys):
    path = _write(tmp_path / "b.yaml", f"schema_version: 1\nengine: other-engine\ncases:\n  {KNOWN}: fail\n")
    before = path.read_text()
    code, _ = run_cli(tmp_path, "--engine", toy_cmd(), "--baseline", str(path), "--update-baseline")
    err = capsys.readouterr().err
    assert code == 2 and path.read_text() == before
    assert "recorded for engine other-engine, this run is toy-engine: not updated" in err
    assert "--allow-engine-change" in err
    code, _ = run_cli(tmp_path, "--engine", toy_cmd(), "--baseline", str(path), "--update-baseline",
                      "--allow-engine-change")
    assert code == 0 and "relabelled from engine other-engine to toy-engine" in capsys.readouterr().out
    base = load_baseline(path)
    assert base.engine == "toy-engine" and base.cases[KNOWN] == "pass"


SLOW_WRITER = """
import sys, time
from oracle import baseline
real = baseline.write_atomic
def slow(path, data):  # the window between reading the baseline and writing it, made wide
    time.sleep(1.5)
    return real(path, data)
baseline.write_atomic = slow
__file__ = {oracle!r}
exec(compile(open({oracle!r}).read(), {oracle!r}, "exec"))
"""


@pytest.mark.slow
def test_two_concurrent_updates_with_different_k_keep_both(tmp_path):
    """Each run, under the baseline's lock, merges into the file as the other left it."""
    path = tmp_path / "b.yaml"
    code, _ = run_cli(tmp_path, "--engine", toy_cmd("--misread", "toy.more.win-1", "--misread", "toy.more.win-2"),
                      "--baseline", str(path), "--update-baseline")
    assert code == 0 and load_baseline(path).cases["toy.more.win-1"] == "fail"
    script = tmp_path / "slow.py"
    script.write_text(SLOW_WRITER.format(oracle=str(TOY_ORACLE)), encoding="utf-8")
    procs = [subprocess.Popen([sys.executable, str(script), "run", "--game", "toy", "--engine", toy_cmd(), "-k", k,
                               "--baseline", str(path), "--update-baseline", "--results", str(tmp_path / f"{n}.json"),
                               "--report", "", "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for n, k in enumerate(("win-1", "win-2"))]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    cases = load_baseline(path).cases
    assert cases["toy.more.win-1"] == "pass" and cases["toy.more.win-2"] == "pass"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("b")) == ["b.yaml"]  # no lock file left


def test_old_positional_baselines_still_compare():
    assert Baseline("x", {"a": "pass"}) == Baseline("x", {"a": "pass"}, {})
