"""The turn as far as a case needs it: precombat main, combat, postcombat main (CR 505-511).

The request's ruleset picks the edition (editions.py); the engine cites that edition's clause numbers (State.c).

A case starts where ``setup.phase`` says (``main``, ``combat`` or ``main2``); an exhausted script at an
open point (a priority decision, or the active player's move in a main phase) ends the case there.
"""

from __future__ import annotations

from typing import Any

from ...core.board import Board, Card, normalize_abilities
from ...core.game import run_procedure
from ...core.errors import ScriptError
from ...core.script import GameOver, Script
from ...core.trace import Trace
from ...model import CaseReply, CaseRequest
from .combat import combat_damage, combat_phase, declare_blockers, defending_players, end_of_combat
from .stack import Stop, cast_validator, priority_round, put_spell, run_stack
from .state import Combat, State
from .vocabulary import ZONES


def build(request: CaseRequest, trace: Trace) -> State:
    setup = request.setup
    players = list(setup["players"])
    board = Board(players, setup["active"], ZONES, trace)
    life = {p: (setup["players"][p].get("life") if setup["players"][p].get("life") is not None else 20)
            for p in players}
    team = {p: setup["players"][p].get("team") or p for p in players}
    st = State(board=board, trace=trace, cards_def=request.cards, life=life, team=team, ruleset=request.ruleset)
    st.two_headed = len(set(team.values())) < len(players)
    for pid, pdata in setup["players"].items():
        for zone, content in pdata.items():
            if zone in ("life", "team"):
                continue
            if isinstance(content, int):
                board.fill_anonymous(pid, zone, content)
                continue
            for cs in content:
                _place(st, pid, zone, cs)
    if setup.get("step") in ("declare_blockers", "combat_damage"):
        _declared_combat(st)
    return st


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


def _place(st: State, pid: str, zone: str, cs: dict[str, Any]) -> None:
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
        if st.is_battle(c):
            if "defense" not in c.counters:  # as if it had entered: 310.4b
                c.counters["defense"] = cs.get("defense") if cs.get("defense") is not None else (face_d.get("defense") or 0)
            prot = cs.get("protector")
            if prot is None and not st.is_siege(c) and not st.subtypes(c):
                prot = c.controller  # 310.8a
            c.props["protector"] = prot
        if cs.get("attached_to"):
            c.props["attached_to"] = cs["attached_to"]
        if st.is_planeswalker(c) and "loyalty" not in c.counters:
            c.counters["loyalty"] = face_d.get("props", {}).get("loyalty", 0)
    # Board.place files a battlefield card under its controller, others under the owner
    st.board.place(c)


def play(st: State, script: Script) -> None:
    start = st.step
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
    except Stop:
        return


def main_phase(st: State, script: Script, step: str) -> None:
    """The active player acts with an empty stack (casts, or passes: ``end_main``); every cast opens a priority
    round. After ``end_main`` the other players receive priority in turn order (117.3d; their passes may be
    implied); the phase ends when they all pass (117.4), and a spell one of them casts resolves first."""
    st.step = step
    while True:
        run_stack(st, script)
        got = script.decide(st.active, ("cast", "end_main"), st.c("117.3b" if st.resolved else "117.3d"),
                            lambda d: None if d.kind == "end_main" else cast_validator(st, st.active)(d),
                            optional=True)
        if got is None:
            raise Stop()
        d, parsed = got
        st.resolved = False
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
    for cid, c in st.board.cards.items():
        if c.name is None:
            continue
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
    phase = req.setup.get("phase", "main")
    st.step = {"main": "main", "combat": "combat", "declare_attackers": "combat", "main2": "main2"}.get(phase, "main")
    if req.setup.get("step") in ("declare_blockers", "combat_damage"):
        st.step = req.setup["step"]
    return st


def run(request: CaseRequest) -> CaseReply:
    return run_procedure(request, _build, play, project)
