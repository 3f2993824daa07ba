"""Abilities and effects (issue 16's layout): what each spell effect and each triggered ability does when it
resolves (608.2, 603.3), as two tables, :data:`SPELL_EFFECTS` and :data:`TRIGGER_EFFECTS`. Every entry takes the
state, the script (for the choices an effect asks) and the resolving stack object; a spell effect takes its
parameter too. What a spell targets is casting.TARGETS.
"""

from __future__ import annotations

from typing import Any, Callable

from ...core.board import normalize_abilities
from ...core.script import Refusal, Script
from . import sba
from .casting import put_spell, transformed_cast
from .clauses import (
    CR121_1, CR122_1A, CR400_7, CR701_34A,
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


def _attacked(st: State, cid: str) -> bool:
    """Whether permanent ``cid`` is being attacked (a planeswalker or battle some attacking creature attacks)."""
    return st.combat is not None and cid in st.combat.attackers.values()


def _become_copy(st: State, script: Script, item: StackItem, _: Any) -> None:
    """707.2: the copy acquires the original's copiable values; 310.8g: a battle that becomes a copy of another
    battle keeps its protector. A nonbattle that so becomes a battle has none: the 310.10 SBA that follows chooses
    one (its protector_chosen carries 310.10). A creature in combat that so becomes a battle is removed from combat (the seed:
    "何らかの方法で攻撃やブロックをしているクリーチャーをバトルにした場合、それは戦闘から取り除かれる"); so is a planeswalker being
    attacked that so stops being a planeswalker (506.4: "if it's a planeswalker that's being attacked and stops being a
    planeswalker")."""
    target, original = (st.card(x) for x in item.targets)
    was_battle = st.is_battle(target)
    was_planeswalker = st.is_planeswalker(target)
    was_protected = was_battle and target.props.get("protector") is not None
    with st.trace.simultaneous():
        target.props["copy_of"] = original.name
        target.abilities = normalize_abilities(st.face_def(target).get("abilities", []))
        st.trace.emit("became_copy", st.c(CR310_8G if was_protected else CR707_2), card=target.id, of=original.id)
        if (not was_battle and st.is_battle(target) and st.combat
                and (target.id in st.combat.attackers or target.id in st.combat.blockers)):
            sba.remove_from_combat(st, target.id, emit=True, clause=st.c(SUMMARY_NO_COMBAT))
        elif was_planeswalker and not st.is_planeswalker(target) and _attacked(st, target.id):
            sba.remove_from_combat(st, target.id, emit=True, clause=st.c(CR506_4))


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
    was_battle, was_planeswalker = st.is_battle(c), st.is_planeswalker(c)
    with st.trace.simultaneous():
        c.props.setdefault("type_effects", []).append(("set", ["artifact", "creature"]))
        c.props.setdefault("pt_effects", []).append(("set", (pt["power"], pt["toughness"])))
        st.trace.emit("types_changed", st.c(CR310_8G if was_battle else CR613_1D), card=c.id, types=st.types(c))
        if was_battle and _attacked(st, c.id):
            # "If a battle that's being attacked somehow stops being a battle, it is removed from combat."
            sba.remove_from_combat(st, c.id, emit=True, clause=st.c(RULING_REMOVED_FROM_COMBAT))
        elif was_planeswalker and _attacked(st, c.id):
            # 506.4: "if it's a planeswalker that's being attacked and stops being a planeswalker"
            sba.remove_from_combat(st, c.id, emit=True, clause=st.c(CR506_4))


def _add_defense(st: State, script: Script, item: StackItem, n: int) -> None:
    c = st.card(item.targets[0])
    c.counters["defense"] = c.counters.get("defense", 0) + n
    st.trace.emit("counters_placed", st.c(CR310_4C), card=c.id, kind="defense", count=n, defense=st.defense(c))


def _put_p1p1_counters(st: State, script: Script, item: StackItem, n: int) -> None:
    """122.1a: "A +X/+Y counter on a creature ... adds X to that object’s power and Y to that object’s toughness"."""
    c = st.card(item.targets[0])
    c.counters["+1/+1"] = c.counters.get("+1/+1", 0) + n
    st.trace.emit("counters_placed", st.c(CR122_1A), card=c.id, kind="+1/+1", count=n, defense=None)


def proliferate_valid(st: State, d: Any) -> list[str]:
    """701.34a: "choose any number of permanents and/or players that have a counter" (players have none here)."""
    chosen = d.args
    if not isinstance(chosen, list) or not all(isinstance(x, str) for x in chosen) or len(set(chosen)) != len(chosen):
        raise Refusal("malformed_decision", "proliferate takes a list of distinct permanent or player ids")
    for x in chosen:
        if x in st.board.players:
            raise Refusal("no_counters", f"{x} has no counters", clause=st.c(CR701_34A))
        if x not in st.board.cards or st.card(x).zone != "battlefield":
            raise Refusal("unknown_object", f"no permanent {x!r}")
        if not any(n > 0 for n in st.card(x).counters.values()):
            raise Refusal("no_counters", f"{x} has no counters", clause=st.c(CR701_34A))
    return list(chosen)


def _proliferate(st: State, script: Script, item: StackItem, _: Any) -> None:
    """701.34a: each chosen permanent gets one additional counter of each kind it already has (a battle: a defense
    counter, 310.4c); one moment."""
    _, chosen = script.decide(item.controller, ("proliferate",), st.c(CR701_34A), lambda d: proliferate_valid(st, d))
    with st.trace.simultaneous():
        for cid in chosen:
            c = st.card(cid)
            for kind in [k for k, n in c.counters.items() if n > 0]:
                c.counters[kind] += 1
                st.trace.emit("counters_placed", st.c(CR701_34A), card=cid, kind=kind, count=1,
                              defense=st.defense(c) if st.is_battle(c) else None)


def _draw(st: State, script: Script, item: StackItem, n: int) -> None:
    """121.1: "A player draws a card by putting the top card of their library into their hand"; 121.2: several
    draws are that many individual card draws (one ``drew`` event each). 121.4: a draw from an empty library
    draws nothing, and its player loses the next time a player would receive priority (:mod:`.sba`)."""
    player = item.controller
    for _ in range(n):
        library = st.board.zones[(player, "library")]
        if not library:
            st.drew_from_empty.add(player)
            continue
        cid = library.pop(0)
        st.card(cid).zone = "hand"
        st.board.zones[(player, "hand")].append(cid)
        st.trace.emit("drew", st.c(CR121_1), player=player, count=1)


def _return_to_hand(st: State, script: Script, item: StackItem, _: Any) -> None:
    """"Return target permanent to its owner’s hand": 400.7, it becomes a new object (no counters, damage,
    protector or combat role; an attacked battle's attackers attack nothing, 510.1b); a double-faced card is
    front face up in the hand."""
    sba.leave_battlefield(st, item.targets[0], "hand", st.c(CR400_7))  # front face up in the hand (State.reset_object)


SPELL_EFFECTS: dict[str, Callable[[State, Script, StackItem, Any], None]] = {
    "deal_damage": _deal_damage,
    "gain_control": _gain_control,
    "become_copy": _become_copy,
    "become_battle": _become_battle,
    "become_creature": _become_creature,
    "become_artifact_creature": _become_artifact_creature,
    "add_defense": _add_defense,
    "put_p1p1_counters": _put_p1p1_counters,
    "proliferate": _proliferate,
    "draw": _draw,
    "return_to_hand": _return_to_hand,
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
