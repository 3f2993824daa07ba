"""The script: every decision of the case, in order, consumed by the engine as it needs them.

A decision the engine cannot accept is refused with a reason code, changes nothing, and the same
player decides again from the next entry. A decision the engine needs but the script does not have is
a :class:`~oracle.core.errors.MissingDecision`. At an *open* point (the active player is free to act,
e.g. later in the main phase) an exhausted script ends the case normally.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, TypeVar

from .errors import LeftoverDecisions, MissingDecision
from .trace import Trace

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Decision:
    at: int
    player: str
    kind: str
    args: Any


class Refusal(Exception):
    """Raised by a validator: the decision is illegal. ``reason`` is a code of the game's vocabulary;
    ``clause`` the rule it breaks, when that is not the clause at which the decision was asked."""

    def __init__(self, reason: str, detail: str = "", clause: str | None = None) -> None:
        # ``clause``: the rule the decision breaks, when more precise than the decision point's clause
        self.reason, self.detail, self.clause = reason, detail, clause
        super().__init__(f"{reason}: {detail}" if detail else reason)


class GameOver(Exception):
    """Raised when a player has won; the engine stops."""

    def __init__(self, winner: str | None) -> None:
        self.winner = winner
        super().__init__(f"game over, winner {winner}")


class Script:
    __slots__ = ("decisions", "cursor", "trace")

    def __init__(self, decisions: list[dict[str, Any]], trace: Trace) -> None:
        self.decisions = [Decision(i, d["player"], d["kind"], d.get("args")) for i, d in enumerate(decisions)]
        self.cursor = 0
        self.trace = trace

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
        other: Callable[[Decision], str] | None = None,
        optional: bool = False,
        wrong_player: str = "not_your_decision",
    ) -> tuple[Decision, T] | None:
        """Take the next legal decision of ``player`` of one of ``kinds``.

        ``validate`` returns the parsed decision or raises :class:`Refusal`. ``other`` gives the reason
        code for a decision of another kind (default ``unexpected_decision``), ``wrong_player`` the code
        for a decision of the right kind by another player. With ``optional`` (an
        open point) an exhausted script returns ``None``; otherwise it is a :class:`MissingDecision`.
        """
        while True:
            d = self.peek()
            if d is None:
                if optional:
                    return None
                raise MissingDecision(player, kinds, clause, self.cursor)
            self.cursor += 1
            try:
                if d.kind not in kinds:
                    raise Refusal(other(d) if other else "unexpected_decision",
                                  f"expected {' or '.join(kinds)} of {player}")
                if d.player != player:
                    raise Refusal(wrong_player, f"{player} decides at {clause}")
                parsed = validate(d)
            except Refusal as r:
                self.trace.emit("rejected", r.clause or clause, at=d.at, player=d.player, reason=r.reason)
                continue
            self.trace.emit("decided", clause, at=d.at, player=d.player, decision=d.kind)
            return d, parsed

    def finish(self, why: str) -> None:
        """The game is over or the procedure ended: nothing may be left in the script."""
        if not self.exhausted:
            raise LeftoverDecisions(self.cursor, len(self.decisions) - self.cursor, why)
