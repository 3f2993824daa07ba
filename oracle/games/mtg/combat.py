"""The combat phase subset battles need: 507 beginning of combat, 508 declare attackers, 509 declare blockers,
510 combat damage, 511 end of combat; with 310.8b-d and the rule that battles neither attack nor block.

Players receive priority in every step, empty stack included (117.3a, 507.2, 508.2, 509.2, 510.3, 511.1); a
script may leave their passes out (priority.ask_priority).
"""

from __future__ import annotations

from typing import Any

from ...core.script import Refusal, Script
from .damage import deal
from .editions import FREE_DAMAGE_DIVISION
from .requirements import most_obeyable, obeyed
from .priority import priority_step
from .triggers import fire
from .state import Combat, State
from .clauses import (
    CR510_4, CR702_4B, CR702_7B, CR702_19B, CR702_19D,
    CR310_8B, CR310_8C, CR310_8D, CR506_2, CR506_2A, CR506_4C, CR508_1, CR508_1A, CR508_1B, CR508_1F, CR508_1K, CR509_1A, CR509_1C, CR509_1G, CR509_1H, CR510_1A, CR510_1B, CR510_1C, CR511_3, SUMMARY_ATTACK_BATTLE,
    SUMMARY_NO_COMBAT, SUMMARY_TWO_HEADED_GIANT,
)

# -- declare attackers -----------------------------------------------------------------------


def _attack_target_clause(st: State, target: str) -> str:
    """The clause that makes a creature an attacker of ``target``: for a battle 310.8b ("それを守る者を防御
    プレイヤーとする攻撃プレイヤー1人は、バトルを攻撃できる。特に、包囲戦・バトルのコントローラーは、それを攻撃
    できる" — whoever controls it), else 508.1k ("Each chosen creature ... becomes an attacking creature")
    attacking a player or planeswalker."""
    if target in st.board.cards and st.is_battle(st.card(target)):
        return st.c(CR310_8B)
    return st.c(CR508_1K)


def _check_target(st: State, attacker: str, target: Any) -> None:
    a = st.active
    if target in st.board.players:
        if target in st.lost or target not in st.opponents(a):
            raise Refusal("illegal_attack_target", f"{attacker} can't attack {target}", clause=st.c(CR508_1B))
        return
    if not (isinstance(target, str) and target in st.board.cards and st.card(target).zone == "battlefield"):
        raise Refusal("unknown_object", f"no permanent {target!r} to attack")
    t = st.card(target)
    if st.is_battle(t):
        prot = t.props.get("protector")
        if prot == a:
            raise Refusal("protector_cant_attack", f"{a} protects {target}", clause=st.c(CR310_8B))
        if prot is not None and st.teammates(a, prot):
            raise Refusal("teammate_protects_battle", f"{prot}, {a}'s teammate, protects {target}",
                          clause=st.c(SUMMARY_TWO_HEADED_GIANT))
        if prot is None or prot not in st.opponents(a):
            raise Refusal("illegal_attack_target", f"{target}'s protector is not a defending player",
                          clause=st.c(CR310_8B))
        return
    if st.is_planeswalker(t) and t.controller in st.opponents(a):
        return
    raise Refusal("illegal_attack_target", f"{target} is not a player, planeswalker or battle", clause=st.c(CR508_1B))


def _attackers_valid(st: State):
    def valid(d) -> dict[str, str]:
        if not isinstance(d.args, dict):
            raise Refusal("malformed_decision", "declare_attackers takes {attacker: target}")
        for cid, target in d.args.items():
            if cid not in st.board.cards:
                raise Refusal("unknown_object", f"no card {cid!r}")
            c = st.card(cid)
            if c.zone != "battlefield" or c.controller != st.active:
                raise Refusal("attacker_not_yours", f"{cid} is not {st.active}'s", clause=st.c(CR508_1A))
            if st.is_battle(c):
                raise Refusal("battle_cant_attack", f"{cid} is a battle", clause=st.c(SUMMARY_NO_COMBAT))
            if not st.is_creature(c):
                raise Refusal("not_a_creature", f"{cid} is not a creature", clause=st.c(CR508_1A))
            if c.tapped:
                raise Refusal("attacker_tapped", f"{cid} is tapped", clause=st.c(CR508_1A))
            if c.entered_this_turn and not st.has(c, "haste"):
                raise Refusal("attacker_summoning_sick", f"{cid} came under {st.active}'s control this turn",
                              clause=st.c(CR508_1A))
            _check_target(st, cid, target)
        return dict(d.args)
    return valid


def declare_attackers(st: State, script: Script) -> bool:
    """508.1; returns False when nothing attacks (508.8: skip blockers and damage)."""
    st.step = "declare_attackers"
    _, attacks = script.decide(st.active, ("declare_attackers",), st.c(CR508_1), _attackers_valid(st))
    if not attacks:
        priority_step(st, script)  # 508.2
        return False  # 508.8: the declare blockers and combat damage steps are skipped
    st.combat = cb = Combat()
    with st.trace.simultaneous():
        for cid, target in attacks.items():
            c = st.card(cid)
            if not st.has(c, "vigilance"):
                c.tapped = True
                st.trace.emit("tapped", st.c(CR508_1F), card=cid)
            cb.attackers[cid] = target
            st.trace.emit("became_attacker", _attack_target_clause(st, target), card=cid, target=target)
    with st.trace.simultaneous():
        for p in defending_players(st, attacks):
            via = next((t for t in attacks.values() if t in st.board.cards and st.is_battle(st.card(t))
                        and st.card(t).props.get("protector") == p
                        and st.card(t).controller != p), None)
            cb.defending.append(p)
            st.trace.emit("defending_player", _defending_clause(st, via), player=p, via=via)
    for cid, target in attacks.items():  # 508.1m: attack triggers (603.2: one event per attacking creature)
        fire(st, "became_attacker", cid, target=target, attackers=len(attacks))
    priority_step(st, script)  # 508.2
    return True


def _defending_clause(st: State, via: str | None) -> str:
    """Who the defending player is: 310.8d when a battle's protector, not its controller, defends it ("その攻撃
    されているバトルに関して「防御プレイヤー」を参照するすべてのルールや効果は、それのコントローラーではなく守る者を
    参照する"); else 506.2 in a two-player game ("the nonactive player is the defending player") and 506.2a in a
    multiplayer game ("there may be one or more defending players, depending on the variant being played and the
    options chosen for it"; the readings: mtg:A-multiplayer-defending, mtg:A-two-headed-giant)."""
    if via is not None:
        return st.c(CR310_8D)
    return st.c(CR506_2 if len(st.board.players) == 2 else CR506_2A)


def defending_players(st: State, attacks: dict[str, str]) -> list[str]:
    """506.2/506.2a/310.8d: the attacked players, controllers of attacked planeswalkers, protectors of attacked
    battles; in Two-Headed Giant, their whole team (assumption mtg:A-two-headed-giant)."""
    out = {st.defending_for(t) for t in attacks.values()} - {None}
    if st.two_headed:
        out |= {p for p in st.alive() for q in list(out) if st.teammates(p, q)}
    return [p for p in st.from_active() if p in out]


# -- declare blockers ------------------------------------------------------------------------


def _may_block(st: State, player: str, attacker: str) -> None:
    cb = st.combat
    target = cb.attackers.get(attacker)
    if attacker not in cb.attackers:
        raise Refusal("not_an_attacker", f"{attacker} is not attacking", clause=st.c(CR509_1A))
    if target in st.board.cards and st.is_battle(st.card(target)):
        prot = st.card(target).props.get("protector")
        if not (player == prot or (st.two_headed and prot is not None and st.teammates(player, prot))):
            raise Refusal("not_protector", f"{player} does not protect {target}", clause=st.c(CR310_8C))
        return
    if target is None:  # 506.4c: its planeswalker or battle left combat; attacking nothing, "It may be blocked."
        return  # by the defending player declaring (only defending players declare; mtg:A-attacking-nothing-blockers)
    who = st.defending_for(target)
    if not (player == who or (st.two_headed and who is not None and st.teammates(player, who))):
        raise Refusal("not_defending", f"{attacker} is not attacking {player}", clause=st.c(CR509_1A))


def _blockers_valid(st: State, player: str, so_far: dict[str, str]):
    def valid(d) -> dict[str, str]:
        if not isinstance(d.args, dict):
            raise Refusal("malformed_decision", "declare_blockers takes {blocker: attacker}")
        for bid, aid in d.args.items():
            if bid not in st.board.cards or aid not in st.board.cards:
                raise Refusal("unknown_object", f"no card {bid!r} or {aid!r}")
            b = st.card(bid)
            if b.zone != "battlefield" or b.controller != player:
                raise Refusal("blocker_not_yours", f"{bid} is not {player}'s", clause=st.c(CR509_1A))
            if st.is_battle(b):
                raise Refusal("battle_cant_block", f"{bid} is a battle", clause=st.c(SUMMARY_NO_COMBAT))
            if not st.is_creature(b):
                raise Refusal("not_a_creature", f"{bid} is not a creature", clause=st.c(CR509_1A))
            if b.tapped:
                raise Refusal("blocker_tapped", f"{bid} is tapped", clause=st.c(CR509_1A))
            _may_block(st, player, aid)
            a = st.card(aid)
            if st.has(a, "flying") and not (st.has(b, "flying") or st.has(b, "reach")):
                raise Refusal("flying", f"{aid} has flying", clause=st.c(CR509_1A))
        counts: dict[str, int] = {}
        for aid in list(so_far.values()) + list(d.args.values()):
            counts[aid] = counts.get(aid, 0) + 1
        for aid, n in counts.items():
            if n == 1 and st.has(st.card(aid), "menace"):
                raise Refusal("menace", f"{aid} has menace", clause=st.c(CR509_1A))
        _check_requirements(st, player, so_far, d.args)
        return dict(d.args)
    return valid


def _pair_allowed(st: State, player: str, bid: str, aid: str) -> bool:
    """The per-pair restrictions of ``_blockers_valid`` (509.1a, 310.8c, flying/reach), without refusing."""
    b, a = st.card(bid), st.card(aid)
    if st.has(a, "flying") and not (st.has(b, "flying") or st.has(b, "reach")):
        return False
    try:
        _may_block(st, player, aid)
    except Refusal:
        return False
    return True


def _able(st: State, player: str) -> list[str]:
    """The creatures ``player`` could declare as blockers at all (509.1a: untapped, not battles)."""
    return [c.id for c in st.battlefield() if c.controller == player and st.is_creature(c)
            and not st.is_battle(c) and not c.tapped]


def _requirements_apply(st: State, player: str) -> bool:
    """Some block requirement bears on ``player``'s declaration: an attacker that must be blocked or lures,
    or a creature of theirs that blocks each combat if able."""
    def mine(aid: str) -> bool:
        try:
            _may_block(st, player, aid)
        except Refusal:
            return False
        return True

    return (any(st.has(st.card(a), r) and mine(a) for a in st.combat.attackers for r in ("must_be_blocked", "lure"))
            or any(st.has(st.card(c), "blocks_each_combat") for c in _able(st, player)))


def _check_requirements(st: State, player: str, so_far: dict[str, str], blocks: dict[str, str]) -> None:
    """509.1c: the declaration (already free of broken restrictions) must obey as many block requirements
    as any declaration of ``player``'s creatures that breaks no restriction."""
    def has(cid: str, ability: str) -> bool:
        return st.has(st.card(cid), ability)

    if not _requirements_apply(st, player):
        return
    creatures = _able(st, player)
    attackers = list(st.combat.attackers)
    already: dict[str, int] = {}
    for aid in so_far.values():
        already[aid] = already.get(aid, 0) + 1
    options = [[a for a in attackers if _pair_allowed(st, player, c, a)] for c in creatures]
    best = most_obeyable(options, creatures, attackers, has, already)
    got = obeyed(blocks, has, already)
    if got < best:
        raise Refusal("block_requirements_not_maximized",
                      f"the blocks obey {got} block requirement(s); {best} can be obeyed without breaking a restriction",
                      clause=st.c(CR509_1C))


def declare_blockers(st: State, script: Script) -> None:
    st.step = "declare_blockers"
    cb = st.combat
    blocks: dict[str, str] = {}
    for p in list(cb.defending):
        if p in st.lost:
            continue
        # 509.1a: one declaration, for attackers of the player, their planeswalkers and the battles they protect
        # 509.1c tags the decision when a block requirement bears on it (the declaration is then judged by it too)
        clause = st.c(CR509_1C if _requirements_apply(st, p) else CR509_1A)
        _, mine = script.decide(p, ("declare_blockers",), clause, _blockers_valid(st, p, blocks))
        blocks.update(mine)
    if blocks:
        with st.trace.simultaneous():
            for bid, aid in blocks.items():
                cb.blockers[bid] = aid
                target = cb.attackers.get(aid)
                st.trace.emit("became_blocker", _blocker_clause(st, bid, target), card=bid, attacker=aid)
            for aid in dict.fromkeys(blocks.values()):
                cb.blocked.add(aid)
                st.trace.emit("blocked", st.c(CR509_1H), card=aid)
    priority_step(st, script)  # 509.2


def _blocker_clause(st: State, blocker: str, target: str | None) -> str:
    """506.4c for a blocker of an attacker attacking nothing; 310.8c for the protector's blocker of a battle's
    attacker; in Two-Headed Giant a teammate's blocker for it is the seed's note
    ("あなたのチームメイトが守っているバトルが攻撃されたなら、あなたのクリーチャーでもブロックに参加してよい"); any other
    block is 509.1g."""
    if target is None:  # an attacker attacking nothing "may be blocked" (506.4c)
        return st.c(CR506_4C)
    if target in st.board.cards and st.is_battle(st.card(target)):
        prot = st.card(target).props.get("protector")
        return st.c(CR310_8C if st.card(blocker).controller == prot else SUMMARY_TWO_HEADED_GIANT)
    return st.c(CR509_1G)


# -- combat damage ---------------------------------------------------------------------------


def _lethal(st: State, bid: str) -> int:
    """702.19b: lethal damage, taking into account damage already marked on the creature (a blocker blocks one
    attacker here, so no other creature assigns it damage in the same step)."""
    b = st.card(bid)
    return max(st.pt(b)[1] - b.props.get("damage", 0), 0)


def deals_damage_now(st: State, cid: str) -> bool:
    """510.4/702.7b/702.4b: in a combat with a first-strike combat damage step, only creatures with first strike
    or double strike assign damage in the first step; in the second, the remaining attackers and blockers that had
    neither as the first step began, and those that currently have double strike."""
    cb = st.combat
    if cb.damage_step == "first":
        return cid in cb.struck_first
    if cb.damage_step == "second":
        return cid not in cb.struck_first or st.has(st.card(cid), "double_strike")
    return True


def _recipient(st: State, aid: str) -> str | None:
    """What attacker ``aid`` may assign damage to beyond its blockers: what it attacks, unless that is a player who
    has left the game (800.4e: "If combat damage would be assigned to a player who has left the game, that damage
    isn't assigned")."""
    target = st.combat.attackers.get(aid)
    return None if target in st.lost else target


def blockers_of(st: State) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for bid, aid in st.combat.blockers.items():
        out.setdefault(aid, []).append(bid)
    return out


def assignment_choices(st: State) -> dict[str, list[str]]:
    """The attackers whose damage assignment is a decision in this combat damage step, with whom each may assign
    damage to: a blocked creature with two or more blockers (510.1c) among them, and a blocked creature with
    trample whose power exceeds the lethal damage of its blockers (702.19b), among them and what it attacks."""
    cb = st.combat
    out: dict[str, list[str]] = {}
    for aid, bs in blockers_of(st).items():
        if aid not in cb.attackers or aid not in cb.blocked or not deals_damage_now(st, aid):
            continue
        power = st.pt(st.card(aid))[0]
        if power <= 0:
            continue  # 510.1a
        target = _recipient(st, aid)
        trample = st.has(st.card(aid), "trample") and target is not None
        if len(bs) > 1 or (trample and power > sum(_lethal(st, b) for b in bs)):
            out[aid] = bs + ([target] if trample else [])
    return out


def ordered_split(split: Any) -> Any:
    """One attacker's division of damage in either form, as the mapping the rules read (510.1c: the order is the
    damage assignment order): ``{b1: 2, b2: 1}`` (the order is the mapping's key order -- kept by YAML and by most
    JSON readers, but not promised by JSON), or the explicit list ``[{to: b1, damage: 2}, {to: b2, damage: 1}]``,
    whose order is the list's. Anything else is returned as it is (the caller refuses it)."""
    if not isinstance(split, list):
        return split
    out: dict[str, Any] = {}
    for item in split:
        if not isinstance(item, dict) or set(item) != {"to", "damage"} or not isinstance(item["to"], str) \
                or item["to"] in out:
            raise Refusal("malformed_decision", "a division of damage as a list holds {to: id, damage: n} items, "
                                                "each recipient once")
        out[item["to"]] = item["damage"]
    return out


def _assignment_valid(st: State, choices: dict[str, list[str]]):
    def valid(d) -> dict[str, dict[str, int]]:
        if not isinstance(d.args, dict) or set(d.args) != set(choices):
            raise Refusal("malformed_decision", f"assign damage for exactly {sorted(choices)}")
        args = {aid: ordered_split(split) for aid, split in d.args.items()}
        for aid, split in args.items():
            if not isinstance(split, dict) or set(split) - set(choices[aid]):
                raise Refusal("illegal_damage_assignment", f"{aid} assigns only to its blockers"
                              + (" and what it attacks" if st.has(st.card(aid), "trample") else ""),
                              clause=st.c(CR510_1C))
            power, _ = st.pt(st.card(aid))
            amounts = list(split.values())
            if any(not isinstance(n, int) or n < 0 for n in amounts) or sum(amounts) != max(power, 0):
                raise Refusal("illegal_damage_assignment", f"{aid} assigns exactly {power}", clause=st.c(CR510_1C))
            target = _recipient(st, aid)
            order = [x for x in split if x != target]  # the blockers, in the order written
            if st.ruleset not in FREE_DAMAGE_DIVISION:
                # 20231117.0: the damage assignment order; lethal to each before the next
                for i, bid in enumerate(order[:-1]):
                    if split[bid] < _lethal(st, bid) and any(split[x] > 0 for x in order[i + 1:]):
                        raise Refusal("illegal_damage_assignment", f"{bid} must be assigned lethal damage first",
                                      clause=st.c(CR510_1C))
            if split.get(target, 0) > 0:
                short = [b for b in choices[aid] if b != target and split.get(b, 0) < _lethal(st, b)]
                if short:
                    raise Refusal("trample_before_lethal", f"{aid} assigns damage to {target} before lethal damage "
                                  f"to {', '.join(short)}", clause=CR702_19B)
        return args
    return valid


def combat_damage(st: State, script: Script) -> None:
    """510: one combat damage step, or two when an attacking or blocking creature has first strike or double
    strike as it begins (510.4/702.7b/702.4b); each ends with priority (510.3)."""
    st.step = "combat_damage"
    cb = st.combat
    cb.struck_first = {c for c in [*cb.attackers, *cb.blockers]
                       if st.has(st.card(c), "first_strike") or st.has(st.card(c), "double_strike")}
    if not cb.struck_first:
        cb.damage_step = "only"
        _damage_step(st, script)
        return
    cb.damage_step = "first"
    _damage_step(st, script)
    cb.damage_step = "second"
    _damage_step(st, script)


def _damage_step(st: State, script: Script) -> None:
    """510.1: the damage assignment (a decision where it is a choice), then 510.2: all of it dealt at once."""
    cb = st.combat
    choices = assignment_choices(st)
    split: dict[str, dict[str, int]] = {}
    if choices:
        clause = CR702_19B if all(len([x for x in r if x in cb.blockers]) == 1 for r in choices.values()) else CR510_1C
        _, split = script.decide(st.active, ("assign_combat_damage",), st.c(clause), _assignment_valid(st, choices))
    blocked_by = blockers_of(st)
    assignments: list[tuple[str, str, int, str | None]] = []  # source, recipient, amount, trample clause
    for aid in cb.attackers:
        target = _recipient(st, aid)
        if not deals_damage_now(st, aid):
            continue
        power = st.pt(st.card(aid))[0]
        if power <= 0:
            continue  # 510.1a
        if aid in cb.blocked:
            bs = blocked_by.get(aid, [])
            if aid in split:
                assignments += [(aid, x, n, CR702_19B if x == target else None) for x, n in split[aid].items()]
            elif bs:
                assignments.append((aid, bs[0], power, None))
            elif st.has(st.card(aid), "trample") and target is not None:
                assignments.append((aid, target, power, CR702_19D))  # 702.19d: no creatures blocking it
        elif target is not None:
            assignments.append((aid, target, power, None))  # 510.1b
    for bid, aid in cb.blockers.items():
        if not deals_damage_now(st, bid):
            continue
        power = st.pt(st.card(bid))[0]
        if power > 0 and aid in cb.attackers:
            assignments.append((bid, aid, power, None))
    if assignments:
        with st.trace.simultaneous():  # 510.2: all combat damage is dealt at once
            for src, tgt, n, trample in assignments:
                battle = tgt in st.board.cards and st.is_battle(st.card(tgt))
                clause = st.c(trample) if trample else _damage_clause(st, src, tgt, battle)
                deal(st, src, tgt, n, combat=True, clause=clause)
    priority_step(st, script)  # 510.3


def _damage_clause(st: State, src: str, tgt: str, battle: bool) -> str:
    cb = st.combat
    if cb.damage_step in ("first", "second"):  # 510.4: the rule that lets this creature deal damage in this step
        if st.has(st.card(src), "double_strike"):
            return st.c(CR702_4B)
        return st.c(CR702_7B if cb.damage_step == "first" else CR510_4)
    if src in cb.blockers:
        return st.c(CR510_1A)
    if src in cb.blocked:
        return st.c(CR510_1C)
    return st.c(SUMMARY_ATTACK_BATTLE if battle else CR510_1B)


def end_of_combat(st: State, script: Script) -> None:
    """511.1: the active player gets priority; 511.3: as the step ends creatures stop attacking and blocking;
    then (at the next priority point) 310.10 may apply to battles no longer attacked."""
    st.step = "end_combat"
    priority_step(st, script)
    st.trace.emit("combat_ended", st.c(CR511_3), player=st.active)
    st.combat = None


def combat_phase(st: State, script: Script) -> None:
    st.step = "beginning_of_combat"
    priority_step(st, script)  # 507.2
    if declare_attackers(st, script):
        if st.combat.attackers:
            declare_blockers(st, script)
            combat_damage(st, script)
    else:
        st.combat = Combat()  # 506.1/508.8: no attackers; only the declare blockers and combat damage steps are skipped
    end_of_combat(st, script)
