"""Scripts: decisions drawn one at a time from what the reference engine asks at each point.

At every point :mod:`oracle.core.legality` says who decides, which kinds, and lists the legal decisions;
a script entry is one of them (mostly), or on purpose an illegal one: a pseudo-legal candidate of the
game's own generator that the check refuses, a kind the point does not ask, or the right kind from the
wrong player. An illegal entry is refused and the same point asks again. At an open point the script
may stop. Shrinking goes to fewer entries and to the first legal option of each point.
"""

from __future__ import annotations

import importlib
import itertools
from typing import Any

from hypothesis import assume, strategies as st

from oracle.core import legality
from oracle.model import CaseRequest

from .boards import ints, one_in, pick
from .facts import GameFacts, facts

MAX_ENTRIES = 16
"""Entries a script may have before the case is given up (the game did not reach an open point)."""
ILLEGAL_ONE_IN = 8
"""About one entry in this many is illegal on purpose."""
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


def refused_candidates(f: GameFacts, p: legality.Pending) -> list[legality.Option]:
    """Pseudo-legal candidates of the game's generator that the check refuses here (a bounded sample)."""
    rules = importlib.import_module(f.legality)
    out = []
    for kind, args in itertools.islice(rules.candidates(p.state, p.point), REFUSED_SAMPLE):
        option = legality.Option(p.point.player, kind, args)
        if p.judge(option) is not None:
            out.append(option)
    return out


def acting_first(options: tuple[legality.Option, ...]) -> list[legality.Option]:
    """Decisions with arguments before those without (``end_turn``, ``pass``, ``no_block``): the first
    option, where Hypothesis draws often and shrinks to, moves the game on rather than ending it."""
    return [o for o in options if o.args is not None] + [o for o in options if o.args is None]


def players_of(setup: dict[str, Any]) -> list[str]:
    return list(setup["players"])


def illegal(draw, f: GameFacts, p: legality.Pending, players: list[str]) -> dict[str, Any] | None:
    """An entry the point refuses, or None when none could be made here."""
    how = draw(pick(("refused_candidate", "other_kind", "wrong_player")))
    if how == "refused_candidate":
        refused = refused_candidates(f, p)
        if refused:
            return refused[draw(ints(0, len(refused) - 1))].as_entry()
    if how == "other_kind":
        others = [k for k in f.decisions if k not in p.kinds]
        if others:
            return {"player": p.player, "kind": draw(pick(tuple(others))), "args": None}
    others = [q for q in players if q != p.player]
    if others and p.legal:
        option = p.legal[draw(ints(0, len(p.legal) - 1))]
        return {"player": draw(pick(tuple(others))), "kind": option.kind, "args": option.args}
    return None


@st.composite
def scripts(draw, game: str, ruleset: str, setup: dict[str, Any]) -> list[dict[str, Any]]:
    """A script for this board, built point by point from the legality API (see the module docstring)."""
    return draw_script(draw, game, ruleset, setup)


def draw_script(draw, game: str, ruleset: str, setup: dict[str, Any]) -> list[dict[str, Any]]:
    """:func:`scripts` inside another strategy (no strategy object built per board)."""
    f = facts(game)
    players = players_of(setup)
    script: list[dict[str, Any]] = []
    while True:
        p = legality.legal_decisions(request(game, ruleset, setup, script), len(script))
        if p.point is None:
            return script
        if p.optional and script and draw(ints(0, STOP_ONE_IN - 1)) == 0:  # shrinks to stopping: fewer decisions
            return script
        assume(len(script) < MAX_ENTRIES)
        entry = None
        if one_in(draw, ILLEGAL_ONE_IN):
            entry = illegal(draw, f, p, players)
        if entry is None:
            if not p.legal:  # nothing legal is listed (not enumerated, or none): the game cannot go on here
                assume(p.optional)
                return script
            options = acting_first(p.legal)
            entry = options[draw(ints(0, len(options) - 1))].as_entry()
        script.append(entry)
