"""Players, zones and cards: the plain-data state every game builds on.

Cards are named by the case's own ids; anonymous cards (``deck: 10``) get derived ids
``<player>.<zone>.<n>`` counted from the top. Every zone change goes through :meth:`Board.move`,
which emits the ``moved`` event tagged with the clause that moved the card.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from .trace import Trace


@dataclass(slots=True)
class Card:
    id: str
    name: str | None
    owner: str
    controller: str
    zone: str
    definition: dict[str, Any] = field(default_factory=dict)
    tapped: bool = False
    entered_this_turn: bool = False
    power: int | None = None
    level: int | None = None
    abilities: list[tuple[str, Any]] = field(default_factory=list)
    counters: dict[str, int] = field(default_factory=dict)
    props: dict[str, Any] = field(default_factory=dict)

    def has(self, ability: str) -> bool:
        return any(a == ability for a, _ in self.abilities)

    def params(self, ability: str) -> list[Any]:
        return [p for a, p in self.abilities if a == ability]


def normalize_abilities(refs: Iterable[Any]) -> list[tuple[str, Any]]:
    """``['double_pressure', {'attack_plus': 1000}]`` -> ``[('double_pressure', None), ('attack_plus', 1000)]``."""
    out: list[tuple[str, Any]] = []
    for ref in refs:
        if isinstance(ref, str):
            out.append((ref, None))
        else:
            (name, params), = ref.items()
            out.append((name, params))
    return out


class Board:
    """Zones per player (ordered, top first) and every card by id."""

    __slots__ = ("players", "active", "zones", "cards", "trace", "zone_names")

    def __init__(self, players: list[str], active: str, zone_names: tuple[str, ...], trace: Trace) -> None:
        self.players = players
        self.active = active
        self.zone_names = zone_names
        self.zones: dict[tuple[str, str], list[str]] = {(p, z): [] for p in players for z in zone_names}
        self.cards: dict[str, Card] = {}
        self.trace = trace

    # -- building --------------------------------------------------------------------------
    def place(self, card: Card) -> Card:
        self.cards[card.id] = card
        self.zones[(card.owner if card.zone != "battlefield" else card.controller, card.zone)].append(card.id)
        return card

    def fill_anonymous(self, player: str, zone: str, count: int) -> None:
        for n in range(1, count + 1):
            self.place(Card(id=f"{player}.{zone}.{n}", name=None, owner=player, controller=player, zone=zone))

    # -- queries ---------------------------------------------------------------------------
    def zone(self, player: str, zone: str) -> list[str]:
        return self.zones[(player, zone)]

    def in_zone(self, player: str, zone: str) -> list[Card]:
        return [self.cards[c] for c in self.zones[(player, zone)]]

    def opponents(self, player: str) -> list[str]:
        return [p for p in self.players if p != player]

    def holder(self, card: Card) -> str:
        """The player whose zone holds the card (controller on the battlefield, owner elsewhere)."""
        return card.controller if card.zone == "battlefield" else card.owner

    # -- changes ---------------------------------------------------------------------------
    def move(self, card_id: str, to_zone: str, clause: str, *, bottom: bool = False) -> Card:
        """Move a card to its owner's ``to_zone`` (battlefield: its controller's); emits ``moved``."""
        card = self.cards[card_id]
        src = card.zone
        self.zones[(self.holder(card), src)].remove(card_id)
        card.zone = to_zone
        if to_zone != "battlefield":
            card.controller = card.owner
        dest = self.zones[(self.holder(card), to_zone)]
        dest.append(card_id) if bottom or to_zone != "deck" else dest.insert(0, card_id)
        self.trace.emit("moved", clause, card=card_id, player=card.owner, **{"from": src, "to": to_zone})
        return card

    def draw(self, player: str, count: int, clause: str) -> list[str]:
        """Draw ``count`` from the top of the deck: one ``drew`` event (the cards move to hand)."""
        deck = self.zones[(player, "deck")]
        drawn = deck[:count]
        del deck[:count]
        for cid in drawn:
            self.cards[cid].zone = "hand"
            self.zones[(player, "hand")].append(cid)
        self.trace.emit("drew", clause, player=player, count=len(drawn))
        return drawn

    # -- projection ------------------------------------------------------------------------
    def project_zones(self) -> dict[str, dict[str, list[str]]]:
        return {p: {z: list(self.zones[(p, z)]) for z in self.zone_names} for p in self.players}


def card_from_setup(cs: dict[str, Any], player: str, zone: str, definition: dict[str, Any]) -> Card:
    """A card of the setup: owner and controller default to the player whose zone holds it; its
    abilities are the card pool's plus those the setup adds; a power the setup gives overrides."""
    power = cs.get("power")
    return Card(
        id=cs["id"], name=cs["card"], owner=cs.get("owner") or player, controller=cs.get("controller") or player,
        zone=zone, definition=definition, tapped=bool(cs.get("tapped", False)),
        entered_this_turn=bool(cs.get("entered_this_turn", False)),
        power=power if power is not None else definition.get("power"),
        level=cs["level"] if cs.get("level") is not None else definition.get("level"),
        abilities=normalize_abilities(list(definition.get("abilities", [])) + list(cs.get("abilities", []))),
        counters=dict(cs.get("counters") or {}), props=dict(cs.get("props") or {}))


def build_board(setup: dict[str, Any], cards: dict[str, dict[str, Any]], zone_names: tuple[str, ...],
                trace: Trace, place: Any = None) -> Board:
    """The board of a request's setup: every zone of every player, in turn order. ``place(cs, player,
    zone)`` makes the game's card of one setup card (default: :func:`card_from_setup`), which is then placed
    (:meth:`Board.place`); a hook that returns ``None`` keeps the card to place it itself."""
    board = Board(list(setup["players"]), setup["active"], zone_names, trace)
    for pid, pdata in setup["players"].items():
        for zone in zone_names:
            content = pdata.get(zone)
            if content is None:
                continue
            if isinstance(content, int):
                board.fill_anonymous(pid, zone, content)
            else:
                for cs in content:
                    card = card_from_setup(cs, pid, zone, cards.get(cs["card"], {})) if place is None \
                        else place(cs, pid, zone)
                    if card is not None:
                        board.place(card)
    return board
