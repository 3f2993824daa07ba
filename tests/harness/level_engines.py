"""The reference engine behind each observation level, in process (``py:level_engines:final`` ...): the
same replies ``tcg-oracle serve --observation LEVEL [--no-reason-codes] [--automatic]`` sends."""

from __future__ import annotations

from oracle import registry
from oracle.harness.serve import Behaviour, legality, play
from oracle.model import CaseReply, CaseRequest, LegalityReply, LegalityRequest


class LevelEngine:
    def __init__(self, behaviour: Behaviour) -> None:
        self.behaviour = behaviour

    def hello(self):
        return self.behaviour.hello(registry.names())

    def run_case(self, request: CaseRequest, timeout: float | None = None) -> CaseReply:
        return play(request, self.behaviour)

    def legality(self, request: LegalityRequest, timeout: float | None = None) -> LegalityReply:
        return legality(request, self.behaviour)


def final() -> LevelEngine:
    return LevelEngine(Behaviour(observation="final"))


def checkpoints() -> LevelEngine:
    return LevelEngine(Behaviour(observation="checkpoints"))


def steps() -> LevelEngine:
    return LevelEngine(Behaviour(observation="steps"))


def trace() -> LevelEngine:
    return LevelEngine(Behaviour(observation="trace"))


def steps_automatic_no_codes() -> LevelEngine:
    return LevelEngine(Behaviour(observation="steps", reason_codes=False, automatic=True))


def trace_automatic() -> LevelEngine:
    return LevelEngine(Behaviour(observation="trace", automatic=True))


def final_automatic() -> LevelEngine:
    return LevelEngine(Behaviour(observation="final", automatic=True))


def suite_with_an_events_only_case(root):
    """A user suite of two Ijinden cases: a golden one as it is, and the same one asserting only its events
    (the golden cases now all assert something a final-level engine can check)."""
    import yaml

    from oracle import paths

    (root / "ijinden").mkdir(parents=True)
    golden = yaml.safe_load((paths.cases_dir() / "ijinden" / "resolution.yaml").read_text(encoding="utf-8"))
    case = next(c for c in golden if c["id"] == "ijinden.d1.zero-vs-zero-ijin-tie")
    events_only = {**case, "id": "user.d1.zero-vs-zero-events-only",
                   "expect": {"events": case["expect"]["events"]}}
    (root / "ijinden" / "cases.yaml").write_text(yaml.safe_dump([case, events_only], allow_unicode=True),
                                                 encoding="utf-8")
    return root
