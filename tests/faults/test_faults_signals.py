"""Fault injection, signals: SIGINT, SIGTERM and SIGHUP at every stage -- while the engine starts, mid-case,
twice in a row, while the outputs are written. What a signal costs: the cases not yet run. The results,
report and JUnit are written, marked partial with the signal named, the engine is closed, exit 1; a
second signal never rewrites what the first saved; a signal while writing lets the writing finish."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers_faults import FAULT_CASE, TOY_ORACLE, by_id, fault_cmd, run

from oracle.cli import main

pytestmark = pytest.mark.usefixtures("toy")


def test_sigterm_mid_case_in_process_keeps_the_cases_run(tmp_path, capsys):
    """Defect 3: SIGTERM left no results, report or JUnit."""
    code, res = run(tmp_path, "--engine", "py:fault_py:case_sigterm", junit=True)
    assert code == 1 and res["partial"] is True and res["aborted"] == "interrupted by SIGTERM"
    cases = by_id(res)
    assert cases and FAULT_CASE not in cases or cases[FAULT_CASE]["status"] != "pass"
    assert all(c["status"] == "pass" for c in res["cases"])
    assert (tmp_path / "junit.xml").is_file()


def test_a_second_ctrl_c_never_destroys_what_the_first_saved(tmp_path, capfd, monkeypatch):
    """Defect 4: a second Ctrl-C within 50 ms rewrote results.json with 0 cases. Here the second comes
    while the first's partial results are being written."""
    from oracle import outputs

    real = outputs.write_atomic

    def write_after_another_ctrl_c(path, data):
        os.kill(os.getpid(), signal.SIGINT)
        return real(path, data)

    monkeypatch.setattr(outputs, "write_atomic", write_after_another_ctrl_c)
    code, res = run(tmp_path, "--engine", "py:fault_py:case_sigint", "--timeout", "0")
    assert code == 1 and res["partial"] is True and res["aborted"] == "interrupted by SIGINT"
    assert len(res["cases"]) >= 1 and all(c["status"] == "pass" for c in res["cases"])
    assert "the outputs are being written" in capfd.readouterr().err


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGINT", "SIGHUP"])
def test_a_signal_while_writing_lets_every_output_finish(tmp_path, monkeypatch, capfd, signame):
    from oracle import outputs

    real = outputs.write_atomic
    sent = []

    def write_and_signal(path, data):
        if not sent:
            sent.append(path)
            os.kill(os.getpid(), getattr(signal, signame))
        return real(path, data)

    monkeypatch.setattr(outputs, "write_atomic", write_and_signal)
    out = tmp_path / "r.json"
    code = main(["run", "--game", "toy", "--results", str(out), "--report", str(tmp_path / "r.html"),
                 "--junit", str(tmp_path / "j.xml"), "--quiet"])
    assert sent and code == 1
    res = json.loads(out.read_text())
    assert res["partial"] is False and len(res["cases"]) == 16 and all(c["status"] == "pass" for c in res["cases"])
    assert (tmp_path / "r.html").is_file() and (tmp_path / "j.xml").is_file()
    assert "the outputs are being written" in capfd.readouterr().err


def test_ctrl_c_in_an_embedded_run_suite_raises_keyboard_interrupt_with_the_partial_results():
    """A script embedding run_suite (or a test calling it) stops on the first Ctrl-C: the interrupt is raised
    on (it was swallowed into partial results, and the caller carried on), carrying the cases run so far."""
    import fault_py

    from oracle.harness.runner import run_suite
    from oracle.loader import load_suite

    suite = load_suite(None, games=["toy"])
    order = [lc.case.id for lc in suite.cases]
    engine = fault_py.case_sigint()  # a py: object called on this thread: the SIGINT raises inside it
    old = signal.signal(signal.SIGINT, signal.default_int_handler)  # Python's own Ctrl-C, whoever runs the test
    try:
        with pytest.raises(KeyboardInterrupt) as info:
            run_suite(engine, suite)
    finally:
        signal.signal(signal.SIGINT, old)
    partial = info.value.results
    assert partial.partial is True
    assert [c.id for c in partial.cases] == order[:order.index(FAULT_CASE)]
    assert all(c.status == "pass" for c in partial.cases)


# -- the real command, in a subprocess ------------------------------------------------------------------

def _start(tmp_path, *args: str):
    marker = tmp_path / "marker"
    env = {**os.environ, "FAULT_MARKER": str(marker), "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.Popen([sys.executable, str(TOY_ORACLE), "run", "--game", "toy", "--results",
                             str(tmp_path / "r.json"), "--report", str(tmp_path / "r.html"), "--junit",
                             str(tmp_path / "j.xml"), "--quiet", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    return proc, marker


def _wait_for(marker, phase: str, proc, limit: float = 30.0) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if marker.exists() and phase in marker.read_text().split("\n"):
            return
        if proc.poll() is not None:
            raise AssertionError(f"the run ended before {phase}: {proc.stderr.read()}")
        time.sleep(0.02)
    proc.kill()
    raise AssertionError(f"the engine never reached {phase}")


@pytest.mark.slow
@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])  # SIGINT: the double-signal test
def test_a_signal_mid_case_writes_partial_results_and_closes_the_engine(tmp_path, signame):
    proc, marker = _start(tmp_path, "--engine", fault_cmd(f"case:{FAULT_CASE}=hang"), "--timeout", "60")
    _wait_for(marker, f"case:{FAULT_CASE}", proc)
    proc.send_signal(getattr(signal, signame))
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 1, err
    res = json.loads((tmp_path / "r.json").read_text())
    assert res["partial"] is True and res["aborted"] == f"interrupted by {signame}"
    assert res["cases"] and all(c["status"] == "pass" for c in res["cases"])
    assert (tmp_path / "r.html").is_file() and (tmp_path / "j.xml").is_file()
    assert "Traceback" not in err


@pytest.mark.slow
def test_a_signal_while_the_engine_starts(tmp_path):
    proc, marker = _start(tmp_path, "--engine", fault_cmd("start=hang"))
    _wait_for(marker, "start", proc)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 1, err
    res = json.loads((tmp_path / "r.json").read_text())
    assert res["partial"] is True and res["cases"] == [] and "SIGTERM" in res["aborted"]
    assert "starting" in res["aborted"]


@pytest.mark.slow
def test_two_quick_signals_mid_run_keep_the_cases_run(tmp_path):
    proc, marker = _start(tmp_path, "--engine", fault_cmd(f"case:{FAULT_CASE}=hang"), "--timeout", "60")
    _wait_for(marker, f"case:{FAULT_CASE}", proc)
    proc.send_signal(signal.SIGINT)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    res = json.loads((tmp_path / "r.json").read_text())
    assert proc.returncode == 1 and res["partial"] is True and len(res["cases"]) >= 1, err


@pytest.mark.slow
def test_concurrent_runs_into_the_same_files(tmp_path):
    """Defect 5: four concurrent runs with the same --results corrupted it or crashed."""
    procs = [_start(tmp_path)[0] for _ in range(4)]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    res = json.loads((tmp_path / "r.json").read_text())
    assert len(res["cases"]) == 16 and res["partial"] is False
    import xml.etree.ElementTree as ET

    ET.parse(tmp_path / "j.xml")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["j.xml", "r.html", "r.json"]


def test_ctrl_c_in_another_command_stops_it_with_exit_1_and_no_traceback(monkeypatch, capsys):
    """run_suite raises Ctrl-C on now: `mutants` (which runs it once per mutant) stops at the first one, where
    it carried on to the next mutant before."""
    calls = []

    def interrupted(*args, **kwargs):
        calls.append(1)
        raise KeyboardInterrupt

    monkeypatch.setattr("oracle.harness.runner.run_suite", interrupted)
    code = main(["mutants", "--game", "ijinden", "--properties", "none"])
    assert code == 1 and calls == [1]
    err = capsys.readouterr().err
    assert "tcg-oracle mutants: interrupted" in err and "Traceback" not in err


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def _alive(pid: int) -> bool:
    """The process exists and is not a zombie waiting to be reaped."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc to find the engine process")
def test_an_engine_busy_in_a_case_dies_with_a_harness_killed_outright(tmp_path):
    """SIGKILL gives the harness no chance to close the engine: the engine, hung in a case and in a session of
    its own, must not be left running (issue 24)."""
    proc, marker = _start(tmp_path, "--engine", fault_cmd(f"case:{FAULT_CASE}=hang"), "--timeout", "60")
    _wait_for(marker, f"case:{FAULT_CASE}", proc)
    engines = _children(proc.pid)
    assert engines, "the engine process was not found under the harness"
    assert all(_alive(e) for e in engines)
    proc.kill()
    proc.communicate(timeout=30)
    deadline = time.monotonic() + 10
    while any(_alive(e) for e in engines) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [e for e in engines if _alive(e)]
    for e in left:  # do not leave it behind when the assertion fails
        os.kill(e, signal.SIGKILL)
    assert not left, f"engine process(es) {left} outlived the killed harness"
