"""Running the CLI in process on the toy game, and the fault engine's command."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from oracle.cli import main

HERE = Path(__file__).resolve().parent
FAULT_ENGINE = HERE / "fault_engine.py"
TOY_ORACLE = HERE.parent / "engines" / "toy_oracle.py"
FAULT_CASE = "toy.bigger-blocker"


def fault_cmd(*faults: str) -> str:
    """``cmd:`` spec of the fault engine with faults ``PHASE=HOW``."""
    return "cmd:" + shlex.join([sys.executable, str(FAULT_ENGINE), *(f"--fault={f}" for f in faults)])


def run(tmp_path: Path, *args: str, junit: bool = False) -> tuple[int, dict | None]:
    """``tcg-oracle run --game toy`` in process; (exit code, results or None)."""
    out = tmp_path / "results.json"
    extra = ["--junit", str(tmp_path / "junit.xml")] if junit else []
    code = main(["run", "--game", "toy", "--results", str(out), "--report", "", "--quiet", *extra, *args])
    return code, (json.loads(out.read_text(encoding="utf-8")) if out.exists() else None)


def by_id(results: dict) -> dict[str, dict]:
    return {c["id"]: c for c in results["cases"]}
