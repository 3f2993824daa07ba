"""A golden case's setup and first attack -> a block :class:`~oracle.smt.block_board.BlockBoard`.

Reads the case data (through the loader: the card pool gives types, power and abilities; the setup
overrides them) in the games' vocabulary, never a game module. A case whose board the block models do
not describe gives ``None`` with the reason (:func:`board_of_case` returns ``(board, why)``):
its first decision is not the attack; it starts elsewhere than the attack (Magic: not in combat); an
attacker or an attack target the models have no kind for (a planeswalker, a guardian that attacks
through 円形闘技場); an Ijinden board with a ``static`` ability (issue 25: a grant by condition, such as
ウォッチャー while a graveyard is small, is not modelled).
"""

from __future__ import annotations

from typing import Any

from ..loader import load_cards
from ..model import Case, CardSetup
from .block_board import Attack, BlockBoard, BlockCard

PRESSURE = {"double_pressure": 2, "triple_pressure": 3}
KEYWORDS = {"duelmasters": {"blocker", "blocks_if_able"}, "mtg": {"flying", "reach", "menace"}, "ijinden": {"watcher", "unblockable_by_ijin"}}


def _abilities(refs: list[Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for r in refs:
        if isinstance(r, str):
            out[r] = None
        else:
            out.update(r)
    return out


def _has_static(case: Case, cs: CardSetup) -> bool:
    definition = load_cards(case.game)[cs.card]
    return "static" in _abilities(list(definition.abilities) + list(cs.abilities))


def _kind(game: str, types: list[str]) -> str | None:
    wanted = {"ijinden": ("ijin", "guardian"), "duelmasters": ("creature",), "mtg": ("battle", "creature")}[game]
    return next((t for t in wanted if t in types), None)


def _card(case: Case, player: str, cs: CardSetup) -> BlockCard | None:
    pool = load_cards(case.game)
    definition = pool[cs.card]
    if cs.face == "back" and definition.back is not None:
        definition = definition.back
    kind = _kind(case.game, list(definition.types))
    if kind is None:
        return None
    abilities = _abilities(list(definition.abilities) + list(cs.abilities))
    pressure = max([PRESSURE[a] for a in abilities if a in PRESSURE] + [abilities.get("pressure") or 1])
    power = cs.power if cs.power is not None else (definition.power or 0)
    return BlockCard(id=cs.id, controller=cs.controller or player, kind=kind, tapped=cs.tapped, power=power,
                keywords=frozenset(set(abilities) & KEYWORDS[case.game]),
                pressure=pressure if case.game == "ijinden" else 1,
                protector=cs.protector if kind == "battle" else None)


def _attacks(case: Case) -> list[Attack] | None:
    if not case.script or case.script[0].player != case.setup.active:
        return None
    first = case.script[0]
    if case.game == "ijinden" and first.kind == "declare_attackers" and isinstance(first.args, list):
        return [Attack(a, next(p for p in case.setup.players if p != case.setup.active)) for a in first.args]
    if case.game == "duelmasters" and first.kind == "attack" and isinstance(first.args, dict):
        if not all(isinstance(first.args.get(k), str) for k in ("attacker", "target")):
            return None                         # a malformed attack (a list, a mapping): refused, not a board
        return [Attack(first.args.get("attacker"), first.args.get("target"))]
    if case.game == "mtg" and first.kind == "declare_attackers" and isinstance(first.args, dict):
        return [Attack(a, t) for a, t in first.args.items()]
    return None


def board_of_case(case: Case) -> tuple[BlockBoard | None, str]:
    """The block board at the case's first attack, or ``None`` and why the models cannot describe it."""
    if case.game == "mtg" and case.setup.phase != "combat":
        return None, "starts outside combat"
    teams = [ps.team for ps in case.setup.players.values() if ps.team is not None]
    if len(teams) != len(set(teams)):  # 805.10d: teammates block for each other; the models know no teams
        return None, "a game of teams (the block models have none)"
    attacks = _attacks(case)
    if not attacks:
        return None, "its first decision is not the attack"
    cards: list[BlockCard] = []
    for player, ps in case.setup.players.items():
        content = ps.zones.get("battlefield", [])
        for cs in content if isinstance(content, list) else []:
            if case.game == "ijinden" and _has_static(case, cs):
                return None, f"{cs.id} has a static ability (what it grants by condition is not modelled)"
            card = _card(case, player, cs)
            if card is not None:
                cards.append(card)
    ids = {c.id for c in cards}
    players = tuple(case.setup.players)
    for a in attacks:
        if a.attacker not in ids:
            return None, f"attacker {a.attacker} is not a card the block models describe"
        if a.target not in players and a.target not in ids:
            return None, f"attack target {a.target} is not a card the block models describe"
    attackers = {a.attacker for a in attacks}
    for c in cards:
        if c.id in attackers and c.kind not in ("ijin", "creature"):
            return None, f"attacker {c.id} is a {c.kind}"
    return BlockBoard(game=case.game, active=case.setup.active, players=players, cards=tuple(cards),
                 attacks=tuple(attacks), name=case.id), ""
