"""The state of a Magic case, and characteristics computed on demand (types, P/T, defense, protector).

Cards live on the core :class:`~oracle.core.board.Board`; Magic-specific state sits in ``card.props``:
``types``/``subtypes`` effects, ``protector``, ``attached_to``, ``face``, ``damage``, ``copy_of``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...core.board import Board, Card
from ...core.trace import Trace
from .editions import CURRENT, PREFIX, cite

C = "mtg:"  # clause prefix


@dataclass(slots=True)
class StackItem:
    """A spell (``ability`` None) or a triggered ability on the stack (or triggered, waiting to go on it)."""

    card: str
    controller: str
    ability: str | None = None
    targets: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class Combat:
    attackers: dict[str, str] = field(default_factory=dict)      # attacker -> what it attacks
    blockers: dict[str, str] = field(default_factory=dict)       # blocker -> attacker
    blocked: set[str] = field(default_factory=set)
    defending: list[str] = field(default_factory=list)


@dataclass(slots=True)
class State:
    board: Board
    trace: Trace
    cards_def: dict[str, dict[str, Any]]
    life: dict[str, int]
    team: dict[str, str]
    lost: set[str] = field(default_factory=set)
    step: str = "main"             # main | declare_attackers | declare_blockers | combat_damage | end_combat | main2
    stack: list[StackItem] = field(default_factory=list)   # bottom first
    pending: list[StackItem] = field(default_factory=list)  # triggered, not yet on the stack
    combat: Combat | None = None
    two_headed: bool = False
    ruleset: str = "cr-20231117"  # the edition (editions.py)
    resolved: bool = False  # a spell or ability has just resolved: the next priority is 117.3b's
    implied: list[tuple[int, str]] = field(default_factory=list)  # implied passes: (script index before, player)

    # -- clauses of the edition -----------------------------------------------------------
    def c(self, number: str) -> str:
        """The clause id for rule ``number`` (in the seed's numbering) under this case's edition (editions.cite)."""
        return cite(self.ruleset, C + number)

    def removal_clause(self, clause: str) -> str:
        """A removal from combat: under the current edition always its 506.4 (editions.cite)."""
        return PREFIX + "506.4" if self.ruleset == CURRENT else clause

    # -- players --------------------------------------------------------------------------
    @property
    def active(self) -> str:
        return self.board.active

    def alive(self) -> list[str]:
        return [p for p in self.board.players if p not in self.lost]

    def teammates(self, p: str, q: str) -> bool:
        return self.team[p] == self.team[q]

    def opponents(self, p: str) -> list[str]:
        return [q for q in self.alive() if not self.teammates(p, q)]

    def from_active(self) -> list[str]:
        """Players still in the game in turn order, the active player first (APNAP)."""
        ps = self.board.players
        i = ps.index(self.active)
        return [p for p in ps[i:] + ps[:i] if p not in self.lost]

    # -- cards ----------------------------------------------------------------------------
    def card(self, cid: str) -> Card:
        return self.board.cards[cid]

    def battlefield(self) -> list[Card]:
        return [c for p in self.board.players for c in self.board.in_zone(p, "battlefield")]

    def face_def(self, c: Card) -> dict[str, Any]:
        """The copiable values: a copied card's front face, else this card's current face."""
        src = c.props.get("copy_of")
        if src is not None:
            return self.cards_def.get(src, {})
        d = self.cards_def.get(c.name or "", {})
        if c.props.get("face") == "back" and d.get("back"):
            return d["back"]
        return d

    def types(self, c: Card) -> list[str]:
        d = self.face_def(c)
        out = list(d.get("types", []))
        for kind, arg in c.props.get("type_effects", []):
            if kind == "add":
                out += [t for t in arg if t not in out]
            elif kind == "set":
                out = list(arg)
        return out

    def subtypes(self, c: Card) -> list[str]:
        if any(k == "set" for k, _ in c.props.get("type_effects", [])):
            return []
        return list(self.face_def(c).get("subtypes", []))

    def is_battle(self, c: Card) -> bool:
        return "battle" in self.types(c)

    def is_siege(self, c: Card) -> bool:
        return self.is_battle(c) and "Siege" in self.subtypes(c)

    def is_creature(self, c: Card) -> bool:
        return "creature" in self.types(c)

    def is_planeswalker(self, c: Card) -> bool:
        return "planeswalker" in self.types(c)

    def pt(self, c: Card) -> tuple[int, int]:
        d = self.face_def(c)
        p = c.props.get("power_set", d.get("power") or 0)
        t = c.props.get("toughness_set", d.get("toughness") or 0)
        for _kind, arg in c.props.get("pt_effects", []):  # the latest setting wins
            p, t = arg
        return p, t

    def defense(self, c: Card) -> int:
        """310.4c on the battlefield: the defense counters; 310.4a elsewhere: the printed number."""
        if c.zone == "battlefield":
            return c.counters.get("defense", 0)
        return self.face_def(c).get("defense") or 0

    def has(self, c: Card, ability: str) -> bool:
        own = [a for a, _ in c.abilities if a == ability]
        return bool(own)

    def params(self, c: Card, ability: str) -> list[Any]:
        return [p for a, p in c.abilities if a == ability]

    def defending_for(self, target: str) -> str | None:
        """The defending player for an attack on ``target`` (310.8d: a battle's protector)."""
        if target in self.board.players:
            return target
        c = self.card(target)
        if self.is_battle(c):
            return c.props.get("protector")
        return c.controller

    def is_battle_def(self, c: Card) -> bool:
        return "battle" in self.face_def(c).get("types", [])

    def reset_object(self, c: Card) -> None:
        """400.7: a permanent that changes zones becomes a new object with no memory of its old one."""
        for k in ("type_effects", "pt_effects", "protector", "attached_to", "damage", "copy_of", "entered", "control_from"):
            c.props.pop(k, None)
        c.counters.clear()
        c.tapped = False

    def on_stack_or_pending(self, cid: str) -> bool:
        return any(i.card == cid and i.ability for i in self.stack + self.pending)
