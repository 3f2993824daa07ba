"""Magic block requirements (CR 509.1c): z3's Optimize, the brute force and the reference engine's verdicts
agree on every small board with requirements."""

from __future__ import annotations

from dataclasses import replace

import pytest

from oracle.smt import brute
from oracle.smt.block_board import Attack, BlockBoard, BlockCard
from oracle.smt.enumerate import boards
from oracle.smt.requirements import legal_declarations

F = frozenset


def with_requirements(board: BlockBoard):
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


@pytest.mark.slow  # 63 s at -n 2, 2026-12-02 (every board of up to 3 cards, with each requirement)
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
    board = BlockBoard("mtg", "alice", ("alice", "bob"),
                  (BlockCard("m", "alice", "creature", power=3, keywords=F({"menace", "must_be_blocked"})),
                   BlockCard("b1", "bob", "creature", power=2), BlockCard("b2", "bob", "creature", power=2)),
                  (Attack("m", "bob"),))
    assert legal_declarations(board) == [(("b1", "m"), ("b2", "m"))]
    assert brute.legal_with_requirements(board) == [(("b1", "m"), ("b2", "m"))]


def test_an_unobeyable_requirement_leaves_every_restriction_legal_declaration():
    """A flier that must be blocked, with no flier or reach to block it: no declaration can obey it, so
    every declaration that breaks no restriction stays legal (509.1c maximises; it does not forbid)."""
    board = BlockBoard("mtg", "alice", ("alice", "bob"),
                  (BlockCard("f", "alice", "creature", power=2, keywords=F({"flying", "must_be_blocked"})),
                   BlockCard("g", "bob", "creature", power=2)),
                  (Attack("f", "bob"),))
    assert legal_declarations(board) == [()]


@pytest.mark.slow  # 127 s at -n 2, 2026-12-02: the longest test of the suite
def test_the_engine_agrees_with_optimize_and_brute_force_on_every_small_board():
    """Issue 12 item 3 for 509.1c: on every board of up to 3 cards, with each requirement added, the reference
    engine accepts a block declaration exactly when the Optimize model and the brute force call it legal."""
    from oracle.smt import verdicts

    checked = 0
    for board in boards("mtg", 3):
        for b in with_requirements(board):
            legal = set(legal_declarations(b))
            assert legal == set(brute.legal_with_requirements(b)), b.describe()
            for d in b.declarations():
                assert verdicts.engine_legal(b, d) == (d in legal), f"{b.describe()}\n  declaration {d}"
                checked += 1
    assert checked > 5000
