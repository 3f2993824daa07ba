"""Every block board up to a number of cards, per game, for the agreement checks and the bench.

Each card is drawn from a small set of templates that covers every attribute the blocking rules read
(controller, kind, tapped, ブロッカー, 可能であればブロックする, flying/reach/menace, pressure, what is attacked);
boards that differ only by the order of their cards are generated once (candidates and attackers as multisets).
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations_with_replacement
from typing import Iterator

from .block_board import Attack, BlockBoard, BlockCard

A, B = "alice", "bob"
_F = frozenset


def _candidates(game: str) -> list[BlockCard]:
    if game == "ijinden":
        return [BlockCard("?", p, k, tapped=t, power=1000) for p in (A, B) for k in ("ijin", "guardian") for t in (False, True)]
    if game == "duelmasters":
        return ([BlockCard("?", p, "creature", tapped=t, power=2000, keywords=kw)
                 for p in (A, B) for t in (False, True) for kw in (_F(), _F({"blocker"}))]
                # 可能であればブロックする, with and without ブロッカー, on the defender's side
                + [BlockCard("?", B, "creature", tapped=t, power=2000, keywords=kw)
                   for t in (False, True) for kw in (_F({"blocks_if_able", "blocker"}), _F({"blocks_if_able"}))])
    return ([BlockCard("?", p, "creature", tapped=t, power=2, keywords=kw)
             for p in (A, B) for t in (False, True) for kw in (_F(), _F({"flying"}), _F({"reach"}))]
            + [BlockCard("?", A, "battle", protector=B), BlockCard("?", B, "battle", protector=B)])


def _attackers(game: str) -> list[BlockCard]:
    if game == "ijinden":
        return [BlockCard("?", A, "ijin", power=2000, pressure=n) for n in (1, 2, 3)]
    if game == "duelmasters":
        return [BlockCard("?", A, "creature", power=3000)]
    return [BlockCard("?", A, "creature", power=3, keywords=kw) for kw in (_F(), _F({"flying"}), _F({"menace"}))]


def boards(game: str, max_cards: int, *, min_cards: int = 1) -> Iterator[BlockBoard]:
    """Every board of ``game`` with ``min_cards`` to ``max_cards`` cards (at least one attacker)."""
    cands, atts = _candidates(game), _attackers(game)
    max_attackers = 1 if game == "duelmasters" else max_cards
    for size in range(max(min_cards, 1), max_cards + 1):
        for n_att in range(1, min(size, max_attackers) + 1):
            for att in combinations_with_replacement(range(len(atts)), n_att):
                for cand in combinations_with_replacement(range(len(cands)), size - n_att):
                    yield from _boards(game, [atts[i] for i in att], [cands[i] for i in cand])


def _boards(game: str, att: list[BlockCard], cand: list[BlockCard]) -> Iterator[BlockBoard]:
    attackers = [replace(c, id=f"a{n + 1}") for n, c in enumerate(att)]
    candidates = [replace(c, id=f"c{n + 1}") for n, c in enumerate(cand)]
    cards = tuple(attackers + candidates)
    if game == "ijinden":
        yield BlockBoard(game, A, (A, B), cards, tuple(Attack(a.id, B) for a in attackers))
    elif game == "duelmasters":
        # a shield is never chosen in an attack a creature had to block (可能であればブロックする, untapped ブロッカー):
        # the block was made (the board the reference would have to reach is not one of an attack)
        required = any({"blocks_if_able", "blocker"} <= c.keywords and not c.tapped and c.controller == B
                       for c in candidates)
        for shield_chosen in (False, True)[:1 if required else 2]:
            yield BlockBoard(game, A, (A, B), cards, (Attack(attackers[0].id, B),), shield_chosen=shield_chosen)
        for c in candidates:  # C1: an attack on a tapped creature of the opponent
            if c.controller == B and c.tapped:
                yield BlockBoard(game, A, (A, B), cards, (Attack(attackers[0].id, c.id),))
    else:
        targets = [B] + [c.id for c in candidates if c.kind == "battle"]  # 310.8b: bob protects every battle
        yield from _mtg_targets(cards, attackers, targets)


def _mtg_targets(cards: tuple[BlockCard, ...], attackers: list[BlockCard], targets: list[str]) -> Iterator[BlockBoard]:
    def assign(i: int, chosen: list[str]) -> Iterator[list[str]]:
        if i == len(attackers):
            yield chosen
            return
        for t in targets:
            yield from assign(i + 1, chosen + [t])

    for chosen in assign(0, []):
        yield BlockBoard("mtg", A, (A, B), cards, tuple(Attack(a.id, t) for a, t in zip(attackers, chosen)))
