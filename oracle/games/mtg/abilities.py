"""Abilities and effects (issue 16's layout): what each spell effect and each triggered ability does when it
resolves (608.2, 603.3), as two tables, :data:`SPELL_EFFECTS` and :data:`TRIGGER_EFFECTS`. Every entry takes the
state, the script (for the choices an effect asks) and the resolving stack object; a spell effect takes its
parameter too. What a spell targets is casting.TARGETS.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from ...core.board import Card, normalize_abilities
from ...core.compose import THIS, Effect, Triggered, When
from ...core.script import Refusal, Script
from . import sba
from .casting import put_spell, transformed_cast
from .clauses import (
    CR111_2, CR121_1, CR608_2C, CR701_9B, CR122_1A, CR400_7, CR701_34A,
    CR310_4C, CR310_8D, CR310_8G, CR310_11B, CR506_4, CR508_5, CR613_1B, CR613_1D, CR707_2,
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


TRIGGER_EFFECTS: dict[str, Callable[[State, Script, StackItem], None]] = {
    "siege": _siege,
}
"""The named triggered abilities the engine does not compose: the Siege's (310.11b). Its trigger event is the last
defense counter leaving a Siege (310.6, 310.11b), its effect exiles the battle and offers a cast of its back face
without paying its mana cost (310.11b, with 601.2c's targets), and whether the battle goes to the graveyard while
the ability waits is 310.7/704.5v's: each part is CR 310's own, with no counterpart among the composed parts."""


# -- composed abilities (triggers.py interprets them) ----------------------------------------------------------

SHORTHAND: dict[str, Callable[[Any], Triggered]] = {
    "attack_drain": lambda n: Triggered(name="attack_drain", when=When("became_attacker", THIS),
                                        effects=(Effect("defending_player_loses_life", n, THIS),)),
}
"""Each named triggered ability of Magic as the composition it is shorthand for (the engine runs it through
triggers.py like any ``triggered``; traces name it by its shorthand name)."""


def _effect_deal_damage(st: State, script: Script, item: StackItem, n: int, on: list[str]) -> None:
    """120.3: the ability's source deals N damage to each of ``on`` (one moment)."""
    with st.trace.simultaneous():
        for x in on:
            deal(st, item.card, x, n, combat=False, clause=st.c(CR608_2C))


def _effect_draw(st: State, script: Script, item: StackItem, n: int, on: list[str]) -> None:
    """121.2: each player of ``on`` (default: the ability's controller) draws N, one card at a time."""
    for p in on or [item.controller]:
        _draw(st, script, StackItem(item.card, p), n)


def _effect_lose_life(st: State, script: Script, item: StackItem, n: int, on: list[str]) -> None:
    with st.trace.simultaneous():
        for p in on:
            lose_life(st, p, n, st.c(CR608_2C))


def _effect_defending_player_loses_life(st: State, script: Script, item: StackItem, n: int, on: list[str]) -> None:
    """508.5: the defending player for each attacking creature of ``on`` loses N life: for the creature the event
    was about, the player, planeswalker or battle it attacked when the ability triggered (drained_player)."""
    for cid in on:
        target = item.data.get("target") if cid == item.data.get("subject") else (
            st.combat.attackers.get(cid) if st.combat else None)
        who, clause = drained_player(st, target)
        if who is not None and who not in st.lost:
            lose_life(st, who, n, clause)


def _effect_put_p1p1_counters(st: State, script: Script, item: StackItem, n: int, on: list[str]) -> None:
    for cid in on:
        c = st.card(cid)
        if c.zone == "battlefield" and st.is_creature(c):
            c.counters["+1/+1"] = c.counters.get("+1/+1", 0) + n
            st.trace.emit("counters_placed", st.c(CR122_1A), card=c.id, kind="+1/+1", count=n, defense=None)


def _effect_create_token(st: State, script: Script, item: StackItem, param: dict, on: list[str]) -> None:
    """111.1/111.2: the ability's controller creates ``count`` tokens of the pool's card ``card`` (111.3: its
    characteristics are the card's), one moment; each is ``<source id>.token<n>`` (n counts that source's tokens).
    603.6a: each then is a permanent entering, checked for enters triggers (the others' and its own)."""
    name, count = param["card"], param.get("count", 1)
    d = st.cards_def.get(name)
    if d is None:
        raise KeyError(f"create_token: no card {name!r} in the pool")
    made: list[str] = []
    with st.trace.simultaneous():
        for _ in range(count):
            k = 1
            while f"{item.card}.token{k}" in st.board.cards:
                k += 1
            tid = f"{item.card}.token{k}"
            c = Card(id=tid, name=name, owner=item.controller, controller=item.controller, zone="battlefield",
                     definition=d, entered_this_turn=True, abilities=normalize_abilities(d.get("abilities", [])),
                     props={"face": "front", "token": True, "entered": True})
            st.board.place(c)
            made.append(tid)
            st.trace.emit("token_created", st.c(CR111_2), card=tid, player=item.controller, name=name)
    for tid in made:
        st.fire_event(st, "entered", tid)


def who_discards(item: StackItem, player: str, *, at_random: bool = False) -> str | None:
    """701.9b: who chooses the cards ``player`` discards -- by default the discarding player; nobody (``None``)
    for a random discard."""
    return None if at_random else player


def at_random(hand: list[str], n: int) -> list[str]:
    """701.9b's random discard: N cards of ``hand``, drawn by a generator seeded by the hand itself, so the
    reference replays a case the same way every time. No case may depend on which: only on how many."""
    ids = sorted(hand)
    return random.Random("\x1f".join(ids)).sample(ids, n)


def _discards(st: State, script: Script, item: StackItem, n: int, on: list[str], *, random_: bool) -> None:
    """701.9: each player of ``on`` discards N cards of their hand (all of them with N or fewer in hand, nothing
    asked), chosen by :func:`who_discards` or at random; they move to the graveyard in one moment (701.9a)."""
    for p in on:
        hand = list(st.board.zones[(p, "hand")])
        chooser = who_discards(item, p, at_random=random_)
        if len(hand) <= n:
            chosen = hand
        elif chooser is None:
            chosen = at_random(hand, n)
        else:
            def valid(d, hand=hand, p=p) -> list[str]:
                x = d.args if isinstance(d.args, list) else [d.args]
                if len(x) != n or len(set(map(str, x))) != n or any(c not in hand for c in x):
                    raise Refusal("illegal_discard", f"discard {n} of {p}'s hand {hand}, got {d.args}",
                                  clause=st.c(CR701_9B))
                return list(x)
            _, chosen = script.decide(chooser, ("discard",), st.c(CR701_9B), valid)
        with st.trace.simultaneous():
            for cid in chosen:
                st.board.move(cid, "graveyard", st.c(CR701_9B))
                st.trace.emit("discarded", st.c(CR701_9B), card=cid, player=p)


def _effect_discard(st: State, script: Script, item: StackItem, n: int, on: list[str]) -> None:
    """701.9b: "By default, effects that cause a player to discard a card allow the affected player to choose which
    card to discard": each player of ``on`` chooses N cards of their hand (``discard``)."""
    _discards(st, script, item, n, on, random_=False)


def _effect_discard_at_random(st: State, script: Script, item: StackItem, n: int, on: list[str]) -> None:
    """701.9b: "Some effects, however, require a random discard": each player of ``on`` discards N cards of their
    hand at random. Nobody chooses: no decision is asked."""
    _discards(st, script, item, n, on, random_=True)


COMPOSED_EFFECTS: dict[str, Callable[[State, Script, StackItem, Any, list[str]], None]] = {
    "deal_damage": _effect_deal_damage,
    "draw": _effect_draw,
    "lose_life": _effect_lose_life,
    "defending_player_loses_life": _effect_defending_player_loses_life,
    "put_p1p1_counters": _effect_put_p1p1_counters,
    "create_token": _effect_create_token,
    "discard": _effect_discard,
    "discard_at_random": _effect_discard_at_random,
}
"""Magic's effect table (vocabulary.EFFECTS): each takes the resolving ability, the effect's parameter and the
players or permanents its ``on`` names now (triggers.resolve)."""
