"""The report in a real browser: headless Chromium (Debian's ``chromium``) runs the inline script,
applies filters read from the URL fragment, and draws a case; escaping holds in the live DOM."""

from __future__ import annotations

import os
import re

import pytest

from oracle.baseline import Baseline
from oracle.reports import render_report
from oracle.reports.browser import INSTALL_HINT, dump_dom, find_chromium

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def chromium():
    exe = find_chromium()
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but chromium is missing: {INSTALL_HINT}")
        pytest.skip(f"chromium not found: {INSTALL_HINT}")
    return exe


def _rows(dom: str) -> list[str]:
    """Ids of the case rows the page shows."""
    return re.findall(r'<tr class="row[^"]*" data-id="([^"]+)"', dom)


def test_filters_and_case_details_in_chromium(chromium, toy_results, tmp_path):
    report = render_report(toy_results, tmp_path / "report.html",
                           baseline=Baseline(None, {"rtoy.win.unblocked": "pass"}))

    everything = dump_dom(report)
    assert 'data-ready="' in everything, "the inline script ran to its end"
    assert sorted(_rows(everything)) == ["rtoy.attack.tapped-refused", "rtoy.fight.tie", "rtoy.win.unblocked",
                                         "rtoy.xss.title"]
    assert "4 cases" in everything

    failing = dump_dom(report, "status=fail")
    assert sorted(_rows(failing)) == ["rtoy.fight.tie", "rtoy.xss.title"]
    assert "2 of 4 cases" in failing

    assert _rows(dump_dom(report, "q=unblocked")) == ["rtoy.win.unblocked"]
    assert sorted(_rows(dump_dom(report, "clause=rtoy:WIN"))) == ["rtoy.attack.tapped-refused", "rtoy.win.unblocked"]
    assert _rows(dump_dom(report, "status=fail&engine=one-at-a-time&q=equal")) == ["rtoy.fight.tie"]
    assert sorted(_rows(dump_dom(report, "status=regression"))) == ["rtoy.fight.tie", "rtoy.xss.title"]

    # a deep link opens the case: board, traces side by side with the first divergence, commands
    case = dump_dom(report, "case=rtoy.xss.title")
    assert _rows(case) == ["rtoy.xss.title"]
    detail = case[case.index('<tr class="detail"'):]
    assert "<script>alert(1)</script>" not in case
    assert "evil &lt;script&gt;alert(1)&lt;/script&gt;" in detail          # the card name, as text
    assert "Title &lt;script&gt;alert(1)&lt;/script&gt; here" in detail     # the title, as text
    assert len(re.findall(r"<script\b", case)) == 2                         # only the report's own
    assert "first divergence" in detail and "≈ nearest" in detail
    assert "tcg-oracle run --engine py:report_toy:OneAtATime --game rtoy -k rtoy.xss.title" in detail
    assert "tcg-oracle explain rtoy.xss.title" in detail
    assert 'class="card tapped"' in detail and "1× shield counter" in detail
