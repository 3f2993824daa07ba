#!/usr/bin/env python3
"""A minimal Ijinden engine for tcg-oracle, written only against the documented JSON-lines protocol
(the README section "For engine authors" and cases/ijinden/PROCEDURE.md); it does not import `oracle`.

It plays the battle of vanilla Ijin: declaring attackers (A1, A3), declaring blockers (B1, B3), choosing
the resolution step (C1), the next attacker (C1a), an unblocked attacker wins (C1b), and a battle against one blocker (D1, D2, D4,
D6, C2). Abilities, guardians and several blockers on one attacker are not implemented: such a case is
answered with an `error` (an honest "cannot run this", never a guess).

    tcg-oracle run --engine cmd:"python tests/engines/example_engine.py" --game ijinden \
        -k "single-unblocked or attackers-one-moment or refuse.attacker or refuse.no-attackers \
            or refuse.second-battle or refuse.blocker or d1.blocker-greater or d1.tie-single or d1.zero-vs-zero"
"""

import json
import sys


class Unsupported(Exception):
    pass


class Refused(Exception):
    def __init__(self, reason):
        self.reason = reason


class GameOver(Exception):
    pass


class Battle:
    def __init__(self, req):
        setup = req["setup"]
        self.active = setup["active"]
        self.players = list(setup["players"])
        self.defender = next(p for p in self.players if p != self.active)
        self.zones = {p: {z: [] for z in ("battlefield", "hand", "deck", "graveyard")} for p in self.players}
        self.cards = {}
        for pid, player in setup["players"].items():
            for zone, content in player.items():
                if zone in ("life", "team"):
                    continue
                if isinstance(content, int):
                    self.zones[pid][zone] = [f"{pid}.{zone}.{n}" for n in range(1, content + 1)]
                    continue
                for cs in content:
                    d = req["cards"][cs["card"]]
                    if d.get("abilities") or cs.get("abilities") or d.get("types") != ["ijin"]:
                        raise Unsupported(f"card {cs['id']}: only vanilla Ijin are implemented")
                    self.cards[cs["id"]] = {"owner": pid, "zone": zone, "sleeping": cs.get("tapped", False),
                                            "new": cs.get("entered_this_turn", False),
                                            "power": cs.get("power", d.get("power")) or 0,
                                            "attacker": False, "blocker": False, "destroyed": False}
                    self.zones[pid][zone].append(cs["id"])
        self.script = req["script"]
        self.at = 0
        self.trace = []
        self.moment = 0
        self.winner = None
        self.declared = False
        self.blockers = {}  # attacker -> [blockers]

    # -- trace and decisions ---------------------------------------------------------------
    def emit(self, *events):
        """One moment: the events happen at once."""
        self.moment += 1
        self.trace.extend({"moment": self.moment, "kind": k, "args": a} for k, a in events)

    def decide(self, player, kinds, validate, optional=False):
        while self.at < len(self.script):
            d, at = self.script[self.at], self.at
            self.at += 1
            try:
                if d["kind"] not in kinds:
                    raise Refused("unexpected_decision")
                if d["player"] != player:  # the battle declaration and end_turn are the turn player's
                    raise Refused("not_turn_player" if d["kind"] in ("declare_attackers", "end_turn")
                                  else "not_your_decision")
                parsed = validate(d)
            except Refused as r:
                self.emit(("rejected", {"at": at, "player": d["player"], "reason": r.reason}))
                continue
            self.emit(("decided", {"at": at, "player": player, "decision": d["kind"]}))
            return d, parsed
        if optional:
            return None
        raise Unsupported(f"script: the script ended, but a decision of {player} ({' or '.join(kinds)}) is needed")

    # -- the procedure ---------------------------------------------------------------------
    def play(self):
        while True:
            got = self.decide(self.active, ("declare_attackers", "end_turn"), self.check_attackers, optional=True)
            if got is None or got[0]["kind"] == "end_turn":
                return
            self.battle(got[1])

    def check_attackers(self, d):
        if d["kind"] == "end_turn":
            return None
        if self.declared:
            raise Refused("battle_already_declared")
        ids = d["args"]
        if not isinstance(ids, list):
            raise Refused("malformed_decision")
        if not ids:
            raise Refused("no_attackers")
        if len(set(ids)) != len(ids):
            raise Refused("attacker_twice")
        for cid in ids:
            c = self.cards.get(cid)
            if c is None:
                raise Refused("unknown_object")
            if c["owner"] != self.active or c["zone"] != "battlefield":
                raise Refused("attacker_not_yours")
            if c["sleeping"]:
                raise Refused("attacker_sleeping")
            if c["new"]:
                raise Refused("attacker_placed_this_turn")
        return ids

    def check_blockers(self, d):
        plan = d["args"]
        if not isinstance(plan, dict):
            raise Refused("malformed_decision")
        seen = set()
        for attacker, blockers in plan.items():
            if not isinstance(blockers, list) or not all(isinstance(b, str) for b in blockers):
                raise Refused("malformed_decision")
            if not self.cards.get(attacker, {}).get("attacker"):
                raise Refused("not_an_attacker")
            for b in blockers:
                c = self.cards.get(b)
                if c is None:
                    raise Refused("unknown_object")
                if c["owner"] != self.defender or c["zone"] != "battlefield":
                    raise Refused("blocker_not_defenders")
                if b in seen:
                    raise Refused("blocker_assigned_twice")
                if c["sleeping"]:
                    raise Refused("blocker_sleeping")
                seen.add(b)
        return {a: list(bs) for a, bs in plan.items() if bs}

    def battle(self, attackers):
        self.declared = True
        self.emit(("declared_battle", {"player": self.active}))                       # A1
        events = []
        for a in attackers:                                                            # A3: one moment
            self.cards[a].update(sleeping=True, attacker=True)
            events += [("slept", {"card": a}), ("became_attacker", {"card": a})]
        self.emit(*events, ("attacked", {"player": self.active}))
        _, plan = self.decide(self.defender, ("declare_blockers",), self.check_blockers)  # B1
        if any(len(bs) > 1 for bs in plan.values()):
            raise Unsupported("several blockers on one attacker are not implemented")
        events = []
        for a, bs in plan.items():                                                     # B3: one moment
            for b in bs:
                self.cards[b]["blocker"] = True
                events.append(("became_blocker", {"card": b, "attacker": a}))
            events.append(("blocked", {"card": a}))
        if events:
            self.emit(*events)
        self.blockers = plan
        self.emit(("entered_resolution_step", {"attackers": [a for a in attackers if self.cards[a]["attacker"]]}))
        while any(c["attacker"] for c in self.cards.values()):                         # C1
            _, a = self.decide(self.defender, ("choose_attacker",), self.check_choice)
            self.emit(("chose_attacker", {"player": self.defender, "card": a}))
            if not self.blockers.get(a):                                               # C1b: unblocked
                self.winner = self.active
                self.emit(("won", {"player": self.active}))
                raise GameOver
            self.resolve(a, self.blockers[a][0])
        self.emit(("battle_ended", {"player": self.active}))                          # C2

    def check_choice(self, d):
        if not self.cards.get(d["args"], {}).get("attacker"):
            raise Refused("not_an_attacker")
        return d["args"]

    def resolve(self, a, b):
        pa, pb = self.cards[a]["power"], self.cards[b]["power"]                        # D1: one moment
        self.emit(*[("won_battle" if mine > theirs else "lost_battle", {"card": cid, "power": mine, "against": theirs})
                    for cid, mine, theirs in ((a, pa, pb), (b, pb, pa))])
        losers = [cid for cid, mine, theirs in ((a, pa, pb), (b, pb, pa)) if mine <= theirs]
        for cid in losers:
            self.cards[cid]["destroyed"] = True
        self.emit(*[("destroyed", {"card": cid}) for cid in losers])                  # D2: one moment
        events = []
        for cid in losers:                                                             # D4: one moment
            c = self.cards[cid]
            self.zones[c["owner"]]["battlefield"].remove(cid)
            self.zones[c["owner"]]["graveyard"].append(cid)
            c.update(zone="graveyard", destroyed=False)
            events.append(("moved", {"card": cid, "player": c["owner"], "from": "battlefield", "to": "graveyard"}))
        if a in losers:   # the attacker left: it ceases to be an attacker, and its blocker a blocker
            events += [("ceased_attacker", {"card": a}), ("ceased_blocker", {"card": b})]
            self.cards[a]["attacker"] = self.cards[b]["blocker"] = False
        elif b in losers:
            events.append(("ceased_blocker", {"card": b}))
            self.cards[b]["blocker"] = False
        if events:
            self.emit(*events)
        events = []                                                                     # D6: one moment
        if self.cards[a]["attacker"]:
            events.append(("ceased_attacker", {"card": a}))
            self.cards[a]["attacker"] = False
        if self.cards[b]["blocker"]:
            events.append(("ceased_blocker", {"card": b}))
            self.cards[b]["blocker"] = False
        self.emit(*events, ("battle_resolution_ended", {"card": a}))

    def final(self):
        return {"players": {p: {**zones, "battle_declared": self.declared} for p, zones in self.zones.items()},
                "cards": {cid: {"zone": c["zone"], "owner": c["owner"], "sleeping": c["sleeping"],
                                "attacker": c["attacker"], "blocker": c["blocker"], "destroyed": c["destroyed"],
                                "ijin": True, "guardian": False, "power": c["power"], "abilities": []}
                          for cid, c in self.cards.items()}}


def answer(req):
    if req.get("game") != "ijinden":
        return {"type": "result", "id": req.get("id", ""), "error": "this engine plays ijinden only"}
    try:
        battle = Battle(req)
        try:
            battle.play()
        except GameOver:
            pass
        if battle.at < len(battle.script):
            raise Unsupported(f"script: {len(battle.script) - battle.at} decision(s) left over")
    except Unsupported as exc:
        return {"type": "result", "id": req["id"], "error": f"example engine: {exc}"}
    return {"type": "result", "id": req["id"], "trace": battle.trace, "final": battle.final(),
            "winner": battle.winner}


def main():
    out = sys.stdout
    out.write(json.dumps({"type": "hello", "protocol_version": 1, "schema_version": 1,
                          "engine": {"name": "example-engine", "version": "0.1"},
                          "games": ["ijinden"], "capabilities": []}) + "\n")
    out.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        if req.get("type") == "bye":
            break
        out.write(json.dumps(answer(req), ensure_ascii=False) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
