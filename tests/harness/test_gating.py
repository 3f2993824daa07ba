"""CI gating: baselines, JUnit XML, shards and merge."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from helpers import by_id, run_cli, toy_cmd
from oracle.cli import main
from oracle.harness.baseline import compare_baseline, load_baseline
from oracle.harness.merge import merge, read_results, split_engines
from oracle.harness.shards import in_shard, shard_of
from oracle.model import Results

pytestmark = pytest.mark.usefixtures("toy")

TIMING = ("started", "finished", "duration", "command")


def _strip(obj):
    """A results document without timing fields (and the command line, which names the shard)."""
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items() if k not in TIMING}
    if isinstance(obj, list):
        return [_strip(v) for v in obj]
    return obj


def test_baseline_gates_only_regressions(tmp_path, capsys):
    base = tmp_path / "baseline.yaml"
    # a baseline recorded with one known failure
    code, _ = run_cli(tmp_path, "--engine", toy_cmd("--misread", "toy.more.win-1"), "--baseline", str(base),
                      "--update-baseline")
    assert code == 0 and load_baseline(base).cases["toy.more.win-1"] == "fail"
    assert load_baseline(base).engine == "toy-engine"
    # the same failure again: exit 0 although a case fails
    code, res = run_cli(tmp_path, "--engine", toy_cmd("--misread", "toy.more.win-1"), "--baseline", str(base))
    assert code == 0 and res["summary"]["fail"] == 1
    capsys.readouterr()
    # one injected regression: exit 1, and the known failure now passing is listed
    code, _ = run_cli(tmp_path, "--engine", toy_cmd("--misread", "toy.unblocked-wins"), "--baseline", str(base))
    out = capsys.readouterr().out
    assert code == 1
    assert "REGRESSION toy.unblocked-wins: fail (baseline: pass)" in out
    assert "newly passing toy.more.win-1 (baseline: fail)" in out
    # without it: exit 0
    code, _ = run_cli(tmp_path, "--engine", toy_cmd(), "--baseline", str(base))
    assert code == 0 and "newly passing toy.more.win-1" in capsys.readouterr().out


def test_new_failing_case_and_error_are_regressions(tmp_path):
    code, res = run_cli(tmp_path, "--engine", toy_cmd("--misread", "toy.more.win-1", "--crash", "toy.more.win-2"))
    results = Results.model_validate(res)
    base = load_baseline_from({"toy.more.win-2": "fail"}, tmp_path)
    cmp = compare_baseline(results, base)
    assert ("toy.more.win-1", None, "fail") in cmp.regressions      # new case that fails
    assert ("toy.more.win-2", "fail", "error") in cmp.regressions   # fail -> error is worse
    assert len(cmp.regressions) == 2 and cmp.not_run == ()


def load_baseline_from(cases, tmp_path):
    p = tmp_path / "b.json"
    p.write_text(json.dumps({"schema_version": 1, "engine": "toy-engine", "cases": cases}))
    return load_baseline(p)


def test_baseline_errors_are_usage_errors(tmp_path, capsys):
    code, _ = run_cli(tmp_path, "--baseline", str(tmp_path / "missing.yaml"))
    assert code == 2 and "write it with --update-baseline" in capsys.readouterr().err
    bad = tmp_path / "bad.yaml"
    bad.write_text("schema_version: 1\ncases: {toy.end-turn: passed}\n")
    code, _ = run_cli(tmp_path, "--baseline", str(bad))
    assert code == 2 and "bad.yaml:2: case toy.end-turn: status 'passed' is not one of" in capsys.readouterr().err


def test_baseline_with_a_yaml_syntax_error_is_a_usage_error_naming_file_and_line(tmp_path):
    """The real command line, in a subprocess: a clear message and exit 2, not a traceback."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("schema_version: 1\nengine: reference\ncases:\n  toy.a: pass\n  toy.b: [pass\n")
    empty = tmp_path / "no-cases"  # no case to run: the run itself is fine, only the baseline is not
    empty.mkdir()
    proc = subprocess.run([sys.executable, "-m", "oracle", "run", "--cases", str(empty), "--results",
                           str(tmp_path / "r.json"), "--report", "", "--quiet", "--baseline", str(bad)],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert f"{bad}:6: YAML syntax error: did not find expected ',' or ']'" in proc.stderr
    assert "Traceback" not in proc.stderr
    # the same run with a well-formed baseline gets past the baseline: it is refused for testing nothing
    bad.write_text("schema_version: 1\nengine: reference\ncases:\n  toy.a: pass\n")
    proc = subprocess.run(proc.args, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 2 and "nothing was tested: no case files under" in proc.stderr, proc.stderr
    assert "1 baseline case(s) not run" in proc.stdout


def test_junit(tmp_path):
    junit = tmp_path / "j.xml"
    code, _ = run_cli(tmp_path, "--engine", toy_cmd("--misread", "toy.unblocked-wins", "--crash", "toy.end-turn"),
                      "--junit", str(junit), "--ruleset", "toy-1")
    root = ET.parse(junit).getroot()
    cases = {tc.get("name"): tc for tc in root.iter("testcase")}
    assert len(cases) == 16 and root.get("tests") == "16"
    assert (root.get("failures"), root.get("errors"), root.get("skipped")) == ("1", "1", "1")
    failure = cases["toy.unblocked-wins"].find("failure")
    assert failure.get("message").startswith('expected moment 1 [{"won": {"player": "alice"}}] was not found')
    assert "ruling (toy-rules): toy rules (harness test fixture)" in failure.text
    assert "exited (code 7)" in cases["toy.end-turn"].find("error").get("message")
    assert cases["toy.more.edition-2-only"].find("skipped") is not None
    assert cases["toy.bigger-blocker"].find("*") is None


def test_shards_partition_the_cases():
    ids = [f"case-{n}" for n in range(200)]
    for n in (1, 2, 4, 7):
        shards = [[c for c in ids if in_shard(c, i, n)] for i in range(1, n + 1)]
        assert sorted(sum(shards, [])) == sorted(ids)
        assert all(shard_of(c, n) == i for i, s in enumerate(shards, 1) for c in s)
    assert sum(in_shard("case-1", i, 4) for i in range(1, 5)) == 1


def test_four_merged_shards_equal_the_whole_run(tmp_path):
    broken = tmp_path / "toy" / "broken.yaml"  # a case-file error every shard repeats
    broken.parent.mkdir()
    broken.write_text("id: toy.broken\ngame: toy\n")
    from oracle import paths

    cases_args = ["--cases", str(paths.cases_dir() / "toy"), "--cases", str(broken)]
    whole_code, whole = run_cli(tmp_path, *cases_args, name="whole")
    parts = []
    for i in range(1, 5):
        _, part = run_cli(tmp_path, *cases_args, "--shard", f"{i}/4", name=f"shard{i}")
        assert 0 < len(part["cases"]) < len(whole["cases"])
        parts.append(tmp_path / f"shard{i}.json")
    out = tmp_path / "all.json"
    assert main(["merge", *map(str, reversed(parts)), "--out", str(out)]) == 0
    merged = json.loads(out.read_text())
    assert _strip(merged) == _strip(whole)
    ids = [c["id"] for c in merged["cases"]]
    assert ids[:2] == ["toy.broken", "toy.unblocked-wins"]  # the broken case once (all its errors), then case order
    assert whole_code == 2  # the broken file


def test_merge_of_two_engines_is_one_file_with_both(tmp_path):
    run_cli(tmp_path, name="ref")
    run_cli(tmp_path, "--engine", toy_cmd("--misread", "toy.unblocked-wins"), name="toy")
    out = tmp_path / "both.json"
    assert main(["merge", str(tmp_path / "ref.json"), str(tmp_path / "toy.json"), "--out", str(out)]) == 0
    (merged,) = read_results(out)
    parts = split_engines(merged)
    assert [p.engine.name for p in parts] == ["reference", "toy-engine"]
    assert [len(p.cases) for p in parts] == [16, 16] and merged.summary["pass"] == 31
    assert by_id(parts[1].model_dump(mode="json"))["toy.unblocked-wins"]["status"] == "fail"
    # merging the merged file with itself changes nothing; the report renders it
    again = merge([merged, merged])
    assert again.model_dump(exclude={"started", "finished"}) == merged.model_dump(exclude={"started", "finished"})
    assert main(["report", str(out), "--out", str(tmp_path / "both.html")]) == 0


def test_merge_refuses_conflicting_results(tmp_path, capsys):
    run_cli(tmp_path, name="a")
    run_cli(tmp_path, "--engine", "py:toy_py_engine:make", name="b")
    a = json.loads((tmp_path / "a.json").read_text())
    a["cases"][0]["status"] = "fail"
    (tmp_path / "c.json").write_text(json.dumps(a))
    assert main(["merge", str(tmp_path / "a.json"), str(tmp_path / "c.json"), "--out", str(tmp_path / "o.json")]) == 2
    assert "toy.unblocked-wins is in" in capsys.readouterr().err
