"""Kill sources beyond the golden cases (``oracle.mutants.properties``): the bounded block-legality agreement
with the solver and a fixed-seed fuzz budget. They hold on the reference, kill only by a failing check (an
error never kills), and run on the survivors of the cases unless asked for on every mutant."""

from __future__ import annotations

import pytest

from oracle import paths
from oracle.loader import load_suite
from oracle.mutants import Mutant, get
from oracle.mutants.kill import check_properties, kill_matrix, run_mutants, MutantRun
from oracle.mutants.properties import PROPERTIES, MutantProperty as Property, block_legality, fuzz


def _reference(game: str) -> Mutant:
    """The reference engine as a mutant without patches."""
    return Mutant(f"{game}-no-misreading", game, f"{game}:none", "x" * 10, "nothing", ())


@pytest.mark.parametrize("game, cards", [("ijinden", 3), ("duelmasters", 3), ("mtg", 2)])
def test_block_legality_holds_on_the_reference(game, cards):
    assert block_legality(_reference(game), max_cards=cards) is None


def test_block_legality_kills_a_mutant_that_changes_who_may_block_and_leaks_nothing():
    why = block_legality(get("mtg-battle-creature-blocks"), max_cards=2)
    assert why is not None and "c1: battle" in why
    assert "[c1 blocks a1] is illegal for the solver, legal for the engine" in why
    assert block_legality(_reference("mtg"), max_cards=2) is None  # no verdict of the mutant is reused
    assert block_legality(get("ijinden-pressure-unchecked-at-block"), max_cards=2) is not None


def test_block_legality_spares_a_mutant_that_keeps_block_legality():
    """A misreading of the battle's outcome, not of who may block: nothing for this property to find."""
    assert block_legality(get("ijinden-tie-destroys-attacker-only"), max_cards=2) is None


def test_fuzz_kills_with_a_failing_generated_case():
    why = fuzz(get("ijinden-attacking-player-picks-attacker"), examples=30)
    assert why is not None and why.startswith("a generated case fails:")
    assert "--engine mutant:ijinden-attacking-player-picks-attacker --seed 1 --examples 30" in why


def _suite_that_misses():
    """A suite without the case that catches ijinden-arena-loss-keeps-attacker."""
    return load_suite([paths.cases_dir() / "ijinden" / "refusals.yaml"])


def test_an_error_never_kills():
    def boom(m: Mutant) -> str | None:
        raise KeyError("no such board")

    run = MutantRun(get("ijinden-arena-loss-keeps-attacker"))
    check_properties(run, [Property("boom", "raises", boom), Property("holds", "holds", lambda m: None)])
    assert not run.killed and run.checked == ["boom", "holds"] and run.properties == []
    assert run.property_errors == [("boom", "KeyError: 'no such board'")]


def test_the_properties_run_on_the_survivors_up_to_the_first_kill_or_on_every_mutant():
    calls: list[tuple[str, str]] = []

    def recording(name: str, fails: bool) -> Property:
        def check(m: Mutant) -> str | None:
            calls.append((name, m.name))
            return f"{name} failed" if fails else None
        return Property(name, name, check)

    checks = [recording("first", True), recording("second", True)]
    survivor, killed = get("ijinden-arena-loss-keeps-attacker"), get("ijinden-tie-destroys-attacker-only")
    suite = load_suite([paths.cases_dir() / "ijinden"])
    missing = _suite_that_misses()

    runs = run_mutants([survivor], missing, checks=checks)  # default: survivors, up to the first kill
    assert calls == [("first", survivor.name)] and runs[0].killed_by == "property first"
    calls.clear()
    runs = run_mutants([killed], suite, checks=checks)  # killed by a case: no property is checked
    assert calls == [] and runs[0].checked == [] and runs[0].kills
    runs = run_mutants([killed], suite, checks=checks, properties="all")
    assert [c[0] for c in calls] == ["first", "second"] and runs[0].killed_by == runs[0].kills[0]
    calls.clear()
    runs = run_mutants([survivor], missing, checks=checks, properties="none")
    assert calls == [] and not runs[0].killed
    matrix = kill_matrix(run_mutants([survivor], missing, checks=checks, properties="all"), missing)
    row = matrix["mutants"][0]
    assert row["killed_by"] == "property first" and row["properties"] == ["first", "second"]
    assert row["properties_checked"] == ["first", "second"] and row["evidence"]["second"] == "second failed"
    assert matrix["by_property"] == {"first": [survivor.name], "second": [survivor.name]}


def test_the_default_properties_are_the_bounded_agreement_then_the_fuzz_budget():
    assert [p.name for p in PROPERTIES] == ["block-legality", "fuzz"]


def _cli(*argv):
    from oracle.cli import main

    return main(list(argv))


def test_cli_says_which_property_killed(tmp_path, capsys):
    only = paths.cases_dir() / "mtg" / "attack.yaml"  # without mtg.block.refused-battle-blocks, which kills it
    code = _cli("mutants", "--mutant", "mtg-battle-creature-blocks", "--cases", str(only))
    out = capsys.readouterr().out
    assert code == 0 and "killed by property block-legality" in out and "is illegal for the solver" in out
    assert "[properties: block-legality fails]" in out  # the fuzz budget is not spent on a killed mutant
    code = _cli("mutants", "--mutant", "mtg-battle-creature-blocks", "--cases", str(only), "--properties", "none")
    assert code == 1 and "SURVIVED" in capsys.readouterr().out


def test_the_report_shows_each_mutants_properties(tmp_path):
    import json

    from oracle.cli import main

    def fails(m: Mutant) -> str | None:
        return "the board b1: declaration [x blocks y] differs"

    def boom(m: Mutant) -> str | None:
        raise RuntimeError("no board")

    missing = _suite_that_misses()
    runs = run_mutants([get("ijinden-arena-loss-keeps-attacker")], missing, properties="all",
                       checks=[Property("agrees", "x", fails), Property("breaks", "y", boom),
                               Property("quiet", "z", lambda m: None)])
    km = tmp_path / "kill.json"
    km.write_text(json.dumps(kill_matrix(runs, missing)), encoding="utf-8")
    res = tmp_path / "r.json"
    assert main(["run", "--cases", str(paths.cases_dir() / "ijinden" / "refusals.yaml"), "--results", str(res),
                 "--report", "", "--quiet"]) == 0
    html = tmp_path / "rep.html"
    assert main(["report", str(res), str(km), "--out", str(html)]) == 0
    page = html.read_text(encoding="utf-8")
    assert "property agrees" in page and "agrees fails" in page and "breaks errs" in page and "quiet holds" in page
    assert "declaration [x blocks y] differs" in page
