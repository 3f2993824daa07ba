"""Three-way agreement on block boards: z3 enumeration, brute force, and the reference engine's verdicts.

``python -m oracle.smt.agree [--game G] [--max-cards K]`` runs the exhaustive check deeper than CI does
(the tests use K = 3).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field

from ..errors import Unreachable
from . import brute, verdicts
from .block_board import BlockBoard
from .enumerate import boards
from .solver import BlockModel


@dataclass
class Agreement:
    boards: int = 0
    declarations: int = 0
    unreachable: int = 0
    problems: list[str] = field(default_factory=list)


def disagreements(board: BlockBoard, model: BlockModel | None = None) -> list[str]:
    """Each declaration on which the solver and the reference engine differ (besides the counts: the
    engine's own enumeration of the legal declarations, in :func:`check`)."""
    model = model or BlockModel(board)
    out = []
    for d in board.declarations():
        solver, engine = model.legal(d), verdicts.engine_legal(board, d)
        if solver != engine:
            out.append(f"{d}: solver {'legal' if solver else 'illegal'}, engine {'legal' if engine else 'illegal'}")
    return out


def check(board: BlockBoard, into: Agreement) -> None:
    model = BlockModel(board)
    try:
        bad = disagreements(board, model)
    except Unreachable:
        into.unreachable += 1
        return
    into.boards += 1
    into.declarations += sum(1 for _ in board.declarations())
    z3_count, brute_count = model.count(), brute.count(board)
    if z3_count != brute_count:
        bad.append(f"count: z3 {z3_count}, brute force {brute_count}")
    enumerated = verdicts.engine_count(board)
    if enumerated is not None and enumerated != z3_count:
        bad.append(f"count: z3 {z3_count}, the engine's own enumeration {enumerated}")
    if model.divide() != brute.divide(board):
        bad.append(f"divide: z3 {model.divide()}, brute force {brute.divide(board)}")
    if bad:
        into.problems.append(board.describe() + "\n    " + "\n    ".join(bad))


def agree(game: str, max_cards: int) -> Agreement:
    out = Agreement()
    for board in boards(game, max_cards):
        check(board, out)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m oracle.smt.agree", description=__doc__.split("\n\n")[0])
    p.add_argument("--game", action="append")
    p.add_argument("--max-cards", type=int, default=3)
    args = p.parse_args(argv)
    failed = False
    for game in args.game or ["ijinden", "duelmasters", "mtg"]:
        a = agree(game, args.max_cards)
        print(f"{game}: {a.boards} boards, {a.declarations} declarations, {len(a.problems)} disagreements")
        for prob in a.problems:
            print(prob)
        failed |= bool(a.problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
