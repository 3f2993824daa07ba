"""Generated cases: a board and a script, played on the reference engine, as an ordinary :class:`Case`.

:func:`plays` is the strategy (a :class:`Play`: request and the reference's reply); :func:`expectations`
turns the reference's reply into expectations (all of them, or a chosen few); :func:`to_case` makes the
case model (``source: {kind: generated, seed, command, date}``), so the runner, the comparison and the
reports treat it like any golden case.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import cache
from typing import Any, Iterable

from hypothesis import strategies as st

from oracle import registry
from oracle.model import Case, CaseReply, CaseRequest

from .boards import draw_board_and_hint, rulesets
from .scripts import draw_script_and_reply, request


@dataclass(frozen=True)
class Play:
    """A generated board and script, and what the reference engine made of them."""

    game: str
    ruleset: str
    setup: dict[str, Any]
    script: list[dict[str, Any]]
    request: CaseRequest
    reply: CaseReply

    @property
    def clauses(self) -> list[str]:
        """The catalog clauses the reference engine's trace is tagged with, in order of first use."""
        return list(dict.fromkeys(e.clause for e in self.reply.trace if e.clause))

    @property
    def board_key(self) -> str:
        return hashlib.sha1(json.dumps(self.setup, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]


def reference(req: CaseRequest) -> CaseReply:
    return registry.get(req.game).run(req)


def plays(game: str, abilities: Iterable[str] | None = None, seeds: bool = True) -> st.SearchStrategy[Play]:
    """A board of ``game`` (cards and abilities within ``abilities`` when given), a script drawn from the
    legal decisions at each point, and the reference engine's reply. A board the reference engine cannot
    set up (a script error, a setup it refuses) is rejected, not reported."""
    return _plays(game, None if abilities is None else frozenset(abilities), seeds)


@cache
def _plays(game: str, abilities: frozenset[str] | None, seeds: bool) -> st.SearchStrategy[Play]:
    return st.composite(lambda draw: draw_play(draw, game, abilities, seeds))()


def draw_play(draw, game: str, abilities: frozenset[str] | None = None, seeds: bool = True) -> Play:
    """:func:`plays` inside another strategy."""
    setup, hint, seed_rulesets = draw_board_and_hint(draw, game, abilities, seeds)
    ruleset = draw(rulesets(game, seed_rulesets))  # a mutated golden board under one of its case's rulesets
    # a board the reference engine cannot set up is rejected by the run that draws the script
    script, reply = draw_script_and_reply(draw, game, ruleset, setup, hint, unplayable_rejected=True)
    req = request(game, ruleset, setup, script)
    return Play(game, ruleset, setup, script, req, reply)


# -- expectations from the reference's reply --------------------------------------------------------

def moments_of(reply: CaseReply) -> list[list[dict[str, Any]]]:
    """The trace as expected moments (each ``[{kind: fields}, ...]``)."""
    out: dict[int, list[dict[str, Any]]] = {}
    for e in reply.trace:
        out.setdefault(e.moment, []).append({e.kind: dict(e.args)})
    return list(out.values())


def refusals(reply: CaseReply) -> list[dict[str, Any]]:
    if reply.decisions is not None:
        return [{"at": d.at, "reason": d.reason} for d in reply.decisions if d.outcome == "refused"]
    return [{"at": e.args["at"], "reason": e.args["reason"]} for e in reply.trace if e.kind == "rejected"]


def expectations(reply: CaseReply, *, events: Any = "all", final: Any = "all", winner: bool = True) -> dict[str, Any]:
    """Expectations the reference's reply meets. Every refusal is always expected (a refusal a case does not
    expect fails it). ``events``: ``"all"`` (the whole trace, ``exact``), a list of moment indexes (in order),
    or None; ``final``: ``"all"``, a list of ``(players|cards, id, field)``, or None; ``winner``: assert it."""
    expect: dict[str, Any] = {"rejected": refusals(reply)}
    ms = moments_of(reply)
    if events == "all":
        if ms:
            expect["events"], expect["exact"] = ms, True
    elif events:
        expect["events"] = [ms[i] for i in events]
    if final == "all":
        expect["final"] = reply.final
    elif final:
        out: dict[str, Any] = {}
        for part, oid, field in final:
            out.setdefault(part, {}).setdefault(oid, {})[field] = reply.final[part][oid].get(field)
        expect["final"] = out
    if winner:
        expect["winner"] = reply.winner
    return expect


def final_fields(reply: CaseReply) -> list[tuple[str, str, str]]:
    """Every ``(players|cards, id, field)`` of the reply's final state."""
    return [(part, oid, field) for part in ("players", "cards") for oid, fields in (reply.final.get(part) or {}).items()
            for field in fields]


def to_case(play: Play, expect: dict[str, Any], *, seed: Any, command: str, title: str | None = None,
            case_id: str | None = None) -> Case:
    """The generated case (validated as any case file is)."""
    digest = hashlib.sha1(json.dumps([play.setup, play.script], sort_keys=True, ensure_ascii=False).encode())
    rules = play.clauses or [c.id for c in registry_catalog(play.game)[:1]]
    return Case.model_validate({
        "id": case_id or f"generated.{play.game}.{digest.hexdigest()[:10]}",
        "game": play.game, "rulesets": [play.ruleset],
        "title": title or f"Generated {play.game} board with {len(play.script)} decisions",
        "source": {"kind": "generated", "seed": seed, "command": command,
                   "date": datetime.now(timezone.utc).isoformat(timespec="seconds")},
        "rules": rules, "setup": play.setup,
        "script": [{e["player"]: {e["kind"]: e["args"]}} for e in play.script], "expect": expect})


def registry_catalog(game: str):
    from .facts import facts

    return facts(game).catalog.clauses
