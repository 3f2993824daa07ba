"""Duel Masters mutants: misreadings of seed 002 (the attack procedure and its notes ※1-※9) and of the
current 総合ルール clauses the catalog cites (CR104.2a, CR113.6).

Each patches a named function of ``oracle.games.duelmasters`` (``procedure``, ``state``, ``legality``); a
mutated function reaches its module's other functions through the original's globals, never by importing the
game (clause ids are written out: ``duelmasters:U8``).
"""

from __future__ import annotations

import itertools
from typing import Any

from ..core.script import GameOver, Refusal
from .model import Mutant, Patch

R = "oracle.games.duelmasters.procedure:"
ST = "oracle.games.duelmasters.state:"
LE = "oracle.games.duelmasters.legality:"
AB = "oracle.games.duelmasters.abilities:"


# -- battle (B3/B4/C4/C5, ※5) -----------------------------------------------------------------------

def _tie_kills_attacker_only(original: Any) -> Any:
    g = original.__globals__

    def battle(st: Any, script: Any, a: Any, b: Any, *, won: str, lost: str) -> Any:
        if not (g["in_play"](st, a.id) and g["in_play"](st, b.id)):
            return None
        g["battle_start"](st, script, a, b)
        if not (g["in_play"](st, a.id) and g["in_play"](st, b.id)):
            return None
        if g["power"](st, a) == g["power"](st, b):  # read: the attacker loses a tie, the other stays
            with st.trace.simultaneous():
                st.trace.emit("won_battle", won, card=b.id, power=g["power"](st, b), against=a.id)
                st.trace.emit("lost_battle", won, card=a.id, power=g["power"](st, a), against=b.id)
            g["destroy"](st, [a.id], lost)
            return (b, a, b)
        return original(st, script, a, b, won=won, lost=lost)
    return battle


def _after_battle(*, tie_wins: bool = False, nonactive_first: bool = False) -> Any:
    def make(original: Any) -> Any:
        g = original.__globals__

        def after_battle(st: Any, script: Any, result: Any) -> None:
            """The reference's C6/C7 with one reading changed."""
            if result is None:
                return
            winner, a, b = result
            triggers: list[Any] = []
            for me, other in ((a, b), (b, a)):
                if me is winner or (tie_wins and winner is None):
                    triggers += g["triggers"](st, "wins_battle", me, others=False)
                if me.has("slayer") and g["in_play"](st, other.id):
                    triggers.append(g["slayer"](me, other))
            if not triggers:
                return
            with st.trace.simultaneous():
                for t in triggers:
                    st.trace.emit("triggered", "duelmasters:C6", card=t.card.id, ability=t.ability,
                                  player=t.card.controller)
            first = (lambda t: t.card.controller == st.active) if nonactive_first else \
                (lambda t: t.card.controller != st.active)
            resolve = g["fire"].__globals__["resolve"]
            for t in sorted(triggers, key=first):
                st.trace.emit("resolved", "duelmasters:C7", card=t.card.id, ability=t.ability,
                              player=t.card.controller)
                resolve(st, script, t, "duelmasters:C7")
        return after_battle
    return make


# -- breaks (U2-U9, CR104.2a, CR113.6) -------------------------------------------------------------

def _unblocked(*, stop_when_gone: bool = False, immediate: bool = True, at_once: bool = True) -> Any:
    def make(original: Any) -> Any:
        g = original.__globals__

        def unblocked(st: Any, script: Any, attacker: Any, defender: str) -> None:
            """The reference's U1-U9 with one reading changed."""
            current = st.ruleset in g["SIMULTANEOUS_BREAK"]
            if immediate and st.ruleset in g["IMMEDIATE_DIRECT_ATTACK"] and not st.board.zone(defender, "shields"):
                st.trace.emit("won", "duelmasters:CR104.2a", player=st.active)
                raise GameOver(st.active)
            g["fire"](st, script, g["triggers"](st, "unblocked", attacker), "duelmasters:U1",
                      clause_of=lambda t: ("duelmasters:N6", "duelmasters:U1"))
            if not st.board.zone(defender, "shields"):
                st.trace.emit("won", "duelmasters:U2", player=st.active)
                raise GameOver(st.active)
            count = g["breaks"](attacker)
            if current and at_once:
                g["break_at_once"](st, script, defender, count)
                return
            for i in range(count):
                if not st.board.zone(defender, "shields"):
                    break
                gone = not g["in_play"](st, attacker.id)
                if gone and stop_when_gone:
                    break  # read: the attacker left, its remaining breaks are lost
                later = "duelmasters:U9" if gone else "duelmasters:U8"
                chose, broke = ("duelmasters:U2", "duelmasters:U4") if i == 0 else (later, later)
                shield = g["choose_shield"](st, script, defender, chose)
                st.shield_chosen = True
                with st.trace.simultaneous():
                    st.trace.emit("broken", broke, card=shield, player=defender)
                    st.board.move(shield, "hand", broke)
                g["shield_window"](st, script, shield, defender)
        return unblocked
    return make


# -- the attack (A1-A3, C1-C3, ※9) ------------------------------------------------------------------

def _attack(*, block_first: bool = False, gone_target_wins: bool = False) -> Any:
    def make(original: Any) -> Any:
        g = original.__globals__

        def attack(st: Any, script: Any, card: Any, target: str, at_player: bool, start: str | None = None) -> None:
            """The reference's attack with one reading changed."""
            defender = st.opponent(st.active)
            st.attacker, st.target = card.id, target
            if start is None:
                declare = ("duelmasters:N1" if card.entered_this_turn else ("duelmasters:A1" if at_player else "duelmasters:C1"))
                with st.trace.simultaneous():
                    g["tap"](st, card.id, declare)
                    st.trace.emit("attacked", declare, card=card.id, target=target)
            triggers = start in (None, "attack_triggers")

            def attack_triggers() -> None:
                g["fire"](st, script, g["triggers"](st, "attacks", card),
                          ("duelmasters:A2" if at_player else "duelmasters:C2"))
            if block_first:  # read: the defender decides the block before the attack triggers
                blocker = g["block_step"](st, script, card, defender, ("duelmasters:A3" if at_player else "duelmasters:C3"))
                if triggers:
                    attack_triggers()
            else:
                if triggers:
                    attack_triggers()
                blocker = g["block_step"](st, script, card, defender, ("duelmasters:A3" if at_player else "duelmasters:C3"))
            if blocker is not None:
                g["blocked"](st, script, card, blocker)
                end = "duelmasters:C8"
            elif not g["in_play"](st, card.id):
                end = ("duelmasters:U7" if at_player else "duelmasters:C8")
            elif at_player:
                g["unblocked"](st, script, card, defender)
                end = "duelmasters:U7"
            elif not g["in_play"](st, target):
                if gone_target_wins:  # read: the attacker wins the battle its target left
                    st.trace.emit("won_battle", "duelmasters:C4", card=card.id, power=g["power"](st, card), against=target)
                    g["after_battle"](st, script, (card, card, st.card(target)))
                end = ("duelmasters:C8" if gone_target_wins else "duelmasters:N9")
            else:
                result = g["battle"](st, script, card, st.card(target), won="duelmasters:C4", lost="duelmasters:C5")
                g["after_battle"](st, script, result)
                end = "duelmasters:C8"
            st.trace.emit("attack_ended", end, card=card.id)
            if at_player and card.has("after_attack_destroy"):
                g["destroy"](st, [card.id], "duelmasters:N8")
            st.chosen_last = st.shield_chosen
            g["end_of_battle"](st)
            st.attacker, st.target, st.shield_chosen = None, None, False
        return attack
    return make


def _unblocked_on_creature(original: Any) -> Any:
    g = original.__globals__

    def battle(st: Any, script: Any, a: Any, b: Any, *, won: str, lost: str) -> Any:
        if a.id == st.attacker and b.id == st.target:  # read: ※6's effects fire on any unblocked attack
            g["fire"](st, script, g["triggers"](st, "unblocked", a), "duelmasters:U1",
                      clause_of=lambda t: ("duelmasters:N6", "duelmasters:U1"))
        return original(st, script, a, b, won=won, lost=lost)
    return battle


def _blocker_trigger_first(original: Any) -> Any:
    g = original.__globals__

    def blocked(st: Any, script: Any, attacker: Any, blocker: Any) -> None:
        g["fire"](st, script, g["triggers"](st, "blocks", blocker), "duelmasters:N4")  # read: the blocker's first
        g["fire"](st, script, g["triggers"](st, "attack_blocked", attacker), "duelmasters:N3")
        result = g["battle"](st, script, attacker, blocker, won="duelmasters:B3", lost="duelmasters:B3")
        g["after_battle"](st, script, result)
    return blocked


# -- who may attack, tap abilities (P1-P4, ※1, ※2, C1) ---------------------------------------------

def _speed_attacker_sick(original: Any) -> Any:
    def sick(card: Any) -> bool:
        return card.entered_this_turn and not card.has("evolution")
    return sick


def _untapped_target(original: Any) -> Any:
    def check_attack(st: Any, attacker_id: Any, target: Any) -> Any:
        try:
            return original(st, attacker_id, target)
        except Refusal as r:
            if r.reason != "target_untapped_creature":
                raise
            return st.card(attacker_id), target, False
    return check_attack


def _tap_ability_unable(original: Any) -> Any:
    def check_tap_ability(st: Any, cid: str) -> Any:
        try:
            return original(st, cid)
        except Refusal as r:
            if r.reason != "tap_ability_cannot_attack":
                raise
            card = st.card(cid)
            return card, next(a for a in ("tap_trigger", "dynamo") if card.has(a)), False
    return check_tap_ability


def _dynamo_only_if_able(original: Any) -> Any:
    g = original.__globals__

    def battle_start(st: Any, script: Any, a: Any, b: Any) -> None:
        """The reference's N2 offering only ダイナモ creatures that could attack."""
        for player in (st.active, st.opponent(st.active)):
            answered: set[str] = set()
            while g["in_play"](st, a.id) and g["in_play"](st, b.id):
                offered = [c.id for c in st.board.in_zone(player, "battlefield")
                           if c.has("dynamo") and not c.tapped and c.id not in answered and g["could_attack"](c)]
                if not offered:
                    break

                def validate(d: Any, offered: list[str] = offered) -> Any:
                    cid = g["card_arg"](d, "card")
                    if cid not in offered:
                        raise Refusal("not_offered", f"offered: {offered}")
                    return st.card(cid)

                d, card = g["decide"](st, script, player, ("tap_ability", "decline"), "duelmasters:N2", validate)
                answered.add(card.id)
                if d.kind == "tap_ability":
                    g["tap_ability"](st, script, card, "dynamo", True, player)
    return battle_start


def _late_block_unexplained(original: Any) -> Any:
    def decide(st: Any, script: Any, player: str, kinds: tuple[str, ...], clause: str, validate: Any, *,
               optional: bool = False) -> Any:
        chosen, st.shield_chosen = st.shield_chosen, False  # read: nothing special about a late block
        try:
            return original(st, script, player, kinds, clause, validate, optional=optional)
        finally:
            st.shield_chosen = chosen or st.shield_chosen
    return decide


def _power_attacker_always(original: Any) -> Any:
    def power(st: Any, card: Any) -> int:
        p = (card.power or 0) + st.pumps.get(card.id, 0)
        if card.zone == "battlefield":  # read: パワーアタッカー adds its power whether it attacks or not
            p += sum(int(x) for x in card.params("power_attacker"))
        return p
    return power


# -- composed abilities (issue 25): 「出た時」 and replacements ----------------------------------------------

def _no_cip_from_s_trigger(original: Any) -> Any:
    def enter(st: Any, cid: str, clause: str) -> None:
        """The reference's entering, without the creature's triggers (read: a creature used as an Ｓ・トリガー is
        not 'put into the battle zone' for its 「出た時」 abilities; only a summon is)."""
        card = st.card(cid)
        card.tapped = False
        card.entered_this_turn = True
        st.board.move(cid, "battlefield", clause)
    return enter


def _loser_always_to_graveyard(original: Any) -> Any:
    def destroyed_to(st: Any, card: Any) -> str:
        if st.attacker is not None:  # read: during an attack 「墓地に置かれます」 holds whatever a card says
            return "graveyard"
        return original(st, card)
    return destroyed_to


# -- 「可能であればブロックする」 (CR507.1b; the seed's reading X-blocks-if-able-seed) -------------------------------

def _one_required_enough(original: Any) -> Any:
    g = original.__globals__

    def required_blockers_in(st: Any, defender: str, chosen: list[Any]) -> None:
        """Read: as before DMR-17, one of several creatures that must block if able is enough (507.1b's 「それらすべて」
        missed): under the current rules too, the list need only hold one of them."""
        required = {c.id for c in g["required_blockers"](st, defender)}
        if required and not required & {c.id for c in chosen}:
            raise Refusal("required_blocker_left_out", f"one of {sorted(required)} must block if able",
                          clause="duelmasters:CR507.1b")
    return required_blockers_in


def _required_even_if_unable(original: Any) -> Any:
    g = original.__globals__

    def required_blockers(st: Any, defender: str) -> list[Any]:
        """Read: the keyword forces its creature whatever its state (507.1a's 適正にその能力を使用できる missed): a
        tapped ブロッカー, or the creature being attacked, that must block if able still has to be chosen."""
        return [c for c in g["creatures"](st, defender) if c.has("blocks_if_able") and c.has("blocker")]
    return required_blockers


# -- 革命チェンジ (CR506.3b, CR603.2f, CR701.26a; reading X-revolution-change) --------------------------------------

def _change_fires_attack_triggers(original: Any) -> Any:
    g = original.__globals__

    def revolution_change(st: Any, script: Any, rc: Any, attacker: Any, clause: str) -> None:
        """Read: the creature put in attacks anew, so its 「攻撃する時」 abilities trigger (506.3a missed)."""
        original(st, script, rc, attacker, clause)
        if st.attacker == rc.id:
            g["fire"](st, script, g["triggers"](st, "attacks", rc), clause)
    return revolution_change


def _change_enters_untapped(original: Any) -> Any:
    def revolution_change(st: Any, script: Any, rc: Any, attacker: Any, clause: str) -> None:
        """Read: the card put into the battle zone comes in untapped, as a card put there usually does (701.26a's
        位相を引き継ぎます missed)."""
        original(st, script, rc, attacker, clause)
        if st.attacker == rc.id:
            rc.tapped = False
    return revolution_change


def _change_any_attacker(original: Any) -> Any:
    def change_allowed(rc: Any, attacker: Any) -> bool:
        """Read: 革命チェンジ may be declared for any attacking creature of its player (the condition ignored)."""
        return True
    return change_allowed


def _change_after_defenders(original: Any) -> Any:
    g = original.__globals__

    def attack_triggers(st: Any, script: Any, card: Any, clause: str) -> None:
        """Read: the declared changes wait until every attack trigger has resolved, the defender's included
        (506.3c/506.3e's order missed)."""
        pending = g["triggers"](st, "attacks", card)
        g["announce"](st, pending, clause)
        changes = g["revolution_declarations"](st, script, card) if st.ruleset in g["REVOLUTION_CHANGE"] else []
        g["resolve_all"](st, script, pending, clause)
        for rc in changes:
            g["revolution_change"](st, script, rc, card, clause)
    return attack_triggers


# -- summoning and evolving (CR301.1, CR112.2a, CR801.1; reading X-summon) ----------------------------------------

def _multicolored_pays_all(original: Any) -> Any:
    g = original.__globals__

    def pays(creature: Any, mana: list[Any]) -> bool:
        """Read: a multicolored mana card pays every civilization it has (112.2a's example missed)."""
        cost = creature.definition.get("cost")
        have = set().union(*(g["civilizations"](m) for m in mana)) if mana else set()
        return isinstance(cost, int) and len(mana) == cost and g["civilizations"](creature) <= have
    return pays


def _extra_mana_allowed(original: Any) -> Any:
    def pays(creature: Any, mana: list[Any]) -> bool:
        """Read: more cards than the cost may be tapped, as long as some of them pay it (112.2c missed)."""
        cost = creature.definition.get("cost")
        return original(creature, mana) or (isinstance(cost, int) and len(mana) > cost and any(
            original(creature, list(c)) for c in itertools.combinations(mana, cost)))
    return pays


def _evolution_onto_any(original: Any) -> Any:
    def source_allowed(evolution: Any, source: Any, player: str) -> bool:
        """Read: an evolution creature goes onto any creature in the battle zone (801.1a's 適正な進化元 missed)."""
        return source.zone == "battlefield" and not source.props.get("under")
    return source_allowed


def _summon_any_time(original: Any) -> Any:
    g = original.__globals__

    def open_kinds(st: Any) -> tuple[str, ...]:
        """Read: a creature may be summoned at any open point of the turn, between attacks too (301.1's
        自分のメインステップに missed)."""
        kinds = ("attack", "tap_ability", "end_turn")
        return kinds + ("summon",) if st.ruleset in g["SUMMONING"] else kinds
    return open_kinds


MUTANTS: tuple[Mutant, ...] = (
    Mutant("dm-tie-destroys-attacker-only", "duelmasters", "duelmasters:B4",
           "パワーが同じ場合、両方「負け」となり",
           "a tie destroys only the attacker; the other creature wins and stays",
           (Patch(R + "battle", _tie_kills_attacker_only),)),
    Mutant("dm-tie-counts-as-win", "duelmasters", "duelmasters:N5",
           "つまり相打ちの場合「バトルに勝ったとき」の効果は使えません。",
           "in a tie both creatures' 「バトルに勝ったとき」 effects trigger",
           (Patch(R + "after_battle", _after_battle(tie_wins=True)),)),
    Mutant("dm-after-battle-nonactive-first", "duelmasters", "duelmasters:C7",
           "解決する順番は今ターンを行っているプレイヤー（すなわち攻撃プレイヤー）から行います。",
           "after-battle effects resolve the non-active player's first",
           (Patch(R + "after_battle", _after_battle(nonactive_first=True)),)),
    Mutant("dm-w-breaker-stops-when-attacker-leaves", "duelmasters", "duelmasters:U9",
           "複数ブレイクできる能力を持つクリーチャーが途中の過程で墓地に置かれてしまっても、その枚数分のブレイクを行います。",
           "a Ｗ・ブレイカー destroyed by the first shield's Ｓ・トリガー breaks no second shield",
           (Patch(R + "unblocked", _unblocked(stop_when_gone=True)),)),
    Mutant("dm-direct-attack-after-unblocked-effects", "duelmasters", "duelmasters:CR104.2a",
           "104.2a 対戦相手にクリーチャーで攻撃して攻撃先の変更がされなかったとき、相手のシールドが0枚であれば即座にゲームに勝利します。",
           "under the current rules too, the direct attack wins only after the 'not blocked' effects resolve",
           (Patch(R + "unblocked", _unblocked(immediate=False)),)),
    Mutant("dm-current-rules-break-one-by-one", "duelmasters", "duelmasters:CR113.6",
           "これらの使用宣言がすべて終わってから、シールドは手札に移動します。",
           "under the current rules a multiple break still goes shield by shield (choose, break, Ｓ・トリガー)",
           (Patch(R + "unblocked", _unblocked(at_once=False)),)),
    Mutant("dm-block-before-attack-triggers", "duelmasters", "duelmasters:A3",
           "アタックトリガー解決後に、相手バトルゾーンに<font color=blue>ブロッカー</font>が存在する場合、<font color=blue>ブロック</font>するかどうかを相手が決めます。",
           "the defender decides the block before the attack triggers resolve",
           (Patch(R + "attack", _attack(block_first=True)),)),
    Mutant("dm-gone-target-attacker-wins", "duelmasters", "duelmasters:N9",
           "※９：アタックトリガーなどで指定したクリーチャーが破壊されていた場合、ここで攻撃は終了になります。",
           "when the attacked creature left, the attacker wins the battle by default (its win effects trigger)",
           (Patch(R + "attack", _attack(gone_target_wins=True)),)),
    Mutant("dm-unblocked-effect-on-creature-attack", "duelmasters", "duelmasters:U1",
           "まず、「このクリーチャーが相手プレイヤーを攻撃してブロックされなかった時～^※６」の効果を解決します。",
           "a 「相手プレイヤーを攻撃してブロックされなかった時」 effect also triggers when an attack on a creature is not "
           "blocked (before the battle)",
           (Patch(R + "battle", _unblocked_on_creature),)),
    Mutant("dm-blocker-trigger-first", "duelmasters", "duelmasters:B2",
           "その後、相手ブロッカーの、「このクリーチャーがブロックしたとき～^※４」の効果を解決します。",
           "the blocker's 「ブロックしたとき」 resolves before the attacker's 「攻撃してブロックされたとき」",
           (Patch(R + "blocked", _blocker_trigger_first),)),
    Mutant("dm-speed-attacker-summoning-sick", "duelmasters", "duelmasters:N1",
           "※１：ただし進化クリーチャーやスピードアタッカーを持つクリーチャーなどはバトルゾーンに出したターンに攻撃ができます。",
           "only evolution creatures attack the turn they enter: スピードアタッカー is summoning sick",
           (Patch(ST + "sick", _speed_attacker_sick),)),
    Mutant("dm-attack-untapped-creature", "duelmasters", "duelmasters:C1",
           "（タップされていないクリーチャーは効果がない限り選べません。）",
           "an untapped creature may be attacked",
           (Patch(R + "_check_attack", _untapped_target),)),
    Mutant("dm-tap-ability-when-unable-to-attack", "duelmasters", "duelmasters:N2",
           "タップトリガーは攻撃の変わりに使用する効果なので、攻撃できない状態では使用できません。",
           "a tap ability may be used at the open point by a creature that cannot attack",
           (Patch(R + "_check_tap_ability", _tap_ability_unable),)),
    Mutant("dm-dynamo-battle-start-needs-attack", "duelmasters", "duelmasters:N2",
           "ダイナモの場合、「バトルのはじめ」にタップする場合は攻撃できなくても能力を使用することができます。",
           "at the beginning of a battle only a ダイナモ creature that could attack may tap",
           (Patch(R + "battle_start", _dynamo_only_if_able),)),
    Mutant("dm-late-block-not-u3", "duelmasters", "duelmasters:U3",
           "シールドが決められた後ではブロックすることはできません",
           "a block after the shield was chosen is refused only as an unexpected decision, not under U3 "
           "(reason block_after_shield_chosen)",
           (Patch(LE + "decide", _late_block_unexplained),)),
    Mutant("dm-power-attacker-always", "duelmasters", "duelmasters:B3",
           "お互いクリーチャーや呪文、クロスギアなどの効果によってプラスマイナスされた<font color=blue>パワー</font>を比較し",
           "パワーアタッカー's bonus counts also when the creature is not attacking (blocking, attacked)",
           (Patch(ST + "power", _power_attacker_always),)),
    Mutant("dm-s-trigger-creature-no-cip", "duelmasters", "duelmasters:U6",
           "Ｓ・トリガーを持つカードを相手が使用した場合、ここで効果が解決されます。",
           "a creature put into the battle zone by its Ｓ・トリガー does not trigger its 「バトルゾーンに出た時」 abilities",
           (Patch(AB + "enter", _no_cip_from_s_trigger),)),
    Mutant("dm-only-one-required-blocker", "duelmasters", "duelmasters:CR507.1b",
           "複数のクリーチャーにブロックを強制する効果がある場合は、それらすべてを選ぶ必要があります。",
           "under the current rules, of several creatures that must block if able one chosen is enough (the older "
           "ruling): a list leaving the others out is accepted",
           (Patch(R + "required_blockers_in", _one_required_enough),)),
    Mutant("dm-required-blocker-even-if-unable", "duelmasters", "duelmasters:CR507.1b",
           "ブロッカー能力を使用するクリーチャーとしてそのクリーチャーを必ず選ばなければいけません。",
           "a creature that must block if able is required even when it cannot properly use its ブロッカー (tapped, "
           "or the creature being attacked): no_block is refused",
           (Patch(R + "required_blockers", _required_even_if_unable),)),
    Mutant("dm-replacement-ignored-during-attack", "duelmasters", "duelmasters:B3",
           "パワーが小さいほうは「負け」となり、墓地に置かれます。",
           "during an attack a destroyed creature goes to the graveyard even when a 「墓地に置くかわりに」 "
           "replacement applies to it",
           (Patch(AB + "destroyed_to", _loser_always_to_graveyard),)),
    Mutant("dm-revolution-change-attacks-anew", "duelmasters", "duelmasters:CR701.26a",
           "（革命チェンジやJ チェンジで入れ替えられたクリーチャーは攻撃状態にあります）",
           "the creature a 革命チェンジ puts into the battle zone triggers its own 「攻撃する時」 abilities, as if "
           "designated to attack",
           (Patch(R + "revolution_change", _change_fires_attack_triggers),)),
    Mutant("dm-revolution-change-enters-untapped", "duelmasters", "duelmasters:CR701.26a",
           "入れ替えられたクリーチャーやタマシードは入れ替える前のクリーチャーやタマシードの位相と状態を引き継ぎます",
           "the creature a 革命チェンジ puts into the battle zone comes in untapped",
           (Patch(R + "revolution_change", _change_enters_untapped),)),
    Mutant("dm-revolution-change-any-attacker", "duelmasters", "duelmasters:CR506.3b",
           "使用宣言が必要な誘発型能力とは、ニンジャ・ストライクや革命チェンジなど、非公開ゾーンで誘発する能力を指します。",
           "a 革命チェンジ may be declared whatever the attacking creature (its condition is not checked)",
           (Patch(R + "change_allowed", _change_any_attacker),)),
    Mutant("dm-revolution-change-after-defenders-triggers", "duelmasters", "duelmasters:CR506.3b",
           "使用する場合、まずターン・プレイヤー側が使用するものをすべて宣言します。",
           "a declared 革命チェンジ resolves after every attack trigger, the defender's included",
           (Patch(R + "attack_triggers", _change_after_defenders),)),
    Mutant("dm-multicolored-mana-pays-every-civilization", "duelmasters", "duelmasters:CR112.2a",
           "1 枚で火と闇と自然すべてを持つ多色カードをタップしても、それで全ての文明を満たしたことにはならず",
           "one multicolored mana card pays every civilization it has",
           (Patch(R + "pays", _multicolored_pays_all),)),
    Mutant("dm-extra-mana-allowed", "duelmasters", "duelmasters:CR112.2a",
           "さらにマナゾーンのカードのマナシンボル上に書かれた数値の合計がコストと同じ数になるように",
           "more mana cards than the cost may be tapped, as long as some of them pay it",
           (Patch(R + "pays", _extra_mana_allowed),)),
    Mutant("dm-evolution-onto-any-creature", "duelmasters", "duelmasters:CR801.1",
           "801.1a 適正な進化元がなければ進化クリーチャーをバトルゾーンに出すことはできません。",
           "an evolution creature may be put onto any creature in the battle zone, the opponent's or one not of its "
           "condition",
           (Patch(R + "source_allowed", _evolution_onto_any),)),
    Mutant("dm-summon-between-attacks", "duelmasters", "duelmasters:CR301.1",
           "301.1. ターン・プレイヤーは、自分のメインステップにクリーチャーを手札から召喚することができます。",
           "a creature may be summoned at any open point of the turn, after an attack too",
           (Patch(R + "open_kinds", _summon_any_time),)),
)
