"""A board for block legality: the attacks and the cards that might block them, as plain frozen data.

The models (``solver.py``, z3), the brute force (``brute.py``, plain Python) and the reference engine
(``verdicts.py``) all read this one description. It holds only what the blocking rules look at:

- Ijinden (seed 000, B1): who controls each card, Ijin or guardian, sleeping, pressure N.
- Duel Masters (seed 002, A3/C3/U3): ブロッカー, 可能であればブロックする, tapped, and whether the shield has
  been chosen.
- Magic (CR 509.1a, 310.8c, flying, reach, menace): creature or battle, tapped,
  controller, what each attacker attacks and who protects each battle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from typing import Iterator

Declaration = tuple[tuple[str, str], ...]
"""A block declaration: ``(blocker, attacker)`` pairs, sorted; ``()`` declares no block."""


def declaration(pairs) -> Declaration:
    """The canonical (sorted, de-duplicated) form of a set of ``(blocker, attacker)`` pairs."""
    return tuple(sorted(set(pairs)))


@dataclass(frozen=True, slots=True)
class BlockCard:
    """A card on the battlefield. ``kind``: Ijinden ``ijin`` | ``guardian``; Duel Masters ``creature``;
    Magic ``creature`` | ``battle``. ``tapped`` is Ijinden's sleeping. ``keywords``: ``blocker``
    (ブロッカー), ``blocks_if_able`` (可能であればブロックする: must block if able), ``flying``, ``reach``, ``menace``, Ijinden ``watcher`` (ウォッチャー: blocks while sleeping),
    ``unblockable_by_ijin`` (イジンにブロックされない: an attacker no Ijin may block).
    ``pressure``: blockers an Ijinden attacker needs (1 =
    no pressure). ``protector``: a Magic battle's."""

    id: str
    controller: str
    kind: str
    tapped: bool = False
    power: int = 0
    keywords: frozenset[str] = frozenset()
    pressure: int = 1
    protector: str | None = None


@dataclass(frozen=True, slots=True)
class Attack:
    """One attacker and what it attacks: a player id, or a card id (a Magic battle, a Duel Masters
    creature)."""

    attacker: str
    target: str


@dataclass(frozen=True)
class BlockBoard:
    game: str
    active: str
    players: tuple[str, ...]
    cards: tuple[BlockCard, ...]
    attacks: tuple[Attack, ...]
    shield_chosen: bool = False
    """Duel Masters U3: the shield has been chosen (no block is possible any more)."""
    name: str = field(default="", compare=False)
    """Where the board comes from (a case id, a block-count entry); not part of its identity."""

    def card(self, card_id: str) -> BlockCard:
        for c in self.cards:
            if c.id == card_id:
                return c
        raise KeyError(f"no card {card_id!r} on the board")

    @property
    def attackers(self) -> tuple[str, ...]:
        return tuple(a.attacker for a in self.attacks)

    @property
    def candidates(self) -> tuple[str, ...]:
        """Every card that is not an attacker: each may be named as a blocker (legal or not)."""
        attacking = set(self.attackers)
        return tuple(c.id for c in self.cards if c.id not in attacking)

    def size(self) -> int:
        return len(self.cards)

    def declarations(self) -> Iterator[Declaration]:
        """Every way to name each candidate as the blocker of at most one attacker (legal or not)."""
        cands = self.candidates
        for choice in product((None, *self.attackers), repeat=len(cands)):
            yield declaration((b, a) for b, a in zip(cands, choice) if a is not None)

    def describe(self) -> str:
        """The board as text, for a counterexample or a failing agreement."""
        lines = [f"{self.game} board{f' ({self.name})' if self.name else ''}: active {self.active}, "
                 f"players {', '.join(self.players)}" + ("; the shield has been chosen" if self.shield_chosen else "")]
        for c in self.cards:
            bits = [c.kind, f"controller {c.controller}", f"power {c.power}"]
            if c.tapped:
                bits.append("tapped")
            if c.keywords:
                bits.append("+".join(sorted(c.keywords)))
            if c.pressure > 1:
                bits.append(f"pressure {c.pressure}")
            if c.protector:
                bits.append(f"protector {c.protector}")
            lines.append(f"  {c.id}: {', '.join(bits)}")
        lines += [f"  attack: {a.attacker} -> {a.target}" for a in self.attacks]
        return "\n".join(lines)

    def as_dict(self) -> dict:
        """Plain data (the ``legal_blocks`` request's board, a block-count entry)."""
        out: dict = {"active": self.active, "players": list(self.players), "cards": [], "attacks": []}
        for c in self.cards:
            d: dict = {"id": c.id, "controller": c.controller, "kind": c.kind, "power": c.power}
            if c.tapped:
                d["tapped"] = True
            if c.keywords:
                d["keywords"] = sorted(c.keywords)
            if c.pressure > 1:
                d["pressure"] = c.pressure
            if c.protector:
                d["protector"] = c.protector
            out["cards"].append(d)
        out["attacks"] = [{"attacker": a.attacker, "target": a.target} for a in self.attacks]
        if self.shield_chosen:
            out["shield_chosen"] = True
        return out


def board_from_dict(game: str, data: dict, name: str = "") -> BlockBoard:
    """The inverse of :meth:`BlockBoard.as_dict` (block-count files)."""
    cards = tuple(BlockCard(id=c["id"], controller=c["controller"], kind=c["kind"], tapped=c.get("tapped", False),
                       power=c.get("power", 0), keywords=frozenset(c.get("keywords", ())),
                       pressure=c.get("pressure", 1), protector=c.get("protector"))
                  for c in data["cards"])
    attacks = tuple(Attack(a["attacker"], a["target"]) for a in data["attacks"])
    return BlockBoard(game=game, active=data["active"], players=tuple(data["players"]), cards=cards, attacks=attacks,
                 shield_chosen=data.get("shield_chosen", False), name=name)


def defending_player(board: BlockBoard, attack: Attack) -> str:
    """Who defends against one attack: the attacked player; for an attacked battle its protector
    (CR 506.2/508.5, 310.8d); for an attacked creature (Duel Masters C1) its controller."""
    if attack.target in board.players:
        return attack.target
    target = board.card(attack.target)
    return target.protector if target.kind == "battle" and target.protector else target.controller
