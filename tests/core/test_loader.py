"""Loading and validating case files: every error names file, line, case id and field; a broken case
costs only itself."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from oracle.core.errors import CaseFileError
from oracle.loader import load_catalog, load_suite

CATALOG = """
schema_version: 1
game: ijinden
rulesets: [{id: r1, title: test edition, default: true}]
clauses:
  - {id: "ijinden:A1", text: "A1 text", summary: "A1", document: seed}
  - {id: "ijinden:A3", text: "A3 text", summary: "A3", document: seed}
assumptions:
  - {id: "ijinden:assume.x", reading: "a reading"}
"""
CARDS = """
schema_version: 1
game: ijinden
cards:
  - {name: Vanilla, synthetic: true, types: [ijin], power: 1000}
"""

GOOD = """
id: t.good
game: ijinden
rulesets: [r1]
title: a good case
source: {kind: external, document: d, edition: "1", page: "1", quote: q}
rules: ["ijinden:A3"]
setup:
  active: alice
  players:
    alice: {battlefield: [{id: a, card: Vanilla}]}
    bob: {}
script:
  - {alice: {declare_attackers: [a]}}
expect:
  events:
    - {became_attacker: a}
"""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    game = tmp_path / "ijinden"
    game.mkdir()
    (game / "rules.yaml").write_text(CATALOG, encoding="utf-8")
    (game / "cards.yaml").write_text(CARDS, encoding="utf-8")
    return tmp_path


def write(root: Path, name: str, text: str) -> Path:
    p = root / "ijinden" / name
    p.write_text(textwrap.dedent(text), encoding="utf-8")
    return p


def load(root: Path):
    return load_suite([root / "ijinden"], root=root)


def only_error(root: Path) -> CaseFileError:
    suite = load(root)
    assert len(suite.errors) == 1, [str(e) for e in suite.errors]
    return suite.errors[0]


def test_good_case_loads(root):
    write(root, "good.yaml", GOOD)
    suite = load(root)
    assert not suite.errors and [lc.case.id for lc in suite.cases] == ["t.good"]
    assert suite.cases[0].line == 2


def test_yaml_syntax_error_names_file_and_line(root):
    p = write(root, "bad.yaml", GOOD.replace("title: a good case", "title: [unclosed"))
    err = only_error(root)
    assert err.path == str(p) and err.line is not None and "YAML" in err.message


def test_unknown_field_names_line_case_and_field(root):
    write(root, "bad.yaml", GOOD.replace("title: a good case", "title: a good case\ntitel: typo"))
    err = only_error(root)
    assert (err.case_id, err.field, err.line) == ("t.good", "titel", 6)
    assert "unknown field" in err.message


def test_unknown_card_points_into_the_setup(root):
    write(root, "bad.yaml", GOOD.replace("card: Vanilla", "card: NoSuchCard"))
    err = only_error(root)
    assert err.field == "setup.players.alice.battlefield[0].card"
    assert err.line == 11 and "NoSuchCard" in err.message
    assert str(err).startswith(f"{err.path}:11: case t.good: field setup.players.alice.battlefield[0].card")


@pytest.mark.parametrize("change, field, words", [
    (("ijinden:A3\"]", "ijinden:Z9\"]"), "rules[0]", "unknown clause id"),
    (("rulesets: [r1]", "rulesets: [r9]"), "rulesets[0]", "unknown ruleset"),
    (("declare_attackers: [a]", "declare_atackers: [a]"), "script[0]", "unknown decision"),
    (("{became_attacker: a}", "{became_attackr: a}"), "expect.events[0][0]", "unknown event"),
    (("{became_attacker: a}", "{became_attacker: {card: a, power: 3}}"), "expect.events[0][0].became_attacker",
     "no field 'power'"),
    (("bob: {}", "bob: {battlefeld: []}"), "setup.players.bob.battlefeld", "unknown zone"),
    (("{id: a, card: Vanilla}", "{id: a, card: Vanilla, abilities: [flying]}"),
     "setup.players.alice.battlefield[0].abilities[0]", "unknown ability"),
    (("active: alice", "active: carol"), "setup", "active player"),
])
def test_semantic_errors_are_located(root, change, field, words):
    write(root, "bad.yaml", GOOD.replace(*change))
    err = only_error(root)
    assert err.field == field and words in err.message, str(err)
    assert err.line is not None


def test_a_case_that_asserts_nothing_is_an_error(root):
    write(root, "bad.yaml", GOOD.replace("  events:\n    - {became_attacker: a}\n", "  exact: false\n"))
    err = only_error(root)
    assert "asserts nothing" in err.message


def test_duplicate_ids_across_files(root):
    write(root, "a.yaml", GOOD)
    write(root, "b.yaml", GOOD)
    err = only_error(root)
    assert "duplicate case id" in err.message and "a.yaml" in err.message


def test_a_broken_case_costs_only_itself(root):
    second = GOOD.replace("t.good", "t.broken").replace("card: Vanilla", "card: Nope")
    write(root, "list.yaml", "- " + GOOD.strip().replace("\n", "\n  ") + "\n- " + second.strip().replace("\n", "\n  "))
    suite = load(root)
    assert [lc.case.id for lc in suite.cases] == ["t.good"]
    assert [e.case_id for e in suite.errors] == ["t.broken"]


def test_rejection_index_must_exist(root):
    write(root, "bad.yaml", GOOD.replace("  events:\n    - {became_attacker: a}\n",
                                         "  rejected: {at: 5, reason: attacker_sleeping}\n"))
    err = only_error(root)
    assert err.field == "expect.rejected[0].at"


def test_catalog_needs_one_default_ruleset(tmp_path):
    game = tmp_path / "ijinden"
    game.mkdir()
    (game / "rules.yaml").write_text(CATALOG.replace("default: true", "default: false"), encoding="utf-8")
    with pytest.raises(CaseFileError, match="default"):
        load_catalog("ijinden", tmp_path)


def test_a_setup_with_more_players_than_the_game_allows(root):
    write(root, "bad.yaml", GOOD.replace("    bob: {}", "    bob: {}\n    carol: {}"))
    err = only_error(root)
    assert err.field == "setup.players" and "ijinden is played by 2 players; the setup has 3" in err.message


def test_an_external_source_needs_edition_and_where_to_find_it(root):
    write(root, "bad.yaml", GOOD.replace('edition: "1", ', ""))
    err = only_error(root)
    assert (err.field, err.message, err.line) == ("source.edition", "Field required", 6)
    write(root, "bad.yaml", GOOD.replace('page: "1", ', ""))
    err = only_error(root)
    assert err.field == "source" and "give url or page" in err.message


def test_exact_without_events_is_an_error(root):
    write(root, "bad.yaml", GOOD.replace("  events:\n    - {became_attacker: a}\n", "  exact: true\n  winner: null\n"))
    err = only_error(root)
    assert err.field == "expect.exact" and "whole trace" in err.message
