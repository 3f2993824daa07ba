"""An engine grows feature by feature: its hello may declare, per game, the abilities it implements, and
the cases whose cards use any other are skipped with the reason, never sent."""

from __future__ import annotations

from oracle.harness.engine import ReferenceEngine
from oracle.harness.request import used_abilities
from oracle.harness.runner import run_suite
from oracle.loader import load_suite


class VanillaOnly(ReferenceEngine):
    """The reference engine, declaring that it implements no Ijinden ability; it records what it is sent."""

    def __init__(self) -> None:
        super().__init__(["ijinden"])
        self.sent: list[str] = []

    def hello(self):
        return super().hello().model_copy(update={"abilities": {"ijinden": []}})

    def run_case(self, request, timeout=None):
        self.sent.append(request.id)
        return super().run_case(request, timeout)


def test_cases_needing_undeclared_abilities_are_skipped_and_never_sent():
    suite = load_suite(games=["ijinden"])
    engine = VanillaOnly()
    results = run_suite(engine, suite)
    needs = {lc.case.id: used_abilities(lc.case) for lc in suite.cases}
    for c in results.cases:
        if needs[c.id]:
            assert c.status == "skip" and c.id not in engine.sent
            assert c.skip_reason == ("needs abilities engine reference does not declare: "
                                     + ", ".join(sorted(needs[c.id])))
        else:
            assert c.status == "pass" and c.id in engine.sent
    assert results.summary["skip"] and results.summary["pass"]


def test_used_abilities_reads_the_card_pool_and_the_setup():
    by_id = {lc.case.id: lc.case for lc in load_suite(games=["ijinden"]).cases}
    assert used_abilities(by_id["ijinden.qa.yoshimitsu-attack-plus"]) == {"grant_voyage", "attack_plus"}
    assert used_abilities(by_id["ijinden.d1.tie-single-both-lose"]) == set()
