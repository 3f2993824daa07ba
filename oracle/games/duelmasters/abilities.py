"""Duel Masters characteristics and effects: who may attack, power, breaks, and the effect language."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ...core.board import Board, Card
from ...core.script import Decision, Refusal, Script
from ...core.trace import Trace
from .editions import EVOLUTION_SOURCES, SEED

G = "duelmasters:"

# The clause that forbids what a refusal refuses (the rejected entry is tagged with it).
REASON_CLAUSE = {
    "attacker_not_yours": G + "P1",
    "attacker_not_in_battle_zone": G + "P1",
    "summoning_sick": G + "P2",
    "attacker_tapped": G + "A1",
    "several_attackers": G + "A1",
    "attacker_cannot_attack": G + "P1",
    "target_not_opponent": G + "P4",
    "attack_target_shield": G + "A1",
    "target_untapped_creature": G + "C1",
    "no_tap_ability": G + "P3",
    "tap_ability_cannot_attack": G + "N2",
    "blocker_not_blocker": G + "A3",
    "blocker_tapped": G + "A3",
    "blocker_not_defenders": G + "A3",
    "several_blockers": G + "A3",
    "blocker_is_attack_target": G + "CR507.1a",
    "block_after_shield_chosen": G + "U3",
    "shield_not_attacked_players": G + "U2",
    "shield_already_chosen": G + "U2",
    "s_trigger_not_broken": G + "N7",
}

# (the discard's refusal, not_in_hand, is tagged with the clause of the effect that asks it)


@dataclass(slots=True)
class State:
    board: Board
    trace: Trace
    active: str
    attacker: str | None = None           # the creature attacking now
    target: str | None = None             # what it attacks (a player or a creature id)
    shield_chosen: bool = False           # U3: a shield of this attack has been chosen
    chosen_last: bool = False             # U3: the attack just over chose a shield (until the next decision)
    ruleset: str = SEED                   # the edition the case runs under (editions.py)
    pumps: dict[str, int] = field(default_factory=dict)
    battle_pumps: dict[str, int] = field(default_factory=dict)
    """Power changes until the end of the battle (そのバトルの間): cleared when the battle (or the attack) ends."""

    def card(self, cid: str) -> Card:
        return self.board.cards[cid]

    def opponent(self, player: str) -> str:
        return next(p for p in self.board.players if p != player)


# -- characteristics ----------------------------------------------------------------------------

def in_play(st: State, cid: str | None) -> bool:
    """A creature in the battle zone (an evolution source under a creature is a card there, not a creature)."""
    return (cid is not None and cid in st.board.cards and st.board.cards[cid].zone == "battlefield"
            and not is_source(st.board.cards[cid]))


def is_source(card: Card) -> bool:
    """進化元: a card of the setup marked ``attached_to: <evolution creature>`` lies under that creature."""
    return card.zone == "battlefield" and bool(card.props.get("under"))


def sick(card: Card) -> bool:
    """P2/N1: put into the battle zone this turn, and neither 進化 nor スピードアタッカー."""
    return card.entered_this_turn and not (card.has("evolution") or card.has("speed_attacker"))


def could_attack(card: Card) -> bool:
    """N2: the state a tap ability needs: a creature that could attack (untapped is checked apart)."""
    return card.zone == "battlefield" and not card.has("cannot_attack") and not sick(card)


def power(st: State, card: Card) -> int:
    """B3: power with every plus and minus: pumps, and パワーアタッカー while it attacks."""
    p = (card.power or 0) + st.pumps.get(card.id, 0) + st.battle_pumps.get(card.id, 0)
    if st.attacker == card.id and card.zone == "battlefield":
        p += sum(int(x) for x in card.params("power_attacker"))
    return p


def breaks(card: Card) -> int:
    """U8: how many shields one unblocked attack breaks."""
    if card.has("t_breaker"):
        return 3
    if card.has("w_breaker"):
        return 2
    return 1


def effect_items(effect: Any) -> list[tuple[str, Any]]:
    if effect is None:
        return []
    if isinstance(effect, list):
        return [i for e in effect for i in effect_items(e)]
    if isinstance(effect, str):
        return [(effect, None)]
    return list(effect.items())


# -- decisions ----------------------------------------------------------------------------------

def decide(st: State, script: Script, player: str, kinds: tuple[str, ...], clause: str,
           validate: Callable[[Decision], Any], *, optional: bool = False):
    """Script.decide, with refusals tagged by the clause that forbids them and U3 for a late block."""
    n = len(st.trace.entries)

    def other(d: Decision) -> str:
        late = st.shield_chosen or st.chosen_last
        return "block_after_shield_chosen" if d.kind == "block" and late else "unexpected_decision"

    out = script.decide(player, kinds, clause, validate, other=other, optional=optional)
    for e in st.trace.entries[n:]:
        if e.kind == "rejected" and e.args.get("reason") in REASON_CLAUSE:
            e.clause = REASON_CLAUSE[e.args["reason"]]
    return out


def card_arg(d: Decision, *keys: str) -> str:
    a = d.args
    if isinstance(a, dict):
        for k in keys:
            if k in a:
                a = a[k]
                break
        else:
            raise Refusal("malformed_decision", f"expected one of {keys}")
    if not isinstance(a, str):
        raise Refusal("malformed_decision", "expected a card id")
    return a


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
    tag = G + "CR316.3" if st.ruleset in EVOLUTION_SOURCES else clause
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
        cid = card_arg(d, "card", "target")
        if cid not in legal:
            raise Refusal("illegal_target", f"legal: {legal}")
        return cid

    _, cid = decide(st, script, player, ("choose_target",), clause, validate)
    return cid


def creatures(st: State, player: str) -> list[Card]:
    return [c for c in st.board.in_zone(player, "battlefield") if not is_source(c)]


def apply(st: State, script: Script, source: Card, controller: str, effect: Any, clause: str) -> None:
    """Resolve one effect of ``source`` for ``controller``; every change is tagged ``clause``."""
    b, tr = st.board, st.trace
    for name, param in effect_items(effect):
        if name == "draw":
            b.draw(controller, int(param or 1), clause)
        elif name == "destroy_target":
            legal = [c.id for c in matching(st, source, controller, param, "opponent")]
            target = choose(st, script, controller, legal, clause)
            if target:
                destroy(st, [target], clause)
        elif name == "tap_target":
            legal = [c.id for c in matching(st, source, controller, param, "opponent") if not c.tapped]
            target = choose(st, script, controller, legal, clause)
            if target:
                tap(st, target, clause)
        elif name == "untap_target":
            legal = [c.id for c in matching(st, source, controller, param, "you") if c.tapped]
            target = choose(st, script, controller, legal, clause)
            if target:
                st.card(target).tapped = False
                tr.emit("untapped", clause, card=target)
        elif name == "discard":
            discard(st, script, controller, param, clause)
        elif name == "battle_power_plus":
            if in_play(st, source.id):
                st.battle_pumps[source.id] = st.battle_pumps.get(source.id, 0) + int(param)
                tr.emit("pumped", clause, card=source.id, amount=int(param))
        elif name == "untap_self":
            if in_play(st, source.id) and source.tapped:
                source.tapped = False
                tr.emit("untapped", clause, card=source.id)
        elif name == "power_plus":
            if in_play(st, source.id):
                st.pumps[source.id] = st.pumps.get(source.id, 0) + int(param)
                tr.emit("pumped", clause, card=source.id, amount=int(param))
        elif name == "pump_target":
            legal = [c.id for c in creatures(st, controller) if c.id != source.id]
            target = choose(st, script, controller, legal, clause)
            if target:
                st.pumps[target] = st.pumps.get(target, 0) + int(param)
                tr.emit("pumped", clause, card=target, amount=int(param))
        elif name == "destroy_self":
            destroy(st, [source.id], clause)
        elif name == "mana_from_deck":
            for cid in list(b.zone(controller, "deck"))[: int(param or 1)]:
                b.move(cid, "mana", clause)
        elif name == "summon_self":
            if source.zone == "hand":
                enter(st, source.id, clause)
        elif name == "look_take":
            look_take(st, script, controller, int(param or 1), clause)
        else:  # pragma: no cover - the loader checks ability names, not effect names
            raise ValueError(f"unknown effect {name!r} on {source.id}")


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
            cid = card_arg(d, "card")
            if cid not in hand:
                raise Refusal("not_in_hand", f"{cid!r} is not in {who}'s hand")
            return cid

        _, cid = decide(st, script, who, ("discard",), clause, validate)
        st.board.move(cid, "graveyard", clause)


def look_take(st: State, script: Script, player: str, n: int, clause: str) -> None:
    """フェアリー・キャンドル: look at the top N, one to the hand, the rest to the bottom in the order given."""
    seen = list(st.board.zone(player, "deck"))[:n]
    if not seen:
        return

    def validate(d: Decision) -> tuple[str, list[str]]:
        a = d.args
        take = card_arg(d, "take")
        if take not in seen:
            raise Refusal("illegal_target", f"one of {seen}")
        rest = [c for c in seen if c != take]
        bottom = a.get("bottom", rest) if isinstance(a, dict) else rest
        if not isinstance(bottom, list) or sorted(map(str, bottom)) != sorted(rest):
            raise Refusal("malformed_decision", f"bottom must order exactly {rest}")
        return take, list(bottom)

    _, (take, bottom) = decide(st, script, player, ("choose_card",), clause, validate)
    st.board.move(take, "hand", clause)
    for cid in bottom:
        st.board.move(cid, "deck", clause, bottom=True)
