"""Every golden case of every game, as a test on the reference engine; and the suite-wide promises:
valid files, verbatim seed quotes, cited sources, synthetic cards marked."""

from __future__ import annotations

import pytest

from oracle import paths, registry
from oracle.harness.engine import ReferenceEngine
from oracle.harness.runner import run_case
from oracle.loader import load_cards, load_catalog, load_suite

SUITE = load_suite()


def test_every_case_file_is_valid():
    assert not SUITE.errors, "\n".join(str(e) for e in SUITE.errors)


def test_there_are_golden_cases():
    assert len(SUITE.cases) >= 45


RUNS = [(lc, r) for lc in SUITE.cases for r in lc.case.rulesets]


@pytest.mark.parametrize("lc, ruleset", RUNS, ids=[f"{lc.case.id}@{r}" for lc, r in RUNS])
def test_golden_case_passes_on_the_reference_under_every_edition_it_lists(lc, ruleset):
    result = run_case(ReferenceEngine(), lc, ruleset, "reference", keep_trace=False)
    detail = result.divergence.message if result.divergence else result.error
    assert result.status == "pass", f"{lc.path}:{lc.line} {lc.case.id}: {detail}"
    assert set(result.asserted), f"{lc.case.id} asserts no clause of the trace"


_CASES_WITH_RUNS = list({id(lc): lc for lc, _ in RUNS}.values())


@pytest.mark.parametrize("lc", _CASES_WITH_RUNS, ids=[lc.case.id for lc in _CASES_WITH_RUNS])
def test_cases_list_only_clauses_they_exercise(lc):
    """`rules` are the clauses a case exercises: each is traced by the reference engine under at least
    one edition the case lists (coverage counts trace entries, so an untraced citation claims nothing)."""
    executed: set[str] = set()
    for case, ruleset in RUNS:
        if case is lc:
            executed |= set(run_case(ReferenceEngine(), lc, ruleset, "reference", keep_trace=False).executed)
    never = sorted(set(lc.case.rules) - executed)
    assert not never, f"{lc.path}:{lc.line} {lc.case.id} lists clauses its run never executes: {never}"


SEEDS_MISSING = ("the seed texts are not here: put shared/seeds beside the checkout (../shared/seeds) or set "
                 "TCG_ORACLE_SEEDS=DIR; the quote checks need them")

def _seed_quotes():
    for lc in SUITE.cases:
        if lc.case.source.kind == "seed":
            yield lc, lc.case.source
    for game in registry.names():
        for card in load_cards(game).values():
            if card.source is not None and card.source.kind == "seed":
                yield card.name, card.source


def test_seed_quotes_are_verbatim():
    """Every seed quote of a case or a card is a verbatim substring of its seed. One test (one skip, with
    the reason, when the seed texts are not there: a fresh clone has no ../shared/seeds)."""
    seeds = paths.seeds_dir()
    if seeds is None:
        pytest.skip(SEEDS_MISSING)
    texts: dict[str, str] = {}
    bad = []
    for where, source in _seed_quotes():
        game = where.case.game if hasattr(where, "case") else next(
            g for g in registry.names() if where in load_cards(g))
        seed = source.seed or registry.get(game).seed
        if seed not in texts:
            texts[seed] = (seeds / seed).read_text(encoding="utf-8")
        if source.quote not in texts[seed]:
            bad.append(f"{getattr(where, 'case', None) and where.case.id or where}: not a verbatim substring of "
                       f"{seed}: {source.quote!r}")
    assert not bad, "\n".join(bad)


def test_catalog_clause_texts_come_from_the_seed():
    """A clause whose document is the seed quotes it verbatim (every game; one skip without the seeds)."""
    seeds = paths.seeds_dir()
    if seeds is None:
        pytest.skip(SEEDS_MISSING)
    for game in registry.names():
        catalog = load_catalog(game)
        seed_docs = {d.id for d in catalog.documents if d.seed}
        text = (seeds / registry.get(game).seed).read_text(encoding="utf-8")
        for clause in catalog.clauses:
            if clause.document in seed_docs:
                assert clause.text in text, f"{clause.id}: text is not verbatim from the seed"


@pytest.mark.parametrize("game", registry.names())
def test_cases_cite_clauses_they_assert(game):
    """A case names the clauses it exercises; an untestable clause is never claimed by a case."""
    catalog = load_catalog(game)
    untestable = {c.id for c in catalog.clauses if not c.testable}
    for lc in SUITE.cases:
        if lc.case.game == game:
            assert not set(lc.case.rules) & untestable, lc.case.id


@pytest.fixture(scope="module")
def asserted_by() -> dict[str, set[str]]:
    """Clause -> the passing cases that assert it, over every case under every edition it lists."""
    out: dict[str, set[str]] = {}
    for lc, ruleset in RUNS:
        result = run_case(ReferenceEngine(), lc, ruleset, "reference", keep_trace=False)
        if result.status == "pass":
            for clause in result.asserted:
                out.setdefault(clause, set()).add(lc.case.id)
    return out


@pytest.mark.parametrize("game", registry.names())
def test_every_testable_clause_is_asserted_by_two_passing_cases(game, asserted_by):
    """Only asserted coverage counts (DESIGN.md); every scenario-testable clause has two witnesses."""
    thin = {c.id: sorted(asserted_by.get(c.id, ())) for c in load_catalog(game).clauses
            if c.testable and len(asserted_by.get(c.id, ())) < 2}
    assert not thin, f"clauses asserted by fewer than two passing cases: {thin}"

