"""The Duel Masters attack procedure of seed 002 (P1-P4, A1-A3, B1-B4, U1-U9, C1-C8, E1, ※1-※9).

The request's ruleset picks the edition (editions.py): under the current 総合ルール the shields of one
break are chosen first and wait together (CR113.6/113.6a), and a direct attack wins at once (CR104.2a).

A case starts in the active player's turn, at the open point of its attacks: the active player attacks,
uses a tap ability, or ends the turn; an exhausted script ends the case.
"""

from __future__ import annotations

from typing import Any

from ...core.board import Card
from ...core.game import run_procedure
from ...core.script import Decision, GameOver, Refusal, Script
from ...model import CaseReply, CaseRequest
from .abilities import (
    Trigger, announce, apply, destroy, enter, fire, flush, leave, resolve_all, slayer, sources_follow, tap, triggers,
)
from .clauses import (
    A1, A2, A3, B1, B2, B3, B4, C1, C2, C3, C4, C5, C6, C7, C8, CR104_2A, CR112_2A, CR113_6, CR113_6A, CR301_1,
    CR506_3B, CR507_1A, CR507_1B, CR603_2F, CR701_26A, CR801_1, E1, N1, N2, N3, N4, N5, N6, N7, N8, N9, P1, P2, P3, P4,
    RD_2021_09_07, U1, U2, U4, U5, U6, U7, U8, U9,
)
from .editions import IMMEDIATE_DIRECT_ATTACK, REVOLUTION_CHANGE, SEVERAL_BLOCKERS, SIMULTANEOUS_BREAK, SUMMONING
from .legality import card_among, card_arg, decide, known
from .state import State, breaks, build, could_attack, creatures, in_play, is_source, power, project, sick


def run(request: CaseRequest) -> CaseReply:
    step = request.setup.get("step")
    if step is None:
        return run_procedure(request, build, play, project)
    attacking = next(cs for p in request.setup["players"].values() for content in p.values()
                     if isinstance(content, list) for cs in content if isinstance(cs, dict) and cs.get("attacking"))

    def resume(st: State, script: Script) -> None:
        """A setup at a later step (the vocabulary's ``steps``): the attack goes on from there, then the
        open point."""
        target = attacking["attacking"]
        st.main_step = False                        # a later step of an attack: the main step is over
        attack(st, script, st.card(attacking["id"]), target, target in st.board.players, start=step)
        play(st, script)

    return run_procedure(request, build, resume, project)


# -- the turn -----------------------------------------------------------------------------------

def play(st: State, script: Script) -> None:
    while True:
        got = decide(st, script, st.active, open_kinds(st), P4, lambda d: _open_point(st, d), optional=True)
        if got is None:
            return
        st.chosen_last = False                       # the attack that chose a shield is behind this decision
        d, parsed = got
        if d.kind == "end_turn":
            end_turn(st, script)
            return
        if d.kind == "summon":
            summon(st, script, *parsed)
            continue
        st.main_step = False                         # 504.1/701.3a: the attack step has begun
        if d.kind == "tap_ability":
            tap_ability(st, script, *parsed)
        else:
            attack(st, script, *parsed)


def open_kinds(st: State) -> tuple[str, ...]:
    """The decisions of the open point: attack, tap ability, end of turn; and, under the current rules, in the main
    step (before the case's first attack or tap ability: 504.1, 701.3a; X-summon), summon."""
    kinds = ("attack", "tap_ability", "end_turn")
    return kinds + ("summon",) if st.main_step and st.ruleset in SUMMONING else kinds


def _open_point(st: State, d: Decision):
    if d.kind == "end_turn":
        return None
    if d.kind == "summon":
        return _check_summon(st, d)
    if d.kind == "tap_ability":
        return _check_tap_ability(st, card_arg(d, "card"))
    args = d.args if isinstance(d.args, dict) else {}
    if set(args) != {"attacker", "target"}:
        raise Refusal("malformed_decision", "attack takes {attacker, target}")
    _check_attack_shape(args)
    return _check_attack(st, args["attacker"], args["target"])


# -- the main step: summoning (current rules: CR301.1, 701.3a, 112.2a, 801.1) ---------------------------------------

def _summon_args(d: Decision) -> tuple[str, list[str], str | None]:
    """``summon card`` or ``summon {card, mana?, onto?}``: the creature, the mana cards to tap (a list of ids, none
    by default) and the evolution source. Any other shape is ``malformed_decision``."""
    a = d.args
    if isinstance(a, str):
        return a, [], None
    if not isinstance(a, dict) or "card" not in a or not set(a) <= {"card", "mana", "onto"}:
        raise Refusal("malformed_decision", "summon takes a card id or {card, mana?: [ids], onto?: id}")
    card, mana, onto = a["card"], a.get("mana", []), a.get("onto")
    if (not isinstance(card, str) or not isinstance(mana, list) or not all(isinstance(m, str) for m in mana)
            or not (onto is None or isinstance(onto, str))):
        raise Refusal("malformed_decision", "summon's card and onto are ids, its mana a list of ids")
    if len(set(mana)) != len(mana):
        raise Refusal("malformed_decision", "a mana card is named twice")
    return card, list(mana), onto


def civilizations(card: Card) -> set[str]:
    """A card's civilizations (props.civ: one, or a list; none: colorless, 106.2c)."""
    civ = card.props.get("civ")
    return {civ} if isinstance(civ, str) else set(civ or ())


def pays(creature: Card, mana: list[Card]) -> bool:
    """112.2a/112.2c: the mana cards pay the creature's cost exactly: one card for each of its civilizations, each
    card counting as one civilization only (a multicolored card is one of them), and as many cards (each 1 mana,
    107.2) as the cost -- no fewer, no more."""
    cost = creature.definition.get("cost")
    if not isinstance(cost, int) or len(mana) != cost:
        return False
    need = sorted(civilizations(creature))

    def match(i: int, used: frozenset[int]) -> bool:
        if i == len(need):
            return True
        return any(j not in used and need[i] in civilizations(m) and match(i + 1, used | {j})
                   for j, m in enumerate(mana))
    return match(0, frozenset())


def source_allowed(evolution: Card, source: Card, player: str) -> bool:
    """801.1/801.1a: the source of an evolution creature is a creature of the summoning player's battle zone of
    the condition its 進化 gives (「自分の[条件]のクリーチャー1体の上に置く」: civ, race, min_cost as for 革命チェンジ)."""
    if source.zone != "battlefield" or is_source(source) or source.controller != player:
        return False
    return meets_condition(evolution, source, "evolution")


def _check_summon(st: State, d: Decision) -> tuple[Card, tuple[str, ...], Card | None]:
    """CR301.1/701.3a: the turn player summons a creature of their hand in the main step, paying its cost by tapping
    untapped cards of their mana zone (112.2a, 112.2c); an evolution creature goes onto a legal source (801.1a).
    The order of the reasons: PROCEDURE.md "Refusal precedence"."""
    cid, mana_ids, onto = _summon_args(d)
    for i in (cid, *([onto] if onto is not None else []), *mana_ids):
        known(st, i)
    card = st.board.cards.get(cid)
    if card is None or card.zone != "hand" or card.owner != st.active:
        raise Refusal("not_in_hand", f"{cid} is not in {st.active}'s hand", clause=CR301_1)
    if "creature" not in card.definition.get("types", []):
        raise Refusal("not_a_creature", f"{cid} is not a creature", clause=CR301_1)
    evolution = card.has("evolution")
    if not evolution and onto is not None:
        raise Refusal("malformed_decision", f"{cid} is not an evolution creature: no onto")
    source = st.board.cards.get(onto) if onto is not None else None
    if evolution and (source is None or not source_allowed(card, source, st.active)):
        raise Refusal("illegal_evolution_source", f"{onto} is not a legal source of {cid}", clause=CR801_1)
    mana = [st.board.cards.get(m) for m in mana_ids]
    for m in mana:
        if m is None or m.zone != "mana" or m.owner != st.active or m.tapped:
            raise Refusal("mana_not_available", f"{mana_ids}: untapped cards of {st.active}'s mana zone",
                          clause=CR112_2A)
    if not pays(card, [m for m in mana if m is not None]):
        raise Refusal("cost_not_paid", f"{mana_ids} do not pay {cid}'s cost exactly", clause=CR112_2A)
    return card, tuple(mana_ids), source


def summon(st: State, script: Script, card: Card, mana: tuple[str, ...], source: Card | None) -> None:
    """The cost is paid (one moment: each mana card `tapped`, 112.2a), then the creature is put into the battle zone
    (`moved` hand -> battlefield, 301.2); an evolution creature onto its source (801.1), which lies under it and
    whose position and effects it keeps (801.2). Its 「出た時」 abilities trigger once it is there."""
    if mana:
        with st.trace.simultaneous():
            for m in mana:
                tap(st, m, CR112_2A)
    if source is None:
        enter(st, card.id, CR301_1)
    else:
        source.props["under"] = card.id
        enter(st, card.id, CR801_1)
        card.tapped = source.tapped                  # 801.2: タップされたカードが進化してもタップされたまま
        for pumps in (st.pumps, st.battle_pumps):   # 801.2: そのカードに適用されていた効果は...適用され続けます
            if source.id in pumps:
                pumps[card.id] = pumps.get(card.id, 0) + pumps.pop(source.id)
    flush(st, script, CR801_1 if source is not None else CR301_1)


def _check_attack_shape(args: dict[str, Any]) -> None:
    """A1/C1: one creature attacks one player or creature: each is named by one id (a list or a mapping is
    malformed, before any rule is checked, as for ``block`` and ``tap_ability``); a list of two or more
    creature ids as the attacker (with one target) is several attackers in one attack: A1 「１体選んで」."""
    attacker = args["attacker"]
    if (isinstance(attacker, list) and len(attacker) >= 2 and all(isinstance(a, str) for a in attacker)
            and isinstance(args["target"], str)):
        raise Refusal("several_attackers", f"{attacker}: one creature attacks at a time", clause=A1)
    for name in ("attacker", "target"):
        if not isinstance(args[name], str):
            raise Refusal("malformed_decision", f"attack's {name} is one id, not {type(args[name]).__name__}")


def _attacker(st: State, cid: Any) -> Card:
    """P1: the card that attacks (or uses a tap ability) is a creature in the active player's battle zone."""
    card = known(st, cid)
    if card is None:                                 # a player: not a creature in the battle zone
        raise Refusal("attacker_not_in_battle_zone", f"{cid} is a player", clause=P1)
    if is_source(card):
        raise Refusal("evolution_source", f"{cid} lies under {card.props['under']}")
    if card.zone != "battlefield":
        raise Refusal("attacker_not_in_battle_zone", clause=P1)
    if card.controller != st.active:
        raise Refusal("attacker_not_yours", clause=P1)
    return card


def _check_attack(st: State, attacker_id: Any, target: Any) -> tuple[Card, str, bool]:
    """P1, P2/N1, A1, P4, C1: who may attack what. Returns (attacker, target, target is a player). Both ids
    are known (a card; the target a player or a card) before any rule is checked; then the attacker's
    reasons, then the target's (the order PROCEDURE.md's "Refusal precedence" gives)."""
    known(st, attacker_id)
    known(st, target)
    card = _attacker(st, attacker_id)
    if card.has("cannot_attack"):
        raise Refusal("attacker_cannot_attack", clause=P1)
    if card.tapped:
        raise Refusal("attacker_tapped", clause=A1)
    if sick(card):
        raise Refusal("summoning_sick", clause=P2)
    if target in st.board.players:
        if target == st.active:
            raise Refusal("target_not_opponent", clause=P4)
        return card, target, True
    tcard = st.card(target)
    if tcard.zone == "shields":
        raise Refusal("attack_target_shield", clause=A1)
    if is_source(tcard):
        raise Refusal("evolution_source", f"{target} lies under {tcard.props['under']}")
    if tcard.zone != "battlefield" or tcard.controller == st.active:
        raise Refusal("target_not_opponent", clause=P4)
    if not tcard.tapped and not card.has("can_attack_untapped"):
        raise Refusal("target_untapped_creature", clause=C1)
    return card, target, False


def _check_tap_ability(st: State, cid: str) -> tuple[Card, str, bool]:
    """P3/N2: at the open point a tap ability replaces an attack, so only a creature that could attack uses it
    (ダイナモ too: its exception is the beginning of a battle, battle_start). A tapped creature could not attack:
    ``tap_ability_cannot_attack``, as for one put into the battle zone this turn or one that cannot attack."""
    card = _attacker(st, cid)
    ability = next((a for a in ("tap_trigger", "dynamo") if card.has(a)), None)
    if ability is None:
        raise Refusal("no_tap_ability", clause=P3)
    if not card.tapped and could_attack(card):
        return card, ability, False
    raise Refusal("tap_ability_cannot_attack", clause=N2)


def tap_ability(st: State, script: Script, card: Card, ability: str, exception: bool,
                player: str | None = None) -> None:
    """P3 (instead of an attack) or N2 (ダイナモ at the beginning of a battle): the tap and the use are one moment."""
    clause = N2 if exception else P3
    player = player or st.active
    with st.trace.simultaneous():
        tap(st, card.id, clause)
        st.trace.emit("used", clause, card=card.id, ability=ability, player=player)
    for effect in card.params(ability):
        apply(st, script, card, player, effect, clause)
    flush(st, script, clause)


# -- attacks ------------------------------------------------------------------------------------

def attack(st: State, script: Script, card: Card, target: str, at_player: bool, start: str | None = None) -> None:
    """One attack, from its declaration (or from a later ``start``: ``attack_triggers``, ``block``)."""
    defender = st.opponent(st.active)
    st.attacker, st.target = card.id, target
    if start is None:
        declare = N1 if card.entered_this_turn else (A1 if at_player else C1)
        with st.trace.simultaneous():
            tap(st, card.id, declare)
            st.trace.emit("attacked", declare, card=card.id, target=target)
    if start in (None, "attack_triggers"):
        attack_triggers(st, script, card, A2 if at_player else C2)
        card = st.card(st.attacker)                 # CR701.26a: a 革命チェンジ put another creature in its place
    blocker = block_step(st, script, card, defender, A3 if at_player else C3)
    if blocker is not None:
        blocked(st, script, card, blocker)
        end = C8
    elif not in_play(st, card.id):
        end = U7 if at_player else C8               # the attacker left before the block step: nothing more
    elif at_player:
        unblocked(st, script, card, defender)
        end = U7
    elif not in_play(st, target):
        end = N9                                    # ※9: the attacked creature is gone: the attack ends
    else:
        result = battle(st, script, card, st.card(target), won=C4, lost=C5)
        after_battle(st, script, result)
        end = C8
    st.trace.emit("attack_ended", end, card=card.id)
    if at_player and card.has("after_attack_destroy"):
        destroy(st, [card.id], N8)                  # ※8 ねじれる者ボーン・スライム: after the attack
    st.chosen_last = st.shield_chosen               # U3 still answers a block attempted right after this attack
    end_of_battle(st)                               # no battle happened: nothing 'そのバトルの間' is left either
    st.attacker, st.target, st.shield_chosen = None, None, False


def attack_triggers(st: State, script: Script, card: Card, clause: str) -> None:
    """A2/C2: the attack triggers trigger (one moment); under the current rules (506.3b, 603.2f) the attacking player
    then declares the 革命チェンジ of cards in the hand, each triggering as it is declared; the attacking player's
    triggers resolve (506.3c: those of the attack first, then the declared changes, X-revolution-change), then the
    defender's (506.3e)."""
    pending = triggers(st, "attacks", card)
    announce(st, pending, clause)
    changes = revolution_declarations(st, script, card) if st.ruleset in REVOLUTION_CHANGE else []
    if not changes:
        resolve_all(st, script, pending, clause)
        return
    resolve_all(st, script, [t for t in pending if t.card.controller == st.active], clause)
    for rc in changes:
        revolution_change(st, script, rc, card, clause)
    resolve_all(st, script, [t for t in pending if t.card.controller != st.active], clause)


def change_allowed(rc: Card, attacker: Card) -> bool:
    """Whether ``attacker`` is of the condition of ``rc``'s 革命チェンジ (「自分の[条件]のクリーチャー」; the attacker is
    the attacking player's own creature already): :func:`meets_condition`."""
    return meets_condition(rc, attacker, "revolution_change")


def meets_condition(card: Card, creature: Card, ability: str) -> bool:
    """Whether ``creature`` is of the condition ``card``'s ``ability`` gives (CHANGE_CONDITION): civ -- one of them
    among the creature's civilizations (props.civ); race -- a race of the creature holding the word (203.2);
    min_cost -- the creature's printed cost at least N."""
    cond = card.params(ability)[0] or {}
    civ = cond.get("civ")
    if civ is not None and not ({civ} if isinstance(civ, str) else set(civ)) & civilizations(creature):
        return False
    race = cond.get("race")
    if race is not None and not any(race in r for r in creature.definition.get("subtypes", [])):
        return False
    low = cond.get("min_cost")
    cost = creature.definition.get("cost")
    return low is None or (isinstance(cost, int) and cost >= low)


def revolution_declarations(st: State, script: Script, attacker: Card) -> list[Card]:
    """CR506.3b / 603.2f: the attacking player declares (`use`) or not (`decline`), one by one in any order, each
    革命チェンジ card of their hand whose condition the attacker meets; a declared one triggers (`triggered`). A `use`
    of a 革命チェンジ card of the hand whose condition the attacker does not meet is ``revolution_change_condition``."""
    answered: set[str] = set()
    declared: list[Card] = []

    def open_cards() -> list[str]:
        return [c.id for c in st.board.in_zone(st.active, "hand")
                if c.has("revolution_change") and c.id not in answered and change_allowed(c, attacker)]

    while (offered := open_cards()):
        def validate(d: Decision, offered: list[str] = offered) -> Card:
            cid = card_arg(d, "card")
            known(st, cid)
            if cid not in offered:
                other = st.board.cards.get(cid)
                if (d.kind == "use" and other is not None and other.zone == "hand" and other.owner == st.active
                        and other.has("revolution_change") and cid not in answered):
                    raise Refusal("revolution_change_condition",
                                  f"{attacker.id} is not of the condition of {cid}'s 革命チェンジ", clause=CR506_3B)
                raise Refusal("not_offered", f"offered: {offered}")
            return st.card(cid)

        d, card = decide(st, script, st.active, ("use", "decline"), CR506_3B, validate)
        answered.add(card.id)
        if d.kind == "use":
            st.trace.emit("triggered", CR603_2F, card=card.id, ability="revolution_change", player=st.active)
            declared.append(card)
    return declared


def revolution_change(st: State, script: Script, rc: Card, attacker: Card, clause: str) -> None:
    """A declared 革命チェンジ resolves: the attacker and this card of the hand change places in one moment (701.26a:
    the attacker, with its evolution sources, to the hand; this card into the battle zone with the attacker's
    position -- tapped -- and state: it is the attacking creature now); its 「出た時」 abilities trigger once the change
    has resolved. When either card has already left its zone, nothing is swapped (701.26b)."""
    st.trace.emit("resolved", clause, card=rc.id, ability="revolution_change", player=rc.controller)
    if not in_play(st, attacker.id) or st.attacker != attacker.id or rc.zone != "hand":
        return
    tapped = attacker.tapped
    with st.trace.simultaneous():
        leave(st, attacker.id, "hand", CR701_26A)
        sources_follow(st, attacker.id, CR701_26A, "hand")
        enter(st, rc.id, CR701_26A)
        rc.tapped = tapped
    st.attacker = rc.id
    flush(st, script, CR701_26A)


def block_step(st: State, script: Script, attacker: Card, defender: str, clause: str) -> Card | None:
    """A3: after the attack triggers, the defender decides whether a ブロッカー blocks (asked when one exists).
    A creature with 「可能であればブロックする」 (blocks_if_able) that can properly use its ブロッカー against this
    attack must be chosen (CR507.1b: all of them; the seed's one blocker: one of them, X-blocks-if-able-seed)."""
    if not in_play(st, attacker.id) or not any(c.has("blocker") for c in creatures(st, defender)):
        return None

    def validate(d: Decision) -> list[Card] | None:
        if d.kind == "no_block":
            required_blockers_in(st, defender, [])
            return None
        chosen: list[Card] = []
        ids = blocker_ids(st, d)
        for cid in ids:
            known(st, cid)
        for cid in ids:
            c = st.board.cards.get(cid)
            if c is None:                            # a player: not the defender's creature
                raise Refusal("blocker_not_defenders", f"{cid} is a player", clause=A3)
            refusal = blocker_refusal(st, c, defender)
            if refusal is not None:
                raise refusal
            chosen.append(c)
        required_blockers_in(st, defender, chosen)
        return chosen

    _, chosen = decide(st, script, defender, ("block", "no_block"), clause, validate)
    if not chosen:
        return None
    use_blockers(st, chosen, attacker, clause)
    return chosen[-1]


def blocker_refusal(st: State, c: Card, defender: str) -> Refusal | None:
    """Why ``c`` (a card) cannot be chosen to use its ブロッカー against the attack in progress, or ``None`` when it
    can properly use it (A3, X-blocker-taps; CR507.1a under the current rules: not the creature being attacked)."""
    if is_source(c):
        return Refusal("evolution_source", f"{c.id} lies under {c.props['under']}")
    if c.zone != "battlefield" or c.controller != defender:
        return Refusal("blocker_not_defenders", clause=A3)
    if not c.has("blocker"):
        return Refusal("blocker_not_blocker", clause=A3)
    if c.tapped:
        return Refusal("blocker_tapped", clause=A3)
    if st.ruleset in SEVERAL_BLOCKERS and c.id == st.target:
        return Refusal("blocker_is_attack_target", f"{c.id} is the creature being attacked", clause=CR507_1A)
    return None


def required_blockers(st: State, defender: str) -> list[Card]:
    """The defender's creatures with 「可能であればブロックする」 that can properly use their ブロッカー against this
    attack (:func:`blocker_refusal`: untapped, with ブロッカー, not the creature attacked under the current rules).
    The keyword on a creature without ブロッカー requires nothing: only a ブロッカー blocks (507.1a, 701.12a)."""
    return [c for c in creatures(st, defender) if c.has("blocks_if_able") and blocker_refusal(st, c, defender) is None]


def required_blockers_in(st: State, defender: str, chosen: list[Card]) -> None:
    """CR507.1b (current rules): every required blocker must be among the chosen; the seed's one blocker
    (X-blocks-if-able-seed): when any is required, the one chosen is one of them. Else
    ``required_blocker_left_out``."""
    required = required_blockers(st, defender)
    if not required:
        return
    ids = {c.id for c in chosen}
    names = [c.id for c in required]
    if st.ruleset in SEVERAL_BLOCKERS:
        missing = [cid for cid in names if cid not in ids]
        if missing:
            raise Refusal("required_blocker_left_out", f"{missing} must block if able: choose them too",
                          clause=CR507_1B)
    elif not ids & set(names):
        raise Refusal("required_blocker_left_out", f"one of {names} must block if able", clause=A3)


def blocker_ids(st: State, d: Decision) -> list[str]:
    """The blockers a ``block`` names: one id (or ``{blocker: id}``), or a list. Seed A3: one ブロッカー blocks
    (a list of two or more is ``several_blockers``); CR507.1a (current rules): one or more, chosen at once,
    the list's order being the order their abilities resolve (the last one blocks)."""
    if not isinstance(d.args, list):
        return [card_arg(d, "blocker")]
    ids = d.args
    if not ids or not all(isinstance(i, str) for i in ids):
        raise Refusal("malformed_decision", "block takes a card id or a list of card ids")
    if len(ids) > 1 and st.ruleset not in SEVERAL_BLOCKERS:
        raise Refusal("several_blockers", f"{ids}: one ブロッカー blocks an attack (A3)", clause=A3)
    if len(set(ids)) != len(ids):
        raise Refusal("malformed_decision", "a blocker is named twice")
    return list(ids)


def use_blockers(st: State, chosen: list[Card], attacker: Card, clause: str) -> None:
    """Each chosen ブロッカー is used in the order given: 'このクリーチャーをタップして、相手クリーチャーの攻撃先を
    このクリーチャーに変更してもよい' -- one moment each: tapped and the attack redirected to it; the last one
    resolved is designated the blocking creature (`blocked`; official ruling of 2021-09-07)."""
    for i, blocker in enumerate(chosen):
        last = i == len(chosen) - 1
        tag = clause if len(chosen) == 1 else RD_2021_09_07 if last else CR507_1A
        with st.trace.simultaneous():
            tap(st, blocker.id, tag)
            st.trace.emit("blocked" if last else "redirected", tag, card=blocker.id, attacker=attacker.id)


def blocked(st: State, script: Script, attacker: Card, blocker: Card) -> None:
    """B1 (※3) then B2 (※4), both triggered at the block; then the battle (B3/B4) and after-battle effects."""
    fire(st, script, triggers(st, "attack_blocked", attacker) + triggers(st, "blocks", blocker), B1,
         clause_of=lambda t: (N3, B1) if t.triggered.when.event == "attack_blocked" else (N4, B2))
    result = battle(st, script, attacker, blocker, won=B3, lost=B3)
    after_battle(st, script, result)


def battle_start(st: State, script: Script, a: Card, b: Card) -> None:
    """N2 (X-dynamo): 'バトルのはじめ' is ダイナモ's 'バトルが始まる時': before the powers are compared each player,
    the active player first, may tap any untapped ダイナモ creature of theirs (`tap_ability` or `decline` per
    card, in any order), even one that cannot attack."""
    for player in (st.active, st.opponent(st.active)):
        answered: set[str] = set()
        while in_play(st, a.id) and in_play(st, b.id):
            offered = [c.id for c in creatures(st, player)
                       if c.has("dynamo") and not c.tapped and c.id not in answered]
            if not offered:
                break

            def validate(d: Decision, offered: list[str] = offered) -> Card:
                return st.card(card_among(st, d, offered, "not_offered", f"offered: {offered}"))

            d, card = decide(st, script, player, ("tap_ability", "decline"), N2, validate)
            answered.add(card.id)
            if d.kind == "tap_ability":
                tap_ability(st, script, card, "dynamo", True, player)


def battle(st: State, script: Script, a: Card, b: Card, *, won: str, lost: str):
    """B3/C4/C5: the higher power stays, the lower is destroyed; a tie destroys both (B4, ※5: nobody wins).
    At its beginning, ダイナモ (N2, battle_start)."""
    if not (in_play(st, a.id) and in_play(st, b.id)):
        return None
    battle_start(st, script, a, b)
    if not (in_play(st, a.id) and in_play(st, b.id)):
        return None
    pa, pb = power(st, a), power(st, b)
    if pa == pb:
        with st.trace.simultaneous():
            st.trace.emit("lost_battle", N5, card=a.id, power=pa, against=b.id)
            st.trace.emit("lost_battle", N5, card=b.id, power=pb, against=a.id)
        destroy(st, [a.id, b.id], B4)
        end_of_battle(st)
        return (None, a, b)
    w, lo = (a, b) if pa > pb else (b, a)
    with st.trace.simultaneous():
        st.trace.emit("won_battle", won, card=w.id, power=power(st, w), against=lo.id)
        st.trace.emit("lost_battle", won, card=lo.id, power=power(st, lo), against=w.id)
    destroy(st, [lo.id], lost)
    end_of_battle(st)
    return (w, a, b)


def end_of_battle(st: State) -> None:
    """The battle is over: 'そのバトルの間' power changes end (before the after-battle effects, C6)."""
    st.battle_pumps.clear()


def after_battle(st: State, script: Script, result) -> None:
    """C6/C7: after-battle effects (スレイヤー, バトルに勝った時 ...), the active player's first.

    スレイヤー 「このクリーチャーがバトルする時、バトルの後、相手クリーチャーを破壊する」 triggers because its
    creature battled, whatever the outcome; when the creature it battled is already gone (the スレイヤー won or
    tied) it resolves with no effect."""
    if result is None:
        return
    winner, a, b = result
    pending: list[Trigger] = []
    for me, other in ((a, b), (b, a)):
        if me is winner:
            pending += triggers(st, "wins_battle", me, others=False)
        if me.has("slayer"):
            pending.append(slayer(me, other))
    if winner is not None:       # 「クリーチャーがバトルに勝った時」 of any creature in the battle zone
        pending += triggers(st, "wins_battle", winner, own=False)
    fire(st, script, pending, C6, clause_of=lambda t: (C6, C7))


def unblocked(st: State, script: Script, attacker: Card, defender: str) -> None:
    """U1 (※6), then the breaks. Seed: choose one shield -> break -> Ｓ・トリガー, once per shield (U2-U9).
    Current rules: every shield of the break chosen first, then CR113.6/113.6a (break_at_once)."""
    if st.ruleset in IMMEDIATE_DIRECT_ATTACK and not st.board.zone(defender, "shields"):
        st.trace.emit("won", CR104_2A, player=st.active)   # CR104.2a: 即座に, before the U1 effects
        raise GameOver(st.active)
    fire(st, script, triggers(st, "unblocked", attacker), U1, clause_of=lambda t: (N6, U1))
    shields = st.board.zone(defender, "shields")
    if not shields:
        st.trace.emit("won", U2, player=st.active)   # X-direct-attack: no shield to break: the attack wins
        raise GameOver(st.active)
    count = breaks(attacker)                         # fixed now (U9: even if the attacker leaves)
    if st.ruleset in SIMULTANEOUS_BREAK:
        break_at_once(st, script, defender, count)
        return
    for i in range(count):
        if not st.board.zone(defender, "shields"):
            break                                    # X-breaks-run-out
        gone = not in_play(st, attacker.id)
        chose, broke = (U2, U4) if i == 0 else ((U9, U9) if gone else (U8, U8))
        shield = choose_shield(st, script, defender, chose)
        st.shield_chosen = True
        with st.trace.simultaneous():
            st.trace.emit("broken", broke, card=shield, player=defender)
            st.board.move(shield, "hand", broke)
        shield_window(st, script, shield, defender)


def break_at_once(st: State, script: Script, defender: str, count: int) -> None:
    """Current rules: choose every shield of the break (U2; X-simultaneous-break), put them in the waiting
    state at one moment (CR113.6a), take the Ｓ・トリガー/Ｓ・バック declarations (CR113.6), move the
    remaining shields to the hand at one moment (CR113.6), then use the declared cards in declaration
    order (U5/N7, effects U6/N7; X-declared-order)."""
    chosen: list[str] = []
    for _ in range(min(count, len(st.board.zone(defender, "shields")))):   # X-breaks-run-out
        chosen.append(choose_shield(st, script, defender, U2, exclude=chosen))
        st.shield_chosen = True
    with st.trace.simultaneous():
        for shield in chosen:
            st.trace.emit("waiting", CR113_6A, card=shield, player=defender)
    declared = declarations(st, script, defender, chosen)
    with st.trace.simultaneous():
        for shield in chosen:
            if st.card(shield).zone == "shields":
                st.trace.emit("broken", U4, card=shield, player=defender)
                st.board.move(shield, "hand", CR113_6)
    for card, ability in declared:
        if card.zone != "hand":
            continue
        use, effect = (U5, U6) if ability == "s_trigger" else (N7, N7)
        st.trace.emit("used", use, card=card.id, ability=ability, player=defender)
        resolve_card(st, script, card, defender, effect)


def declarations(st: State, script: Script, defender: str, waiting: list[str]) -> list[tuple[Card, str]]:
    """CR113.6: the defender declares (`use`) or declines each Ｓ・トリガー among the waiting shields and each
    Ｓ・バック in the hand that has a waiting shield of its civilization to discard, in any order, until none
    is left open. A declared Ｓ・バック discards its waiting shield at once (X-s-back-current)."""
    answered: set[str] = set()
    triggers: set[str] = set()

    def still_waiting() -> list[str]:
        return [s for s in waiting if st.card(s).zone == "shields"]

    def discards_for(back: Card) -> list[str]:
        civ = back.params("s_back")[0]
        return [s for s in still_waiting()
                if s not in triggers and (civ is None or st.card(s).props.get("civ") == civ)]

    def open_cards() -> list[str]:
        trig = [s for s in still_waiting() if st.card(s).has("s_trigger") and s not in answered]
        backs = [c.id for c in st.board.in_zone(defender, "hand")
                 if c.has("s_back") and c.id not in answered and discards_for(c)]
        return trig + backs

    order: list[tuple[Card, str]] = []
    while (offered := open_cards()):
        def validate(d: Decision, offered: list[str] = offered) -> tuple[Card, str | None]:
            cid = _offered_card(st, d)
            if isinstance(d.args, dict) and "discard" in d.args:
                if not isinstance(d.args["discard"], str):
                    raise Refusal("malformed_decision", "an Ｓ・バック's discard is one card id")
                known(st, d.args["discard"])
            if cid not in offered:
                other = st.board.cards.get(cid)
                if other is not None and other.zone == "hand" and other.has("s_trigger"):
                    raise Refusal("s_trigger_not_broken", clause=N7)
                raise Refusal("not_offered", f"offered: {offered}")
            card = st.card(cid)
            if d.kind == "decline" or card.zone != "hand":
                return card, None
            legal = discards_for(card)
            discard = d.args.get("discard", legal[0]) if isinstance(d.args, dict) else legal[0]
            if discard not in legal:
                raise Refusal("illegal_target", f"discard one of {legal}")
            return card, discard

        d, (card, discard) = decide(st, script, defender, ("use", "decline"), CR113_6, validate)
        answered.add(card.id)
        if d.kind == "decline":
            continue
        ability = "s_back" if discard else "s_trigger"
        with st.trace.simultaneous():
            st.trace.emit("declared", CR113_6, card=card.id, ability=ability, player=defender)
            if discard:
                st.board.move(discard, "graveyard", CR113_6)
            else:
                triggers.add(card.id)
        order.append((card, ability))
    return order


def choose_shield(st: State, script: Script, defender: str, clause: str, exclude: list[str] = ()) -> str:
    def validate(d: Decision) -> str:
        cid = card_arg(d)
        known(st, cid)
        if cid not in st.board.zone(defender, "shields"):
            raise Refusal("shield_not_attacked_players", clause=U2)
        if cid in exclude:
            raise Refusal("shield_already_chosen", clause=U2)
        return cid

    _, cid = decide(st, script, st.active, ("choose_shield",), clause, validate)
    st.trace.emit("shield_chosen", clause, card=cid, player=st.active)
    return cid


def _offered_card(st: State, d: Decision) -> str:
    """The card a `use` or `decline` of an offered card names (N7, U5): a bare id or `{card}` (`use` also
    `{card, discard}`), well formed (:func:`known`)."""
    cid = card_arg(d, "card", ("discard",) if d.kind == "use" else ())
    known(st, cid)
    return cid


def _offer(st: State, script: Script, player: str, card: Card, clause: str, broken: str) -> bool:
    def validate(d: Decision) -> bool:
        cid = _offered_card(st, d)
        if cid != card.id:
            other = st.board.cards.get(cid)
            if other is not None and other.zone == "hand" and other.has("s_trigger") and cid != broken:
                raise Refusal("s_trigger_not_broken", clause=N7)
            raise Refusal("not_offered", f"offered: {card.id}")
        return d.kind == "use"

    _, use = decide(st, script, player, ("use", "decline"), clause, validate)
    return use


def shield_window(st: State, script: Script, shield: str, defender: str) -> None:
    """U5/U6 (※7): the broken card's Ｓ・トリガー, used free and resolved here; Ｓ・バック at the same point."""
    card = st.card(shield)
    if card.has("s_trigger") and card.zone == "hand":
        if _offer(st, script, defender, card, U5, shield):
            st.trace.emit("used", U5, card=card.id, ability="s_trigger", player=defender)
            resolve_card(st, script, card, defender, U6)
    for back in list(st.board.in_zone(defender, "hand")):
        if card.zone != "hand" or back.id == card.id or not back.has("s_back"):
            continue
        civ = back.params("s_back")[0]
        if civ is not None and card.props.get("civ") != civ:
            continue
        if _offer(st, script, defender, back, N7, shield):
            with st.trace.simultaneous():
                st.trace.emit("used", N7, card=back.id, ability="s_back", player=defender)
                st.board.move(card.id, "graveyard", N7)
            resolve_card(st, script, back, defender, N7)


def resolve_card(st: State, script: Script, card: Card, player: str, clause: str) -> None:
    """A spell resolves its `spell` effect and goes to the graveyard; a creature enters the battle zone."""
    if "spell" in card.definition.get("types", []):
        for effect in card.params("spell"):
            apply(st, script, card, player, effect, clause)
        st.board.move(card.id, "graveyard", clause)
    else:
        enter(st, card.id, clause)
    flush(st, script, clause)


# -- end of turn --------------------------------------------------------------------------------

def end_turn(st: State, script: Script) -> None:
    """E1: '自分のターンが終わる時' effects of the active player's creatures, then the turn ends."""
    fire(st, script, triggers(st, "turn_ends", None, player=st.active), E1)
    st.trace.emit("turn_ended", E1, player=st.active)
