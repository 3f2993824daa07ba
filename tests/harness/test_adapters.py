"""Engine selection and robustness: each broken engine costs one case, or stops the run with exit 3."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from helpers import TOY_ENGINE, TOY_ORACLE, by_id, run_cli, toy_cmd, toy_serve_cmd
from oracle.core.errors import EngineStartError
from oracle.harness.adapters import PythonEngine, SubprocessEngine, make_engine
from oracle.harness.engine import ReferenceEngine

pytestmark = pytest.mark.usefixtures("toy")


def test_specs():
    assert isinstance(make_engine("reference"), ReferenceEngine)
    assert isinstance(make_engine('cmd:"prog" --flag "a b"'), SubprocessEngine)
    assert make_engine('cmd:"prog" --flag "a b"').argv == ["prog", "--flag", "a b"]
    for bad in ("nonsense", "cmd:", "py:nocolon", "zz:abc"):
        with pytest.raises(ValueError):
            make_engine(bad)


def test_an_unknown_mutant_is_named(tmp_path, capsys):
    code, _ = run_cli(tmp_path, "--engine", "mutant:no-d2")
    err = capsys.readouterr().err
    assert code == 2 and "no mutant 'no-d2'" in err and "tcg-oracle mutants --list" in err


def test_py_engine(tmp_path):
    engine = make_engine("py:toy_py_engine:make")
    assert isinstance(engine, PythonEngine) and engine.hello().engine.name == "toy-py"
    code, res = run_cli(tmp_path, "--engine", "py:toy_py_engine:make")
    assert code == 0 and res["summary"]["pass"] == 16


def test_py_engine_hang_costs_one_case_and_a_new_instance_plays_on(tmp_path):
    code, res = run_cli(tmp_path, "--engine", "py:toy_py_engine:make_hanging", "--timeout", "0.5")
    hung = by_id(res)["toy.bigger-blocker"]
    assert code == 1 and hung["status"] == "error" and "timeout: no reply within 0.5 s" in hung["error"]
    assert res["summary"] == {"pass": 15, "fail": 0, "error": 1, "skip": 0}


def test_a_case_an_adapter_cannot_set_up_is_a_skip_with_the_reason(tmp_path):
    # oracle.engines.kit: CannotSetUp is neither a breakage (error) nor a rules answer (fail)
    code, res = run_cli(tmp_path, "--engine", "py:toy_py_engine:make_cannot_set_up")
    skipped = by_id(res)["toy.bigger-blocker"]
    assert code == 0 and skipped["status"] == "skip"
    assert skipped["skip_reason"] == ("cannot be set up on toy-py: toy.bigger-blocker: the engine has no zone "
                                      "'outside_game' to set a card up in")
    assert res["summary"] == {"pass": 15, "fail": 0, "error": 0, "skip": 1}


def test_py_engine_that_cannot_import(tmp_path, capsys):
    code, _ = run_cli(tmp_path, "--engine", "py:no_such_module_here:make")
    assert code == 3 and "cannot import 'no_such_module_here'" in capsys.readouterr().err


def test_cmd_engine_passes_and_is_one_process(tmp_path):
    engine = make_engine(toy_cmd())
    try:
        engine.hello()
        pid = engine._proc.pid
        from oracle.harness.runner import run_suite
        from oracle.loader import load_suite

        res = run_suite(engine, load_suite(None, games=["toy"]), timeout=10)
        assert res.summary["pass"] == 16 and engine._proc.pid == pid and engine.restarts == 0
    finally:
        engine.close()
    assert engine._proc is None


PIPELINE = pytest.mark.parametrize("pipeline", [[], ["--pipeline"]], ids=["one-at-a-time", "pipelined"])


def test_a_pipelining_engine_gets_requests_ahead_of_its_replies(tmp_path):
    """An engine that answers only once 4 requests are waiting: a harness writing one request at a time
    waits for ever (timeout); capability ``pipeline`` keeps up to 8 in flight, so every case passes, in
    order, on one process."""
    engine = make_engine(toy_cmd("--pipeline", "--wait-for", "4"))
    try:
        assert engine.window == 8
        pid = engine._proc.pid
        from oracle.harness.runner import run_suite
        from oracle.loader import load_suite

        res = run_suite(engine, load_suite(None, games=["toy"]), timeout=10)
        assert res.summary["pass"] == 16 and engine._proc.pid == pid and engine.restarts == 0
        assert [c.order for c in res.cases] == sorted(c.order for c in res.cases)
    finally:
        engine.close()
    code, res = run_cli(tmp_path, "--engine", toy_cmd("--wait-for", "4"), "--timeout", "1", name="no-pipeline")
    assert res["summary"]["error"] >= 1 and "timeout" in res["cases"][0]["error"]


@PIPELINE
def test_hang_costs_one_case_and_restarts(tmp_path, pipeline):
    code, res = run_cli(tmp_path, "--engine", toy_cmd("--hang", "toy.bigger-blocker", *pipeline), "--timeout", "1")
    cases = by_id(res)
    hung = cases["toy.bigger-blocker"]
    assert code == 1 and hung["status"] == "error"
    assert "timeout: no reply within 1 s" in hung["error"] and "thinking hard" in hung["error"]
    assert res["summary"] == {"pass": 15, "fail": 0, "error": 1, "skip": 0}


@PIPELINE
def test_crash_costs_one_case_with_stderr_tail(tmp_path, pipeline):
    code, res = run_cli(tmp_path, "--engine", toy_cmd("--crash", "toy.equal-trade", "--crash", "toy.more.win-3",
                                                      *pipeline))
    cases = by_id(res)
    for cid in ("toy.equal-trade", "toy.more.win-3"):
        assert cases[cid]["status"] == "error"
        assert "exited (code 7) during the case" in cases[cid]["error"]
        assert f"segmentation fault in case {cid}" in cases[cid]["error"]
    assert res["summary"]["pass"] == 14 and code == 1


@pytest.mark.parametrize("flag, says", [
    ("--garbage", "malformed JSON: 'oops, not JSON: <xxx"),
    ("--wrong-id", "answered case 'other-case' while case 'toy.end-turn' was asked"),
    ("--invalid", "does not match the protocol (field trace"),
])
@PIPELINE
def test_protocol_breach_costs_one_case(tmp_path, flag, says, pipeline):
    code, res = run_cli(tmp_path, "--engine", toy_cmd(flag, "toy.end-turn", *pipeline))
    broken = by_id(res)["toy.end-turn"]
    assert broken["status"] == "error" and says in broken["error"]
    assert len(broken["error"]) < 800  # the offending bytes are trimmed
    assert res["summary"]["pass"] == 15 and code == 1


def test_misreading_is_a_failure_with_divergence(tmp_path):
    code, res = run_cli(tmp_path, "--engine", toy_cmd("--misread", "toy.unblocked-wins"))
    case = by_id(res)["toy.unblocked-wins"]
    assert code == 1 and case["status"] == "fail"
    assert case["divergence"]["message"].startswith('expected moment 1 [{"won": {"player": "alice"}}] was not found')


@pytest.mark.parametrize("flags, says", [
    (["--bad-hello"], "first line is not JSON: 'Toy engine 1.0 ready'"),
    (["--old-protocol"], "protocol version 99"),
    (["--no-hello"], "exited (code 4) before its hello line\n--- engine stderr (tail) ---\n"
                     "toy_engine: cannot find my rules file"),
])
def test_failed_handshake_exits_3(tmp_path, capsys, flags, says):
    code, res = run_cli(tmp_path, "--engine", toy_cmd(*flags))
    assert code == 3 and says in capsys.readouterr().err
    assert res["partial"] is True and res["cases"] == [] and says in res["aborted"]


def test_program_that_does_not_start_exits_3(tmp_path, capsys):
    code, res = run_cli(tmp_path, "--engine", "cmd:./no-such-engine --fast")
    assert code == 3 and "no program './no-such-engine'" in capsys.readouterr().err
    # the results file is written all the same: partial, no case run, and why
    assert res["partial"] is True and res["cases"] == [] and "no program './no-such-engine'" in res["aborted"]


def test_silent_engine_times_out_at_start():
    engine = SubprocessEngine([sys.executable, str(TOY_ENGINE), "--mute"], start_timeout=0.5)
    with pytest.raises(EngineStartError, match="wrote no hello line within 0.5 s"):
        engine.hello()
    assert engine._proc is None


def test_restart_failure_keeps_partial_results(tmp_path, capsys):
    """The engine crashes, then cannot start again: exit 3, the cases run so far are written."""
    flag = tmp_path / "started-once"
    script = tmp_path / "once.py"
    script.write_text(
        "import os, runpy, sys\n"
        f"flag = {str(flag)!r}\n"
        "if os.path.exists(flag):\n    print('licence expired', file=sys.stderr); sys.exit(5)\n"
        "open(flag, 'w').close()\n"
        f"sys.argv = [{str(TOY_ENGINE)!r}, '--crash', 'toy.end-turn']\n"
        f"runpy.run_path({str(TOY_ENGINE)!r}, run_name='__main__')\n")
    code, res = run_cli(tmp_path, "--engine", f"cmd:{sys.executable} {script}")
    assert code == 3 and res["partial"] is True
    assert [c["status"] for c in res["cases"]] == ["pass"] * 4 + ["error", "error"]
    assert "licence expired" in res["cases"][-1]["error"]
    assert "partial results" in capsys.readouterr().err


@PIPELINE
def test_ctrl_c_writes_partial_results(tmp_path, pipeline):
    marker = tmp_path / "hanging"
    out = tmp_path / "r.json"
    report = tmp_path / "r.html"
    cmd = [sys.executable, str(TOY_ORACLE), "run", "--game", "toy", "--results", str(out), "--report", str(report),
           "--quiet", "--engine", toy_cmd("--hang", "toy.refuse.tapped-attacker", *pipeline)]
    proc = subprocess.Popen(cmd, env={**os.environ, "TOY_MARKER": str(marker)}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        for _ in range(600):
            if marker.exists() or proc.poll() is not None:
                break
            time.sleep(0.05)
        assert marker.exists(), proc.communicate()
        if pipeline:  # the engine reached the hanging case after answering the 5 before it, which the harness
            time.sleep(2)  # reads as it goes: give it the time to check them (milliseconds; 2 s is generous)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    res = json.loads(out.read_text())
    assert res["partial"] is True and len(res["cases"]) == 5, err
    assert proc.returncode == 1, "an interrupted run is never 'as expected'"
    assert report.exists() and "partial" in report.read_text()


def test_serve_equals_in_process_reference(tmp_path):
    """``tcg-oracle serve`` behind the protocol: the same statuses and traces as the reference in process."""
    _, direct = run_cli(tmp_path, name="direct")
    _, served = run_cli(tmp_path, "--engine", toy_serve_cmd(), name="served")
    assert served["engine"]["name"] == "reference"
    a, b = by_id(direct), by_id(served)
    assert list(a) == list(b)
    for cid in a:
        assert (a[cid]["status"], a[cid].get("trace"), a[cid].get("divergence"), a[cid].get("error")) == \
               (b[cid]["status"], b[cid].get("trace"), b[cid].get("divergence"), b[cid].get("error")), cid
