"""Shared by the harness tests: running the CLI in process, and the toy engines' commands."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from oracle.cli import main

ENGINES = Path(__file__).resolve().parent.parent / "engines"
TOY_ENGINE = ENGINES / "toy_engine.py"
TOY_ORACLE = ENGINES / "toy_oracle.py"


def toy_cmd(*flags: str) -> str:
    """``cmd:`` spec of the protocol-only toy engine, broken by ``flags``."""
    return "cmd:" + shlex.join([sys.executable, str(TOY_ENGINE), *flags])


def toy_serve_cmd() -> str:
    """``cmd:`` spec of ``tcg-oracle serve`` with the toy game registered."""
    return "cmd:" + shlex.join([sys.executable, str(TOY_ORACLE), "serve"])


def run_cli(tmp_path: Path, *args: str, name: str = "results") -> tuple[int, dict | None]:
    out = tmp_path / f"{name}.json"
    code = main(["run", "--game", "toy", "--results", str(out), "--report", "", "--quiet", *args])
    return code, (json.loads(out.read_text()) if out.exists() else None)


def by_id(results: dict) -> dict[str, dict]:
    return {c["id"]: c for c in results["cases"]}
