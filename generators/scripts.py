"""Scripts: decisions drawn one at a time from what the reference engine asks at each point.

At every point :mod:`oracle.core.legality` says who decides, which kinds, and lists the legal decisions;
a script entry is one of them (mostly), or on purpose an illegal one: a pseudo-legal candidate of the
game's own generator that the check refuses, a kind the point does not ask, or the right kind from the
wrong player. An illegal entry is refused and the same point asks again. At an open point the script
may stop. Shrinking goes to fewer entries and to the first legal option of each point.
"""

from __future__ import annotations

import dataclasses
import importlib
import itertools
from typing import Any

from hypothesis import assume, reject, strategies as st

from oracle import registry
from oracle.core import legality
from oracle.core.errors import ScriptError
from oracle.model import CaseRequest

from .boards import index, ints, one_in, pick
from .facts import GameFacts, facts

MAX_ENTRIES = 16
"""Entries a script may have before the case is given up (the game did not reach an open point)."""
ILLEGAL_ONE_IN = 6
"""About one entry in this many is illegal on purpose."""
HINT_ONE_IN = 8
"""On a board mutated from a golden case, its script's entry is taken all but about once in this many."""
STOP_ONE_IN = 8
"""At an open point after the first entry, the script stops about once in this many."""
REFUSED_SAMPLE = 200
"""Pseudo-legal candidates looked at for refused ones at a point."""


def request(game: str, ruleset: str, setup: dict[str, Any], script: list[dict[str, Any]],
            case_id: str = "generated") -> CaseRequest:
    """The request an engine sees for this board and script (the card definitions it uses)."""
    pool = facts(game).pool
    names = sorted({c["card"] for p in setup["players"].values() for z in p.values() if isinstance(z, list)
                    for c in z})
    cards = {n: pool[n].model_dump(mode="json", exclude_none=True) for n in names}
    return CaseRequest(id=case_id, game=game, ruleset=ruleset, setup=setup, script=script, cards=cards)


def _candidates(f: GameFacts, p: legality.Pending, point: Any) -> list[tuple[str, Any]]:
    """The game's pseudo-legal candidates at ``point`` (a bounded sample; none when the game's generator
    cannot make them there, e.g. it reads what the point's own validator offers)."""
    rules = importlib.import_module(f.legality)
    try:
        return list(itertools.islice(rules.candidates(p.state, point), REFUSED_SAMPLE))
    except (LookupError, AttributeError, TypeError):
        return []


def refused_candidates(f: GameFacts, p: legality.Pending) -> dict[str, list[legality.Option]]:
    """Pseudo-legal candidates of the game's generator that the check refuses here (a bounded sample), by
    reason (so that each reason, and the clause it is tagged with, is as likely as any other)."""
    out: dict[str, list[legality.Option]] = {}
    for kind, args in _candidates(f, p, p.point):
        option = legality.Option(p.point.player, kind, args)
        verdict = p.judge(option)
        if verdict is not None:
            out.setdefault(verdict.reason, []).append(option)
    return out


def _may_end(game: str, ruleset: str, setup: dict[str, Any], script: list[dict[str, Any]]) -> bool:
    """Whether the case may end here: an open point lets the script run out, but the engine may then go on
    to a decision that is not optional (Magic's passes at an open point lead on to the next step)."""
    try:
        registry.get(game).run(request(game, ruleset, setup, script))
    except ScriptError:
        return False
    return True


def acting_first(options: tuple[legality.Option, ...]) -> list[legality.Option]:
    """Decisions with arguments before those without (``end_turn``, ``pass``, ``no_block``): the first
    option, where Hypothesis draws often and shrinks to, moves the game on rather than ending it."""
    return [o for o in options if o.args is not None] + [o for o in options if o.args is None]


def players_of(setup: dict[str, Any]) -> list[str]:
    return list(setup["players"])


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(k) | _strings(v) for k, v in value.items())) if value else set()
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


def _replace(value: Any, old: str, new: str) -> Any:
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, dict):
        return {_replace(k, old, new): _replace(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [_replace(v, old, new) for v in value]
    return value


def illegal(draw, f: GameFacts, p: legality.Pending, players: list[str], objects: tuple[str, ...] = ()) -> dict[str, Any] | None:
    """An entry the point refuses, or None when none could be made here."""
    how = draw(pick(("refused_candidate", "substituted", "other_kind", "wrong_player")))
    if how == "substituted" and p.legal:  # a legal decision naming another card or player instead of one of its own
        option = p.legal[index(draw, len(p.legal))]
        names = sorted(_strings(option.args) & set(objects))
        if names:
            old = draw(pick(tuple(names)))
            new = draw(pick(tuple(objects)))
            entry = {"player": p.player, "kind": option.kind, "args": _replace(option.args, old, new)}
            if p.judge(entry) is not None:
                return entry
    if how == "refused_candidate":
        by_reason = refused_candidates(f, p)
        if by_reason:
            refused = list(by_reason.values())[index(draw, len(by_reason))]
            return refused[index(draw, len(refused))].as_entry()
    if how == "other_kind":  # a kind not asked here, with arguments the game would give it where it is asked
        others = [k for k in f.decisions if k not in p.kinds]
        if others:
            kind = draw(pick(tuple(others)))
            args = [a for _, a in _candidates(f, p, dataclasses.replace(p.point, kinds=(kind,)))]
            return {"player": p.player, "kind": kind, "args": args[index(draw, len(args))] if args else None}
    others = [q for q in players if q != p.player]
    if others and p.legal:
        option = p.legal[draw(ints(0, len(p.legal) - 1))]
        return {"player": draw(pick(tuple(others))), "kind": option.kind, "args": option.args}
    return None


@st.composite
def scripts(draw, game: str, ruleset: str, setup: dict[str, Any]) -> list[dict[str, Any]]:
    """A script for this board, built point by point from the legality API (see the module docstring)."""
    return draw_script(draw, game, ruleset, setup)


def draw_script(draw, game: str, ruleset: str, setup: dict[str, Any],
                hint: tuple[dict[str, Any], ...] = ()) -> list[dict[str, Any]]:
    """:func:`scripts` inside another strategy (no strategy object built per board). ``hint``: a golden
    script for the board this one was mutated from; its entry N is often taken as entry N here, legal or not
    on the changed board (the engine judges it as any other)."""
    f = facts(game)
    players = players_of(setup)
    objects = (*players, *sorted({c["id"] for q in setup["players"].values() for z in q.values()
                                  if isinstance(z, list) for c in z}))
    script: list[dict[str, Any]] = []
    refused_last = False
    while True:
        try:
            p = legality.legal_decisions(request(game, ruleset, setup, script), len(script))
        except ScriptError:  # the engine does not read this prefix as the legality API's points did: skip it
            reject()
        if p.point is None:
            return script
        # not right after a refused entry: an engine that goes on by itself at an open point (Magic's passes)
        # would show events after the refusal with no decision between, which reads as a refusal that changed
        # something
        if p.optional and script and not refused_last and draw(ints(0, STOP_ONE_IN - 1)) == 0 \
                and _may_end(game, ruleset, setup, script):
            return script  # shrinks to stopping: fewer decisions
        assume(len(script) < MAX_ENTRIES)
        entry = None
        if len(script) < len(hint) and draw(ints(0, HINT_ONE_IN - 1)) > 0:
            entry = dict(hint[len(script)])
        elif one_in(draw, ILLEGAL_ONE_IN):
            entry = illegal(draw, f, p, players, objects)
        if entry is None:
            if not p.legal:  # nothing legal is listed (not enumerated, or none): the game cannot go on here
                assume(p.optional)
                return script
            options = acting_first(p.legal)
            entry = options[index(draw, len(options))].as_entry()
        refused_last = p.judge(entry) is not None
        script.append(entry)
