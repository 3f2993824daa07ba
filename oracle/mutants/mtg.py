"""Magic mutants: misreadings of CR 310 (battles) and the combat rules it leans on, as the seed quotes them
(総合ルール 20231117.0 and the MTG Wiki's summary), the mistakes the issue lists among them.

Each patches a named function of ``oracle.games.mtg`` (``combat``, ``battles``, ``damage``, ``sba``, ``state``,
``abilities``);
a mutated function reaches its module's other functions through the original's globals.
"""

from __future__ import annotations

from typing import Any

from ..core.script import Refusal
from .model import Mutant, Patch

M = "oracle.games.mtg."
COMBAT, BATTLES, DAMAGE, SBA = M + "combat:", M + "battles:", M + "damage:", M + "sba:"
ABILITIES = M + "abilities:"
TRIGGERS = M + "triggers:"


def _accepting(reason: str, result: Any = None) -> Any:
    """A check that lets through what the reference refuses with ``reason`` (the misreading allows it)."""

    def make(original: Any) -> Any:
        def check(st: Any, *args: Any) -> Any:
            try:
                return original(st, *args)
            except Refusal as r:
                if r.reason != reason:
                    raise
                return result
        return check
    return make


def _validator_accepting(reason: str) -> Any:
    """A validator factory (``_attackers_valid(st)``) whose validator lets ``reason`` through: the offending
    entry is accepted as declared."""

    def make(original: Any) -> Any:
        def factory(st: Any, *args: Any) -> Any:
            valid = original(st, *args)

            def lenient(d: Any) -> Any:
                try:
                    return valid(d)
                except Refusal as r:
                    if r.reason != reason:
                        raise
                    return dict(d.args)
            return lenient
        return factory
    return make


def _controller_may_not_attack_siege(original: Any) -> Any:
    def check_target(st: Any, attacker: str, target: Any) -> None:
        original(st, attacker, target)
        if target in st.board.cards and st.is_battle(st.card(target)) and st.card(target).controller == st.active:
            raise Refusal("illegal_attack_target", f"{st.active} controls {target}", clause=st.c("mtg:310.8b"))
    return check_target


def _any_defender_blocks_battle(original: Any) -> Any:
    def may_block(st: Any, player: str, attacker: str) -> None:
        cb = st.combat
        target = cb.attackers.get(attacker)
        if attacker in cb.attackers and target in st.board.cards and st.is_battle(st.card(target)):
            return  # read: any defending player may block an attacker of a battle
        original(st, player, attacker)
    return may_block


def _combat_damage_to_battle_ignored(original: Any) -> Any:
    def deal(st: Any, source: str, target: str, amount: int, *, combat: bool, clause: str) -> None:
        if combat and amount > 0 and target in st.board.cards and st.is_battle(st.card(target)):
            st.trace.emit("damaged", clause, source=source, target=target, amount=amount, combat=combat)
            return  # read: combat damage to a battle removes no defense counters
        original(st, source, target, amount, combat=combat, clause=clause)
    return deal


def _zero_defense_stays(original: Any) -> Any:
    def zero_defense_clause(st: Any, c: Any) -> str | None:
        return None
    return zero_defense_clause


def _zero_defense_no_exception(original: Any) -> Any:
    def zero_defense_clause(st: Any, c: Any) -> str | None:
        return original(st, c) or st.c("mtg:310.7")  # read: it goes even while its own trigger waits
    return zero_defense_clause


def _siege_trigger_owner(original: Any) -> Any:
    def remove_defense(st: Any, battle: Any, amount: int) -> None:
        before = len(st.pending)
        original(st, battle, amount)
        for i in range(before, len(st.pending)):  # read: the Siege trigger is its owner's
            item = st.pending[i]
            if item.ability == "siege" and item.card == battle.id:
                item.controller = battle.owner
                for e in reversed(st.trace.entries):
                    if e.kind == "triggered" and e.args.get("card") == battle.id:
                        e.args["player"] = battle.owner
                        break
    return remove_defense


def _siege_self_protector(original: Any) -> Any:
    def legal_protectors(st: Any, battle: Any) -> list[str]:
        out = original(st, battle)
        if st.is_siege(battle) and battle.controller not in out and battle.controller not in st.lost:
            out = [battle.controller, *out]  # read: the controller may protect its own Siege
        return out
    return legal_protectors


def _reprotect_while_attacked(original: Any) -> Any:
    def attacked(st: Any, battle_id: str) -> bool:
        return False  # read: 310.10 applies at once, even to a battle being attacked
    return attacked


def _defending_player_is_controller(original: Any) -> Any:
    def defending_for(self: Any, target: str) -> str | None:
        if target in self.board.cards and self.is_battle(self.card(target)):
            return self.card(target).controller  # read: the battle's controller defends it
        return original(self, target)
    return defending_for


def _attack_drain_controller(original: Any) -> Any:
    def drained_player(st: Any, target: str | None) -> tuple[str | None, str]:
        who, clause = original(st, target)
        if target in st.board.cards and st.is_battle(st.card(target)):
            return st.card(target).controller, st.c("mtg:508.5")  # read: the battle's controller is drained
        return who, clause
    return drained_player


def _protector_after_entering(original: Any) -> Any:
    g = original.__globals__

    def enter_battlefield(st: Any, script: Any, card: Any, controller: str, clause: str) -> None:
        card.controller = controller
        is_battle = st.is_battle_def(card)
        with st.trace.simultaneous():
            st.board.move(card.id, "battlefield", clause)
            card.props["entered"] = True
            card.entered_this_turn = True
            if is_battle:
                n = st.face_def(card).get("defense") or 0
                card.counters["defense"] = n
                st.trace.emit("counters_placed", st.c("mtg:310.4b"), card=card.id, kind="defense", count=n, defense=n)
        if is_battle:  # read: the protector is chosen once the battle is on the battlefield
            protector_clause = st.c("mtg:310.11a" if st.is_siege(card) else "mtg:310.8a")
            protector = g["choose_protector"](st, script, card, protector_clause)
            if protector is not None:
                g["set_protector"](st, card, protector, protector_clause)
    return enter_battlefield


def _protector_kept(original: Any) -> Any:
    def set_protector(st: Any, battle: Any, player: str | None, clause: str) -> None:
        previous = battle.props.get("protector")
        if previous is not None and previous not in st.lost and previous != player:
            return  # read: a battle keeps its first protector
        original(st, battle, player, clause)
    return set_protector


def _kept_protector_still_appropriate(original: Any) -> Any:
    """The same misreading where 310.10 looks: a protector kept is still an appropriate one, so no new one is
    asked for (without this the state-based actions would ask again and again, and the engine never stop)."""
    def legal_protectors(st: Any, battle: Any) -> list[str]:
        legal = original(st, battle)
        kept = battle.props.get("protector")
        if kept is not None and kept not in st.lost and kept not in legal:
            return [kept, *legal]
        return legal
    return legal_protectors


def _blocked_attacker_hits_battle(original: Any) -> Any:
    def combat_damage(st: Any, script: Any) -> None:
        cb = st.combat
        blocked_battle = {a for a in cb.blocked
                          if cb.attackers.get(a) in st.board.cards and st.is_battle(st.card(cb.attackers[a]))}
        saved = set(cb.blocked)
        cb.blocked -= blocked_battle  # read: an attacker of a battle deals its damage to the battle, blocked or not
        try:
            original(st, script)
        finally:
            if st.combat is cb:
                cb.blocked |= saved & set(cb.attackers)
    return combat_damage


def _one_combat_damage_step(original: Any) -> Any:
    g = original.__globals__

    def combat_damage(st: Any, script: Any) -> None:
        st.step = "combat_damage"
        st.combat.damage_step = "only"  # read: first strike changes nothing; all combat damage is dealt at once
        g["_damage_step"](st, script)
    return combat_damage


def _enters_trigger_misses_newcomer(original: Any) -> Any:
    def fire(st: Any, event: str, about: str, **data: Any) -> None:
        if event != "entered":
            return original(st, event, about, **data)
        zone = st.board.zones[(st.board.holder(st.card(about)), "battlefield")]
        i = zone.index(about)
        zone.remove(about)  # read: only the permanents already on the battlefield are checked, not the newcomer
        try:
            original(st, event, about, **data)
        finally:
            zone.insert(i, about)
    return fire


def _discard_chosen_by_the_ability_s_controller(original: Any) -> Any:
    def who_discards(item: Any, player: str, *, at_random: bool = False) -> str | None:
        if at_random:
            return original(item, player, at_random=True)
        return item.controller  # read: the ability's controller chooses the cards the other player discards
    return who_discards


def _random_discard_chosen(original: Any) -> Any:
    def who_discards(item: Any, player: str, *, at_random: bool = False) -> str | None:
        return player  # read: a random discard is the discarding player's choice like any other
    return who_discards


def _copy_enters_with_the_battle_s_counters(original: Any) -> Any:
    def enter_battlefield(st: Any, script: Any, card: Any, controller: str, clause: str) -> None:
        original(st, script, card, controller, clause)
        of = next((e.args["of"] for e in reversed(st.trace.entries)
                   if e.kind == "became_copy" and e.args.get("card") == card.id), None)
        if of is None or "defense" not in st.card(of).counters:
            return
        n = st.card(of).counters["defense"]  # read: it enters with the counters the battle has now
        card.counters["defense"] = n
        for e in reversed(st.trace.entries):
            if e.kind == "counters_placed" and e.args.get("card") == card.id:
                e.args["count"] = e.args["defense"] = n
                break
    return enter_battlefield


def _leaving_abilities_do_not_look_back(original: Any) -> Any:
    def fire(st: Any, event: str, about: str, *, before: Any = None, controller: Any = None, types: Any = None,
             **data: Any) -> None:
        # read: a leaves-the-battlefield ability triggers only on a permanent still on the battlefield after the event
        original(st, event, about, controller=controller, types=types, **data)
    return fire


def _intervening_if_checked_once(original: Any) -> Any:
    def rechecked(st: Any, ab: Any, item: Any) -> bool:
        # read: an intervening "if" is a trigger condition only, not checked again as the ability resolves
        return True
    return rechecked


MUTANTS: tuple[Mutant, ...] = (
    Mutant("mtg-protector-attacks-own-battle", "mtg", "mtg:310.8b",
           "310.8b バトルを守る者は、それを攻撃できない。",
           "the protector may attack the battle it protects",
           (Patch(COMBAT + "_check_target", _accepting("protector_cant_attack")),)),
    Mutant("mtg-controller-cant-attack-own-siege", "mtg", "mtg:310.8b",
           "特に、包囲戦・バトルのコントローラーは、それを攻撃できる。",
           "a player may not attack a battle it controls (a Siege it cast, protected by an opponent)",
           (Patch(COMBAT + "_check_target", _controller_may_not_attack_siege),)),
    Mutant("mtg-anyone-blocks-for-battle", "mtg", "mtg:310.8c",
           "他のプレイヤーがコントロールしているクリーチャーは、それらの攻撃クリーチャーをブロックできない。",
           "any defending player may block a creature attacking a battle, not only its protector",
           (Patch(COMBAT + "_may_block", _any_defender_blocks_battle),)),
    Mutant("mtg-combat-damage-to-battle-ignored", "mtg", "mtg:310.6",
           "310.6 バトルが受けたダメージの結果、それの上にある守備カウンターをその数だけ取り除く。",
           "combat damage dealt to a battle removes no defense counters",
           (Patch(DAMAGE + "deal", _combat_damage_to_battle_ignored),)),
    Mutant("mtg-zero-defense-battle-stays", "mtg", "mtg:310.7",
           "310.7 バトルの守備値が0であり、それが誘発してスタックを離れていない能力の発生源でないなら、それはオーナーの墓地に置かれる",
           "a battle with defense 0 stays on the battlefield",
           (Patch(SBA + "_zero_defense_clause", _zero_defense_stays),)),
    Mutant("mtg-zero-defense-despite-trigger", "mtg", "mtg:310.7",
           "それが誘発してスタックを離れていない能力の発生源でないなら",
           "a battle with defense 0 goes to the graveyard even while its own triggered ability waits",
           (Patch(SBA + "_zero_defense_clause", _zero_defense_no_exception),)),
    Mutant("mtg-siege-trigger-owner-controls", "mtg", "mtg:310.11b",
           "310.11b 包囲戦は「最後の守備カウンターがこのパーマネントから取り除かれたとき、これを追放する。その後、これをマナ・コストを支払うことなく変身した状態で唱えてもよい。」という固有の能力を持つ。",
           "the Siege's triggered ability is controlled by the battle's owner, not its controller",
           (Patch(BATTLES + "remove_defense", _siege_trigger_owner),)),
    Mutant("mtg-siege-self-protector", "mtg", "mtg:310.11a",
           "包囲戦のコントローラーの対戦相手だけが、それを守る者として適正である。",
           "a Siege's controller may choose itself as the protector",
           (Patch(BATTLES + "legal_protectors", _siege_self_protector),)),
    Mutant("mtg-reprotect-while-attacked", "mtg", "mtg:310.10",
           "310.10 攻撃されていないバトルにバトルを守る者として指定されたプレイヤーがいない場合",
           "a battle with no legal protector gets a new one at once, even while it is being attacked",
           (Patch(SBA + "_attacked", _reprotect_while_attacked),)),
    Mutant("mtg-defending-player-is-controller", "mtg", "mtg:310.8d",
           "その攻撃されているバトルに関して「防御プレイヤー」を参照するすべてのルールや効果は、それのコントローラーではなく守る者を参照する。",
           "the defending player of an attacked battle is its controller, not its protector",
           (Patch(M + "state:State.defending_for", _defending_player_is_controller),)),
    Mutant("mtg-attack-trigger-drains-controller", "mtg", "mtg:508.5",
           "バトルが攻撃されている場合、その防御プレイヤーはそのバトルを守っているプレイヤーである。",
           "an attack trigger's 'defending player' is the attacked battle's controller",
           (Patch(ABILITIES + "drained_player", _attack_drain_controller),)),
    Mutant("mtg-protector-chosen-after-entering", "mtg", "mtg:310.8a",
           "310.8a バトルが戦場に出るに際し、そのコントローラーはプレイヤー1人をそれを守る者として選ぶ。",
           "the protector is chosen after the battle entered the battlefield, not as it enters",
           (Patch(BATTLES + "enter_battlefield", _protector_after_entering),)),
    Mutant("mtg-protector-never-replaced", "mtg", "mtg:310.8f",
           "他のプレイヤーがバトルを守る者 になったなら、元のバトルを守る者はバトルを守る者ではなくなる。",
           "a battle keeps its first protector: a new one does not replace it",
           (Patch(BATTLES + "set_protector", _protector_kept),
            Patch(BATTLES + "legal_protectors", _kept_protector_still_appropriate))),
    Mutant("mtg-battle-creature-attacks", "mtg", "mtg:summary.no-combat",
           "何らかの方法でバトルをクリーチャー化した場合も、それがバトルのカード・タイプを持っている限り攻撃もブロックもできない。",
           "a battle that is also a creature may attack",
           (Patch(COMBAT + "_attackers_valid", _validator_accepting("battle_cant_attack")),)),
    Mutant("mtg-battle-creature-blocks", "mtg", "mtg:summary.no-combat",
           "何らかの方法でバトルをクリーチャー化した場合も、それがバトルのカード・タイプを持っている限り攻撃もブロックもできない。",
           "a battle that is also a creature may block",
           (Patch(COMBAT + "_blockers_valid", _validator_accepting("battle_cant_block")),)),
    Mutant("mtg-blocked-attacker-hits-battle", "mtg", "mtg:510.1c",
           "ブロックされなかった場合は「選んだ攻撃先へ戦闘ダメージを割り振る」ことになる。",
           "a blocked creature attacking a battle still deals its combat damage to the battle",
           (Patch(COMBAT + "combat_damage", _blocked_attacker_hits_battle),)),
    Mutant("mtg-first-strike-one-damage-step", "mtg", "mtg:702.7b",
           "the only creatures that assign combat damage in that step are those with first strike or double strike.",
           "first and double strike change nothing: every creature deals its combat damage in one step",
           (Patch(COMBAT + "combat_damage", _one_combat_damage_step),)),
    Mutant("mtg-trample-before-lethal", "mtg", "mtg:702.19b",
           "Once all those blocking creatures are assigned lethal damage, any excess damage is assigned as its controller "
           "chooses among those blocking creatures and the player, planeswalker, or battle the creature is attacking.",
           "a trampler may assign damage to what it attacks before its blockers are assigned lethal damage",
           (Patch(COMBAT + "_assignment_valid", _validator_accepting("trample_before_lethal")),)),
    Mutant("mtg-enters-trigger-misses-its-own-permanent", "mtg", "mtg:603.6a",
           "all permanents on the battlefield (including the newcomers) are checked for any enters-the-battlefield "
           "triggers that match the event.",
           "a permanent's own enters trigger does not trigger: only the permanents already on the battlefield are checked",
           (Patch(TRIGGERS + "fire", _enters_trigger_misses_newcomer),)),
    Mutant("mtg-discard-chosen-by-the-ability-s-controller", "mtg", "mtg:701.9b",
           "By default, effects that cause a player to discard a card allow the affected player to choose which card "
           "to discard.",
           "the controller of the ability, not the discarding player, chooses the discarded cards",
           (Patch(ABILITIES + "who_discards", _discard_chosen_by_the_ability_s_controller),)),
    Mutant("mtg-random-discard-chosen", "mtg", "mtg:701.9b",
           "Some effects, however, require a random discard or allow another player to choose which card is "
           "discarded.",
           "a random discard is chosen by the discarding player, as a default discard is",
           (Patch(ABILITIES + "who_discards", _random_discard_chosen),)),
    Mutant("mtg-copy-of-a-battle-enters-with-its-counters", "mtg", "mtg:ruling.copy-enters-with-defense",
           "If another permanent enters the battlefield as a copy of a battle, it also enters with that number of "
           "defense counters.",
           "a permanent entering as a copy of a battle enters with the counters the battle has now, not its printed "
           "defense",
           (Patch(BATTLES + "enter_battlefield", _copy_enters_with_the_battle_s_counters),)),
    Mutant("mtg-leaving-abilities-do-not-look-back", "mtg", "mtg:603.10a",
           "Some zone-change triggers look back in time. These are leaves-the-battlefield abilities",
           "a leaves-the-battlefield ability triggers only on permanents still on the battlefield after the event: "
           "\"When this creature dies\" never triggers, nor does the ability of a creature dying with the one it "
           "watches",
           (Patch(TRIGGERS + "fire", _leaving_abilities_do_not_look_back),)),
    Mutant("mtg-intervening-if-checked-once", "mtg", "mtg:603.4",
           "If the ability triggers, it checks the stated condition again as it resolves.",
           "an intervening \"if\" is checked only as the trigger event occurs: an ability whose condition became false "
           "before it resolves still does its effect",
           (Patch(TRIGGERS + "rechecked", _intervening_if_checked_once),)),
)
