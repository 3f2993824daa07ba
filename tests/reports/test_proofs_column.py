"""The coverage table's "proved" column (issue 12 item 7): clauses proved by a bounded property, read from
``tcg-oracle prove --json``; a counterexample or unknown result proves nothing; a broken file is a clear
error naming it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from oracle.harness.engine import ReferenceEngine
from oracle.harness.runner import run_suite
from oracle.loader import load_suite
from reports.proofs import load_proofs
from reports.render import render_html


@pytest.fixture(scope="module")
def ijinden_results():
    return run_suite(ReferenceEngine(), load_suite(), games=["ijinden"], k="B1")


def _prove(tmp_path, game="ijinden"):
    out = tmp_path / "prove.json"
    subprocess.run([sys.executable, "-m", "oracle", "prove", "--game", game, "--max-cards", "2", "--json", str(out)],
                   check=True, capture_output=True)
    return out


def test_a_real_prove_run_marks_its_clauses_proved(tmp_path, ijinden_results):
    proofs = _prove(tmp_path)
    rows = load_proofs(proofs)
    assert any(r.status == "proved" for r in rows["ijinden:B1"])
    html = render_html([ijinden_results], proofs=proofs)
    assert "proved by a bounded property" in html
    assert "ijinden.pressure: proved (≤ 2 cards)" in html


def test_a_counterexample_proves_nothing(tmp_path, ijinden_results):
    data = json.loads(_prove(tmp_path).read_text())
    for p in data["properties"]:
        p["status"] = "counterexample"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    html = render_html([ijinden_results], proofs=bad)
    assert "0 proved by a bounded property" in html
    assert "ijinden.pressure: counterexample" in html


def test_without_proofs_there_is_no_column(ijinden_results):
    assert "proved by a bounded property" not in render_html([ijinden_results])


@pytest.mark.parametrize("text, says", [("{", "not JSON"), ('{"schema_version": 1}', "not the output"),
                                        ('{"schema_version": 1, "properties": [{"property": "x"}]}', "properties[0]")])
def test_a_broken_proofs_file_is_bad_usage_naming_it(tmp_path, ijinden_results, text, says):
    bad = tmp_path / "p.json"
    bad.write_text(text)
    res = tmp_path / "r.json"
    res.write_text(ijinden_results.model_dump_json())
    run = subprocess.run([sys.executable, "-m", "oracle", "report", str(res), "--out", str(tmp_path / "r.html"),
                          "--proofs", str(bad)], capture_output=True, text=True)
    assert run.returncode == 2
    assert str(bad) in run.stderr and says in run.stderr
