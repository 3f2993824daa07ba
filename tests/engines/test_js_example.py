"""The JavaScript example engine (tests/engines/example_engine.mjs), run on every Ijinden golden case
through `tcg-oracle run --engine cmd:...` as an engine author outside Python would: it passes every case
it can play, and the cases needing abilities its hello does not declare are skipped, saying which."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = Path("tests/engines/example_engine.mjs")

def _node() -> str:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.skip("node is not installed on this CI machine; Node.js is not a tcg-oracle requirement, "
                        "so the JavaScript example engine is not run here")
        pytest.skip("node is not installed: install Node.js (>= 18) to run the JavaScript example engine")
    return node


def test_js_example_engine_passes_what_it_declares_and_skips_the_rest(tmp_path):
    node = _node()
    results = tmp_path / "results.json"
    command = [
        sys.executable, "-m", "oracle", "run",
        "--engine", "cmd:" + shlex.join([node, ENGINE.as_posix()]),
        "--game", "ijinden",
        "--results", str(results), "--report", "",
    ]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert results.exists(), f"no results (exit {done.returncode}):\n{done.stdout}\n{done.stderr}"
    data = json.loads(results.read_text(encoding="utf-8"))
    statuses = {case["id"]: case["status"] for case in data["cases"]}
    skipped = [c for c in data["cases"] if c["status"] == "skip"]
    assert all(c["skip_reason"].startswith("needs abilities engine example-engine-js does not declare")
               for c in skipped), skipped[:3]
    statuses = {cid: st for cid, st in statuses.items() if st != "skip"}
    assert len(statuses) >= 30, "the engine should play every vanilla case"
    assert not data["partial"], data.get("aborted")
    failing = {case_id: status for case_id, status in statuses.items() if status != "pass"}
    assert not failing, f"{failing}\n{done.stdout}\n{done.stderr}"
    assert done.returncode == 0, done.stdout + done.stderr
