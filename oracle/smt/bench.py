"""Figures for ``tcg-oracle bench``: a z3 legality verdict on a 6x6 Magic board (next to the reference
engine's and the brute force's), and block-count enumeration by z3 against the brute force."""

from __future__ import annotations

import statistics
import time
from typing import Any, Callable

from .block_board import Attack, BlockBoard, BlockCard

_F = frozenset


def magic_6x6() -> BlockBoard:
    """Six attackers (plain, flying, menace) against six potential blockers of the defender (plain,
    reach, flying, one tapped)."""
    kws = [_F(), _F({"flying"}), _F({"menace"}), _F(), _F({"flying"}), _F({"menace"})]
    attackers = [BlockCard(f"a{i + 1}", "alice", "creature", power=2, keywords=k) for i, k in enumerate(kws)]
    bkws = [_F(), _F({"reach"}), _F({"flying"}), _F(), _F(), _F({"reach"})]
    blockers = [BlockCard(f"b{i + 1}", "bob", "creature", tapped=(i == 4), power=2, keywords=k) for i, k in enumerate(bkws)]
    return BlockBoard("mtg", "alice", ("alice", "bob"), tuple(attackers + blockers),
                 tuple(Attack(a.id, "bob") for a in attackers), name="magic-6x6")


def magic_6x6_requirements() -> BlockBoard:
    """:func:`magic_6x6` with block requirements (509.1c): a1 and the menace a3 must be blocked, a4 lures, b4
    blocks each combat if able."""
    extra = {"a1": {"must_be_blocked"}, "a3": {"must_be_blocked"}, "a4": {"lure"}, "b4": {"blocks_each_combat"}}
    b = magic_6x6()
    cards = tuple(BlockCard(c.id, c.controller, c.kind, c.tapped, c.power, c.keywords | _F(extra.get(c.id, ())))
                  for c in b.cards)
    return BlockBoard(b.game, b.active, b.players, cards, b.attacks, name="magic-6x6-requirements")


def magic_menace_requirements(n: int = 16) -> BlockBoard:
    """``n`` menace attackers that must be blocked against ``n`` creatures of the defender that block each
    combat if able (issue 24: 12 of each was past the old search's bound, 16 hopeless)."""
    attackers = [BlockCard(f"m{i + 1}", "alice", "creature", power=4, keywords=_F({"menace", "must_be_blocked"}))
                 for i in range(n)]
    blockers = [BlockCard(f"y{i + 1}", "bob", "creature", power=2, keywords=_F({"blocks_each_combat"}))
                for i in range(n)]
    return BlockBoard("mtg", "alice", ("alice", "bob"), tuple(attackers + blockers),
                      tuple(Attack(a.id, "bob") for a in attackers), name=f"magic-{n}x{n}-menace-requirements")


def menace_pairs(n: int = 16) -> tuple[tuple[str, str], ...]:
    """Two blockers on each of the first n // 2 attackers of :func:`magic_menace_requirements`: every creature
    blocks and n // 2 attackers are blocked, n + n // 2 requirements, the most."""
    return tuple(sorted((f"y{2 * k + j + 1}", f"m{k + 1}") for k in range(n // 2) for j in (0, 1)))


def ijinden_2x6() -> BlockBoard:
    cards = [BlockCard("a1", "alice", "ijin", power=3000, pressure=2), BlockCard("a2", "alice", "ijin", power=2000)]
    cards += [BlockCard(f"b{i + 1}", "bob", "guardian" if i % 3 == 2 else "ijin", power=1000) for i in range(6)]
    return BlockBoard("ijinden", "alice", ("alice", "bob"), tuple(cards),
                 (Attack("a1", "bob"), Attack("a2", "bob")), name="ijinden-2x6")


def _median(fn: Callable[[], Any], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def figures(quick: bool = False) -> dict[str, Any]:
    from . import brute, verdicts
    from .solver import BlockModel

    repeats = 5 if quick else 20
    board = magic_6x6()
    decl = (("b1", "a3"), ("b2", "a2"), ("b4", "a3"))  # menace a3 double-blocked, the flier a2 by reach
    model = BlockModel(board)
    out: dict[str, Any] = {
        "verdict_board": board.name,
        "z3_build": _median(lambda: BlockModel(board), repeats),
        "z3_verdict": _median(lambda: model.legal(decl), repeats * 5),
        "engine_verdict": _median(lambda: verdicts.engine_legal(board, decl), repeats),
        "brute_verdict": _median(lambda: brute.legal(board, decl), repeats * 5),
        "verdict": model.legal(decl),
    }
    req = magic_6x6_requirements()
    req_decl = (("b1", "a1"), ("b2", "a4"), ("b3", "a4"), ("b4", "a4"), ("b6", "a4"))  # 6 of 6 obeyed
    out["requirements_board"] = req.name
    out["engine_requirements_verdict"] = _median(lambda: verdicts.engine_legal(req, req_decl), repeats)
    out["requirements_verdict"] = verdicts.engine_legal(req, req_decl)
    big = magic_menace_requirements()
    out["menace_board"] = big.name
    out["engine_menace_verdict"] = _median(lambda: verdicts.engine_legal(big, menace_pairs()), repeats)
    out["menace_verdict"] = verdicts.engine_legal(big, menace_pairs())
    small = ijinden_2x6()
    out["count_board"] = small.name
    out["count"] = BlockModel(small).count()
    out["z3_count"] = _median(lambda: BlockModel(small).count(), 1 if quick else 5)
    out["brute_count"] = _median(lambda: brute.count(small), 1 if quick else 5)
    return out


def rows(fig: dict[str, Any]) -> list[tuple[str, str]]:
    def ms(seconds: float) -> str:
        return f"{seconds * 1e6:.0f} µs" if seconds < 1e-3 else f"{seconds * 1000:.1f} ms"

    return [
        (f"z3: legality verdict, {fig['verdict_board']} (solver built once)", ms(fig["z3_verdict"])),
        ("z3: building that board's model", ms(fig["z3_build"])),
        ("reference engine / brute force: the same verdict", f"{ms(fig['engine_verdict'])} / {ms(fig['brute_verdict'])}"),
        (f"z3: enumerate the {fig['count']} legal blocks of {fig['count_board']}", ms(fig["z3_count"])),
        ("brute force: the same count", ms(fig["brute_count"])),
        (f"reference engine: legality verdict with block requirements (509.1c), {fig['requirements_board']}",
         ms(fig["engine_requirements_verdict"])),
        (f"reference engine: the same, {fig['menace_board']} (the 509.1c search at its largest common board)",
         ms(fig["engine_menace_verdict"])),
    ]
