"""Fault injection, in-process (``py:``) engines: a ``KeyboardInterrupt`` the engine raises itself costs its
case (only a real signal stops the run), and ``--isolate`` runs the engine in a child process, so one
that calls ``os._exit`` costs a case, not the run."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from helpers_faults import FAULT_CASE, HERE, by_id, run

pytestmark = pytest.mark.usefixtures("toy")


@pytest.mark.parametrize("timeout", ["0", "10"])  # on the main thread, and on a worker thread
def test_an_engines_own_keyboard_interrupt_costs_its_case_not_the_run(tmp_path, timeout):
    """Defect 13: a py: engine raising KeyboardInterrupt was taken for Ctrl-C and stopped the run."""
    code, res = run(tmp_path, "--engine", "py:fault_py:case_raises_keyboard_interrupt", "--timeout", timeout)
    cases = by_id(res)
    assert res["partial"] is False and code == 1
    assert cases[FAULT_CASE]["status"] == "error" and "raised KeyboardInterrupt" in cases[FAULT_CASE]["error"]
    assert all(c["status"] == "pass" for cid, c in cases.items() if cid != FAULT_CASE)


def test_isolate_survives_an_engine_calling_os_exit(tmp_path):
    """Defect 12: a py: engine calling os._exit killed tcg-oracle (no results, no report, no JUnit). With
    --isolate it costs the case. (Run in a subprocess: in process, os._exit would end pytest.)"""
    out = tmp_path / "r.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), str(HERE.parent / "harness"),
                                                        os.environ.get("PYTHONPATH", "")])}
    script = ("import sys; from oracle import paths, registry; from pathlib import Path; "
              "registry._GAMES['toy'] = 'toygame'; "
              f"paths.cases_dir = lambda: Path({str(HERE.parent / 'harness' / 'fixtures' / 'cases')!r}); "
              "from oracle.cli import main; sys.exit(main(sys.argv[1:]))")
    proc = subprocess.run([sys.executable, "-c", script, "run", "--game", "toy", "--engine",
                           "py:fault_py:case_os_exit", "--isolate", "--results", str(out), "--report", "",
                           "--quiet"], env=env, capture_output=True, text=True, timeout=300)
    import json

    res = json.loads(out.read_text())
    cases = by_id(res)
    assert proc.returncode == 1 and res["partial"] is False
    assert cases[FAULT_CASE]["status"] == "error" and "exited (code 9)" in cases[FAULT_CASE]["error"]
    assert all(c["status"] == "pass" for cid, c in cases.items() if cid != FAULT_CASE)


def test_isolate_keeps_an_engines_prints_off_the_protocol(tmp_path):
    code, res = run(tmp_path, "--engine", "py:fault_py:case_prints", "--isolate")
    assert code == 0 and all(c["status"] == "pass" for c in res["cases"])
    assert res["engine"]["name"] == "fault-py"


def test_a_long_trace_is_kept_only_to_the_cap(tmp_path):
    """Defect 15: two replies of 300,000 events made a 144 MB results.json. The stored trace is capped at
    TRACE_KEEP entries and the rest counted; the whole trace was still compared."""
    from oracle.limits import TRACE_KEEP

    code, res = run(tmp_path, "--engine", "py:fault_py:case_long_trace", "--timeout", "0")
    case = by_id(res)[FAULT_CASE]
    assert len(case["trace"]) == TRACE_KEEP and case["trace_cut"] > 45_000
    assert (tmp_path / "results.json").stat().st_size < 3_000_000
    assert all("trace_cut" not in c for cid, c in by_id(res).items() if cid != FAULT_CASE)
