"""The engine protocol: what any engine under test looks like to the runner.

An in-process Python adapter implements :class:`Engine` directly; engines in other languages speak the
JSON-lines protocol (``oracle.harness.jsonl``), whose messages are the same models.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from .. import __version__, registry
from ..model import CaseReply, CaseRequest, EngineInfo, Hello


@runtime_checkable
class Engine(Protocol):
    def hello(self) -> Hello:
        """Protocol and schema versions, name and version, games, optional capabilities."""

    def run_case(self, request: CaseRequest, timeout: float | None = None) -> CaseReply:
        """Play one case: its trace, final state and winner (refusals are in the trace)."""

    def close(self) -> None:
        """Release the engine (end its process)."""


class ReferenceEngine:
    """The reference engines of every registered game, in process."""

    def __init__(self, games: list[str] | None = None) -> None:
        self.games = games or registry.names()

    def hello(self) -> Hello:
        return Hello(engine=EngineInfo(name="reference", version=__version__), games=self.games,
                     capabilities=[])

    def run_case(self, request: CaseRequest, timeout: float | None = None) -> CaseReply:
        return registry.get(request.game).run(request)

    def close(self) -> None:
        pass


def make_engine(spec: str) -> Engine:
    """``reference`` (more kinds -- ``py:``, ``cmd:``, ``mutant:`` -- come with the adapters)."""
    if spec == "reference":
        return ReferenceEngine()
    from .adapters import make_adapter  # noqa: PLC0415  (adapters are optional until they exist)

    return make_adapter(spec)
