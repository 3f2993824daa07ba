"""``report --baseline`` with entries ``{status, reason, bug}`` (oracle.baseline, branch cicore): a failure the
baseline expects is shown as "expected fail" with its reason and bug link, not as a plain red failure."""

from __future__ import annotations

import json
import re

import pytest

from oracle.reports import render

REASON = "destroys the losers one at a time"
BUG = "https://example.org/one-at-a-time/issues/7"


def _blob(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', html, re.S)
    return json.loads(m.group(1))


@pytest.fixture
def baseline(tmp_path, toy_results):
    _, mut = toy_results
    failing = sorted(c.id for c in mut.cases if c.status == "fail")
    assert failing, "the one-at-a-time engine fails a toy case"
    path = tmp_path / "b.yaml"
    path.write_text("schema_version: 1\nengine: one-at-a-time\ncases:\n"
                    + "".join(f"  {cid}:\n    status: fail\n    reason: {REASON}\n    bug: {BUG}\n" for cid in failing),
                    encoding="utf-8")
    return path, failing


def test_an_expected_failure_carries_its_reason_and_bug(toy_results, baseline):
    path, failing = baseline
    html = render.render_html(toy_results, baseline=path)
    data = _blob(html)
    col = [e["key"] for e in data["engines"]].index("one-at-a-time")
    for case in data["cases"]:
        run = case["runs"][col]
        if case["id"] in failing:
            assert run["s"] == "fail" and run["xf"] == [REASON, BUG]
        else:
            assert "xf" not in run
    ref = [e["key"] for e in data["engines"]].index("reference")
    assert all("xf" not in c["runs"][ref] for c in data["cases"])  # the baseline names the other engine
    section = html[html.index('<section id="regressions">'):html.index("</section>", html.index('id="regressions"'))]
    assert "Expected failures" in section and REASON in section and BUG in section
    assert "Regressions (worse" not in section


@pytest.mark.browser
@pytest.mark.slow
def test_the_badge_says_expected_fail(toy_results, baseline, tmp_path):
    from oracle.reports.browser import dump_dom, find_chromium

    if find_chromium() is None:
        pytest.skip("chromium not found")
    path, failing = baseline
    out = render.render_report(toy_results, tmp_path / "r.html", baseline=path)
    dom = dump_dom(out, f"case={failing[0]}")
    assert re.search(r'<span class="st xfail" title="expected fail \(the baseline\): ' + REASON, dom)
    detail = dom[dom.index('<tr class="detail"'):dom.index('<button id="more"')]
    assert f'<a href="{BUG}" rel="noreferrer">{BUG}</a>' in detail
