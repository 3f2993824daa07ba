"""The reference engine behind each observation level (protocol 2): every golden case checkable at the
level passes, everything else is reported not checkable with the level (or capability) it needs, and
nothing fails. In process (the replies ``serve --observation`` sends), plus one round trip through
``tcg-oracle serve`` for the flags and the legality query."""

from __future__ import annotations

import shlex
import sys
from functools import lru_cache

import pytest

from oracle.harness.adapters import PythonEngine, make_engine
from oracle.harness.request import make_request
from oracle.harness.runner import run_suite
from oracle.harness.serve import Behaviour, answer, play
from oracle.harness.views import RANK
from oracle.loader import load_suite
from oracle.model import LegalityReply, LegalityRequest

import level_engines


@lru_cache(maxsize=1)
def suite():
    return load_suite()


def only_events(case) -> bool:
    """A case whose only expectations are events (so below level steps nothing of it is checkable)."""
    x = case.expect
    return bool(x.events) and not (x.rejected or x.final or x.asserts_winner)


FORCED_REFUSALS = {"mtg.cast.siege-protector-must-be-opponent", "mtg.sba.control-of-siege-goes-to-protector"}
"""Cases expecting a refusal of a decision with one legal option: with ``--automatic`` the entry is never
asked, and the refusal is checked through the legality query (nothing to check about "unchanged")."""


@pytest.mark.parametrize("factory", ["final", "checkpoints", "steps", "trace", "steps_automatic_no_codes",
                                     "trace_automatic", "final_automatic"])
def test_reference_behind_each_level(factory):
    engine = PythonEngine(getattr(level_engines, factory), factory)
    behaviour = engine.inner.behaviour
    results = run_suite(engine, suite())
    level = behaviour.observation
    assert results.engine.level == level and len(results.cases) == len(suite().cases)
    bad = [(c.id, c.status, c.divergence.message if c.divergence else c.error) for c in results.cases
           if c.status in ("fail", "error")]
    assert bad == []
    for c in results.cases:
        lc = next(x for x in suite().cases if x.case.id == c.id)
        assert c.level == level
        expect_nc = only_events(lc.case) and RANK[level] < RANK["steps"]
        assert (c.status == "not_checkable") == expect_nc, c.id
        for u in c.unchecked:  # never a level the engine has, never a capability it has
            if u.needs in RANK:
                assert RANK[u.needs] > RANK[level], (c.id, u)
            else:
                assert u.needs == "reason_codes" and not behaviour.reason_codes, (c.id, u)
        if level == "trace":
            assert c.unchecked == [], c.id
        if RANK[level] < RANK["steps"] and lc.case.expect.events:
            assert any(u.what == "events" and u.needs == "steps" for u in c.unchecked), c.id
        last = len(lc.case.script) - 1  # a refused last entry: what follows is the game's going on (no check)
        if level == "final" and any(r.at != last for r in lc.case.expect.rejected) and c.id not in FORCED_REFUSALS:
            assert any(u.what.endswith(".unchanged") and u.needs == "checkpoints" for u in c.unchecked), c.id
    if level in ("final", "checkpoints"):
        assert results.summary.get("not_checkable", 0) == sum(only_events(x.case) for x in suite().cases)


SIEGE = "mtg.cast.siege-protector-must-be-opponent"


def test_forced_decisions_are_lined_up_and_their_refusals_asked_through_legality():
    lc = next(x for x in suite().cases if x.case.id == SIEGE)
    (rej,) = lc.case.expect.rejected
    reply = play(make_request(lc.case, lc.case.rulesets[0]), Behaviour(observation="final", automatic=True))
    outcome = {d.at: d.outcome for d in reply.decisions}
    assert outcome[rej.at] == "not_asked" and outcome[rej.at + 1] == "automatic"
    engine = PythonEngine(lambda: level_engines.LevelEngine(Behaviour(observation="final", automatic=True)), "x")
    res = run_suite(engine, suite(), k=SIEGE)
    (c,) = res.cases
    assert c.status == "pass" and not any(u.needs == "legality" for u in c.unchecked)


@pytest.mark.parametrize("case_id, outcome", [
    ("mtg.cast.siege-enters-with-defense-and-protector", "automatic"),  # two players: one opponent
    ("mtg.cast.siege-three-players-choose-among-opponents", "accepted"),  # two opponents to choose from
    ("mtg.sba.protector-leaves-game-while-attacked", "automatic"),  # three players, one has left the game
])
def test_automatic_means_exactly_one_legal_option(case_id, outcome):
    lc = next(x for x in suite().cases if x.case.id == case_id)
    reply = play(make_request(lc.case, lc.case.rulesets[0]), Behaviour(automatic=True))
    got = [d.outcome for d in reply.decisions if lc.case.script[d.at].kind == "choose_protector"]
    assert got[-1] == outcome
    auto = [e for e in reply.trace if e.kind == "decided" and e.args.get("automatic")]
    assert len(auto) == (outcome == "automatic")


def test_serve_answers_legality_queries():
    lc = next(x for x in suite().cases if x.case.id == SIEGE)
    req = make_request(lc.case, lc.case.rulesets[0])
    (rej,) = lc.case.expect.rejected

    def query(at, decision=None):
        q = LegalityRequest(id="q", game=req.game, ruleset=req.ruleset, setup=req.setup, script=req.script[:at],
                            cards=req.cards, decision=decision or req.script[at])
        return answer(q.model_dump_json().encode(), ["mtg"])

    got = query(rej.at)
    assert isinstance(got, LegalityReply) and (got.accepted, got.reason) == (False, rej.reason)
    assert query(rej.at + 1).accepted is True
    other = query(rej.at, {"player": "bob", "kind": "declare_blockers", "args": {}})
    assert other.accepted is False and other.reason and other.error is None
    won = next(x.case for x in suite().cases if x.case.expect.winner and x.case.game == "ijinden")
    over = make_request(won, won.rulesets[0])
    q = LegalityRequest(id="q", game=over.game, ruleset=over.ruleset, setup=over.setup, script=over.script,
                        cards=over.cards, decision=over.script[-1])
    got = answer(q.model_dump_json().encode(), ["ijinden"])  # the game is over before the decision
    assert got.error and "could not be reached" in got.error and f"decision {len(over.script)}" in got.error
    broken = answer(b'{"type": "legality", "id": "q"}', ["mtg"])
    assert isinstance(broken, LegalityReply) and "malformed request" in broken.error


def test_serve_flags_play_each_level_over_the_protocol(tmp_path):
    argv = [sys.executable, "-m", "oracle", "serve", "--game", "mtg", "--observation", "final",
            "--no-reason-codes", "--automatic"]
    engine = make_engine("cmd:" + shlex.join(argv))
    try:
        h = engine.hello()
        assert (h.protocol_version, h.observation, h.reason_codes, h.capabilities) == (2, "final", False,
                                                                                       ["legality", "views", "pipeline"])
        res = run_suite(engine, suite(), k=SIEGE, games=["mtg"])
    finally:
        engine.close()
    (c,) = res.cases
    assert c.status == "pass" and c.level == "final"
    assert {u.needs for u in c.unchecked} >= {"reason_codes"}


def test_reference_checkpoints_a_refusal_changes_nothing_and_the_last_is_final():
    lc = next(x for x in suite().cases if x.case.expect.rejected and x.case.game == "ijinden")
    reply = play(make_request(lc.case, lc.case.rulesets[0]))
    cps = {c.after: c.state for c in reply.checkpoints}
    assert sorted(cps) == list(range(-1, len(lc.case.script)))
    for r in lc.case.expect.rejected:
        assert cps[r.at] == cps[r.at - 1]
    assert cps[len(lc.case.script) - 1] == reply.final
    assert [d.at for d in reply.decisions] == list(range(len(lc.case.script)))


def test_cli_run_at_a_level_junit_baseline_and_merge(tmp_path, capsys):
    import json
    import xml.etree.ElementTree as ET

    from oracle.baseline import load_baseline
    from oracle.cli import main
    from oracle.harness.merge import merge, read_results

    out, junit, base = tmp_path / "r.json", tmp_path / "j.xml", tmp_path / "base.yaml"
    cases = level_engines.suite_with_an_events_only_case(tmp_path / "suite")
    args = ["run", "--engine", "py:level_engines:final", "--cases", str(cases), "--results", str(out), "--report",
            "", "--junit", str(junit), "--baseline", str(base)]
    assert main([*args, "--update-baseline"]) == 0
    data = json.loads(out.read_text())
    n = data["summary"]["not_checkable"]
    assert n == 1 and data["summary"]["pass"] == 1 and data["summary"]["fail"] == 0 and data["engine"]["level"] == "final"
    assert "not checkable" in capsys.readouterr().out
    root = ET.parse(junit).getroot()
    skipped = [tc.find("skipped") for tc in root.iter("testcase") if tc.find("skipped") is not None]
    assert len(skipped) == n == int(root.get("skipped"))
    assert all(s.get("message").startswith("not checkable at level final: events needs steps") for s in skipped)
    assert list(load_baseline(base).cases.values()).count("not_checkable") == n
    assert main(args) == 0  # the same statuses again: no regression
    (merged,) = [merge(read_results(out))]
    assert merged.engine.level == "final" and merged.summary["not_checkable"] == n


def test_a_run_whose_every_case_is_not_checkable_tested_nothing(tmp_path, capsys):
    """README: a green run has tested something -- a run whose cases are all not_checkable exits 2, saying
    why; one checkable case among them is enough for 0."""
    import yaml

    from oracle.cli import main

    cases = level_engines.suite_with_an_events_only_case(tmp_path / "suite")
    path = cases / "ijinden" / "cases.yaml"
    both = yaml.safe_load(path.read_text(encoding="utf-8"))
    args = ["run", "--engine", "py:level_engines:final", "--cases", str(cases), "--results", str(tmp_path / "r.json"),
            "--report", ""]
    assert main(args) == 0
    path.write_text(yaml.safe_dump([both[1]], allow_unicode=True), encoding="utf-8")
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "nothing was tested: every one of the 1 case(s) sent was not_checkable at level final" in err
