"""What a game module provides, and the common run loop of every reference engine."""

from __future__ import annotations

import importlib
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Callable, Protocol, TypeVar

from ..model import CaseReply, CaseRequest, TraceEntry
from .script import DecisionPoint, GameOver, Script
from .trace import Trace
from .vocabulary import Vocabulary

S = TypeVar("S")


class Game(Protocol):
    """A game of the registry. ``run`` is its reference engine: a case request in, a reply out."""

    name: str
    title: str
    seed: str
    vocabulary: Vocabulary

    def run(self, request: CaseRequest) -> CaseReply: ...


@dataclass(frozen=True)
class GameModule:
    """A game of the registry as data: its names, seed and vocabulary; ``rules`` names the module whose
    ``run(request)`` is the reference engine, imported on first use (looking up a game's vocabulary, as
    the loader does, stays light)."""

    name: str
    title: str
    seed: str
    vocabulary: Vocabulary
    rules: str
    setup_problems: Callable[[Any], list] | None = None
    """Optional: game-specific located errors of a case's setup (``[((field, ...), message), ...]``)."""

    def run(self, request: CaseRequest) -> CaseReply:
        return importlib.import_module(self.rules).run(request)

    def explicit_script(self, request: CaseRequest) -> list[dict[str, Any]]:
        """The request's script with any shorthand of the game written out (Magic: implied passes); a game
        without one returns it as it is. Legality questions are asked of explicit scripts."""
        expand = getattr(importlib.import_module(self.rules), "explicit_script", None)
        return list(request.script) if expand is None else expand(request)

    @property
    def legality(self) -> str:
        """The module of the game's decision enumeration (``legality.py`` beside ``rules``)."""
        return self.rules.rsplit(".", 1)[0] + ".legality"


PROBE: ContextVar[Callable[[Any], Callable[[DecisionPoint], None]] | None] = ContextVar("probe", default=None)
"""Set by :mod:`oracle.core.legality` only: given the state just built, the callback for the point where the
script runs out (it stops the game there, so the state and the point can be examined)."""


def run_procedure(
    request: CaseRequest,
    build: Callable[[CaseRequest, Trace], S],
    play: Callable[[S, Script], None],
    project: Callable[[S], dict[str, Any]],
) -> CaseReply:
    """Build the state from the setup, play the script to its end (or to a win), project the end state.

    Script errors (a missing or left-over decision) propagate: the runner reports them as ``error``.
    """
    trace = Trace()
    state = build(request, trace)
    probe = PROBE.get()
    script = Script(request.script, trace, at_end=probe(state) if probe is not None else None)
    winner = None
    try:
        play(state, script)
    except GameOver as over:
        winner = over.winner
        script.finish("the game is over")
    else:
        script.finish("the engine reached the end of the procedure")
    entries = [TraceEntry.model_construct(moment=e.moment, kind=e.kind, args=e.args, clause=e.clause)
               for e in trace.entries]
    return CaseReply.model_construct(type="result", id=request.id, trace=entries,
                                     final=project(state), winner=winner, error=None)
