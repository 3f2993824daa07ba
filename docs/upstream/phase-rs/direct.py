"""A few lines around phase-python's own API for the reproductions in this folder (no tcg-oracle import).

Cards are MTGJSON-shaped atomic cards parsed by phase's ``build_oracle_face`` (a transforming card: two faces of
``layout: transform`` sharing one oracle id, through ``build_oracle_face_multi``). A board is set up the way a
client would restore a saved game: a game is started with the cards in the decks, every mulligan kept, the
exported ``Game.state()`` is edited (cards moved from the library to their zones, the turn set at the draw step's
priority) and loaded back with ``Engine.load_game``; the players then pass into the precombat main phase, so phase
itself checks state-based actions on the board.

Run each script with phase-python installed (``pip install phase-python==0.103.0``), from this folder:
``python bug01_animated_battle_attacks.py``. Each prints what phase does and ends with ``REPRODUCED`` or
``NOT REPRODUCED``.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Callable

from phase import Engine, GameAction, build_oracle_face, build_oracle_face_multi


def oracle_id(name: str) -> str:
    h = hashlib.md5(name.encode()).hexdigest()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def card(name: str, types: list[str], subtypes: list[str] = (), text: str = "", power: int | None = None,
         toughness: int | None = None, defense: int | None = None, supertypes: list[str] = ()) -> dict[str, Any]:
    """An MTGJSON atomic card costing {0}."""
    line = " ".join([*supertypes, *types]) + (" — " + " ".join(subtypes) if subtypes else "")
    d: dict[str, Any] = {"name": name, "manaCost": "{0}", "manaValue": 0.0, "colors": [], "colorIdentity": [],
                         "text": text, "layout": "normal", "type": line, "types": list(types),
                         "subtypes": list(subtypes), "supertypes": list(supertypes), "legalities": {},
                         "identifiers": {"scryfallOracleId": oracle_id(name)}}
    if power is not None:
        d["power"], d["toughness"] = str(power), str(toughness)
    if defense is not None:
        d["defense"] = str(defense)
    return d


def transform(front: dict[str, Any], back: dict[str, Any]) -> list[dict[str, Any]]:
    """The two faces of a transforming double-faced card ``Front // Back``."""
    full = f"{front['name']} // {back['name']}"
    out = []
    for side, f in (("a", front), ("b", back)):
        f = dict(f, name=full, faceName=f["name"], side=side, layout="transform",
                 identifiers={"scryfallOracleId": oracle_id(full)})
        out.append(f)
    return out


PLAINS = card("Plains", ["Land"], ["Plains"], "({T}: Add {W}.)", supertypes=["Basic"])


def engine(cards: list[Any]) -> Engine:
    """An engine knowing ``cards`` (single faces, or the lists :func:`transform` returns) and Plains."""
    out: dict[str, Any] = {}
    for c in [PLAINS, *cards]:
        if isinstance(c, list):
            for i, f in enumerate(c):
                built = dict(build_oracle_face_multi(f, f["identifiers"]["scryfallOracleId"]))
                built["layout"], built["face_index"] = "transform", i
                out[built["name"].lower()] = built
        else:
            built = build_oracle_face(c, c["identifiers"]["scryfallOracleId"])
            out[built["name"].lower()] = built
    return Engine.from_json(json.dumps(out))


def game(eng: Engine, seats: list[dict[str, list[Any]]], active: int = 0, fmt: str | None = None) -> tuple[Any, dict]:
    """A game whose seat ``n`` has the zones ``seats[n]`` (``{"battlefield": [name or (name, {field: value})],
    "hand": [...], "library": [...], "life": n}``; a zone not given is empty, life 20), started at the draw step of turn 1 with
    ``active`` the active player, then passed into the precombat main phase. Returns the game and
    ``{(seat, name): object id}`` (the first object of that name in the seat)."""
    decks = [[(c if isinstance(c, str) else c[0]) for z, cs in s.items() if z != "life" for c in cs] or ["Plains"]
             for s in seats]
    kw = {"format": fmt} if fmt else ({"format": "FreeForAll"} if len(seats) > 2 else {})
    g = eng.new_game(decks[0], decks[1], extra_players=decks[2:] or None, seed=1, first_player=active, **kw)
    while g.waiting_for()["type"] == "MulliganDecision":
        p = g.waiting_for()["data"]["pending"][0]["player"]
        g.apply(p, next(a for a in g.actions() if a.kind == "MulliganDecision" and a.data["choice"]["type"] == "Keep"))
    exported = g.state()
    s = exported["state"]
    objs = s["objects"]
    ids: dict[tuple[int, str], int] = {}
    for seat, zones in enumerate(seats):
        pl = s["players"][seat]
        pool = pl["hand"] + pl["library"]
        pl["hand"], pl["library"] = [], []
        pl["life"] = zones.get("life", 20)
        for zone, cards in zones.items():
            if zone == "life":
                continue
            for c in cards:
                name, extra = (c, {}) if isinstance(c, str) else c
                i = next(i for i in pool if objs[str(i)]["name"] == name)
                pool.remove(i)
                ids.setdefault((seat, name), i)
                o = objs[str(i)]
                if zone == "battlefield":
                    o.update(zone="Battlefield", controller=seat, base_controller=seat, tapped=False,
                             summoning_sick=False, entered_battlefield_turn=0, timestamp=s["next_timestamp"])
                    s["next_timestamp"] += 1
                    s["battlefield"].append(i)
                    if "defense" in extra:
                        o["counters"] = {"defense": extra["defense"]}
                        o["defense"] = extra["defense"]
                    if "protector" in extra:
                        o["chosen_attributes"] = [{"type": "Player", "value": extra["protector"]}]
                    if "counters" in extra:
                        o["counters"] = dict(o.get("counters") or {}, **extra["counters"])
                    if extra.get("is_token"):  # a token on the battlefield (phase's own flag)
                        o["is_token"] = True
                elif zone == "hand":
                    o["zone"] = "Hand"
                    pl["hand"].append(i)
                elif zone == "library":
                    pl["library"].append(i)
                elif zone == "graveyard":
                    o["zone"] = "Graveyard"
                    pl["graveyard"].append(i)
        for i in pool:       # a filler phase needed to start: not in the game
            del objs[str(i)]
    s["phase"] = "Draw"
    s["priority_player"] = s["active_player"]
    s["waiting_for"] = {"type": "Priority", "data": {"player": s["active_player"]}}
    g = eng.load_game(exported)
    pass_until(g, lambda g: g.phase == "PreCombatMain")
    return g, ids


def who(g: Any) -> int:
    d = g.waiting_for().get("data") or {}
    p = d.get("player") if isinstance(d, dict) else None
    return g.priority_player() if p is None else p


SKIP = {"PriorityPassed", "ManaAdded"}


def act(g: Any, kind: str, pred: Callable[[dict], bool] = lambda d: True, seat: int | None = None) -> list[dict]:
    """Apply the first legal action of ``kind`` whose data ``pred`` accepts; print and return its events."""
    legal = [a for a in g.actions() if a.kind == kind and pred(a.data)]
    if not legal:
        raise RuntimeError(f"no legal {kind}: waiting for {json.dumps(g.waiting_for())[:300]}")
    return _show(g, g.apply(who(g) if seat is None else seat, legal[0]), kind)


def raw(g: Any, action: dict[str, Any], seat: int | None = None) -> list[dict]:
    """Apply a ``GameAction`` given as a dict (phase checks it); print and return its events."""
    return _show(g, g.apply(who(g) if seat is None else seat, GameAction.from_dict(action)), action["type"])


def _show(g: Any, result: Any, label: str) -> list[dict]:
    events = list(result.events)
    print(f"-- {label}: phase={g.phase} waiting_for={g.waiting_for()['type']} priority={g.priority_player()}")
    for e in events:
        if e["type"] not in SKIP:
            print("     ", json.dumps(e)[:220])
    return events


def pass_until(g: Any, done: Callable[[Any], bool], limit: int = 60) -> None:
    for _ in range(limit):
        if done(g):
            return
        if g.waiting_for()["type"] != "Priority":
            raise RuntimeError(f"phase asks for {json.dumps(g.waiting_for())[:300]}")
        g.apply(who(g), next(a for a in g.actions() if a.kind == "PassPriority"))
    raise RuntimeError("no end to the passes")


def verdict(reproduced: bool, what: str) -> None:
    print(("REPRODUCED: " if reproduced else "NOT REPRODUCED: ") + what)
