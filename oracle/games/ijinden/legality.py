"""Ijinden's pseudo-legal decisions, for :mod:`oracle.core.legality` (which filters them through the engine's
own validators in ``procedure.py`` and ``abilities.py``: no rule is repeated here).

Candidates per kind (finite; the validators keep the legal ones):
- ``declare_attackers``: every non-empty subset of the active player's battlefield cards (A1 「自分のイジン」),
  as a set: the order of the ids is not part of the declaration.
- ``declare_blockers``: every assignment of each of the defender's battlefield cards to no attacker or one
  attacker (B1), as ``{attacker: [blockers]}`` sets.
- ``choose_attacker``: every card on the battlefield (C1a: 「アタッカー1体を選ぶ」).
- ``activate``: ``{card}``, ``{card, target}``, ``{card, cost}`` for every card as the source, every card on the
  battlefield or in a graveyard (「自分の墓地の…イジン1体」) as the target and every battlefield card as the cost (a decision naming one it does not use is accepted with the unused
  one ignored, and is not listed apart: its key is what the ability took); ``decline``: every card. A composed
  ability with several targets, or one choosing several cards (issue 25), is asked ``{card, targets: {name: id |
  [ids]}, cost?}``: for the ability being resolved, every choice of its targets' offered cards (read from the
  validator: ``chosen``, ``options``), with every battlefield card as the cost when it has one. A ``sleep`` cost
  (「…をすきなだけ寝かせて」) is a list: ``{card, cost: [ids]}`` for every subset of the deciding player's battlefield
  cards, none included.
- ``order_triggers``: every order of the pending triggers of that player.
- ``discard``: every card in that player's hand (航海).
- ``end_turn``: its one form.
"""

from __future__ import annotations

import itertools
from typing import Any, Hashable, Iterator

from ...core.legality import assignments, closure, freeze, subsets
from ...core.script import DecisionPoint
from .state import State

ENUMERATED = frozenset({"declare_attackers", "end_turn", "declare_blockers", "choose_attacker", "activate", "decline", "order_triggers", "discard"})
UNENUMERATED: dict[str, str] = {}
"""Every Ijinden decision has finitely many forms that matter."""


def candidates(state: State, point: DecisionPoint) -> Iterator[tuple[str, Any]]:
    board, player = state.board, point.player
    mine = [c.id for c in state.on_battlefield(player)]
    field = [c.id for c in state.on_battlefield()]
    graves = [c for p in board.players for c in board.zone(p, "graveyard")]
    for kind in point.kinds:
        if kind == "end_turn":
            yield kind, None
        elif kind == "declare_attackers":
            for ids in subsets(mine):
                yield kind, ids
        elif kind == "declare_blockers":
            attackers = list(state.battle.attackers) if state.battle else []
            for assignment in assignments(mine, attackers):
                out: dict[str, list[str]] = {}
                for blocker, attacker in assignment.items():
                    out.setdefault(attacker, []).append(blocker)
                yield kind, out
        elif kind == "choose_attacker":
            for cid in field:
                yield kind, cid
        elif kind == "activate":
            for source in board.cards:
                yield kind, {"card": source}
                for other in field:
                    yield kind, {"card": source, "cost": other}
                for other in field + graves:
                    yield kind, {"card": source, "target": other}
            yield from _several_targets(point, field, mine)
        elif kind == "decline":
            for cid in board.cards:
                yield kind, cid
        elif kind == "order_triggers":
            for order in itertools.permutations([t.card for t in closure(point, "mine")]):
                yield kind, list(order)
        elif kind == "discard":
            for cid in board.zone(player, "hand"):
                yield kind, cid


def _costs(ab: Any, field: list[str], mine: list[str]) -> list[Any]:
    """The cost forms of a composed ability: none; every battlefield card (「…1体を墓地に置いて」); or -- a ``sleep``
    cost, 「…をすきなだけ寝かせて」 -- every list of the deciding player's battlefield cards, none included."""
    if ab.cost is None:
        return [None]
    return list(subsets(mine, empty=True)) if "sleep" in ab.cost else list(field)


def _several_targets(point: DecisionPoint, field: list[str], mine: list[str]) -> Iterator[tuple[str, Any]]:
    """``activate {card, targets}`` forms of a composed ability with several targets (or several cards for one),
    and ``activate {card, cost: [ids]}`` of one whose cost is a ``sleep``: for the ability being resolved."""
    try:
        chosen, options, single = (closure(point, n) for n in ("chosen", "options", "single"))
        t, ab = closure(point, "t"), closure(point, "ab")
    except LookupError:
        return
    if single or not chosen:
        if ab.cost is not None and "sleep" in ab.cost:  # the generic forms name one card as the cost
            for paid in _costs(ab, field, mine):
                yield "activate", {"card": t.card, "cost": paid}
                for other in field if single else ():
                    yield "activate", {"card": t.card, "target": other, "cost": paid}
        return
    per_target = []
    for target in chosen:
        legal = options[target.name]
        n = min(target.count, len(legal))
        picks = [list(c) if target.count > 1 else c[0] for c in itertools.combinations(legal, n)] if n else [None]
        per_target.append([(target.name, pick) for pick in picks])
    for combo in itertools.product(*per_target):
        targets = {name: pick for name, pick in combo if pick is not None}
        for cost in _costs(ab, field, mine):
            yield "activate", {"card": t.card, "targets": targets, **({} if cost is None else {"cost": cost})}


def key(kind: str, parsed: Any) -> Hashable:
    """A declaration is a set; the order of triggers is an order; ``activate`` is its source, target, cost."""
    if kind == "order_triggers":
        return tuple(t.card for t in parsed)
    if kind == "activate":
        cost = parsed.get("cost")
        return parsed.get("card"), freeze(parsed.get("targets") or {}), frozenset(cost) if isinstance(cost, list) else cost
    if kind == "declare_attackers":
        return frozenset(parsed)
    if kind == "declare_blockers":
        return frozenset((attacker, frozenset(blockers)) for attacker, blockers in parsed.items())
    return freeze(parsed)
