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
