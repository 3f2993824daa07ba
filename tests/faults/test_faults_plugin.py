"""Fault injection, the pytest plugin: the same selection and skips as ``run`` (declared abilities), and
one clear error -- not a traceback per item -- when the engine cannot start."""

from __future__ import annotations

import json

import pytest

from oracle import paths
from oracle.cli import main

pytest_plugins = ["pytester"]
HERE = __import__("pathlib").Path(__file__).resolve().parent
QA = paths.cases_dir() / "ijinden" / "block_step.yaml"  # some of its cases need abilities, some do not


@pytest.mark.slow
def test_the_plugin_skips_what_run_skips(pytester, tmp_path, monkeypatch):
    """Defect 10: the plugin ignored the engine's declared abilities (31 passed / 51 failed under pytest
    against 25 pass / 5 fail / 52 skip from run)."""
    import sys

    sys.path.insert(0, str(HERE))
    try:
        out = tmp_path / "r.json"
        main(["run", "--cases", str(QA), "--engine", "py:fault_py:no_abilities", "--results", str(out),
              "--report", "", "--quiet"])
    finally:
        sys.path.remove(str(HERE))
    summary = json.loads(out.read_text())["summary"]
    assert summary["skip"] > 0 and summary["pass"] > 0
    import os

    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")]))
    result = pytester.runpytest_subprocess("--tcg-engine", "py:fault_py:no_abilities",
                                           str(QA))
    outcomes = result.parseoutcomes()
    assert outcomes.get("skipped", 0) == summary["skip"]
    assert outcomes.get("passed", 0) == summary["pass"] and outcomes.get("failed", 0) == summary.get("fail", 0)


@pytest.mark.parametrize("workers", [[], ["-n", "2"]])
def test_an_engine_that_cannot_start_is_one_message_and_exit_3(pytester, workers):
    """Defect 10: 11,242 lines of tracebacks for 13 tests when the engine could not start."""
    result = pytester.runpytest_subprocess("--tcg-engine", "cmd:no-such-engine-program",
                                           str(paths.cases_dir() / "ijinden" / "qa.yaml"), *workers)
    text = result.stdout.str() + result.stderr.str()
    assert result.ret == 3
    assert "the engine cmd:no-such-engine-program could not be started" in text
    assert "Traceback" not in text and len(text.splitlines()) < 20
