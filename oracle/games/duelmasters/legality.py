"""Duel Masters' decisions: how one is asked (:func:`decide`), and the pseudo-legal ones for
:mod:`oracle.core.legality` (which filters them through the engine's own validators in ``procedure.py`` and
``abilities.py``: no rule is repeated here).

Candidates per kind (finite; the validators keep the legal ones):
- ``attack``: every battlefield card of the active player as the attacker (P1), against every player and
  every card on the battlefield or in the shields (P4, A1, C1).
- ``tap_ability``: every battlefield card of the deciding player (P3, N2).
- ``block``: every battlefield card of the defender (A3); under the current rules also every ordered list of
  two or more of them (CR507.1a: chosen at once, used in that order); ``no_block``, ``end_turn``: their one form.
- ``choose_shield``: every shield of every player (U2).
- ``use`` / ``decline``: every card in the deciding player's hand, shields or battle zone (ダイナモ is
  declined at the beginning of a battle, N2), and the card of an optional trigger wherever it is; ``use`` also with each
  card of that player's shields as the Ｓ・バック discard (CR113.6).
- ``choose_target``: every card on the battlefield; for a composed target of ``n`` creatures, every set of ``n``
  of them (a list).
- ``discard``: every card in the deciding player's hand.
- ``choose_card``: every card of the looked-at ones to take, the rest to the bottom in every order.
- ``summon``: every card of the deciding player's hand, with every set of the cards of their mana zone (in the zone's
  order) as `mana`, onto no card and onto every battlefield card.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, Hashable, Iterator

from ...core.board import Card
from ...core.legality import closure, freeze
from ...core.script import Decision, DecisionPoint, Refusal, Script
from .clauses import U3
from .editions import SEVERAL_BLOCKERS
from .state import State

ENUMERATED = frozenset({"attack", "tap_ability", "end_turn", "block", "no_block", "choose_shield", "use", "decline",
                        "choose_target", "choose_card", "discard", "summon"})
UNENUMERATED: dict[str, str] = {}
"""Every Duel Masters decision has finitely many forms that matter."""


def decide(st: State, script: Script, player: str, kinds: tuple[str, ...], clause: str,
           validate: Callable[[Decision], Any], *, optional: bool = False):
    """:meth:`Script.decide`, where a ``block`` asked for no longer is refused under U3 once a shield of the
    attack has been chosen (``block_after_shield_chosen``); any other decision of another kind is
    ``unexpected_decision``."""

    def other(d: Decision) -> str | Refusal:
        if d.kind == "block" and (st.shield_chosen or st.chosen_last):
            return Refusal("block_after_shield_chosen", f"expected {' or '.join(kinds)} of {player}", clause=U3)
        return "unexpected_decision"

    return script.decide(player, kinds, clause, validate, other=other, optional=optional)


def known(st: State, cid: Any) -> Card | None:
    """Well-formedness, before any rule (``unknown_object``): an id must name a card or a player of the case.
    Returns the card, or ``None`` for a player's id -- a player is in the game, so where a card is asked it
    breaks that place's rule instead (``attack {attacker: alice}``: attacker_not_in_battle_zone)."""
    if isinstance(cid, str) and cid in st.board.players:
        return None
    card = st.board.cards.get(cid) if isinstance(cid, str) else None
    if card is None:
        raise Refusal("unknown_object", f"no card or player {cid!r}")
    return card


def card_among(st: State, d: Decision, among: list[str], code: str, detail: str, key: str | None = "card") -> str:
    """The one card a decision names (:func:`card_arg`: a bare id, or ``{key: id}`` where the vocabulary gives
    that form), well formed (:func:`known`), refused ``code`` unless it is one of ``among``."""
    cid = card_arg(d, key)
    known(st, cid)
    if cid not in among:
        raise Refusal(code, detail)
    return cid


def card_arg(d: Decision, key: str | None = None, optional: tuple[str, ...] = ()) -> str:
    """The one card id a decision names: its args as a bare id, or -- only where the vocabulary defines a mapping
    form for the kind -- the ``key`` of a mapping that holds ``key`` and no other key than ``optional``. Any other
    shape (a mapping the vocabulary does not define for the kind, a list, null) is ``malformed_decision``."""
    a = d.args
    if isinstance(a, dict):
        if key is None:
            raise Refusal("malformed_decision", f"{d.kind} takes a card id, not a mapping")
        if key not in a or not set(a) <= {key, *optional}:
            raise Refusal("malformed_decision", f"{d.kind} takes a card id or {{{key}: id}}, not {sorted(a)}")
        a = a[key]
    if not isinstance(a, str):
        raise Refusal("malformed_decision", "expected a card id")
    return a


def candidates(st: State, point: DecisionPoint) -> Iterator[tuple[str, Any]]:
    board, player = st.board, point.player
    mine = board.zone(player, "battlefield")
    field = [cid for p in board.players for cid in board.zone(p, "battlefield")]
    shields = [cid for p in board.players for cid in board.zone(p, "shields")]
    for kind in point.kinds:
        if kind in ("no_block", "end_turn"):
            yield kind, None
        elif kind == "attack":
            for attacker in mine:
                for target in [*board.players, *field, *shields]:
                    yield kind, {"attacker": attacker, "target": target}
        elif kind in ("tap_ability", "block"):
            for cid in mine:
                yield kind, cid
            if kind == "block" and st.ruleset in SEVERAL_BLOCKERS:
                for n in range(2, len(mine) + 1):     # CR507.1a: several at once, in the order they resolve
                    for order in itertools.permutations(mine, n):
                        yield kind, list(order)
        elif kind == "choose_shield":
            for cid in shields:
                yield kind, cid
        elif kind in ("use", "decline"):
            offered = _closed(point, "offered") or []  # an optional trigger's card, wherever it is now
            for cid in dict.fromkeys([*board.zone(player, "hand"), *board.zone(player, "shields"), *mine,
                                      *(o for o in offered if isinstance(o, str))]):
                yield kind, cid
                if kind == "use":
                    for discard in board.zone(player, "shields"):
                        yield kind, {"card": cid, "discard": discard}
        elif kind == "choose_target":
            for cid in field:
                yield kind, cid
            n = _closed(point, "n")                 # a composed target of several creatures: one list of n ids
            if isinstance(n, int) and n > 1:
                for ids in itertools.combinations(field, n):
                    yield kind, list(ids)
        elif kind == "discard":
            for cid in board.zone(player, "hand"):
                yield kind, cid
        elif kind == "summon":
            mana = board.zone(player, "mana")
            for cid in board.zone(player, "hand"):
                for n in range(len(mana) + 1):
                    for paid in itertools.combinations(mana, n):
                        yield kind, {"card": cid, "mana": list(paid)}
                        for onto in field:
                            yield kind, {"card": cid, "mana": list(paid), "onto": onto}
        elif kind == "choose_card":
            seen = closure(point, "seen")
            for take in seen:
                for bottom in itertools.permutations([c for c in seen if c != take]):
                    yield kind, {"take": take, "bottom": list(bottom)}


def _closed(point: DecisionPoint, name: str) -> Any:
    """A variable of the point's validator, or None when it has none."""
    try:
        return closure(point, name)
    except LookupError:
        return None


def key(kind: str, parsed: Any) -> Hashable:
    """An attack is its attacker and target; the bottom order of ``choose_card`` is an order."""
    if kind == "attack" or (kind == "tap_ability" and isinstance(parsed, tuple)):
        return parsed[0].id, parsed[1]         # the open point parses to (card, target or ability, ...)
    if kind == "summon":                       # the creature, the mana cards as a set, the source
        card, mana, source = parsed
        return card.id, tuple(sorted(mana)), source.id if source is not None else None
    if kind == "block" and isinstance(parsed, list):
        return tuple(c.id for c in parsed)     # CR507.1a: the order of use decides which one blocks
    return freeze(parsed)
