"""Where a case ends in a way the rules explain, the result says so in the rules' terms (issue 24): a refused
last script entry followed by Magic's implied passes is no change made by the refusal, and an expected moment
missing because a spell was left on the stack names the stack and the rule that resolves it."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from oracle.cli import main

SOURCE = ('{kind: external, document: "Magic: The Gathering Comprehensive Rules", edition: "20260807", '
          'url: "https://media.wizards.com/2026/downloads/MagicCompRules%2020260819.txt", '
          'quote: "Each time all players pass in succession, the spell or ability on top of the stack resolves."}')


def _run(tmp_path: Path, body: str) -> dict:
    suite = tmp_path / "suite" / "mtg"
    suite.mkdir(parents=True)
    (suite / "case.yaml").write_text(textwrap.dedent(body).replace("SOURCE", SOURCE), encoding="utf-8")
    out = tmp_path / "r.json"
    main(["run", "--cases", str(tmp_path / "suite"), "--game", "mtg", "--results", str(out), "--report", "",
          "--quiet"])
    (case,) = json.loads(out.read_text(encoding="utf-8"))["cases"]
    return case


def test_a_spell_left_on_the_stack_is_named_with_the_rule_that_would_resolve_it(tmp_path):
    case = _run(tmp_path, """\
        id: user.spell-left-on-the-stack
        game: mtg
        rulesets: [cr-20260807]
        title: the passes that resolve the spell are missing from the script
        source: SOURCE
        rules: [mtg:117.3d]
        setup:
          active: alice
          players:
            alice: {hand: [{id: sp, card: Oracle Spark}]}
            bob: {battlefield: [{id: w, card: Oracle Walker}]}
        script:
          - {alice: {cast: {card: sp, targets: [w]}}}
        expect:
          events:
            - [{damaged: {source: sp, target: w, amount: 3, combat: false}}]
        """)
    assert case["status"] == "fail"
    message = case["divergence"]["message"]
    assert "the trace ended with sp left in zone `stack`" in message
    assert "CR 117.4, 608.1" in message and "write a `pass` for each player" in message


def test_a_trace_that_simply_ends_still_says_so(tmp_path):
    case = _run(tmp_path, """\
        id: user.nothing-on-the-stack
        game: mtg
        rulesets: [cr-20260807]
        title: an event that never comes, with nothing left waiting
        source: SOURCE
        rules: [mtg:117.3d]
        setup:
          active: alice
          phase: combat
          players:
            alice: {battlefield: [{id: x, card: Oracle Bear}]}
            bob: {}
        script:
          - {alice: {declare_attackers: {x: bob}}}
          - {bob: {declare_blockers: {}}}
        expect:
          events:
            - [{damaged: {source: x, target: bob, amount: 5}}]
        """)
    assert case["status"] == "fail"
    message = case["divergence"]["message"]
    assert "left in zone" not in message and "nearest" in message or message.endswith("the trace ended")


def test_a_refused_last_entry_then_implied_passes_passes_on_the_reference(tmp_path):
    """The golden case: before, the reference itself failed it ("the state changed before the next decision")."""
    out = tmp_path / "r.json"
    code = main(["run", "--game", "mtg", "-k", "mtg.priority.refused-last-entry-then-implied-passes",
                 "--results", str(out), "--report", "", "--quiet"])
    (case,) = json.loads(out.read_text(encoding="utf-8"))["cases"]
    assert code == 0 and case["status"] == "pass", case.get("divergence")


def test_a_refusal_before_the_last_entry_that_changed_the_state_still_fails():
    """The check stops only at the script's end: an engine whose refusal changed the state mid-script fails."""
    from oracle.core.trace import TraceEntry
    from oracle.harness.compare import Ctx, _unchanged_after_refusal
    from oracle.harness.views import observe
    from oracle.loader import load_suite
    from oracle.model import CaseReply

    lc = next(x for x in load_suite(games=["mtg"]).cases if x.case.id == "mtg.priority.main-phase-ends-when-all-pass")
    at = 2  # the refused sorcery; entries follow it
    trace = [{"moment": 1, "kind": "rejected", "args": {"at": at, "player": "alice", "decision": "cast",
                                                         "reason": "not_main_phase"}, "clause": "mtg:307.1"},
             {"moment": 2, "kind": "moved", "args": {"card": "st", "from": "hand", "to": "graveyard"},
              "clause": "mtg:307.1"}]
    reply = CaseReply.model_validate({"type": "result", "id": lc.case.id, "trace": trace, "final": {}})
    ctx = Ctx(case=lc.case, obs=observe(reply, None, "mtg"))
    hit = (0, TraceEntry(**trace[0]))
    div = _unchanged_after_refusal(ctx, 0, at, hit)
    assert div is not None and "the state changed before the next decision" in div.message
