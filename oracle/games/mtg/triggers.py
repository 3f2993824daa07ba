"""Composed triggered abilities (issue 25; oracle.core.compose): which abilities an event triggers (603.2), how
they go on the stack with their targets (603.3, 603.3d, 601.2c) and how they resolve (603.5, 608.2b, 608.2c).

A permanent's triggered abilities are its ``triggered`` compositions and its named triggered abilities read as
compositions through :data:`abilities.SHORTHAND` (``attack_drain``); the Siege's 310.11b trigger stays named
(``siege``, abilities.TRIGGER_EFFECTS: it is tied to CR 310). A triggered ability on the stack is a
:class:`~.state.StackItem` whose ``data["composed"]`` is its :class:`~oracle.core.compose.Triggered`.
"""

from __future__ import annotations

from typing import Any

from ...core.board import Card
from ...core.compose import SUBJECT, THIS, Triggered, compositions, watched
from ...core.script import Refusal, Script
from .clauses import CR508_1M, CR603_3D, CR603_4, CR603_5, CR603_6A, CR603_6C, CR603_10A, CR608_2B
from .abilities import COMPOSED_EFFECTS, SHORTHAND
from .state import StackItem, State, every, matches

EVENT_CLAUSES = {"entered": CR603_6A, "became_attacker": CR508_1M, "put_into_graveyard": CR603_6C}
"""The clause a composed trigger's ``triggered`` and ``resolved`` entries carry, by its event."""


def triggered_abilities(c: Card) -> list[Triggered]:
    """The card's triggered abilities as compositions, in the order the card lists them: ``triggered`` ones and
    named ones that are shorthand (abilities.SHORTHAND)."""
    return compositions(c.abilities, SHORTHAND)


# -- filters ---------------------------------------------------------------------------------------------------

# -- triggering (603.2) ------------------------------------------------------------------------------------------

def fire(st: State, event: str, about: str, *, before: list[tuple[Card, str]] | None = None,
         controller: str | None = None, types: list[str] | None = None, **data: Any) -> None:
    """603.2: an event about permanent ``about`` happened; every composed triggered ability of a permanent on the
    battlefield (603.6a: the newcomers included) whose trigger matches it triggers: it waits in ``st.pending`` for
    the next time a player would receive priority, and a ``triggered`` entry says so. A leaves-the-battlefield event
    looks back in time (603.10a): ``before`` holds the permanents on the battlefield immediately before it, each with
    its controller then (the leaving ones included), and ``controller`` and ``types`` are the leaving permanent's
    then."""
    subject = st.card(about)
    watchers = before if before is not None else [(c, c.controller) for c in st.battlefield()]
    _trigger(st, event, about, controller or subject.controller, types if types is not None else st.types(subject),
             watchers, data)


def _trigger(st: State, event: str, about: str, about_controller: str, about_types: list[str],
             watchers: list[tuple[Card, str]], data: dict[str, Any]) -> None:
    for c, controller in watchers:
        for ab in triggered_abilities(c):
            w = ab.when
            if w.event != event or not watched(w.watch, controller, c.id, about, about_controller):
                continue
            if not _event_condition(about_types, w.condition, data) or not holds(st, ab.condition, c.id, controller):
                continue  # 603.4: an intervening "if" false as the event occurs: it does not trigger
            st.pending.append(StackItem(c.id, controller, ab.name, [], {"composed": ab, "subject": about, **data}))
            looked_back = c.zone != "battlefield"  # 603.10a: it left too, and triggers as it was
            clause = CR603_10A if looked_back else CR603_4 if ab.condition else EVENT_CLAUSES[event]
            st.trace.emit("triggered", st.c(clause), card=c.id, ability=ab.name, player=controller)


def holds(st: State, cond: dict[str, Any] | None, source: str, controller: str) -> bool:
    """603.4's intervening "if" of an ability of ``source`` controlled by ``controller``: ``you_control`` -- they
    control at least ``at_least`` permanents of the kind ``is``."""
    if not cond:
        return True
    control = cond.get("you_control")
    if control is not None:
        mine = every(st, {"is": control.get("is", "permanent"), "controller": "you"}, source, controller)
        if len(mine) < int(control["at_least"]):
            return False
    return True


def rechecked(st: State, ab: Triggered, item: StackItem) -> bool:
    """603.4: "it checks the stated condition again as it resolves"."""
    return holds(st, ab.condition, item.card, item.controller)


def _event_condition(types: list[str], cond: dict[str, Any] | None, data: dict[str, Any]) -> bool:
    if not cond:
        return True
    kind = cond.get("is")
    if kind is not None and kind != "permanent" and kind not in types:
        return False
    least = cond.get("attackers_at_least")
    return least is None or data.get("attackers", 0) >= least


# -- putting on the stack (603.3d) ---------------------------------------------------------------------------------

def put_on_stack(st: State, script: Script, item: StackItem) -> bool:
    """603.3d: a composed ability's controller chooses its targets as it is put on the stack (601.2c), by the names
    the ability gives them (``choose_targets``). With too few legal choices for a target it is removed from the
    stack (a ``countered`` entry, tagged 603.3d). False: it was removed."""
    ab: Triggered | None = item.data.get("composed")
    chosen_ones = [t for t in ab.targets if not t.every] if ab else []
    if not chosen_ones:
        st.stack.append(item)
        return True
    assert ab is not None
    for t in chosen_ones:
        if len(every(st, t.filter, item.card, item.controller)) < int(t.count):
            st.trace.emit("countered", st.c(CR603_3D), card=item.card)
            return False
    st.stack.append(item)

    def valid(d) -> dict[str, list[str]]:
        args = d.args
        if not isinstance(args, dict) or set(args) != {t.name for t in chosen_ones}:
            raise Refusal("malformed_decision", f"choose_targets takes {{{', '.join(t.name for t in chosen_ones)}: "
                                                f"id or [id, ...]}}")
        out: dict[str, list[str]] = {}
        for t in chosen_ones:
            ids = args[t.name] if isinstance(args[t.name], list) else [args[t.name]]
            if len(ids) != int(t.count) or len(set(map(str, ids))) != len(ids):
                raise Refusal("illegal_target", f"{t.name}: choose {t.count} distinct target(s), got {ids}",
                              clause=st.c(CR603_3D))
            bad = [x for x in ids if not matches(st, t.filter, x, item.card, item.controller)]
            if bad:
                raise Refusal("illegal_target", f"{t.name}: {bad} not a legal target ({t.filter or 'a permanent'})",
                              clause=st.c(CR603_3D))
            out[t.name] = list(ids)
        return out

    _, chosen = script.decide(item.controller, ("choose_targets",), st.c(CR603_3D), valid)
    item.data["chosen"] = chosen
    item.targets = [x for t in chosen_ones for x in chosen[t.name]]
    return True


# -- resolving (608.2b, 603.5, 608.2c) ------------------------------------------------------------------------------

def resolve(st: State, script: Script, item: StackItem) -> None:
    """A composed ability resolves: 603.4, an intervening "if" now false removes it (``countered``); 608.2b, with
    targets all now illegal it does nothing (``countered``); else
    ``resolved``; 603.5, an optional one asks its controller (``use_optional``); then its effects in order (608.2c),
    each on what its ``on`` names (an illegal target is not acted on)."""
    ab: Triggered = item.data["composed"]
    if not rechecked(st, ab, item):
        st.trace.emit("countered", st.c(CR603_4), card=item.card)
        return
    chosen: dict[str, list[str]] = item.data.get("chosen") or {}
    legal = {n: [x for x in ids if matches(st, ab.target(n).filter, x, item.card, item.controller)]
             for n, ids in chosen.items()}
    if chosen and not any(legal.values()):
        st.trace.emit("countered", st.c(CR608_2B), card=item.card)
        return
    st.trace.emit("resolved", st.c(EVENT_CLAUSES[ab.when.event]), card=item.card, ability=ab.name,
                  player=item.controller)
    if ab.optional:
        def yes_no(d) -> bool:
            if not isinstance(d.args, bool):
                raise Refusal("malformed_decision", "use_optional takes true or false")
            return d.args
        _, use = script.decide(item.controller, ("use_optional",), st.c(CR603_5), yes_no)
        if not use:
            return
    for e in ab.effects:
        on: list[str]
        if e.on == THIS or (e.on is None and e.kind in ("put_p1p1_counters", "defending_player_loses_life")):
            on = [item.card]
        elif e.on == SUBJECT:
            on = [item.data["subject"]]
        elif e.on is None:
            on = []
        else:
            t = ab.target(e.on)
            on = every(st, t.filter, item.card, item.controller) if t.every else legal.get(e.on, [])
        COMPOSED_EFFECTS[e.kind](st, script, item, e.param, on)
