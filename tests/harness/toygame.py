"""A tiny toy game for harness tests (not a real card game): one attack, one optional block.

toy:1 the active player may attack with one untapped card of theirs (or end the turn);
toy:2 the attacker taps and attacks (one moment);
toy:3 the other player blocks with one untapped card of theirs, or not (args null);
toy:4 an unblocked attack wins the game;
toy:5 a blocked attack: the card with less power goes to the graveyard; equal powers: both, at once.
"""

from __future__ import annotations

from oracle.core.board import Board, Card, build_board
from oracle.core.game import run_procedure
from oracle.core.script import GameOver, Refusal
from oracle.core.vocabulary import CORE_EVENTS, CORE_REASONS, DecisionSpec, EventSpec, Vocabulary, specs

ZONES = ("battlefield", "hand", "deck", "graveyard")

VOCABULARY = Vocabulary(
    game="toy",
    events=specs(*CORE_EVENTS,
                 EventSpec("tapped", ("card",), "toy:2 the attacker taps", "card"),
                 EventSpec("attacked", ("card", "player"), "toy:2 a card attacks", "card"),
                 EventSpec("blocked", ("card", "by"), "toy:3 the attacker is blocked", "card")),
    decisions=specs(DecisionSpec("attack", "card", "toy:1"), DecisionSpec("block", "card | null", "toy:3"),
                    DecisionSpec("end_turn", "null", "toy:1")),
    reasons={**CORE_REASONS, "attacker_not_yours": "toy:1", "attacker_tapped": "toy:1",
             "blocker_not_yours": "toy:3", "blocker_tapped": "toy:3"},
    zones=ZONES,
    abilities={},
    player_fields={},
    card_fields={"zone": "zone", "tapped": "bool", "power": "int"},
)


def build(req, trace) -> Board:
    return build_board(req.setup, req.cards, ZONES, trace)


def _own_untapped(board: Board, player: str, cid, not_yours: str, tapped: str) -> Card:
    card = board.cards.get(cid) if isinstance(cid, str) else None
    if card is None:
        raise Refusal("unknown_object")
    if card.zone != "battlefield" or card.controller != player:
        raise Refusal(not_yours)
    if card.tapped:
        raise Refusal(tapped)
    return card


def play(board: Board, script) -> None:
    trace = board.trace
    active = board.active
    defender = board.opponents(active)[0]
    got = script.decide(active, ("attack", "end_turn"), "toy:1",
                        lambda d: _own_untapped(board, active, d.args, "attacker_not_yours", "attacker_tapped")
                        if d.kind == "attack" else None, optional=True)
    if got is None or got[0].kind == "end_turn":
        return
    attacker = got[1]
    with trace.simultaneous():
        attacker.tapped = True
        trace.emit("tapped", "toy:2", card=attacker.id)
        trace.emit("attacked", "toy:2", card=attacker.id, player=active)
    _, blocker = script.decide(defender, ("block",), "toy:3",
                               lambda d: None if d.args is None else
                               _own_untapped(board, defender, d.args, "blocker_not_yours", "blocker_tapped"))
    if blocker is None:
        trace.emit("won", "toy:4", player=active)
        raise GameOver(active)
    trace.emit("blocked", "toy:3", card=attacker.id, by=blocker.id)
    a, b = attacker.power or 0, blocker.power or 0
    losers = [c for c, lose in ((attacker, a <= b), (blocker, b <= a)) if lose]
    with trace.simultaneous():
        for c in losers:
            board.move(c.id, "graveyard", "toy:5")


def project(board: Board) -> dict:
    return {"players": board.project_zones(),
            "cards": {c.id: {"zone": c.zone, "tapped": c.tapped, "power": c.power}
                      for c in board.cards.values() if c.name is not None}}


class Toy:
    name = "toy"
    title = "Toy duel (test fixture)"
    seed = ""
    vocabulary = VOCABULARY

    def run(self, request):
        return run_procedure(request, build, play, project)


GAME = Toy()
