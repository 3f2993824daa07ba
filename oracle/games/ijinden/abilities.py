"""Ijinden triggered abilities: which event triggers what, and what each does when it resolves.

Every triggered ability is a composition (:mod:`oracle.core.compose`, issue 25): a card writes ``{triggered:
{...}}``, and each named one (``voyage_draw``, ``undestroy``, ``legacy`` ...) is shorthand for one
(:data:`SHORTHAND`). One interpreter (:func:`interpret`) resolves them all: the decision (``activate`` /
``decline``, targets and cost), the condition, the cost, ``resolved``, then the effects in order
(:data:`EFFECTS`); traces name an ability by its shorthand name (or the composition's ``name``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol

from ...core.compose import SUBJECT, THIS, Effect, Target, Triggered, When, parse_triggered, watched
from ...core.script import Decision, Refusal, Script
from ...core.trace import Trace
from .state import State, within
from .vocabulary import ANY_CARD, GRAVEYARD_EFFECTS, PLAYER_EFFECTS, TRIGGER_EVENTS

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
    """The card the event was about (the lone attacker for ``attacked``)."""
    composed: Triggered | None = None
    """A ``triggered`` ability's composition (a named one's is :data:`SHORTHAND`'s, built as it resolves)."""


class Steps(Protocol):
    """The procedure as an effect reaches it (``procedure.Procedure``): the state, trace and script, and the
    steps an effect performs -- D2-D5 destroy, D4 to the graveyard, ceasing roles, resolving what triggers."""

    state: State
    trace: Trace
    script: Script

    def destroy(self, cards: list[str], destroyed_clause: str, trigger_clause: str, grave_clause: str,
                grave_trigger_clause: str, by: str | None = None) -> None: ...

    def put_into_graveyard(self, cards: list[str], clause: str, trigger_clause: str,
                           resolve: bool = True) -> list[Trigger]: ...

    def cease_attacker(self, attacker: str, clause: str) -> None: ...

    def sync_roles(self, clause: str) -> None: ...

    def lapse_blocks(self) -> None: ...

    def resolve_all(self, pending: list[Trigger], clause: str) -> None: ...


GENERIC = {"legacy", "netherworld", "when_blocked"}
"""Abilities whose params name one effect and (optionally) its target filter: ``{effect: {kind: param},
target?: self | {types, controller, role, sleeping}}`` (the vocabulary's ``GENERIC``, checked when loaded; no
target: any card on the battlefield): shorthand for a composition with that one target and effect.
冥府発動 and 遺業 are worded 発動できる (optional: ``activate`` or ``decline``); ブロックされたとき (the synthetic
cards' 「ブロックされたとき、…」, no 発動できる) is mandatory: with a target it is still asked for its target
(``activate``), and ``decline`` is refused ``mandatory_trigger`` (ijinden:assume.mandatory-trigger: the Q&A
「発動しないことを選べる能力は、条件に「発動できる」と書かれています。」)."""

GENERIC_OPTIONAL = {"netherworld", "legacy"}
"""The generic abilities worded 発動できる: 冥府発動, and 遺業 (「遺業能力:（戦場から墓地に置かれたときに発動できる）」)."""


# -- named abilities as shorthand ---------------------------------------------------------------------------

ATTACKER = {"role": "attacker"}
ANY = ANY_CARD


def _optional(name: str) -> bool:
    """Read as the ability resolves (a mutant may change the tables meanwhile)."""
    return name in OPTIONAL or name in GENERIC_OPTIONAL


def _draw_n(params: Any) -> int:
    return int(params or 1)


def _generic(event: str) -> Callable[[str, Any], Triggered]:
    """遺業 / 冥府発動 / ブロックされたとき ``{effect, target?}``: its one effect on its one target (``self``: on this)."""

    def make(name: str, params: Any) -> Triggered:
        params = params or {}
        (kind, param), = dict(params.get("effect") or {"none": None}).items()
        spec = params.get("target", ANY_CARD)
        if spec == "self":
            return Triggered(name, When(event), _optional(name), effects=(Effect(kind, param, THIS),))
        return Triggered(name, When(event), _optional(name), targets=(Target("target", spec),),
                         effects=(Effect(kind, param, "target"),))
    return make


SHORTHAND: dict[str, Callable[[str, Any], Triggered]] = {
    "voyage_draw": lambda n, p: Triggered(n, When("became_attacker"), effects=(Effect("draw", _draw_n(p)),)),
    "voyage_draw_discard": lambda n, p: Triggered(n, When("became_attacker"), effects=(
        Effect("draw", int((p or {}).get("draw", 1))), Effect("discard", int((p or {}).get("discard", 1))))),
    "lone_attack_double_pressure": lambda n, p: Triggered(
        n, When("attacked", "yours", {"attackers": {"max": 1}}), effects=(Effect("gain", "double_pressure", SUBJECT),)),
    "three_attackers_destroy": lambda n, p: Triggered(
        n, When("attacked", "opponents", {"attackers": {"min": 3}}), _optional(n), targets=(Target("t", ATTACKER),),
        effects=(Effect("unattack", None, "t"), Effect("destroy", None, THIS))),
    "block_draw": lambda n, p: Triggered(n, When("became_blocker"), effects=(Effect("draw", _draw_n(p)),)),
    "block_unattack": lambda n, p: Triggered(n, When("became_blocker"), _optional(n), targets=(Target("t", ATTACKER),),
                                             effects=(Effect("unattack", None, "t"),)),
    "block_destroy": lambda n, p: Triggered(n, When("became_blocker"), _optional(n), targets=(Target("t", ANY),),
                                            effects=(Effect("destroy", None, "t"),)),
    "undestroy": lambda n, p: Triggered(n, When("destroyed"), _optional(n), condition={"destroyed": True},
                                        cost={"put_into_graveyard": {"types": ["guardian"]}},
                                        effects=(Effect("undestroy", None, THIS),)),
    "legacy_draw": lambda n, p: Triggered(n, When("put_into_graveyard"), _optional(n),
                                          effects=(Effect("draw", _draw_n(p)),)),
    "netherworld_unattack": lambda n, p: Triggered(n, When("put_into_graveyard"), _optional(n),
                                                   targets=(Target("t", ATTACKER),), effects=(Effect("unattack", None, "t"),)),
    "netherworld_destroy": lambda n, p: Triggered(n, When("put_into_graveyard"), _optional(n),
                                                  targets=(Target("t", ATTACKER),), effects=(Effect("destroy", None, "t"),)),
    "legacy": _generic("put_into_graveyard"),
    "netherworld": _generic("put_into_graveyard"),
    "when_blocked": _generic("blocked"),
}
"""Each named triggered ability as the composition it is short for (called with the ability's name and params).
Every one is expressed: none is kept named. 足利義満's ``grant_voyage`` and ``grant_by_power`` are statics (the
ability they grant is one of these), the keywords (attack+, block+, pressure, 即応, ウォッチャー) stay keywords."""

TRIGGERS: dict[str, tuple[str, ...]] = {
    event: tuple(n for n, make in SHORTHAND.items() if make(n, None).when.event == event)
    for event in TRIGGER_EVENTS
}
"""The trigger table, read off :data:`SHORTHAND`: what happens -> the named abilities it triggers (with
``triggered`` compositions on that event)."""


def composition(name: str, params: Any) -> Triggered | None:
    """The composition a card's ability is, or None (a keyword, a static)."""
    if name == "triggered":
        return parse_triggered(params)
    make = SHORTHAND.get(name)
    return make(name, params) if make is not None else None


def _of(t: Trigger) -> Triggered:
    if t.composed is not None:
        return t.composed
    made = composition(t.ability, t.params)
    assert made is not None
    return made


# -- which events trigger what ----------------------------------------------------------------------------

def _power_holds(state: State, card: Any, when: When) -> bool:
    """An event condition on this card's power (「これのパワーが6000以上なら、…ときに発動する」), judged as the event
    happens: the ability does not trigger otherwise (ijinden:assume.trigger-condition-at-the-event)."""
    span = (when.condition or {}).get("power")
    return span is None or within(state.power(card), span)


def _trigger(card: Any, name: str, params: Any, event: str, player: str, subject: str | None) -> Trigger | None:
    if name != "triggered" and name not in TRIGGERS[event]:
        return None  # a keyword, a static, or a named ability of another event (read off SHORTHAND once)
    comp = composition(name, params)
    if comp is None or comp.when.event != event:
        return None
    return Trigger(card.id, comp.name, params, player, subject=subject,
                   composed=comp if name == "triggered" else None)


def collect(proc: Steps, event: str, about: list[str], *, left: bool = False) -> list[Trigger]:
    """What ``event`` about each card of ``about`` triggers: the abilities of the card itself (as printed and
    controlled by its owner when it ``left`` the battlefield: D5) and of the cards on the battlefield, whose
    ``when.watch`` allows that card (:func:`oracle.core.compose.watched`). A card that left sees only events
    about itself."""
    state = proc.state
    out = []
    for cid in about:
        subject = state.card(cid)
        subject_ctl = subject.owner if left else subject.controller
        watchers = [(subject, subject.abilities if left else state.abilities(subject), subject_ctl)]
        watchers += [(c, state.abilities(c), c.controller) for c in state.on_battlefield() if c.id != cid]
        for card, abilities, ctl in watchers:
            for name, params in abilities:
                t = _trigger(card, name, params, event, ctl, cid)
                if t is not None and watched(_of(t).when.watch, ctl, card.id, cid, subject_ctl) \
                        and _power_holds(state, card, _of(t).when):
                    out.append(t)
    return out


def on_became_attackers(proc: Steps, attackers: list[str]) -> list[Trigger]:
    """A4: アタッカーになったとき (航海)."""
    return collect(proc, "became_attacker", attackers)


def on_attacked(proc: Steps, player: str, attackers: list[str]) -> list[Trigger]:
    """A4: the A3 event 「アタックした」 of a player: ``watch: yours`` (自分が…アタックしたとき), ``opponents``
    (相手が…アタックしたとき), ``any``; the event condition counts the attackers; the subject is the lone
    attacker."""
    out = []
    lone = attackers[0] if len(attackers) == 1 else None
    for card in proc.state.on_battlefield():
        for name, params in proc.state.abilities(card):
            t = _trigger(card, name, params, "attacked", card.controller, lone)
            if t is None:
                continue
            when = _of(t).when
            mine = card.controller == player
            if not ((when.watch in ("yours", "any") and mine) or (when.watch in ("opponents", "any") and not mine)):
                continue
            if when.condition and not within(len(attackers), when.condition.get("attackers") or {}):
                continue
            if not _power_holds(proc.state, card, when):
                continue
            out.append(t)
    return out


def on_slept(proc: Steps, cards: list[str]) -> list[Trigger]:
    """寝たとき: A3's 「寝かせる」 of the attackers (resolved at A4), or an effect's 寝かせる (resolved after it)."""
    return collect(proc, "slept", cards)


def on_became_blockers(proc: Steps, blockers: list[str]) -> list[Trigger]:
    """B4: ブロッカーになったとき."""
    return collect(proc, "became_blocker", blockers)


def on_became_blocked(proc: Steps, attackers: list[str]) -> list[Trigger]:
    """B4: ブロックされたとき -- the B3 event 「ブロッカーに指定された状態になる」 of an attacker."""
    return collect(proc, "blocked", attackers)


def on_destroyed(proc: Steps, cards: list[str]) -> list[Trigger]:
    """D3: 破壊されたとき."""
    return collect(proc, "destroyed", cards)


def on_put_onto_battlefield(proc: Steps, cards: list[str], from_zone: str) -> list[Trigger]:
    """戦場に置かれたとき (an effect's 戦場に置く), with its condition on the zone the card came from (「墓地から」)."""
    return [t for t in collect(proc, "put_onto_battlefield", cards)
            if (_of(t).when.condition or {}).get("from") in (None, from_zone)]


def on_put_into_graveyard(proc: Steps, cards: list[str]) -> list[Trigger]:
    """D5: （戦場から）墓地に置かれたとき -- 遺業, 冥府発動."""
    return collect(proc, "put_into_graveyard", cards, left=True)


# -- resolving: one interpreter ----------------------------------------------------------------------------

def resolve(proc: Steps, t: Trigger, clause: str) -> None:
    """Resolve one triggered ability (its nested triggers resolve inside, before the next one)."""
    if t.ability in GENERIC:
        resolve_effect(proc, t, clause)
        return
    interpret(proc, t, _of(t), clause)


def resolve_effect(proc: Steps, t: Trigger, clause: str) -> None:
    """A generic ability (遺業, 冥府発動, ブロックされたとき) resolves: through the same interpreter."""
    interpret(proc, t, _of(t), clause)


def target_filter(t: Trigger) -> Any:
    """A generic trigger's ``target``: ``self`` or a filter; left out, :data:`~.vocabulary.ANY_CARD` -- any card on
    the battlefield."""
    return (t.params or {}).get("target", ANY_CARD)


def allowed(proc: Steps, spec: Any, player: str, source: str | None = None) -> list[str]:
    """The cards filter ``spec`` allows, read from ``player``'s side: ``types`` (ijin, guardian, haikei: what the
    card is now), ``controller`` (you / opponent), ``role`` (attacker, blocker), ``sleeping``, ``battle`` (this: the
    battle of the ability's card ``source``), ``power``, ``level``; on the battlefield, or in the graveyards with
    ``zone: graveyard`` (:meth:`State.allows <.state.State.allows>`)."""
    state = proc.state
    if not isinstance(spec, dict):
        return []
    zone = spec.get("zone", "battlefield")
    if zone == "battlefield":
        cards = state.on_battlefield()
    else:
        cards = [state.card(c) for p in state.board.players for c in state.board.zones[(p, zone)]]
    return [card.id for card in cards if state.allows(spec, card, player, source)]


def legal_targets(proc: Steps, t: Trigger) -> list[str]:
    """The cards a generic trigger's ``target`` filter allows (:func:`allowed`)."""
    return allowed(proc, target_filter(t), t.player, t.card)


def _cost_ok(proc: Steps, t: Trigger, cost: Any, named: Any) -> bool:
    """「自分の戦場の…1体を墓地に置いて」: one of the controller's cards on the battlefield, not this one, that the
    cost's filter allows; 「自分の戦場の…をすきなだけ寝かせて」: a list of distinct awake cards of the controller's on
    the battlefield that the filter allows (none is a list too)."""
    if "sleep" in cost:
        mine = allowed(proc, {**cost["sleep"], "controller": "you", "sleeping": False}, t.player, t.card)
        return (isinstance(named, list) and len(set(map(str, named))) == len(named)
                and all(x in mine for x in named))
    spec = cost["put_into_graveyard"]
    return isinstance(named, str) and named != t.card and named in allowed(proc, {**spec, "controller": "you"}, t.player, t.card)


def _chosen(ab: Triggered) -> list[Target]:
    return [x for x in ab.targets if not x.every]


def per_cost(amount: int, paid: int) -> int:
    """「寝かせた1体につき…」: ``amount`` for each of the ``paid`` cards the ability's cost put to sleep."""
    return amount * paid


def _decide(proc: Steps, t: Trigger, ab: Triggered, options: dict[str, list[str]], clause: str) -> dict | None:
    """Ask ``activate {card, target?, targets?, cost?}`` or ``decline card`` (``decline`` refused
    ``mandatory_trigger`` when the ability is not 発動できる). The chosen targets: ``target: id`` when the ability has
    one target choosing one card, else ``targets: {name: id | [id, ...]}``. An optional ability names every target
    (with none legal, only ``decline`` is accepted); a mandatory one names those that have legal cards. Returns
    ``{card, targets: {name: [ids]}, cost?: id}``, or None when declined."""
    chosen = _chosen(ab)
    single = len(chosen) == 1 and chosen[0].count == 1

    def validate(d: Decision) -> dict | None:
        if d.kind == "decline":
            if not isinstance(d.args, str):
                raise Refusal("malformed_decision", "decline takes the card id of the trigger's source")
            if d.args != t.card:
                raise Refusal("no_such_trigger", f"the trigger being resolved is {t.card}'s")
            if not ab.optional:
                raise Refusal("mandatory_trigger", f"{t.card}'s ability is not 発動できる")
            return None
        args = d.args
        if not isinstance(args, dict):  # the vocabulary's shape: a lone id is not {card} (PROCEDURE.md)
            raise Refusal("malformed_decision", "activate takes {card, target?, targets?, cost?}")
        if args.get("card") != t.card:
            raise Refusal("no_such_trigger", f"the trigger being resolved is {t.card}'s")
        named: dict[str, Any] = dict(args.get("targets") or {}) if isinstance(args.get("targets"), dict) else {}
        if "targets" in args and not isinstance(args["targets"], dict):
            raise Refusal("malformed_decision", "targets takes {target name: card | [card, ...]}")
        if "target" in args:
            if not single and chosen:
                raise Refusal("malformed_decision", "this ability names its targets: targets: {name: card}")
            if single:
                named.setdefault(chosen[0].name, args["target"])
        ids = [x for v in named.values() for x in (v if isinstance(v, list) else [v])]
        if "target" in args and not chosen:
            ids.append(args["target"])
        if args.get("cost") is not None:
            ids += args["cost"] if isinstance(args["cost"], list) else [args["cost"]]
        for x in ids:
            if not isinstance(x, str) or x not in proc.state.board.cards:
                raise Refusal("unknown_object", repr(x))
        picked: dict[str, Any] = {"card": t.card, "targets": {}}
        for target in chosen:
            given = named.get(target.name)
            cards = given if isinstance(given, list) else ([] if given is None else [given])
            legal = options[target.name]
            need = target.count if ab.optional else min(target.count, len(legal))
            if len(cards) != need or len(set(cards)) != len(cards) or any(c not in legal for c in cards):
                raise Refusal("illegal_target", f"{target.name}: {need} of {legal}")
            picked["targets"][target.name] = cards
        for extra in named:
            if ab.target(extra) is None:
                raise Refusal("illegal_target", f"this ability has no target {extra!r}")
        if ab.cost is not None:
            if not _cost_ok(proc, t, ab.cost, args.get("cost")):
                raise Refusal("illegal_cost", "put one of your cards on the battlefield the cost allows into the "
                                              "graveyard" if "put_into_graveyard" in ab.cost else
                                              "put to sleep a list of your awake cards on the battlefield the cost "
                                              "allows")
            picked["cost"] = args["cost"]
        return picked

    taken = proc.script.decide(t.player, ("activate", "decline"), clause, validate)
    assert taken is not None
    return taken[1]


def interpret(proc: Steps, t: Trigger, ab: Triggered, clause: str) -> None:
    """One composed ability resolves, in this order: the decision (an optional one, or one that chooses targets
    with legal cards: :func:`_decide`, which gives ``{card, targets: {name: [ids]}, cost?}``; a declined one does
    nothing); the condition (failing: nothing, no
    ``resolved``); the cost (its triggers wait); ``resolved``; each effect in order on the cards its ``on`` names
    that are still on the battlefield (``count: all`` targets: every card the filter allows now); then what the
    cost triggered."""
    options = {x.name: allowed(proc, x.filter if x.filter is not None else ANY_CARD, t.player, t.card)
               for x in _chosen(ab)}
    picked: dict[str, list[str]] = {}
    cost = None
    if ab.optional or any(options.values()):
        got = _decide(proc, t, ab, options, clause)
        if got is None:
            return
        picked, cost = got["targets"], got.get("cost")
    if not proc.state.holds(ab.condition, t.card, t.player):
        return
    later: list[Trigger] = []
    paid = 0
    if isinstance(cost, list):  # 寝かせて: what their sleeping triggers waits
        paid = len(cost)
        later = on_slept(proc, _put_to_sleep(proc, cost, clause))
    elif cost is not None:
        later = proc.put_into_graveyard([cost], clause, clause, resolve=False)
    proc.trace.emit("resolved", clause, card=t.card, ability=t.ability, player=t.player)
    for x in ab.targets:
        if x.every:
            picked[x.name] = allowed(proc, x.filter if x.filter is not None else ANY_CARD, t.player, t.card)
    for e in ab.effects:
        if e.kind in PLAYER_EFFECTS:
            EFFECTS[e.kind](proc, t, e.param, [], clause)
            continue
        on = e.on or (ab.targets[0].name if len(ab.targets) == 1 else THIS)
        zone = "graveyard" if e.kind in GRAVEYARD_EFFECTS else "battlefield"  # still where the effect finds it
        named = [[c for c in _cards_of(t, picked, one) if proc.state.card(c).zone == zone]
                 for one in (on if isinstance(on, tuple) else (on,))]
        param = e.param
        if e.kind == "power_per_cost":  # 寝かせた1体につき: N for each card the cost put to sleep
            param = per_cost(int(e.param), paid)
            if not param:
                continue
        for cards in at_once(named):
            if cards:
                EFFECTS[e.kind](proc, t, param, cards, clause)
    proc.resolve_all(later, clause)


def _cards_of(t: Trigger, picked: dict[str, list[str]], on: str) -> list[str]:
    """What one name of an effect's ``on`` names: this card, the event's card, or a target's chosen cards."""
    if on == THIS:
        return [t.card]
    if on == SUBJECT:
        return [t.subject] if t.subject else []
    return picked.get(on, [])


def at_once(named: list[list[str]]) -> list[list[str]]:
    """``on: [a, b]`` (「それらのイジンすべてを破壊する」): the cards of every name, in one effect -- one moment."""
    return [[c for cards in named for c in cards]]


# -- the effect table ----------------------------------------------------------------------------------

def _draw(proc: Steps, t: Trigger, n: Any, cards: list[str], clause: str) -> None:
    """N ドローする; a hand that reaches a count (a static's condition) may end a block (PASS-THROUGH-2): same
    moment."""
    with proc.trace.simultaneous():
        proc.state.board.draw(t.player, int(n), clause)
        proc.lapse_blocks()


def _discard(proc: Steps, t: Trigger, n: Any, cards: list[str], clause: str) -> None:
    """自分の手札N枚を墓地に置く: one ``discard`` decision per card, while the hand has one."""
    board = proc.state.board
    for _ in range(int(n)):
        if not board.zone(t.player, "hand"):
            return

        def pick(d: Decision) -> str:
            if not isinstance(d.args, str):
                raise Refusal("malformed_decision", "discard takes one card id")
            if d.args not in board.zone(t.player, "hand"):
                raise Refusal("not_in_hand", f"{d.args!r} is not in {t.player}'s hand")
            return d.args

        _, card = proc.script.decide(t.player, ("discard",), clause, pick)
        with proc.trace.simultaneous():
            board.move(card, "graveyard", clause)
            proc.lapse_blocks()


def _destroy(proc: Steps, t: Trigger, param: Any, cards: list[str], clause: str) -> None:
    """破壊する: all at once, in the D2-D5 order, by an ability its controller controls (相手の能力によって破壊されない
    reads who)."""
    proc.destroy(cards, clause, clause, clause, clause, by=t.player)


def _put_onto_battlefield(proc: Steps, t: Trigger, param: Any, cards: list[str], clause: str) -> None:
    """（墓地から）戦場に置く: onto its owner's battlefield, awake, placed this turn (one moment); a new card there, with
    nothing of its past (ijinden:assume.return-to-hand)."""
    _place(proc, cards, clause, face_down=False)
    proc.resolve_all(on_put_onto_battlefield(proc, cards, "graveyard"), clause)


def _guardian_from_deck(proc: Steps, t: Trigger, n: Any, cards: list[str], clause: str) -> None:
    """自分の山札の上からN枚を裏のまま戦場に置く: guardians (face down, awake, placed this turn), one moment; a count of
    guardians that changes may end a block (a static's condition: PASS-THROUGH-2, the official Q&A on 《織田信長》)."""
    _place(proc, proc.state.board.zone(t.player, "deck")[:int(n)], clause, face_down=True)


def _place(proc: Steps, cards: list[str], clause: str, *, face_down: bool) -> None:
    """戦場に置く: each card onto its owner's battlefield as a new card (nothing of this turn's effects on it), awake,
    placed this turn, face up or 裏のまま; one moment, in which the roles and blocks that change with it follow."""
    state = proc.state
    with proc.trace.simultaneous():
        for c in cards:
            state.modifiers.pop(c, None)
            state.gained.pop(c, None)
            card = state.board.move(c, "battlefield", clause)
            card.props["face_down"] = face_down
            card.tapped = False
            card.entered_this_turn = True
        proc.sync_roles(clause)


def _return_to_hand(proc: Steps, t: Trigger, param: Any, cards: list[str], clause: str) -> None:
    """持ち主の手札に戻す: one moment; they leave the battlefield and cease to be attackers / blockers."""
    state = proc.state
    with proc.trace.simultaneous():
        for c in cards:
            state.modifiers.pop(c, None)
            state.gained.pop(c, None)
            state.destroyed.discard(c)
            state.board.move(c, "hand", clause)
        proc.sync_roles(clause)


def _power(proc: Steps, t: Trigger, param: Any, cards: list[str], clause: str) -> None:
    """このターンの間、パワーを±N する (apart from attack+/block+); a power that grants pressure (grant_by_power) may
    end a block: same moment."""
    state = proc.state
    with proc.trace.simultaneous():
        for c in cards:
            state.modifiers[c] = state.modifiers.get(c, 0) + int(param)
            proc.trace.emit("power_modified", clause, card=c, amount=int(param), power=state.power(state.card(c)))
        proc.lapse_blocks()


def _gain(proc: Steps, t: Trigger, param: Any, cards: list[str], clause: str) -> None:
    """このターンの間、「…」を得る; a gained ダブルプレッシャー may end a block (PASS-THROUGH-2): same moment."""
    state = proc.state
    with proc.trace.simultaneous():
        for c in cards:
            state.gained.setdefault(c, []).append((str(param), None))
            proc.trace.emit("gained", clause, card=c, ability=str(param))
        proc.lapse_blocks()


def _unattack(proc: Steps, t: Trigger, param: Any, cards: list[str], clause: str) -> None:
    """アタッカーでない状態にする: one moment (its blockers cease with it)."""
    with proc.trace.simultaneous():
        for c in cards:
            proc.cease_attacker(c, clause)


def _undestroy(proc: Steps, t: Trigger, param: Any, cards: list[str], clause: str) -> None:
    """破壊されていない状態にする."""
    with proc.trace.simultaneous():
        for c in cards:
            if c in proc.state.destroyed:
                proc.state.destroyed.discard(c)
                proc.trace.emit("undestroyed", clause, card=c)


def _put_to_sleep(proc: Steps, cards: list[str], clause: str) -> list[str]:
    """寝かせる: the awake ones of ``cards`` sleep, one moment of ``slept`` (a sleeping one stays as it is: no
    event); returns those that slept."""
    slept = [c for c in cards if not proc.state.card(c).tapped]
    with proc.trace.simultaneous():
        for c in slept:
            proc.state.card(c).tapped = True
            proc.trace.emit("slept", clause, card=c)
    return slept


def _sleep(proc: Steps, t: Trigger, param: Any, cards: list[str], clause: str) -> None:
    """寝かせる as an effect; then what their sleeping triggers (寝たとき) resolves, nested, before the ability's next
    effect."""
    proc.resolve_all(on_slept(proc, _put_to_sleep(proc, cards, clause)), clause)


EFFECTS: dict[str, Callable[[Steps, Trigger, Any, list[str], str], None]] = {
    "draw": _draw, "discard": _discard, "destroy": _destroy, "return_to_hand": _return_to_hand, "power": _power,
    "gain": _gain, "unattack": _unattack, "undestroy": _undestroy, "sleep": _sleep,
    "power_per_cost": _power,  # the interpreter gives it N times the cards the cost put to sleep
    "put_onto_battlefield": _put_onto_battlefield, "guardian_from_deck": _guardian_from_deck,
    "none": lambda proc, t, param, cards, clause: None,
}
"""The effect table (the vocabulary's COMPOSED_EFFECT): ``(proc, trigger, param, cards, clause)``."""
