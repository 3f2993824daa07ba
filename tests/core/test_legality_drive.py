"""The incremental probe (``oracle.core.legality.drive``): one run that asks a chooser at each point agrees with
the replaying questions (``legal_decisions`` of every prefix) on every golden script, and builds that script."""

from __future__ import annotations

import pytest

from oracle import registry
from oracle.core import legality as L
from oracle.harness.request import make_request
from oracle.loader import load_suite

SUITE = load_suite()
RUNS = [(lc, r) for lc in SUITE.cases for r in lc.case.rulesets[:1]]


def _seen(p: L.Pending) -> tuple:
    return p.at, p.player, p.kinds, p.clause, p.optional, p.legal, dict(p.unenumerated), p.complete


@pytest.mark.parametrize("lc, ruleset", RUNS, ids=[f"{lc.case.id}@{r}" for lc, r in RUNS])
def test_each_point_the_run_reaches_is_what_the_replaying_question_answers(lc, ruleset):
    request = make_request(lc.case, ruleset)
    request = request.model_copy(update={"script": registry.get(request.game).explicit_script(request)})
    script = request.script
    seen: list[L.Pending] = []

    def follow(p: L.Pending):
        seen.append(p)
        return script[p.at] if p.at < len(script) else None

    driven = L.drive(request.model_copy(update={"script": []}), follow)
    assert driven.script == [{"player": e["player"], "kind": e["kind"], "args": e.get("args")} for e in script]
    assert [p.at for p in seen] == list(range(len(seen)))
    for p in seen:
        assert _seen(p) == _seen(L.legal_decisions(request, p.at)), f"{lc.case.id}: entry {p.at}"
    after = L.legal_decisions(request, len(script))
    if after.point is None:  # the game ended by itself: the driven run did too, with the same winner
        assert not driven.stopped and driven.winner == registry.get(request.game).run(request).winner
    else:  # the script ran out at an open point: the chooser was asked there and ended it
        assert driven.stopped and len(seen) == len(script) + 1 and _seen(seen[-1]) == _seen(after)


def _board() -> dict:
    from oracle.loader import load_cards

    pool = load_cards("ijinden")
    name = "テスト用イジン"
    return {"game": "ijinden", "ruleset": "ijinden-rulecard-2.0-231225", "script": [],
            "setup": {"active": "alice", "players": {"alice": {"battlefield": [{"id": "a", "card": name}]},
                                                     "bob": {"battlefield": [{"id": "b", "card": name}]}}},
            "cards": {name: pool[name].model_dump(mode="json", exclude_none=True)}}


def test_a_refused_entry_is_judged_by_the_engine_and_the_same_point_asks_again():
    asked: list[tuple[int, tuple[str, ...]]] = []
    refused: list[str] = []

    def choose(p: L.Pending):
        asked.append((p.at, p.kinds))
        if p.at == 0:
            entry = {"player": "bob", "kind": p.kinds[0], "args": ["b"]}  # not bob's decision
            refused.append(p.judge(entry).reason)
            return entry
        if p.at == 1:
            return {"player": "alice", "kind": "end_turn", "args": None}
        return None

    driven = L.drive(_board(), choose)
    assert asked[0][0] == 0 and asked[1] == (1, asked[0][1])  # entry 1 answers the point entry 0 did not
    trace = registry.get("ijinden").run(L._request({**_board(), "script": driven.script})).trace
    assert [(e.kind, e.args.get("reason")) for e in trace if e.kind in ("rejected", "decided")] == \
        [("rejected", refused[0]), ("decided", None)]


def test_what_the_chooser_raises_comes_out_of_drive_and_its_own_runs_are_ordinary():
    class Mine(Exception):
        pass

    def choose(p: L.Pending):
        inner = L.legal_decisions(_board(), 0)  # a legality question inside the driven run
        assert inner.point is not None and inner.legal == p.legal
        raise Mine()

    with pytest.raises(Mine):
        L.drive(_board(), choose)
