"""The code stays free of unused names, undefined names and likely bugs (ruff, configured in pyproject)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing():
    if shutil.which("ruff") is None and subprocess.run([sys.executable, "-m", "ruff", "--version"],
                                                       capture_output=True).returncode != 0:
        pytest.skip("ruff is not installed: pip install -e '.[test]'")
    r = subprocess.run([sys.executable, "-m", "ruff", "check", "--output-format", "concise",
                        "oracle", "reports", "generators", "tests"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
