"""The Ijinden golden cases: verbatim sources (cases, cards, clauses and the texts the assumptions weigh),
enough cases, and every simultaneous step asserted by a moment of two or more cards (issue 2's bar).
Validity, passing on the reference and two witnesses per clause are checked for every game in
tests/test_golden.py."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
import yaml

from oracle import paths
from oracle.harness.compare import moments
from oracle.harness.engine import ReferenceEngine
from oracle.harness.runner import run_suite
from oracle.loader import load_catalog, load_suite
from oracle.model import Results

GAME = "ijinden"
SEED = "000_3d9ad01336bbc75e.txt"
SIMULTANEOUS = ["A3", "B3", "D2", "D4", "D6"]
MIN_CASES = 45


def game_dir() -> Path:
    return paths.cases_dir() / GAME


def seed_text() -> str:
    seeds = paths.seeds_dir()
    if seeds is None or not (seeds / SEED).is_file():
        pytest.skip("shared/seeds is not beside this checkout: cannot check quotes against the seed")
    return (seeds / SEED).read_text(encoding="utf-8")


def _yaml(path: Path):
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _seed_quotes() -> list[tuple[str, str]]:
    """(where, quote) for every seed-sourced quote in cases/ijinden: cases, cards, clauses, assumptions."""
    out: list[tuple[str, str]] = []
    for f in sorted(game_dir().glob("*.yaml")):
        if f.name == "block_counts.yaml":  # no cases: board counts of the z3 checks (tests/smt)
            continue
        data = _yaml(f)
        if f.name == "rules.yaml":
            out += [(f"{f.name}:{c['id']}", c["text"]) for c in data["clauses"]]
            out += [(f"{f.name}:{a['id']}", w) for a in data.get("assumptions", []) for w in a.get("weighed", [])]
        elif f.name == "cards.yaml":
            out += [(f"{f.name}:{c['name']}", c["source"]["quote"]) for c in data["cards"]
                    if (c.get("source") or {}).get("kind") == "seed"]
        else:
            for case in data if isinstance(data, list) else [data]:
                if case["source"]["kind"] == "seed":
                    out.append((f"{f.name}:{case['id']}", case["source"]["quote"]))
    return out


def test_seed_quotes_are_verbatim():
    text = seed_text()
    quotes = _seed_quotes()
    assert quotes, "no seed quotes found"
    missing = [where for where, q in quotes if q not in text]
    assert not missing, f"not verbatim substrings of {SEED}: {missing}"


def test_enough_cases():
    suite = load_suite(games=[GAME])
    assert len(suite.cases) >= MIN_CASES, f"{len(suite.cases)} Ijinden cases, issue 2 asks for {MIN_CASES}"


def test_synthetic_cards_are_marked():
    """Invented test cards are synthetic and bear no real card's name (ours all start with テスト用)."""
    for card in _yaml(game_dir() / "cards.yaml")["cards"]:
        assert card.get("synthetic", False) == card["name"].startswith("テスト用"), card["name"]


def test_case_assumptions_are_in_the_catalog():
    ids = {a.id for a in load_catalog(GAME).assumptions}
    for lc in load_suite(games=[GAME]).cases:
        assert set(lc.case.assumptions) <= ids, lc.case.id


# -------------------------------------------------------------------------------- on the reference engine


@cache
def _results() -> Results:
    return run_suite(ReferenceEngine([GAME]), load_suite(games=[GAME]), games=[GAME])


def _expected_moment_cards(case, index: int) -> set[str]:
    cards = set()
    for ev in getattr(case.expect.events[index], "events", []):  # a moment (not an absence or a group)
        for k, v in ev.fields.items():
            if k in ("_primary", "card") and isinstance(v, str):
                cards.add(v)
    return cards


@pytest.mark.parametrize("step", SIMULTANEOUS)
def test_simultaneous_step_asserted_with_two_cards(step):
    """Some passing case expects a moment of this step holding two or more distinct cards, and that moment
    matched an actual moment of the step's clause."""
    from oracle.harness.compare import moment_matches  # noqa: PLC0415
    from oracle.model import ExpectedMoment  # noqa: PLC0415
    from oracle.loader import resolve_primary  # noqa: PLC0415

    clause = f"{GAME}:{step}"
    cases = {lc.case.id: lc.case for lc in load_suite(games=[GAME]).cases}
    for res in _results().cases:
        if res.status != "pass" or clause not in res.asserted or not res.trace:
            continue
        case = cases[res.id]
        actual = moments(res.trace)
        for i, m in enumerate(case.expect.events):
            if not isinstance(m, ExpectedMoment) or len(_expected_moment_cards(case, i)) < 2:
                continue
            exp = [(ev.kind, resolve_primary(ev.kind, ev.fields, GAME)) for ev in m.events]
            if any(moment_matches(exp, am) and any(e.clause == clause for e in am) for am in actual):
                return
    pytest.fail(f"no passing case asserts a {clause} moment holding two or more cards")
