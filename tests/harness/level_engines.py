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
