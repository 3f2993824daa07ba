"""Resolving the top object of the stack (608): a triggered ability (abilities.TRIGGER_EFFECTS), a permanent spell
(608.3a; a battle 310.2), or an instant or sorcery spell (608.2b: countered if its targets are all illegal; 608.2n:
its effect, then its owner's graveyard)."""

from __future__ import annotations

from ...core.script import Script
from .abilities import SPELL_EFFECTS, TRIGGER_EFFECTS
from .battles import enter_battlefield
from .casting import PERMANENT_TYPES, spell_effect, target_ok
from .clauses import CR310_2, CR608_2B, CR608_2N, CR608_3A
from .state import State
from .triggers import resolve


def resolve_top(st: State, script: Script) -> None:
    item = st.stack.pop()
    if item.ability is not None:
        if "composed" in item.data:  # a composed ability, or a named one that is shorthand for one
            resolve(st, script, item)
        else:
            TRIGGER_EFFECTS[item.ability](st, script, item)
        return
    c = st.card(item.card)
    if any(t in PERMANENT_TYPES for t in st.types(c)):
        battle = st.is_battle(c)
        st.trace.emit("resolved", st.c(CR310_2 if battle else CR608_3A), card=c.id, player=item.controller)
        enter_battlefield(st, script, c, item.controller, st.c(CR310_2 if battle else CR608_3A))
        return
    eff = spell_effect(st, c.id)
    name, param = eff if eff else (None, None)
    if item.targets and not all(target_ok(st, name, i, t) for i, t in enumerate(item.targets)):
        with st.trace.simultaneous():
            st.trace.emit("countered", st.c(CR608_2B), card=c.id)
            to_graveyard(st, c, st.c(CR608_2B))
        return
    st.trace.emit("resolved", st.c(CR608_2N), card=c.id, player=item.controller)
    if name is not None:  # an effect the engine does not model does nothing here; the spell still resolves
        SPELL_EFFECTS[name](st, script, item, param)
    to_graveyard(st, c)


def to_graveyard(st: State, c, clause: str | None = None) -> None:
    """608.2n: "the spell is put into its owner’s graveyard" -- a transformed Siege's back face too (a card in a
    graveyard has its front face up, 400.7)."""
    st.board.move(c.id, "graveyard", clause or st.c(CR608_2N))
    st.reset_object(c)  # front face up (712.8a)
