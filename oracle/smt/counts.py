"""Block-count golden files, like chess perft: ``cases/<game>/block_counts.yaml``.

Each entry is a board, its number of legal block declarations (``count``), per attacker the number of
them that block it (``divide``, perft's divide: it localises a disagreement), the clauses, and a source:
``derivation`` (counted by hand from the rule text, the derivation written out) or ``generated`` (a
golden case's board, frozen only because the reference engine, the z3 enumeration and the brute force
agree on it). ``tests/smt/test_block_counts.py`` checks every entry three ways; an engine with the
``legal_blocks`` capability can be checked against the same file.

``python -m oracle.smt.counts --freeze GAME`` prints the entries of the golden boards not in the file yet
on which all three agree (and names those on which they do not).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from ..loader import _load_model, game_dir
from ..model import Frozen
from .block_board import Attack, BlockBoard, BlockCard


class CountCard(Frozen):
    id: str
    controller: str
    kind: Literal["ijin", "guardian", "creature", "battle"]
    power: int = 0
    tapped: bool = False
    keywords: list[Literal["blocker", "blocks_if_able", "flying", "reach", "menace", "watcher",
                                 "unblockable_by_ijin"]] = Field(default_factory=list)
    pressure: int = Field(default=1, ge=1)
    protector: str | None = None


class CountAttack(Frozen):
    attacker: str
    target: str


class CountBoard(Frozen):
    active: str
    players: list[str] = Field(min_length=2)
    cards: list[CountCard]
    attacks: list[CountAttack] = Field(min_length=1)
    shield_chosen: bool = False

    @model_validator(mode="after")
    def _names_resolve(self) -> "CountBoard":
        ids = [c.id for c in self.cards]
        if len(set(ids)) != len(ids):
            raise ValueError(f"card ids repeat: {ids}")
        for a in self.attacks:
            if a.attacker not in ids:
                raise ValueError(f"attacker {a.attacker!r} is not a card of the board")
            if a.target not in ids and a.target not in self.players:
                raise ValueError(f"attack target {a.target!r} is neither a player nor a card of the board")
        for c in self.cards:
            if c.controller not in self.players or (c.protector and c.protector not in self.players):
                raise ValueError(f"card {c.id!r} names a player not in {self.players}")
        if self.active not in self.players:
            raise ValueError(f"active player {self.active!r} is not one of {self.players}")
        return self


class CountSource(Frozen):
    kind: Literal["derivation", "generated"]
    derivation: str | None = Field(default=None, description="kind derivation: the count worked out from the rule text")
    case: str | None = Field(default=None, description="kind generated: the golden case whose board this is")
    command: str | None = None

    @model_validator(mode="after")
    def _says_where(self) -> "CountSource":
        if self.kind == "derivation" and not self.derivation:
            raise ValueError("a derivation source writes the derivation out")
        if self.kind == "generated" and not (self.case and self.command):
            raise ValueError("a generated source names its case and the command that froze it")
        return self


class CountEntry(Frozen):
    id: str
    clauses: list[str] = Field(min_length=1)
    assumptions: list[str] = Field(default_factory=list)
    board: CountBoard
    count: int = Field(ge=1)
    divide: dict[str, int]
    source: CountSource

    @model_validator(mode="after")
    def _divide_names_the_attackers(self) -> "CountEntry":
        attackers = {a.attacker for a in self.board.attacks}
        if set(self.divide) != attackers:
            raise ValueError(f"divide must name exactly the attackers {sorted(attackers)}")
        return self


class BlockCounts(Frozen):
    schema_version: Literal[1] = 1
    game: Literal["ijinden", "duelmasters", "mtg"]
    entries: list[CountEntry]


def path_of(game: str) -> Path:
    return game_dir(game) / "block_counts.yaml"


def load_counts(game: str, path: Path | None = None) -> BlockCounts:
    """The block-count file of ``game`` (errors name the file, line and field)."""
    return _load_model(path or path_of(game), BlockCounts, "block counts")


def board_of(game: str, entry: CountEntry) -> BlockBoard:
    b = entry.board
    cards = tuple(BlockCard(c.id, c.controller, c.kind, c.tapped, c.power, frozenset(c.keywords), c.pressure, c.protector)
                  for c in b.cards)
    return BlockBoard(game, b.active, tuple(b.players), cards, tuple(Attack(a.attacker, a.target) for a in b.attacks),
                 b.shield_chosen, name=entry.id)


def three_ways(board: BlockBoard) -> dict[str, tuple[int, dict[str, int]]]:
    """(count, divide) by the reference engine, the z3 enumeration and the brute force."""
    from . import brute, verdicts
    from .solver import BlockModel

    accepted = [d for d in board.declarations() if verdicts.engine_legal(board, d)]
    engine_divide = {a: sum(1 for d in accepted if any(att == a for _, att in d)) for a in board.attackers}
    model = BlockModel(board)
    return {"engine": (len(accepted), engine_divide), "z3": (model.count(), model.divide()),
            "brute force": (brute.count(board), brute.divide(board))}


def _yaml_entry(board: BlockBoard, case_id: str, count: int, divide: dict[str, int], clauses: list[str]) -> str:
    import json

    d = board.as_dict()
    lines = [f"  - id: {board.game}.counts.case.{case_id.split('.', 1)[1]}",
             f"    clauses: [{', '.join(clauses)}]",
             "    board:",
             f"      active: {d['active']}",
             f"      players: [{', '.join(d['players'])}]",
             "      cards:"]
    lines += [f"        - {json.dumps(c, ensure_ascii=False)}" for c in d["cards"]]
    lines.append(f"      attacks: {json.dumps(d['attacks'])}")
    if d.get("shield_chosen"):
        lines.append("      shield_chosen: true")
    lines += [f"    count: {count}", f"    divide: {json.dumps(divide)}",
              f"    source: {{kind: generated, case: {case_id}, command: python -m oracle.smt.counts --freeze {board.game}}}"]
    return "\n".join(lines)


BLOCK_CLAUSES = {"ijinden": ["ijinden:B1"], "duelmasters": ["duelmasters:A3"], "mtg": ["mtg:509.1a"]}


def freeze(game: str) -> int:
    from ..loader import load_suite
    from .convert import board_of_case
    from ..errors import Unreachable

    known = {e.source.case for e in load_counts(game).entries}
    shown: set = set()
    for lc in load_suite(games=[game]).cases:
        board, _ = board_of_case(lc.case)
        if board is None:
            continue
        key = str(board.as_dict())
        if key in shown or lc.case.id in known or len(board.candidates) < 2:
            continue  # one entry per distinct board; a board with fewer than two candidates says little
        shown.add(key)
        try:
            answers = three_ways(board)
        except Unreachable:
            continue
        if len(set(map(str, answers.values()))) != 1:
            print(f"# not frozen, the three disagree on {lc.case.id}: {answers}", file=sys.stderr)
            continue
        count, divide = answers["engine"]
        print(_yaml_entry(board, lc.case.id, count, divide, BLOCK_CLAUSES[game]))
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m oracle.smt.counts")
    p.add_argument("--freeze", metavar="GAME", required=True)
    args = p.parse_args(argv)
    return freeze(args.freeze)


if __name__ == "__main__":
    sys.exit(main())
