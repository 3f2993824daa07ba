"""The starter engines a user copies (examples/starter-engine/engine.py and engine.mjs), run on every Ijinden
golden case through `tcg-oracle run --engine cmd:...`, as the README tells an engine author to: each plays every
case its hello lets the harness send (vanilla Ijin and guardians) and passes it at level `final`; the cases whose
cards have abilities are skipped, saying so. The Python one always runs; the JavaScript one where `node` exists."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
STARTER = ROOT / "examples" / "starter-engine"


def _run(tmp_path: Path, program: list[str]) -> tuple[subprocess.CompletedProcess, dict]:
    results = tmp_path / "results.json"
    command = [sys.executable, "-m", "oracle", "run", "--engine", "cmd:" + shlex.join(program), "--game", "ijinden",
               "--results", str(results), "--report", ""]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert results.exists(), f"no results (exit {done.returncode}):\n{done.stdout}\n{done.stderr}"
    return done, json.loads(results.read_text(encoding="utf-8"))


def _check(done: subprocess.CompletedProcess, data: dict, name: str) -> None:
    assert data["engine"]["level"] == "final"
    assert not data["partial"], data.get("aborted")
    statuses = {c["id"]: c["status"] for c in data["cases"]}
    skipped = [c for c in data["cases"] if c["status"] == "skip"]
    assert all(c["skip_reason"].startswith(f"needs abilities engine {name} does not declare") for c in skipped), \
        skipped[:3]
    played = {cid: st for cid, st in statuses.items() if st != "skip"}
    assert len(played) >= 30, "the starter engine should play every vanilla case"
    failing = {cid: st for cid, st in played.items() if st != "pass"}
    assert not failing, f"{failing}\n{done.stdout}\n{done.stderr}"
    assert done.returncode == 0, done.stdout + done.stderr


def test_python_starter_engine_passes_every_case_it_plays(tmp_path):
    done, data = _run(tmp_path, [sys.executable, str(STARTER / "engine.py")])
    _check(done, data, "starter-engine-py")


def test_a_misreading_in_the_starter_engine_fails_the_cases_that_show_it(tmp_path):
    """The run can fail it: a tie read as a win for the blocker (D1: 同じ場合はどちらも負けになる) fails the tie cases."""
    source = (STARTER / "engine.py").read_text(encoding="utf-8")
    assert "else power(b) > p" in source
    mutant = tmp_path / "engine.py"
    mutant.write_text(source.replace("else power(b) > p", "else power(b) >= p"), encoding="utf-8")
    done, data = _run(tmp_path, [sys.executable, str(mutant)])
    statuses = {c["id"]: c["status"] for c in data["cases"]}
    assert statuses["ijinden.d1.tie-single-both-lose"] == "fail"
    assert done.returncode == 1


def test_javascript_starter_engine_passes_every_case_it_plays(tmp_path):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: install Node.js (>= 18) to run the JavaScript starter engine"
                    + (" (Node.js is not a tcg-oracle requirement)" if os.environ.get("CI") else ""))
    done, data = _run(tmp_path, [node, str(STARTER / "engine.mjs")])
    _check(done, data, "starter-engine-js")
