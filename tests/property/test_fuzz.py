"""``tcg-oracle fuzz``: no disagreement of the reference with itself (in process and over serve); a test
engine with one misreading is caught, and the shrunk case file passes on the reference and fails on it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from oracle.cli import main
from oracle.harness.adapters import make_engine
from oracle.harness.runner import run_suite
from oracle.loader import load_case_file
from oracle.registry import names

ENGINES = Path(__file__).resolve().parent.parent / "engines"


@pytest.mark.parametrize("game", names())
def test_the_reference_agrees_with_itself(game, tmp_path, capsys):
    code = main(["fuzz", "--game", game, "--examples", "30", "--seed", "1", "--quiet",
                 "--save-failures", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "examples/s" in out and "distinct boards" in out and "clauses executed" in out
    assert not list(tmp_path.iterdir())


@pytest.mark.slow
def test_the_reference_over_serve_agrees_with_the_reference(tmp_path, capsys):
    spec = f'cmd:"{sys.executable}" -m oracle serve'
    code = main(["fuzz", "--game", "ijinden", "--engine", spec, "--examples", "15", "--seed", "1", "--quiet",
                 "--save-failures", str(tmp_path)])
    assert code == 0, capsys.readouterr().out


@pytest.mark.parametrize("game", ["ijinden", "duelmasters"])
def test_a_misreading_is_found_shrunk_and_saved_as_a_case_that_fails_only_on_that_engine(game, tmp_path, capsys):
    spec = "py:misreading_engine:make"
    code = main(["fuzz", "--game", game, "--engine", spec, "--examples", "200", "--seed", "1", "--quiet",
                 "--save-failures", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "DISAGREEMENT" in out
    files = list(tmp_path.glob("*.yaml"))
    assert len(files) == 1
    suite = load_case_file(files[0])
    assert not suite.errors and len(suite.cases) == 1
    case = suite.cases[0].case
    assert case.source.kind == "generated" and "--seed 1" in case.source.command
    assert any(c.get("tapped") for p in case.setup.model_dump()["players"].values()
               for z in p.values() if isinstance(z, list) for c in z), "the shrunk board keeps a tapped card"
    for engine_spec, status in (("reference", "pass"), (spec, "fail")):
        engine = make_engine(engine_spec)
        results = run_suite(engine, suite)
        assert [r.status for r in results.cases] == [status], (engine_spec, results.cases[0].divergence)


def test_run_does_not_import_hypothesis(tmp_path):
    code = ("import sys; from oracle.cli import main; "
            f"rc = main(['run', '--game', 'ijinden', '--quiet', '--results', {str(tmp_path / 'r.json')!r}, "
            "'--report', '']); assert 'hypothesis' not in sys.modules, 'run imported hypothesis'; "
            "assert 'oracle.generators' not in sys.modules; raise SystemExit(rc)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_the_javascript_example_engine_agrees_within_the_abilities_it_declares(tmp_path, capsys):
    engine = ENGINES / "example_engine.mjs"
    code = main(["fuzz", "--game", "ijinden", "--engine", f'cmd:node "{engine}"', "--examples", "150", "--seed", "3",
                 "--quiet", "--save-failures", str(tmp_path)])
    assert code == 0, capsys.readouterr().out


@pytest.mark.slow
def test_workers_share_the_examples_between_processes(tmp_path, capsys):
    code = main(["fuzz", "--game", "duelmasters", "--examples", "20", "--seed", "2", "--workers", "2", "--quiet",
                 "--save-failures", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "20 examples" in out and "2 workers" in out


@pytest.mark.parametrize("game", names())
def test_the_clause_figure_counts_the_testable_clauses_the_reference_traces_name(game, tmp_path):
    """The figure is recounted here from the examples themselves: each one played again on the reference,
    its trace's clauses, those the catalog marks scenario-testable."""
    from collections import Counter

    from oracle import registry
    from oracle.fuzz import campaign, summary
    from oracle.loader import load_catalog

    seen = []
    outcome = campaign(game, "reference", 25, 5, tmp_path, "test", on_play=seen.append)
    assert outcome.failure is None and len(seen) == outcome.stats.examples == 25
    counts: Counter = Counter()
    for play in seen:
        counts.update({e.clause for e in registry.get(game).run(play.request).trace if e.clause})
    assert counts == outcome.stats.clauses
    testable = {c.id for c in load_catalog(game).clauses if c.testable}
    executed = len(testable & set(counts))
    line = summary(game, outcome.stats, outcome.stats.seconds, 1)
    assert f"clauses executed {executed}/{len(testable)} scenario-testable ({round(100 * executed / len(testable))}%)" \
        in line


def test_a_clause_the_catalog_does_not_mark_testable_is_not_counted():
    from collections import Counter

    from oracle.fuzz import clause_table
    from oracle.loader import load_catalog

    clauses = load_catalog("ijinden").clauses
    testable = [c.id for c in clauses if c.testable]
    other = next(c.id for c in clauses if not c.testable)
    lines, executed, total = clause_table("ijinden", Counter({testable[0]: 3, other: 5, "ijinden:NO-SUCH": 1}))
    assert (executed, total) == (1, len(testable)) and len(lines) == len(testable)
    assert lines[0].split() == [sorted(testable)[0], "3" if sorted(testable)[0] == testable[0] else "0"]


@pytest.mark.parametrize("game", names())
def test_the_same_seed_prints_the_same_clause_figure(game, tmp_path, capsys):
    import re

    outs = []
    for _ in range(2):
        code = main(["fuzz", "--game", game, "--examples", "30", "--seed", "7", "--quiet", "--clauses",
                     "--save-failures", str(tmp_path)])
        assert code == 0
        outs.append(re.sub(r"in [0-9.]+ s \([0-9]+ examples/s", "", capsys.readouterr().out))
    assert outs[0] == outs[1] and "clauses executed" in outs[0]


# -- engines at a weaker level, fields they do not report, adapters that cannot run a board -----------------

@pytest.mark.parametrize("factory", ["final_lacking", "steps_lacking"])
def test_a_field_the_engine_does_not_report_is_not_checkable_not_a_disagreement(factory, tmp_path, capsys):
    code = main(["fuzz", "--game", "ijinden", "--engine", f"py:fuzz_level_engines:{factory}", "--examples", "40",
                 "--seed", "1", "--quiet", "--save-failures", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "DISAGREEMENT" not in out and not list(tmp_path.iterdir())
    assert " 0 disagree" in out
    assert "final players.*.deck (field:deck)" in out, out
    if factory == "final_lacking":
        assert "(steps)" in out, "events need level steps: counted as not checkable"


def test_a_real_disagreement_at_level_steps_is_shrunk_and_replays(tmp_path, capsys):
    spec = "py:fuzz_level_engines:disagreeing_steps"
    code = main(["fuzz", "--game", "ijinden", "--engine", spec, "--examples", "200", "--seed", "1", "--quiet",
                 "--save-failures", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "DISAGREEMENT with disagreeing-steps" in out and "deck" not in out.split("DISAGREEMENT")[1]
    files = list(tmp_path.glob("*.yaml"))
    assert len(files) == 1
    suite = load_case_file(files[0])
    for engine_spec, status in (("reference", "pass"), (spec, "fail")):
        results = run_suite(make_engine(engine_spec), suite)
        assert [r.status for r in results.cases] == [status], (engine_spec, results.cases[0].divergence)


def test_keep_going_saves_one_case_per_kind_of_disagreement(tmp_path, capsys):
    spec = "py:fuzz_level_engines:disagreeing_steps"
    code = main(["fuzz", "--game", "ijinden", "--engine", spec, "--examples", "60", "--seed", "1", "--quiet",
                 "--keep-going", "--save-failures", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "60 examples" in out, "every example is played"
    kinds = out.split("disagreements (")[1].split(" kinds")[0]
    files = sorted(tmp_path.glob("*.yaml"))
    assert len(files) == int(kinds) == out.count("DISAGREEMENT with") >= 1
    for f in files:
        results = run_suite(make_engine(spec), load_case_file(f))
        assert [r.status for r in results.cases] == ["fail"], f


def test_an_example_the_adapter_cannot_run_is_counted_not_a_disagreement(tmp_path, capsys):
    code = main(["fuzz", "--game", "ijinden", "--engine", "py:fuzz_level_engines:erring", "--examples", "40", "--seed",
                 "1", "--quiet", "--save-failures", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "DISAGREEMENT" not in out and "error: CARD: a tapped card cannot be set up" in out
    import re

    assert int(re.search(r", (\d+) adapter or harness error\)", out).group(1)) > 0
    code = main(["fuzz", "--game", "ijinden", "--engine", "py:fuzz_level_engines:always_erring", "--examples", "10",
                 "--seed", "1", "--quiet", "--save-failures", str(tmp_path)])
    assert code == 3, "an engine that runs none of the examples"


def test_a_state_field_the_engine_lacks_fails_a_case_unless_asked_not_to():
    from oracle.harness.compare import compare
    from oracle.model import Case, CaseReply

    case = Case.model_validate({
        "id": "t.case", "game": "ijinden", "rulesets": ["ijinden-rulecard-2.0-231225"], "title": "t",
        "source": {"kind": "generated", "seed": 1, "command": "t", "date": "2026-12-02"},
        "rules": ["ijinden:A1"], "setup": {"active": "alice", "players": {"alice": {}, "bob": {}}}, "script": [],
        "expect": {"final": {"players": {"alice": {"life": 3, "deck": 0}}, "cards": {"c": {"zone": "hand"}}}}})
    lacking = CaseReply(id="t.case", final={"players": {"alice": {"life": 3}}, "cards": {}})
    strict = compare(case, lacking)
    assert strict.status == "fail" and "players.alice.deck is missing" in strict.divergence.message
    lenient = compare(case, lacking, unshown=True)
    assert lenient.status == "pass", lenient.divergence
    assert {(u.what, u.needs) for u in lenient.unchecked} == {("final players.alice.deck", "field:deck"),
                                                               ("final cards.c", "card")}
    wrong = CaseReply(id="t.case", final={"players": {"alice": {"life": 2}}, "cards": {}})
    assert compare(case, wrong, unshown=True).status == "fail", "a field it does report still decides"


def test_a_disagreement_only_two_moments_show_is_cut_to_those_two(tmp_path, capsys):
    """An engine at level steps that reports a decision's events a step early: each moment alone is found in
    some step, so the cut case keeps the moment that fails and one before it, not the whole trace."""
    spec = "py:fuzz_level_engines:steps_early"
    code = main(["fuzz", "--game", "ijinden", "--engine", spec, "--examples", "60", "--seed", "1", "--quiet",
                 "--save-failures", str(tmp_path)])
    assert code == 1, capsys.readouterr().out
    [f] = tmp_path.glob("*.yaml")
    suite = load_case_file(f)
    expect = suite.cases[0].case.expect
    assert len(expect.events) == 2 and not expect.exact and not expect.final and not expect.asserts_winner
    for engine_spec, status in (("reference", "pass"), (spec, "fail")):
        assert [r.status for r in run_suite(make_engine(engine_spec), suite).cases] == [status], engine_spec


def test_an_example_the_engine_cannot_be_set_up_for_is_counted_not_run(tmp_path, capsys):
    """A reply ``skip`` (the engine cannot be given this board) is a skip: not run, not a disagreement."""
    code = main(["fuzz", "--game", "ijinden", "--engine", "py:fuzz_level_engines:skipping", "--examples", "40",
                 "--seed", "1", "--quiet", "--save-failures", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "skip: CARD: a tapped card cannot be placed" in out and " 0 disagree" in out
