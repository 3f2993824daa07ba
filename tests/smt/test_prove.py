"""Bounded proofs (issue 12 item 5): every property holds for every board of up to K cards, and each
fails -- with a counterexample board -- under a deliberately broken model."""

from __future__ import annotations

import argparse
import json

import pytest

from oracle.cli import main
from oracle.loader import load_catalog
from oracle.smt import brute
from oracle.smt.prove import PROPERTIES, prove

K = 3
"""CI proves for every board of up to 3 cards; `tcg-oracle prove --max-cards N` goes deeper."""

LEGALITY = {"ijinden.pressure", "ijinden.who-blocks", "duelmasters.one-blocker", "duelmasters.no-block-after-shield",
            "mtg.protector-blocks", "mtg.battles-never-block", "mtg.menace", "mtg.flying"}
"""Properties of the block-legality model itself (the others are about what follows the blocks)."""


@pytest.mark.parametrize("prop", PROPERTIES, ids=lambda p: p.id)
def test_proved_for_every_board_up_to_k_cards(prop):
    outcome = prove(prop, K)
    assert outcome.status == "proved", outcome.counterexample


@pytest.mark.parametrize("prop", PROPERTIES, ids=lambda p: p.id)
def test_a_broken_model_yields_a_counterexample_board(prop):
    outcome = prove(prop, K, frozenset({prop.misread}))
    assert outcome.status == "counterexample"
    assert outcome.board is not None and f"{prop.game} board" in outcome.counterexample
    if prop.id in LEGALITY:
        # the counterexample's declaration is one the broken model allowed and the rules (brute force) forbid
        assert not brute.legal(outcome.board, outcome.declaration), outcome.counterexample


@pytest.mark.parametrize("prop", PROPERTIES, ids=lambda p: p.id)
def test_property_clauses_are_in_the_catalog(prop):
    ids = {c.id for c in load_catalog(prop.game).clauses}
    assert set(prop.clauses) <= ids


def test_prove_command_writes_clause_ids_and_exits_0(tmp_path, capsys):
    out = tmp_path / "prove.json"
    assert main(["prove", "--game", "mtg", "--max-cards", "2", "--json", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert {p["property"] for p in data["properties"]} == {p.id for p in PROPERTIES if p.game == "mtg"}
    assert all(p["status"] == "proved" and p["clauses"] for p in data["properties"])
    assert "proved for every board of up to 2 cards" in capsys.readouterr().out


def test_prove_command_exits_1_on_a_counterexample(monkeypatch, capsys):
    from oracle.smt import cli, prove as prove_module

    prop = next(p for p in PROPERTIES if p.id == "mtg.menace")
    monkeypatch.setattr(prove_module, "run", lambda games, k: [prove(prop, k, frozenset({prop.misread}))])
    assert cli.main(argparse.Namespace(game=None, max_cards=2, json=None)) == 1
    assert "counterexample" in capsys.readouterr().out


def test_prove_command_bad_usage():
    assert main(["prove", "--game", "chess"]) == 2
    assert main(["prove", "--max-cards", "0"]) == 2


def test_bench_figures_are_measured_on_the_boards_they_name():
    from oracle.smt.bench import figures, ijinden_2x6, magic_6x6, rows
    from oracle.smt import brute as brute_force

    fig = figures(quick=True)
    assert fig["verdict"] is True and brute_force.legal(magic_6x6(), (("b1", "a3"), ("b2", "a2"), ("b4", "a3")))
    assert fig["count"] == brute_force.count(ijinden_2x6())
    assert len(rows(fig)) == 7 and all(fig[k] > 0 for k in ("z3_verdict", "z3_count", "brute_count"))
    from oracle.smt.bench import magic_6x6_requirements

    req = magic_6x6_requirements()
    legal = brute_force.legal_with_requirements(req)
    assert fig["requirements_verdict"] is ((("b1", "a1"), ("b2", "a4"), ("b3", "a4"), ("b4", "a4"), ("b6", "a4")) in legal)
    assert fig["menace_verdict"] is True  # the pairs obey 16 + 8 requirements, the most (tests/games/...search.py)
