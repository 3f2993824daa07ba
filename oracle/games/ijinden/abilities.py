"""Ijinden triggered abilities: which event triggers what, and what each does when it resolves."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol

from ...core.script import Decision, Refusal, Script
from ...core.trace import Trace
from .state import State
from .vocabulary import ANY_CARD

OPTIONAL = {"three_attackers_destroy", "undestroy", "netherworld_unattack", "netherworld_destroy",
            "block_unattack", "block_destroy", "legacy_draw"}
"""Abilities worded 「発動できる」: their controller may decline them. 遺業 (``legacy_draw``) is one: every 遺業 is
printed 「遺業能力:（戦場から墓地に置かれたときに発動できる）…」, and the official Q&A (フェルディナンド・マゼラン,
イジンデンQ&A_240216) says 「発動しないことを選べる能力は、条件に「発動できる」と書かれています。」 -- the catalog's
``ijinden:assume.mandatory-trigger``, settled. D5 (「遺業能力）が発動する」) says when it triggers, not that it must be
used."""


@dataclass(frozen=True, slots=True)
class Trigger:
    """A triggered ability that has triggered and waits to resolve."""

    card: str
    ability: str
    params: Any
    player: str
    subject: str | None = None
    """The card the event was about (the lone attacker)."""


class Steps(Protocol):
    """The procedure as an effect reaches it (``procedure.Procedure``): the state, trace and script, and the
    steps an effect performs -- D2-D5 destroy, D4 to the graveyard, ceasing roles, resolving what triggers."""

    state: State
    trace: Trace
    script: Script

    def destroy(self, cards: list[str], destroyed_clause: str, trigger_clause: str, grave_clause: str,
                grave_trigger_clause: str) -> None: ...

    def put_into_graveyard(self, cards: list[str], clause: str, trigger_clause: str,
                           resolve: bool = True) -> list[Trigger]: ...

    def cease_attacker(self, attacker: str, clause: str) -> None: ...

    def sync_roles(self, clause: str) -> None: ...

    def lapse_blocks(self) -> None: ...

    def resolve_all(self, pending: list[Trigger], clause: str) -> None: ...


# -- which events trigger what ----------------------------------------------------------------

TRIGGERS: dict[str, tuple[str, ...]] = {
    "became_attacker": ("voyage_draw", "voyage_draw_discard"),
    "attacked": ("lone_attack_double_pressure", "three_attackers_destroy"),
    "became_blocker": ("block_draw", "block_unattack", "block_destroy"),
    "blocked": ("when_blocked",),
    "destroyed": ("undestroy",),
    "put_into_graveyard": ("legacy_draw", "netherworld_unattack", "netherworld_destroy", "legacy", "netherworld"),
}
"""The trigger table: what happens (A3-D5's events; put into the graveyard from the battlefield) -> the
abilities it triggers; each ``on_*`` below finds them on the cards it happened to."""

def _on(proc: Steps, event: str, cards: list[str], *, printed: bool = False, subject: bool = False,
        owner: bool = False) -> list[Trigger]:
    """The abilities :data:`TRIGGERS` lists for ``event`` on each of ``cards`` it happened to: with their
    characteristics now (``printed``: as the card is printed -- it has left the battlefield), controlled by the
    card's controller (``owner``: its owner), about the card itself where ``subject``."""
    out = []
    for cid in cards:
        card = proc.state.card(cid)
        for name, params in (card.abilities if printed else proc.state.abilities(card)):
            if name in TRIGGERS[event]:
                out.append(Trigger(cid, name, params, card.owner if owner else card.controller,
                                   subject=cid if subject else None))
    return out


def on_became_attackers(proc: Steps, attackers: list[str]) -> list[Trigger]:
    """A4: 航海 - アタッカーになったとき."""
    return _on(proc, "became_attacker", attackers)


def on_attacked(proc: Steps, player: str, attackers: list[str]) -> list[Trigger]:
    """A4: 自分が1体だけでアタックしたとき / 相手が3体以上でアタックしたとき."""
    out = []
    for card in proc.state.on_battlefield():
        for name, params in proc.state.abilities(card):
            if name == "lone_attack_double_pressure" and card.controller == player and len(attackers) == 1:
                out.append(Trigger(card.id, name, params, card.controller, subject=attackers[0]))
            elif name == "three_attackers_destroy" and card.controller != player and len(attackers) >= 3:
                out.append(Trigger(card.id, name, params, card.controller))
    return out


def on_became_blockers(proc: Steps, blockers: list[str]) -> list[Trigger]:
    """B4: ブロッカーになったとき."""
    return _on(proc, "became_blocker", blockers)


def on_became_blocked(proc: Steps, attackers: list[str]) -> list[Trigger]:
    """B4: ブロックされたとき -- the B3 event 「ブロッカーに指定された状態になる」 of an attacker."""
    return _on(proc, "blocked", attackers, subject=True)


def on_destroyed(proc: Steps, cards: list[str]) -> list[Trigger]:
    """D3: 破壊されたとき."""
    return _on(proc, "destroyed", cards)


def on_put_into_graveyard(proc: Steps, cards: list[str]) -> list[Trigger]:
    """D5: （戦場から）墓地に置かれたとき -- 遺業, 冥府発動."""
    return _on(proc, "put_into_graveyard", cards, printed=True, owner=True)


# -- what each does -----------------------------------------------------------------------------

def resolve(proc: Steps, t: Trigger, clause: str) -> None:
    """Resolve one triggered ability (its nested triggers resolve inside, before the next one)."""
    state, trace = proc.state, proc.trace
    choice: dict[str, Any] = {}
    if t.ability in GENERIC:
        resolve_effect(proc, t, clause)
        return
    if t.ability in OPTIONAL:
        taken = proc.script.decide(t.player, ("activate", "decline"), clause,
                                   lambda d: _validate_use(proc, t, d))
        assert taken is not None
        decision, choice = taken
        if decision.kind == "decline":
            return
    if t.ability == "undestroy" and t.card not in state.destroyed:
        return  # nothing left to do: it is no longer destroyed
    later = []
    if t.ability == "undestroy":
        # The cost is paid as it is used: 「ガーディアン1体を墓地に置いて発動できる」. What that triggers
        # resolves after this ability (nested, before the remaining ones).
        later = proc.put_into_graveyard([choice["cost"]], clause, clause, resolve=False)
    trace.emit("resolved", clause, card=t.card, ability=t.ability, player=t.player)
    EFFECTS[t.ability](proc, t, choice, clause)
    proc.resolve_all(later, clause)


def _validate_use(proc: Steps, t: Trigger, d: Decision) -> dict[str, Any]:
    if d.kind == "decline":
        if not isinstance(d.args, str):
            raise Refusal("malformed_decision", "decline takes the card id of the trigger's source")
        if d.args != t.card:
            raise Refusal("no_such_trigger", f"the trigger being resolved is {t.card}'s")
        return {}
    if not isinstance(d.args, dict):  # the vocabulary's shape: a lone id is not {card} (PROCEDURE.md)
        raise Refusal("malformed_decision", "activate takes {card, target?, cost?}")
    args = d.args
    if args.get("card") != t.card:
        raise Refusal("no_such_trigger", f"the trigger being resolved is {t.card}'s")
    state = proc.state
    target, cost = args.get("target"), args.get("cost")
    for named in (target, cost):
        if named is not None and (not isinstance(named, str) or named not in state.board.cards):
            raise Refusal("unknown_object", repr(named))
    if t.ability in ("three_attackers_destroy", "netherworld_unattack", "netherworld_destroy", "block_unattack"):
        if target not in state.board.cards or not state.is_attacker(target):
            raise Refusal("illegal_target", "choose an attacker")
    elif t.ability == "block_destroy":
        if target not in state.board.cards or state.card(target).zone != "battlefield":
            raise Refusal("illegal_target", "choose a card on the battlefield")
    elif t.ability == "undestroy":
        c = state.board.cards.get(cost)
        if (c is None or c.zone != "battlefield" or c.controller != t.player or not state.is_guardian(c)
                or cost == t.card):
            raise Refusal("illegal_cost", "put one of your guardians on the battlefield into the graveyard")
    return args


def _draw(proc: Steps, t: Trigger, choice: dict[str, Any], clause: str) -> None:
    proc.state.board.draw(t.player, int(t.params or 1), clause)


def _draw_discard(proc: Steps, t: Trigger, choice: dict[str, Any], clause: str) -> None:
    """航海 - 1ドローして、自分の手札1枚を墓地に置く."""
    params = t.params or {}
    board = proc.state.board
    board.draw(t.player, int(params.get("draw", 1)), clause)
    for _ in range(int(params.get("discard", 1))):
        if not board.zone(t.player, "hand"):
            return

        def pick(d: Decision) -> str:
            if not isinstance(d.args, str):
                raise Refusal("malformed_decision", "discard takes one card id")
            if d.args not in board.zone(t.player, "hand"):
                raise Refusal("not_in_hand", f"{d.args!r} is not in {t.player}'s hand")
            return d.args

        _, card = proc.script.decide(t.player, ("discard",), clause, pick)
        board.move(card, "graveyard", clause)


def _gain_double_pressure(proc: Steps, t: Trigger, choice: dict[str, Any], clause: str) -> None:
    """このターンの間、アタッカーは「ダブルプレッシャー」を得る."""
    if t.subject and proc.state.is_attacker(t.subject):
        proc.state.gained.setdefault(t.subject, []).append(("double_pressure", None))
        proc.trace.emit("gained", clause, card=t.subject, ability="double_pressure")


def _unattack_and_destroy_self(proc: Steps, t: Trigger, choice: dict[str, Any], clause: str) -> None:
    """そのアタッカーをアタッカーでない状態にして、これを破壊する."""
    with proc.trace.simultaneous():
        proc.cease_attacker(choice["target"], clause)
    proc.destroy([t.card], clause, clause, clause, clause)


def _unattack(proc: Steps, t: Trigger, choice: dict[str, Any], clause: str) -> None:
    with proc.trace.simultaneous():
        proc.cease_attacker(choice["target"], clause)


def _destroy_target(proc: Steps, t: Trigger, choice: dict[str, Any], clause: str) -> None:
    proc.destroy([choice["target"]], clause, clause, clause, clause)


def _undestroy(proc: Steps, t: Trigger, choice: dict[str, Any], clause: str) -> None:
    """これを破壊されていない状態にする (the cost was paid as it was used)."""
    proc.state.destroyed.discard(t.card)
    proc.trace.emit("undestroyed", clause, card=t.card)


EFFECTS: dict[str, Callable[[Steps, Trigger, dict[str, Any], str], None]] = {
    "voyage_draw": _draw,
    "block_draw": _draw,
    "legacy_draw": _draw,
    "voyage_draw_discard": _draw_discard,
    "lone_attack_double_pressure": _gain_double_pressure,
    "three_attackers_destroy": _unattack_and_destroy_self,
    "netherworld_unattack": _unattack,
    "block_unattack": _unattack,
    "netherworld_destroy": _destroy_target,
    "block_destroy": _destroy_target,
    "undestroy": _undestroy,
}
"""The effect table: what each triggered ability does when it resolves (the generic ones: :func:`resolve_effect`)."""


# -- effects of the generic abilities (遺業, 冥府発動, ブロックされたとき) ----------------------------------

GENERIC = {"legacy", "netherworld", "when_blocked"}
"""Abilities whose params name one effect and (optionally) its target filter: ``{effect: {kind: param},
target?: self | {types, controller, role}}`` (the vocabulary's ``GENERIC``, checked when loaded; no target: any
card on the battlefield). 冥府発動 and 遺業 are worded 発動できる (optional: ``activate`` or ``decline``);
ブロックされたとき (the synthetic cards' 「ブロックされたとき、…」, no 発動できる) is mandatory: with a target it is still
asked for its target (``activate``), and ``decline`` is refused ``mandatory_trigger``
(ijinden:assume.mandatory-trigger: the Q&A 「発動しないことを選べる能力は、条件に「発動できる」と書かれています。」)."""

GENERIC_OPTIONAL = {"netherworld", "legacy"}
"""The generic abilities worded 発動できる: 冥府発動, and 遺業 (「遺業能力:（戦場から墓地に置かれたときに発動できる）」)."""


def _effect(t: Trigger) -> tuple[str, Any]:
    (kind, param), = dict((t.params or {}).get("effect") or {"none": None}).items()
    return kind, param


def target_filter(t: Trigger) -> Any:
    """The trigger's ``target``: ``self`` or a filter; left out, :data:`~.vocabulary.ANY_CARD` -- any card on the
    battlefield, as the vocabulary's ``legacy`` says ("the effect on a target the filter allows (any card on the
    battlefield ...)")."""
    return (t.params or {}).get("target", ANY_CARD)


def legal_targets(proc: Steps, t: Trigger) -> list[str]:
    """The cards on the battlefield the trigger's ``target`` filter allows: ``types`` (ijin, guardian: what the
    card is now), ``controller`` (you / opponent of the trigger's controller), ``role`` (attacker, blocker)."""
    state = proc.state
    spec = target_filter(t)
    if not isinstance(spec, dict):
        return []
    out = []
    for card in state.on_battlefield():
        types = spec.get("types")
        if types and not any((ty == "ijin" and state.is_ijin(card)) or (ty == "guardian" and state.is_guardian(card))
                             for ty in types):
            continue
        who = spec.get("controller", "any")
        if (who == "you" and card.controller != t.player) or (who == "opponent" and card.controller == t.player):
            continue
        role = spec.get("role")
        if (role == "attacker" and not state.is_attacker(card.id)) or (role == "blocker" and not state.is_blocker(card.id)):
            continue
        out.append(card.id)
    return out


def resolve_effect(proc: Steps, t: Trigger, clause: str) -> None:
    """A generic trigger resolves: an optional one asks ``activate``/``decline``; a mandatory one with a target
    asks ``activate`` naming it (``decline`` refused ``mandatory_trigger``; with no legal target it resolves with
    no effect); ``target: self`` is the trigger's own card."""
    spec = target_filter(t)
    optional = t.ability in GENERIC_OPTIONAL
    target: str | None = t.card if spec == "self" else None
    if optional or isinstance(spec, dict):
        legal = legal_targets(proc, t)
        if optional or legal:
            def validate(d: Decision) -> dict[str, Any]:
                if d.kind == "decline":
                    if not isinstance(d.args, str):
                        raise Refusal("malformed_decision", "decline takes the card id of the trigger's source")
                    if d.args != t.card:
                        raise Refusal("no_such_trigger", f"the trigger being resolved is {t.card}'s")
                    if not optional:
                        raise Refusal("mandatory_trigger", f"{t.card}'s ability is not 発動できる")
                    return {}
                args = d.args
                if not isinstance(args, dict):  # the vocabulary's shape: a lone id is not {card} (PROCEDURE.md)
                    raise Refusal("malformed_decision", "activate takes {card, target?}")
                if args.get("card") != t.card:
                    raise Refusal("no_such_trigger", f"the trigger being resolved is {t.card}'s")
                named = args.get("target")
                if not isinstance(spec, dict):
                    return {"card": t.card}
                if named is not None and (not isinstance(named, str) or named not in proc.state.board.cards):
                    raise Refusal("unknown_object", repr(named))
                if named not in legal:
                    raise Refusal("illegal_target", f"legal: {legal}")
                return {"card": t.card, "target": named}

            taken = proc.script.decide(t.player, ("activate", "decline"), clause, validate)
            assert taken is not None
            decision, choice = taken
            if decision.kind == "decline":
                return
            target = choice.get("target", target)
    proc.trace.emit("resolved", clause, card=t.card, ability=t.ability, player=t.player)
    kind, param = _effect(t)
    if spec is not None and (target is None or proc.state.card(target).zone != "battlefield"):
        return                                  # nothing to affect (no legal target, or the card has left)
    apply_effect(proc, t, kind, param, target, clause)


def apply_effect(proc: Steps, t: Trigger, kind: str, param: Any, target: str | None, clause: str) -> None:
    """destroy (D2-D5 order), return_to_hand (to its owner's hand: it leaves the battlefield and ceases to be an
    attacker / blocker), power: N (this turn, on top of attack+/block+), gain: ability (this turn); a power or an
    ability that leaves a blocked attacker short of its pressure ends that block in the same moment
    (``lapse_blocks``, PASS-THROUGH-2). (Drawing and
    "not an attacker" are the abilities legacy_draw, netherworld_unattack, block_unattack.)"""
    state = proc.state
    if kind == "destroy":
        proc.destroy([target], clause, clause, clause, clause)
    elif kind == "return_to_hand":
        with proc.trace.simultaneous():
            state.modifiers.pop(target, None)
            state.gained.pop(target, None)
            state.destroyed.discard(target)
            state.board.move(target, "hand", clause)
            proc.sync_roles(clause)
    elif kind == "power":
        with proc.trace.simultaneous():  # a power that grants pressure (grant_by_power) may end a block: same moment
            state.modifiers[target] = state.modifiers.get(target, 0) + int(param)
            proc.trace.emit("power_modified", clause, card=target, amount=int(param),
                            power=state.power(state.card(target)))
            proc.lapse_blocks()
    elif kind == "gain":
        with proc.trace.simultaneous():  # a gained ダブルプレッシャー may end a block (PASS-THROUGH-2): same moment
            state.gained.setdefault(target, []).append((str(param), None))
            proc.trace.emit("gained", clause, card=target, ability=str(param))
            proc.lapse_blocks()
    elif kind != "none":  # pragma: no cover - the loader refuses an effect outside the vocabulary's EFFECT
        raise ValueError(f"unknown effect {kind!r} of {t.card}")
