"""The engine protocol: what any engine under test looks like to the runner.

An in-process Python adapter implements :class:`Engine` directly; engines in other languages speak the
JSON-lines protocol (``oracle.harness.jsonl``), whose messages are the same models. An engine spec
(``--engine``) is made into an engine by :func:`oracle.harness.adapters.make_engine`.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from .. import __version__, registry
from ..errors import OracleError
from ..model import CaseReply, CaseRequest, EngineInfo, Hello, LegalityReply, LegalityRequest


@runtime_checkable
class Engine(Protocol):
    def hello(self) -> Hello:
        """Protocol and schema versions, name and version, games, optional capabilities."""

    def run_case(self, request: CaseRequest, timeout: float | None = None) -> CaseReply:
        """Play one case: its trace, final state and winner (refusals are in the trace)."""

    def close(self) -> None:
        """Release the engine (end its process)."""

    # optional (capability ``legality``):
    # def legality(self, request: LegalityRequest, timeout: float | None = None) -> LegalityReply:
    #     """Would the engine accept ``request.decision`` after playing ``request.script``?"""


class ReferenceEngine:
    """The reference engines of every registered game, in process."""

    def __init__(self, games: list[str] | None = None) -> None:
        self.games = games or registry.names()

    def hello(self) -> Hello:
        return Hello(engine=EngineInfo(name="reference", version=__version__), games=self.games,
                     capabilities=["legality"])

    def run_case(self, request: CaseRequest, timeout: float | None = None) -> CaseReply:
        return registry.get(request.game).run(request)

    def legality(self, request: LegalityRequest, timeout: float | None = None) -> LegalityReply:
        return reference_legality(request)

    def close(self) -> None:
        pass


def reference_legality(request: LegalityRequest) -> LegalityReply:
    """The reference engine's answer to a legality query: replay the script, then the decision; stop
    once it is decided (accepted, or refused with its reason)."""
    from ..core.game import observing

    at = len(request.script)
    case = CaseRequest(id=request.id, game=request.game, ruleset=request.ruleset, setup=request.setup,
                       script=[*request.script, request.decision], cards=request.cards)
    try:
        with observing(stop_after=at):
            reply = registry.get(request.game).run(case)
    except OracleError as exc:
        return LegalityReply(id=request.id, error=f"decision {at} could not be reached: {exc}")
    last = (reply.decisions or [None])[-1]
    if last is None or last.at != at:
        return LegalityReply(id=request.id, error=f"decision {at} was never asked (the game ended before it)")
    return LegalityReply(id=request.id, accepted=last.outcome != "refused", reason=last.reason)
