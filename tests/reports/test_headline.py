"""The pass rate never hides the skips: 37 passing of 132 cases, 94 of them skipped, is headlined as
"37 pass of 38 run · 94 skipped" in the terminal, the report and ``merge``'s output alike."""

from __future__ import annotations

from argparse import Namespace

from oracle.headline import headline
from oracle.model import CaseResult, EngineInfo, Results


def _results() -> Results:
    cases = ([CaseResult(id=f"ijinden.p{i}", game="ijinden", status="pass", order=i) for i in range(37)]
             + [CaseResult(id="ijinden.f", game="ijinden", status="fail", order=37)]
             + [CaseResult(id=f"ijinden.s{i}", game="ijinden", status="skip", skip_reason="x", order=38 + i)
                for i in range(94)])
    return Results(engine=EngineInfo(name="toy", version="1"), suite_version="0", started="2026-12-02T00:00:00",
                   cases=cases, summary=Results.count(cases))


def test_the_headline_counts():
    h = headline(Results.count(_results().cases))
    assert (h.passed, h.run, h.skipped, h.total) == (37, 38, 94, 132)
    assert h.text() == "37 pass of 38 run (97.4%) · 94 skipped · 132 cases"


def test_terminal_report_and_merge_say_the_same(tmp_path, capsys):
    from oracle.cli import _print_summary
    from oracle.harness import merge
    from oracle.reports import render

    res = _results()
    _print_summary(res, "r.json", "")
    out = capsys.readouterr().out
    assert "pass: 37 pass of 38 run (97.4%) · 94 skipped · 132 cases" in out
    assert "37/38 97.4%" in out
    html = render.render_html([res])
    assert "37/38 run · 97.4%" in html and "94 skipped" in html
    path = tmp_path / "r.json"
    path.write_text(res.model_dump_json(), encoding="utf-8")
    assert merge.main(Namespace(inputs=[path], out=tmp_path / "m.json", junit=None, baseline=None)) == 0
    assert "pass: 37 pass of 38 run (97.4%) · 94 skipped · 132 cases" in capsys.readouterr().out
