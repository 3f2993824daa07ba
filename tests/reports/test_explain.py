"""``tcg-oracle explain``: the board, the reference trace narrated clause by clause, and where an engine
under test parts from the reference. Runs on the report toy game (tests/reports/report_toy.py)."""

from __future__ import annotations

import io
from argparse import Namespace

import pytest
from rich.console import Console

import report_toy  # tests/reports is on sys.path: see conftest.py

from oracle.explain import explain, main


@pytest.fixture
def toy(rtoy, monkeypatch):
    """The report toy game as the only registered game."""
    from oracle import registry

    monkeypatch.setattr(registry, "names", lambda: [report_toy.GAME_NAME])
    yield


def _explain(case_id: str, **kw) -> tuple[int, str]:
    buf = io.StringIO()
    code = explain(case_id, console=Console(file=buf, width=140, color_system=None), **kw)
    return code, buf.getvalue()


def test_narrates_board_steps_and_clause_texts(toy):
    code, out = _explain("rtoy.fight.tie")
    assert code == 0
    assert "Equal powers: both are destroyed at once" in out and "Quote of Equal powers" in out
    assert "alice (active)" in out and "soldier (a2)" in out and "tapped" in out and "1× shield counter" in out
    assert "5 cards" in out                                    # the deck, as a count
    for clause, text, summary in (("rtoy:ATTACK", "アタックする。", "The active player attacks with one card."),
                                  ("rtoy:FIGHT", "同時に破壊する。", "Losers are destroyed at once.")):
        assert clause in out and text in out and summary in out
    assert "Step 1" in out and "← script #0: alice: attack a1" in out
    assert "✓ expected #2" in out                              # the simultaneous destruction is asserted
    assert out.rstrip().endswith("reference: pass")


def test_an_engine_under_test_is_shown_where_it_parts(toy):
    code, out = _explain("rtoy.fight.tie", engine=report_toy.OneAtATime())
    assert code == 1
    part = out[out.index("one-at-a-time parts from the reference"):]
    assert "destroyed card=a1" in part and "destroyed card=b1" in part
    assert "rtoy:FIGHT" in part and "同時に破壊する。" in part
    assert "The case expects this moment (expected #2)" in part
    assert "one-at-a-time: fail" in part and "was not found" in part


def test_an_engine_that_agrees_passes(toy):
    code, out = _explain("rtoy.win.unblocked", engine=report_toy.OneAtATime())
    assert code == 0
    assert "one-at-a-time's trace is the reference trace" in out


def test_refusals_are_marked(toy):
    code, out = _explain("rtoy.attack.tapped-refused")
    assert code == 0 and "rejected at=0 player=alice reason=attacker_tapped" in out
    assert "✓ expected refusal" in out


def test_unknown_and_partial_ids(toy, capsys):
    code, out = _explain("rtoy.")
    assert code == 2 and "Did you mean" in out and "rtoy.win.unblocked" in out
    code, out = _explain("unblocked")                            # the only id containing it
    assert code == 0 and "An unblocked attack wins" in out
    assert main(Namespace(case_id="nothing-like-it", engine="reference")) == 2
    code, out = _explain("rtoy.win.unblokced")                   # a typo: the nearest ids, by spelling
    assert code == 2 and "Did you mean: rtoy.win.unblocked" in out
    code, out = _explain("RTOY.FIGHT.TEI")
    assert code == 2 and "Did you mean: rtoy.fight.tie" in out
    assert main(Namespace(case_id="rtoy.xss.title", engine="no-such-kind")) == 2
    assert "<script>alert(1)</script>" in capsys.readouterr().out  # shown as text, not markup


def test_request_prints_the_exact_protocol_line(toy, capsys):
    import json

    from oracle.explain import print_request

    assert print_request("rtoy.win.unblocked") == 0
    line = capsys.readouterr().out.strip()
    msg = json.loads(line)
    assert msg["type"] == "case" and msg["id"] == "rtoy.win.unblocked" and msg["script"] and msg["setup"]
    assert print_request("no.such.case") == 2


def test_what_an_engine_level_cannot_show_is_listed(toy):
    from oracle.harness.serve import Behaviour

    class FinalLevel:  # the reference engine as an engine of level final
        def hello(self):
            return Behaviour(observation="final").hello([report_toy.GAME_NAME])

        def run_case(self, request, timeout=None):
            from oracle.harness.serve import play

            return play(request, Behaviour(observation="final"))

        def close(self):
            pass

    code, out = _explain("rtoy.fight.tie", engine=FinalLevel())
    assert "reference-final" in out and "not checked at level final: events needs steps" in out
    # a final-level engine sends no trace: explain says so instead of "parts from the reference ... the trace
    # has ended" (what an engine author writing from the README alone was told on a passing case)
    assert "parts from the reference" not in out and "sends no trace" in out
