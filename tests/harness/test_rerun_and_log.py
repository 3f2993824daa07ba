"""`run --last-failed RESULTS` reruns only what failed or erred there; `run --log FILE` streams one JSON line
per finished case (wptrunner's structured log), flushed, so a killed run leaves what it did."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from helpers import run_cli, toy_cmd
from oracle.cli import main

pytestmark = pytest.mark.usefixtures("toy")

BROKEN = ("toy.more.win-1", "toy.more.win-2")


def test_last_failed_reruns_only_the_failed_and_erred_cases(tmp_path, capsys):
    first = tmp_path / "first.json"
    code = main(["run", "--game", "toy", "--engine", toy_cmd("--misread", BROKEN[0], "--crash", BROKEN[1]),
                 "--results", str(first), "--report", "", "--quiet"])
    assert code == 1
    statuses = {c["id"]: c["status"] for c in json.loads(first.read_text())["cases"]}
    assert statuses[BROKEN[0]] == "fail" and statuses[BROKEN[1]] == "error"
    code, res = run_cli(tmp_path, "--engine", toy_cmd(), "--last-failed", str(first), name="again")
    assert code == 0 and sorted(c["id"] for c in res["cases"]) == sorted(BROKEN)
    assert "rerunning the 2 case(s) that failed or erred there" in capsys.readouterr().err


def test_lf_reads_out_results_json_by_default(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["run", "--game", "toy", "--engine", toy_cmd("--misread", BROKEN[0]), "--report", "",
                 "--quiet"]) == 1
    assert main(["run", "--game", "toy", "--engine", toy_cmd(), "--lf", "--report", "", "--quiet"]) == 0
    res = json.loads((tmp_path / "out" / "results.json").read_text())
    assert [c["id"] for c in res["cases"]] == [BROKEN[0]]


@pytest.mark.parametrize("content, words", [
    (None, "no such results file"),
    ("{not json", "cannot read results"),
    ('{"engine": {"name": "x"}, "cases": [], "summary": {}, "suite_version": "1", "started": "", "finished": ""}',
     "no case failed or erred there: nothing to rerun"),
])
def test_last_failed_without_failures_to_rerun_is_usage(tmp_path, capsys, content, words):
    path = tmp_path / "prev.json"
    if content is not None:
        path.write_text(content)
    code, _ = run_cli(tmp_path, "--last-failed", str(path))
    assert code == 2 and words in capsys.readouterr().err


def test_log_streams_suite_start_each_test_end_and_suite_end(tmp_path):
    log = tmp_path / "run.log"
    code, res = run_cli(tmp_path, "--engine", toy_cmd("--misread", BROKEN[0]), "--log", str(log))
    assert code == 1
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert lines[0]["action"] == "suite_start" and lines[0]["cases"] == 16
    ends = [x for x in lines if x["action"] == "test_end"]
    assert [x["id"] for x in ends] == [c["id"] for c in res["cases"]]
    assert [x["status"] for x in ends] == [c["status"] for c in res["cases"]]
    [failed] = [x for x in ends if x["status"] == "fail"]
    assert failed["id"] == BROKEN[0] and failed["message"]
    assert lines[-1]["action"] == "suite_end" and lines[-1]["summary"]["fail"] == 1
    assert lines[-1]["partial"] is False and all(isinstance(x["time"], int) for x in lines)


def test_log_names_the_baseline_expectation(tmp_path):
    base = tmp_path / "b.yaml"
    base.write_text(f"schema_version: 1\ncases:\n  {BROKEN[0]}: fail\n")
    log = tmp_path / "run.log"
    run_cli(tmp_path, "--engine", toy_cmd("--misread", BROKEN[0]), "--baseline", str(base), "--log", str(log))
    [entry] = [x for x in map(json.loads, log.read_text().splitlines()) if x.get("id") == BROKEN[0]]
    assert entry["expected"] == "fail" and entry["status"] == "fail"


def test_an_unwritable_log_is_usage_before_the_run(tmp_path, capsys):
    (tmp_path / "afile").write_text("")
    code, res = run_cli(tmp_path, "--log", str(tmp_path / "afile" / "run.log"))
    assert code == 2 and res is None and "--log" in capsys.readouterr().err


@pytest.mark.slow
def test_a_killed_run_leaves_the_log_of_the_cases_it_finished(tmp_path):
    """SIGKILL mid-run (a CI job past its time limit): no results file, but the log holds every case that
    finished before, each line whole."""
    from helpers import TOY_ORACLE

    log = tmp_path / "run.log"
    proc = subprocess.Popen([sys.executable, str(TOY_ORACLE), "run", "--game", "toy", "--engine",
                             toy_cmd("--hang", "toy.more.win-3"), "--timeout", "60", "--log", str(log),
                             "--results", str(tmp_path / "r.json"), "--report", "", "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not log.exists() or "toy.more.win-2" not in log.read_text()):
        time.sleep(0.05)
    time.sleep(0.3)
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=30)
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    ids = [x["id"] for x in lines if x["action"] == "test_end"]
    assert lines[0]["action"] == "suite_start" and "toy.more.win-2" in ids and "toy.more.win-3" not in ids
    assert lines[-1]["action"] != "suite_end" and not (tmp_path / "r.json").exists()
