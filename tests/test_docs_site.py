"""The documentation site builds with warnings as errors: `mkdocs build --strict` fails on a link to a page or an
anchor that does not exist, a page left out of the nav, or a broken config (mkdocs.yml, docs/hooks.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]


def test_the_site_builds_strict(tmp_path):
    pytest.importorskip("mkdocs", reason="mkdocs is not installed: pip install -e '.[docs]' to build the docs site")
    pytest.importorskip("material", reason="mkdocs-material is not installed: pip install -e '.[docs]'")
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    for page in ("index.html", "authors/index.html", "vocabulary/duelmasters/index.html",
                 "procedures/ijinden/index.html", "contributing/mutmut-mtg-survivors/index.html"):
        assert (site / page).exists(), page
    assert "ダイナモ" in (site / "vocabulary" / "duelmasters" / "index.html").read_text(encoding="utf-8")
    shutil.rmtree(site)
