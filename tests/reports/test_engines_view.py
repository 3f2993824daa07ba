"""Engines side by side in the report (reports/engines_view.py), and the conformance dashboard page
(reports/dashboard.py), on synthetic results files: the reference, two releases of engine X, engine Y and a
mutant (not an engine under test)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oracle.model import CaseResult, Divergence, EngineInfo, Results
from oracle.reports import dashboard
from oracle.reports.engines_view import engines_view
from oracle.reports.render import render_html
from oracle.reports.runs import split_runs

RULES = {"a": ["mtg:310.1"], "b": ["mtg:310.1", "mtg:310.4b"], "c": ["mtg:310.4b"], "d": ["mtg:310.6"]}


def results(name: str, version: str, statuses: dict[str, str], finished: str = "2026-12-02T00:00:00+00:00",
            title: str = "") -> Results:
    cases = []
    for cid, status in statuses.items():
        extra = {}
        if status == "fail":
            extra["divergence"] = Divergence(what="winner", message=f"{name} {version} fails {cid}")
        if status == "skip":
            extra["skip_reason"] = "an ability it does not implement"
        cases.append(CaseResult(id=cid, game="mtg", status=status, rules=RULES[cid], engine=name,
                                title=title or f"case {cid}", **extra))
    return Results(engine=EngineInfo(name=name, version=version), suite_version="0.1.0",
                   started=finished, finished=finished, cases=cases, summary=Results.count(cases),
                   command=f"tcg-oracle run --engine py:{name}:engine")


REF = results("reference", "0.1.0", {"a": "pass", "b": "pass", "c": "pass", "d": "pass"})
X1 = results("x", "1.0", {"a": "fail", "b": "fail", "c": "fail", "d": "fail"}, "2026-11-01T00:00:00+00:00")
X2 = results("x", "2.0", {"a": "fail", "b": "pass", "c": "fail", "d": "skip"})
Y = results("y", "5", {"a": "fail", "b": "fail", "c": "pass", "d": "fail"})
MUTANT = results("mutant:misread", "0.1.0", {"a": "pass", "b": "fail", "c": "fail", "d": "fail"})


def test_the_cases_every_engine_under_test_fails_are_those_each_that_checked_them_fails():
    view = engines_view(split_runs([REF, X1, X2, Y, MUTANT]), ["mtg"])
    assert [r.name for r in view.engines] == ["reference", "x", "y"], "the mutant is not an engine under test"
    assert [r.version for r in view.engines] == ["0.1.0", "2.0", "5"], "x's newest release stands for it"
    common = {c.id: c for c in view.common}
    assert set(common) == {"a", "d"}, "b passes on x 2.0, c on y; d fails on y and x 2.0 skipped it"
    assert [f.message for f in common["a"].failures] == ["x 2.0 fails a", "y 5 fails a"]
    assert common["d"].unchecked_by == [("x (2)", "skip")] and common["a"].reference == "pass"
    assert view.agreement == {"all pass": 0, "all fail": 0, "differ": 4}


def test_per_clause_each_engine_passes_of_the_cases_it_checked():
    view = engines_view(split_runs([REF, X2, Y]), ["mtg"])
    rows = {r.clause: r.cells for r in view.clauses}
    # columns: reference, x 2.0, y; cells (passed, checked, run)
    assert rows["mtg:310.1"] == [(2, 2, 2), (1, 2, 2), (0, 2, 2)]
    assert rows["mtg:310.4b"] == [(2, 2, 2), (1, 2, 2), (1, 2, 2)]
    assert rows["mtg:310.6"] == [(1, 1, 1), (0, 0, 1), (0, 1, 1)]


def test_the_reference_alone_has_no_engines_view_and_one_engine_alone_lists_its_failures():
    assert engines_view(split_runs([REF]), ["mtg"]) is None
    view = engines_view(split_runs([Y]), ["mtg"])
    assert [c.id for c in view.common] == ["a", "b", "d"] and view.common[0].reference is None


def test_the_report_shows_the_engines_side_by_side_with_case_permalinks():
    page = render_html([REF, X2, Y])
    section = page[page.index('<section id="engines">'):page.index("</section>", page.index('<section id="engines">'))]
    assert 'href="#engines"' in page
    assert "Cases every engine under test fails · 2" in section, "a (x and y fail), d (y fails, x skipped)"
    assert 'href="#case=a"' in section and 'href="#case=d"' in section and 'href="#case=b"' not in section
    assert "x 2.0 fails a" in section and "y 5 fails a" in section
    assert 'href="#clause=mtg%3A310.1"' in section
    assert '<section id="engines">' not in render_html([REF]), "no engine under test: no section"


def test_strings_in_the_engines_view_are_escaped():
    evil = results("<b>evil</b>", "1", {"a": "fail"}, title="<script>alert(1)</script>")
    page = render_html([evil])
    section = page[page.index('<section id="engines">'):page.index("</section>", page.index('<section id="engines">'))]
    assert "<script>alert" not in section and "&lt;script&gt;" in section and "<b>evil" not in section


# -- the dashboard page ---------------------------------------------------------------------------------

def _write(path: Path, res: Results) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(res.model_dump_json(), encoding="utf-8")
    return path


@pytest.fixture()
def committed(tmp_path):
    root = tmp_path / "docs" / "engines"
    _write(root / "x" / "1.0" / "results.json", X1)
    _write(root / "x" / "2.0" / "results.json", X2)
    _write(root / "y" / "5" / "results-mtg.json", Y)
    (root / "x" / "notes.json").write_text("{}", encoding="utf-8")  # not a results file: passed over
    return root


def test_the_dashboard_has_a_row_per_engine_release_and_links_into_each_report(committed, capsys):
    out = committed / "dashboard.md"
    assert dashboard.main([str(committed), "--out", str(out), "--date", "2026-12-02", "--report-name",
                           "report.html"]) == 0
    page = out.read_text(encoding="utf-8")
    rows = [line for line in page.splitlines() if line.startswith("| x ") or line.startswith("| y ")]
    assert [r.split(" | ")[1] for r in rows] == ["1.0", "2.0", "5"]
    assert [r.split(" | ")[2] for r in rows] == ["default"] * 3
    x2 = rows[1]
    assert "[**33%**](x/2.0/report.html#game=mtg)" in x2, "1 pass of 3 checked; the skip is not counted"
    assert "[1 pass](x/2.0/report.html#game=mtg&status=pass)" in x2 and "[1 skip](x/2.0/report.html#game=mtg&status=skip)" in x2
    assert "[x/2.0/results.json](x/2.0/results.json)" in x2
    assert "Generated 2026-12-02" in page
    common = page.split("## Cases every engine under test fails, default ruleset (2)")[1]
    assert "| `a` | mtg | case a | [x](x/2.0/report.html#case=a), [y](y/5/report.html#case=a) |" in common
    assert "| `d` | mtg | case d | [y](y/5/report.html#case=d) |" in common, "x 2.0 skipped d"
    assert "`b`" not in common and "`c`" not in common


def test_the_dashboard_links_are_relative_to_the_page(committed, tmp_path):
    out = tmp_path / "site" / "dash.md"
    assert dashboard.main([str(committed / "y"), "--out", str(out), "--report-name", "index.html"]) == 0
    assert "](../docs/engines/y/5/index.html#game=mtg)" in out.read_text(encoding="utf-8")


def test_the_report_name_pattern_takes_the_results_files_stem_and_ruleset(tmp_path):
    _write(tmp_path / "e" / "rel-1.json", X2)
    _write(tmp_path / "e" / "rel-1.cr-new.json", X2.model_copy(update={"ruleset": "cr-new"}))
    out = tmp_path / "d.md"
    assert dashboard.main([str(tmp_path / "e"), "--out", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "](e/rel-1.html#game=mtg)" in page and "](e/rel-1.cr-new.html#game=mtg)" in page, "default {stem}.html"
    assert dashboard.main([str(tmp_path / "e"), "--out", str(out), "--report-name", "history{ruleset}.html"]) == 0
    page = out.read_text(encoding="utf-8")
    assert "](e/history.html#game=mtg)" in page and "](e/history.cr-new.html#game=mtg)" in page
    assert "| cr-new |" in page
    assert "## Cases every engine under test fails, default ruleset (2)" in page
    assert "## Cases every engine under test fails, ruleset cr-new (2)" in page, "one list per edition"


def test_a_pipe_in_a_title_does_not_break_the_table(tmp_path):
    res = results("z", "1", {"a": "fail"}, title="one | two")
    f = _write(tmp_path / "z" / "results.json", res)
    out = tmp_path / "d.md"
    assert dashboard.main([str(f), "--out", str(out)]) == 0
    assert "one \\| two" in out.read_text(encoding="utf-8")


def test_bad_inputs_are_named(tmp_path, capsys):
    assert dashboard.main([str(tmp_path / "nope"), "--out", str(tmp_path / "d.md")]) == 2
    assert "nope: no such file or folder" in capsys.readouterr().err
    assert dashboard.main([str(tmp_path), "--out", str(tmp_path / "d.md")]) == 2
    assert "a folder with no tcg-oracle results file (*.json) under it" in capsys.readouterr().err
    bad = tmp_path / "results.json"
    bad.write_text(json.dumps({"cases": 3}), encoding="utf-8")
    assert dashboard.main([str(bad), "--out", str(tmp_path / "d.md")]) == 2
    assert "results.json: not a tcg-oracle results file" in capsys.readouterr().err
