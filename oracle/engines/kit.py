"""What in-process adapters of real engines share (``oracle/engines/*``): the parts of playing a case on an
engine that do not depend on the engine.

An adapter turns a :class:`~oracle.model.CaseRequest` into the engine's own setup and actions and writes a
protocol-2 reply (README, "What the reply holds"). Every adapter does the same five things around its engine:

- **lays out the board** the setup states (:func:`lay_out`): every zone of every player, a zone the case does not
  state empty (the case format: a player's zones are what the setup lists, nothing more), anonymous cards
  (``library: 5``) under the ids the reference engine derives (``alice.library.1`` from the top);
- **walks the script** (:class:`Record`): each entry's outcome (``accepted``, ``refused``, ``automatic``,
  ``not_asked``) with its ``decided``/``rejected`` event, the events each entry caused (``steps``) and the state
  after it (``checkpoints``);
- **implies passes** as ``cases/mtg/PROCEDURE.md``'s pass shorthand says (:func:`implies_pass`);
- **projects the end state** to the case format's ``final`` vocabulary (:func:`mtg_card`, :func:`mtg_player`);
- **says what it cannot set up** (:class:`CannotSetUp`): a board or a decision the engine has no way to be given
  is a ``skip`` with the reason, never an ``error`` (an error means the harness or the adapter broke) and never a
  ``fail`` (the engine decided nothing);

and names the engine by the version actually installed (:func:`installed_version`).
"""

from __future__ import annotations

import importlib.metadata
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from ..errors import CannotSetUp

__all__ = ["CannotSetUp", "installed_version", "Placed", "Layout", "lay_out", "Record", "OUTCOMES",
           "implies_pass", "MTG_ZONES", "mtg_player", "mtg_card"]

OUTCOMES = ("accepted", "refused", "automatic", "not_asked")
"""A script entry's outcome (protocol 2, ``decisions``)."""


def installed_version(distribution: str) -> str | None:
    """The version of the installed ``distribution`` (``phase-python`` -> ``"0.83.0"``), read from its metadata,
    so a run names the release it ran on; ``None`` when it is not installed."""
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


# ------------------------------------------------------------------------------------------------
# The board


@dataclass(frozen=True)
class Placed:
    """One card of the setup where the case puts it. ``spec`` is the setup's own mapping for the card (its
    ``card``, ``tapped``, ``counters``, ...); an anonymous card's is ``{id, card}`` with ``card`` the filler."""

    player: str          # whose zone holds it
    zone: str
    id: str
    card: str
    owner: str
    controller: str
    anonymous: bool
    spec: Mapping[str, Any]


@dataclass(frozen=True)
class Layout:
    """The setup's board: for every player (in turn order) and every zone of the game, the cards in it, in the
    order listed (a library from the top). A zone the setup does not state is empty."""

    players: tuple[str, ...]
    active: str
    zones: Mapping[tuple[str, str], tuple[Placed, ...]]
    stated: frozenset[tuple[str, str]]   # (player, zone) the setup states, a count or a list (even empty)
    life: Mapping[str, int]

    def cards(self, zone: str | None = None) -> Iterable[Placed]:
        """Every card placed, player by player in turn order (only ``zone``'s when given)."""
        for (_, z), cards in self.zones.items():
            if zone is None or z == zone:
                yield from cards

    def of(self, player: str, zone: str) -> tuple[Placed, ...]:
        return self.zones[(player, zone)]

    def find(self, card_id: str) -> Placed | None:
        return next((c for c in self.cards() if c.id == card_id), None)


PLAYER_FIELDS = ("life", "team")
"""A setup player's fields that are not zones."""


def lay_out(setup: Mapping[str, Any], zones: tuple[str, ...], *, filler: str | None = None,
            anonymous_zones: tuple[str, ...] = (), default_life: int = 20) -> Layout:
    """The board ``setup`` states, over the game's ``zones``. Anonymous cards (a count) become ``filler`` cards
    with the ids ``<player>.<zone>.<n>`` (from 1, the top first) in ``anonymous_zones``; a count elsewhere, or a
    zone outside ``zones`` that holds cards, is :class:`CannotSetUp` naming the player and zone."""
    players = tuple(setup["players"])
    out: dict[tuple[str, str], tuple[Placed, ...]] = {(p, z): () for p in players for z in zones}
    stated: set[tuple[str, str]] = set()
    life: dict[str, int] = {}
    for p, pdata in setup["players"].items():
        life[p] = pdata["life"] if pdata.get("life") is not None else default_life
        for zone, content in pdata.items():
            if zone in PLAYER_FIELDS:
                continue
            if zone not in zones:
                if content:
                    raise CannotSetUp(f"{p}.{zone}: the engine has no zone {zone!r} to set a card up in")
                continue
            stated.add((p, zone))
            if isinstance(content, int):
                if content and (filler is None or zone not in anonymous_zones):
                    raise CannotSetUp(f"{p}.{zone}: anonymous cards are not placed in {zone} on this engine")
                content = [{"id": f"{p}.{zone}.{n}", "card": filler} for n in range(1, content + 1)]
                anonymous = True
            else:
                anonymous = False
            out[(p, zone)] = tuple(
                Placed(player=p, zone=zone, id=cs["id"], card=cs["card"], owner=cs.get("owner") or p,
                       controller=cs.get("controller") or p, anonymous=anonymous, spec=cs)
                for cs in content or [])
    return Layout(players=players, active=setup["active"], zones=out, stated=frozenset(stated), life=life)


# ------------------------------------------------------------------------------------------------
# The script and the reply


PRIORITY_KINDS = ("pass", "cast", "concede")
"""Magic decisions made where their player holds priority (a concede: mtg:A-concede)."""


def implies_pass(entry: Mapping[str, Any], holder: str, *, open_point: bool,
                 priority_kinds: tuple[str, ...] = PRIORITY_KINDS) -> bool:
    """PROCEDURE.md's pass shorthand: does ``holder``, who holds priority, pass without a script entry before
    ``entry``? Yes unless ``entry`` is a priority decision (``pass``, ``cast``, ``concede``) of ``holder``, or this
    is the active player's decision in a main phase with an empty stack (``open_point``: never implied)."""
    if open_point:
        return False
    return not (entry["kind"] in priority_kinds and entry["player"] == holder)


@dataclass
class Record:
    """The reply being written while a case is played: per script entry its outcome (``decisions``), the events
    it caused (``steps``, entry ``-1`` for those before the first) and the state after it (``checkpoints``).

    A checkpoint is the state after its entry *and what it caused before the next decision* (README): take it
    with :meth:`checkpoint` when the entry is done and :meth:`refresh` it once the passes implied before the next
    entry are made."""

    decisions: list[dict[str, Any]] = field(default_factory=list)
    steps: list[dict[str, Any]] = field(default_factory=list)
    checkpoints: list[dict[str, Any]] = field(default_factory=list)
    why: dict[int, str] = field(default_factory=dict)     # a refused entry: the engine's own words

    def events(self, at: int) -> list[dict[str, Any]]:
        """The events of entry ``at`` (a list to append to)."""
        for s in self.steps:
            if s["after"] == at:
                return s["events"]
        self.steps.append({"after": at, "events": []})
        return self.steps[-1]["events"]

    def event(self, at: int, kind: str, **args: Any) -> None:
        self.events(at).append({"kind": kind, "args": args})

    def outcome(self, at: int, entry: Mapping[str, Any], outcome: str, state: dict[str, Any],
                why: str | None = None) -> None:
        """Entry ``at``'s outcome, with its ``decided`` (accepted, automatic) or ``rejected`` (refused) event
        first among its events (``not_asked``: none), and the checkpoint ``state`` after it."""
        if outcome not in OUTCOMES:
            raise ValueError(f"script[{at}]: outcome {outcome!r} is not one of {', '.join(OUTCOMES)}")
        self.decisions.append({"at": at, "outcome": outcome})
        if why:
            self.why[at] = why
        evs = self.events(at)
        if outcome == "refused":
            evs.insert(0, {"kind": "rejected", "args": {"at": at, "player": entry["player"]}})
        elif outcome != "not_asked":
            evs.insert(0, {"kind": "decided", "args": {"at": at, "player": entry["player"], "decision": entry["kind"]}})
        self.checkpoint(at, state)

    def checkpoint(self, at: int, state: dict[str, Any]) -> None:
        self.checkpoints.append({"after": at, "state": state})

    def refresh(self, at: int, state: dict[str, Any]) -> None:
        """Replace the checkpoint after entry ``at`` (when it is the last one) by ``state``."""
        if self.checkpoints and self.checkpoints[-1]["after"] == at:
            self.checkpoints[-1]["state"] = state

    def reply(self, case_id: str, final: dict[str, Any], winner: str | None) -> dict[str, Any]:
        """The protocol-2 reply (level ``steps``) as a dict; steps with no event are left out, except the
        entries' own."""
        return {"id": case_id, "final": final, "winner": winner, "decisions": self.decisions,
                "checkpoints": self.checkpoints,
                "steps": [s for s in self.steps if s["events"] or s["after"] >= 0], "why": self.why}


# ------------------------------------------------------------------------------------------------
# The Magic ``final`` projection


MTG_ZONES = ("battlefield", "hand", "library", "graveyard", "exile", "stack")
"""The Magic zones an engine's cards can be in (the vocabulary's ``outside_game`` has no engine counterpart
so far: an engine reports where it put the card)."""


def mtg_player(life: int, lost: bool, zones: tuple[str, ...] = MTG_ZONES) -> dict[str, Any]:
    """One player of Magic's ``final`` projection: every zone (filled by the caller, ids in order), ``life``,
    ``lost``."""
    return {**{z: [] for z in zones}, "life": life, "lost": lost}


def mtg_card(*, zone: str, owner: str, controller: str, face: str = "front", types: Iterable[str] = (),
             subtypes: Iterable[str] = (), tapped: bool = False, defense: int = 0, protector: str | None = None,
             attacking: str | None = None, blocking: str | None = None, attached_to: str | None = None,
             damage: int = 0, counters: Mapping[str, int] | None = None, power: int = 0,
             toughness: int = 0) -> dict[str, Any]:
    """One card of Magic's ``final`` projection, with every field the reference engine projects
    (``oracle/games/mtg/procedure.py``)."""
    return {"zone": zone, "owner": owner, "controller": controller, "face": face, "types": list(types),
            "subtypes": list(subtypes), "tapped": tapped, "defense": defense, "protector": protector,
            "attacking": attacking, "blocking": blocking, "attached_to": attached_to, "damage": damage,
            "counters": dict(counters or {}), "power": power, "toughness": toughness}
