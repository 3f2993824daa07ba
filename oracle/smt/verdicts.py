"""The reference engine's verdict on a block declaration: the board becomes a case request (setup and
the decisions up to the block), and the legality API (:mod:`oracle.core.legality`: the decision the
engine asks next, and its check of one decision, by the engine's own validators) judges the declaration.
The engine is looked up through the registry, never imported.

A declaration the engine never asks for (a Duel Masters defender with no ブロッカー, the shield already
chosen) is legal only when it declares no block: the engine took that decision itself; a block there is
judged at whatever the engine asks instead (and refused).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ..core.legality import pending
from ..errors import Unreachable
from ..loader import load_cards, load_catalog
from ..model import CaseRequest
from .block_board import BlockBoard, BlockCard, Declaration, defending_player

BLOCK_KINDS = {"ijinden": ("declare_blockers",), "duelmasters": ("block", "no_block"), "mtg": ("declare_blockers",)}
ATTACK_KINDS = {"ijinden": "declare_attackers", "duelmasters": "attack", "mtg": "declare_attackers"}


@cache
def _pool_name(game: str, types: tuple[str, ...], abilities: tuple[str, ...]) -> str:
    """A synthetic card of the pool with exactly these types and abilities (by name only)."""
    for card in load_cards(game).values():
        names = tuple(a if isinstance(a, str) else next(iter(a)) for a in card.abilities)
        if card.synthetic and tuple(card.types) == types and names == abilities:
            return card.name
    raise LookupError(f"the {game} card pool has no synthetic card with types {types} and abilities {abilities}")


def _setup_card(board: BlockBoard, c: BlockCard) -> dict[str, Any]:
    game = board.game
    extra: list[Any] = []
    if game == "ijinden":
        name = _pool_name(game, (c.kind,), ())
        if c.pressure > 1:
            extra.append({"pressure": c.pressure})
        extra += sorted(c.keywords & {"watcher", "unblockable_by_ijin"})
    elif game == "duelmasters":
        name = _pool_name(game, ("creature",), ("blocker",) if "blocker" in c.keywords else ())
        extra += sorted(c.keywords & {"blocks_if_able"})
    else:
        if c.kind == "battle":
            name = "Siege of Cinderfall Keep" if c.protector != c.controller else "Untyped Skirmish Line"
        else:
            name = _pool_name(game, ("creature",), ())
            extra += sorted(c.keywords & {"flying", "reach", "menace", "must_be_blocked", "lure", "blocks_each_combat"})
    out: dict[str, Any] = {"id": c.id, "card": name, "tapped": c.tapped}
    if c.kind != "battle":
        out["power"] = c.power
    if extra:
        out["abilities"] = extra
    if c.protector:
        out["protector"] = c.protector
    return out


def setup(board: BlockBoard) -> dict[str, Any]:
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


def _attack_entries(board: BlockBoard) -> list[dict[str, Any]]:
    if board.game == "ijinden":
        return [_entry(board.active, "declare_attackers", list(board.attackers))]
    if board.game == "duelmasters":
        (a,) = board.attacks
        return [_entry(board.active, "attack", {"attacker": a.attacker, "target": a.target})]
    return [_entry(board.active, "declare_attackers", {a.attacker: a.target for a in board.attacks})]


def _request(board: BlockBoard, script: list[dict[str, Any]]) -> CaseRequest:
    pool = load_cards(board.game)
    st = setup(board)
    names = {c["card"] for p in st["players"].values() for z in p.values() for c in z}
    return CaseRequest(id=f"smt.{board.game}.verdict", game=board.game, ruleset=_ruleset(board.game), setup=st,
                       script=script, cards={n: pool[n].model_dump(mode="json", exclude_none=True) for n in names})


@cache
def _ruleset(game: str) -> str:
    return load_catalog(game).default_ruleset



def _asked(board: BlockBoard, script: list[dict[str, Any]]):
    """The decision point the engine reaches after ``script`` (its ``point`` is None when it asks none). A
    priority point on the way is passed, the pass joining ``script`` (Magic gives priority in every step, CR
    117.3a: the beginning of combat and the declare attackers step come before the block declaration)."""
    while True:
        p = pending(_request(board, script), len(script))
        if p.point is None or "pass" not in p.kinds:
            return p
        script.append(_entry(p.player, "pass"))


def _accepted(point, entry: dict[str, Any]) -> bool:
    return point.point is not None and point.judge(entry) is None


@cache
def _attack_refused(board: BlockBoard) -> bool:
    entries = _attack_entries(board)
    before = entries[:-1]
    return not _accepted(_asked(board, before), entries[-1])


def _prefix(board: BlockBoard) -> list[dict[str, Any]]:
    script: list[dict[str, Any]] = []
    _asked(board, script)  # Magic: the passes of the beginning of combat, before the attack declaration
    script += _attack_entries(board)
    if board.game == "duelmasters" and board.shield_chosen:
        point = _asked(board, script)
        if "no_block" in point.kinds:
            if not _accepted(point, _entry(point.player, "no_block")):   # a creature had to block (CR507.1b)
                raise Unreachable(f"{board.name or 'the board'}: no shield is chosen in an attack that had to be "
                                  "blocked")
            script.append(_entry(point.player, "no_block"))
        script.append(_entry(board.active, "choose_shield", f"shield_{board.attacks[0].target}"))
    return script


def engine_legal(board: BlockBoard, decl: Declaration) -> bool:
    """The reference engine's verdict on one block declaration of ``board``."""
    if _attack_refused(board):
        raise Unreachable(f"the engine refuses the attack of {board.name or 'the board'}")
    script = _prefix(board)
    point = _asked(board, script)
    asked = point.point is not None and point.kinds == BLOCK_KINDS[board.game]
    if board.game == "duelmasters":
        if not decl:
            return True if not asked else _accepted(point, _entry(point.player, "no_block"))
        if len(decl) > 1:
            return False  # the decision names one blocker: two cannot even be said
        ((blocker, _attacker),) = decl
        return _accepted(point, _entry(defending_player(board, board.attacks[0]), "block", blocker))
    if board.game == "ijinden":
        defender = next(p for p in board.players if p != board.active)
        args: dict[str, list[str]] = {}
        for b, a in decl:
            args.setdefault(a, []).append(b)
        return _accepted(point, _entry(defender, "declare_blockers", args))
    return _mtg_legal(board, decl, script)


def _mtg_legal(board: BlockBoard, decl: Declaration, script: list[dict[str, Any]]) -> bool:
    """Each defending player the engine asks declares the blocks of their own creatures; the blocks of a
    creature whose controller defends against nothing go with the first declaration (to be refused)."""
    defending = {defending_player(board, a) for a in board.attacks}
    pending_ = dict(decl)
    first = True
    while True:
        point = _asked(board, script)
        if point.point is None or point.kinds != ("declare_blockers",):
            return not pending_  # nobody left to declare them
        mine = {b: a for b, a in pending_.items()
                if board.card(b).controller == point.player or (first and board.card(b).controller not in defending)}
        first = False
        for b in mine:
            pending_.pop(b)
        entry = _entry(point.player, "declare_blockers", mine)
        if not _accepted(point, entry):
            return False
        script = script + [entry]


def engine_count(board: BlockBoard) -> int | None:
    """How many legal block declarations the engine itself enumerates at the block point
    (:func:`oracle.core.legality.legal_decisions`); ``None`` where one decision does not hold the whole
    declaration (Magic with several defending players) or the enumeration is partial. Where the engine
    asks no block decision, it declares none itself: one declaration."""
    from ..core.legality import legal_decisions

    if _attack_refused(board):
        raise Unreachable(f"the engine refuses the attack of {board.name or 'the board'}")
    if board.game == "mtg" and len({defending_player(board, a) for a in board.attacks}) > 1:
        return None
    script = _prefix(board)
    _asked(board, script)  # passes priority up to the block point
    point = legal_decisions(_request(board, script), len(script))
    if point.point is None or point.kinds != BLOCK_KINDS[board.game]:
        return 1
    if not point.complete or point.unenumerated:
        return None
    return point.count
