"""The turn as far as a case needs it: precombat main, combat, postcombat main (CR 505-511).

The request's ruleset picks the edition (editions.py); the engine cites that edition's clause numbers (State.c).

A case starts where ``setup.phase`` says (``main``, ``combat`` or ``main2``); an exhausted script at an
open point (a priority decision, or the active player's move in a main phase) ends the case there.
"""

from __future__ import annotations

from typing import Any

from ...core.game import run_procedure
from ...core.errors import ScriptError
from ...core.script import Anytime, Decision, DecisionPoint, GameOver, Script
from ...core.trace import Trace
from ...errors import OpenPoint
from ...model import CaseReply, CaseRequest
from .combat import combat_damage, combat_phase, declare_blockers, defending_players, end_of_combat
from . import sba
from .casting import cast_validator, put_spell
from .priority import priority_round, run_stack
from .state import Combat, State, build
from .triggers import fire
from .clauses import CR104_3A, CR117_3B, CR117_3D


def _declared_combat(st: State) -> None:
    """setup.step (setups.py): the attacks (508.1k) and, for combat_damage, the blocks (509.1g/509.1h) the setup
    states are in place; the defending players are those the attacks make (506.2/310.8d)."""
    st.combat = cb = Combat()
    for c in st.battlefield():
        if c.props.get("attacking") not in (None, False):
            cb.attackers[c.id] = c.props.pop("attacking")
    for c in st.battlefield():
        if c.props.get("blocking") is not None:
            aid = c.props.pop("blocking")
            cb.blockers[c.id] = aid
            cb.blocked.add(aid)
    cb.defending.extend(defending_players(st, cb.attackers))


def _concede_anywhere(st: State) -> Anytime:
    """104.3a: "A player can concede the game at any time." Where the conceder holds priority or makes the
    active player's main-phase move, ``concede`` is one of the point's own kinds (priority.py, :func:`main_phase`);
    at every other point (declaring attackers or blockers, assigning damage, a choice while something resolves)
    the entry is taken where it comes in the script, by any player still in the game (mtg:A-concede)."""

    def act(d: Decision, point: DecisionPoint) -> None:
        sba.concede(st, d.player)  # a two-player game (or one team left) ends here: GameOver
        if point.player in st.lost or st.active in st.lost:
            # the player asked (or the active player) has left: the procedure around a decision nobody is left to
            # make (800.4j: the turn goes on without its active player) is not modelled; the case ends here
            raise OpenPoint()

    return Anytime("concede", st.c(CR104_3A), lambda p: p in st.alive(), act)


def play(st: State, script: Script) -> None:
    start = st.step
    script.anytime = _concede_anywhere(st)
    try:
        if start in ("declare_blockers", "combat_damage"):
            if start == "declare_blockers":
                declare_blockers(st, script)
            combat_damage(st, script)
            end_of_combat(st, script)
            start = "main2"
        if start == "main":
            main_phase(st, script, "main")
        if start in ("main", "combat"):
            combat_phase(st, script)
        main_phase(st, script, "main2")
    except OpenPoint:
        return


def main_phase(st: State, script: Script, step: str) -> None:
    """The active player acts with an empty stack (casts, or passes: ``end_main``); every cast opens a priority
    round. After ``end_main`` the other players receive priority in turn order (117.3d; their passes may be
    implied); the phase ends when they all pass (117.4), and a spell one of them casts resolves first."""
    st.step = step
    while True:
        run_stack(st, script)
        got = script.decide(st.active, ("cast", "end_main", "concede"), st.c(CR117_3B if st.resolved else CR117_3D),
                            lambda d: None if d.kind in ("end_main", "concede") else cast_validator(st, st.active)(d),
                            optional=True)
        if got is None:
            raise OpenPoint()
        d, parsed = got
        st.resolved = False
        if d.kind == "concede":  # 104.3a; 800.4j (the turn going on without its active player) is not modelled
            sba.concede(st, st.active)
            raise OpenPoint()
        if d.kind == "end_main":
            if priority_round(st, script, first=1, passed=1):
                return
            continue
        put_spell(st, st.active, *parsed)


def project(st: State) -> dict[str, Any]:
    players = {}
    zones = st.board.project_zones()
    for p in st.board.players:
        players[p] = {**zones[p], "life": st.life[p], "lost": p in st.lost}
    cards = {}
    cb = st.combat
    for c in st.existing():  # 704.5d: a token that ceased to exist is nowhere
        if c.name is None:
            continue
        cid = c.id
        p, t = st.pt(c)
        cards[cid] = {
            "zone": c.zone, "owner": c.owner, "controller": c.controller, "face": c.props.get("face", "front"),
            "types": st.types(c), "subtypes": st.subtypes(c), "tapped": c.tapped, "defense": st.defense(c),
            "protector": c.props.get("protector"),
            "attacking": cb.attackers.get(c.id) if cb and c.id in cb.attackers else None,
            "blocking": cb.blockers.get(c.id) if cb else None,
            "attached_to": c.props.get("attached_to"), "damage": c.props.get("damage", 0),
            "counters": dict(c.counters), "power": p, "toughness": t,
        }
    return {"players": players, "cards": cards}


def explicit_script(request: CaseRequest) -> list[dict[str, Any]]:
    """The request's script with every implied pass written out (PROCEDURE.md, the pass shorthand): the passes
    the reference engine implied before each entry, inserted there; those after the last entry are left out.
    Legality questions (oracle.core.legality) are asked of explicit scripts: there every priority point is a
    script entry."""
    trace = Trace()
    st = _build(request, trace)
    script = Script(request.script, trace)
    try:
        play(st, script)
    except (GameOver, ScriptError):
        pass
    out: list[dict[str, Any]] = []
    implied = [(at, p) for at, p in st.implied if at < len(request.script)]
    for i, entry in enumerate(request.script):
        out += [{"player": p, "kind": "pass", "args": None} for at, p in implied if at == i]
        out.append(dict(entry))
    return out


def _build(req: CaseRequest, trace: Trace) -> State:
    st = build(req, trace)
    st.fire_event = fire  # 603.2: the composed triggered abilities hear of every event (triggers.py)
    if req.setup.get("step") in ("declare_blockers", "combat_damage"):
        _declared_combat(st)
    phase = req.setup.get("phase", "main")
    st.step = {"main": "main", "combat": "combat", "declare_attackers": "combat", "main2": "main2"}.get(phase, "main")
    if req.setup.get("step") in ("declare_blockers", "combat_damage"):
        st.step = req.setup["step"]
    return st


def run(request: CaseRequest) -> CaseReply:
    return run_procedure(request, _build, play, project)
