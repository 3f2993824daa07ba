"""The engine of ``--engine mutant:NAME``: the reference engine playing with one mutant's patches."""

from __future__ import annotations

import dataclasses
from contextlib import AbstractContextManager
from typing import Any, Callable

from .. import __version__, registry
from ..errors import MutantHang
from ..core.game import run_procedure
from ..harness.engine import ReferenceEngine, alarm, reference_legality
from ..model import (
    CaseReply, CaseRequest, EngineInfo, Hello, LegalityReply, LegalityRequest,
)
from .model import Mutant, Patch
from .patch import applied


def playing_on(request: CaseRequest, build: Callable, play: Callable, project: Callable) -> CaseReply:
    """``oracle.core.game.run_procedure`` as a mutant plays it: where its misreading makes the case's script
    not fit (it needs a decision the script lacks, or ends with entries unused) the reference reports a
    script error; a mutant reports what it did -- its game stops there, the entries it never asked for
    are ``not_asked`` -- so the comparison judges it like any engine that decided differently."""
    return run_procedure(request, build, play, project, stop_on_script_error=True)


def playing(mutant: Mutant) -> Mutant:
    """The mutant with its game's ``run_procedure`` replaced by :func:`playing_on`."""
    procedure = registry.get(mutant.game).procedure  # type: ignore[attr-defined]
    extra = Patch(f"{procedure}:run_procedure", lambda original: playing_on)
    return dataclasses.replace(mutant, patches=(*mutant.patches, extra))


CASE_SECONDS = 10.0
"""A mutant's time for one case when the run gives none (a case takes milliseconds): past it, the case is an
``error`` naming the mutant, rather than a run that never ends."""


def time_limit(seconds: float, mutant: str) -> AbstractContextManager[None]:
    """Raise :class:`MutantHang` in the block after ``seconds`` (a mutant runs in process: a misreading that never
    settles would hang the whole run); :func:`~oracle.harness.engine.alarm`."""
    return alarm(seconds, lambda: MutantHang(f"mutant {mutant} played one case for more than {seconds:g} s: its "
                                             f"misreading never settles (a mutant must end every case; make its "
                                             f"patches agree with each other)"))


class MutantEngine(ReferenceEngine):
    """The reference engine with one mutant's patches while it plays a case of the mutant's game (a case of
    another game is played by the plain reference)."""

    def __init__(self, mutant: Mutant) -> None:
        super().__init__()
        self.mutant = mutant
        self._playing = playing(mutant)

    def hello(self) -> Hello:
        return Hello(engine=EngineInfo(name=f"mutant:{self.mutant.name}", version=__version__), games=self.games,
                     capabilities=["legality"])

    def _in_mutant(self, game: str, call: Callable[[], Any], limit: float | None = None) -> Any:
        """``call`` with the mutant's patches when ``game`` is its game; ``limit``: seconds before :class:`MutantHang`
        (none for a whole property run, :mod:`oracle.mutants.properties`)."""
        if game != self.mutant.game:
            return call()
        with applied(self._playing):
            if limit is None:
                return call()
            with time_limit(limit, self.mutant.name):
                return call()

    def run_case(self, request: CaseRequest, timeout: float | None = None) -> CaseReply:
        return self._in_mutant(request.game, lambda: registry.get(request.game).run(request), timeout or CASE_SECONDS)

    def legality(self, request: LegalityRequest, timeout: float | None = None) -> LegalityReply:
        return self._in_mutant(request.game, lambda: reference_legality(request), timeout or CASE_SECONDS)
