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
from oracle.core.errors import OracleError, ScriptError
from oracle.harness.request import with_referenced
from oracle.model import CaseReply, CaseRequest

from .boards import index, ints, one_in, pick
from .facts import GameFacts, facts

MAX_ENTRIES = 16
"""Entries a script may have; it then ends at the next open point where it may, else the case is given up."""
ILLEGAL_ONE_IN = 6
"""About one entry in this many is illegal on purpose."""
HINT_ONE_IN = 8
"""On a board mutated from a golden case, its script's entry is taken all but about once in this many."""
STOP_ONE_IN = 8
"""At an open point after the first entry, the script stops about once in this many."""
LISTED = 1024
"""Candidates judged at a point for its legal decisions: a board of many creatures has tens of thousands of
attack declarations; the script draws from the first ones (the games list them smallest first)."""
REFUSED_SAMPLE = 200
"""Pseudo-legal candidates looked at for refused ones at a point."""


def card_definitions(game: str, setup: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The card pool's definitions of the cards of a board, by name."""
    pool = facts(game).pool
    cards = [c for p in setup["players"].values() for z in p.values() if isinstance(z, list) for c in z]
    names = with_referenced({c["card"] for c in cards}, pool, [c.get("abilities") or [] for c in cards])
    return {n: pool[n].model_dump(mode="json", exclude_none=True) for n in sorted(names)}


def request(game: str, ruleset: str, setup: dict[str, Any], script: list[dict[str, Any]],
            case_id: str = "generated", cards: dict[str, dict[str, Any]] | None = None) -> CaseRequest:
    """The request an engine sees for this board and script (the card definitions it uses; ``cards``: those
    :func:`card_definitions` gave for this board already -- the engines only read them)."""
    cards = card_definitions(game, setup) if cards is None else cards
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
        if verdict is not None and kind not in f.any_time:
            out.setdefault(verdict.reason, []).append(option)
    return out


def _may_end(game: str, ruleset: str, setup: dict[str, Any], script: list[dict[str, Any]],
             cards: dict[str, dict[str, Any]] | None = None) -> CaseReply | None:
    """The reference engine's reply when the case may end here, else None: an open point lets the script run
    out, but the engine may then go on to a decision that is not optional (Magic's passes at an open point
    lead on to the next step)."""
    try:
        return registry.get(game).run(request(game, ruleset, setup, script, cards=cards))
    except ScriptError:
        return None


def _left_out_before(game: str, ruleset: str, setup: dict[str, Any], script: list[dict[str, Any]],
                     entry: dict[str, Any], cards: dict[str, dict[str, Any]] | None = None) -> bool:
    """Whether the game's shorthand reads ``entry`` after ``script`` as decisions left out and then ``entry``
    at a later point (Magic: another player's pass where one has priority is an implied pass first), rather
    than as a decision refused where the run stands."""
    try:
        out = registry.get(game).explicit_script(request(game, ruleset, setup, [*script, entry], cards=cards))
    except OracleError:
        return False
    return len(out) > len(script) + 1


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
        others = [k for k in f.decisions if k not in p.kinds and k not in f.any_time]
        if others:
            kind = draw(pick(tuple(others)))
            args = [a for _, a in _candidates(f, p, dataclasses.replace(p.point, kinds=(kind,)))]
            return {"player": p.player, "kind": kind, "args": args[index(draw, len(args))] if args else None}
    others = [q for q in players if q != p.player]
    legal = [o for o in p.legal if o.kind not in f.any_time]  # another player conceding is no refusal by the rules
    if others and legal:
        option = legal[draw(ints(0, len(legal) - 1))]
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
    on the changed board (the engine judges it as any other). The reference engine plays the board once
    (:func:`oracle.core.legality.drive`): each entry is drawn as the run reaches its point."""
    return draw_script_and_reply(draw, game, ruleset, setup, hint)[0]


def draw_script_and_reply(draw, game: str, ruleset: str, setup: dict[str, Any],
                          hint: tuple[dict[str, Any], ...] = (), *,
                          unplayable_rejected: bool = False) -> tuple[list[dict[str, Any]], CaseReply]:
    """:func:`draw_script`, and the reference engine's reply to the whole script (when the script stopped at
    an open point, the run that showed it may end there). A script the engine reads otherwise than the run
    that built it (an entry accepted there, refused here, or the other way round) is rejected.
    ``unplayable_rejected``: a board the engine refuses (an :class:`OracleError` before its first decision
    point, as :func:`oracle.core.legality.pending` would raise at entry 0) is rejected too, found by the same
    run rather than one of its own."""
    f = facts(game)
    cards = card_definitions(game, setup)  # once per board: every request of this board carries them
    asked = False  # whether the run reached a point (the chooser was called)
    players = players_of(setup)
    objects = (*players, *sorted({c["id"] for q in setup["players"].values() for z in q.values()
                                  if isinstance(z, list) for c in z}))
    script: list[dict[str, Any]] = []
    refused_last = False
    refused: list[bool] = []  # each entry as the run that built the script read it
    ended: list[CaseReply] = []

    def choose(p: legality.Pending) -> dict[str, Any] | None:
        nonlocal refused_last, asked
        asked = True
        # not right after a refused entry: an engine that goes on by itself at an open point (Magic's passes)
        # would show events after the refusal with no decision between, which reads as a refusal that changed
        # something
        full = len(script) >= MAX_ENTRIES
        # a mutated golden board plays on while its case's script has entries: the case's own end first
        if p.optional and script and not refused_last and \
                (full or (len(script) >= len(hint) and draw(ints(0, STOP_ONE_IN - 1)) == 0)):
            reply = _may_end(game, ruleset, setup, script, cards)
            if reply is not None:
                ended.append(reply)
                return None  # shrinks to stopping: fewer decisions
        assume(not full)  # a long script ends at the first open point where it may (not rejected: Magic's passes)
        entry = None
        if len(script) < len(hint) and draw(ints(0, HINT_ONE_IN - 1)) > 0:
            entry = dict(hint[len(script)])
        else:  # the legal decisions are listed only here (a hint or a stop does not need them)
            p = legality.enumerate_legal(p, limit=LISTED)
            if one_in(draw, ILLEGAL_ONE_IN):
                entry = illegal(draw, f, p, players, objects)
        if entry is not None and entry.get("kind") in f.any_time and p.judge(entry) is not None:
            entry = None  # a golden concede where this board refuses it: refused only by the suite's reading
        if entry is not None and f.shorthand and p.judge(entry) is not None \
                and _left_out_before(game, ruleset, setup, script, entry, cards):
            entry = None  # the game would not refuse it here but take decisions left out first: a legal one
        if entry is None:
            p = legality.enumerate_legal(p, limit=LISTED) if not p.legal else p
            if not p.legal:  # nothing legal is listed (not enumerated, or none): the game cannot go on here
                assume(p.optional)
                return None
            options = acting_first(p.legal)
            entry = options[index(draw, len(options)) if len(options) > 1 else 0].as_entry()  # no choice to draw
        refused_last = p.judge(entry) is not None
        refused.append(refused_last)
        script.append(entry)
        return entry

    try:
        legality.drive(request(game, ruleset, setup, [], cards=cards), choose, listed=None)
    except ScriptError:  # the engine cannot play this board as the points it asked said: not a case
        reject()
    except OracleError:
        if unplayable_rejected and not asked:  # the board itself is refused: not a case
            reject()
        raise
    if ended:
        reply = ended[0]
    else:
        try:
            reply = registry.get(game).run(request(game, ruleset, setup, script, cards=cards))
        except ScriptError:  # the script ran out where the run that built it saw an open point: not a case
            reject()
    # A game with a shorthand may read the finished script otherwise than the run that built it, entry by
    # entry (Magic: an entry that is no pass or cast of the player with priority is an implied pass there,
    # and is taken at a later point): the script is not what was drawn, so it is not a case.
    read = {e.args.get("at"): e.kind == "rejected" for e in reply.trace if e.kind in ("decided", "rejected")}
    if [read.get(i) for i in range(len(script))] != refused:
        reject()
    return script, reply
