"""Fault injection, the commands besides ``run``: ``explain --engine`` and ``fuzz`` bound a hung engine by
``--timeout``; SIGINT and SIGTERM stop merge, report, fuzz and mutants with one line and exit 1 (never a
traceback, never a silent -15); ``mutants`` stopped mid-mutant records no mutant as tested that was not;
``report --cases`` says a broken suite card pool."""

from __future__ import annotations

import json
import os
import signal
import time

import pytest
from helpers_faults import FAULT_CASE, fault_cmd

from oracle.cli import main


@pytest.mark.usefixtures("toy")
@pytest.mark.parametrize("spec", ["py:fault_py:case_hangs", "cmd"])
def test_explain_bounds_a_hung_engine_by_timeout(capsys, spec):
    """Defect 22: explain --engine had no timeout: a hung engine hung it forever."""
    spec = fault_cmd(f"case:{FAULT_CASE}=hang") if spec == "cmd" else spec
    start = time.monotonic()
    code = main(["explain", FAULT_CASE, "--engine", spec, "--timeout", "1"])
    assert code == 1 and time.monotonic() - start < 60
    assert "timeout" in capsys.readouterr().out


@pytest.mark.usefixtures("toy")
def test_fuzz_verdicts_are_bounded_by_timeout():
    """Defect 22: fuzz had no timeout (its verdicts are run_case calls: the timeout now reaches them)."""
    pytest.importorskip("hypothesis")
    from oracle.fuzz import verdict
    from oracle.harness.adapters import make_engine
    from oracle.loader import load_suite

    engine = make_engine("py:fault_py:case_hangs")
    lc = next(x for x in load_suite(games=["toy"]).cases if x.case.id == FAULT_CASE)
    res = verdict(engine, engine.hello(), lc.case, timeout=0.5)
    assert res.status == "error" and res.error.startswith("timeout")


@pytest.mark.parametrize("command, target", [("merge", "oracle.harness.merge"), ("report", "oracle.reports.cli"),
                                             ("mutants", "oracle.mutants.cli"), ("fuzz", "oracle.fuzz"),
                                             ("prove", "oracle.smt.cli")])
@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM"])
def test_a_signal_stops_every_command_with_one_line(monkeypatch, capsys, command, target, signame):
    """Defect 23: SIGINT to merge, report, fuzz or mutants printed a traceback; SIGTERM exited -15 without a
    word (here the command's work is a loop that the signal interrupts)."""
    import importlib

    def work(args):
        os.kill(os.getpid(), getattr(signal, signame))
        for _ in range(100_000_000):
            pass
        pytest.fail("the signal did not stop the command")

    monkeypatch.setattr(importlib.import_module(target), "main", work)
    argv = {"merge": ["merge", "a.json", "--out", "b.json"], "report": ["report", "a.json", "--out", "b.html"],
            "mutants": ["mutants"], "fuzz": ["fuzz", "--game", "ijinden"], "prove": ["prove"]}[command]
    if command == "fuzz":
        pytest.importorskip("hypothesis")
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 1 and f"tcg-oracle {command}: interrupted ({signame}); stopped" in err and "Traceback" not in err


def test_mutants_stopped_mid_mutant_records_it_as_not_tested(tmp_path, monkeypatch, capsys):
    """Defect 24: mutants swallowed Ctrl-C: it went on, exited 0, and recorded a mutant tested on 105 of 132
    cases as if complete."""
    import oracle.harness.runner as runner
    from oracle.mutants import all_mutants

    name = next(m.name for m in all_mutants() if m.game == "ijinden")
    real, calls = runner.run_case, []

    def run_case_then_ctrl_c(*a, **k):
        calls.append(1)
        if len(calls) == 5:
            os.kill(os.getpid(), signal.SIGINT)
        return real(*a, **k)

    monkeypatch.setattr(runner, "run_case", run_case_then_ctrl_c)
    out = tmp_path / "kills.json"
    code = main(["mutants", "--mutant", name, "--properties", "none", "--results", str(out)])
    err = capsys.readouterr().err
    matrix = json.loads(out.read_text())
    assert code == 1 and matrix["partial"] is True and f"interrupted on mutant {name}" in matrix["aborted"]
    assert matrix["summary"]["mutants"] == 0, "the stopped mutant is not counted as tested"
    assert "0 of 1 mutant(s) finished" in err


@pytest.mark.usefixtures("toy")
def test_report_cases_says_a_broken_suite_card_pool(tmp_path, capsys):
    """Defect 25: report --cases ignored a broken suite cards.yaml."""
    suite = tmp_path / "suite" / "toy"
    suite.mkdir(parents=True)
    (suite / "cards.yaml").write_text("schema_version: 1\ngame: toy\ncards: 5\n")
    results = tmp_path / "r.json"
    assert main(["run", "--game", "toy", "--results", str(results), "--report", "", "--quiet"]) == 0
    code = main(["report", str(results), "--out", str(tmp_path / "r.html"), "--cases", str(tmp_path / "suite")])
    err = capsys.readouterr().err
    assert code == 2 and "cards.yaml" in err
