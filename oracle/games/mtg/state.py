"""The state of a Magic case, and characteristics computed on demand (types, P/T, defense, protector).

Cards live on the core :class:`~oracle.core.board.Board`; Magic-specific state sits in ``card.props``:
``types``/``subtypes`` effects, ``protector``, ``attached_to``, ``face``, ``damage``, ``copy_of``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ...core.board import Board, Card, build_board, normalize_abilities
from ...core.compose import THIS, parse_static
from ...core.trace import Trace
from ...model import CaseRequest
from .clauses import CR20260807_506_4
from .editions import CURRENT, cite
from .vocabulary import ZONES


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
    damage_step: str | None = None  # None | "only" | "first" | "second" (510.4: a first-strike combat damage step)
    struck_first: set[str] = field(default_factory=set)  # 510.4: had first or double strike as the first step began


@dataclass(slots=True)
class State:
    board: Board
    trace: Trace
    cards_def: dict[str, dict[str, Any]]
    life: dict[str, int]
    team: dict[str, str]
    lost: set[str] = field(default_factory=set)
    drew_from_empty: set[str] = field(default_factory=set)  # 121.4: tried to draw from an empty library
    step: str = "main"             # main | declare_attackers | declare_blockers | combat_damage | end_combat | main2
    stack: list[StackItem] = field(default_factory=list)   # bottom first
    pending: list[StackItem] = field(default_factory=list)  # triggered, not yet on the stack
    combat: Combat | None = None
    two_headed: bool = False
    ruleset: str = "cr-20231117"  # the edition (editions.py)
    resolved: bool = False  # a spell or ability has just resolved: the next priority is 117.3b's
    implied: list[tuple[int, str]] = field(default_factory=list)  # implied passes: (script index before, player)
    statics: bool = False  # some card of the case has a static ability (State.granted is asked only then)
    fire_event: Callable[..., None] = field(default=lambda st, event, about, **data: _unconnected(event))
    """603.2: tells the composed triggered abilities that an event happened (``triggers.fire``, connected by the
    procedure as it builds the state: triggers reads the abilities, which read this module)."""

    # -- clauses of the edition -----------------------------------------------------------
    def c(self, clause: str) -> str:
        """The clause id for ``clause`` (a clauses.py constant, in the seed's numbering) under this case's edition
        (editions.cite)."""
        return cite(self.ruleset, clause)

    def removal_clause(self, clause: str) -> str:
        """A removal from combat: under the current edition always its 506.4 (editions.cite)."""
        return CR20260807_506_4 if self.ruleset == CURRENT else clause

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

    def existing(self) -> list[Card]:
        """Every object of the case that still exists: a token that ceased to exist (704.5d, 111.7) is in no zone
        and is no object any rule can find (it keeps the last zone it was in only as its history)."""
        return [c for c in self.board.cards.values() if not c.props.get("ceased")]

    def battlefield(self) -> list[Card]:
        cards, zones = self.board.cards, self.board.zones
        return [cards[c] for p in self.board.players for c in zones[(p, "battlefield")]]

    def face_def(self, c: Card) -> dict[str, Any]:
        """The copiable values: a copied card's front face, else this card's current face."""
        props = c.props
        src = props.get("copy_of")
        if src is not None:
            return self.cards_def.get(src, {})
        d = self.cards_def.get(c.name or "", {})
        if props.get("face") == "back" and d.get("back"):
            return d["back"]
        return d

    def types(self, c: Card) -> list[str]:
        d = self.face_def(c)
        out = list(d.get("types", ()))
        for kind, arg in c.props.get("type_effects", ()):
            if kind == "add":
                out += [t for t in arg if t not in out]
            elif kind == "set":
                out = list(arg)
        return out

    def subtypes(self, c: Card) -> list[str]:
        for k, _ in c.props.get("type_effects", ()):
            if k == "set":
                return []
        return list(self.face_def(c).get("subtypes", ()))

    def is_battle(self, c: Card) -> bool:
        return "battle" in self.types(c)

    def is_siege(self, c: Card) -> bool:
        return self.is_battle(c) and "Siege" in self.subtypes(c)

    def is_token(self, c: Card) -> bool:
        """111.1: a token (created by an effect, or a setup card whose pool card is marked ``props: {token: true}``)."""
        return bool(c.props.get("token") or (self.cards_def.get(c.name or "", {}).get("props") or {}).get("token"))

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
        n = c.counters.get("+1/+1", 0)  # 122.1a, applied after effects that set P/T (613.4c)
        return p + n, t + n

    def defense(self, c: Card) -> int:
        """310.4c on the battlefield: the defense counters; 310.4a elsewhere: the printed number."""
        if c.zone == "battlefield":
            return c.counters.get("defense", 0)
        return self.face_def(c).get("defense") or 0

    def has(self, c: Card, ability: str) -> bool:
        own = [a for a, _ in c.abilities if a == ability]
        return bool(own) or (self.statics and any(a == ability for a, _ in self.granted(c)))

    def params(self, c: Card, ability: str) -> list[Any]:
        return [p for a, p in c.abilities if a == ability] + (
            [p for a, p in self.granted(c) if a == ability] if self.statics else [])

    def granted(self, c: Card) -> list[tuple[str, Any]]:
        """604.1/613.1f: the abilities the static abilities of permanents on the battlefield grant ``c`` (a
        permanent) while their sources are there: ``affects: this`` or a filter read from the source's controller's
        side (:func:`matches`)."""
        if c.zone != "battlefield":
            return []
        out: list[tuple[str, Any]] = []
        for src in self.battlefield():
            for name, param in src.abilities:
                if name != "static":
                    continue
                s = parse_static(param)
                if (s.affects == THIS and src.id == c.id) or (
                        isinstance(s.affects, dict) and matches(self, s.affects, c.id, src.id, src.controller)):
                    out += list(s.grants)
        return out

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
        """400.7: a permanent (or spell) that changes zones becomes a new object with no memory of its old one; 712.8a:
        a double-faced card outside the battlefield and the stack has only its front face's characteristics."""
        for k in ("type_effects", "pt_effects", "protector", "attached_to", "damage", "copy_of", "entered", "control_from"):
            c.props.pop(k, None)
        c.counters.clear()
        c.tapped = False
        if c.props.get("face") == "back":
            c.props["face"] = "front"
            c.abilities = normalize_abilities(self.cards_def.get(c.name or "", {}).get("abilities", []))

    def on_stack_or_pending(self, cid: str) -> bool:
        return any(i.card == cid and i.ability for i in self.stack + self.pending)


# -- building the state of a case's setup ------------------------------------------------------

def matches(st: State, flt: dict[str, Any] | None, x: Any, source: str, controller: str) -> bool:
    """Whether ``x`` (a player or permanent id) is one the filter allows, read from ``controller``'s side (the
    ability's controller) for the ability of ``source``. No filter: any permanent."""
    flt = flt or {}
    kind = flt.get("is", "permanent")
    whose = flt.get("controller", "any")
    if x in st.board.players:
        if kind not in ("player", "any_target") or x in st.lost:
            return False
        return whose == "any" or (x == controller) == (whose == "you")
    if kind == "player" or not isinstance(x, str) or x not in st.board.cards:
        return False
    c = st.card(x)
    if c.zone != "battlefield" or (flt.get("other") and x == source):
        return False
    if kind == "any_target":
        if not (st.is_creature(c) or st.is_planeswalker(c) or st.is_battle(c)):
            return False
    elif kind != "permanent" and kind not in st.types(c):
        return False
    if whose == "you":
        return c.controller == controller
    if whose == "opponent":
        return c.controller in st.opponents(controller)
    return True


def every(st: State, flt: dict[str, Any] | None, source: str, controller: str) -> list[str]:
    """Every player and permanent the filter allows (a target of ``count: all``), players first in turn order."""
    players = [p for p in st.from_active() if matches(st, flt, p, source, controller)]
    return players + [c.id for c in st.battlefield() if matches(st, flt, c.id, source, controller)]


def _unconnected(event: str) -> None:
    raise RuntimeError(f"a {event!r} event with no trigger handling connected: the procedure sets State.fire_event "
                       f"(procedure._build) before play")


def build(request: CaseRequest, trace: Trace) -> State:
    """The state of the request's setup: the board through :func:`oracle.core.board.build_board`, whose ``place``
    hook takes each setup card; once the state exists (a battle's characteristics need it), each is made by
    :func:`card_of_setup` and placed, in the setup's order."""
    setup = request.setup
    players = list(setup["players"])
    life = {p: (setup["players"][p].get("life") if setup["players"][p].get("life") is not None else 20)
            for p in players}
    team = {p: setup["players"][p].get("team") or p for p in players}
    given: list[tuple[dict[str, Any], str, str]] = []
    board = build_board(setup, request.cards, ZONES, trace, place=lambda cs, pid, zone: given.append((cs, pid, zone)))
    st = State(board=board, trace=trace, cards_def=request.cards, life=life, team=team, ruleset=request.ruleset)
    st.two_headed = len(set(team.values())) < len(players)
    for cs, pid, zone in given:  # Board.place files a battlefield card under its controller, others under the owner
        board.place(card_of_setup(st, cs, pid, zone))
    st.statics = any(a == "static" for c in board.cards.values() for a, _ in c.abilities) or any(
        a == "static" or (isinstance(a, dict) and "static" in a)
        for d in request.cards.values() for f in (d, d.get("back") or {}) for a in f.get("abilities") or ())
    return st


def card_of_setup(st: State, cs: dict[str, Any], pid: str, zone: str) -> Card:
    """A setup card as Magic has it: its face (``face: back``), its battle's defense counters as if it had
    entered (310.4b) and protector (given, else its controller for a battle with no battle type, 310.8a), a
    planeswalker's loyalty, the attacks and blocks of a later-step setup (setups.py), set P/T."""
    d = st.cards_def.get(cs["card"], {})
    face = cs.get("face") or "front"
    face_d = d.get("back", d) if face == "back" else d
    owner = cs.get("owner") or pid
    c = Card(id=cs["id"], name=cs["card"], owner=owner, controller=cs.get("controller") or pid, zone=zone,
             definition=d, tapped=bool(cs.get("tapped")), entered_this_turn=bool(cs.get("entered_this_turn")),
             abilities=normalize_abilities(list(face_d.get("abilities", [])) + list(cs.get("abilities", []))),
             counters=dict(cs.get("counters") or {}), props=dict(cs.get("props") or {}))
    c.props["face"] = face
    for declared in ("attacking", "blocking"):  # setup.step: the attacks and blocks already declared
        if cs.get(declared) is not None:
            c.props[declared] = cs[declared]
    if cs.get("power") is not None:
        c.props["power_set"] = cs["power"]
    if cs.get("toughness") is not None:
        c.props["toughness_set"] = cs["toughness"]
    if zone == "battlefield":
        c.controller = cs.get("controller") or pid
        types = st.types(c)  # read once: nothing below changes them
        if "battle" in types:
            if "defense" not in c.counters:  # as if it had entered: 310.4b
                c.counters["defense"] = cs.get("defense") if cs.get("defense") is not None else (face_d.get("defense") or 0)
            prot = cs.get("protector")
            if prot is None and not st.subtypes(c):  # no subtype: no Siege either (is_siege)
                prot = c.controller  # 310.8a
            c.props["protector"] = prot
        if cs.get("attached_to"):
            c.props["attached_to"] = cs["attached_to"]
        if "planeswalker" in types and "loyalty" not in c.counters:
            c.counters["loyalty"] = face_d.get("props", {}).get("loyalty", 0)
    return c
