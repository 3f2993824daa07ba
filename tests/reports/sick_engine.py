"""An engine of level ``final`` that misreads A1: it forgets that a card was placed this turn, so it accepts
an attack with an Ijin placed this turn (the reference engine behind ``serve --observation final``, given
the setup without ``entered_this_turn``). ``py:sick_engine:engine``."""

from __future__ import annotations

import copy

from oracle import registry
from oracle.harness.serve import Behaviour, play
from oracle.model import CaseReply, CaseRequest, EngineInfo, Hello


def _forget_placed_this_turn(setup: dict) -> dict:
    out = copy.deepcopy(setup)
    for player in out["players"].values():
        for zone in player.values():
            for card in zone if isinstance(zone, list) else []:
                if isinstance(card, dict):
                    card.pop("entered_this_turn", None)
    return out


class SickEngine:
    def __init__(self) -> None:
        self.behaviour = Behaviour(observation="final")

    def hello(self) -> Hello:
        hello = self.behaviour.hello(registry.names())
        return hello.model_copy(update={"engine": EngineInfo(name="sick", version="1.0")})

    def run_case(self, request: CaseRequest, timeout: float | None = None) -> CaseReply:
        return play(request.model_copy(update={"setup": _forget_placed_this_turn(request.setup)}), self.behaviour)

    def close(self) -> None:
        pass


def engine() -> SickEngine:
    return SickEngine()
