"""Results that travel: shards run in two different checkouts merge to one whole run's file, and no file a
run writes names a path of the machine that ran it (issue 15)."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from oracle.portable import Portable, without_shard

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
TIMING = ("started", "finished", "duration")
BROKEN = "id: my.broken\ngame: ijinden\n"  # a case-file error: its message names the file


def _checkout(where: Path) -> Path:
    """A copy of the repository at ``where``: the package (reports mapped inside it, as in a wheel), the
    built-in cases, the example engine, and a user's suite beside them."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(REPO / "oracle", where / "oracle", ignore=ignore)
    shutil.copytree(REPO / "reports", where / "oracle" / "reports", ignore=ignore)
    shutil.copytree(REPO / "cases", where / "cases", ignore=ignore)
    (where / "tests" / "engines").mkdir(parents=True)
    shutil.copy(REPO / "tests" / "engines" / "example_engine.py", where / "tests" / "engines")
    (where / "my-suite" / "ijinden").mkdir(parents=True)
    (where / "my-suite" / "ijinden" / "broken.yaml").write_text(BROKEN, encoding="utf-8")
    return where


def _run(checkout: Path, out: Path, *extra: str) -> dict:
    """``tcg-oracle run`` in ``checkout``, every path given absolute, outputs written outside it."""
    out.parent.mkdir(parents=True, exist_ok=True)
    engine = "cmd:" + shlex.join([sys.executable, str(checkout / "tests" / "engines" / "example_engine.py")])
    proc = subprocess.run(
        [sys.executable, "-m", "oracle", "run", "--engine", engine, "--game", "ijinden",
         "--cases", str(checkout / "cases" / "ijinden"), "--cases", str(checkout / "my-suite"), *extra,
         "--results", str(out), "--report", str(out.with_suffix(".html")), "--junit", str(out.with_suffix(".xml"))],
        capture_output=True, text=True, cwd=checkout, timeout=300)
    assert proc.returncode in (1, 2), proc.stdout + proc.stderr  # failures and a broken file; the run finished
    return json.loads(out.read_text(encoding="utf-8"))


def _strip(obj):
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items() if k not in TIMING}
    if isinstance(obj, list):
        return [_strip(v) for v in obj]
    return obj


def test_shards_from_two_checkouts_merge_to_one_run_and_name_no_path_of_the_machine(tmp_path):
    a = _checkout(tmp_path / "runner-a" / "tcg-oracle")
    b = _checkout(tmp_path / "elsewhere" / "b" / "work")
    whole = _run(a, tmp_path / "out-a" / "whole.json")
    shard1 = _run(a, tmp_path / "out-a" / "shard-1.json", "--shard", "1/2")
    shard2 = _run(b, tmp_path / "out-b" / "shard-2.json", "--shard", "2/2")
    assert 0 < len(shard1["cases"]) < len(whole["cases"]) and 0 < len(shard2["cases"]) < len(whole["cases"])

    merged_path = tmp_path / "merged.json"
    proc = subprocess.run([sys.executable, "-m", "oracle", "merge", str(tmp_path / "out-b" / "shard-2.json"),
                           str(tmp_path / "out-a" / "shard-1.json"), "--out", str(merged_path)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    merged = json.loads(merged_path.read_text(encoding="utf-8"))
    assert _strip(merged) == _strip(whole)

    # the case files, the error naming the broken file, the command: suite-relative
    files = {c["id"]: c.get("file") for c in whole["cases"]}
    assert files["ijinden.attack.single-unblocked-wins"] == "cases/ijinden/attack_step.yaml"
    broken = [c for c in whole["cases"] if c.get("file") == "my-suite/ijinden/broken.yaml"]
    assert broken and all(c["error"].startswith("my-suite/ijinden/broken.yaml:") for c in broken)
    assert shlex.split(whole["command"]) == [
        "tcg-oracle", "run", "--engine", f"cmd:{Path(sys.executable).name} tests/engines/example_engine.py",
        "--game", "ijinden", "--cases", "cases/ijinden", "--cases", "my-suite"]
    assert {c["status"] for c in whole["cases"]} >= {"pass", "error"}

    # nothing written names the checkouts or the temporary folders, in any spelling
    machine = {str(p) for p in (tmp_path, tmp_path.resolve(), a, b, a.resolve(), b.resolve(), Path.home())}
    written = [*(tmp_path / "out-a").iterdir(), *(tmp_path / "out-b").iterdir(), merged_path]
    assert {p.suffix for p in written} == {".json", ".html", ".xml"}
    for path in written:
        text = path.read_text(encoding="utf-8")
        for m in machine:
            assert m not in text, f"{path.name} names {m}"
            assert json.dumps(m)[1:-1] not in text, f"{path.name} names {m} (JSON-escaped)"


def test_paths_outside_the_suites_and_the_working_directory(tmp_path):
    cwd = tmp_path / "work"
    suite = tmp_path / "suites" / "mine"
    (suite / "ijinden").mkdir(parents=True)
    cwd.mkdir()
    p = Portable([suite], cwd=cwd)
    assert p.file(str(suite / "ijinden" / "x.yaml")) == "mine/ijinden/x.yaml"
    assert p.path(str(cwd / "tests" / "e.py")) == "tests/e.py"
    assert p.path("/opt/elsewhere/python3") == "python3"       # outside: its name alone
    assert p.text(f"{suite}/ijinden/x.yaml:3: bad; see {cwd}/e.py") == "mine/ijinden/x.yaml:3: bad; see ./e.py"
    assert p.text(f"{suite}x/y") == f"{suite}x/y"              # a longer name is another folder
    assert p.command(f"tcg-oracle run --cases {suite} --results {tmp_path}/r.json --quiet --report= -k 'a b'") \
        == "tcg-oracle run --cases mine -k 'a b'"
    assert p.command(f"tcg-oracle run --engine 'cmd:/usr/bin/python3 {cwd}/e.py --data={cwd}/d' --cases {cwd}/x") \
        == "tcg-oracle run --engine 'cmd:python3 e.py --data=./d' --cases x"
    assert without_shard("tcg-oracle run --shard 2/4 -k x --shard=1/2") == "tcg-oracle run -k x"


def test_the_report_names_no_path_of_the_machine_where_a_catalog_is_missing(tmp_path):
    from oracle import paths
    from oracle.model import CaseResult, EngineInfo, Results
    from oracle.reports.render import render_html

    cases = [CaseResult(id="x.one", game="nogame", status="pass", file="cases/nogame/one.yaml")]
    page = render_html([Results(engine=EngineInfo(name="e"), suite_version="0", started="2025-01-01",
                                cases=cases, summary=Results.count(cases))])
    assert "could not be loaded" in page and "cases/nogame/rules.yaml" in page
    assert str(paths.cases_dir()) not in page and str(Path.cwd()) not in page
