"""core.board.build_board: the one way a game builds its board from a setup (its ``place`` hook makes the card)."""

from __future__ import annotations

from oracle.core.board import Card, build_board, card_from_setup
from oracle.core.trace import Trace

SETUP = {"active": "alice", "players": {
    "alice": {"battlefield": [{"id": "a1", "card": "Bear"}, {"id": "a2", "card": "Bear", "tapped": True}], "deck": 2},
    "bob": {"hand": [{"id": "b1", "card": "Elf", "owner": "alice"}]}}}
CARDS = {"Bear": {"power": 2}, "Elf": {"power": 1}}


def test_the_default_places_each_setup_card_as_card_from_setup_makes_it():
    board = build_board(SETUP, CARDS, ("battlefield", "hand", "deck"), Trace())
    assert board.zone("alice", "battlefield") == ["a1", "a2"] and board.cards["a2"].tapped
    assert board.zone("alice", "deck") == ["alice.deck.1", "alice.deck.2"]
    assert board.cards["b1"].owner == "alice" and board.zone("alice", "hand") == ["b1"]  # held by its owner
    assert board.cards["a1"].power == 2


def test_the_place_hook_makes_the_games_card_and_the_board_places_it():
    seen = []

    def place(cs, player, zone) -> Card:
        seen.append((cs["id"], player, zone))
        card = card_from_setup(cs, player, zone, CARDS.get(cs["card"], {}))
        card.props["mine"] = True
        return card

    board = build_board(SETUP, CARDS, ("battlefield", "hand", "deck"), Trace(), place=place)
    assert seen == [("a1", "alice", "battlefield"), ("a2", "alice", "battlefield"), ("b1", "bob", "hand")]
    assert board.zone("alice", "battlefield") == ["a1", "a2"] and board.cards["b1"].props == {"mine": True}
    assert "alice.deck.1" in board.cards  # anonymous cards are the board's own


def test_a_hook_that_returns_none_keeps_the_card_to_place_it_itself():
    kept = []
    board = build_board(SETUP, CARDS, ("battlefield", "hand", "deck"), Trace(),
                        place=lambda cs, player, zone: kept.append(card_from_setup(cs, player, zone, {})))
    assert [c.id for c in kept] == ["a1", "a2", "b1"] and board.zone("alice", "battlefield") == []
