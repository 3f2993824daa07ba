"""Battles: entering with defense counters (310.4b), the protector (310.8, 310.11a), damage (310.6)."""

from __future__ import annotations

from ...core.board import Card, normalize_abilities
from ...core.script import Refusal, Script
from .state import State, StackItem, matches
from .clauses import RULING_COPY_ENTERS_WITH_DEFENSE, CR310_4B, CR310_6, CR310_8A, CR310_8F, CR310_11A, CR310_11B, CR707_2


def legal_protectors(st: State, battle: Card) -> list[str]:
    """310.8a/310.11a: a Siege's protector is an opponent of its controller; no battle type: the controller."""
    if st.is_siege(battle):
        return st.opponents(battle.controller)
    if st.subtypes(battle):  # a battle type the engine does not know: any player (none exist in 20231117.0)
        return st.alive()
    return [battle.controller] if battle.controller not in st.lost else []


def choose_protector(st: State, script: Script, battle: Card, clause: str) -> str | None:
    """The controller chooses a legal protector (always asked for a Siege, even with one choice)."""
    legal = legal_protectors(st, battle)
    if not legal:
        return None
    if not st.is_siege(battle) and not st.subtypes(battle):
        return legal[0]  # 310.8a: with no battle type its controller becomes its protector; nothing to choose

    def valid(d):
        if d.args not in st.board.players:
            raise Refusal("unknown_object", f"{d.args!r} is not a player")
        if d.args not in legal:  # the condition broken is the battle type's (310.11a for a Siege), wherever asked
            raise Refusal("illegal_protector", f"{d.args} can't protect {battle.id}",
                          clause=st.c(CR310_11A if st.is_siege(battle) else CR310_8A))
        return d.args

    _, player = script.decide(battle.controller, ("choose_protector",), clause, valid)
    return player


def set_protector(st: State, battle: Card, player: str | None, clause: str) -> None:
    """310.8f: one protector at a time; a new one replaces the old."""
    previous = battle.props.get("protector")
    battle.props["protector"] = player
    if previous is not None and previous != player:
        clause = st.c(CR310_8F)  # the new protector replaces the old one
    st.trace.emit("protector_chosen", clause, card=battle.id, player=player, previous=previous)


def enters_as_copy(st: State, script: Script, card: Card) -> str | None:
    """``enters_as_copy: FILTER`` ("you may have this permanent enter as a copy of a <filter> on the battlefield",
    a replacement effect, 614.1c): as it enters, its controller chooses a permanent the filter allows or none
    (``choose_copy id | null``, tagged 707.2); it then enters with the copiable values of that permanent (707.2): a copy
    of a battle is a battle, which enters with its printed defense in defense counters (mtg:ruling.copy-enters-with-
    defense, 310.4b) and a protector chosen as it enters (310.8a, 310.11a). Returns the permanent copied."""
    flts = st.params(card, "enters_as_copy")
    if not flts:
        return None
    options = [c.id for c in st.battlefield() if c.id != card.id
               and any(matches(st, f, c.id, card.id, card.controller) for f in flts)]
    if not options:
        return None

    def valid(d):
        if d.args is None:
            return None
        if d.args not in options:
            raise Refusal("illegal_target", f"{d.args!r} is not a permanent {card.id} may enter as a copy of "
                                            f"({options})", clause=st.c(CR707_2))
        return d.args

    _, original = script.decide(card.controller, ("choose_copy",), st.c(CR707_2), valid)
    if original is None:
        return None
    o = st.card(original)
    card.props["copy_of"] = o.props.get("copy_of") or o.name  # its copiable values: those the original has
    card.abilities = normalize_abilities(st.face_def(card).get("abilities", []))
    return original


def enter_battlefield(st: State, script: Script, card: Card, controller: str, clause: str) -> None:
    """Put a card onto the battlefield. A battle enters with its printed defense in defense counters (310.4b)
    and its protector chosen as it enters (310.8a / 310.11a): the choice first, then one moment."""
    card.controller = controller
    copied = enters_as_copy(st, script, card)
    protector = None
    is_battle = st.is_battle_def(card)
    if is_battle:  # chosen as it enters, before the moment it arrives (legality from the new controller)
        protector_clause = st.c(CR310_11A if st.is_siege(card) else CR310_8A)
        protector = choose_protector(st, script, card, protector_clause)
    with st.trace.simultaneous():
        st.board.move(card.id, "battlefield", clause)
        if copied is not None:  # 614.1c/707.2: it enters as the copy (its characteristics as it arrives)
            st.trace.emit("became_copy", st.c(CR707_2), card=card.id, of=copied)
        card.props["entered"] = True
        card.entered_this_turn = True
        if is_battle:
            n = st.face_def(card).get("defense") or 0
            card.counters["defense"] = n
            st.trace.emit("counters_placed", st.c(CR310_4B) if copied is None else RULING_COPY_ENTERS_WITH_DEFENSE,
                          card=card.id, kind="defense", count=n, defense=n)
            if protector is not None:
                set_protector(st, card, protector,
                              st.c(CR310_11A if st.is_siege(card) else CR310_8A))
    st.fire_event(st, "entered", card.id)  # 603.6a: the permanents on the battlefield, this one included, are checked


def remove_defense(st: State, battle: Card, amount: int) -> None:
    """310.6: damage to a battle removes that many defense counters. 310.11b: removing the last triggers."""
    have = battle.counters.get("defense", 0)
    n = min(have, amount)
    if n <= 0:
        return
    battle.counters["defense"] = have - n
    st.trace.emit("counters_removed", st.c(CR310_6), card=battle.id, kind="defense", count=n, left=have - n)
    if have - n == 0 and st.is_siege(battle):
        st.pending.append(StackItem(battle.id, battle.controller, ability="siege"))
        st.trace.emit("triggered", st.c(CR310_11B), card=battle.id, ability="siege", player=battle.controller)
