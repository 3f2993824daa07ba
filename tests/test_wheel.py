"""The built wheel carries its cases, catalogs, card pools and templates, and runs from anywhere."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    try:
        import build  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("the wheel test needs the 'build' package: pip install -e '.[test]'")
        pytest.skip("the wheel test needs the 'build' package: pip install -e '.[test]'")
    out = tmp_path_factory.mktemp("dist")
    r = subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(ROOT)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    (whl,) = out.glob("*.whl")
    return whl


def test_wheel_holds_one_top_level_package_with_its_data(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"oracle"}
    assert "oracle/cases/ijinden/rules.yaml" in names and "oracle/cases/ijinden/cards.yaml" in names
    assert any(n.startswith("oracle/reports/templates/") for n in names)
    assert "oracle/generators/__init__.py" in names
    assert "oracle/engines/shobu/driver/main.go" in names  # the shobu driver builds from an installed wheel too


def test_installed_wheel_runs_every_case_outside_the_checkout(wheel, tmp_path):
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    bin_dir = env_dir / ("Scripts" if sys.platform == "win32" else "bin")
    r = subprocess.run([str(bin_dir / "pip"), "install", "-q", str(wheel)], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    work = tmp_path / "elsewhere"
    work.mkdir()
    r = subprocess.run([str(bin_dir / "tcg-oracle"), "run", "--results", "r.json", "--report", "r.html"],
                       capture_output=True, text=True, cwd=work, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    data = json.loads((work / "r.json").read_text(encoding="utf-8"))
    assert data["summary"]["pass"] >= 45 and data["summary"]["fail"] == 0
    assert (work / "r.html").stat().st_size > 0
    shutil.rmtree(env_dir, ignore_errors=True)
