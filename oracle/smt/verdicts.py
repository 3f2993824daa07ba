"""The reference engine's verdict on a block declaration: the board becomes a case request (setup and
the decisions up to the block), the declaration is the script's next decision, and the engine --
looked up through the registry, never imported -- accepts or refuses it.

Without a legality API the verdict is read from where the engine stops: a refused declaration leaves the
engine asking the same player for the same decision again (or, at the end of the procedure, a ``rejected``
entry in the trace). A declaration the engine never asks for (a Duel Masters defender with no ブロッカー,
the shield already chosen) is legal only when it declares no block: the engine took that decision itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from .. import registry
from ..core.errors import LeftoverDecisions, MissingDecision
from ..loader import load_cards
from ..model import CaseRequest
from .boards import Board, Card, Declaration, defending_player

BLOCK_KINDS = {"ijinden": ("declare_blockers",), "duelmasters": ("block", "no_block"), "mtg": ("declare_blockers",)}


@dataclass(frozen=True)
class Point:
    """Where the engine asks next: ``player`` for one of ``kinds``, as script entry ``at``."""

    player: str
    kinds: tuple[str, ...]
    at: int


@cache
def _pool_name(game: str, types: tuple[str, ...], abilities: tuple[str, ...]) -> str:
    """A synthetic card of the pool with exactly these types and abilities (by name only)."""
    for card in load_cards(game).values():
        names = tuple(a if isinstance(a, str) else next(iter(a)) for a in card.abilities)
        if card.synthetic and tuple(card.types) == types and names == abilities:
            return card.name
    raise LookupError(f"the {game} card pool has no synthetic card with types {types} and abilities {abilities}")


def _setup_card(board: Board, c: Card) -> dict[str, Any]:
    game = board.game
    extra: list[Any] = []
    if game == "ijinden":
        name = _pool_name(game, (c.kind,), ())
        if c.pressure > 1:
            extra.append({"pressure": c.pressure})
    elif game == "duelmasters":
        name = _pool_name(game, ("creature",), ("blocker",) if "blocker" in c.keywords else ())
    else:
        if c.kind == "battle":
            name = "Siege of Cinderfall Keep" if c.protector != c.controller else "Untyped Skirmish Line"
        else:
            name = _pool_name(game, ("creature",), ())
            extra += sorted(c.keywords & {"flying", "reach", "menace"})
    out: dict[str, Any] = {"id": c.id, "card": name, "tapped": c.tapped}
    if c.kind != "battle":
        out["power"] = c.power
    if extra:
        out["abilities"] = extra
    if c.protector:
        out["protector"] = c.protector
    return out


def setup(board: Board) -> dict[str, Any]:
    """The case setup of a board: every card on its controller's battlefield."""
    players: dict[str, Any] = {p: {"battlefield": [_setup_card(board, c) for c in board.cards if c.controller == p]}
                               for p in board.players}
    if board.game == "duelmasters":
        for p in board.players:
            if p != board.active:
                trigger = _pool_name("duelmasters", ("spell",), ("s_trigger", "spell"))
                players[p]["shields"] = [{"id": f"shield_{p}", "card": trigger}]
    out: dict[str, Any] = {"active": board.active, "players": players}
    if board.game == "mtg":
        out["phase"] = "combat"
    return out


def _entry(player: str, kind: str, args: Any = None) -> dict[str, Any]:
    return {"player": player, "kind": kind, "args": args}


def _attack_entries(board: Board) -> list[dict[str, Any]]:
    if board.game == "ijinden":
        return [_entry(board.active, "declare_attackers", list(board.attackers))]
    if board.game == "duelmasters":
        (a,) = board.attacks
        return [_entry(board.active, "attack", {"attacker": a.attacker, "target": a.target})]
    return [_entry(board.active, "declare_attackers", {a.attacker: a.target for a in board.attacks})]


def _request(board: Board, script: list[dict[str, Any]]) -> CaseRequest:
    pool = load_cards(board.game)
    st = setup(board)
    names = {c["card"] for p in st["players"].values() for z in p.values() for c in z}
    return CaseRequest(id=f"smt.{board.game}.verdict", game=board.game, ruleset=_ruleset(board.game), setup=st,
                       script=script, cards={n: pool[n].model_dump(mode="json", exclude_none=True) for n in names})


@cache
def _ruleset(game: str) -> str:
    from ..loader import load_catalog

    return load_catalog(game).default_ruleset


def _next_point(board: Board, script: list[dict[str, Any]]) -> Point | None:
    """Where the engine asks after ``script`` (None: it reached the end, or the game ended)."""
    try:
        registry.get(board.game).run(_request(board, script))
    except MissingDecision as m:
        return Point(m.player, tuple(m.kinds), m.at)
    except LeftoverDecisions:
        return None
    return None


def _outcome(board: Board, script: list[dict[str, Any]]) -> str:
    """``accepted`` or ``refused``: the engine's answer to the last entry of ``script``."""
    at = len(script) - 1
    before = _next_point(board, script[:-1])
    try:
        reply = registry.get(board.game).run(_request(board, script))
    except MissingDecision as m:
        again = before is not None and (m.player, tuple(m.kinds)) == (before.player, before.kinds)
        return "refused" if m.at == at + 1 and again else "accepted"
    except LeftoverDecisions:
        return "refused"  # the game ended before the entry could be made
    for e in reply.trace:
        if e.args.get("at") == at and e.kind in ("decided", "rejected"):
            return "accepted" if e.kind == "decided" else "refused"
    return "refused"


@cache
def _attack_refused(board: Board) -> bool:
    entries = _attack_entries(board)
    try:
        reply = registry.get(board.game).run(_request(board, entries))
    except MissingDecision as m:
        return ATTACK_KINDS[board.game] in m.kinds
    except LeftoverDecisions:
        return True
    return any(e.kind == "rejected" for e in reply.trace)


def _prefix(board: Board) -> list[dict[str, Any]]:
    script = _attack_entries(board)
    if board.game == "duelmasters" and board.shield_chosen:
        point = _next_point(board, script)
        if point and "no_block" in point.kinds:
            script.append(_entry(point.player, "no_block"))
        script.append(_entry(board.active, "choose_shield", f"shield_{board.attacks[0].target}"))
    return script


class Unreachable(Exception):
    """The engine refuses the board's attack itself: there is no block to judge."""


ATTACK_KINDS = {"ijinden": "declare_attackers", "duelmasters": "attack", "mtg": "declare_attackers"}


def engine_legal(board: Board, decl: Declaration) -> bool:
    """The reference engine's verdict on one block declaration of ``board``."""
    script = _prefix(board)
    if _attack_refused(board):
        raise Unreachable(f"the engine refuses the attack of {board.name or 'the board'}")
    kinds = BLOCK_KINDS[board.game]
    if board.game == "duelmasters":
        point = _next_point(board, script)
        asked = point is not None and point.kinds == kinds
        if not decl:
            if not asked:
                return True  # no block asked for: the engine declared none itself
            return _outcome(board, script + [_entry(point.player, "no_block")]) == "accepted"
        if len(decl) > 1:
            return False  # the decision names one blocker: two cannot even be said
        ((blocker, _attacker),) = decl
        defender = defending_player(board, board.attacks[0])
        return _outcome(board, script + [_entry(defender, "block", blocker)]) == "accepted"
    if board.game == "ijinden":
        defender = next(p for p in board.players if p != board.active)
        args: dict[str, list[str]] = {}
        for b, a in decl:
            args.setdefault(a, []).append(b)
        return _outcome(board, script + [_entry(defender, "declare_blockers", args)]) == "accepted"
    return _mtg_legal(board, decl, script)


def _mtg_legal(board: Board, decl: Declaration, script: list[dict[str, Any]]) -> bool:
    """Each defending player the engine asks declares the blocks of their own creatures; the blocks of a
    creature whose controller defends against nothing go with the first declaration (to be refused)."""
    defending = {defending_player(board, a) for a in board.attacks}
    pending = dict(decl)
    first = True
    while True:
        point = _next_point(board, script)
        if point is None or point.kinds != ("declare_blockers",):
            return not pending  # nobody left to declare them
        mine = {b: a for b, a in pending.items()
                if board.card(b).controller == point.player or (first and board.card(b).controller not in defending)}
        first = False
        for b in mine:
            pending.pop(b)
        entry = _entry(point.player, "declare_blockers", mine)
        if _outcome(board, script + [entry]) != "accepted":
            return False
        script = script + [entry]
