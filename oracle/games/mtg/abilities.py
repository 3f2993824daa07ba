"""Abilities and effects (issue 16's layout): what each spell effect and each triggered ability does when it
resolves (608.2, 603.3), as two tables, :data:`SPELL_EFFECTS` and :data:`TRIGGER_EFFECTS`. Every entry takes the
state, the script (for the choices an effect asks) and the resolving stack object; a spell effect takes its
parameter too. What a spell targets is casting.TARGETS.
"""

from __future__ import annotations

from typing import Any, Callable

from ...core.board import normalize_abilities
from ...core.script import Script
from . import sba
from .casting import put_spell, transformed_cast
from .clauses import (
    CR310_4C, CR310_8D, CR310_8G, CR310_11B, CR506_4, CR508_1M, CR508_5, CR613_1B, CR613_1D, CR707_2,
    RULING_REMOVED_FROM_COMBAT, SUMMARY_ANY_TARGET, SUMMARY_NO_COMBAT,
)
from .damage import deal, lose_life
from .state import StackItem, State

# -- spell effects (the synthetic spells) ----------------------------------------------------

def _deal_damage(st: State, script: Script, item: StackItem, n: int) -> None:
    with st.trace.simultaneous():
        deal(st, item.card, item.targets[0], n, combat=False, clause=st.c(SUMMARY_ANY_TARGET))


def _gain_control(st: State, script: Script, item: StackItem, _: Any) -> None:
    """Control changes (613.1b). A battle being attacked whose controller changes is removed from combat
    (mtg:ruling.removed-from-combat: "if its controller changes in the middle of combat, it is removed from
    combat"); so is an attacking or blocking creature (506.4)."""
    c = st.card(item.targets[0])
    if c.controller == item.controller:
        return
    board = st.board
    attacked = st.combat is not None and c.id in st.combat.attackers.values()
    with st.trace.simultaneous():
        board.zones[(c.controller, "battlefield")].remove(c.id)
        c.props["control_from"] = c.controller  # the control-changing effect ends if its player leaves (800.4a)
        c.controller = item.controller
        board.zones[(c.controller, "battlefield")].append(c.id)
        st.trace.emit("control_changed", st.c(CR613_1B), card=c.id, player=c.controller)
        if st.combat and (c.id in st.combat.attackers or c.id in st.combat.blockers or attacked):
            sba.remove_from_combat(st, c.id, emit=True,
                                   clause=st.c(RULING_REMOVED_FROM_COMBAT if attacked else CR506_4))


def _become_copy(st: State, script: Script, item: StackItem, _: Any) -> None:
    """707.2: the copy acquires the original's copiable values; 310.8g: a battle that becomes a copy of another
    battle keeps its protector. A nonbattle that so becomes a battle has none: the 310.10 SBA that follows chooses
    one (its protector_chosen carries 310.10). A creature in combat that so becomes a battle is removed from combat (the seed:
    "何らかの方法で攻撃やブロックをしているクリーチャーをバトルにした場合、それは戦闘から取り除かれる")."""
    target, original = (st.card(x) for x in item.targets)
    was_battle = st.is_battle(target)
    was_protected = was_battle and target.props.get("protector") is not None
    with st.trace.simultaneous():
        target.props["copy_of"] = original.name
        target.abilities = normalize_abilities(st.face_def(target).get("abilities", []))
        st.trace.emit("became_copy", st.c(CR310_8G if was_protected else CR707_2), card=target.id, of=original.id)
        if (not was_battle and st.is_battle(target) and st.combat
                and (target.id in st.combat.attackers or target.id in st.combat.blockers)):
            sba.remove_from_combat(st, target.id, emit=True, clause=st.c(SUMMARY_NO_COMBAT))


def _become_battle(st: State, script: Script, item: StackItem, _: Any) -> None:
    c = st.card(item.targets[0])
    with st.trace.simultaneous():
        c.props.setdefault("type_effects", []).append(("add", ["battle"]))
        st.trace.emit("types_changed", st.c(CR613_1D), card=c.id, types=st.types(c))
        if st.combat and (c.id in st.combat.attackers or c.id in st.combat.blockers):
            sba.remove_from_combat(st, c.id, emit=True, clause=st.c(SUMMARY_NO_COMBAT))


def _become_creature(st: State, script: Script, item: StackItem, pt: dict) -> None:
    c = st.card(item.targets[0])
    c.props.setdefault("type_effects", []).append(("add", ["creature"]))
    c.props.setdefault("pt_effects", []).append(("set", (pt["power"], pt["toughness"])))
    st.trace.emit("types_changed", st.c(CR613_1D), card=c.id, types=st.types(c))


def _become_artifact_creature(st: State, script: Script, item: StackItem, pt: dict) -> None:
    c = st.card(item.targets[0])
    was_battle = st.is_battle(c)
    with st.trace.simultaneous():
        c.props.setdefault("type_effects", []).append(("set", ["artifact", "creature"]))
        c.props.setdefault("pt_effects", []).append(("set", (pt["power"], pt["toughness"])))
        st.trace.emit("types_changed", st.c(CR310_8G if was_battle else CR613_1D), card=c.id, types=st.types(c))
        if was_battle and st.combat and c.id in st.combat.attackers.values():
            # "If a battle that's being attacked somehow stops being a battle, it is removed from combat."
            sba.remove_from_combat(st, c.id, emit=True, clause=st.c(RULING_REMOVED_FROM_COMBAT))


def _add_defense(st: State, script: Script, item: StackItem, n: int) -> None:
    c = st.card(item.targets[0])
    c.counters["defense"] = c.counters.get("defense", 0) + n
    st.trace.emit("counters_placed", st.c(CR310_4C), card=c.id, kind="defense", count=n, defense=st.defense(c))


SPELL_EFFECTS: dict[str, Callable[[State, Script, StackItem, Any], None]] = {
    "deal_damage": _deal_damage,
    "gain_control": _gain_control,
    "become_copy": _become_copy,
    "become_battle": _become_battle,
    "become_creature": _become_creature,
    "become_artifact_creature": _become_artifact_creature,
    "add_defense": _add_defense,
}


# -- triggered abilities ---------------------------------------------------------------------

def _siege(st: State, script: Script, item: StackItem) -> None:
    """310.11b: "これを追放する。その後、これを...変身した状態で唱えてもよい" — "you" is the controller of the
    triggered ability (the Siege's controller when it triggered, 603.3a), even if control of the Siege has
    changed since (assumption mtg:A-siege-trigger-controller)."""
    b = st.card(item.card)
    st.trace.emit("resolved", st.c(CR310_11B), card=b.id, ability="siege", player=item.controller)
    if b.zone != "battlefield":
        return
    controller = item.controller  # "you": the ability's controller, fixed when it triggered (603.3a)
    sba.leave_battlefield(st, b.id, "exile", st.c(CR310_11B))
    back = st.cards_def.get(b.name or "", {}).get("back")
    if not back:
        return
    back_abilities = normalize_abilities(back.get("abilities", []))
    _, targets = script.decide(controller, ("cast_transformed",), st.c(CR310_11B),
                               lambda d: transformed_cast(st, back_abilities, d.args))
    if targets is not None:
        b.props["face"] = "back"
        b.abilities = back_abilities
        put_spell(st, controller, b.id, targets, free=True)


def drained_player(st: State, target: str | None) -> tuple[str | None, str]:
    """The player an attack trigger's "defending player" names, and the clause that says so. 508.5: "the
    defending player" of an attacking creature is the player it attacks, the planeswalker's controller or the
    battle's protector; 310.8d when that protector is not the battle's controller ("バトルを守る者がそのコント
    ローラーでない場合")."""
    who = st.defending_for(target) if target is not None else None
    battle = target in st.board.cards and st.is_battle(st.card(target))
    not_controller = battle and st.card(target).props.get("protector") != st.card(target).controller
    return who, st.c(CR310_8D if not_controller else CR508_5)


def _attack_drain(st: State, script: Script, item: StackItem) -> None:
    """508.1m: "whenever this creature attacks, the defending player loses N life" (synthetic)."""
    who, clause = drained_player(st, item.data["target"])
    st.trace.emit("resolved", st.c(CR508_1M), card=item.card, ability="attack_drain", player=item.controller)
    if who is not None and who not in st.lost:
        lose_life(st, who, item.data["n"], clause)


TRIGGER_EFFECTS: dict[str, Callable[[State, Script, StackItem], None]] = {
    "siege": _siege,
    "attack_drain": _attack_drain,
}
