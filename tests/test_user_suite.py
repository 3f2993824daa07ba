"""A suite folder outside `cases/` (an engine author's own regression cases) brings its own
`<game>/cards.yaml` and `<game>/rules.yaml`, extending the built-in pool and catalog; every command that
takes cases (`run`, `validate`, `explain`, `report`) takes `--cases`; a broken extension file is a located
validation error, never silently ignored (issue 9 item 3, issue 14 item 12)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from oracle.cli import main
from oracle.loader import load_suite

CARDS = """\
schema_version: 1
game: ijinden
cards:
  - name: ユーザー用イジン
    synthetic: true
    text: (an engine author's own test card; no abilities)
    types: [ijin]
"""
RULES = """\
schema_version: 1
game: ijinden
documents:
  - {id: my-notes, title: an engine author's notes}
clauses:
  - id: "ijinden:user.attack-alone"
    text: A lone attacker nobody blocks wins the game for its player.
    summary: A lone unblocked attacker wins
    document: my-notes
"""
CASE = """\
id: user.lone-attacker
game: ijinden
rulesets: [ijinden-rulecard-2.0-231225]
title: The engine author's own card attacks alone and wins
source: {kind: external, document: my-notes, edition: "1", page: "1", quote: A lone attacker wins}
rules: ["ijinden:A3", "ijinden:user.attack-alone"]
setup:
  active: alice
  players:
    alice: {battlefield: [{id: u, card: ユーザー用イジン, power: 2000}]}
    bob: {}
script:
  - {alice: {declare_attackers: [u]}}
  - {bob: {declare_blockers: {}}}
  - {bob: {choose_attacker: u}}
expect:
  events:
    - {contains: [{became_attacker: u}]}
  winner: alice
"""


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    root = tmp_path / "mysuite"
    game = root / "ijinden"
    game.mkdir(parents=True)
    (game / "cards.yaml").write_text(CARDS, encoding="utf-8")
    (game / "rules.yaml").write_text(RULES, encoding="utf-8")
    (game / "lone.yaml").write_text(CASE, encoding="utf-8")
    return root


def test_the_suite_loads_with_its_own_card_and_clause(suite):
    loaded = load_suite([suite])
    assert not loaded.errors, [str(e) for e in loaded.errors]
    assert [lc.case.id for lc in loaded.cases] == ["user.lone-attacker"]  # cards.yaml, rules.yaml: not cases
    # the game's folder itself, or the case file alone, brings the same files
    for given in (suite / "ijinden", suite / "ijinden" / "lone.yaml"):
        assert not load_suite([given]).errors, given


def test_without_the_extension_the_card_and_clause_are_unknown(suite, tmp_path):
    alone = tmp_path / "alone.yaml"
    alone.write_text(CASE, encoding="utf-8")
    messages = " ".join(str(e) for e in load_suite([alone]).errors)
    assert "unknown card 'ユーザー用イジン'" in messages and "ijinden:user.attack-alone" in messages


def test_validate_and_run_take_the_suite(suite, tmp_path, capsys):
    assert main(["validate", "--cases", str(suite)]) == 0
    assert "1 valid case(s), 0 error(s)" in capsys.readouterr().out
    results, report = tmp_path / "r.json", tmp_path / "r.html"
    code = main(["run", "--cases", str(suite), "--results", str(results), "--report", str(report), "--quiet"])
    data = json.loads(results.read_text(encoding="utf-8"))
    assert code == 0 and [(c["id"], c["status"]) for c in data["cases"]] == [("user.lone-attacker", "pass")]
    assert "ijinden:user.attack-alone" in report.read_text(encoding="utf-8")  # the suite's clause is in coverage
    out = tmp_path / "again.html"
    assert main(["report", str(results), "--out", str(out), "--cases", str(suite)]) == 0
    assert "ijinden:user.attack-alone" in out.read_text(encoding="utf-8")


def test_explain_takes_the_suite(suite, capsys):
    assert main(["explain", "user.lone-attacker", "--cases", str(suite)]) == 0
    out = capsys.readouterr().out
    assert "ユーザー用イジン" in out
    assert main(["explain", "user.lone-attacker", "--request", "--cases", str(suite)]) == 0
    request = json.loads(capsys.readouterr().out)
    assert request["cards"]["ユーザー用イジン"]["synthetic"] is True
    assert main(["explain", "user.lone-attacker"]) == 2  # not in the built-in suite


@pytest.mark.parametrize("name, text, line, field, words", [
    ("rules.yaml", RULES.replace("    summary: A lone", "    summry: A lone"), 6, "clauses[0].summry", "unknown field"),
    ("rules.yaml", RULES.replace('"ijinden:user.attack-alone"', '"ijinden:A3"'), 6, "clauses[0].id", "already"),
    ("rules.yaml", RULES.replace('"ijinden:user.attack-alone"', '"mtg:user.x"'), 6, "clauses[0].id", "start with"),
    ("rules.yaml", RULES.replace("game: ijinden", "game: mtg"), 1, "game", "extends 'ijinden'"),
    ("rules.yaml", RULES + "rulesets: [{id: mine, title: mine, default: true}]\n", None, None, "default"),
    ("rules.yaml", "clauses: [unclosed\n", 2, None, "YAML"),
    ("cards.yaml", CARDS.replace("ユーザー用イジン", "テスト用イジン"), 4, "cards[0].name", "defined twice"),
    ("cards.yaml", CARDS.replace("    types: [ijin]", "    typs: [ijin]"), 7, "cards[0].typs", "unknown field"),
])
def test_a_broken_extension_is_a_located_error(suite, capsys, name, text, line, field, words):
    path = suite / "ijinden" / name
    path.write_text(text, encoding="utf-8")
    errors = [e for e in load_suite([suite]).errors if e.path == str(path)]
    assert len(errors) == 1 and words in str(errors[0]), [str(e) for e in errors]
    if line is not None:
        assert words in str(errors[0]) and f"{path}:{line}" in str(errors[0])
    if field is not None:
        assert field in str(errors[0])
    assert main(["validate", str(suite)]) == 2
    assert str(path) in capsys.readouterr().err


def test_an_empty_extension_is_an_error_not_ignored(suite):
    path = suite / "ijinden" / "rules.yaml"
    path.write_text("", encoding="utf-8")
    assert any(e.path == str(path) for e in load_suite([suite]).errors)


def test_the_builtin_folder_is_not_an_extension_of_itself():
    from oracle import paths

    loaded = load_suite([paths.cases_dir()], games=["ijinden"])
    assert not loaded.errors and loaded.cases and all(lc.extra == () for lc in loaded.cases)


def test_report_with_a_broken_suite_catalog_is_bad_usage(suite, tmp_path, capsys):
    results = tmp_path / "r.json"
    main(["run", "--cases", str(suite), "--results", str(results), "--report", "", "--quiet"])
    (suite / "ijinden" / "rules.yaml").write_text(textwrap.dedent(RULES).replace("text: A", "txt: A"), encoding="utf-8")
    assert main(["report", str(results), "--out", str(tmp_path / "x.html"), "--cases", str(suite)]) == 2
    assert "rules.yaml" in capsys.readouterr().err


def test_explain_names_the_suite_errors_when_the_case_is_not_found(suite, capsys):
    (suite / "ijinden" / "cards.yaml").write_text(CARDS.replace("    types: [ijin]", "    typs: [ijin]"),
                                                  encoding="utf-8")
    assert main(["explain", "user.lone-attacker", "--cases", str(suite)]) == 2
    out = capsys.readouterr().out.replace("\n", "")  # rich wraps long lines
    # the case is named as not loading (not "no case"), with the suite file and field that broke it
    assert "user.lone-attacker' does not load" in out and "cards.yaml" in out and "typs" in out


def test_a_catalog_or_pool_file_that_extends_nothing_is_said(suite):
    stray = suite / "misc" / "rules.yaml"
    stray.parent.mkdir()
    stray.write_text(RULES, encoding="utf-8")
    errors = [e for e in load_suite([suite]).errors if e.path == str(stray)]
    assert len(errors) == 1 and "extends nothing" in errors[0].message


# -- the pytest plugin takes the suite as `run` does ------------------------------------------------------

pytest_plugins = ["pytester"]


def _plugin(pytester, suite: Path, *args: str):
    import shutil

    shutil.copytree(suite, pytester.path / "mysuite")
    return pytester.runpytest_subprocess("-p", "no:randomly", "--tcg-engine", "reference", *args)


def test_the_plugin_reads_the_suites_own_cards_and_rules(suite, pytester):
    """The plugin ignored a suite folder's cards.yaml / rules.yaml: the user's case failed on an unknown card."""
    result = _plugin(pytester, suite, "mysuite", "-rA")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*PASSED mysuite/ijinden/lone.yaml::user.lone-attacker*"])


def test_the_plugin_fails_on_a_broken_extension(suite, pytester):
    (suite / "ijinden" / "rules.yaml").write_text(RULES.replace("    summary: A lone", "    summry: A lone"),
                                                  encoding="utf-8")
    result = _plugin(pytester, suite, "mysuite")
    assert result.ret == 1 and result.parseoutcomes()["failed"] >= 1
    result.stdout.fnmatch_lines(["*invalid case file: *rules.yaml:6*summry*"])


@pytest.mark.slow
def test_the_plugin_runs_the_builtin_suite_and_the_users(suite, pytester):
    result = _plugin(pytester, suite, "builtin", "mysuite", "-k", "lone or refuse", "-p", "no:xdist")
    outcomes = result.parseoutcomes()
    assert result.ret == 0 and outcomes["passed"] > 1 and "failed" not in outcomes
    result.stdout.no_fnmatch_line("*block_counts*")
