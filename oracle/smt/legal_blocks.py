"""The ``legal_blocks`` capability: the reference engine's answer, and the check of any engine's answers
against the block-count files (``cases/<game>/block_counts.yaml``).

The reference answer judges every declaration of the board with the reference engine itself
(:func:`oracle.smt.verdicts.engine_legal`); no z3 here.
"""

from __future__ import annotations

from typing import Any, Callable

from ..loader import load_cards
from ..model import LegalBlocksReply, LegalBlocksRequest, Setup
from ..model import ScriptEntry
from .block_board import BlockBoard
from .convert import board_of_case
from .counts import board_of, load_counts
from .verdicts import _attack_entries, _ruleset, engine_legal, setup


class _CaseView:
    """What :func:`board_of_case` reads of a case, from a request."""

    def __init__(self, game: str, setup_: dict[str, Any], script: list[dict[str, Any]]) -> None:
        self.game, self.id = game, "legal_blocks"
        self.setup = Setup.model_validate(setup_)
        self.script = [ScriptEntry.model_validate(e) for e in script]


def request_of(board: BlockBoard, id_: str, enumerate_: bool = False) -> LegalBlocksRequest:
    """The ``legal_blocks`` request for a board (the attack as the script)."""
    st = setup(board)
    pool = load_cards(board.game)
    names = {c["card"] for p in st["players"].values() for z in p.values() if isinstance(z, list) for c in z}
    return LegalBlocksRequest(id=id_, game=board.game, ruleset=_ruleset(board.game), setup=st,
                              script=_attack_entries(board), enumerate=enumerate_,
                              cards={n: pool[n].model_dump(mode="json", exclude_none=True) for n in names})


def reference_answer(request: LegalBlocksRequest) -> LegalBlocksReply:
    """The reference engine's reply: every declaration of the board, judged by the engine."""
    board, why = board_of_case(_CaseView(request.game, request.setup, request.script))  # type: ignore[arg-type]
    if board is None:
        raise ValueError(f"legal_blocks: {why}")
    legal = [d for d in board.declarations() if engine_legal(board, d)]
    divide = {a: sum(1 for d in legal if any(att == a for _, att in d)) for a in board.attackers}
    return LegalBlocksReply(id=request.id, count=len(legal), divide=divide,
                            declarations=[list(d) for d in legal] if request.enumerate else None)


def check_engine(answer: Callable[[LegalBlocksRequest], LegalBlocksReply], game: str) -> list[str]:
    """Each block-count entry of ``game`` on which ``answer`` (an engine's legal_blocks) disagrees."""
    out = []
    for entry in load_counts(game).entries:
        board = board_of(game, entry)
        if board.shield_chosen:
            continue  # the request has no field for a chosen shield: those entries check the reference only
        reply = answer(request_of(board, entry.id))
        if reply.count != entry.count or (reply.divide is not None and reply.divide != entry.divide):
            out.append(f"{entry.id}: expected {entry.count} {entry.divide}, the engine says {reply.count} {reply.divide}")
    return out
