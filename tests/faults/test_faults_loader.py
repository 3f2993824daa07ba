"""Fault injection, the loader: sizes, nesting, aliases, encodings, counts, free-form fields, broken
catalogs and card pools. Every one is a located error (file, line, field) from ``validate`` and ``run``
alike -- never a crash, a ``MemoryError``, or a run that balloons -- and a broken file costs only its own
cases."""

from __future__ import annotations

import json
import shutil
import textwrap
import time

import pytest

from oracle.cli import main
from oracle.loader import load_case_file

BASE = textwrap.dedent("""\
    id: faults.base
    game: ijinden
    rulesets: [ijinden-rulecard-2.0-231225]
    title: a valid case, to be broken
    source: {kind: external, document: test, edition: "1", page: "1", quote: test}
    rules: ["ijinden:A1"]
    setup:
      active: alice
      players:
        alice:
          battlefield:
            - {id: a, card: テスト用イジン, power: 2000}
          deck: 10
        bob: {}
    script: []
    expect:
      winner: null
""")


def load(tmp_path, text: str | bytes, name: str = "case.yaml"):
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return load_case_file(path), path


def one_error(suite):
    assert not suite.cases and len(suite.errors) >= 1, suite.errors
    return suite.errors[0]


def test_the_base_case_is_valid(tmp_path):
    suite, _ = load(tmp_path, BASE)
    assert not suite.errors and len(suite.cases) == 1


def _bomb(levels: int) -> str:
    """``levels`` of anchors, each a list of nine aliases of the one before: 9**levels values."""
    lines = ["    l0: &l0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"    l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, levels)]
    return BASE.replace("  active: alice\n", "  active: alice\n  props:\n" + "\n".join(lines) + "\n")


@pytest.mark.parametrize("levels", [7, 9])
def test_an_alias_bomb_in_a_free_form_field_is_a_located_error(tmp_path, levels):
    """Defect 1: a 1 KB file of nested aliases passed validate, then run exhausted memory."""
    text = _bomb(levels)
    assert len(text) < 2000
    start = time.perf_counter()
    err = one_error(load(tmp_path, text)[0])
    assert time.perf_counter() - start < 5  # bounded; speed itself is measured by the benchmarks
    assert "expands to more than" in err.message and "aliases" in err.message and err.line is not None


def test_aliases_within_the_limit_still_load(tmp_path):
    text = BASE.replace("  active: alice\n", "  active: alice\n  props: {a: &x [1, 2], b: *x}\n")
    suite, _ = load(tmp_path, text)
    assert not suite.errors and suite.cases[0].case.setup.props == {"a": [1, 2], "b": [1, 2]}


def test_a_free_form_field_past_its_limit_is_a_located_error(tmp_path):
    from oracle.limits import FREEFORM_MAX_VALUES

    big = "[" + ", ".join(["1"] * (FREEFORM_MAX_VALUES + 1)) + "]"
    err = one_error(load(tmp_path, BASE.replace("  active: alice\n", f"  active: alice\n  props: {{x: {big}}}\n"))[0])
    assert err.field == "setup.props" and "free-form" in err.message


def test_a_recursive_alias_is_a_located_error(tmp_path):
    err = one_error(load(tmp_path, BASE.replace("  active: alice\n", "  active: alice\n  props: &p {x: *p}\n"))[0])
    assert "recursive" in err.message and err.line == 9


@pytest.mark.parametrize("depth", [100, 100_000])
def test_deep_nesting_is_a_located_error_not_a_crash(tmp_path, depth):
    """100,000 nested brackets crash libyaml's composer (a segfault): refused before composing."""
    err = one_error(load(tmp_path, "x: " + "[" * depth + "]" * depth + "\n")[0])
    assert "nesting" in err.message and err.line == 1  # ours (64 levels), or libyaml's own (1,000)


def test_a_file_past_the_size_limit_is_refused(tmp_path):
    from oracle.limits import YAML_MAX_CHARS

    err = one_error(load(tmp_path, BASE + "#" * YAML_MAX_CHARS + "\n")[0])
    assert "characters; the limit is" in err.message


def test_a_huge_scalar_is_a_located_error(tmp_path):
    err = one_error(load(tmp_path, BASE.replace("title: a valid case, to be broken", "title: " + "t" * 200_000))[0])
    assert "a value of 200,000 characters" in err.message and err.line == 4


@pytest.mark.parametrize("count", [10_000_000, 1_000_000_000, 10 ** 30])
def test_a_huge_anonymous_zone_is_a_located_error(tmp_path, count):
    """Defect 2: deck: 1000000000 was a MemoryError traceback; deck: 10000000 took 68 s and 5.9 GB."""
    err = one_error(load(tmp_path, BASE.replace("deck: 10", f"deck: {count}"))[0])
    assert err.line == 13
    if count <= 2 ** 53:
        assert err.field == "setup.players.alice.deck" and "the limit is 1,000 per zone" in err.message
    else:  # refused as the YAML is read, before any model holds it
        assert "is too large (the limit is 2**53)" in err.message


def test_a_huge_number_is_a_located_error(tmp_path):
    err = one_error(load(tmp_path, BASE.replace("power: 2000", "power: " + "9" * 40))[0])
    assert "too large" in err.message and err.line == 12
    suite, _ = load(tmp_path, BASE.replace("power: 2000", f"power: {2 ** 53}"))
    assert not suite.errors


def test_a_long_script_is_a_located_error(tmp_path):
    from oracle.limits import SCRIPT_MAX_DECISIONS

    script = "script:\n" + "  - {alice: {declare_attackers: [a]}}\n" * (SCRIPT_MAX_DECISIONS + 1)
    err = one_error(load(tmp_path, BASE.replace("script: []\n", script))[0])
    assert err.field == "script" and "the limit is" in err.message


@pytest.mark.parametrize("encode, loads", [
    (lambda t: t.encode("utf-8"), True),
    (lambda t: b"\xef\xbb\xbf" + t.encode("utf-8"), True),       # a UTF-8 byte-order mark
    (lambda t: t.replace("\n", "\r\n").encode("utf-8"), True),   # Windows line ends
    (lambda t: t.encode("utf-16"), False),
    (lambda t: t.encode("shift_jis"), False),
    (lambda t: t.encode("utf-8") + b"\x00\n", False),
])
def test_encodings(tmp_path, encode, loads):
    suite, path = load(tmp_path, encode(BASE))
    if loads:
        assert not suite.errors and len(suite.cases) == 1
    else:
        err = one_error(suite)
        assert err.path == str(path) and err.message


def test_an_empty_and_a_non_mapping_file(tmp_path):
    assert "holds no case" in one_error(load(tmp_path, "")[0]).message
    assert "must be a mapping" in one_error(load(tmp_path, "- just a string\n")[0]).message


def test_one_broken_case_is_one_result_and_costs_only_itself(tmp_path, capsys):
    """Defect 16: one invalid case produced three results with the same id; its raw id reached the log."""
    cases = tmp_path / "cases"
    cases.mkdir()
    good = BASE.replace("faults.base", "faults.good")
    bad = BASE.replace("faults.base", "faults.bad\\r\\nPASS forged\\x1b[0m").replace("title:", "titel:") \
        .replace('rules: ["ijinden:A1"]', "rules: 5")
    (cases / "a.yaml").write_text(good.replace("id: faults.good", 'id: "faults.good"'), encoding="utf-8")
    (cases / "b.yaml").write_text(bad.replace("id: faults.bad", 'id: "faults.bad').replace("\ngame:", '"\ngame:', 1),
                                  encoding="utf-8")
    out = tmp_path / "r.json"
    code = main(["run", "--cases", str(cases), "--results", str(out), "--report", ""])
    captured = capsys.readouterr()
    res = json.loads(out.read_text(encoding="utf-8"))
    ids = [c["id"] for c in res["cases"]]
    assert len(ids) == len(set(ids)) == 2, ids
    broken = next(c for c in res["cases"] if c["status"] == "error")
    assert broken["error"].count("\n") >= 2  # its three errors, in one result
    assert code == 2
    for stream in (captured.out, captured.err):
        assert "\x1b" not in stream and "\r" not in stream
        assert not any(line.startswith("PASS forged") for line in stream.splitlines())


# -- catalogs and card pools ---------------------------------------------------------------------------

@pytest.fixture
def toy_root(tmp_path, monkeypatch, toy):
    """A copy of the toy game's folder, to break."""
    from oracle import paths

    root = tmp_path / "root"
    shutil.copytree(toy, root / "toy")
    monkeypatch.setattr(paths, "cases_dir", lambda: root)
    from oracle.loader import load_cards, load_catalog

    load_cards.cache_clear()
    load_catalog.cache_clear()
    yield root / "toy"
    load_cards.cache_clear()
    load_catalog.cache_clear()


def test_an_ability_outside_the_vocabulary_in_a_card_pool_is_a_located_error(toy_root, capsys):
    """Defect 11: laser_eyes: 9 passed validate; run then reported ordinary rules failures."""
    cards = toy_root / "cards.yaml"
    cards.write_text(cards.read_text().replace("power: 3000}", "power: 3000, abilities: [laser_eyes: 9]}"))
    assert main(["validate", str(toy_root)]) == 2
    err = capsys.readouterr().err
    assert f"{cards}:5: field cards[1].abilities[0]: card 'toy-big': unknown ability 'laser_eyes'" in err


def test_an_empty_catalog_says_so(toy_root, capsys):
    """Defect 17: an empty rules.yaml said "line None field None"."""
    (toy_root / "rules.yaml").write_text("")
    assert main(["validate", str(toy_root)]) == 2
    err = capsys.readouterr().err
    assert "rules.yaml:1: the file is empty; a clause catalog is a mapping" in err and "None" not in err


def test_a_catalog_error_points_at_the_catalog_schema(toy_root, capsys):
    """Defect 17: a catalog error suggested `schema case`."""
    rules = toy_root / "rules.yaml"
    rules.write_text(rules.read_text().replace("game: toy", "game: toy\nnotes: x"))
    assert main(["validate", str(toy_root)]) == 2
    err = capsys.readouterr().err
    assert "`tcg-oracle schema catalog`" in err and "schema case" not in err


def test_explain_says_why_a_case_does_not_load(toy_root, capsys):
    """Defect 17: explain said "no case" when the catalog was broken."""
    (toy_root / "rules.yaml").write_text("schema_version: 1\ngame: toy\nclauses: 3\n")
    assert main(["explain", "toy.unblocked-wins"]) == 2
    out = capsys.readouterr().out
    assert "does not load" in out and "no case" not in out


@pytest.mark.parametrize("raw_id", ["[a, b]", "5", "{x: 1}", "null"])
def test_a_case_whose_id_is_not_a_string_is_one_error_result(tmp_path, raw_id):
    (tmp_path / "a.yaml").write_text(f"id: {raw_id}\ngame: ijinden\n")
    out = tmp_path / "r.json"
    assert main(["run", "--cases", str(tmp_path / "a.yaml"), "--results", str(out), "--report", "", "--quiet"]) == 2
    cases = json.loads(out.read_text())["cases"]
    # one result, named portably (the file relative to its suite folder: issue 15), never the machine's path
    assert len(cases) == 1 and cases[0]["status"] == "error" and cases[0]["id"] == f"{tmp_path.name}/a.yaml:1"
