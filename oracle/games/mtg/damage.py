"""Dealing damage (120): to players (life), creatures (marked), planeswalkers (loyalty), battles (310.6)."""

from __future__ import annotations

from .battles import remove_defense
from .state import State


def deal(st: State, source: str, target: str, amount: int, *, combat: bool, clause: str) -> None:
    """One source deals ``amount`` to ``target``. Call inside ``trace.simultaneous()`` for 510.2."""
    if amount <= 0:
        return
    st.trace.emit("damaged", clause, source=source, target=target, amount=amount, combat=combat)
    if target in st.board.players:
        st.life[target] -= amount
        st.trace.emit("life_changed", clause, player=target, amount=-amount, life=st.life[target])
        return
    c = st.card(target)
    if c.zone != "battlefield":
        return
    if st.is_creature(c):
        c.props["damage"] = c.props.get("damage", 0) + amount
    if st.is_planeswalker(c):
        have = c.counters.get("loyalty", 0)
        n = min(have, amount)
        c.counters["loyalty"] = have - n
        st.trace.emit("counters_removed", clause, card=c.id, kind="loyalty", count=n, left=have - n)
    if st.is_battle(c):
        remove_defense(st, c, amount)  # 310.6


def lose_life(st: State, player: str, amount: int, clause: str) -> None:
    st.life[player] -= amount
    st.trace.emit("life_changed", clause, player=player, amount=-amount, life=st.life[player])


__all__ = ["deal", "lose_life"]
