"""Block-count golden files (issue 12 item 4): every entry's count and divide agree three ways -- the
reference engine, the z3 enumeration, the brute force -- and with the file."""

from __future__ import annotations

import pytest

from oracle.core.errors import CaseFileError
from oracle.loader import load_catalog
from oracle.smt.counts import board_of, load_counts, three_ways
from oracle.smt.verdicts import engine_count

GAMES = ("ijinden", "duelmasters", "mtg")


def entries():
    for game in GAMES:
        for entry in load_counts(game).entries:
            yield pytest.param(game, entry, id=entry.id)


@pytest.mark.parametrize("game, entry", list(entries()))
def test_entry_agrees_three_ways(game, entry):
    board = board_of(game, entry)
    answers = three_ways(board)
    for who, (count, divide) in answers.items():
        assert (count, divide) == (entry.count, entry.divide), f"{who}: {count} {divide}"
    assert engine_count(board) in (None, entry.count)  # the engine's own enumeration (oracle.core.legality)


@pytest.mark.parametrize("game", GAMES)
def test_each_file_has_hand_derived_counts_and_known_clauses(game):
    counts = load_counts(game)
    assert counts.game == game
    assert sum(e.source.kind == "derivation" for e in counts.entries) >= 3
    ids = [e.id for e in counts.entries]
    assert len(set(ids)) == len(ids)
    catalog = load_catalog(game)
    known = {c.id for c in catalog.clauses} | {a.id for a in catalog.assumptions}
    for e in counts.entries:
        assert set(e.clauses) | set(e.assumptions) <= known, e.id


def test_a_broken_file_names_the_line_and_field(tmp_path):
    bad = tmp_path / "block_counts.yaml"
    bad.write_text("schema_version: 1\ngame: mtg\nentries:\n  - id: x\n    clauses: [mtg:509.1a]\n"
                   "    board: {active: alice, players: [alice, bob], cards: [], attacks: [{attacker: a, target: bob}]}\n"
                   "    count: 1\n    divide: {a: 0}\n    source: {kind: derivation, derivation: by hand}\n",
                   encoding="utf-8")
    with pytest.raises(CaseFileError) as err:
        load_counts("mtg", bad)
    assert "attacker 'a' is not a card of the board" in str(err.value) and "line" in str(err.value)
