"""Agreement (issue 12 item 3): for every board up to a few cards and for the golden cases' boards, the
z3 model's enumeration equals the brute force, and the reference engine's verdict on every declaration
equals the solver's."""

from __future__ import annotations

import pytest

from oracle.loader import load_suite
from oracle.smt import verdicts
from oracle.smt.agree import Agreement, agree, check, disagreements
from oracle.smt.block_board import Attack, BlockBoard, BlockCard
from oracle.smt.convert import board_of_case
from oracle.smt.solver import BlockModel

GAMES = ("ijinden", "duelmasters", "mtg")
K = 3
"""Exhaustive boards up to K cards (attackers included) in CI; `python -m oracle.smt.agree --max-cards N` goes deeper."""


@pytest.mark.parametrize("game", GAMES)
def test_every_small_board_agrees_three_ways(game):
    result = agree(game, K)
    assert not result.problems, "\n".join(result.problems)
    assert result.boards > 50 and result.unreachable == 0


def golden_boards(game):
    out = []
    for lc in load_suite(games=[game]).cases:
        board, _why = board_of_case(lc.case)
        if board is not None:
            out.append(board)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_golden_board_agrees_three_ways(game):
    result = Agreement()
    for board in golden_boards(game):
        check(board, result)  # a case whose attack itself is refused counts as unreachable
    assert not result.problems, "\n".join(result.problems)
    assert result.boards >= 20


def test_a_misread_model_disagrees_with_the_engine():
    """The check can fail: a model that lets a pressure-2 attacker be blocked by one Ijin disagrees."""
    board = BlockBoard("ijinden", "alice", ("alice", "bob"),
                  (BlockCard("a1", "alice", "ijin", power=2000, pressure=2), BlockCard("b1", "bob", "ijin", power=1000)),
                  (Attack("a1", "bob"),))
    assert not disagreements(board)
    bad = disagreements(board, BlockModel(board, frozenset({"pressure-minus-one"})))
    assert bad == ["(('b1', 'a1'),): solver legal, engine illegal"]


def test_engine_verdicts_see_refusals():
    """The verdict reader is not blind: on this Magic board the engine refuses the flier's block by a bear
    and accepts the archer's."""
    f = frozenset
    board = BlockBoard("mtg", "alice", ("alice", "bob"),
                  (BlockCard("a", "alice", "creature", power=2, keywords=f({"flying"})),
                   BlockCard("bear", "bob", "creature", power=2), BlockCard("archer", "bob", "creature", power=1,
                                                                   keywords=f({"reach"}))),
                  (Attack("a", "bob"),))
    assert verdicts.engine_legal(board, (("archer", "a"),)) is True
    assert verdicts.engine_legal(board, (("bear", "a"),)) is False
    assert verdicts.engine_legal(board, ()) is True


def test_unblockable_by_ijin_agrees_three_ways():
    """イジンにブロックされない (the official Q&A's card text): the solver, the brute force and the engine all refuse
    an Ijin as that attacker's blocker and accept a guardian; the other attacker may still be blocked by an Ijin."""
    f = frozenset
    board = BlockBoard("ijinden", "alice", ("alice", "bob"),
                       (BlockCard("x", "alice", "ijin", power=1000, keywords=f({"unblockable_by_ijin"})),
                        BlockCard("a", "alice", "ijin", power=1000),
                        BlockCard("b1", "bob", "ijin", power=3000), BlockCard("g", "bob", "guardian")),
                       (Attack("x", "bob"), Attack("a", "bob")))
    result = Agreement()
    check(board, result)
    assert not result.problems, "\n".join(result.problems)
    assert verdicts.engine_legal(board, (("b1", "x"),)) is False
    assert verdicts.engine_legal(board, (("g", "x"),)) is True
    assert verdicts.engine_legal(board, (("b1", "a"), ("g", "x"))) is True


def test_blocks_if_able_agrees_three_ways_and_the_misreading_does_not():
    """可能であればブロックする (CR507.1b, the seed's one blocker: X-blocks-if-able-seed): the solver, the brute force and
    the engine refuse no block and a block by the other ブロッカー; a model that lets the required one be left out
    disagrees with the engine on exactly those two declarations."""
    f = frozenset
    board = BlockBoard("duelmasters", "alice", ("alice", "bob"),
                       (BlockCard("a", "alice", "creature", power=5000),
                        BlockCard("r", "bob", "creature", power=1000, keywords=f({"blocker", "blocks_if_able"})),
                        BlockCard("x", "bob", "creature", power=1000, keywords=f({"blocker"}))),
                       (Attack("a", "bob"),))
    result = Agreement()
    check(board, result)
    assert not result.problems and result.boards == 1
    assert BlockModel(board).enumerate() == [(("r", "a"),)]
    bad = disagreements(board, BlockModel(board, frozenset({"required-left-out"})))
    assert sorted(bad) == ["(('x', 'a'),): solver legal, engine illegal", "(): solver legal, engine illegal"]
