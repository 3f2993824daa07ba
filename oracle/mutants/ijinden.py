"""Ijinden mutants: misreadings of seed 000 (the battle procedure and its Q&A).

Each patches a named function of ``oracle.games.ijinden`` (``Procedure`` of ``procedure``, ``State`` of
``state``, the trigger functions of ``abilities``); the game's modules are reached by dotted path when a
mutant plays, never imported here.
"""

from __future__ import annotations

from contextvars import ContextVar
from importlib import import_module
from typing import Any

from ..core.script import GameOver
from .model import Mutant, Patch

R = "oracle.games.ijinden.procedure:Procedure."
S = "oracle.games.ijinden.state:State."
AB = "oracle.games.ijinden.abilities:"
D1, RC_GUARDIAN_WIN = "ijinden:D1", "ijinden:RC-GUARDIAN-WIN"


def _ab() -> Any:
    return import_module("oracle.games.ijinden.abilities")


# -- D1: judging ------------------------------------------------------------------------------------

def _judge(*, tie_kills_blocker: bool = True, guardian_needs_more: bool = False, attacker_vs: str = "sum",
           blockers_vs: str = "attacker") -> Any:
    """The reference's judge (Procedure.judge) with one comparison read differently."""

    def make(original: Any) -> Any:
        def judge(self: Any, attacker: str, blockers: list[str]) -> list[str]:
            state = self.state
            ap = state.battle_power(state.card(attacker))
            powers = {bl: state.battle_power(state.card(bl)) for bl in blockers}
            against = sum(powers.values()) if attacker_vs == "sum" else max(powers.values(), default=0)
            losers = []
            with self.trace.simultaneous():
                a_wins = ap > against
                self.trace.emit("won_battle" if a_wins else "lost_battle", D1, card=attacker, power=ap,
                                against=against)
                if not a_wins:
                    losers.append(attacker)
                together = sum(powers.values())
                for bl, bp in powers.items():
                    card = state.card(bl)
                    guardian = state.is_guardian(card) and not state.is_ijin(card)
                    mine = together if blockers_vs == "sum" else bp
                    if guardian and not guardian_needs_more:
                        wins = ap <= 0
                    else:
                        wins = mine > ap or (not tie_kills_blocker and mine == ap)
                    self.trace.emit("won_battle" if wins else "lost_battle", RC_GUARDIAN_WIN if guardian else D1,
                                    card=bl, power=bp, against=ap)
                    if not wins:
                        losers.append(bl)
            return losers
        return judge
    return make


# -- pass-through ------------------------------------------------------------------------------------

def _pass_through(*, gone: bool, short: bool) -> Any:
    def make(original: Any) -> Any:
        def pass_through(self: Any) -> None:
            state, b = self.state, self.state.battle
            g = [a for a in b.attackers if gone and a in b.blocked and not b.blockers.get(a)]
            s = [a for a in b.attackers if short and a in b.blocked and b.blockers.get(a)
                 and len(b.blockers[a]) < state.pressure(state.card(a))]
            if not g and not s:
                return
            with self.trace.simultaneous():
                for a in g:
                    b.blocked.discard(a)
                    b.blockers.pop(a, None)
                    self.trace.emit("unblocked", "ijinden:PASS-THROUGH-1", card=a)
                for a in s:
                    for blocker in b.blockers.pop(a):
                        self.trace.emit("ceased_blocker", "ijinden:PASS-THROUGH-2", card=blocker)
                    b.blocked.discard(a)
                    self.trace.emit("unblocked", "ijinden:PASS-THROUGH-2", card=a)
        return pass_through
    return make


def _no_lapse(original: Any) -> Any:
    def lapse_blocks(self: Any) -> None:
        return  # read: the legal-block condition is looked at only at C1a (pass_through)
    return lapse_blocks


# -- D2-D5: destruction --------------------------------------------------------------------------------

def _straight_to_graveyard(original: Any) -> Any:
    def destroy(self: Any, cards: list[str], destroyed_clause: str, trigger_clause: str, grave_clause: str,
                grave_trigger_clause: str, by: str | None = None) -> None:
        state = self.state
        cards = [c for c in cards if state.card(c).zone == "battlefield" and not self.indestructible(c, destroyed_clause, by)]
        if not cards:
            return
        with self.trace.simultaneous():
            for c in cards:
                self.trace.emit("destroyed", destroyed_clause, card=c)
        pending = _ab().on_destroyed(self, cards)
        self.put_into_graveyard(cards, grave_clause, grave_trigger_clause)
        self.resolve_all(pending, trigger_clause)
    return destroy


def _one_by_one(original: Any) -> Any:
    def destroy(self: Any, cards: list[str], *clauses: str, by: str | None = None) -> None:
        for c in cards:
            original(self, [c], *clauses, by=by)
    return destroy


def _legacy_when_destroyed(original: Any) -> Any:
    def on_destroyed(proc: Any, cards: list[str]) -> list[Any]:
        out = original(proc, cards)
        ab = _ab()
        for cid in cards:
            card = proc.state.card(cid)
            out += [ab.Trigger(cid, n, p, card.owner) for n, p in card.abilities if n == "legacy_draw"]
        return out
    return on_destroyed


def _legacy_not_from_graveyard(original: Any) -> Any:
    def on_put_into_graveyard(proc: Any, cards: list[str]) -> list[Any]:
        return [t for t in original(proc, cards) if t.ability != "legacy_draw"]
    return on_put_into_graveyard


def _legacy_mandatory(name: str, table: str) -> Any:
    """The old reading of 遺業 (before issue 25): mandatory, as D5's 「…（典型的には遺業能力）が発動する」 could be read.
    ``table`` (``OPTIONAL`` / ``GENERIC_OPTIONAL`` of the abilities module) loses ``name`` while the patched function
    runs (nested calls included)."""

    def make(original: Any) -> Any:
        def patched(*args: Any) -> Any:
            ab = _ab()
            saved = getattr(ab, table)
            setattr(ab, table, saved - {name})
            try:
                return original(*args)
            finally:
                setattr(ab, table, saved)
        return patched
    return make


# -- attack+ (A2) -------------------------------------------------------------------------------------

def _attack_plus_later(original: Any) -> Any:
    def take_effect(self: Any, cards: list[str], ability: str, clause: str) -> None:
        if ability == "attack_plus" and not self.state.battle.a3_done:
            return  # read: attack+ applies once they are attackers
        original(self, cards, ability, clause)
    return take_effect


def _attack_plus_after_triggers(original: Any) -> Any:
    def on_became_attackers(proc: Any, attackers: list[str]) -> list[Any]:
        out = original(proc, attackers)  # 航海 is looked at as they become attackers, without attack+
        proc.take_effect(proc.state.battle.chosen, "attack_plus", "ijinden:A2")
        return out
    return on_became_attackers


# -- roles ---------------------------------------------------------------------------------------------

def _blockers_stay(original: Any) -> Any:
    def cease_attacker(self: Any, attacker: str, clause: str) -> None:
        b = self.state.battle
        if b is None or attacker not in b.attackers:
            return
        b.attackers.remove(attacker)
        b.blocked.discard(attacker)
        self.trace.emit("ceased_attacker", "ijinden:CEASE-ATTACKER", card=attacker)
    return cease_attacker


def _left_only(original: Any) -> Any:
    def sync_roles(self: Any, clause: str) -> None:
        state = self.state
        b = state.battle
        if b is not None:  # read: only an attacker that left the battlefield ceases
            gone_ijin = [a for a in b.attackers if state.card(a).zone == "battlefield" and not state.is_ijin(state.card(a))]
            kept = list(b.attackers)
            b.attackers = [a for a in b.attackers if a not in gone_ijin]
            original(self, clause)
            b.attackers = [a for a in kept if a in b.attackers or a in gone_ijin]
            return
        original(self, clause)
    return sync_roles


def _twice(original: Any) -> Any:
    def validate(self: Any, d: Any) -> list[str]:
        if d.kind == "end_turn":
            return []
        return self._validate_attackers(d.args)
    return validate


_LENIENT: ContextVar[bool] = ContextVar("ijinden_lenient_pressure", default=False)


def _pressure_unchecked_at_b1(original: Any) -> Any:
    def validate(self: Any, d: Any) -> Any:
        token = _LENIENT.set(True)
        try:
            return original(self, d)
        finally:
            _LENIENT.reset(token)
    return validate


def _pressure_one_while_lenient(original: Any) -> Any:
    def pressure(self: Any, card: Any) -> int:
        return 1 if _LENIENT.get() else original(self, card)
    return pressure


def _resolution_by_attacker(original: Any) -> Any:
    def resolution_step(self: Any) -> None:
        """The reference's C1/C2 with the attacking player choosing (C1a)."""
        b = self.state.battle
        self.trace.emit("entered_resolution_step", "ijinden:C1", attackers=list(b.attackers))
        while b.attackers:
            self.pass_through()
            _, chosen = self.script.decide(b.attacking, ("choose_attacker",), "ijinden:C1a", self._validate_choice)
            self.trace.emit("chose_attacker", "ijinden:C1a", player=b.attacking, card=chosen)
            if b.blockers.get(chosen):
                self.resolve_battle(chosen)
            else:
                self.trace.emit("won", "ijinden:C1b", player=b.attacking)
                raise GameOver(b.attacking)
        self.trace.emit("battle_ended", "ijinden:C2", player=b.attacking)
        self.state.battle = None
    return resolution_step


def _no_arena_sokuou(original: Any) -> Any:
    def own_abilities(self: Any, card: Any) -> list[tuple[str, Any]]:
        out = original(self, card)
        if self.arena_applies(card) and not any(a == "sokuou" for a, _ in card.abilities):
            out = [x for x in out if x != ("sokuou", None)]
        return out
    return own_abilities


def _guardian_always_zero(original: Any) -> Any:
    def battle_power(self: Any, card: Any) -> int:
        return 0 if self.is_guardian(card) else self.power(card)
    return battle_power


def _guardian_printed_power(original: Any) -> Any:
    def battle_power(self: Any, card: Any) -> int:
        return self.power(card)  # read: a guardian fights at the power it has, not as 0
    return battle_power


# -- ウォッチャー (issue 25) -------------------------------------------------------------------------------------

def _watcher_ignored(original: Any) -> Any:
    def has(self: Any, card: Any, ability: str) -> bool:
        return ability != "watcher" and original(self, card, ability)  # read: B1's 寝ている… admits no exception
    return has


def _watcher_lost_ends_block(original: Any) -> Any:
    def lapse_blocks(self: Any) -> None:
        original(self)
        state, b = self.state, self.state.battle
        if b is None or not b.b3_done:
            return
        for blockers in b.blockers.values():  # read: a sleeping blocker must keep ウォッチャー to stay one
            for x in [x for x in blockers if state.card(x).tapped and not state.has(state.card(x), "watcher")]:
                blockers.remove(x)
                self.trace.emit("ceased_blocker", "ijinden:CEASE-BLOCKER", card=x)
    return lapse_blocks


def _forbidden_blocker_stays(original: Any) -> Any:
    def lapse_blocks(self: Any) -> None:
        self.block_forbidden = lambda attacker, blocker: False  # read: only B1 asks who may block this attacker
        try:
            original(self)
        finally:
            del self.block_forbidden
    return lapse_blocks


def _another_yours_watches_any(original: Any) -> Any:
    def watched(watch: str, card_controller: str, this_card: str, about: str, about_controller: str) -> bool:
        if watch == "another_yours":  # read: 「他のイジン」 is any other Ijin, whoever controls it
            return about != this_card
        return original(watch, card_controller, this_card, about, about_controller)
    return watched


def _attacking_is_not_sleeping(original: Any) -> Any:
    def attackers_slept(self: Any, cards: list[str]) -> list:
        return []  # read: A3's 寝かせてアタッカーにする is becoming an attacker, not the card's 寝た
    return attackers_slept


def _every_blocker_of_the_battle(original: Any) -> Any:
    def battle_of(self: Any, card_id: str) -> set[str]:
        b = self.battle
        if b is None:
            return {card_id}
        # read: 「これをブロックしているブロッカーすべて」 as every blocker of the battle, whichever attacker it blocks
        return {card_id, *(x for bl in b.blockers.values() for x in bl)}
    return battle_of


def _per_card_read_as_once(original: Any) -> Any:
    def per_cost(amount: int, paid: int) -> int:
        return amount if paid else 0  # read: 「寝かせた1体につき」 as +N once, however many were put to sleep
    return per_cost


def _lost_ability_regained(original: Any) -> Any:
    def lost(self: Any, card: Any, statics: Any = None) -> set[str]:
        gained = {a for a, _ in self.gained.get(card.id, [])}
        return original(self, card, statics) - gained  # read: a loss removes the printed ability; one gained later stands
    return lost


def _unblockable_by_anything(original: Any) -> Any:
    def block_forbidden(self: Any, attacker: str, blocker: Any) -> bool:
        # read: 「イジンにブロックされず」 as 「ブロックされない」: no blocker at all, a guardian included
        return self.state.has(self.state.card(attacker), "unblockable_by_ijin")
    return block_forbidden


def _indestructible_in_battle_only(original: Any) -> Any:
    def indestructible(self: Any, card: str, clause: str, by: str | None = None) -> bool:
        # read: 「破壊されない」 as 'does not lose its battle to destruction': an effect's 破壊する still destroys it
        return clause == "ijinden:D2" and original(self, card, clause, by)
    return indestructible


def _several_targets_one_at_a_time(original: Any) -> Any:
    def at_once(named: list[list[str]]) -> list[list[str]]:
        # read: 「それらのイジンすべてを破壊する」 as one 破壊する per target, one after the other
        return [list(cards) for cards in named]
    return at_once


def _indestructible_by_opponents_everywhere(original: Any) -> Any:
    def indestructible(self: Any, card: str, clause: str, by: str | None = None) -> bool:
        # read: 「相手の能力によって破壊されない」 as 破壊されない: a lost battle does not destroy it either
        return original(self, card, clause, by) or self.state.has(self.state.card(card), "indestructible_by_opponents")
    return indestructible


def _every_attacker_in_battle(original: Any) -> Any:
    def destroyed_in_battle(self: Any, attacker: str, blockers: list[str]) -> dict[str, str]:
        # read: 「パワー4000以下のアタッカーは破壊される」 as every such attacker of the battle, those still to resolve too
        out = original(self, attacker, blockers)
        if out and self.battle is not None:
            for a in self.battle.attackers:
                if a != attacker and a not in out and a in (more := original(self, a, blockers)):
                    out[a] = more[a]
        return out
    return destroyed_in_battle


def _face_down_keeps_its_card(original: Any) -> Any:
    def face_down(self: Any, card: Any) -> bool:
        # read: 「裏のまま戦場に置く」 as putting the card itself onto the battlefield: an Ijin stays an Ijin
        return False
    return face_down


MUTANTS: tuple[Mutant, ...] = (
    Mutant("ijinden-tie-destroys-attacker-only", "ijinden", "ijinden:D1",
           "異なる場合は大きい方が勝ちで小さい方が負け、同じ場合はどちらも負けになる。",
           "a tie loses only the attacker: a blocker with equal power survives",
           (Patch(R + "judge", _judge(tie_kills_blocker=False)),)),
    Mutant("ijinden-attacker-vs-strongest-blocker", "ijinden", "ijinden:D1",
           "ブロッカーが2体以上の場合、アタッカーは自身のパワーとブロッカー全体の合計のパワーを、各ブロッカーは自身のパワーとアタッカーのパワーを比較する。",
           "with two or more blockers the attacker is compared with its strongest blocker, not with their sum",
           (Patch(R + "judge", _judge(attacker_vs="max")),)),
    Mutant("ijinden-blockers-share-sum", "ijinden", "ijinden:D1",
           "ブロッカーが2体以上の場合、アタッカーは自身のパワーとブロッカー全体の合計のパワーを、各ブロッカーは自身のパワーとアタッカーのパワーを比較する。",
           "each blocker is judged by the blockers' sum (they win or lose together), not by its own power",
           (Patch(R + "judge", _judge(blockers_vs="sum")),)),
    Mutant("ijinden-guardian-needs-more-power", "ijinden", "ijinden:RC-GUARDIAN-WIN",
           "ガーディアンのブロッカーは、アタッカーのパワーが0 以下のときにだけ勝ちます。",
           "a guardian blocker (power 0) is judged like any blocker: it wins only against a negative power, "
           "so it loses to an attacker of power 0",
           (Patch(R + "judge", _judge(guardian_needs_more=True)),)),
    Mutant("ijinden-guardian-zero-even-as-ijin", "ijinden", "ijinden:D1",
           "ガーディアンのパワーは0と見なす。",
           "every guardian counts 0 in battle, even one that 円形闘技場 makes a power-3000 Ijin (the reference "
           "follows the catalog's reading ijinden:assume.arena-guardian-power: it battles as the Ijin it is)",
           (Patch(S + "battle_power", _guardian_always_zero),)),
    Mutant("ijinden-guardian-fights-at-its-power", "ijinden", "ijinden:D1",
           "ガーディアンのパワーは0と見なす。",
           "a guardian fights at the power it has (printed or set), not as 0",
           (Patch(S + "battle_power", _guardian_printed_power),)),
    Mutant("ijinden-attack-plus-after-attacker", "ijinden", "ijinden:A2",
           "A2 と A3 の前後関係、すなわち「アタック+XXXX」が有効になってからイジンがアタッカーになることに注意せよ。",
           "attack+ takes effect only after the Ijin became an attacker, so 足利義満's 航海 misses a 2000+1000 attacker",
           (Patch(R + "take_effect", _attack_plus_later),
            Patch(AB + "on_became_attackers", _attack_plus_after_triggers))),
    Mutant("ijinden-no-pass-through", "ijinden", "ijinden:PASS-THROUGH-1",
           "C1a までにそれらすべてがブロッカーでなくなっている場合、そのアタッカーはブロッカーに指定されていない（＝ブロックされていない）状態である。",
           "an attacker whose blockers are all gone stays blocked (no block pass-through): it fights no one",
           (Patch(R + "pass_through", _pass_through(gone=False, short=True)),)),
    Mutant("ijinden-no-pass-through-short", "ijinden", "ijinden:PASS-THROUGH-2",
           "もし、バトル解決をする前にブロッカーが減って2体以下になった場合は、アタッカーはブロッカーに指定されていない状態になります。",
           "an attacker with too few blockers left for its pressure stays blocked",
           (Patch(R + "pass_through", _pass_through(gone=True, short=False)), Patch(R + "lapse_blocks", _no_lapse))),
    Mutant("ijinden-block-comes-back", "ijinden", "ijinden:PASS-THROUGH-2",
           "C1a までに正当なブロックの条件を満たさなくなっている",
           "the legal-block condition is read only at C1a (the reading before issue 25): a block that fell short of "
           "the attacker's pressure and is legal again by C1a (the pressure gone again) stands",
           (Patch(R + "pass_through", _pass_through(gone=True, short=True)), Patch(R + "lapse_blocks", _no_lapse))),
    Mutant("ijinden-losers-straight-to-graveyard", "ijinden", "ijinden:D4",
           "D2-D5 のとおり、バトルに負けたカードは墓地に置かれる前に「破壊された」ことになり、また「破壊されている」状態になることに注意せよ。",
           "the losers go to the graveyard as they are destroyed, so 「破壊されていない状態にする」 cannot save them",
           (Patch(R + "destroy", _straight_to_graveyard),)),
    Mutant("ijinden-destroyed-one-by-one", "ijinden", "ijinden:D2",
           "D2 のとおり、あるアタッカーに対するバトル解決でバトルに負けたすべてのイジンとガーディアンは同時に破壊される。",
           "the losers are destroyed (and put into the graveyard, with their triggers) one after another",
           (Patch(R + "destroy", _one_by_one),)),
    Mutant("ijinden-legacy-when-destroyed", "ijinden", "ijinden:D5",
           "墓地に置かれていないので発動できません。",
           "遺業 triggers when the card is destroyed (D3), so it triggers even when the card is made not destroyed",
           (Patch(AB + "on_destroyed", _legacy_when_destroyed),
            Patch(AB + "on_put_into_graveyard", _legacy_not_from_graveyard))),
    Mutant("ijinden-legacy-mandatory", "ijinden", "ijinden:D5",
           "D5. D4 の「（戦場から）墓地に置かれた」ことを契機にした発動型能力（典型的には遺業能力）が発動する。",
           "a 遺業 must be used (D5's 「発動する」 read as mandatory, the reading before issue 25): a draw 遺業 is never "
           "asked and a targeted one refuses `decline` (`mandatory_trigger`), though 遺業 is printed 発動できる",
           (Patch(AB + "resolve", _legacy_mandatory("legacy_draw", "OPTIONAL")),
            Patch(AB + "resolve_effect", _legacy_mandatory("legacy", "GENERIC_OPTIONAL")))),
    Mutant("ijinden-blockers-stay-when-attacker-ceases", "ijinden", "ijinden:CEASE-BLOCKER",
           "また、対応するアタッカーがバトル中にアタッカーでなくなったブロッカーも、ブロッカーでなくなる。",
           "when an attacker stops being an attacker its blockers remain blockers",
           (Patch(R + "cease_attacker", _blockers_stay),)),
    Mutant("ijinden-arena-loss-keeps-attacker", "ijinden", "ijinden:CEASE-ATTACKER",
           "A. ガーディアンはイジンでもアタッカーでもなくなり、ブロッカーがいればブロッカーでなくなります。",
           "an attacking guardian that stops being an Ijin (円形闘技場 gone) stays an attacker",
           (Patch(R + "sync_roles", _left_only),)),
    Mutant("ijinden-second-battle", "ijinden", "ijinden:BATTLE",
           "メインフェイズの間に、ターンを進めているプレイヤーは1回だけバトルを宣言することができる。",
           "a second battle may be declared in the same main phase",
           (Patch(R + "_validate_declaration", _twice),)),
    Mutant("ijinden-pressure-unchecked-at-block", "ijinden", "ijinden:TRIPLE-PRESSURE",
           "イジン3体でも、ガーディアンを含めてもかまいませんが、2体以下で指定することはできません。",
           "fewer blockers than the attacker's pressure may be declared (pressure only matters at resolution)",
           (Patch(R + "_validate_blockers", _pressure_unchecked_at_b1),
            Patch(S + "pressure", _pressure_one_while_lenient))),
    Mutant("ijinden-attacking-player-picks-attacker", "ijinden", "ijinden:C1a",
           "C1a. 防御側プレイヤーはアタッカーを1体選ぶ。",
           "the attacking player picks which attacker's battle resolves next",
           (Patch(R + "resolution_step", _resolution_by_attacker),)),
    Mutant("ijinden-arena-without-sokuou", "ijinden", "ijinden:A1",
           "自分のターンの間、自分の戦場のガーディアンは「即応」を持つパワー3000のイジンでもある。（戦場に置かれたターンでもアタッカーになれる）",
           "円形闘技場's guardians are Ijin of power 3000 but without 即応: one placed this turn cannot attack",
           (Patch(S + "own_abilities", _no_arena_sokuou),)),
    Mutant("ijinden-watcher-ignored", "ijinden", "ijinden:B1",
           "寝ている状態のイジンやガーディアンは選べない。",
           "ウォッチャー is not read as an exception to B1: a sleeping Ijin with it is refused blocker_sleeping (the "
           "official column: 寝ていてもブロッカーになれる)",
           (Patch(S + "has", _watcher_ignored),)),
    Mutant("ijinden-watcher-lost-ends-block", "ijinden", "ijinden:B1",
           "寝ている状態のイジンやガーディアンは選べない。",
           "a sleeping blocker that loses ウォッチャー after B1 (its grant's condition fails) stops being a blocker, "
           "though the column says it stays one (「ウォッチャー」ではなくなりますがブロッカーのままバトル解決を進行します)",
           (Patch(R + "lapse_blocks", _watcher_lost_ends_block),)),
    Mutant("ijinden-unblockable-by-anything", "ijinden", "ijinden:B1",
           "ブロッカーにするイジンまたはガーディアンを0体以上、それぞれアタッカーを指定して（＝アタッカーに対応させて）選ぶ。",
           "「イジンにブロックされず」 (the official Q&A's card text) read as unblockable: a guardian is refused as its "
           "blocker too",
           (Patch(R + "block_forbidden", _unblockable_by_anything),)),
    Mutant("ijinden-indestructible-in-battle-only", "ijinden", "ijinden:D2",
           "バトルに負けたすべてのイジンとガーディアンを同時に破壊する。",
           "「破壊されない」 (the official Q&A's card text) protects only from D2: an effect's 破壊する destroys the card",
           (Patch(R + "indestructible", _indestructible_in_battle_only),)),
    Mutant("ijinden-block-stays-when-attacker-gains-unblockable", "ijinden", "ijinden:PASS-THROUGH-2",
           "あるアタッカーに対応して1体以上の正当なブロッカーが選ばれていたが、C1a までに正当なブロックの条件を満たさなくなっている",
           "an attacker that gains 「イジンにブロックされない」 after B3 (《楊貴妃》's hand reaching five) stays blocked by the "
           "Ijin that blocked it: only B1 asks who may block it",
           (Patch(R + "lapse_blocks", _forbidden_blocker_stays),)),
    Mutant("ijinden-another-of-yours-read-as-any-other", "ijinden", "ijinden:D3",
           "D3. D2 の「破壊された」ことを契機にした発動型能力が発動する。",
           "「自分の戦場の他のイジンが破壊されるたびに」 (《西郷頼母》) read as any other Ijin: an opponent's destroyed Ijin "
           "triggers it too",
           (Patch(AB + "watched", _another_yours_watches_any),)),
    Mutant("ijinden-becoming-an-attacker-is-not-sleeping", "ijinden", "ijinden:A3",
           "A1 で選んだすべてのイジンを同時に、少し前にずらして寝かせる。",
           "「これが寝たとき」 (《岡田以蔵》) does not trigger when the card sleeps as it becomes an attacker (A3): only an "
           "effect's 寝かせる counts",
           (Patch(R + "attackers_slept", _attacking_is_not_sleeping),)),
    Mutant("ijinden-this-and-every-blocker", "ijinden", "ijinden:B3",
           "B3. B1 で選んだすべてのイジンが同時に「ブロッカーになる」。",
           "「これとこれをブロックしているブロッカーすべて」 (《アンリ4世》) read as this and every blocker of the battle, "
           "those of the other attackers too",
           (Patch(S + "battle_of", _every_blocker_of_the_battle),)),
    Mutant("ijinden-per-card-paid-read-as-once", "ijinden", "ijinden:A4",
           "A4. A3 のイベントを契機にした発動型能力が発動する。",
           "「寝かせた1体につき「アタック+2000」を得る」 (《北条時政》) read as +2000 once, however many cards its cost put "
           "to sleep",
           (Patch(AB + "per_cost", _per_card_read_as_once),)),
    Mutant("ijinden-lost-ability-regained", "ijinden", "ijinden:B1",
           "ブロッカーにするイジンまたはガーディアンを0体以上、それぞれアタッカーを指定して（＝アタッカーに対応させて）選ぶ。",
           "an ability a static makes a card lose (《織田信長》's ダブルプレッシャー) comes back when an effect gives it again, "
           "though the official Q&A says it cannot be gained meanwhile",
           (Patch(S + "lost", _lost_ability_regained),)),
    Mutant("ijinden-several-targets-one-at-a-time", "ijinden", "ijinden:D2",
           "バトルに負けたすべてのイジンとガーディアンを同時に破壊する。",
           "「それらのイジンすべてを破壊する」 (《バレット》's two targets, one on each side) destroys one target, then the "
           "other: two moments, not one",
           (Patch(AB + "at_once", _several_targets_one_at_a_time),)),
    Mutant("ijinden-indestructible-by-opponents-in-battle", "ijinden", "ijinden:D2",
           "バトルに負けたすべてのイジンとガーディアンを同時に破壊する。",
           "「自分の戦場のイジンは、相手の能力によって破壊されない」 (《リザレクション》 in the graveyard) read as 破壊されない: "
           "an Ijin that loses its battle is not destroyed either",
           (Patch(R + "indestructible", _indestructible_by_opponents_everywhere),)),
    Mutant("ijinden-shrine-destroys-every-attacker", "ijinden", "ijinden:C1a",
           "C1a. 防御側プレイヤーはアタッカーを1体選ぶ。",
           "《魔除けの社》's 「パワー4000以下のアタッカーは破壊される」 destroys every such attacker of the battle at the first "
           "battle resolution a guardian of its controller blocks in, though the official Q&A says those still to "
           "resolve are not destroyed",
           (Patch(S + "destroyed_in_battle", _every_attacker_in_battle),)),
    Mutant("ijinden-face-down-keeps-its-card", "ijinden", "ijinden:B1",
           "ブロッカーにするイジンまたはガーディアンを0体以上、それぞれアタッカーを指定して（＝アタッカーに対応させて）選ぶ。",
           "a card put onto the battlefield 「裏のまま」 (《フローレンス・ナイチンゲール》) is the card it is (an Ijin stays an "
           "Ijin), not a guardian",
           (Patch(S + "face_down", _face_down_keeps_its_card),)),
)
