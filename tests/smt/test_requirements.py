"""Magic block requirements (CR 509.1c), the model only: z3's Optimize and the brute force agree on every
small board; the engine part is not implemented (oracle/games/mtg), so no engine verdict is compared."""

from __future__ import annotations

from dataclasses import replace

from oracle.smt import brute
from oracle.smt.boards import Attack, Board, Card
from oracle.smt.enumerate import boards
from oracle.smt.requirements import legal_declarations

F = frozenset


def with_requirements(board: Board):
    """The board with each requirement on its first attacker, and 'blocks each combat' on its first
    candidate creature."""
    first = board.attackers[0]
    cands = [c for c in board.candidates if board.card(c).kind == "creature"]
    for on_attacker in ((), ("must_be_blocked",), ("lure",)):
        for on_blocker in ((), ("blocks_each_combat",)) if cands else ((),):
            cards = []
            for c in board.cards:
                if c.id == first:
                    c = replace(c, keywords=c.keywords | F(on_attacker))
                if cands and c.id == cands[0]:
                    c = replace(c, keywords=c.keywords | F(on_blocker))
                cards.append(c)
            yield replace(board, cards=tuple(cards))


def test_optimize_and_brute_force_agree_on_every_small_board():
    checked = 0
    for board in boards("mtg", 3):
        for b in with_requirements(board):
            assert legal_declarations(b) == sorted(brute.legal_with_requirements(b)), b.describe()
            checked += 1
    assert checked > 1000


def test_menace_that_must_be_blocked_forces_the_double_block():
    """Forge issue 8244 (cited by issue 12): menace plus 'must be blocked' -- the only legal declaration is
    the forced double block."""
    board = Board("mtg", "alice", ("alice", "bob"),
                  (Card("m", "alice", "creature", power=3, keywords=F({"menace", "must_be_blocked"})),
                   Card("b1", "bob", "creature", power=2), Card("b2", "bob", "creature", power=2)),
                  (Attack("m", "bob"),))
    assert legal_declarations(board) == [(("b1", "m"), ("b2", "m"))]
    assert brute.legal_with_requirements(board) == [(("b1", "m"), ("b2", "m"))]


def test_an_unobeyable_requirement_leaves_every_restriction_legal_declaration():
    """A flier that must be blocked, with no flier or reach to block it: no declaration can obey it, so
    every declaration that breaks no restriction stays legal (509.1c maximises; it does not forbid)."""
    board = Board("mtg", "alice", ("alice", "bob"),
                  (Card("f", "alice", "creature", power=2, keywords=F({"flying", "must_be_blocked"})),
                   Card("g", "bob", "creature", power=2)),
                  (Attack("f", "bob"),))
    assert legal_declarations(board) == [()]
