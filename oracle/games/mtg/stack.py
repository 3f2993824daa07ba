"""Casting spells, priority and the stack (601, 117, 608), as far as battles need them (310.1, 310.2, 310.11b).

Mana is not modelled: costs are taken as paid (assumption mtg:A-no-mana). A priority round asks each
player in turn order from the one with priority; when all pass in succession the top object resolves
(117.4). Every priority decision is an open point: an exhausted script ends the case there.
"""

from __future__ import annotations

from typing import Any

from ...core.script import Refusal, Script
from . import sba
from .battles import enter_battlefield
from .damage import deal, lose_life
from .state import StackItem, State

PERMANENT_TYPES = ("artifact", "battle", "creature", "enchantment", "land", "planeswalker")


class Stop(Exception):
    """The script ended at an open point: the case ends here."""


# -- targets --------------------------------------------------------------------------------

def _on_battlefield(st: State, x: Any) -> bool:
    return isinstance(x, str) and x in st.board.cards and st.card(x).zone == "battlefield"


def target_ok(st: State, effect: str, i: int, x: Any) -> bool:
    """115.4: "any target" is a creature, player, planeswalker or battle."""
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
    return True


def _effect(st: State, cid: str) -> tuple[str, Any] | None:
    for name, param in st.card(cid).abilities:
        if name in SPELL_EFFECTS:
            return name, param
    return None


def _n_targets(effect: str | None) -> int:
    return 2 if effect == "become_copy" else (0 if effect is None else 1)


# -- casting ---------------------------------------------------------------------------------

def cast_validator(st: State, player: str):
    def valid(d) -> tuple[str, list[str]]:
        args = d.args if isinstance(d.args, dict) else {"card": d.args}
        cid, targets = args.get("card"), list(args.get("targets") or [])
        if cid not in st.board.cards:
            raise Refusal("unknown_object", f"no card {cid!r}")
        c = st.card(cid)
        if c.zone != "hand" or c.owner != player:
            raise Refusal("not_in_hand", f"{cid} is not in {player}'s hand", clause=st.c("310.1"))
        types = st.types(c)
        if "instant" not in types:
            if player != st.active:
                raise Refusal("not_your_turn", f"{cid} can be cast only in its controller's turn", clause=st.c("310.1"))
            if st.step not in ("main", "main2"):
                raise Refusal("not_main_phase", f"{cid} can be cast only in a main phase", clause=st.c("310.1"))
            if st.stack:
                raise Refusal("stack_not_empty", f"{cid} can be cast only with an empty stack", clause=st.c("310.1"))
        eff = _effect(st, cid)
        name = eff[0] if eff else None
        if (len(targets) != _n_targets(name) or len(set(targets)) != len(targets)
                or not all(target_ok(st, name, i, t) for i, t in enumerate(targets))):
            raise Refusal("illegal_target", f"{cid} needs {_n_targets(name)} legal target(s), got {targets}")
        return cid, targets
    return valid


def put_spell(st: State, player: str, cid: str, targets: list[str], *, free: bool = False) -> None:
    c = st.card(cid)
    battle = st.is_battle_def(c)
    clause = st.c("310.11b" if free else "310.1" if battle else "601.2a")
    with st.trace.simultaneous():
        st.board.move(cid, "stack", clause)
        st.trace.emit("cast", clause, card=cid, player=player, face=c.props.get("face", "front"), free=free)
    st.stack.append(StackItem(cid, player, None, targets))


# -- priority --------------------------------------------------------------------------------

def run_stack(st: State, script: Script) -> None:
    """State-based actions and triggers, then priority rounds until the stack is empty."""
    while True:
        settle(st, script)
        if not st.stack:
            return
        priority_round(st, script, opening=st.c("117.3b") if st.resolved else None)


def priority_step(st: State, script: Script) -> None:
    """117.3a/117.4: the active player receives priority (after SBAs and triggers, 117.5); when all players pass
    in succession the top object resolves and the active player receives priority again (117.3b), or, with an
    empty stack, the step ends."""
    while True:
        settle(st, script)
        if priority_round(st, script, opening=st.c("117.3b") if st.resolved else None):
            return


def settle(st: State, script: Script) -> None:
    """704.3/117.5: SBAs until none, then waiting triggers go on the stack (APNAP, in trigger order)."""
    sba.check(st, script)
    if st.pending:
        order = st.from_active()
        st.pending.sort(key=lambda i: order.index(i.controller) if i.controller in order else 99)
        st.stack.extend(st.pending)
        st.pending.clear()


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
        parsed = ask_priority(st, script, p, opening or st.c("117.3d"))
        opening = None
        if parsed is None:
            passes += 1
            i += 1
            continue
        put_spell(st, p, *parsed)
        settle(st, script)
        passes = 0
    if not st.stack:
        return True
    resolve_top(st, script)
    st.resolved = True  # 117.3b: the active player receives priority next
    return False


def ask_priority(st: State, script: Script, p: str, clause: str) -> tuple[str, list[str]] | None:
    """The decision of ``p``, who has priority: a cast, or None for a pass.

    The shorthand (PROCEDURE.md): a pass may be left out of the script. When the next script entry is not a
    ``pass`` or ``cast`` of ``p``, ``p`` passes without a script entry (an implied pass, not traced). An
    exhausted script is an implied pass too while the stack is empty; with something on the stack it is an open
    point and ends the case (assumption mtg:A-priority)."""
    d = script.peek()
    if d is None and script.at_end is not None:
        # a legality probe (oracle.core.legality) asks for the decision pending here: every priority point is
        # one, as in a script with every pass written out (rules.explicit_script)
        got = script.decide(p, ("pass", "cast"), clause, lambda dd: _priority(st, p, dd), optional=True)
        if got is None:
            raise Stop()
        d, parsed = got  # an incremental probe (legality.drive) supplied the decision: play on with it
        return None if d.kind == "pass" else parsed
    if d is None:
        if st.stack:
            raise Stop()
        st.implied.append((script.cursor, p))
        return None
    if d.player != p or d.kind not in ("pass", "cast"):
        st.implied.append((script.cursor, p))
        return None
    got = script.decide(p, ("pass", "cast"), clause, lambda dd: _priority(st, p, dd), optional=True)
    if got is None:  # every remaining entry was refused: the script ended at this open point
        if st.stack:
            raise Stop()
        return None
    d, parsed = got
    return None if d.kind == "pass" else parsed


def _priority(st: State, p: str, d):
    if d.kind == "pass":
        return None
    return cast_validator(st, p)(d)


# -- resolution ------------------------------------------------------------------------------

def resolve_top(st: State, script: Script) -> None:
    item = st.stack.pop()
    if item.ability == "siege":
        _resolve_siege(st, script, item)
        return
    if item.ability == "attack_drain":
        from .combat import resolve_attack_drain  # noqa: PLC0415  (combat imports this module)

        resolve_attack_drain(st, item)
        return
    c = st.card(item.card)
    if any(t in PERMANENT_TYPES for t in st.types(c)):
        battle = st.is_battle(c)
        st.trace.emit("resolved", st.c("310.2" if battle else "608.3a"), card=c.id, player=item.controller)
        enter_battlefield(st, script, c, item.controller, st.c("310.2" if battle else "608.3a"))
        return
    eff = _effect(st, c.id)
    name, param = eff if eff else (None, None)
    if item.targets and not all(target_ok(st, name, i, t) for i, t in enumerate(item.targets)):
        with st.trace.simultaneous():
            st.trace.emit("countered", st.c("608.2b"), card=c.id)
            _to_graveyard(st, c, st.c("608.2b"))
        return
    st.trace.emit("resolved", st.c("608.2n"), card=c.id, player=item.controller)
    if name is not None:  # an effect the engine does not model does nothing here; the spell still resolves
        SPELL_EFFECTS[name](st, item, param)
    _to_graveyard(st, c)


def _to_graveyard(st: State, c, clause: str | None = None) -> None:
    """608.2n: "the spell is put into its owner’s graveyard" -- a transformed Siege's back face too (a card in a
    graveyard has its front face up, 400.7)."""
    st.board.move(c.id, "graveyard", clause or st.c("608.2n"))
    st.reset_object(c)
    if c.props.get("face") == "back":
        from ...core.board import normalize_abilities  # noqa: PLC0415
        c.props["face"] = "front"
        c.abilities = normalize_abilities(st.cards_def.get(c.name or "", {}).get("abilities", []))


def _resolve_siege(st: State, script: Script, item: StackItem) -> None:
    """310.11b: "これを追放する。その後、これを...変身した状態で唱えてもよい" — "you" is the controller of the
    triggered ability (the Siege's controller when it triggered, 603.3a), even if control of the Siege has
    changed since (assumption mtg:A-siege-trigger-controller)."""
    b = st.card(item.card)
    st.trace.emit("resolved", st.c("310.11b"), card=b.id, ability="siege", player=item.controller)
    if b.zone != "battlefield":
        return
    controller = item.controller  # "you": the ability's controller, fixed when it triggered (603.3a)
    sba._leave_battlefield(st, b.id, "exile", st.c("310.11b"))
    back = st.cards_def.get(b.name or "", {}).get("back")
    if not back:
        return
    from ...core.board import normalize_abilities  # noqa: PLC0415
    back_abilities = normalize_abilities(back.get("abilities", []))
    _, targets = script.decide(controller, ("cast_transformed",), st.c("310.11b"),
                               lambda d: _transformed_cast(st, back_abilities, d.args))
    if targets is not None:
        b.props["face"] = "back"
        b.abilities = back_abilities
        put_spell(st, controller, b.id, targets, free=True)


def _transformed_cast(st: State, back_abilities: list[tuple[str, Any]], x: Any) -> list[str] | None:
    """``false`` (don't cast), ``true`` (cast; a back face with no target), or ``{targets: [...]}``: 601.2c applies to
    a spell cast without paying its mana cost too, so its targets are chosen as it is cast. None: not cast."""
    if x is False:
        return None
    if x is True:
        targets: list[Any] = []
    elif isinstance(x, dict) and set(x) == {"targets"} and isinstance(x["targets"], list):
        targets = list(x["targets"])
    else:
        raise Refusal("malformed_decision", "cast_transformed takes true, false or {targets: [...]}")
    name = next((n for n, _ in back_abilities if n in SPELL_EFFECTS), None)
    if (len(targets) != _n_targets(name) or len(set(map(str, targets))) != len(targets)
            or not all(target_ok(st, name, i, t) for i, t in enumerate(targets))):
        raise Refusal("illegal_target", f"the back face needs {_n_targets(name)} legal target(s), got {targets}",
                      clause=st.c("310.11b"))
    return targets


# -- effects of the synthetic spells ---------------------------------------------------------

def _deal_damage(st: State, item: StackItem, n: int) -> None:
    with st.trace.simultaneous():
        deal(st, item.card, item.targets[0], n, combat=False, clause=st.c("summary.any-target"))


def _gain_control(st: State, item: StackItem, _: Any) -> None:
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
        st.trace.emit("control_changed", st.c("613.1b"), card=c.id, player=c.controller)
        if st.combat and (c.id in st.combat.attackers or c.id in st.combat.blockers or attacked):
            sba.remove_from_combat(st, c.id, emit=True,
                                   clause=st.c("ruling.removed-from-combat" if attacked else "506.4"))


def _become_copy(st: State, item: StackItem, _: Any) -> None:
    """707.2: the copy acquires the original's copiable values; 310.8g: a battle that becomes a copy of another
    battle keeps its protector. A nonbattle that so becomes a battle has none: the 310.10 SBA that follows chooses
    one (its protector_chosen carries 310.10). A creature in combat that so becomes a battle is removed from combat (the seed:
    "何らかの方法で攻撃やブロックをしているクリーチャーをバトルにした場合、それは戦闘から取り除かれる")."""
    target, original = (st.card(x) for x in item.targets)
    was_battle = st.is_battle(target)
    was_protected = was_battle and target.props.get("protector") is not None
    from ...core.board import normalize_abilities  # noqa: PLC0415
    with st.trace.simultaneous():
        target.props["copy_of"] = original.name
        target.abilities = normalize_abilities(st.face_def(target).get("abilities", []))
        st.trace.emit("became_copy", st.c("310.8g" if was_protected else "707.2"), card=target.id, of=original.id)
        if (not was_battle and st.is_battle(target) and st.combat
                and (target.id in st.combat.attackers or target.id in st.combat.blockers)):
            sba.remove_from_combat(st, target.id, emit=True, clause=st.c("summary.no-combat"))


def _become_battle(st: State, item: StackItem, _: Any) -> None:
    c = st.card(item.targets[0])
    with st.trace.simultaneous():
        c.props.setdefault("type_effects", []).append(("add", ["battle"]))
        st.trace.emit("types_changed", st.c("613.1d"), card=c.id, types=st.types(c))
        if st.combat and (c.id in st.combat.attackers or c.id in st.combat.blockers):
            sba.remove_from_combat(st, c.id, emit=True, clause=st.c("summary.no-combat"))


def _become_creature(st: State, item: StackItem, pt: dict) -> None:
    c = st.card(item.targets[0])
    c.props.setdefault("type_effects", []).append(("add", ["creature"]))
    c.props.setdefault("pt_effects", []).append(("set", (pt["power"], pt["toughness"])))
    st.trace.emit("types_changed", st.c("613.1d"), card=c.id, types=st.types(c))


def _become_artifact_creature(st: State, item: StackItem, pt: dict) -> None:
    c = st.card(item.targets[0])
    was_battle = st.is_battle(c)
    with st.trace.simultaneous():
        c.props.setdefault("type_effects", []).append(("set", ["artifact", "creature"]))
        c.props.setdefault("pt_effects", []).append(("set", (pt["power"], pt["toughness"])))
        st.trace.emit("types_changed", st.c("310.8g" if was_battle else "613.1d"), card=c.id, types=st.types(c))
        if was_battle and st.combat and c.id in st.combat.attackers.values():
            # "If a battle that's being attacked somehow stops being a battle, it is removed from combat."
            sba.remove_from_combat(st, c.id, emit=True, clause=st.c("ruling.removed-from-combat"))


def _add_defense(st: State, item: StackItem, n: int) -> None:
    c = st.card(item.targets[0])
    c.counters["defense"] = c.counters.get("defense", 0) + n
    st.trace.emit("counters_placed", st.c("310.4c"), card=c.id, kind="defense", count=n, defense=st.defense(c))


SPELL_EFFECTS = {
    "deal_damage": _deal_damage,
    "gain_control": _gain_control,
    "become_copy": _become_copy,
    "become_battle": _become_battle,
    "become_creature": _become_creature,
    "become_artifact_creature": _become_artifact_creature,
    "add_defense": _add_defense,
}

__all__ = ["Stop", "run_stack", "priority_step", "settle", "priority_round", "cast_validator", "put_spell", "lose_life"]
