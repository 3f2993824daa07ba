"""The JavaScript example engine (tests/engines/example_engine.mjs) passes its named subset of the Ijinden
golden cases through `tcg-oracle run --engine cmd:...`, as an engine author outside Python would run it."""

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

# The subset the engine's header names: plain battles of vanilla Ijin and guardians (plus pressure and 即応).
SUBSET = (
    "main.end-turn or main.one-battle or attack.single-unblocked or attackers-one-moment or sokuou"
    " or block.several-blockers or block.two-attackers-three or block.guardian-blocks"
    " or refuse.attacker or refuse.guardian-without or refuse.guardian-blocker or refuse.no-attackers"
    " or refuse.second-battle or refuse.blocker or pressure-one or pressure-two or refuse.malformed"
    " or refuse.unknown-cards or d1.blocker-greater or d1.tie or d1.several or d1.guardian or d1.zero"
    " or d1.negative"
)


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.skip("node is not installed on this CI machine; Node.js is not a tcg-oracle requirement, "
                        "so the JavaScript example engine is not run here")
        pytest.skip("node is not installed: install Node.js (>= 18) to run the JavaScript example engine")
    return node


def test_header_names_the_subset():
    """The engine's header and this test name the same -k expression."""
    header = " ".join((ROOT / ENGINE).read_text(encoding="utf-8").split())
    assert f'-k "{SUBSET}"' in header.replace("// ", "").replace("\\ ", "")


def test_js_example_engine_passes_its_subset(tmp_path):
    node = _node()
    results = tmp_path / "results.json"
    command = [
        sys.executable, "-m", "oracle", "run",
        "--engine", "cmd:" + shlex.join([node, ENGINE.as_posix()]),
        "--game", "ijinden", "-k", SUBSET,
        "--results", str(results), "--report", "",
    ]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert results.exists(), f"no results (exit {done.returncode}):\n{done.stdout}\n{done.stderr}"
    data = json.loads(results.read_text(encoding="utf-8"))
    statuses = {case["id"]: case["status"] for case in data["cases"]}
    assert statuses, "the -k subset selected no case"
    assert not data["partial"], data.get("aborted")
    failing = {case_id: status for case_id, status in statuses.items() if status != "pass"}
    assert not failing, f"{failing}\n{done.stdout}\n{done.stderr}"
    assert done.returncode == 0, done.stdout + done.stderr
