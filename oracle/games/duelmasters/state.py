"""Duel Masters state and characteristics: the attack in progress, who is a creature, power, breaks.

The state is plain data; characteristics are computed on demand (power with its pumps and パワーアタッカー).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...core.board import Board, Card, build_board, card_from_setup
from ...core.trace import Trace
from ...model import CaseRequest
from .editions import SEED
from .vocabulary import ZONES


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
    main_step: bool = True                # 504.1: before the first attack (or tap ability) of the case
    pumps: dict[str, int] = field(default_factory=dict)
    battle_pumps: dict[str, int] = field(default_factory=dict)
    """Power changes until the end of the battle (そのバトルの間): cleared when the battle (or the attack) ends."""
    waiting: list[Any] = field(default_factory=list)
    """Triggers of creatures put into the battle zone (``enters``), waiting until what put them there has resolved
    (abilities.flush)."""

    def card(self, cid: str) -> Card:
        return self.board.cards[cid]

    def opponent(self, player: str) -> str:
        return next(p for p in self.board.players if p != player)


# -- building and projecting --------------------------------------------------------------------

def build(request: CaseRequest, trace: Trace) -> State:
    """The board of the setup through :func:`~oracle.core.board.build_board`: each card's printed props
    (civilization ...) under the setup's, and an evolution creature's sources (進化元): a battle-zone card
    marked ``attached_to: <creature id>`` lies under that creature -- a card in the battle zone, not a
    creature (it neither attacks, blocks nor is chosen) until the creature leaves."""

    def place(cs: dict[str, Any], player: str, zone: str) -> Card:
        card = card_from_setup(cs, player, zone, request.cards.get(cs["card"], {}))
        card.props = {**card.definition.get("props", {}), **card.props}
        if zone == "battlefield" and cs.get("attached_to"):
            card.props["under"] = cs["attached_to"]
        return card

    board = build_board(request.setup, request.cards, ZONES, trace, place=place)
    return State(board, trace, request.setup["active"], ruleset=request.ruleset)


def project(st: State) -> dict[str, Any]:
    b = st.board
    cards = {cid: {"zone": c.zone, "owner": c.owner, "tapped": c.tapped,
                   "power": power(st, c) if c.zone == "battlefield" else c.power,
                   "abilities": [a for a, _ in c.abilities]}
             for cid, c in b.cards.items()}
    return {"players": b.project_zones(), "cards": cards}


# -- characteristics ----------------------------------------------------------------------------

def in_play(st: State, cid: str | None) -> bool:
    """A creature in the battle zone (an evolution source under a creature is a card there, not a creature)."""
    return (cid is not None and cid in st.board.cards and st.board.cards[cid].zone == "battlefield"
            and not is_source(st.board.cards[cid]))


def is_source(card: Card) -> bool:
    """進化元: a card of the setup marked ``attached_to: <evolution creature>`` lies under that creature."""
    return card.zone == "battlefield" and bool(card.props.get("under"))


def creatures(st: State, player: str) -> list[Card]:
    return [c for c in st.board.in_zone(player, "battlefield") if not is_source(c)]


def sick(card: Card) -> bool:
    """P2/N1: put into the battle zone this turn, and neither 進化 nor スピードアタッカー."""
    return card.entered_this_turn and not (card.has("evolution") or card.has("speed_attacker"))


def could_attack(card: Card) -> bool:
    """N2: the state a tap ability needs: a creature that could attack (untapped is checked apart, by the caller)."""
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
