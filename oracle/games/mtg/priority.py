"""Priority (117): state-based actions and triggers first (117.5), then each player in turn order from the one
with priority; when all pass in succession the top object resolves (117.4) or, with an empty stack, the step
ends. Every priority decision is an open point: an exhausted script ends the case there (assumption
mtg:A-priority; the pass shorthand is PROCEDURE.md's).
"""

from __future__ import annotations

from ...core.script import Script
from ...errors import OpenPoint
from . import sba
from .casting import cast_validator, put_spell
from .clauses import CR117_3B, CR117_3D
from .resolution import resolve_top
from .triggers import put_on_stack
from .state import State


def run_stack(st: State, script: Script) -> None:
    """State-based actions and triggers, then priority rounds until the stack is empty."""
    while True:
        settle(st, script)
        if not st.stack:
            return
        priority_round(st, script, opening=st.c(CR117_3B) if st.resolved else None)


def priority_step(st: State, script: Script) -> None:
    """117.3a/117.4: the active player receives priority (after SBAs and triggers, 117.5); when all players pass
    in succession the top object resolves and the active player receives priority again (117.3b), or, with an
    empty stack, the step ends."""
    while True:
        settle(st, script)
        if priority_round(st, script, opening=st.c(CR117_3B) if st.resolved else None):
            return


def settle(st: State, script: Script) -> None:
    """704.3/117.5: SBAs until none, then waiting triggers go on the stack (APNAP, in trigger order)."""
    sba.check(st, script)
    if st.pending:
        order = st.from_active()
        st.pending.sort(key=lambda i: order.index(i.controller) if i.controller in order else 99)
        waiting, st.pending = st.pending, []
        for item in waiting:  # 603.3b: in APNAP order; 603.3d: a composed ability's targets chosen as it goes on
            put_on_stack(st, script, item)


def priority_round(st: State, script: Script, first: int = 0, passed: int = 0, opening: str | None = None) -> bool:
    """Players in turn order from ``players[first]`` (the active player unless the active player has already
    passed) until all pass in succession (117.4). True: the stack was empty, the step ends; False: the top
    object resolved. A cast keeps priority with the caster (117.3c) and restarts the succession. ``opening``:
    the clause of the first decision asked (117.3b right after a resolution), else 117.3d."""
    players = st.from_active()
    i, passes = first, passed
    st.resolved = False
    while passes < len(players):
        p = players[i % len(players)]
        parsed = ask_priority(st, script, p, opening or st.c(CR117_3D))
        opening = None
        if parsed is None:
            passes += 1
            i += 1
            continue
        if parsed == CONCEDE:
            players, i = _after_leaving(st, players, i, p)
            continue
        put_spell(st, p, *parsed)
        settle(st, script)
        passes = 0
    if not st.stack:
        return True
    resolve_top(st, script)
    st.resolved = True  # 117.3b: the active player receives priority next
    return False


PRIORITY = ("pass", "cast", "concede")
CONCEDE = "concede"


def _after_leaving(st: State, players: list[str], i: int, p: str) -> tuple[list[str], int]:
    """``p`` conceded while holding priority: 800.4a, "priority passes to the next player in turn order who’s still
    in the game" (the passes before it still count: all remaining players passing in succession ends the round).
    The rest of a turn whose active player left (800.4j) is not modelled: the case ends there (mtg:A-concede)."""
    sba.concede(st, p)  # a two-player game (or one team left) ends here: GameOver
    if p == st.active:
        raise OpenPoint()
    k = i % len(players)
    after = [q for q in players[k + 1:] + players[:k] if q not in st.lost]
    now = st.from_active()
    return now, now.index(after[0]) if after else 0


def ask_priority(st: State, script: Script, p: str, clause: str) -> tuple[str, list[str]] | str | None:
    """The decision of ``p``, who has priority: a cast, :data:`CONCEDE` (104.3a), or None for a pass.

    The shorthand (PROCEDURE.md): a pass may be left out of the script. When the next script entry is not a
    ``pass`` or ``cast`` of ``p``, ``p`` passes without a script entry (an implied pass, not traced). An
    exhausted script is an implied pass too while the stack is empty; with something on the stack it is an open
    point and ends the case (assumption mtg:A-priority)."""
    d = script.peek()
    if d is None and script.at_end is not None:
        # a legality probe (oracle.core.legality) asks for the decision pending here: every priority point is
        # one, as in a script with every pass written out (procedure.explicit_script)
        got = script.decide(p, PRIORITY, clause, lambda dd: _priority(st, p, dd), optional=True)
        if got is None:
            raise OpenPoint()
        d, parsed = got  # an incremental probe (legality.drive) supplied the decision: play on with it
        if d.kind == "concede":
            return CONCEDE
        return None if d.kind == "pass" else parsed
    if d is None:
        if st.stack:
            raise OpenPoint()
        st.implied.append((script.cursor, p))
        return None
    if d.player != p or d.kind not in PRIORITY:
        st.implied.append((script.cursor, p))
        return None
    got = script.decide(p, PRIORITY, clause, lambda dd: _priority(st, p, dd), optional=True)
    if got is None:  # every remaining entry was refused: the script ended at this open point
        if st.stack:
            raise OpenPoint()
        return None
    d, parsed = got
    if d.kind == "concede":
        return CONCEDE
    return None if d.kind == "pass" else parsed


def _priority(st: State, p: str, d):
    if d.kind in ("pass", "concede"):
        return None
    return cast_validator(st, p)(d)
