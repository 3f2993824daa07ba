"""The Ijinden battle procedure, step by step as seed 000 gives it: A1-A4, B1-B4, C1-C2, D1-D6.

Every trace entry carries the clause that produced it; what the rules make simultaneous is one moment.
Readings where the seed is silent are the catalog's assumptions (``cases/ijinden/rules.yaml``).
"""

from __future__ import annotations

from typing import Any

from ...core.game import run_procedure
from ...core.script import Decision, GameOver, Refusal, Script
from ...model import CaseReply, CaseRequest
from . import abilities as ab
from .clauses import (
    A1, A2, A3, A4, B1, B2, B3, B4, BATTLE, C1, C1A, C1B, C2, CEASE_ATTACKER, CEASE_BLOCKER, D1, D2, D3, D4, D5, D6,
    PASS_THROUGH_1, PASS_THROUGH_2, RC_GUARDIAN_WIN, TRIPLE_PRESSURE,
)
from .state import Battle, State, build, project




def run(request: CaseRequest) -> CaseReply:
    step = request.setup.get("step")

    def build_at(req: CaseRequest, trace) -> State:
        state = build(req, trace)
        if step is not None:
            battle_at(state, req.setup, step)
        return state

    return run_procedure(request, build_at, lambda state, script: Procedure(state, script).start(step), project)


def battle_at(state: State, setup: dict[str, Any], step: str) -> None:
    """A setup that starts at a later step (the vocabulary's ``steps``): the battle of this turn has been
    declared (BATTLE); at ``block`` its attack step is over (A1-A4: the ``attacking`` cards chose, slept
    and became attackers, attack+ in effect), at ``resolution`` its block step too (B1-B4: each
    ``blocking`` card became the blocker of its attacker, which is blocked; block+ in effect)."""
    state.battle_declared = True
    if step == "after_battle":
        return
    cards = [cs for p in setup["players"].values() for content in p.values() if isinstance(content, list)
             for cs in content if isinstance(cs, dict)]
    attackers = [cs["id"] for cs in cards if cs.get("attacking")]
    defending = next(p for p in state.board.players if p != state.active)
    b = Battle(attacking=state.active, defending=defending, chosen=list(attackers), attackers=list(attackers),
               attack_plus=True, a3_done=True)
    if step == "resolution":
        for cs in cards:
            if cs.get("blocking"):
                b.blockers.setdefault(cs["blocking"], []).append(cs["id"])
                b.blockers_chosen.append(cs["id"])
        b.blocked = set(b.blockers)
        b.block_plus = b.b3_done = True
    state.battle = b


class Procedure:
    """One case's main phase: the open point, and the battle when it is declared."""

    def __init__(self, state: State, script: Script) -> None:
        self.state, self.script, self.trace = state, script, state.trace

    # -- the main phase ------------------------------------------------------------------------
    def start(self, step: str | None) -> None:
        """The case's first step: the main phase's open point, or a later step (:func:`battle_at`); the
        battle goes on from there, then the main phase."""
        if step == "block":
            self.block_step()
        if step in ("block", "resolution"):
            self.resolution_step()
        self.main_phase()

    def main_phase(self) -> None:
        """メインフェイズの間に、ターンを進めているプレイヤーは1回だけバトルを宣言することができる."""
        while True:
            taken = self.script.decide(self.state.active, ("declare_attackers", "end_turn"), BATTLE,
                                       self._validate_declaration, optional=True,
                                       wrong_player="not_turn_player")
            if taken is None or taken[0].kind == "end_turn":
                return
            self.battle(taken[1])

    def _validate_declaration(self, d: Decision) -> list[str]:
        if d.kind == "end_turn":
            return []
        if self.state.battle_declared:
            raise Refusal("battle_already_declared")
        return self._validate_attackers(d.args)

    def _validate_attackers(self, args: Any) -> list[str]:
        """A1: one or more of your Ijin, awake, not placed this turn (unless 即応)."""
        state = self.state
        ids = args  # a list, as the vocabulary says: a lone id is not read as a list of one
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise Refusal("malformed_decision", "declare_attackers takes a list of card ids", clause=A1)
        if not ids:
            raise Refusal("no_attackers", clause=A1)
        if len(set(ids)) != len(ids):
            raise Refusal("attacker_twice", clause=A1)
        for cid in ids:
            card = state.board.cards.get(cid)
            if card is None:
                raise Refusal("unknown_object", cid, clause=A1)
            if card.zone != "battlefield" or card.controller != state.active:
                raise Refusal("attacker_not_yours", cid, clause=A1)
            if not state.is_ijin(card):
                raise Refusal("attacker_not_ijin", cid, clause=A1)
            if card.tapped:
                raise Refusal("attacker_sleeping", cid, clause=A1)
            if card.entered_this_turn and not state.has(card, "sokuou"):
                raise Refusal("attacker_placed_this_turn", cid, clause=A1)
        return ids

    # -- the battle --------------------------------------------------------------------------------
    def battle(self, chosen: list[str]) -> None:
        state = self.state
        defending = next(p for p in state.board.players if p != state.active)
        state.battle = Battle(attacking=state.active, defending=defending, chosen=list(chosen))
        state.battle_declared = True
        self.trace.emit("declared_battle", A1, player=state.active)
        self.attack_step()
        self.block_step()
        self.resolution_step()

    def attack_step(self) -> None:
        b, state = self.state.battle, self.state
        self.take_effect(b.chosen, "attack_plus", A2)
        with self.trace.simultaneous():  # A3: the three happen at once
            for cid in b.chosen:
                state.card(cid).tapped = True
                self.trace.emit("slept", A3, card=cid)
            b.attackers = list(b.chosen)
            b.a3_done = True
            for cid in b.attackers:
                self.trace.emit("became_attacker", A3, card=cid)
            self.trace.emit("attacked", A3, player=b.attacking)
            self.sync_roles(A3)
        # A4: what A3 triggered, nested included
        pending = (self.attackers_slept(b.chosen) + ab.on_became_attackers(self, b.attackers)
                   + ab.on_attacked(self, b.attacking, b.attackers))
        self.resolve_all(pending, A4)

    def attackers_slept(self, cards: list[str]) -> list[Any]:
        """A3 「A1 で選んだすべてのイジンを同時に、少し前にずらして寝かせる」: what their sleeping triggers (寝たとき),
        resolved at A4 with what their becoming attackers triggers."""
        return ab.on_slept(self, cards)

    def block_step(self) -> None:
        b = self.state.battle
        _, assignment = self.script.decide(b.defending, ("declare_blockers",), B1, self._validate_blockers)
        b.blockers_chosen = [bl for blockers in assignment.values() for bl in blockers]
        self.take_effect(b.blockers_chosen, "block_plus", B2)
        blockers: list[str] = []
        b.b3_done = True
        if assignment:
            with self.trace.simultaneous():  # B3
                for attacker, bl in assignment.items():
                    b.blockers[attacker] = list(bl)
                    b.blocked.add(attacker)
                    for blocker in bl:
                        self.trace.emit("became_blocker", B3, card=blocker, attacker=attacker)
                        blockers.append(blocker)
                    self.trace.emit("blocked", B3, card=attacker)
        self.resolve_all(ab.on_became_blockers(self, blockers) + ab.on_became_blocked(self, list(assignment)), B4)

    def take_effect(self, cards: list[str], ability: str, clause: str) -> None:
        """A2 / B2: attack+ (block+) is in effect from here: one moment of the powers that changed,
        and of 航海 that 足利義満 grants because of them (Q&A: 2000 + 1000 -> 航海)."""
        state, b = self.state, self.state.battle
        before = {c: (state.power(state.card(c)), self._granted(c)) for c in cards}
        setattr(b, ability, True)
        with self.trace.simultaneous():
            for c in cards:
                power, granted = state.power(state.card(c)), self._granted(c)
                if power != before[c][0]:
                    self.trace.emit("power_changed", clause, card=c, power=power)
                for name in sorted(granted - before[c][1]):
                    self.trace.emit("gained", clause, card=c, ability=name)

    def _granted(self, card_id: str) -> set[str]:
        card = self.state.card(card_id)
        own = {a for a, _ in self.state.own_abilities(card)}
        return {a for a, _ in self.state.granted(card)} - own  # abilities() is own + granted

    def _validate_blockers(self, d: Decision) -> dict[str, list[str]]:
        """B1: awake Ijin or guardians of the defender (or sleeping ones with ウォッチャー, as B1 sees them), each
        assigned to one attacker; pressure N needs N."""
        state, b = self.state, self.state.battle
        if not isinstance(d.args, dict):  # {} declares no block; null or a list is not a declaration
            raise Refusal("malformed_decision", "declare_blockers takes {attacker: [blockers]}")
        assignment: dict[str, list[str]] = {}
        seen: set[str] = set()
        for attacker, bl in d.args.items():
            if not isinstance(bl, list) or not all(isinstance(x, str) for x in bl):
                raise Refusal("malformed_decision", "declare_blockers takes {attacker: [blockers]}")
            if attacker not in state.board.cards:
                raise Refusal("unknown_object", attacker)
            if not state.is_attacker(attacker):
                raise Refusal("not_an_attacker", attacker)
            for blocker in bl:
                card = state.board.cards.get(blocker)
                if card is None:
                    raise Refusal("unknown_object", blocker)
                if blocker in seen:
                    raise Refusal("blocker_assigned_twice", blocker)
                seen.add(blocker)
                if card.zone != "battlefield" or card.controller != b.defending:
                    raise Refusal("blocker_not_defenders", blocker)
                if not (state.is_ijin(card) or state.is_guardian(card)):
                    raise Refusal("blocker_not_ijin_or_guardian", blocker)
                if card.tapped and not state.has(card, "watcher"):  # ウォッチャー: 寝ていてもブロッカーになれる
                    raise Refusal("blocker_sleeping", blocker)
                if self.block_forbidden(attacker, card):
                    raise Refusal("blocker_ijin_forbidden", blocker)
            if bl:
                assignment[attacker] = list(bl)
        for attacker, bl in assignment.items():
            need = state.pressure(state.card(attacker))
            if len(bl) < need:
                raise Refusal("pressure_not_met", attacker, clause=TRIPLE_PRESSURE if need == 3 else B1)
        return assignment

    def block_forbidden(self, attacker: str, blocker: Any) -> bool:
        """「イジンにブロックされない」 (`unblockable_by_ijin`): an Ijin, as B1 sees it, may not block this attacker."""
        state = self.state
        return state.has(state.card(attacker), "unblockable_by_ijin") and state.is_ijin(blocker)

    def resolution_step(self) -> None:
        """C1: until no attacker is left, the defender chooses one; blocked -> D1-D6, else the attacker wins."""
        b = self.state.battle
        self.trace.emit("entered_resolution_step", C1, attackers=list(b.attackers))
        while b.attackers:
            self.pass_through()
            _, chosen = self.script.decide(b.defending, ("choose_attacker",), C1A, self._validate_choice)
            self.trace.emit("chose_attacker", C1A, player=b.defending, card=chosen)
            if b.blockers.get(chosen):
                self.resolve_battle(chosen)
            else:
                self.trace.emit("won", C1B, player=b.attacking)
                raise GameOver(b.attacking)
        self.trace.emit("battle_ended", C2, player=b.attacking)
        self.state.battle = None

    def _validate_choice(self, d: Decision) -> str:
        if not isinstance(d.args, str):
            raise Refusal("malformed_decision", "choose_attacker takes a card id")
        if d.args not in self.state.board.cards:
            raise Refusal("unknown_object", d.args)
        if not self.state.is_attacker(d.args):
            raise Refusal("not_an_attacker", d.args)
        return d.args

    def pass_through(self) -> None:
        """ブロックのすり抜け at C1a: an attacker whose blockers are all gone is not blocked (PASS-THROUGH-1); one
        with too few for its pressure has lost its blockers already, when the block stopped being legal
        (:meth:`lapse_blocks`); this catches a setup that starts short."""
        b = self.state.battle
        gone = [a for a in b.attackers if a in b.blocked and not b.blockers.get(a)]
        with self.trace.simultaneous():
            for a in gone:
                b.blocked.discard(a)
                b.blockers.pop(a, None)
                self.trace.emit("unblocked", PASS_THROUGH_1, card=a)
            self.lapse_blocks()

    def lapse_blocks(self) -> None:
        """PASS-THROUGH-2 and TRIPLE-PRESSURE as they happen: when a blocked attacker's blockers are fewer than its
        pressure (a blocker left, or the attacker gained pressure after B1), those blockers stop being blockers and
        the attacker stops being blocked, in the moment of the change that caused it (inside the caller's moment).
        「もし、バトル解決をする前にブロッカーが減って2体以下になった場合は、アタッカーはブロッカーに指定されていない状態に
        なります」: the state changes then, and nothing brings it back -- only B3 makes blockers and blocked attackers,
        so a condition that holds again before C1a (the pressure gone again) leaves the attacker unblocked (issue 25;
        ijinden:assume.block-lapses). Before issue 25 the engine looked only at C1a. The same holds when a blocker
        stops being allowed to block its attacker (the attacker gained イジンにブロックされない, e.g. 《楊貴妃》 whose hand
        reached five): the official Q&A on 《楊貴妃》 「楊貴妃はブロッカーに指定されていない状態になり、ブロッカーはブロッカーで
        なくなります。その後、…再び5枚未満になっても、バトルの状態は戻りません。」"""
        state, b = self.state, self.state.battle
        if b is None or not b.b3_done:
            return
        short = [a for a in b.attackers if a in b.blocked and b.blockers.get(a)
                 and (len(b.blockers[a]) < state.pressure(state.card(a))
                      or any(self.block_forbidden(a, state.card(x)) for x in b.blockers[a]))]
        if not short:
            return
        with self.trace.simultaneous():
            for a in short:
                for blocker in b.blockers.pop(a):
                    self.trace.emit("ceased_blocker", PASS_THROUGH_2, card=blocker)
                b.blocked.discard(a)
                self.trace.emit("unblocked", PASS_THROUGH_2, card=a)

    # -- battle resolution --------------------------------------------------------------------------
    def resolve_battle(self, attacker: str) -> None:
        b = self.state.battle
        blockers = list(b.blockers[attacker])
        losers = self.judge(attacker, blockers)
        extra = [c for c, by in self.state.destroyed_in_battle(attacker, blockers).items()
                 if c not in losers and not self.indestructible(c, D2, by)]  # 魔除けの社: an ability's doing
        self.destroy(losers + extra, D2, D3, D4, D5)
        with self.trace.simultaneous():  # D6
            if attacker in b.attackers:
                for blocker in b.blockers.pop(attacker, []):
                    self.trace.emit("ceased_blocker", D6, card=blocker)
                b.attackers.remove(attacker)
                b.blocked.discard(attacker)
                self.trace.emit("ceased_attacker", D6, card=attacker)
            self.trace.emit("battle_resolution_ended", D6, card=attacker)

    def judge(self, attacker: str, blockers: list[str]) -> list[str]:
        """D1: the attacker against its blocker, or against their sum; each blocker against the attacker.
        Ties lose both; a guardian counts 0 (a guardian blocker wins only when the attacker's power is 0
        or less: assumption ijinden:assume.guardian-zero-tie)."""
        state = self.state
        a_card = state.card(attacker)
        ap = state.battle_power(a_card)
        powers = {bl: state.battle_power(state.card(bl)) for bl in blockers}
        against = sum(powers.values())
        losers = []
        with self.trace.simultaneous():
            a_wins = ap > against
            self.trace.emit("won_battle" if a_wins else "lost_battle", D1, card=attacker, power=ap, against=against)
            if not a_wins:
                losers.append(attacker)
            for bl, bp in powers.items():
                card = state.card(bl)
                guardian = state.is_guardian(card) and not state.is_ijin(card)
                wins = ap <= 0 if guardian else bp > ap
                self.trace.emit("won_battle" if wins else "lost_battle", RC_GUARDIAN_WIN if guardian else D1,
                                card=bl, power=bp, against=ap)
                if not wins:
                    losers.append(bl)
        return losers

    def destroy(self, cards: list[str], destroyed_clause: str, trigger_clause: str, grave_clause: str,
                grave_trigger_clause: str, by: str | None = None) -> None:
        """D2-D5 (and any 破壊する): all destroyed at once, destroyed-triggers, then what is still destroyed
        goes to the graveyard at once, then the graveyard triggers. ``by``: the player whose ability destroys them
        (None: the battle)."""
        state = self.state
        cards = [c for c in cards if state.card(c).zone == "battlefield"
                 and not self.indestructible(c, destroyed_clause, by)]
        if cards:
            with self.trace.simultaneous():
                for c in cards:
                    state.destroyed.add(c)
                    self.trace.emit("destroyed", destroyed_clause, card=c)
            self.resolve_all(ab.on_destroyed(self, cards), trigger_clause)
        still = [c for c in cards if c in state.destroyed and state.card(c).zone == "battlefield"]
        self.put_into_graveyard(still, grave_clause, grave_trigger_clause)

    def indestructible(self, card: str, clause: str, by: str | None = None) -> bool:
        """破壊されない (`indestructible`): not destroyed at all, in battle (D2) or by an effect (``clause``: where the
        destruction comes from; ijinden:assume.indestructible); 相手の能力によって破壊されない
        (`indestructible_by_opponents`): not by an ability of a player (``by``) other than its controller."""
        c = self.state.card(card)
        if self.state.has(c, "indestructible"):
            return True
        return by is not None and by != c.controller and self.state.has(c, "indestructible_by_opponents")

    def put_into_graveyard(self, cards: list[str], clause: str, trigger_clause: str,
                           resolve: bool = True) -> list[ab.Trigger]:
        """D4: every card at once, then (D5) what that triggers."""
        if not cards:
            return []
        with self.trace.simultaneous():
            for c in cards:
                self.state.destroyed.discard(c)
                self.state.board.move(c, "graveyard", clause)
            self.sync_roles(clause)
        pending = ab.on_put_into_graveyard(self, cards)
        if resolve:
            self.resolve_all(pending, trigger_clause)
            return []
        return pending

    # -- roles --------------------------------------------------------------------------------------
    def cease_attacker(self, attacker: str, clause: str) -> None:
        """An attacker stops being one, and its blockers stop being blockers (inside the caller's moment)."""
        b = self.state.battle
        if b is None or attacker not in b.attackers:
            return
        b.attackers.remove(attacker)
        b.blocked.discard(attacker)
        self.trace.emit("ceased_attacker", CEASE_ATTACKER, card=attacker)
        for blocker in b.blockers.pop(attacker, []):
            self.trace.emit("ceased_blocker", CEASE_BLOCKER, card=blocker)

    def sync_roles(self, clause: str) -> None:
        """Attackers that left the battlefield or stopped being Ijin cease; so do blockers that left.
        Called inside the moment of the change that caused it."""
        state = self.state
        now = {c.id for c in state.on_battlefield() if state.is_guardian(c) and state.is_ijin(c)}
        for gid in sorted(state.ijin_guardians - now):
            if state.card(gid).zone == "battlefield":  # a card that left is simply gone
                self.trace.emit("ceased_ijin", clause, card=gid)
        state.ijin_guardians = now
        b = state.battle
        if b is None:
            return
        for a in list(b.attackers):
            card = state.card(a)
            if card.zone != "battlefield" or not state.is_ijin(card):
                self.cease_attacker(a, clause)
        for bl in b.blockers.values():
            for blocker in list(bl):
                if state.card(blocker).zone != "battlefield":
                    bl.remove(blocker)
                    self.trace.emit("ceased_blocker", CEASE_BLOCKER, card=blocker)
        self.lapse_blocks()  # a blocker that left may leave its attacker short of its pressure (PASS-THROUGH-2)

    # -- triggers -------------------------------------------------------------------------------------
    def resolve_all(self, pending: list[ab.Trigger], clause: str) -> None:
        """They trigger together (one moment); the turn player's resolve first, each player ordering their
        own when they have two or more; nested ones resolve inside (ijinden:assume.trigger-order)."""
        if not pending:
            return
        with self.trace.simultaneous():
            for t in pending:
                self.trace.emit("triggered", clause, card=t.card, ability=t.ability, player=t.player)
        players = [self.state.active] + [p for p in self.state.board.players if p != self.state.active]
        for player in players:
            mine = [t for t in pending if t.player == player]
            for t in self.order(player, mine, clause):
                ab.resolve(self, t, clause)

    def order(self, player: str, mine: list[ab.Trigger], clause: str) -> list[ab.Trigger]:
        if len(mine) < 2:
            return mine

        def parse(d: Decision) -> list[ab.Trigger]:
            if not isinstance(d.args, list) or not all(isinstance(c, str) for c in d.args):
                raise Refusal("malformed_decision", "order_triggers takes a list of card ids")
            if sorted(d.args) != sorted(t.card for t in mine):
                raise Refusal("wrong_order", f"name each of {[t.card for t in mine]} once")
            left = list(mine)
            out = []
            for cid in d.args:
                t = next(t for t in left if t.card == cid)
                left.remove(t)
                out.append(t)
            return out

        _, ordered = self.script.decide(player, ("order_triggers",), clause, parse)
        return ordered
