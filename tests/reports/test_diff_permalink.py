"""``tcg-oracle diff A.json B.json [CASE]``: per case that changed, both runs' verdicts; one case in full
(expected against actual in each run, where the traces part). And the report's permalink per case."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from oracle.cli import main

ENGINES = Path(__file__).resolve().parents[1] / "engines"


@pytest.fixture(scope="module")
def two_versions(tmp_path_factory):
    sys.path.insert(0, str(ENGINES))
    try:
        import versioned_engine

        out = tmp_path_factory.mktemp("diff")
        for v in ("v1", "v2"):
            main(["run", "--engine", f"py:versioned_engine:{v}", "--game", "ijinden", "--quiet",
                  "--results", str(out / f"{v}.json"), "--report", ""])
        return out / "v1.json", out / "v2.json", versioned_engine
    finally:
        sys.path.remove(str(ENGINES))


def test_diff_lists_the_cases_that_changed_with_both_verdicts(two_versions, capsys):
    a, b, ve = two_versions
    assert main(["diff", str(a), str(b)]) == 1
    out = capsys.readouterr().out
    assert f"{ve.FIRST_MISREAD}: pass -> fail" in out
    assert '  B: fail: expected moment 4 [{"won": {"player": "alice"}}] was not found' in out
    assert "1 of 132 case(s) changed" in out
    assert main(["diff", str(a), str(a)]) == 0
    assert "0 of 132 case(s) changed" in capsys.readouterr().out


def test_diff_of_one_case_in_full(two_versions, capsys):
    a, b, ve = two_versions
    assert main(["diff", str(a), str(b), ve.FIRST_MISREAD]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"{ve.FIRST_MISREAD}\nA: pass\n")
    assert '    expected: [{"won": {"player": "alice"}}]' in out and "    actual:   null" in out
    assert re.search(r'traces part at moment \d+:\n  A: won {"player": "alice"}\n  B: \(the trace has ended\)', out)
    assert main(["diff", str(a), str(b), "no.such.case"]) == 2
    assert "is in neither file" in capsys.readouterr().err


def test_diff_refuses_what_is_not_results(two_versions, tmp_path, capsys):
    a, _, _ = two_versions
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    assert main(["diff", str(a), str(bad)]) == 2
    assert str(bad) in capsys.readouterr().err


@pytest.mark.browser
@pytest.mark.slow
def test_each_case_has_a_permalink(two_versions, tmp_path):
    from oracle.reports.browser import dump_dom, find_chromium

    if find_chromium() is None:
        pytest.skip("chromium not found")
    a, b, ve = two_versions
    report = tmp_path / "r.html"
    assert main(["report", str(a), str(b), "--out", str(report)]) == 0
    dom = dump_dom(report)
    links = re.findall(r'<a class="permalink" href="([^"]+)"', dom)
    rows = re.findall(r'<tr class="row[^"]*" data-id="([^"]+)"', dom)  # the first page of the list
    assert links == [f"#case={cid}" for cid in rows] and len(rows) == 100
    one = dump_dom(report, f"case={ve.FIRST_MISREAD}")
    assert re.findall(r'<tr class="row[^"]*" data-id="([^"]+)"', one) == [ve.FIRST_MISREAD]
    assert 'permalink</a>' in one[one.index('<tr class="detail"'):]
