"""The report's history view: one engine at three versions (tests/engines/versioned_engine.py), one case
starting to fail in the second and another in the third."""

from __future__ import annotations

import html
import json
import os
import re
import struct
import sys
from pathlib import Path

import pytest

from oracle.cli import main
from oracle.model import CaseResult, EngineInfo, Results
from oracle.reports.history import histories
from oracle.reports.runs import split_runs

ENGINES = Path(__file__).resolve().parents[1] / "engines"
CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'nonce-")


@pytest.fixture(scope="module")
def three_versions(tmp_path_factory):
    """Results files of versions 1.0, 2.0 and 3.0 of the versioned engine on the Ijinden suite."""
    sys.path.insert(0, str(ENGINES))
    try:
        import versioned_engine

        out = tmp_path_factory.mktemp("history")
        files = {}
        for v in ("v1", "v2", "v3"):
            files[v] = out / f"{v}.json"
            main(["run", "--engine", f"py:versioned_engine:{v}", "--game", "ijinden", "--quiet",
                  "--results", str(files[v]), "--report", ""])
        return out, files, versioned_engine
    finally:
        sys.path.remove(str(ENGINES))


def _statuses(path: Path) -> dict[str, str]:
    return {c["id"]: c["status"] for c in json.loads(path.read_text(encoding="utf-8"))["cases"]}


def _section(page: str, start: str, end: str) -> str:
    return page[page.index(start):page.index(end, page.index(start))]


def test_history_of_three_versions(three_versions):
    out, files, ve = three_versions
    s1, s2, s3 = (_statuses(files[v]) for v in ("v1", "v2", "v3"))
    # what the engines did (the input of the view, read from the results files)
    assert s1[ve.FIRST_MISREAD] == s1[ve.SECOND_MISREAD] == "pass"
    assert s2[ve.FIRST_MISREAD] == "fail" and s2[ve.SECOND_MISREAD] == "pass"
    assert s3[ve.FIRST_MISREAD] == s3[ve.SECOND_MISREAD] == "fail"
    assert {k for k in s1 if s1[k] != s2[k]} == {ve.FIRST_MISREAD}
    assert {k for k in s2 if s2[k] != s3[k]} == {ve.SECOND_MISREAD}

    report = out / "history.html"  # given out of order: the view orders by version
    assert main(["report", str(files["v3"]), str(files["v1"]), str(files["v2"]), "--out", str(report)]) == 0
    page = report.read_text(encoding="utf-8")
    assert '<a href="#history">History</a>' in page
    view = _section(page, '<section id="history">', "</section>")
    assert "versioned-engine" in view and "1.0 → 2.0 → 3.0" in view

    # pass rate per game per version: the Ijinden row, in version order
    rates = re.search(r"<tr><th>ijinden</th>(.*?)</tr>", view, re.S).group(1)
    ran = sum(1 for st in s1.values() if st != "skip")
    expected = [100 * sum(st == "pass" for st in s.values()) / ran for s in (s1, s2, s3)]
    shown = [float(x) for x in re.findall(r">([\d.]+)%</span>", rates)]
    assert shown == pytest.approx(expected, abs=0.05) and shown[0] == 100 and shown[0] > shown[1] > shown[2]

    # the case that started failing in the second version, and the one in the third
    started = _section(view, "Started failing", "</table>")
    rows = dict(re.findall(r'<tr data-id="([^"]+)">.*?<b>([^<]+)</b>', started, re.S))
    assert rows == {ve.FIRST_MISREAD: "2.0", ve.SECOND_MISREAD: "3.0"}
    changes = _section(view, "history-changes", "</table>")
    assert [m for m in re.findall(r'<tr data-id="([^"]+)"><td>([^<]+)</td>', changes)] == [
        (ve.FIRST_MISREAD, "2.0"), (ve.SECOND_MISREAD, "3.0")]
    failing = _section(view, "history-failing", "</table>")
    since = dict(re.findall(r'<tr data-id="([^"]+)">.*?</span></td><td>([^<]*)</td></tr>', failing, re.S))
    assert since == {ve.FIRST_MISREAD: "2.0", ve.SECOND_MISREAD: "3.0"}

    # the chart: inline SVG, one point per version; nothing fetched, the policy as strict as before
    svg = _section(view, "<svg", "</svg>")
    assert len(re.findall(r"<circle ", svg)) == 3
    assert html.unescape("ijinden · 2.0") in html.unescape(svg)
    assert re.search(r'<meta http-equiv="Content-Security-Policy" content="' + re.escape(CSP), page)
    assert not re.search(r'\b(src|href)="(https?:)?//', page) and "url(" not in page


def _run(version: str, started: str, statuses: dict[str, str]) -> Results:
    cases = [CaseResult(id=i, game="g", status=s) for i, s in statuses.items()]
    return Results(engine=EngineInfo(name="e", version=version), suite_version="x", started=started, cases=cases,
                   summary=Results.count(cases))


def test_versions_in_numeric_order_and_runs_of_one_version_by_date():
    runs = split_runs([_run("1.10", "2025-01-03", {"a": "fail", "b": "fail"}),
                       _run("1.9", "2025-01-02", {"a": "error", "b": "pass"}),
                       _run("1.2", "2025-01-01", {"a": "pass", "b": "pass"})])
    (h,) = histories(runs, ["g"])
    assert [p.label for p in h.points] == ["1.2", "1.9", "1.10"]
    assert [(c.id, c.at, c.was, c.now, c.since) for c in h.changes] == [
        ("a", "1.9", "pass", "error", "1.9"), ("a", "1.10", "error", "fail", "1.9"), ("b", "1.10", "pass", "fail", "1.10")]
    assert [(c.id, c.at) for c in h.started_failing] == [("a", "1.9"), ("b", "1.10")]

    same = split_runs([_run("2", "2025-02-01T10:00:00+00:00", {"a": "fail"}),
                       _run("2", "2025-01-01T10:00:00+00:00", {"a": "pass"})])
    (h,) = histories(same, ["g"])
    assert [p.label for p in h.points] == ["2025-01-01 10:00:00", "2025-02-01 10:00:00"]
    assert [(c.id, c.since) for c in h.started_failing] == [("a", "2025-02-01 10:00:00")]
    assert histories(split_runs([_run("1", "2025-01-01", {"a": "pass"})]), ["g"]) == []


@pytest.mark.browser
def test_history_view_in_chromium(three_versions):
    """The page's script runs to its end with the view in it; the chart is drawn (a screenshot of the top of
    the page, where the history follows the summary): ``reports/screenshot-history.png`` is made so."""
    from oracle.reports.browser import INSTALL_HINT, dump_dom, find_chromium, screenshot

    if find_chromium() is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but chromium is missing: {INSTALL_HINT}")
        pytest.skip(f"chromium not found: {INSTALL_HINT}")
    out, files, ve = three_versions
    report = out / "history-browser.html"
    assert main(["report", *(str(files[v]) for v in ("v1", "v2", "v3")), "--out", str(report)]) == 0
    dom = dump_dom(report)
    assert 'data-ready="' in dom
    view = _section(dom, '<section id="history">', "</section>")
    assert len(re.findall(r"<circle ", _section(view, "<svg", "</svg>"))) == 3
    assert ve.FIRST_MISREAD in _section(view, "Started failing", "</table>")
    png = screenshot(report, out / "history.png", size="1400,1000")
    head = png.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", head[16:24]) == (1400, 1000)


def test_coverage_without_a_reference_run_is_not_shown_as_zero():
    """A history of an engine whose traces carry no clauses: coverage is not available there (never "0 %,
    every clause uncovered"); with asserted clauses in the results it is computed from them, and said so."""
    from oracle.reports import render

    ids = ["ijinden.attack.single-unblocked-wins", "ijinden.attack.three-attackers-one-moment"]
    runs = [_run(v, f"2026-12-0{n}T00:00:00", dict.fromkeys(ids, "pass")) for n, v in ((1, "1.0"), (2, "2.0"))]
    runs = [r.model_copy(update={"cases": [c.model_copy(update={"game": "ijinden", "rules": ["ijinden:A1"]})
                                           for c in r.cases]}) for r in runs]
    page = render.render_html(runs)
    cov = _section(page, '<section id="coverage">', "</section>")
    assert "coverage not available" in cov and "reference engine" in cov
    assert "uncovered" not in re.sub(r"<[^>]+>", "", cov.split("<table", 1)[0])
    (game,) = render.build(runs)["coverage"]
    assert not game.available and {c.state for c in game.testable} == {"unmeasured"}
    tagged = [r.model_copy(update={"cases": [c.model_copy(update={"asserted": ["ijinden:A1"],
                                                                   "executed": ["ijinden:A1"]})
                                             for c in r.cases]}) for r in runs]
    (game,) = render.build(tagged)["coverage"]
    assert game.available and game.covered == 1 and "tagged" in game.source
