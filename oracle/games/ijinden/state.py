"""Ijinden state and characteristics.

State is plain data. Characteristics are computed on demand from the continuous effects that apply now
(attack+/block+, 円形闘技場, 足利義満, abilities gained this turn), so losing a source updates everything at
once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...core.board import Board, Card, build_board
from ...core.compose import THIS, Static, parse_static
from ...core.trace import Trace
from ...model import CaseRequest
from .vocabulary import ZONES

ARENA_POWER = 3000
"""円形闘技場: 「自分の戦場のガーディアンは「即応」を持つパワー3000のイジンでもある」"""


@dataclass(slots=True)
class Battle:
    """The battle of this main phase, from A1 to C2."""

    attacking: str
    defending: str
    chosen: list[str]
    """A1: the Ijin chosen as attackers (attack+ applies to them from A2)."""
    attackers: list[str] = field(default_factory=list)
    blockers: dict[str, list[str]] = field(default_factory=dict)
    """Attacker -> its blockers now (B3 on); a ceased blocker is removed."""
    blocked: set[str] = field(default_factory=set)
    """Attackers in the blocked state (ブロッカーに指定された状態)."""
    attack_plus: bool = False
    """A2 on: attack+ applies to the chosen Ijin (before A3 they are not attackers yet)."""
    a3_done: bool = False
    block_plus: bool = False
    """B2 on: block+ applies to the chosen blockers."""
    blockers_chosen: list[str] = field(default_factory=list)
    b3_done: bool = False

    def blocker_of(self, card_id: str) -> str | None:
        return next((a for a, bl in self.blockers.items() if card_id in bl), None)


@dataclass(slots=True)
class State:
    board: Board
    trace: Trace
    battle: Battle | None = None
    battle_declared: bool = False
    destroyed: set[str] = field(default_factory=set)
    gained: dict[str, list[tuple[str, Any]]] = field(default_factory=dict)
    ijin_guardians: set[str] = field(default_factory=set)
    modifiers: dict[str, int] = field(default_factory=dict)
    """Power changes from effects this turn ("-2000", "+N"), per card, apart from attack+/block+."""

    # -- who is what -------------------------------------------------------------------------
    @property
    def active(self) -> str:
        return self.board.active

    def card(self, card_id: str) -> Card:
        return self.board.cards[card_id]

    def on_battlefield(self, player: str | None = None) -> list[Card]:
        cards, zones = self.board.cards, self.board.zones
        if player:
            return [cards[c] for c in zones[(player, "battlefield")]]
        return [cards[c] for p in self.board.players for c in zones[(p, "battlefield")]]

    def face_down(self, card: Card) -> bool:
        """Put onto the battlefield 「裏のまま」 (face down) by an effect: a guardian there, whatever its card."""
        return card.zone == "battlefield" and bool(card.props.get("face_down"))

    def types(self, card: Card) -> list[str]:
        """What the card is printed as; a face-down card on the battlefield is a guardian and nothing else."""
        return ["guardian"] if self.face_down(card) else card.definition.get("types", [])

    def is_guardian(self, card: Card) -> bool:
        return "guardian" in self.types(card)

    def arena_applies(self, card: Card) -> bool:
        """円形闘技場: during its controller's turn, that player's guardians on the battlefield are Ijin."""
        if card.zone != "battlefield" or not self.is_guardian(card) \
                or card.controller != self.board.active:
            return False
        cards = self.board.cards
        return any(a == "arena" for c in self.board.zones[(card.controller, "battlefield")]
                   if not self.face_down(cards[c]) for a, _ in cards[c].abilities)

    def is_ijin(self, card: Card) -> bool:
        return "ijin" in self.types(card) or self.arena_applies(card)

    def is_attacker(self, card_id: str) -> bool:
        return self.battle is not None and card_id in self.battle.attackers

    def is_blocker(self, card_id: str) -> bool:
        return self.battle is not None and self.battle.blocker_of(card_id) is not None

    # -- characteristics -----------------------------------------------------------------------
    def own_abilities(self, card: Card) -> list[tuple[str, Any]]:
        """Printed, and gained this turn while it stays on the battlefield (a card that left it is a new card:
        ijinden:assume.return-to-hand; as :meth:`power` reads the effects' power changes)."""
        out = [] if self.face_down(card) else list(card.abilities)  # a face-down card's text is hidden
        if card.zone == "battlefield":
            out += self.gained.get(card.id, [])
        if self.arena_applies(card):
            out.append(("sokuou", None))
        return out

    def abilities(self, card: Card) -> list[tuple[str, Any]]:
        """Own, gained this turn, and granted: 足利義満's 航海 for your Ijin with power >= 3000; less what a static
        makes it lose (:meth:`lost`). The statics that affect it are read once."""
        statics = self.statics_on(card)
        out = self.own_abilities(card) + self.granted(card, statics)
        lost = self.lost(card, statics)
        return [(a, p) for a, p in out if a not in lost] if lost else out

    def lost(self, card: Card, statics: list[Static] | None = None) -> set[str]:
        """The abilities a ``static`` makes ``card`` lose now (``rules: [{loses: ability}]`` while its condition
        holds): 「…の間「ダブルプレッシャー」を失い」 -- printed, gained or granted, and it cannot gain one meanwhile (the
        official Q&A on 《織田信長》: 「能力を失っている間は、それと同じ能力を得ることもできません」)."""
        statics = self.statics_on(card) if statics is None else statics
        return {str(p) for st in statics for r, p in st.rules if r == "loses"}

    def granted(self, card: Card, statics: list[Static] | None = None) -> list[tuple[str, Any]]:
        """The abilities other cards grant it now (:meth:`abilities` beyond its own): 足利義満's form, and every
        ``static`` (its own or another card's on the battlefield) whose condition holds and that affects it."""
        statics = self.statics_on(card) if statics is None else statics
        out: list[tuple[str, Any]] = [g for st in statics for g in st.grants]
        if card.zone == "battlefield" and self.is_ijin(card):
            grants = [(name, params) for source in self.on_battlefield(card.controller)
                      for name, params in self.own_abilities(source) if name in ("grant_voyage", "grant_by_power")]
            if grants:  # the power is read only where something grants by it
                power = self.power(card)
                for name, params in grants:
                    if name == "grant_voyage" and power >= params.get("min_power", 0):
                        out.append(("voyage_draw", params.get("draw", 1)))
                    elif name == "grant_by_power" and power >= params.get("min_power", 0):
                        out.append((params["ability"], params.get("params")))
        return out

    def statics_on(self, card: Card) -> list[Static]:
        """The ``static`` abilities that affect ``card`` now (:meth:`statics`: of the cards on the battlefield, and
        the ``zone: graveyard`` ones of the cards in a graveyard): each affects ``this`` (its own card) or the cards on
        the battlefield its filter allows from its controller's side, while its condition holds (``destroyed``,
        ``cards``: a count of a player's zone). Statics do not grant statics (a granted static is not read here). None
        off the battlefield."""
        out: list[Static] = []
        if card.zone != "battlefield":
            return out
        for source, st in self.statics():
            if st.affects == THIS:
                if source.id != card.id:
                    continue
            elif not self.allows(st.affects, card, source.controller, source.id):
                continue
            if self.holds(st.condition, source.id, source.controller):
                out.append(st)
        return out

    def statics(self) -> list[tuple[Card, Static]]:
        """Every ``static`` that applies from where its card is: those of the cards on the battlefield (printed or
        gained), and the ``zone: graveyard`` ones of the cards in a graveyard (「この能力は墓地で効果を発揮する」; a
        card in a graveyard is its owner's). A battlefield static does not apply from a graveyard, nor the other
        way round."""
        out = []
        for source in self.on_battlefield():
            for name, params in self.own_abilities(source):
                if name == "static" and (st := parse_static(params)).zone == "battlefield":
                    out.append((source, st))
        cards = self.board.cards
        for p in self.board.players:
            for cid in self.board.zones[(p, "graveyard")]:
                source = cards[cid]
                for name, params in source.abilities:
                    if name == "static" and (st := parse_static(params)).zone == "graveyard":
                        out.append((source, st))
        return out

    def destroyed_in_battle(self, attacker: str, blockers: list[str]) -> dict[str, str]:
        """D2 with a static ``rules: [{destroyed_in_battle: ...}]`` (《魔除けの社》): the cards of this battle (the
        attacker and its blockers, nothing of the battles still to resolve) that a rule's ``filter`` allows, when the
        blockers include one its ``blockers_include`` allows, read from the static's controller's side -- each with
        that controller: an ability destroys them (相手の能力によって破壊されない reads who)."""
        battle = [attacker, *blockers]
        out: dict[str, str] = {}
        for source, st in self.statics():
            if not self.holds(st.condition, source.id, source.controller):
                continue
            for kind, rule in st.rules:
                if kind != "destroyed_in_battle":
                    continue
                among = rule.get("blockers_include") or {}
                if not any(self.allows(among, self.card(b), source.controller, source.id) for b in blockers):
                    continue
                for c in battle:
                    if c not in out and self.allows(rule["filter"], self.card(c), source.controller, source.id):
                        out[c] = source.controller
        return out

    def of_types(self, card: Card, types: list[str]) -> bool:
        """Whether ``card`` is now one of ``types`` (ijin: :meth:`is_ijin`, 円形闘技場 included; guardian)."""
        return any((ty == "ijin" and self.is_ijin(card)) or (ty == "guardian" and self.is_guardian(card))
                   or (ty == "haikei" and "haikei" in self.types(card)) for ty in types)

    def battle_of(self, card_id: str) -> set[str]:
        """The cards of ``card_id``'s battle: itself, and the attacker it blocks or that it is, with all that
        attacker's blockers (「これとこれをブロックしているブロッカーすべて」); just itself outside a block."""
        b = self.battle
        if b is None:
            return {card_id}
        attacker = card_id if card_id in b.attackers else b.blocker_of(card_id)
        if attacker is None:
            return {card_id}
        return {card_id, attacker, *b.blockers.get(attacker, [])}

    def allows(self, spec: dict[str, Any], card: Card, player: str, source: str | None = None) -> bool:
        """Whether filter ``spec`` (the vocabulary's FILTER) allows ``card`` in its ``zone`` (the battlefield unless
        it says graveyard), from ``player``'s side -- without reading granted abilities (so a static's filter cannot
        loop); ``battle: this`` reads the battle of the ability's card ``source``; ``power`` the power now, ``level``
        the card's level (none given: no level allowed)."""
        if card.zone != spec.get("zone", "battlefield"):
            return False
        if spec.get("battle") == "this" and (source is None or card.id not in self.battle_of(source)):
            return False
        if spec.get("level") is not None and (card.level is None or not within(card.level, spec["level"])):
            return False
        if spec.get("power") is not None and not within(self.power(card), spec["power"]):
            return False
        types = spec.get("types")
        if types and not self.of_types(card, types):
            return False
        who = spec.get("controller", "any")
        if (who == "you" and card.controller != player) or (who == "opponent" and card.controller == player):
            return False
        role = spec.get("role")
        if (role == "attacker" and not self.is_attacker(card.id)) or (role == "blocker" and not self.is_blocker(card.id)):
            return False
        return spec.get("sleeping") is None or bool(card.tapped) == spec["sleeping"]

    def holds(self, condition: Any, source: str, player: str) -> bool:
        """The vocabulary's CONDITION for an ability of card ``source`` controlled by ``player``: ``destroyed`` (the
        card's 破壊されている state), ``cards`` (how many cards you -- ``player`` -- or the opponent have in a zone)."""
        if not condition:
            return True
        if condition.get("destroyed") is not None and (source in self.destroyed) != condition["destroyed"]:
            return False
        count = condition.get("cards")
        if count:
            whose = player if count["player"] == "you" else next(p for p in self.board.players if p != player)
            cards = self.board.zone(whose, count["zone"])
            if count.get("types"):
                cards = [c for c in cards if self.of_types(self.card(c), count["types"])]
            if not within(len(cards), count):
                return False
        return True

    def has(self, card: Card, ability: str) -> bool:
        return any(a == ability for a, _ in self.abilities(card))

    def power(self, card: Card) -> int:
        """Power with every continuous effect: A2 attack+ for the chosen attackers, B2 block+ for blockers."""
        base = card.power
        if self.arena_applies(card):
            base = ARENA_POWER
        total = base or 0
        if card.zone == "battlefield":
            total += self.modifiers.get(card.id, 0)
            b = self.battle
            if b is not None and ((b.attack_plus and card.id in b.chosen) or (b.block_plus and card.id in b.blockers_chosen)):
                own = self.own_abilities(card)
                if b.attack_plus and card.id in b.chosen and (card.id in b.attackers or not b.a3_done):
                    total += sum(p for a, p in own if a == "attack_plus")
                if b.block_plus and card.id in b.blockers_chosen and \
                        (not b.b3_done or b.blocker_of(card.id) is not None):
                    total += sum(p for a, p in own if a == "block_plus")
        return total

    def battle_power(self, card: Card) -> int:
        """D1: a guardian's power counts as 0 (a guardian that is an Ijin now uses its Ijin power:
        assumption ijinden:assume.arena-guardian-power)."""
        if self.is_guardian(card) and not self.is_ijin(card):
            return 0
        return self.power(card)

    def pressure(self, card: Card) -> int:
        """The blockers an attacker needs: pressure N, ダブル 2, トリプル 3; 1 otherwise."""
        need = 1
        for name, params in self.abilities(card):
            if name == "double_pressure":
                need = max(need, 2)
            elif name == "triple_pressure":
                need = max(need, 3)
            elif name == "pressure":
                need = max(need, int(params))
        return need


def within(n: int, span: dict[str, Any]) -> bool:
    """The vocabulary's RANGE (a count, a power, a level): ``min`` <= n <= ``max``, each when given."""
    return (span.get("min") is None or n >= span["min"]) and (span.get("max") is None or n <= span["max"])


def build(request: CaseRequest, trace: Trace) -> State:
    board = build_board(request.setup, request.cards, ZONES, trace)
    state = State(board=board, trace=trace)
    state.ijin_guardians = {c.id for c in state.on_battlefield() if state.is_guardian(c) and state.is_ijin(c)}
    return state


def project(state: State) -> dict[str, Any]:
    """The final-state projection of PROCEDURE.md."""
    players = {}
    for p, zones in state.board.project_zones().items():
        players[p] = {**zones, "battle_declared": state.battle_declared}
    cards = {}
    for c in state.board.cards.values():
        cards[c.id] = {
            "zone": c.zone, "owner": c.owner, "sleeping": c.tapped,
            "attacker": state.is_attacker(c.id), "blocker": state.is_blocker(c.id),
            "destroyed": c.id in state.destroyed, "ijin": state.is_ijin(c), "guardian": state.is_guardian(c),
            "power": state.power(c), "abilities": sorted({a for a, _ in state.abilities(c)}),
        }
    return {"players": players, "cards": cards}
