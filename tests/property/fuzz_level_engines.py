"""Toy engines for ``tcg-oracle fuzz`` at a weaker observation level: the reference engine's reply projected
to level ``final`` or ``steps`` (as ``serve --observation`` sends it), with one field of every player's state
left out (an engine that does not report it), and -- ``disagreeing_*`` -- the same engine reading every setup
card as untapped (:mod:`misreading_engine`): one real disagreement.

    py:fuzz_level_engines:final_lacking     level final, no ``deck`` / ``library`` field (whichever the game has)
    py:fuzz_level_engines:steps_lacking     level steps, the same
    py:fuzz_level_engines:disagreeing_steps level steps, the same, and every setup card untapped
"""

from __future__ import annotations

from typing import Any

from misreading_engine import UntappingEngine

from oracle.harness.engine import ReferenceEngine
from oracle.harness.views import project
from oracle.model import CaseReply, CaseRequest, EngineInfo, Hello

LEFT_OUT = ("deck", "library")
"""The player field the toy engines do not report (Ijinden and Duel Masters' deck, Magic's library)."""


def without_field(final: dict[str, Any]) -> dict[str, Any]:
    players = {pid: {f: v for f, v in (fields or {}).items() if f not in LEFT_OUT}
               for pid, fields in (final.get("players") or {}).items()}
    return {**final, "players": players}


class _Level:
    level = "final"
    name = "level-toy"

    def hello(self) -> Hello:
        return Hello(protocol_version=2, engine=EngineInfo(name=self.name, version="1"), games=self.games,
                     observation=self.level)

    def run_case(self, request: CaseRequest, timeout: float | None = None) -> CaseReply:
        from oracle.core.game import observing

        with observing(checkpoints=False):
            reply = super().run_case(request, timeout)  # type: ignore[misc]
        reply = project(reply, self.level)
        return reply.model_copy(update={"final": without_field(reply.final),
                                        "checkpoints": None})


class FinalLacking(_Level, ReferenceEngine):
    level, name = "final", "final-lacking"


class StepsLacking(_Level, ReferenceEngine):
    level, name = "steps", "steps-lacking"


class DisagreeingSteps(_Level, UntappingEngine):
    level, name = "steps", "disagreeing-steps"


def final_lacking() -> FinalLacking:
    return FinalLacking()


def steps_lacking() -> StepsLacking:
    return StepsLacking()


def disagreeing_steps() -> DisagreeingSteps:
    return DisagreeingSteps()


class Erring(ReferenceEngine):
    """An adapter that cannot set up a tapped card (``py:fuzz_level_engines:erring``): those cases are errors."""

    def hello(self) -> Hello:
        return Hello(engine=EngineInfo(name="erring", version="1"), games=self.games)

    def run_case(self, request: CaseRequest, timeout: float | None = None) -> CaseReply:
        tapped = [c.get("id") for p in request.setup["players"].values() for z in p.values() if isinstance(z, list)
                  for c in z if c.get("tapped")]
        if tapped or self.always:
            return CaseReply(id=request.id, error=f"{tapped[0] if tapped else 'x'}: a tapped card cannot be set up")
        return super().run_case(request, timeout)

    always = False


class AlwaysErring(Erring):
    always = True


def erring() -> Erring:
    return Erring()


def always_erring() -> AlwaysErring:
    return AlwaysErring()


class StepsEarly(_Level, ReferenceEngine):
    """Level steps, reporting each decision's events with the decision before it (``py:fuzz_level_engines:
    steps_early``): every moment is in some step, but not after the decision that caused it."""

    level, name = "steps", "steps-early"

    def run_case(self, request: CaseRequest, timeout: float | None = None) -> CaseReply:
        reply = super().run_case(request, timeout)
        steps = list(reply.steps or [])
        early = []
        for i, step in enumerate(steps):  # steps paired: the first of each pair also shows the second's events
            if i % 2 == 0:
                later = list(steps[i + 1].events) if i + 1 < len(steps) else []
                early.append(step.model_copy(update={"events": list(step.events) + later}))
            else:
                early.append(step.model_copy(update={"events": []}))
        return reply.model_copy(update={"steps": early})


def steps_early() -> StepsEarly:
    return StepsEarly()


class Skipping(Erring):
    """An adapter that says it cannot place a tapped card (``py:fuzz_level_engines:skipping``): a reply ``skip``."""

    def run_case(self, request: CaseRequest, timeout: float | None = None) -> CaseReply:
        reply = super().run_case(request, timeout)
        if reply.error:
            return CaseReply(id=request.id, skip=reply.error.replace("set up", "placed"))
        return reply


def skipping() -> Skipping:
    return Skipping()
