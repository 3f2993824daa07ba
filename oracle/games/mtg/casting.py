"""Casting spells (601; 310.1 for a battle; 310.11b's transformed cast): what a spell targets and where it goes.

Mana is not modelled: costs are taken as paid (assumption mtg:A-no-mana). A spell's effect is its first ability
that is a spell effect (abilities.SPELL_EFFECTS: what it does); how many targets it takes and which are legal are
:data:`TARGETS` (601.2c: targets are chosen as it is cast; 608.2b: checked again as it resolves).
"""

from __future__ import annotations

from typing import Any

from ...core.script import Refusal
from .clauses import CR310_1, CR310_11B, CR601_2A
from .state import StackItem, State

PERMANENT_TYPES = ("artifact", "battle", "creature", "enchantment", "land", "planeswalker")

# The spell effects and how many targets each takes (the effect table itself is abilities.SPELL_EFFECTS).
TARGETS: dict[str, int] = {
    "deal_damage": 1,
    "gain_control": 1,
    "become_copy": 2,
    "become_battle": 1,
    "become_creature": 1,
    "become_artifact_creature": 1,
    "add_defense": 1,
    "put_p1p1_counters": 1,
    "proliferate": 0,
    "draw": 0,
    "return_to_hand": 1,
}


def _on_battlefield(st: State, x: Any) -> bool:
    return isinstance(x, str) and x in st.board.cards and st.card(x).zone == "battlefield"


def target_ok(st: State, effect: str | None, i: int, x: Any) -> bool:
    """Whether ``x`` is a legal ``i``-th target of ``effect``. 115.4: "any target" is a creature, player,
    planeswalker or battle."""
    if effect == "deal_damage":
        if x in st.alive():
            return True
        if not _on_battlefield(st, x):
            return False
        c = st.card(x)
        return st.is_creature(c) or st.is_planeswalker(c) or st.is_battle(c)
    if not _on_battlefield(st, x):
        return False
    c = st.card(x)
    if effect == "become_copy":
        return True if i == 0 else st.is_battle(c)
    if effect == "become_battle":
        return st.is_creature(c)
    if effect == "add_defense":
        return st.is_battle(c)
    if effect == "put_p1p1_counters":
        return st.is_creature(c)
    return True


def spell_effect(st: State, cid: str) -> tuple[str, Any] | None:
    """The spell effect of card ``cid`` (its name and parameter), or None."""
    return first_effect(st.card(cid).abilities)


def first_effect(abilities: list[tuple[str, Any]]) -> tuple[str, Any] | None:
    for name, param in abilities:
        if name in TARGETS:
            return name, param
    return None


def n_targets(effect: str | None) -> int:
    return 0 if effect is None else TARGETS[effect]


def targets_ok(st: State, effect: str | None, targets: list[Any]) -> bool:
    """601.2c: as many distinct legal targets as the effect takes."""
    return (len(targets) == n_targets(effect) and len(set(map(str, targets))) == len(targets)
            and all(target_ok(st, effect, i, t) for i, t in enumerate(targets)))


def cast_validator(st: State, player: str):
    def valid(d) -> tuple[str, list[str]]:
        args = d.args if isinstance(d.args, dict) else {"card": d.args}
        cid, targets = args.get("card"), list(args.get("targets") or [])
        if cid not in st.board.cards:
            raise Refusal("unknown_object", f"no card {cid!r}")
        c = st.card(cid)
        if c.zone != "hand" or c.owner != player:
            raise Refusal("not_in_hand", f"{cid} is not in {player}'s hand", clause=st.c(CR310_1))
        types = st.types(c)
        if "instant" not in types:
            if player != st.active:
                raise Refusal("not_your_turn", f"{cid} can be cast only in its controller's turn", clause=st.c(CR310_1))
            if st.step not in ("main", "main2"):
                raise Refusal("not_main_phase", f"{cid} can be cast only in a main phase", clause=st.c(CR310_1))
            if st.stack:
                raise Refusal("stack_not_empty", f"{cid} can be cast only with an empty stack", clause=st.c(CR310_1))
        eff = spell_effect(st, cid)
        name = eff[0] if eff else None
        if (len(targets) != n_targets(name) or len(set(targets)) != len(targets)
                or not all(target_ok(st, name, i, t) for i, t in enumerate(targets))):
            raise Refusal("illegal_target", f"{cid} needs {n_targets(name)} legal target(s), got {targets}")
        return cid, targets
    return valid


def transformed_cast(st: State, back_abilities: list[tuple[str, Any]], x: Any) -> list[str] | None:
    """310.11b's cast: ``false`` (don't cast), ``true`` (cast; a back face with no target), or ``{targets: [...]}``:
    601.2c applies to a spell cast without paying its mana cost too, so its targets are chosen as it is cast.
    None: not cast."""
    if x is False:
        return None
    if x is True:
        targets: list[Any] = []
    elif isinstance(x, dict) and set(x) == {"targets"} and isinstance(x["targets"], list):
        targets = list(x["targets"])
    else:
        raise Refusal("malformed_decision", "cast_transformed takes true, false or {targets: [...]}")
    eff = first_effect(back_abilities)
    name = eff[0] if eff else None
    if not targets_ok(st, name, targets):
        raise Refusal("illegal_target", f"the back face needs {n_targets(name)} legal target(s), got {targets}",
                      clause=st.c(CR310_11B))
    return targets


def put_spell(st: State, player: str, cid: str, targets: list[str], *, free: bool = False) -> None:
    """601.2a: the card moves to the stack (310.1 for a battle; 310.11b cast without paying its mana cost)."""
    c = st.card(cid)
    battle = st.is_battle_def(c)
    clause = st.c(CR310_11B if free else CR310_1 if battle else CR601_2A)
    with st.trace.simultaneous():
        st.board.move(cid, "stack", clause)
        st.trace.emit("cast", clause, card=cid, player=player, face=c.props.get("face", "front"), free=free)
    st.stack.append(StackItem(cid, player, None, targets))
