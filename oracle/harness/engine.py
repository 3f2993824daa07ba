"""The engine protocol: what any engine under test looks like to the runner.

An in-process Python adapter implements :class:`Engine` directly; engines in other languages speak the
JSON-lines protocol (``oracle.harness.jsonl``), whose messages are the same models. An engine spec
(``--engine``) is made into an engine by :func:`oracle.harness.adapters.make_engine`.
"""

from __future__ import annotations

import signal
import threading
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Callable, Iterator, Protocol, runtime_checkable

from .. import CONTRACT_VERSION, __version__, registry
from ..errors import EngineError, OracleError
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
                     capabilities=["legality"], contract_version=CONTRACT_VERSION)

    def run_case(self, request: CaseRequest, timeout: float | None = None) -> CaseReply:
        with time_limit(timeout, "reference"):
            return registry.get(request.game).run(request)

    def legality(self, request: LegalityRequest, timeout: float | None = None) -> LegalityReply:
        with time_limit(timeout, "reference"):
            return reference_legality(request)

    def close(self) -> None:
        pass


@contextmanager
def alarm(seconds: float | None, error: Callable[[], BaseException]) -> Iterator[None]:
    """``error()`` raised in the block after ``seconds`` (SIGALRM, so a search that runs away is stopped where it
    is, and its memory freed). Only where a signal can interrupt -- the main thread of a POSIX process -- and
    only when no other timer is running (an outer limit stands); elsewhere no limit."""
    if (not seconds or not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread()
            or signal.getitimer(signal.ITIMER_REAL)[0]):
        yield
        return

    def expired(signum: int, frame: Any) -> None:
        raise error()

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def time_limit(seconds: float | None, engine: str) -> AbstractContextManager[None]:
    """An in-process engine's ``--timeout``: :class:`EngineError` after ``seconds`` (:func:`alarm`; where no
    alarm can be set, the run's worker-thread bound applies, :class:`~oracle.harness.adapters.PythonEngine`)."""
    return alarm(seconds, lambda: EngineError(f"timeout: the {engine} engine played the case for more than "
                                              f"{seconds:g} s (in process: stopped where it was; the next case "
                                              f"runs as usual)"))


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
