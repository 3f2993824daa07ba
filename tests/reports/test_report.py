"""The HTML report: escaping, self-containment, summary, coverage, traces, baselines, the CLI."""

from __future__ import annotations

import json
import re
from argparse import Namespace
from html.parser import HTMLParser

import pytest

from oracle.reports import bench_render, render_report
from oracle.reports import render as render_mod
from oracle.baseline import Baseline, BaselineError, load_baseline
from oracle.reports.regressions import diff
from oracle.reports.runs import split_runs

XSS = "<script>alert(1)</script>"


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[tuple[str, str, str]] = []
        self.scripts: list[dict[str, str | None]] = []
        self.meta: list[dict[str, str | None]] = []

    def handle_starttag(self, tag, attrs):
        d = dict(attrs)
        for name in ("src", "href", "action", "poster", "data"):
            if d.get(name) is not None:
                self.urls.append((tag, name, d[name]))
        if tag == "script":
            self.scripts.append(d)
        if tag == "meta":
            self.meta.append(d)


def _blob(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', html, re.S)
    assert m, "the report embeds its data"
    return json.loads(m.group(1))


def test_script_tags_in_title_and_card_name_are_escaped(toy_results, tmp_path):
    out = render_report(toy_results, tmp_path / "r.html",
                        baseline=Baseline(None, {"rtoy.fight.tie": "pass"}))
    html = out.read_text(encoding="utf-8")
    assert XSS not in html
    assert "<script>alert" not in html.lower()
    # server-rendered (the regressions view lists the failing case by its title): HTML-escaped
    assert "Title &lt;script&gt;alert(1)&lt;/script&gt; here" in html
    # the embedded data keeps the strings intact, with < and > escaped for the script element
    data = _blob(html)
    case = next(c for c in data["cases"] if c["id"] == "rtoy.xss.title")
    assert case["title"] == f"Title {XSS} here"
    names = [k["name"] for p in case["board"]["players"] for z in p["zones"] for k in z.get("cards", [])]
    assert f"evil {XSS}" in names
    parser = _Links()
    parser.feed(html)
    assert [s.get("type") for s in parser.scripts] == ["application/json", None]


def test_no_external_url_and_nothing_fetched(toy_results, tmp_path):
    html = render_report(toy_results, tmp_path / "r.html").read_text(encoding="utf-8")
    parser = _Links()
    parser.feed(html)
    assert parser.urls, "the report has internal links"
    external = [u for u in parser.urls if not (u[2].startswith("#") or u[2].startswith("data:"))]
    assert external == []
    csp = next(m for m in parser.meta if (m.get("http-equiv") or "").lower() == "content-security-policy")
    assert "default-src 'none'" in csp["content"]
    # the case's source URL is shown as text, never as a link
    assert "https://example.org/rtoy" in html
    assert 'href="https://' not in html and "src=\"http" not in html


def test_summary_per_game_and_engine(toy_results):
    ctx = render_mod.build(toy_results)
    assert [r.key for r in ctx["runs"]] == ["reference", "one-at-a-time"]
    rows = {row["game"]: row for row in ctx["summary"]}
    assert set(rows) == {"rtoy", "all"}
    ref, mut = rows["rtoy"]["cells"]
    assert ref["counts"] == {"pass": 4, "fail": 0, "error": 0, "skip": 0, "not_checkable": 0}
    assert ref["pass_rate"] == 100
    assert mut["counts"] == {"pass": 2, "fail": 2, "error": 0, "skip": 0, "not_checkable": 0}
    assert mut["pass_rate"] == 50
    assert ctx["runs"][1].spec == "py:report_toy:OneAtATime"


def test_coverage_counts_only_asserted_clauses(toy_results):
    (cov,) = render_mod.build(toy_results)["coverage"]
    state = {c.id: c.state for c in cov.clauses}
    assert state == {"rtoy:ATTACK": "covered", "rtoy:BLOCK": "covered", "rtoy:WIN": "covered",
                     "rtoy:FIGHT": "covered", "rtoy:UNUSED": "uncovered", "rtoy:TERMS": "untestable"}
    assert (cov.covered, len(cov.testable)) == (4, 5)
    assert cov.percent == 80
    assert "reference engine" in cov.source
    fight = next(c for c in cov.clauses if c.id == "rtoy:FIGHT")
    assert fight.text == "同時に破壊する。" and fight.summary == "Losers are destroyed at once."
    # pass/fail per engine of the cases citing the clause
    assert fight.per_engine[0]["pass"] == 2 and fight.per_engine[1]["fail"] == 2
    assert cov.assumptions[0]["id"] == "rtoy:assume.ties" and cov.assumptions[0]["cases"] == ["rtoy.fight.tie"]


def test_coverage_html_shows_clause_texts_and_marks(toy_results, tmp_path):
    html = render_report(toy_results, tmp_path / "r.html").read_text(encoding="utf-8")
    for text in ("同時に破壊する。", "Losers are destroyed at once.", "80%", "uncovered", "not testable",
                 "definitional", "Equal powers: both lose."):
        assert text in html


def test_first_divergence_is_aligned(toy_results):
    data = render_mod.build(toy_results)["blob"]
    case = next(c for c in data["cases"] if c["id"] == "rtoy.fight.tie")
    ref, mut = case["runs"]
    assert ref["s"] == "pass" and ref["al"]["first"] == -1 and -1 not in ref["al"]["match"]
    assert mut["s"] == "fail" and mut["al"]["match"][:2] == ref["al"]["match"][:2]
    assert mut["al"]["match"][2] == -1 and mut["al"]["first"] == 2
    near = mut["al"]["near"]
    trace = [[e[0], data["names"][e[1]], e[2]] for e in data["traces"][mut["tr"]]]
    moments = sorted({e[0] for e in trace})
    assert [e[1:3] for e in trace if e[0] == moments[near]] == [["destroyed", {"card": "a1"}]]
    assert "was not found" in mut["div"]["message"]
    # an expected refusal is matched against the refused decision
    refused = next(c for c in data["cases"] if c["id"] == "rtoy.attack.tapped-refused")
    assert list(refused["runs"][0]["al"]["rejected"].values()) == [0]


def test_board_and_reproduce_data(toy_results):
    data = render_mod.build(toy_results)["blob"]
    case = next(c for c in data["cases"] if c["id"] == "rtoy.fight.tie")
    alice = next(p for p in case["board"]["players"] if p["id"] == "alice")
    assert alice["active"]
    field = next(z for z in alice["zones"] if z["zone"] == "battlefield")["cards"]
    a2 = next(k for k in field if k["id"] == "a2")
    assert a2["tapped"] and a2["power"] == 1000 and "1× shield counter" in a2["badges"]
    assert next(z for z in alice["zones"] if z["zone"] == "deck") == {"zone": "deck", "count": 5}
    assert case["source"]["quote"] == "Quote of Equal powers: both are destroyed at once"
    assert [e["spec"] for e in data["engines"]] == ["reference", "py:report_toy:OneAtATime"]


def test_identical_traces_are_stored_once(toy_results):
    data = render_mod.build(toy_results)["blob"]
    case = next(c for c in data["cases"] if c["id"] == "rtoy.win.unblocked")
    assert case["runs"][0]["tr"] == case["runs"][1]["tr"]


def test_baseline_file_and_regressions_of_the_engine_it_names(toy_results, tmp_path):
    path = tmp_path / "baseline.yaml"
    path.write_text("schema_version: 1\nengine: one-at-a-time\ncases:\n  rtoy.fight.tie: pass\n"
                    "  rtoy.xss.title: fail\n  rtoy.win.unblocked: fail\n  rtoy.gone: pass\n", encoding="utf-8")
    base = load_baseline(path)
    assert base == Baseline("one-at-a-time", {"rtoy.fight.tie": "pass", "rtoy.xss.title": "fail",
                                              "rtoy.win.unblocked": "fail", "rtoy.gone": "pass"})
    d = diff(base, split_runs(toy_results))
    # only the column of the named engine: the reference passes everything, but is not compared
    assert d.applies_to == ["one-at-a-time"] and "applied to it only" in d.note
    assert [(c.engine, c.id, c.was, c.now) for c in d.regressions] == [
        ("one-at-a-time", "rtoy.fight.tie", "pass", "fail")]
    assert [(c.id, c.was) for c in d.fixed] == [("rtoy.win.unblocked", "fail")]
    assert [(c.id, c.was, c.now) for c in d.missing] == [("rtoy.gone", "pass", None)]
    assert d.expected("one-at-a-time", "rtoy.gone") == "pass" and d.expected("reference", "rtoy.gone") is None
    html = render_report(toy_results, tmp_path / "r.html", baseline=path).read_text(encoding="utf-8")
    assert 'id="regressions"' in html and "Newly passing" in html
    assert "recorded for engine one-at-a-time and is applied to it only" in html
    runs = {c["id"]: c["runs"] for c in _blob(html)["cases"]}
    assert runs["rtoy.fight.tie"][1] == {**runs["rtoy.fight.tie"][1], "was": "pass", "reg": True}
    assert "was" not in runs["rtoy.fight.tie"][0] and "reg" not in runs["rtoy.fight.tie"][0]


@pytest.mark.parametrize("engine, note", [
    (None, "names no engine: it is applied to every engine shown"),
    ("someone-else", "recorded for engine someone-else, which this report does not show: it is applied to every"),
])
def test_baseline_without_a_shown_engine_applies_to_every_engine(toy_results, tmp_path, engine, note):
    base = Baseline(engine, {"rtoy.fight.tie": "pass", "rtoy.win.unblocked": "skip"})
    d = diff(base, split_runs(toy_results))
    assert d.applies_to == ["reference", "one-at-a-time"] and note in d.note
    assert [(c.engine, c.id) for c in d.regressions] == [("one-at-a-time", "rtoy.fight.tie"),
                                                         ("one-at-a-time", "rtoy.xss.title")]  # not in it, fails
    assert [(c.engine, c.id) for c in d.fixed] == [("reference", "rtoy.win.unblocked"),
                                                   ("one-at-a-time", "rtoy.win.unblocked")]
    html = render_report(toy_results, tmp_path / "r.html", baseline=base).read_text(encoding="utf-8")
    assert note in html


@pytest.mark.parametrize("name, text, message", [
    ("syntax.yaml", "schema_version: 1\ncases:\n  rtoy.a: pass\n  rtoy.b: [pass\n",
     r"syntax\.yaml:5: YAML syntax error: did not find expected ',' or ']'"),
    ("syntax.json", '{"schema_version": 1,\n "cases": {"rtoy.a": "pass",}}',
     r"syntax\.json:2: JSON syntax error"),
    ("status.yaml", "schema_version: 1\ncases:\n  rtoy.a: pass\n  rtoy.b: passed\n",
     r"status\.yaml:4: case rtoy\.b: status 'passed' is not one of pass, fail, error, skip"),
    ("status.json", '{"schema_version": 1, "cases": {"rtoy.b": "PASS"}}', r"status\.json: case rtoy\.b: status 'PASS'"),
    ("twice.yaml", "schema_version: 1\ncases:\n  rtoy.a: pass\n  rtoy.a: fail\n",
     r"twice\.yaml:4: case rtoy\.a is listed twice \(first at line 3\)"),
    # the undocumented shapes are refused, not guessed at
    ("flat.yaml", "rtoy.a: pass\n", r"flat\.yaml: unknown key\(s\) rtoy\.a"),
    ("per-engine.yaml", "schema_version: 1\ncases: {reference: {rtoy.a: pass}}\n",
     r"case reference: unknown key\(s\) rtoy\.a; an entry is a status or a mapping of status, reason, bug"),
    ("list.yaml", "- {id: rtoy.a, status: pass}\n", r"list\.yaml: expected a mapping .* got list"),
    ("version.yaml", "engine: x\ncases: {rtoy.a: pass}\n", r"version\.yaml: schema_version is None, expected 1"),
    ("empty.yaml", "", r"empty\.yaml: expected a mapping .* got NoneType"),
])
def test_baseline_errors_name_the_file_line_and_case(tmp_path, name, text, message):
    (tmp_path / name).write_text(text, encoding="utf-8")
    with pytest.raises(BaselineError, match=message):
        load_baseline(tmp_path / name)


def test_missing_or_bad_baseline_in_the_report_command(toy_results, tmp_path, capsys):
    from oracle.reports.cli import main

    results = tmp_path / "results.json"
    results.write_text(toy_results[0].model_dump_json(exclude_none=True), encoding="utf-8")
    out = tmp_path / "report.html"
    assert main(Namespace(inputs=[results], out=out, baseline=str(tmp_path / "nope.yaml"))) == 2
    assert f"baseline {tmp_path / 'nope.yaml'} does not exist" in capsys.readouterr().err
    (tmp_path / "bad.yaml").write_text("schema_version: 1\ncases: {rtoy.a: [\n", encoding="utf-8")
    assert main(Namespace(inputs=[results], out=out, baseline=str(tmp_path / "bad.yaml"))) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'bad.yaml'}:3: YAML syntax error" in err and "Traceback" not in err
    assert not out.exists()
    with pytest.raises(TypeError, match="a path or an oracle.baseline.Baseline"):
        render_report(toy_results, out, baseline={"rtoy.fight.tie": "pass"})


def test_report_command(toy_results, tmp_path, capsys):
    from oracle.reports.cli import main

    files = []
    for i, res in enumerate(toy_results):
        f = tmp_path / f"results-{i}.json"
        f.write_text(res.model_dump_json(exclude_none=True), encoding="utf-8")
        files.append(f)
    out = tmp_path / "out" / "report.html"
    assert main(Namespace(inputs=files, out=out, baseline=None)) == 0
    assert "8 results from 2 file(s)" in capsys.readouterr().out
    data = _blob(out.read_text(encoding="utf-8"))
    assert [e["key"] for e in data["engines"]] == ["reference", "one-at-a-time"]
    (tmp_path / "junk.json").write_text("{}", encoding="utf-8")
    assert main(Namespace(inputs=[tmp_path / "junk.json"], out=out, baseline=None)) == 2
    assert "not a tcg-oracle results file" in capsys.readouterr().err
    assert main(Namespace(inputs=[tmp_path / "missing.json"], out=out, baseline=None)) == 2


def test_run_writes_the_report(rtoy, tmp_path):
    from oracle.cli import main

    report = tmp_path / "run.html"
    code = main(["run", "--game", "rtoy", "--results", str(tmp_path / "r.json"), "--report", str(report), "--quiet"])
    assert code == 0
    data = _blob(report.read_text(encoding="utf-8"))
    assert len(data["cases"]) == 4 and all(c["runs"][0]["s"] == "pass" for c in data["cases"])
    assert not data["baseline"]
    # with --baseline the run's report has the regressions view (a skip expected, a pass now: a change)
    base = tmp_path / "b.yaml"
    base.write_text("schema_version: 1\nengine: reference\ncases: {rtoy.win.unblocked: skip}\n", encoding="utf-8")
    main(["run", "--game", "rtoy", "--results", str(tmp_path / "r.json"), "--report", str(report), "--quiet",
          "--baseline", str(base)])
    html = report.read_text(encoding="utf-8")
    assert _blob(html)["baseline"] and 'id="regressions"' in html and "Newly passing" in html


def test_merged_file_of_two_engines_is_split(toy_results):
    from oracle.model import Results

    ref, mut = toy_results
    merged = Results(engine=ref.engine, suite_version="x", started=ref.started, cases=[*ref.cases, *mut.cases])
    ctx = render_mod.build([merged])
    assert [r.key for r in ctx["runs"]] == ["reference", "one-at-a-time"]
    # two runs of the same engine side by side get distinct columns
    assert [r.key for r in render_mod.build([ref, ref.model_copy()])["runs"]] == ["reference", "reference (2)"]


def test_a_game_without_catalog_still_renders(tmp_path):
    from oracle.reports.bench import synthetic_results

    html = render_report(synthetic_results(30), tmp_path / "r.html").read_text(encoding="utf-8")
    assert "could not be loaded" in html
    assert len(_blob(html)["cases"]) == 30


def test_bench_render_returns_seconds(tmp_path):
    out = tmp_path / "bench.html"
    seconds = bench_render(200, engines=2, out=out)
    assert isinstance(seconds, float) and seconds > 0
    assert len(_blob(out.read_text(encoding="utf-8"))["cases"]) == 100


def test_levels_in_the_report(tmp_path):
    """An engine of level final: its level, the not-checkable count apart from the pass rate, and per
    case what could not be checked with the level it needs."""
    import sys as _sys
    from pathlib import Path as _Path

    _sys.path.insert(0, str(_Path(__file__).resolve().parent.parent / "harness"))
    import level_engines

    from oracle.harness.adapters import PythonEngine
    from oracle.harness.runner import run_suite
    from oracle.loader import load_suite

    suite = load_suite([level_engines.suite_with_an_events_only_case(tmp_path / "suite")])
    results = run_suite(PythonEngine(level_engines.final, "final"), suite, games=["ijinden"])
    ctx = render_mod.build([results])
    (run,) = ctx["runs"]
    assert run.level == "final"
    cell = next(r for r in ctx["summary"] if r["game"] == "all")["cells"][0]
    n = cell["counts"]
    assert n["not_checkable"] > 0 and n["fail"] == n["error"] == 0
    assert cell["pass_rate"] == 100  # not-checkable cases are not counted against the engine
    ch = run.checking()
    assert ch["none"] == n["not_checkable"] and ch["full"] + ch["partly"] == n["pass"] and ch["partly"] > 0
    out = tmp_path / "r.html"
    render_mod.render_report([results], out)
    html = out.read_text()
    assert "not checkable" in html and "in full" in html and '"unc":' in html and '"lv":"final"' in html.replace(" ", "")


def test_a_large_report_packs_its_data(toy_results, tmp_path):
    """Above PACK_ABOVE characters the data is gzip in base64 (the browser unpacks it); it is the same data."""
    import base64
    import gzip
    import re as _re

    from oracle.reports.render import build, render_html

    html = render_html(toy_results, pack_above=100)
    assert 'id="report-data"' not in html
    packed = _re.search(r'<script type="application/octet-stream" id="report-data-gz">([A-Za-z0-9+/=]+)</script>',
                        html).group(1)
    data = json.loads(gzip.decompress(base64.b64decode(packed)))
    assert data["games"] == build(toy_results)["blob"]["games"] and len(data["cases"]) == 4
    assert 'id="report-data"' in render_html(toy_results)  # a small report stays plain JSON


def test_packed_data_unpacks_with_the_browser_api(toy_results, tmp_path):
    """The packed text through the steps report.js takes (atob, Blob stream, DecompressionStream), in Node."""
    import re as _re
    import shutil
    import subprocess

    from oracle.reports.render import render_html

    node = shutil.which("node")
    if node is None:
        pytest.skip("node not found")
    html = render_html(toy_results, pack_above=100)
    packed = _re.search(r'id="report-data-gz">([^<]+)</script>', html).group(1)
    script = ("const bin = atob(process.argv[1]); const bytes = new Uint8Array(bin.length);"
              "for (let b = 0; b < bin.length; b++) bytes[b] = bin.charCodeAt(b);"
              "new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text()"
              ".then(t => console.log(JSON.parse(t).cases.length));")
    out = subprocess.run([node, "-e", script, packed], capture_output=True, text=True, timeout=60)
    if out.returncode != 0 and "DecompressionStream" in out.stderr:
        pytest.skip(f"this node has no DecompressionStream: {out.stderr[-200:]}")
    assert out.stdout.strip() == "4", out.stderr
