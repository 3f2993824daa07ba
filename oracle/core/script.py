"""The script: every decision of the case, in order, consumed by the engine as it needs them.

A decision the engine cannot accept is refused with a reason code, changes nothing, and the same
player decides again from the next entry. A decision the engine needs but the script does not have is
a :class:`~oracle.errors.MissingDecision`. At an *open* point (the active player is free to act,
e.g. later in the main phase) an exhausted script ends the case normally.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, TypeVar

from ..errors import GameOver, LeftoverDecisions, MissingDecision, Refusal, Stopped
from .trace import Trace

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Decision:
    at: int
    player: str
    kind: str
    args: Any


# the signals Refusal, GameOver and Stopped are oracle.errors'; re-exported for the games
__all__ = ["Anytime", "Decision", "DecisionPoint", "GameOver", "Refusal", "Script", "Stopped"]


@dataclass(frozen=True, slots=True)
class Anytime:
    """A decision a player may make at every decision point, whoever is asked there (Magic's concession, CR
    104.3a: "A player can concede the game at any time"): its ``kind``, the ``clause`` its entry is tagged with,
    who may make it now (``may``), and what it does (``act``, given the point it interrupted; it may end the game
    or the case)."""

    kind: str
    clause: str
    may: Callable[[str], bool]
    act: Callable[[Decision, "DecisionPoint"], None]

    def takes(self, d: Decision, kinds: tuple[str, ...], player: str) -> bool:
        """Whether ``d`` is this decision, made where the point (``player`` deciding one of ``kinds``) does not ask
        for it itself: a point that offers it offers it to its own player only, and anyone else may still make it."""
        return d.kind == self.kind and not (d.kind in kinds and d.player == player) and self.may(d.player)


@dataclass(frozen=True, slots=True)
class DecisionPoint:
    """Where the engine asks for a decision: who decides, which kinds, at which clause, and the checks.

    :meth:`judge` is the one check of a decision at this point, used by :meth:`Script.decide` and by
    :mod:`oracle.core.legality`: the kind (``other``, default ``unexpected_decision``), the player
    (``wrong_player``), then the game's ``validate`` (its rule reasons, in the game's documented order).
    ``other`` answers a decision of another kind with a reason code, or with a :class:`Refusal` that
    carries the clause forbidding it.
    """

    player: str
    kinds: tuple[str, ...]
    clause: str
    validate: Callable[[Decision], Any]
    other: Callable[[Decision], str | Refusal] | None = None
    optional: bool = False
    wrong_player: str = "not_your_decision"
    anytime: Anytime | None = None
    """The game's decision of any time, legal here too (its parsed form: None)."""

    def judge(self, d: Decision) -> Any:
        """The parsed decision, or :class:`Refusal` with the first reason that applies."""
        if self.anytime is not None and self.anytime.takes(d, self.kinds, self.player):
            return None
        if d.kind not in self.kinds:
            why = self.other(d) if self.other else "unexpected_decision"
            if isinstance(why, Refusal):
                raise why
            raise Refusal(why, f"expected {' or '.join(self.kinds)} of {self.player}")
        if d.player != self.player:
            raise Refusal(self.wrong_player, f"{self.player} decides at {self.clause}")
        return self.validate(d)


class Script:
    """The decisions, consumed in order. It also records what protocol 2 reports of each entry: its
    outcome (``outcomes``: at -> (outcome, reason)) and, when ``observe`` is given, the observable state
    after it (``checkpoints``: taken when the engine asks for the next entry, or at the end)."""

    __slots__ = ("decisions", "cursor", "trace", "outcomes", "observe", "checkpoints", "stop_after",
                 "_unchanged_at", "at_end", "anytime")

    def __init__(self, decisions: list[dict[str, Any]], trace: Trace,
                 observe: Callable[[], dict[str, Any]] | None = None, stop_after: int | None = None,
                 at_end: Callable[[DecisionPoint], None] | None = None) -> None:
        self.decisions = [Decision(i, d["player"], d["kind"], d.get("args")) for i, d in enumerate(decisions)]
        self.cursor = 0
        self.trace = trace
        self.outcomes: list[tuple[str, str | None]] = []
        self.observe = observe
        self.checkpoints: list[dict[str, Any]] = []  # index N+1: the state after entry N (0: before entry 0)
        self.stop_after = stop_after
        self._unchanged_at = -1  # trace length right after a refusal: nothing has happened since
        self.at_end = at_end
        """Called with the point where the script runs out, before it returns ``None`` or raises
        :class:`MissingDecision` (:mod:`oracle.core.legality` stops the game there)."""
        self.anytime: Anytime | None = None
        """The game's decision of any time (set by its procedure): taken wherever it comes in the script."""

    def _checkpoint(self) -> None:
        """The state now is the state after the entry before the cursor (or before the first entry).
        After a refusal with nothing emitted since, it is the previous checkpoint (a refusal changes
        nothing), shared rather than projected again."""
        if self.checkpoints and len(self.trace.entries) == self._unchanged_at:
            self.checkpoints.append(self.checkpoints[-1])
        else:
            self.checkpoints.append(self.observe())  # type: ignore[misc]

    @property
    def exhausted(self) -> bool:
        return self.cursor >= len(self.decisions)

    def peek(self) -> Decision | None:
        return None if self.exhausted else self.decisions[self.cursor]

    def decide(
        self,
        player: str,
        kinds: tuple[str, ...],
        clause: str,
        validate: Callable[[Decision], T],
        *,
        other: Callable[[Decision], str | Refusal] | None = None,
        optional: bool = False,
        wrong_player: str = "not_your_decision",
    ) -> tuple[Decision, T] | None:
        """Take the next legal decision of ``player`` of one of ``kinds``.

        ``validate`` returns the parsed decision or raises :class:`Refusal`. ``other`` gives the reason
        code (or the :class:`Refusal`) for a decision of another kind (default ``unexpected_decision``),
        ``wrong_player`` the code for a decision of the right kind by another player. With ``optional`` (an
        open point) an exhausted script returns ``None``; otherwise it is a :class:`MissingDecision`.
        The point is a :class:`DecisionPoint`: :mod:`oracle.core.legality` judges decisions through it too.
        """
        point = DecisionPoint(player, kinds, clause, validate, other, optional, wrong_player, self.anytime)
        while True:
            d = self.peek()
            if d is None:
                if self.at_end is not None:
                    self.at_end(point)
                if optional:
                    return None
                raise MissingDecision(player, kinds, clause, self.cursor)
            if self.observe is not None:
                self._checkpoint()
            self.cursor += 1
            if self.anytime is not None and self.anytime.takes(d, kinds, player):
                self.trace.emit("decided", self.anytime.clause, at=d.at, player=d.player, decision=d.kind)
                self.outcomes.append(("accepted", None))
                if d.at == self.stop_after:
                    raise Stopped(d.at)
                self.anytime.act(d, point)  # it may end the game (GameOver) or the case
                continue  # the point it interrupted is asked again
            try:
                parsed = point.judge(d)
            except Refusal as r:
                self.trace.emit("rejected", r.clause or clause, at=d.at, player=d.player, reason=r.reason)
                self.outcomes.append(("refused", r.reason))
                self._unchanged_at = len(self.trace.entries)
                if d.at == self.stop_after:
                    raise Stopped(d.at) from None
                continue
            self.trace.emit("decided", clause, at=d.at, player=d.player, decision=d.kind)
            self.outcomes.append(("accepted", None))
            if d.at == self.stop_after:
                raise Stopped(d.at)
            return d, parsed

    def finish(self, why: str, final: dict[str, Any] | None = None) -> None:
        """The game is over or the procedure ended: nothing may be left in the script. ``final`` (the
        end state) is the checkpoint of the last entry."""
        if not self.exhausted:
            raise LeftoverDecisions(self.cursor, len(self.decisions) - self.cursor, why)
        if self.observe is not None and self.decisions:
            self.checkpoints.append(final if final is not None else self.observe())
