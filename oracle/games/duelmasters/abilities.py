"""Duel Masters abilities and effects: triggered abilities as compositions (oracle.core.compose; the named ones
are shorthand, :data:`SHORTHAND`), which of them an event triggers (:func:`triggers`), how triggers resolve
(:func:`fire`, :func:`resolve`), static abilities (:func:`destroyed_to`), and the effect language (:func:`apply`:
what each effect does when it resolves; :data:`OBJECT_EFFECTS`: the effects on the cards a composition names)."""

from __future__ import annotations

from typing import Any, Callable, NamedTuple

from ...core.board import Card
from ...core.compose import SUBJECT, THIS, Static, Triggered, When, parse_static, watched
from ...core.compose import compositions as compose_all
from ...core.compose import Effect as Part
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


# -- triggers: compositions (oracle.core.compose) and the named abilities that are their shorthand ----------

def _shorthand(name: str, event: str, watch: str = THIS) -> Callable[[Any], Triggered]:
    """A named triggered ability whose parameter is an effect of the effect language: the composition that
    watches ``event`` about the card ``watch`` allows, and does that effect (each item in order, on nothing named:
    each effect's own default, as the named ability always did)."""
    def make(effect: Any) -> Triggered:
        return Triggered(name=name, when=When(event, watch),
                         effects=tuple(Part(kind, param) for kind, param in effect_items(effect)))
    return make


SHORTHAND: dict[str, Callable[[Any], Triggered]] = {name: _shorthand(name, *when) for name, when in {
    "on_attack": ("attacks",),
    "on_attack_blocked": ("attack_blocked",),
    "on_block": ("blocks",),
    "on_unblocked": ("unblocked",),
    "on_battle_win": ("wins_battle",),
    "end_of_turn": ("turn_ends", "yours"),
    "opponent_creature_attacks": ("attacks", "opponents"),
    "creature_wins_battle": ("wins_battle", "any"),
}.items()}
"""Each named triggered ability as the composition it is shorthand for (``SHORTHAND[name](param)``); the
trace names the ability by its shorthand name. Kept named, not shorthand: ``slayer`` (a keyword: it triggers
after every battle of its creature and destroys the creature it battled, which no event's subject names --
built by :func:`slayer` and resolved by the same interpreter), ``after_attack_destroy`` (※8: the attack's end
destroys the creature with no `triggered`/`resolved` in the seed's procedure, so a composition would add events),
and the tap abilities (タップトリガー, ダイナモ: used, not triggered)."""


def compositions(card: Card) -> list[Triggered]:
    """The triggered abilities of a card, in its ability order: composed ones and named shorthand."""
    return compose_all(card.abilities, SHORTHAND)


class Trigger(NamedTuple):
    """A triggered ability waiting to resolve: its card, the name traces give it, the composition, and the card
    its event was about (``subject``: the attacker, the blocker, the creature that entered ...)."""

    card: Card
    ability: str
    triggered: Triggered
    subject: str | None = None


def collect(cards: list[Card | None], ability: str) -> list[Trigger]:
    """The triggers of the named ability ``ability`` (``on_attack``, ``on_block`` ...) of these cards, each about
    its own card."""
    return [Trigger(c, t.name, t, c.id) for c in cards if c is not None for t in compositions(c)
            if t.name == ability and ability in SHORTHAND]


def triggers(st: State, event: str, subject: Card | None, *, player: str | None = None, own: bool = True,
             others: bool = True) -> list[Trigger]:
    """Every trigger of ``event`` about ``subject`` (or, for a player's event, about ``player``): ``own``, the
    subject's abilities that watch ``this``; ``others``, every creature's in the battle zone (the subject's
    included) whose ``watch`` allows the event -- players in the board's order, creatures in the zone's."""
    out: list[Trigger] = []
    about = subject.id if subject is not None else None
    about_controller = subject.controller if subject is not None else player
    if own and subject is not None:
        out += [Trigger(subject, t.name, t, about) for t in compositions(subject)
                if t.when.event == event and t.when.watch == THIS]
    if others:
        for p in st.board.players:
            for c in creatures(st, p):
                out += [Trigger(c, t.name, t, about) for t in compositions(c)
                        if t.when.event == event and t.when.watch != THIS
                        and watched(t.when.watch, c.controller, c.id, about or "", about_controller)]
    return out


def slayer(card: Card, battled: Card) -> Trigger:
    """スレイヤー (a keyword, kept named): after its creature's battle, destroy the creature it battled -- the
    trigger's subject."""
    return Trigger(card, "slayer", Triggered("slayer", When("battled"), effects=(Part("destroy", None, SUBJECT),)),
                   battled.id)


def fire(st: State, script: Script, triggers: list[Trigger], when: str, clause_of=None) -> None:
    """One moment of `triggered`, then each resolves (active player's first: C7) with what it does; what they
    put into the battle zone triggers in turn (:func:`flush`)."""
    if not triggers:
        return
    announce(st, triggers, when, clause_of)
    resolve_all(st, script, triggers, when, clause_of)


def announce(st: State, triggers: list[Trigger], when: str, clause_of=None) -> None:
    """One moment of `triggered` for these triggers (none: nothing)."""
    if not triggers:
        return
    tag = (lambda t: clause_of(t)[0]) if clause_of else (lambda t: when)
    with st.trace.simultaneous():
        for t in triggers:
            st.trace.emit("triggered", tag(t), card=t.card.id, ability=t.ability, player=t.card.controller)


def resolve_all(st: State, script: Script, triggers: list[Trigger], when: str, clause_of=None) -> None:
    """The triggers resolve, the active player's first (C7), each with `resolved` and what it does; what they put
    into the battle zone triggers in turn (:func:`flush`)."""
    ordered = sorted(triggers, key=lambda t: t.card.controller != st.active)
    for t in ordered:
        res = clause_of(t)[1] if clause_of else when
        st.trace.emit("resolved", res, card=t.card.id, ability=t.ability, player=t.card.controller)
        resolve(st, script, t, res)
        flush(st, script, res)


def flush(st: State, script: Script, clause: str) -> None:
    """The triggers waiting since a creature entered the battle zone (``enters``) fire now, when the card or
    the effect that put it there has resolved (X-cip-timing)."""
    while st.waiting:
        waiting, st.waiting = st.waiting, []
        fire(st, script, waiting, clause)


def resolve(st: State, script: Script, t: Trigger, clause: str) -> None:
    """A trigger resolves (its `resolved` already emitted): each target is chosen, in order (「1体選び」); then an
    optional one (「〜してもよい」) asks its controller `use` or `decline` naming its card (X-optional-trigger);
    then each effect, in order."""
    card, ab, controller = t.card, t.triggered, t.card.controller
    chosen: dict[str, list[str]] = {}
    for target in ab.targets:
        legal = [c.id for c in matching(st, card, controller, target.filter or {}, "any")]
        chosen[target.name] = legal if target.every else choose_many(st, script, controller, legal,
                                                                      int(target.count), clause)
    if ab.optional and not _accepts(st, script, controller, card, clause):
        return
    for e in ab.effects:
        if e.kind in OBJECT_EFFECTS:
            ids = ([card.id] if e.on in (None, THIS) else [t.subject] if e.on == SUBJECT and t.subject
                   else chosen.get(e.on or "", []))
            OBJECT_EFFECTS[e.kind](st, [i for i in ids if in_play(st, i)], e.param, clause)
        else:
            apply(st, script, card, controller, {e.kind: e.param}, clause)


def _accepts(st: State, script: Script, player: str, card: Card, clause: str) -> bool:
    """してもよい: the controller uses (`use card`) or declines (`decline card`) the optional ability."""
    offered = [card.id]

    def validate(d: Decision, offered: list[str] = offered) -> bool:
        card_among(st, d, offered, "not_offered", f"offered: {offered}")
        return d.kind == "use"

    _, use = decide(st, script, player, ("use", "decline"), clause, validate)
    return use


# -- changes ------------------------------------------------------------------------------------

def tap(st: State, cid: str, clause: str) -> None:
    st.card(cid).tapped = True
    st.trace.emit("tapped", clause, card=cid)


def destroy(st: State, ids: list[str], clause: str) -> None:
    """Destroyed creatures go to their owners' graveyards at one moment."""
    ids = [c for c in ids if in_play(st, c)]
    if not ids:
        return
    to = {cid: destroyed_to(st, st.card(cid)) for cid in ids}   # the statics as they stand before the moment
    with st.trace.simultaneous():
        for cid in ids:
            st.trace.emit("destroyed", clause, card=cid)
            leave(st, cid, to[cid], clause)
            sources_follow(st, cid, clause)


def statics(st: State) -> list[tuple[Card, Static]]:
    """The static abilities of the creatures in the battle zone, with their cards."""
    return [(c, parse_static(p)) for pl in st.board.players for c in creatures(st, pl)
            for name, p in c.abilities if name == "static"]


def affected(st: State, source: Card, ab: Static, card: Card) -> bool:
    """Whether ``card`` is among the creatures a static ability of ``source`` affects."""
    if ab.affects == THIS:
        return card.id == source.id
    return card.id in {c.id for c in matching(st, source, source.controller, ab.affects, "any")}


def destroyed_to(st: State, card: Card) -> str:
    """Where a destroyed creature goes: its owner's graveyard, or where a static ``destroyed_to`` in the battle zone
    that affects it puts it instead (「破壊される時、墓地に置くかわりに手札に戻す」; X-destroy-replacement)."""
    for source, ab in statics(st):
        for kind, param in ab.rules:
            if kind == "destroyed_to" and affected(st, source, ab, card):
                return str(param)
    return "graveyard"


def sources_follow(st: State, cid: str, clause: str, zone: str = "graveyard") -> None:
    """CR316.3 例: a destroyed evolution creature's sources (進化元) go to the graveyard with it, in its moment
    (tagged CR316.3 under the current rules; the seed is silent: assumption duelmasters:X-evolution-sources)."""
    tag = CR316_3 if st.ruleset in EVOLUTION_SOURCES else clause
    for src in [c for c in st.board.cards.values() if c.props.get("under") == cid and c.zone == "battlefield"]:
        src.props.pop("under")
        src.tapped = False
        st.board.move(src.id, zone, tag)


def leave(st: State, cid: str, zone: str, clause: str) -> None:
    card = st.card(cid)
    card.tapped = False
    st.pumps.pop(cid, None)
    st.battle_pumps.pop(cid, None)
    st.board.move(cid, zone, clause)


def enter(st: State, cid: str, clause: str) -> None:
    """A creature is put into the battle zone; its ``enters`` triggers (and those watching it) wait until what put it
    there has resolved (:func:`flush`)."""
    card = st.card(cid)
    card.tapped = False
    card.entered_this_turn = True
    st.board.move(cid, "battlefield", clause)
    st.waiting += triggers(st, "enters", card)


def return_to_hand(st: State, ids: list[str], clause: str) -> None:
    """持ち主の手札に戻す: the creatures go to their owners' hands at one moment (their sources with them, X-evolution-sources)."""
    if not ids:
        return
    with st.trace.simultaneous():
        for cid in ids:
            leave(st, cid, "hand", clause)
            sources_follow(st, cid, clause, "hand")


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


def choose_many(st: State, script: Script, player: str, legal: list[str], count: int, clause: str) -> list[str]:
    """A composed target: ``count`` different creatures among ``legal`` (all of them when there are no more), one
    ``choose_target``: a card id when one is chosen, a list of ids when several (another number of ids, or one
    twice, is ``malformed_decision``; a creature not allowed ``illegal_target``). None legal: nothing asked."""
    if not legal:
        return []
    n = min(count, len(legal))
    if n == 1:
        got = choose(st, script, player, legal, clause)
        return [got] if got else []

    def validate(d: Decision, n: int = n) -> list[str]:
        ids = d.args
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise Refusal("malformed_decision", f"choose_target takes a list of {n} card ids here")
        for cid in ids:
            known(st, cid)
        if len(ids) != n or len(set(ids)) != n:
            raise Refusal("malformed_decision", f"choose {n} different creatures, got {ids}")
        for cid in ids:
            if cid not in legal:
                raise Refusal("illegal_target", f"legal: {legal}")
        return list(ids)

    _, ids = decide(st, script, player, ("choose_target",), clause, validate)
    return ids


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


# -- effects on cards (a composition's ``on``: this, subject or a target) --------------------------------------

def _destroy(st: State, ids: list[str], param: Any, clause: str) -> None:
    destroy(st, ids, clause)


def _tap(st: State, ids: list[str], param: Any, clause: str) -> None:
    """Every card one effect taps is tapped at one moment (as one effect destroys its cards at one moment)."""
    with st.trace.simultaneous():
        for cid in ids:
            if not st.card(cid).tapped:
                tap(st, cid, clause)


def _untap(st: State, ids: list[str], param: Any, clause: str) -> None:
    with st.trace.simultaneous():
        for cid in ids:
            if st.card(cid).tapped:
                st.card(cid).tapped = False
                st.trace.emit("untapped", clause, card=cid)


def _power(st: State, ids: list[str], param: Any, clause: str) -> None:
    with st.trace.simultaneous():
        for cid in ids:
            st.pumps[cid] = st.pumps.get(cid, 0) + int(param)
            st.trace.emit("pumped", clause, card=cid, amount=int(param))


def _return_to_hand(st: State, ids: list[str], param: Any, clause: str) -> None:
    return_to_hand(st, ids, clause)


OBJECT_EFFECTS: dict[str, Callable[[State, list[str], Any, str], None]] = {
    "destroy": _destroy,
    "tap": _tap,
    "untap": _untap,
    "power": _power,
    "return_to_hand": _return_to_hand,
}
"""The effects a composition's ``on`` names the cards of (``(st, card ids in the battle zone, param, clause)``);
vocabulary.OBJECT_EFFECTS documents them."""


def matching(st: State, source: Card, controller: str, param: Any, default: str) -> list[Card]:
    """The creatures a target filter allows: ``controller`` (you / opponent / any; the effect's default), ``has``
    (an ability, e.g. blocker), ``max_power`` (power now), ``other`` (not the source), ``tapped`` (a composed
    target's: tapped or untapped)."""
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
            if f.get("tapped") is not None and c.tapped != f["tapped"]:
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
