"""State-based actions (704), the battle ones from 310: 310.7 (704.5v), 310.9, 310.10.

All the actions that apply at one check are performed at once (704.3): the choices they need are made
first (310.10: the controller chooses a protector), then one moment holds every result. Checks repeat
until none applies.
"""

from __future__ import annotations

from ...core.script import GameOver, Script
from .battles import choose_protector, legal_protectors, set_protector
from .editions import SIEGE_ONLY_TRIGGER_EXCEPTION
from .state import State
from .clauses import (
    CR104_2A, CR104_3A, CR121_4,
    CR310_7, CR310_9, CR310_10, CR506_4, CR704_5A, CR704_5D, CR704_5F, CR704_5G, CR704_5I, CR800_4A, CR20260807_310_7,
    CR20260807_310_8,
)


def _attacked(st: State, battle_id: str) -> bool:
    return st.combat is not None and battle_id in st.combat.attackers.values()


def check(st: State, script: Script) -> None:
    while _check_once(st, script):
        pass


def _check_once(st: State, script: Script) -> bool:
    losers = [p for p in st.alive() if st.life[p] <= 0]
    drew_from_empty = [p for p in st.alive() if p in st.drew_from_empty and p not in losers]
    st.drew_from_empty.clear()  # 121.4: an attempt counts once, at the next check
    to_graveyard: list[tuple[str, str]] = []
    unattach: list[str] = []
    protectors: list[tuple[str, str]] = []
    for c in st.battlefield():
        types = st.types(c)  # once per permanent and check (is_creature, is_planeswalker, is_battle read them)
        if "creature" in types:
            _, t = st.pt(c)
            if t <= 0:
                to_graveyard.append((c.id, st.c(CR704_5F)))
                continue
            if c.props.get("damage", 0) >= t > 0:
                to_graveyard.append((c.id, st.c(CR704_5G)))
                continue
        if "planeswalker" in types and c.counters.get("loyalty", 0) <= 0:
            to_graveyard.append((c.id, st.c(CR704_5I)))
            continue
        if "battle" not in types:
            continue
        if c.props.get("attached_to"):
            unattach.append(c.id)  # 310.9
        going = False
        if c.counters.get("defense", 0) <= 0:
            clause = _zero_defense_clause(st, c)
            if clause is not None:
                to_graveyard.append((c.id, clause))
                going = True
        prot = c.props.get("protector")
        if (prot is None or prot in st.lost or prot not in legal_protectors(st, c)) and not _attacked(st, c.id):
            protectors.append((c.id, "graveyard" if going else ""))
    gone = [c for c in st.existing() if c.zone != "battlefield" and st.is_token(c)]  # 704.5d / 111.7
    if not (losers or drew_from_empty or to_graveyard or unattach or protectors or gone):
        return False

    # 310.10: the choices first (the controller chooses; a battle with no legal choice goes to the graveyard)
    chosen: list[tuple[str, str | None]] = []
    for bid, _ in protectors:
        b = st.card(bid)
        if not legal_protectors(st, b):
            if bid not in [x for x, _ in to_graveyard]:
                to_graveyard.append((bid, st.c(CR310_10)))
            continue
        chosen.append((bid, choose_protector(st, script, b, st.c(CR310_10))))

    # 603.10a: leaves-the-battlefield abilities look back in time, at the permanents as they are now
    before = [(c, c.controller) for c in st.battlefield()] if to_graveyard else []
    leaving = [(cid, st.card(cid).controller, st.types(st.card(cid))) for cid, _ in to_graveyard]
    with st.trace.simultaneous():
        for p in losers:
            st.trace.emit("lost", st.c(CR704_5A), player=p)
        for p in drew_from_empty:
            st.trace.emit("lost", st.c(CR121_4), player=p)
        for bid, who in chosen:
            set_protector(st, st.card(bid), who, st.c(CR310_10))
        for bid in unattach:
            b = st.card(bid)
            st.trace.emit("unattached", st.c(CR310_9), card=bid, **{"from": b.props.pop("attached_to")})
        for cid, clause in to_graveyard:
            leave_battlefield(st, cid, "graveyard", clause)
        for c in gone:  # it ceases to exist: out of every zone (and of the final state)
            st.board.zones[(st.board.holder(c), c.zone)].remove(c.id)
            c.props["ceased"] = True
            st.trace.emit("ceased_to_exist", st.c(CR704_5D), card=c.id)
    for cid, controller, types in leaving:  # 603.6c: each triggers what watched it
        st.fire_event(st, "put_into_graveyard", cid, before=before, controller=controller, types=types)
    st.lost.update(losers + drew_from_empty)  # 704.3: at once (104.4a: all of them at once is a draw)
    for p in losers:
        _lose(st, p)
    for p in drew_from_empty:
        _lose(st, p, st.c(CR121_4))
    return True


def _zero_defense_clause(st: State, c) -> str | None:
    """A battle with defense 0 goes to its owner's graveyard unless it is the source of a triggered ability that
    has not yet left the stack: in 20231117.0 any battle (310.7); in the current edition only a Siege (310.7,
    704.5v) -- another battle goes regardless (310.8: "If a non-Siege battle's defense is 0, it's put into its
    owner's graveyard.", 704.5w). None: it stays."""
    if st.ruleset in SIEGE_ONLY_TRIGGER_EXCEPTION:
        if not st.is_siege(c):
            return CR20260807_310_8
        return None if st.on_stack_or_pending(c.id) else CR20260807_310_7
    return None if st.on_stack_or_pending(c.id) else st.c(CR310_7)


def leave_battlefield(st: State, cid: str, zone: str, clause: str) -> None:
    c = st.card(cid)
    remove_from_combat(st, cid, emit=False)
    for other in st.battlefield():  # what was attached to it is no longer (Auras etc. are not modelled)
        if other.props.get("attached_to") == cid:
            other.props.pop("attached_to")
    st.board.move(cid, zone, clause)
    st.reset_object(c)


def remove_from_combat(st: State, cid: str, *, emit: bool, clause: str | None = None) -> None:
    """506.4: a permanent leaves combat; a battle that leaves it is no longer attacked by anything.

    Callers tag the event with the rule that removes it: a battle that stops being a battle or changes
    controller while attacked (mtg:ruling.removed-from-combat), a creature in combat that becomes a battle
    (mtg:summary.no-combat), otherwise 506.4 (a creature whose controller changes, a player who left). Under the
    current edition its 506.4 names every one of these removals, and tags them all (editions.py)."""
    clause = st.removal_clause(clause or st.c(CR506_4))
    cb = st.combat
    if cb is None:
        return
    hit = False
    if cid in cb.attackers:
        del cb.attackers[cid]  # its blockers stay blocking creatures (509.1h), blocking nothing
        hit = True
    if cid in cb.blockers:
        del cb.blockers[cid]
        hit = True
    for a, t in list(cb.attackers.items()):
        if t == cid:
            cb.attackers[a] = None  # 510.1b: attacking nothing, it assigns no combat damage
            hit = True
    if hit and emit:
        st.trace.emit("removed_from_combat", clause, card=cid)


def concede(st: State, player: str) -> None:
    """104.3a: "A player can concede the game at any time. A player who concedes leaves the game immediately. That
    player loses the game." Not a state-based action: it happens as the player concedes (where they hold priority
    here, mtg:A-concede); with teams the whole team leaves (810.8b). The game ends when one team remains (104.2a);
    otherwise each leaves as 800.4a says (their creatures leave combat; a battle they protect keeps its attackers,
    and gets a new protector by 310.10 once no creature attacks it)."""
    leaving = [q for q in st.alive() if q == player or (st.two_headed and st.teammates(player, q))]
    with st.trace.simultaneous():
        for q in leaving:
            st.trace.emit("lost", st.c(CR104_3A), player=q)
    for q in leaving:
        _lose(st, q, st.c(CR104_3A), st.c(CR104_2A))


def _lose(st: State, player: str, clause: str | None = None, won_clause: str | None = None) -> None:
    """800.4a: in a multiplayer game the loser leaves; the game ends when one team remains (104.2a). ``clause``:
    the rule by which the player leaves (704.5a unless they conceded, 104.3a)."""
    st.lost.add(player)
    teams = {st.team[p] for p in st.alive()}
    if len(teams) <= 1:
        alive = st.alive()
        winner = alive[0] if alive else None
        if winner is not None:
            st.trace.emit("won", won_clause or st.c(CR704_5A), player=winner)
        raise GameOver(winner)
    if len(st.board.players) > 2:
        st.trace.emit("left_game", clause or st.c(CR704_5A), player=player)
        if st.combat is not None:
            for cid in list(st.combat.attackers) + list(st.combat.blockers):
                if st.card(cid).controller == player:
                    remove_from_combat(st, cid, emit=True)
            if player in st.combat.defending:
                st.combat.defending.remove(player)
        _objects_leave_with(st, player)


def _objects_leave_with(st: State, player: str) -> None:
    """800.4a: "all objects ... owned by that player leave the game and any effects which give that player control of
    any objects or players end. Then, if that player controlled any objects on the stack not represented by cards,
    those objects cease to exist. Then, if there are any objects still controlled by that player, those objects are
    exiled." (assumption mtg:A-leaving-player-default-control)."""
    clause = st.c(CR800_4A)
    owned = [c for c in st.existing() if c.owner == player and c.zone != "outside_game"]
    regained = [c for c in st.battlefield() if c.controller == player and c.owner != player and c.props.get("control_from")]
    if owned or regained:
        with st.trace.simultaneous():
            for c in owned:
                if c.zone == "battlefield":
                    leave_battlefield(st, c.id, "outside_game", clause)
                else:
                    st.stack[:] = [i for i in st.stack if not (i.card == c.id and i.ability is None)]
                    st.board.move(c.id, "outside_game", clause)
                    st.reset_object(c)  # 400.7, 712.8a: a new object, front face up
            for c in regained:
                back = c.props.pop("control_from")
                st.board.zones[(c.controller, "battlefield")].remove(c.id)
                c.controller = back if back not in st.lost else c.owner
                st.board.zones[(c.controller, "battlefield")].append(c.id)
                st.trace.emit("control_changed", clause, card=c.id, player=c.controller)
    st.stack[:] = [i for i in st.stack if not (i.ability and i.controller == player)]
    st.pending[:] = [i for i in st.pending if i.controller != player]
    still = [c for c in st.battlefield() if c.controller == player]
    still += [st.card(i.card) for i in st.stack if i.ability is None and i.controller == player]
    if still:
        with st.trace.simultaneous():
            for c in still:
                if c.zone == "battlefield":
                    leave_battlefield(st, c.id, "exile", clause)
                else:
                    st.stack[:] = [i for i in st.stack if i.card != c.id]
                    st.board.move(c.id, "exile", clause)
                    st.reset_object(c)  # 400.7, 712.8a: a new object, front face up
