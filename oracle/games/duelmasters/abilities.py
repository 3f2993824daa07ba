"""Duel Masters abilities and effects: which creatures' abilities trigger (:func:`collect`), how triggers
resolve (:func:`fire`), and the effect language (:func:`apply`: what each effect does when it resolves)."""

from __future__ import annotations

from typing import Any, Callable

from ...core.board import Card
from ...core.script import Decision, Refusal, Script
from .clauses import CR316_3
from .editions import EVOLUTION_SOURCES
from .legality import card_among, card_arg, decide, known
from .state import State, creatures, in_play, power


def effect_items(effect: Any) -> list[tuple[str, Any]]:
    if effect is None:
        return []
    if isinstance(effect, list):
        return [i for e in effect for i in effect_items(e)]
    if isinstance(effect, str):
        return [(effect, None)]
    return list(effect.items())


# -- triggers -----------------------------------------------------------------------------------

Trigger = tuple[Card, str, Any]
"""A triggered ability waiting to resolve: its card, the ability, and the effect it resolves."""


def collect(cards: list[Card | None], ability: str) -> list[Trigger]:
    """The triggers of ``ability`` (an event's name: ``on_attack``, ``on_block`` ...) of these cards."""
    return [(c, ability, e) for c in cards if c is not None for e in c.params(ability)]


def fire(st: State, script: Script, triggers: list[Trigger], when: str, clause_of=None) -> None:
    """One moment of `triggered`, then each resolves (active player's first: C7) with what it does."""
    if not triggers:
        return
    tag = (lambda t: clause_of(t)[0]) if clause_of else (lambda t: when)
    with st.trace.simultaneous():
        for c, ability, _ in triggers:
            st.trace.emit("triggered", tag((c, ability, None)), card=c.id, ability=ability, player=c.controller)
    ordered = sorted(triggers, key=lambda t: t[0].controller != st.active)
    for c, ability, effect in ordered:
        res = clause_of((c, ability, None))[1] if clause_of else when
        st.trace.emit("resolved", res, card=c.id, ability=ability, player=c.controller)
        apply(st, script, c, c.controller, effect, res)


# -- changes ------------------------------------------------------------------------------------

def tap(st: State, cid: str, clause: str) -> None:
    st.card(cid).tapped = True
    st.trace.emit("tapped", clause, card=cid)


def destroy(st: State, ids: list[str], clause: str) -> None:
    """Destroyed creatures go to their owners' graveyards at one moment."""
    ids = [c for c in ids if in_play(st, c)]
    if not ids:
        return
    with st.trace.simultaneous():
        for cid in ids:
            st.trace.emit("destroyed", clause, card=cid)
            leave(st, cid, "graveyard", clause)
            sources_follow(st, cid, clause)


def sources_follow(st: State, cid: str, clause: str) -> None:
    """CR316.3 例: a destroyed evolution creature's sources (進化元) go to the graveyard with it, in its moment
    (tagged CR316.3 under the current rules; the seed is silent: assumption duelmasters:X-evolution-sources)."""
    tag = CR316_3 if st.ruleset in EVOLUTION_SOURCES else clause
    for src in [c for c in st.board.cards.values() if c.props.get("under") == cid and c.zone == "battlefield"]:
        src.props.pop("under")
        src.tapped = False
        st.board.move(src.id, "graveyard", tag)


def leave(st: State, cid: str, zone: str, clause: str) -> None:
    card = st.card(cid)
    card.tapped = False
    st.pumps.pop(cid, None)
    st.battle_pumps.pop(cid, None)
    st.board.move(cid, zone, clause)


def enter(st: State, cid: str, clause: str) -> None:
    card = st.card(cid)
    card.tapped = False
    card.entered_this_turn = True
    st.board.move(cid, "battlefield", clause)


# -- the effect language ------------------------------------------------------------------------

def choose(st: State, script: Script, player: str, legal: list[str], clause: str) -> str | None:
    if not legal:
        return None

    def validate(d: Decision) -> str:
        cid = card_arg(d)
        known(st, cid)
        if cid not in legal:
            raise Refusal("illegal_target", f"legal: {legal}")
        return cid

    _, cid = decide(st, script, player, ("choose_target",), clause, validate)
    return cid


def apply(st: State, script: Script, source: Card, controller: str, effect: Any, clause: str) -> None:
    """Resolve one effect of ``source`` for ``controller`` (each item by :data:`EFFECTS`); every change is
    tagged ``clause``."""
    for name, param in effect_items(effect):
        do = EFFECTS.get(name)
        if do is None:  # pragma: no cover - the loader checks ability names, not effect names
            raise ValueError(f"unknown effect {name!r} on {source.id}")
        do(st, script, source, controller, param, clause)


def _draw(st: State, script: Script, source: Card, controller: str, param: Any, clause: str) -> None:
    st.board.draw(controller, int(param or 1), clause)


def _destroy_target(st: State, script: Script, source: Card, controller: str, param: Any, clause: str) -> None:
    legal = [c.id for c in matching(st, source, controller, param, "opponent")]
    target = choose(st, script, controller, legal, clause)
    if target:
        destroy(st, [target], clause)


def _tap_target(st: State, script: Script, source: Card, controller: str, param: Any, clause: str) -> None:
    legal = [c.id for c in matching(st, source, controller, param, "opponent") if not c.tapped]
    target = choose(st, script, controller, legal, clause)
    if target:
        tap(st, target, clause)


def _untap_target(st: State, script: Script, source: Card, controller: str, param: Any, clause: str) -> None:
    legal = [c.id for c in matching(st, source, controller, param, "you") if c.tapped]
    target = choose(st, script, controller, legal, clause)
    if target:
        st.card(target).tapped = False
        st.trace.emit("untapped", clause, card=target)


def _discard(st: State, script: Script, source: Card, controller: str, param: Any, clause: str) -> None:
    discard(st, script, controller, param, clause)


def _battle_power_plus(st: State, script: Script, source: Card, controller: str, param: Any, clause: str) -> None:
    """そのバトルの間: until the end of the battle (:attr:`State.battle_pumps`)."""
    if in_play(st, source.id):
        st.battle_pumps[source.id] = st.battle_pumps.get(source.id, 0) + int(param)
        st.trace.emit("pumped", clause, card=source.id, amount=int(param))


def _untap_self(st: State, script: Script, source: Card, controller: str, param: Any, clause: str) -> None:
    if in_play(st, source.id) and source.tapped:
        source.tapped = False
        st.trace.emit("untapped", clause, card=source.id)


def _power_plus(st: State, script: Script, source: Card, controller: str, param: Any, clause: str) -> None:
    if in_play(st, source.id):
        st.pumps[source.id] = st.pumps.get(source.id, 0) + int(param)
        st.trace.emit("pumped", clause, card=source.id, amount=int(param))


def _pump_target(st: State, script: Script, source: Card, controller: str, param: Any, clause: str) -> None:
    legal = [c.id for c in creatures(st, controller) if c.id != source.id]
    target = choose(st, script, controller, legal, clause)
    if target:
        st.pumps[target] = st.pumps.get(target, 0) + int(param)
        st.trace.emit("pumped", clause, card=target, amount=int(param))


def _destroy_self(st: State, script: Script, source: Card, controller: str, param: Any, clause: str) -> None:
    destroy(st, [source.id], clause)


def _mana_from_deck(st: State, script: Script, source: Card, controller: str, param: Any, clause: str) -> None:
    for cid in list(st.board.zone(controller, "deck"))[: int(param or 1)]:
        st.board.move(cid, "mana", clause)


def _summon_self(st: State, script: Script, source: Card, controller: str, param: Any, clause: str) -> None:
    if source.zone == "hand":
        enter(st, source.id, clause)


def _look_take(st: State, script: Script, source: Card, controller: str, param: Any, clause: str) -> None:
    look_take(st, script, controller, int(param or 1), clause)


Effect = Callable[[State, Script, Card, str, Any, str], None]

EFFECTS: dict[str, Effect] = {
    "draw": _draw,
    "destroy_target": _destroy_target,
    "tap_target": _tap_target,
    "untap_target": _untap_target,
    "discard": _discard,
    "battle_power_plus": _battle_power_plus,
    "untap_self": _untap_self,
    "power_plus": _power_plus,
    "pump_target": _pump_target,
    "destroy_self": _destroy_self,
    "mana_from_deck": _mana_from_deck,
    "summon_self": _summon_self,
    "look_take": _look_take,
}
"""The effect table: what each effect of the effect language does when it resolves (``(st, script, source,
controller, param, clause)``)."""


def matching(st: State, source: Card, controller: str, param: Any, default: str) -> list[Card]:
    """The creatures a target filter allows: ``controller`` (you / opponent; the effect's default), ``has`` (an
    ability, e.g. blocker), ``max_power`` (power now), ``other`` (not the source)."""
    f = param if isinstance(param, dict) else {}
    who = f.get("controller", default)
    players = {"you": [controller], "opponent": [st.opponent(controller)]}.get(who, list(st.board.players))
    out = []
    for p in players:
        for c in creatures(st, p):
            if f.get("has") and not c.has(f["has"]):
                continue
            if f.get("max_power") is not None and power(st, c) > f["max_power"]:
                continue
            if f.get("other") and c.id == source.id:
                continue
            out.append(c)
    return out


def discard(st: State, script: Script, controller: str, param: Any, clause: str) -> None:
    """「手札を1枚捨てる」: the discarding player (``player``: you = the effect's controller, opponent) chooses
    ``count`` cards of their hand one by one (``discard card``); each goes to the graveyard."""
    f = param if isinstance(param, dict) else {"count": param}
    who = controller if f.get("player", "you") == "you" else st.opponent(controller)
    for _ in range(int(f.get("count") or 1)):
        hand = list(st.board.zone(who, "hand"))
        if not hand:
            return

        def validate(d: Decision, hand: list[str] = hand) -> str:
            return card_among(st, d, hand, "not_in_hand", f"not in {who}'s hand: {d.args!r}", key=None)

        _, cid = decide(st, script, who, ("discard",), clause, validate)
        st.board.move(cid, "graveyard", clause)


def look_take(st: State, script: Script, player: str, n: int, clause: str) -> None:
    """フェアリー・キャンドル: look at the top N, one to the hand, the rest to the bottom in the order given."""
    seen = list(st.board.zone(player, "deck"))[:n]
    if not seen:
        return

    def validate(d: Decision) -> tuple[str, list[str]]:
        a = d.args
        take = card_arg(d, "take", ("bottom",))
        known(st, take)
        if isinstance(a, dict) and isinstance(a.get("bottom"), list):
            for cid in a["bottom"]:
                if isinstance(cid, str):
                    known(st, cid)
        if take not in seen:
            raise Refusal("illegal_target", f"one of {seen}")
        rest = [c for c in seen if c != take]
        bottom = a.get("bottom") if isinstance(a, dict) else rest
        if not isinstance(bottom, list) or sorted(map(str, bottom)) != sorted(rest):
            raise Refusal("malformed_decision", f"bottom must order exactly {rest}")
        return take, list(bottom)

    _, (take, bottom) = decide(st, script, player, ("choose_card",), clause, validate)
    st.board.move(take, "hand", clause)
    for cid in bottom:
        st.board.move(cid, "deck", clause, bottom=True)
