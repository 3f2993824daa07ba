"""The order each procedure puts its steps in, as a partial order over trace events, checked in plain
Python (no z3: ``run`` may call :func:`check_order` on every trace at trace level).

An :class:`Order` is a chain of :class:`OrderStep`\\ s, each tied to its clause. A step picks events by kind and
fields, and gives each a *key* (the card or shield it is about); within one *scope* (the whole trace, one
Ijinden battle resolution, one Duel Masters attack), every event of an earlier step must be in an earlier
moment than every event of a later step with the same key. Constraints read only event kinds and fields,
never the engine's clause tags, so they hold any engine to the same order. ``explain_order`` (z3, in
``order_explain.py``) names the smallest set of clauses a violating trace breaks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

Event = Mapping[str, Any]
"""``{"moment", "kind", "args"}`` (a trace entry as JSON, or any object with those attributes)."""


def _const(_args: Mapping[str, Any]) -> str:
    return "*"


@dataclass(frozen=True)
class OrderStep:
    clause: str
    kinds: frozenset[str]
    key: Callable[[Mapping[str, Any]], Any] = _const
    where: Callable[[Mapping[str, Any], "Scope"], bool] = lambda args, scope: True
    label: str = ""

    def picks(self, kind: str, args: Mapping[str, Any], scope: "Scope") -> bool:
        return kind in self.kinds and self.where(args, scope)


@dataclass
class Scope:
    """A stretch of the trace the chain applies in, and what is known about it."""

    name: str
    events: list[tuple[int, str, dict[str, Any]]]
    active: str | None = None
    """The active player: who made the trace's first decision."""
    battles: set[str] = field(default_factory=set)
    """Cards that lost defense counters somewhere in the trace."""
    losers: set[str] = field(default_factory=set)
    """Cards that lost a battle in this scope."""
    picked: dict[str, set[str]] = field(default_factory=dict)
    """Step -> the losers an event of it has been picked for (:func:`_a_losers_first`)."""


@dataclass(frozen=True)
class Order:
    id: str
    game: str
    steps: tuple[OrderStep, ...]
    doc: str
    scope: str = "trace"
    """``trace``; ``resolution`` (Ijinden: from ``chose_attacker`` to ``battle_resolution_ended``);
    ``attack`` (Duel Masters: from ``attacked`` to ``attack_ended``)."""

    @property
    def clauses(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(s.clause for s in self.steps))


@dataclass(frozen=True)
class Violation:
    """OrderStep ``first`` must come before step ``then`` (for ``key``), but an event of ``then`` is at moment
    ``then_moment``, not after ``first_moment``."""

    order: str
    clauses: tuple[str, ...]
    first: str
    then: str
    key: Any
    first_moment: int
    then_moment: int
    scope: str
    message: str = field(default="", compare=False)


def _by_card(args):
    return args.get("card")


def _by_attacker(args):
    return args.get("attacker")


def _a_losers_first(step: str, also: Callable[[Mapping[str, Any], "Scope"], bool] = lambda a, s: True):
    """A loser's first such event in the resolution: the step's. A later one is nested elsewhere -- a loser
    saved by undestroy and destroyed again by an effect resolving during D3 (a cost's 冥府発動), or a winner
    destroyed by a D5 legacy whose undestroy then triggers: neither is D2's destruction or D3's trigger."""
    def where(args: Mapping[str, Any], scope: "Scope") -> bool:
        card = args.get("card")
        seen = scope.picked.setdefault(step, set())
        if card not in scope.losers or card in seen or not also(args, scope):
            return False
        seen.add(card)
        return True
    return where


def _is(**fields):
    return lambda args, scope: all(args.get(k) == v for k, v in fields.items())


def _ability_in(*names):
    return lambda args, scope: args.get("ability") in names


_AFTER_BATTLE = ("on_battle_win", "slayer", "creature_wins_battle")

ORDERS: tuple[Order, ...] = (
    # ---------------------------------------------------------------- Ijinden (seed 000)
    Order("ijinden.attack-plus-before-attacker", "ijinden",
          (OrderStep("ijinden:A2", frozenset({"power_changed"}), _by_card, label="attack+ applies"),
           OrderStep("ijinden:A3", frozenset({"became_attacker"}), _by_card, label="becomes an attacker")),
          "A2 before A3: アタック+ is in effect before the Ijin becomes an attacker."),
    Order("ijinden.attack-before-block", "ijinden",
          (OrderStep("ijinden:A3", frozenset({"became_attacker"}), _by_card, label="becomes an attacker"),
           OrderStep("ijinden:B3", frozenset({"became_blocker"}), _by_attacker, label="is assigned a blocker")),
          "A3 before B3: blockers are assigned to attackers."),
    Order("ijinden.block-choose-judge", "ijinden",
          (OrderStep("ijinden:B3", frozenset({"blocked"}), _by_card, label="is blocked"),
           OrderStep("ijinden:C1a", frozenset({"chose_attacker"}), _by_card, label="is chosen"),
           OrderStep("ijinden:D1", frozenset({"won_battle", "lost_battle"}), _by_card, label="battle judged")),
          "B3 before C1a before D1: a blocked attacker is chosen, then its battle is judged."),
    Order("ijinden.resolution", "ijinden",
          (OrderStep("ijinden:D1", frozenset({"won_battle", "lost_battle"}), label="battle judged"),
           OrderStep("ijinden:D2", frozenset({"destroyed"}), where=_a_losers_first("D2"),
                label="losers destroyed"),
           OrderStep("ijinden:D3", frozenset({"triggered"}), where=_a_losers_first("D3", _ability_in("undestroy")),
                label="destroyed-triggers"),
           OrderStep("ijinden:D4", frozenset({"moved"}), where=lambda a, s: a.get("to") == "graveyard"
                and a.get("from") == "battlefield" and a.get("card") in s.losers, label="to the graveyard"),
           OrderStep("ijinden:D5", frozenset({"triggered"}),  # of the cards D4 put there: a card that went to the
                # graveyard otherwise (a D3 cost) triggers then, nested, not at D5
                where=lambda a, s: _ability_in("legacy_draw", "netherworld_unattack", "netherworld_destroy", "legacy",
                                               "netherworld")(a, s) and a.get("card") in s.losers,
                label="graveyard-triggers"),
           OrderStep("ijinden:D6", frozenset({"battle_resolution_ended"}), label="resolution ends")),
          "D1 < D2 < D3 < D4 < D5 < D6 within one battle resolution.", scope="resolution"),
    # ---------------------------------------------------------------- Duel Masters (seed 002)
    Order("duelmasters.blocked-triggers-then-battle", "duelmasters",
          (OrderStep("duelmasters:A3", frozenset({"blocked"}), label="blocked"),
           OrderStep("duelmasters:B1", frozenset({"resolved"}), where=_ability_in("on_attack_blocked"),
                label="attacker's when-blocked"),
           OrderStep("duelmasters:B2", frozenset({"resolved"}), where=_ability_in("on_block"), label="blocker's when-blocks"),
           OrderStep("duelmasters:B3", frozenset({"won_battle", "lost_battle"}), label="battle")),
          "A3 < B1 < B2 < B3: the attacker's when-blocked effects, then the blocker's, then the battle.",
          scope="attack"),
    Order("duelmasters.shield", "duelmasters",
          (OrderStep("duelmasters:U2", frozenset({"shield_chosen"}), _by_card, label="shield chosen"),
           OrderStep("duelmasters:U4", frozenset({"broken"}), _by_card, label="shield broken"),
           OrderStep("duelmasters:U5", frozenset({"used"}), _by_card, where=_ability_in("s_trigger"), label="Ｓ・トリガー used")),
          "U2 < U4 < U5 per shield: the shield is chosen, broken, then its Ｓ・トリガー used."),
    Order("duelmasters.no-block-after-shield", "duelmasters",
          (OrderStep("duelmasters:A3", frozenset({"blocked"}), label="blocked"),
           OrderStep("duelmasters:U3", frozenset({"shield_chosen"}), label="shield chosen")),
          "U3: once the shield has been chosen no block is possible (a block comes first).", scope="attack"),
    Order("duelmasters.after-battle", "duelmasters",
          (OrderStep("duelmasters:B3", frozenset({"won_battle", "lost_battle"}), label="battle"),
           OrderStep("duelmasters:C6", frozenset({"triggered"}), where=_ability_in(*_AFTER_BATTLE), label="after-battle triggers"),
           OrderStep("duelmasters:C7", frozenset({"resolved"}), where=lambda a, s: a.get("ability") in _AFTER_BATTLE
                and a.get("player") == s.active, label="active player's after-battle effects"),
           OrderStep("duelmasters:C7", frozenset({"resolved"}), where=lambda a, s: a.get("ability") in _AFTER_BATTLE
                and a.get("player") != s.active, label="the other player's after-battle effects")),
          "B3 < C6 < C7: after the battle the after-battle effects trigger and resolve, active player's first.",
          scope="attack"),
    # ---------------------------------------------------------------- Magic (seed 003, CR)
    Order("mtg.attack-block-damage", "mtg",
          (OrderStep("mtg:508.1k", frozenset({"became_attacker"}), _by_card, label="attacks"),
           OrderStep("mtg:509.1g", frozenset({"became_blocker"}), _by_attacker, label="is blocked")),
          "508 before 509: blockers block creatures already attacking."),
    Order("mtg.battle-damage-before-sba", "mtg",
          (OrderStep("mtg:310.6", frozenset({"counters_removed"}), _by_card, where=_is(kind="defense"),
                label="defense counters removed"),
           OrderStep("mtg:310.7", frozenset({"moved"}), _by_card, where=lambda a, s: a.get("from") == "battlefield"
                and a.get("to") == "graveyard" and a.get("card") in s.battles, label="battle put into the graveyard")),
          "310.6 before 310.7: the damage removes the counters, then the SBA puts the battle with 0 defense away."),
    Order("mtg.siege-trigger-before-cast", "mtg",
          (OrderStep("mtg:310.6", frozenset({"counters_removed"}), _by_card, where=_is(kind="defense", left=0),
                label="last defense counter removed"),
           OrderStep("mtg:310.11b", frozenset({"resolved"}), _by_card, where=_ability_in("siege"), label="Siege trigger resolves"),
           OrderStep("mtg:310.11b", frozenset({"moved"}), _by_card, where=_is(to="exile", **{"from": "battlefield"}),
                     label="exiled"),  # the trigger's exile; a later one (800.4a: its caster leaves) is from the stack
           OrderStep("mtg:310.11b", frozenset({"cast"}), _by_card, where=_is(face="back"), label="cast transformed")),
          "310.11b: the last counter goes, the Siege trigger resolves, exiles the battle, then it may be cast."),
)


def orders(game: str) -> list[Order]:
    return [o for o in ORDERS if o.game == game]


def _events(trace: Iterable[Any]) -> list[tuple[int, str, dict[str, Any]]]:
    out = []
    for e in trace:
        if isinstance(e, Mapping):
            out.append((int(e["moment"]), str(e["kind"]), dict(e.get("args") or {})))
        else:
            out.append((int(e.moment), str(e.kind), dict(e.args or {})))
    return out


def _scopes(kind: str, events: list[tuple[int, str, dict[str, Any]]]) -> list[Scope]:
    active = next((a.get("player") for _, k, a in events if k == "decided"), None)
    battles = {a.get("card") for _, k, a in events if k == "counters_removed" and a.get("kind") == "defense"}
    if kind == "trace":
        scopes = [Scope("trace", events, active)]
    else:
        opens, closes = {"resolution": ("chose_attacker", "battle_resolution_ended"),
                         "attack": ("attacked", "attack_ended")}[kind]
        scopes, current = [], None
        for ev in events:
            _, k, a = ev
            if k == opens:
                current = Scope(f"{kind} of {a.get('card')}", [], active)
                scopes.append(current)
            if current is not None:
                current.events.append(ev)
            if k == closes:
                current = None
    for s in scopes:
        s.battles = battles
        s.losers = {a.get("card") for _, k, a in s.events if k == "lost_battle"}
    return scopes


def _pairs(game: str, trace: Iterable[Any]):
    """Every (order, earlier step, later step, key, their moments, scope) the trace gives a comparison for."""
    events = _events(trace)
    for order in orders(game):
        for scope in _scopes(order.scope, events):
            picked: list[dict[Any, list[int]]] = [{} for _ in order.steps]
            for moment, kind, args in scope.events:
                for i, step in enumerate(order.steps):
                    if step.picks(kind, args, scope):
                        picked[i].setdefault(step.key(args), []).append(moment)
            for i in range(len(order.steps)):
                for j in range(i + 1, len(order.steps)):
                    for key, firsts in picked[i].items():
                        thens = picked[j].get(key)
                        if thens:
                            yield order, i, j, key, firsts, thens, scope


def applied(game: str, trace: Iterable[Any]) -> set[str]:
    """The orders the trace gives at least one comparison for (whether kept or broken)."""
    return {order.id for order, *_ in _pairs(game, trace)}


def check_order(game: str, trace: Iterable[Any]) -> list[Violation]:
    """Every ordering constraint of ``game`` the trace breaks: one violation per pair of steps and key."""
    out: list[Violation] = []
    for order, i, j, key, firsts, thens, scope in _pairs(game, trace):
        if max(firsts) < min(thens):
            continue
        a, b = order.steps[i], order.steps[j]
        out.append(Violation(
            order.id, (a.clause, b.clause) if a.clause != b.clause else (a.clause,),
            a.label, b.label, key, max(firsts), min(thens), scope.name,
            f"{order.id}: {a.label} ({a.clause}) at moment {max(firsts)} is not before "
            f"{b.label} ({b.clause}) at moment {min(thens)}" + (f" for {key}" if key != "*" else "")
            + f" [{scope.name}]"))
    return out
