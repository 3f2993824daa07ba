#!/usr/bin/env python3
"""A starter engine for tcg-oracle: the smallest honest Ijinden engine, at observation level `final`.

Copy this file and grow it: it speaks the JSON-lines protocol on stdin/stdout, importing nothing from
tcg-oracle. It plays the battle of vanilla Ijin and guardians (cards with no abilities): the battle declaration
(A1), blocks (B1), the choice of the next attacker (C1a), an unblocked attacker wins (C1b), battles (D1-D6) and
the once-per-main-phase rule, from a setup at the start of the main phase or at a later step (`setup.step`).
Its hello declares no ability, so the harness skips every case whose cards have one.

At level `final` an engine reports no events: only, per script entry, whether it accepted or refused it (with
the reason code), the end state and the winner. Run it on every Ijinden case:

    tcg-oracle run --engine cmd:"python examples/starter-engine/engine.py" --game ijinden

The rules it follows are cases/ijinden/PROCEDURE.md (the steps, and the order in which refusals are checked)
and the Ijinden vocabulary (docs/vocabulary/ijinden.md: decisions, reason codes, final-state fields).
"""

import json
import sys

HELLO = {"type": "hello", "protocol_version": 2, "schema_version": 1,
         "engine": {"name": "starter-engine-py", "version": "0.1"}, "games": ["ijinden"], "capabilities": [],
         "abilities": {"ijinden": []},            # no ability implemented: cases that need one are skipped
         "observation": "final", "reason_codes": True}
ZONES = ("battlefield", "hand", "deck", "graveyard")


class CannotRun(Exception):
    """The case cannot be played (the script lacks a decision, or has some left over): answered as `error`."""


class Refused(Exception):
    def __init__(self, reason):
        self.reason = reason


class Game:
    def __init__(self, req):
        setup = req["setup"]
        self.active = setup["active"]
        self.players = list(setup["players"])           # in turn order; Ijinden has two
        self.defender = next(p for p in self.players if p != self.active)
        self.zones = {p: {z: [] for z in ZONES} for p in self.players}
        self.cards = {}
        for p, zones in setup["players"].items():
            for zone, content in zones.items():
                if zone not in ZONES:
                    continue
                if isinstance(content, int):            # anonymous cards: <player>.<zone>.<n>, from the top
                    content = [{"id": f"{p}.{zone}.{n}"} for n in range(1, content + 1)]
                for c in content:
                    printed = req["cards"].get(c.get("card"), {})
                    types = printed.get("types", [])
                    self.cards[c["id"]] = {
                        "zone": zone, "owner": p, "sleeping": c.get("tapped", False),
                        "new": c.get("entered_this_turn", False), "ijin": "ijin" in types,
                        "guardian": "guardian" in types, "power": c.get("power", printed.get("power")) or 0,
                        # a later-step setup says which cards are already in the battle
                        "attacker": c.get("attacking") is True, "blocking": c.get("blocking")}
                    self.zones[p][zone].append(c["id"])
        self.step = setup.get("step")                    # None, "block", "resolution" or "after_battle"
        self.declared = self.step is not None            # a later step: this turn's battle is declared
        self.script = req["script"]
        self.at = 0                                      # the next script entry
        self.decisions = []                              # per script entry: accepted or refused (why)
        self.winner = None

    def ask(self, player, kinds, check):
        """Take script entries until one is a legal decision of `player` of one of `kinds`; refuse the others."""
        while self.at < len(self.script):
            d, at = self.script[self.at], self.at
            self.at += 1
            try:
                if d["kind"] not in kinds:               # PROCEDURE.md: the kind first, then the player
                    raise Refused("unexpected_decision")
                if d["player"] != player:
                    raise Refused("not_turn_player" if player == self.active else "not_your_decision")
                check(d["args"], d["kind"])
            except Refused as r:                         # a refusal changes nothing; the same player decides again
                self.decisions.append({"at": at, "outcome": "refused", "reason": r.reason})
                continue
            self.decisions.append({"at": at, "outcome": "accepted"})
            return d
        return None

    def card(self, cid, not_a_card):
        """The card named `cid`: an id of nothing is `unknown_object`; a player's id is refused by `not_a_card`."""
        if not isinstance(cid, str) or (cid not in self.cards and cid not in self.players):
            raise Refused("unknown_object")
        if cid not in self.cards:
            raise Refused(not_a_card)
        return self.cards[cid]

    def check_attackers(self, ids):                      # A1, in PROCEDURE.md's order
        if self.declared:
            raise Refused("battle_already_declared")
        if not isinstance(ids, list):
            raise Refused("malformed_decision")
        if not ids:
            raise Refused("no_attackers")
        if len(set(map(str, ids))) != len(ids):
            raise Refused("attacker_twice")
        for cid in ids:
            c = self.card(cid, "attacker_not_yours")
            if c["owner"] != self.active or c["zone"] != "battlefield":
                raise Refused("attacker_not_yours")
            if not c["ijin"]:
                raise Refused("attacker_not_ijin")
            if c["sleeping"]:
                raise Refused("attacker_sleeping")
            if c["new"]:
                raise Refused("attacker_placed_this_turn")

    def check_blockers(self, plan):                      # B1, in PROCEDURE.md's order
        if not isinstance(plan, dict):
            raise Refused("malformed_decision")
        seen = set()
        for attacker, blockers in plan.items():
            if not isinstance(blockers, list):
                raise Refused("malformed_decision")
            if not self.card(attacker, "not_an_attacker")["attacker"]:
                raise Refused("not_an_attacker")
            for b in blockers:
                c = self.card(b, "blocker_not_defenders")
                if b in seen:
                    raise Refused("blocker_assigned_twice")
                seen.add(b)
                if c["owner"] != self.defender or c["zone"] != "battlefield":
                    raise Refused("blocker_not_defenders")
                if not (c["ijin"] or c["guardian"]):
                    raise Refused("blocker_not_ijin_or_guardian")
                if c["sleeping"]:
                    raise Refused("blocker_sleeping")

    def check_choice(self, cid):                         # C1a
        if not self.card(cid, "not_an_attacker")["attacker"]:
            raise Refused("not_an_attacker")

    def play(self):
        at = {None: "main", "after_battle": "main", "block": "block", "resolution": "resolution"}[self.step]
        while True:
            if at == "main":                             # the main phase's open point: a battle, or the end
                d = self.ask(self.active, ("declare_attackers", "end_turn"),
                             lambda args, kind: kind == "end_turn" or self.check_attackers(args))
                if d is None or d["kind"] == "end_turn":
                    return
                self.declared = True
                for cid in d["args"]:                    # A3: the attackers sleep and become attackers
                    self.cards[cid].update(sleeping=True, attacker=True)
            if at in ("main", "block"):                  # B1: the defender assigns blockers
                d = self.need(self.defender, ("declare_blockers",), lambda args, kind: self.check_blockers(args))
                for attacker, blockers in d["args"].items():
                    for b in blockers:
                        self.cards[b]["blocking"] = attacker
            while any(c["attacker"] for c in self.cards.values()):
                cid = self.need(self.defender, ("choose_attacker",), lambda args, kind: self.check_choice(args))["args"]
                blockers = [b for b, c in self.cards.items() if c["blocking"] == cid]
                if not blockers:                         # C1b: an unblocked attacker wins the game
                    self.winner = self.active
                    return
                self.battle(cid, blockers)
            at = "main"                                  # C2: back to the main phase

    def need(self, player, kinds, check):
        d = self.ask(player, kinds, check)
        if d is None:
            raise CannotRun(f"the script ended, but {player} must decide {' or '.join(kinds)}")
        return d

    def battle(self, attacker, blockers):
        """D1: the attacker against the sum of its blockers' powers, each blocker against the attacker; a
        guardian counts 0 and wins only against power 0 or less. D2-D4: the losers go to the graveyard at once.
        D6: the survivors stop being attacker and blockers."""
        def power(cid):
            c = self.cards[cid]
            return 0 if c["guardian"] and not c["ijin"] else c["power"]
        p = power(attacker)
        losers = [] if p > sum(power(b) for b in blockers) else [attacker]
        for b in blockers:
            c = self.cards[b]
            wins = p <= 0 if c["guardian"] and not c["ijin"] else power(b) > p
            losers += [] if wins else [b]
        for cid in losers:
            c = self.cards[cid]
            self.zones[c["owner"]]["battlefield"].remove(cid)
            self.zones[c["owner"]]["graveyard"].append(cid)
            c["zone"] = "graveyard"
        self.cards[attacker]["attacker"] = False
        for b in blockers:
            self.cards[b]["blocking"] = None

    def final(self):
        return {"players": {p: {**zones, "battle_declared": self.declared} for p, zones in self.zones.items()},
                "cards": {cid: {"zone": c["zone"], "owner": c["owner"], "sleeping": c["sleeping"],
                                "attacker": c["attacker"], "blocker": c["blocking"] is not None,
                                "destroyed": False, "ijin": c["ijin"], "guardian": c["guardian"],
                                "power": c["power"], "abilities": []} for cid, c in self.cards.items()}}


def answer(req):
    if req.get("game") != "ijinden":
        return {"type": "result", "id": req.get("id", ""), "error": "this engine plays ijinden only"}
    game = Game(req)
    try:
        game.play()
        if game.at < len(game.script):
            raise CannotRun(f"{len(game.script) - game.at} script entries left after the game ended")
    except CannotRun as e:
        return {"type": "result", "id": req["id"], "error": str(e)}
    return {"type": "result", "id": req["id"], "decisions": game.decisions, "final": game.final(),
            "winner": game.winner}


def main():
    print(json.dumps(HELLO), flush=True)                 # the hello, as soon as the engine starts
    for line in sys.stdin:                               # then one request per line, one reply per request
        req = json.loads(line)
        if req["type"] == "bye":
            return
        print(json.dumps(answer(req), ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
