"""What a game module provides, and the common run loop of every reference engine."""

from __future__ import annotations

import importlib
import sys
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Callable, Protocol, TypeVar

from ..model import CaseReply, CaseRequest, Checkpoint, DecisionOutcome
from .errors import ScriptError
from .script import DecisionPoint, GameOver, Script, Stopped
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
    """A game of the registry as data: its names, seed and vocabulary; ``procedure`` names the module whose
    ``run(request)`` is the reference engine (the game's ``procedure.py``), imported on first use (looking up
    a game's vocabulary, as the loader does, stays light)."""

    name: str
    title: str
    seed: str
    vocabulary: Vocabulary
    procedure: str

    def run(self, request: CaseRequest) -> CaseReply:
        procedure = sys.modules.get(self.procedure) or importlib.import_module(self.procedure)
        return procedure.run(request)

    def explicit_script(self, request: CaseRequest) -> list[dict[str, Any]]:
        """The request's script with any shorthand of the game written out (Magic: implied passes); a game
        without one returns it as it is. Legality questions are asked of explicit scripts."""
        expand = getattr(importlib.import_module(self.procedure), "explicit_script", None)
        return list(request.script) if expand is None else expand(request)

    @property
    def legality(self) -> str:
        """The module of the game's decision enumeration (``legality.py`` beside ``procedure``)."""
        return self.procedure.rsplit(".", 1)[0] + ".legality"


PROBE: ContextVar[Callable[[Any], Callable[[DecisionPoint], None]] | None] = ContextVar("probe", default=None)
"""Set by :mod:`oracle.core.legality` only: given the state just built, the callback for the point where the
script runs out (it stops the game there, so the state and the point can be examined)."""

SCRIPT: ContextVar[Callable[[Any, list[dict[str, Any]], Trace], Script] | None] = ContextVar("script", default=None)
"""Set by :mod:`oracle.core.legality` only (:func:`~oracle.core.legality.drive`, an incremental probe): given
the state just built, the request's script and the trace, the run's :class:`Script` -- one that asks for its
next entry as the run reaches each point, so one run builds a whole script."""


@dataclass(frozen=True)
class Observe:
    """What a run reports beyond the trace and the decisions: ``checkpoints`` (the state after each
    script entry: one projection per entry read, so only when asked -- ``serve`` always, an in-process
    run when a case's checks read them); ``stop_after`` -- a legality query: stop once entry N is decided."""

    checkpoints: bool = False
    stop_after: int | None = None


DEFAULT = Observe()
OBSERVE: ContextVar[Observe | None] = ContextVar("tcg_oracle_observe", default=None)


class observing:
    """Run reference engines with these :class:`Observe` options inside the block (a plain context manager:
    ``serve`` opens one per request)."""

    __slots__ = ("observe", "token")

    def __init__(self, **options: Any) -> None:
        self.observe = Observe(**options)

    def __enter__(self) -> None:
        self.token = OBSERVE.set(self.observe)

    def __exit__(self, *exc: object) -> None:
        OBSERVE.reset(self.token)


def run_procedure(
    request: CaseRequest,
    build: Callable[[CaseRequest, Trace], S],
    play: Callable[[S, Script], None],
    project: Callable[[S], dict[str, Any]],
    *,
    stop_on_script_error: bool = False,
) -> CaseReply:
    """Build the state from the setup, play the script to its end (or to a win), project the end state.

    The reply carries the trace and, when :data:`OBSERVE` asks for more than the default (``serve``, a
    legality query, a case whose checks read checkpoints), each entry's outcome (``decisions``; by default
    the harness derives them from the trace, where they are the decided / rejected events) and the state
    after it (``checkpoints``, the same projection as ``final``). Script errors (a missing or left-over
    decision) propagate: the runner reports them as ``error``. Under ``Observe(stop_after=N)`` play stops
    once entry N is decided, and the reply's last decision is that entry's outcome.

    ``stop_on_script_error`` (a mutant engine, ``oracle.mutants``): where the script does not fit -- a decision
    it lacks, entries left over -- the game stops there instead; the entries never asked for are
    ``not_asked``, and the reply always carries the decisions (and, when asked, a checkpoint per entry).
    """
    opts = OBSERVE.get() or DEFAULT
    trace = Trace()
    state = build(request, trace)
    probe, make = PROBE.get(), SCRIPT.get()
    script = make(state, request.script, trace) if make is not None else \
        Script(request.script, trace, (lambda: project(state)) if opts.checkpoints else None,
               opts.stop_after, at_end=probe(state) if probe is not None else None)
    winner = None
    final = None
    try:
        play(state, script)
    except Stopped:
        pass
    except GameOver as over:
        winner = over.winner
        final = project(state)
        if not stop_on_script_error:
            script.finish("the game is over", final)
    except ScriptError:
        if not stop_on_script_error:
            raise
    else:
        final = project(state)
        if not stop_on_script_error:
            script.finish("the engine reached the end of the procedure", final)
    if final is None:
        final = project(state)
    outcomes = script.outcomes
    if stop_on_script_error:  # what the game never asked for; every entry's state (the last one held)
        outcomes = outcomes + [("not_asked", None)] * (len(script.decisions) - script.cursor)
        if opts.checkpoints:
            script.checkpoints += [final] * (len(script.decisions) + 1 - len(script.checkpoints))
    entries = list(trace.entries)  # TraceEntry models already (Trace.emit)
    decisions = [built(DecisionOutcome, {"at": i, "outcome": o, "reason": r})
                 for i, (o, r) in enumerate(outcomes)] if opts is not DEFAULT or stop_on_script_error else None
    checkpoints = [built(Checkpoint, {"after": i - 1, "state": st}) for i, st in enumerate(script.checkpoints)] \
        if opts.checkpoints else None
    return built(CaseReply, {"type": "result", "id": request.id, "trace": entries, "final": final, "winner": winner,
                             "decisions": decisions, "checkpoints": checkpoints, "steps": None, "error": None,
                             "asked": None})


M = TypeVar("M")
_setattr = object.__setattr__


def built(cls: type[M], values: dict[str, Any]) -> M:
    """``cls.model_construct(**values)`` for the reference engine's own output, where ``values`` names every
    field (no defaults to fill, nothing to validate): a third of its cost (engines emit thousands of trace
    entries a second; a test holds it equal to ``model_construct``)."""
    m = cls.__new__(cls)
    _setattr(m, "__dict__", values)
    _setattr(m, "__pydantic_fields_set__", set(values))
    _setattr(m, "__pydantic_extra__", None)
    _setattr(m, "__pydantic_private__", None)
    return m
