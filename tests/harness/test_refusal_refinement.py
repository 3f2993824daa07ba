"""A refusal code may refine another (``Vocabulary.refines``): ``several_attackers`` is a kind of
``malformed_decision``, so a case written when the README mapped two attackers to ``malformed_decision``
still passes on an engine that now says ``several_attackers``; the reverse does not hold."""

from __future__ import annotations

import copy

import pytest

from oracle import registry
from oracle.harness.compare import compare
from oracle.harness.engine import ReferenceEngine
from oracle.loader import load_suite
from oracle.harness.request import make_request

CASE = "duelmasters"


def _case(reason_in_rejected: str, reason_in_events: str):
    lc = next(lc for lc in load_suite(games=["duelmasters"]).cases
              if any(r.reason == "several_attackers" for r in lc.case.expect.rejected))
    data = lc.case.model_dump(mode="json", exclude_none=True)
    data = copy.deepcopy(data)
    data["expect"]["rejected"] = [{**r, "reason": reason_in_rejected} for r in data["expect"]["rejected"]]
    for moment in data["expect"].get("events", []):
        for ev in moment if isinstance(moment, list) else [moment]:
            if "rejected" in ev:
                ev["rejected"]["reason"] = reason_in_events
    from oracle.model import Case

    return Case.model_validate(data)


def test_the_hierarchy():
    voc = registry.get("duelmasters").vocabulary
    assert voc.reason_satisfies("several_attackers", "malformed_decision")
    assert voc.reason_satisfies("several_blockers", "malformed_decision")
    assert not voc.reason_satisfies("malformed_decision", "several_attackers")
    assert voc.narrower("malformed_decision") == {"malformed_decision", "several_attackers", "several_blockers"}


@pytest.mark.parametrize("rejected, events, status", [
    ("several_attackers", "several_attackers", "pass"),
    ("malformed_decision", "malformed_decision", "pass"),    # a case of an earlier release, broader code
    ("malformed_decision", "several_attackers", "pass"),
    ("unknown_object", "several_attackers", "fail"),         # an unrelated code still fails
])
def test_a_case_expecting_the_broader_code_passes(rejected, events, status):
    case = _case(rejected, events)
    reply = ReferenceEngine().run_case(make_request(case, case.rulesets[0]))
    assert compare(case, reply).status == status


def test_an_engine_giving_the_broader_code_fails_a_case_expecting_the_narrower():
    case = _case("several_attackers", "several_attackers")
    reply = ReferenceEngine().run_case(make_request(case, case.rulesets[0]))
    trace = [e.model_copy(update={"args": {**e.args, "reason": "malformed_decision"}}) if e.kind == "rejected" else e
             for e in reply.trace]
    decisions = [d.model_copy(update={"reason": "malformed_decision"}) if d.reason else d
                 for d in (reply.decisions or [])]
    broad = reply.model_copy(update={"trace": trace, "decisions": decisions or reply.decisions})
    assert compare(case, broad).status == "fail"


def test_the_contract_page_lists_each_games_hierarchy():
    from pathlib import Path

    from oracle.core.vocabulary import refinements_markdown

    page = (Path(__file__).resolve().parents[2] / "docs" / "contract.md").read_text(encoding="utf-8")
    for game in registry.names():
        voc = registry.get(game).vocabulary
        if voc.refines:
            assert refinements_markdown(voc) in page, game
