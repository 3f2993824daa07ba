"""Magic's pseudo-legal decisions, for :mod:`oracle.core.legality` (which filters them through the engine's
own validators in ``combat.py``, ``casting.py`` and ``battles.py``: no rule is repeated here).

Candidates per kind (finite; the validators keep the legal ones):
- ``cast``: every card in the deciding player's hand (601.2a), with 0, 1 or 2 distinct targets among the
  players and the permanents (115.1; no spell of the pool takes more than two).
- ``pass``, ``end_main``, ``concede``: their one form; ``cast_transformed``: true or false, or ``{targets: [...]}`` with 1 or 2
  distinct targets among the players and the permanents (310.11b, 601.2c).
- ``choose_protector``: every player (310.8a, 310.11a).
- ``choose_targets``: for the composed ability going on the stack (the top of the stack), every choice of its
  ``count`` distinct players and permanents for each target it chooses, by name (603.3d, 601.2c).
- ``choose_copy``: null or any permanent (707.2). ``use_optional``: true or false (603.5). ``discard``: every set of cards of the deciding player's hand (701.9b).
- ``proliferate``: every set of distinct players and permanents (701.34a), as a set.
- ``declare_attackers``: every map of some of the active player's permanents to an attack target, a player
  or a permanent (508.1a, 508.1b, 310.8b), as a set of pairs.
- ``declare_blockers``: every map of some of the deciding player's permanents to an attacking creature
  (509.1a), as a set of pairs.
- ``assign_combat_damage``: for every attacker whose assignment is a choice in this combat damage step
  (combat.assignment_choices: blocked by two or more creatures, 510.1c; or a trampler whose power exceeds its
  blockers' lethal damage, 702.19b), every order of its recipients (its blockers, and for a trampler what it
  attacks) and every split of its power among them in whole non-negative amounts (finite: they add up to its
  power); the order as written is part of the decision.
"""

from __future__ import annotations

import itertools
from typing import Any, Hashable, Iterator

from ...core.legality import assignments, freeze
from ...core.script import DecisionPoint
from .combat import assignment_choices
from .state import State

ENUMERATED = frozenset({"cast", "pass", "end_main", "cast_transformed", "choose_protector", "declare_attackers",
                        "declare_blockers", "assign_combat_damage", "proliferate", "concede", "choose_targets",
                        "use_optional", "discard", "choose_copy"})
UNENUMERATED: dict[str, str] = {}
"""Every Magic decision of the engine has finitely many forms (damage splits add up to the power)."""


def _splits(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to write ``total`` as ``parts`` ordered non-negative whole amounts."""
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _splits(total - first, parts - 1):
            yield (first, *rest)


def _damage_assignments(st: State) -> Iterator[dict[str, dict[str, int]]]:
    per_attacker = []
    for aid, recipients in assignment_choices(st).items():
        power = max(st.pt(st.card(aid))[0], 0)
        per_attacker.append([(aid, dict(zip(order, amounts)))
                             for order in itertools.permutations(recipients)
                             for amounts in _splits(power, len(recipients))])
    for combo in itertools.product(*per_attacker):
        yield dict(combo)


def candidates(st: State, point: DecisionPoint) -> Iterator[tuple[str, Any]]:
    board, player = st.board, point.player
    mine = [c.id for c in st.battlefield() if c.controller == player]
    permanents = [c.id for c in st.battlefield()]
    for kind in point.kinds:
        if kind in ("pass", "end_main", "concede"):
            yield kind, None
        elif kind == "cast_transformed":
            yield kind, True
            yield kind, False
            targets = [*board.players, *permanents]
            for n in (1, 2):  # a back face with targets is given them as it is cast (601.2c)
                for chosen in itertools.permutations(targets, n):
                    yield kind, {"targets": list(chosen)}
        elif kind == "choose_protector":
            yield from ((kind, p) for p in board.players)
        elif kind == "cast":
            targets = [*board.players, *permanents]
            for cid in board.zone(player, "hand"):
                for n in range(3):
                    for chosen in itertools.permutations(targets, n):
                        yield kind, {"card": cid, "targets": list(chosen)}
        elif kind == "declare_attackers":
            for attacks in assignments(mine, [*board.players, *permanents]):
                yield kind, attacks
        elif kind == "declare_blockers":
            attackers = list(st.combat.attackers) if st.combat else []
            for blocks in assignments(mine, attackers):
                yield kind, blocks
        elif kind == "proliferate":  # every set of distinct players and permanents (701.34a), in one order
            chosen = [*board.players, *permanents]
            for n in range(len(chosen) + 1):
                for subset in itertools.combinations(chosen, n):
                    yield kind, list(subset)
        elif kind == "assign_combat_damage":
            for split in _damage_assignments(st):
                yield kind, split
        elif kind == "choose_copy":  # 707.2: any permanent, or none
            yield kind, None
            yield from ((kind, cid) for cid in permanents)
        elif kind == "use_optional":
            yield kind, True
            yield kind, False
        elif kind == "discard":
            hand = list(board.zone(player, "hand"))
            for n in range(1, len(hand) + 1):
                for subset in itertools.combinations(hand, n):
                    yield kind, list(subset)
        elif kind == "choose_targets":
            ab = st.stack[-1].data.get("composed") if st.stack else None
            chosen = [t for t in ab.targets if not t.every] if ab else []
            options = [*board.players, *permanents]
            per_target = [[(t.name, list(ids)) for ids in itertools.permutations(options, int(t.count))]
                          for t in chosen]
            for combo in itertools.product(*per_target):
                yield kind, dict(combo)


def key(kind: str, parsed: Any) -> Hashable:
    """Declarations are sets of pairs; a damage split keeps its order (510.1c); a cast is its card and
    its targets in order."""
    if kind == "assign_combat_damage":
        return frozenset((aid, tuple(split.items())) for aid, split in parsed.items())
    if kind == "cast":
        return parsed[0], tuple(parsed[1])
    if kind in ("proliferate", "discard"):
        return frozenset(parsed)
    if kind == "choose_targets":
        return frozenset((name, frozenset(ids)) for name, ids in parsed.items())
    if kind == "cast_transformed":  # None: not cast; a list: cast with these targets (in order)
        return None if parsed is None else tuple(parsed)
    return freeze(parsed)
