"""Legality as named, enumerable checks: the pending decision, the legal decisions there, and one check.

Three questions about a case's setup played with the first ``prefix_len`` decisions of its script:

- :func:`pending` -- (a) where the reference engine asks for the next decision: who decides, which
  kinds, at which clause (``None`` point when the game ended or the procedure reached its end).
- :func:`legal_decisions` -- (b) the legal decisions there: each game's *pseudo-legal* candidates for every
  kind asked (finite: every subset of the player's cards for a declaration, every assignment of blockers
  to attackers, every player for a protector ...), filtered by the very validators the engine uses into
  the legal ones; ``.legal`` and ``.count``. A kind whose arguments are not finite is listed in
  ``.unenumerated`` with why (nothing of the kind is counted).
- :func:`check` -- (c) one decision: ``None`` when legal, else the :class:`Verdict` the engine refuses it
  with: its reason code (the first in the game's documented precedence, ``cases/<game>/PROCEDURE.md``),
  the clause, and its ``stage``: *well-formedness* (malformed arguments, unknown objects, wrong player,
  unexpected kind: :data:`WELL_FORMED`) or *the rules*. The documented precedence
  interleaves the two (Ijinden checks per card ``unknown_object`` then ``attacker_not_yours``), so the
  split is by reason, in one pass, as the engine refuses.
- :func:`reply` -- the answer to the protocol's ``legality`` query (``accepted``, ``reason``).
- :func:`drive` -- the incremental form of (a) and (b): one run of the setup that, at each point the run
  reaches, hands the pending decision and its legal decisions to a chooser and plays on with the entry it
  picks (a generator builds a whole script in one run, instead of playing every prefix again).

There is one copy of every rule: :meth:`oracle.core.script.DecisionPoint.judge` is what
:meth:`~oracle.core.script.Script.decide` runs on every script entry and what :func:`check` and the
enumeration run here. ``request_like`` is a :class:`~oracle.model.CaseRequest` or a mapping with its fields
(``game``, ``ruleset``, ``setup``, ``script``, ``cards``; the protocol's ``legality`` query is one).

A game provides ``oracle/games/<game>/legality.py`` with ``candidates(state, point)`` (pseudo-legal
``(kind, args)`` pairs for the kinds asked), ``ENUMERATED`` (the kinds it generates: any other kind asked
is reported in ``unenumerated``), ``UNENUMERATED`` (kind -> why its arguments are not finite),
``key(kind, parsed)`` (what makes two accepted decisions the same decision: a declaration is a set) and
optionally ``WELL_FORMED`` (its own well-formedness reasons). A refusal's clause is the one its check names
(``Refusal(..., clause=)``), else the point's.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import inspect
import itertools
from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .. import registry
from ..model import CaseRequest
from ..model import ScriptEntry
from ..errors import ScriptError, Signal
from .game import PROBE, SCRIPT
from .script import Decision, DecisionPoint, Refusal, Script

WELL_FORMED = frozenset({"malformed_decision", "unknown_object", "unexpected_decision", "not_your_decision"})
"""Reasons that say the decision is not well formed here (shape, objects, player, kind), whatever the rules."""

MAX_CANDIDATES = 200_000
"""Pseudo-legal candidates tried at one point before :func:`legal_decisions` stops (``complete=False``)."""


class _Reached(Signal):
    """Not an error: the script ran out here (the probe stops the game to look at the point)."""

    def __init__(self, state: Any, point: DecisionPoint) -> None:
        self.state, self.point = state, point


@dataclass(frozen=True, slots=True)
class Option:
    """One decision, as a script entry: ``{"player", "kind", "args"}``."""

    player: str
    kind: str
    args: Any = None

    def as_entry(self) -> dict[str, Any]:
        return {"player": self.player, "kind": self.kind, "args": self.args}


@dataclass(frozen=True, slots=True)
class Verdict:
    """Why a decision is refused: the reason code, the clause the refused entry is tagged with, and the
    ``stage`` the reason belongs to: ``well_formed`` (:data:`WELL_FORMED`, the point's wrong-player code, the
    game's own: the decision is not a well-formed one here) or ``rules`` (a well-formed decision the rules
    forbid). Only the first reason is given: a decision refused by the rules may have later faults too."""

    reason: str
    clause: str
    stage: Literal["well_formed", "rules"]
    detail: str = ""


@dataclass(frozen=True)
class Pending:
    """The decision the engine asks for after ``at`` script entries (``point`` None: it asks none -- the
    game is over or the procedure ended), with the legal decisions when enumerated."""

    game: str
    at: int
    point: DecisionPoint | None
    state: Any = dataclasses.field(repr=False, default=None)
    winner: str | None = None
    legal: tuple[Option, ...] = ()
    unenumerated: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """Kind asked -> why its legal decisions are not listed (not finite); none of them is in ``legal``."""
    complete: bool = True
    """False when :data:`MAX_CANDIDATES` stopped the enumeration (``legal`` is then a part)."""
    tried: int = 0
    anytime: tuple[Option, ...] = ()
    """The game's decisions of any time that are legal here beside the point's own (Magic: ``concede`` by each
    player still in the game, CR 104.3a), listed apart and not counted in :attr:`count`: like a resignation
    beside a chess position's moves, they are open at every point and change no count of the point's own."""

    @property
    def player(self) -> str | None:
        return self.point.player if self.point else None

    @property
    def kinds(self) -> tuple[str, ...]:
        return self.point.kinds if self.point else ()

    @property
    def clause(self) -> str | None:
        return self.point.clause if self.point else None

    @property
    def optional(self) -> bool:
        """An open point: the player may also stop here (an exhausted script ends the case)."""
        return bool(self.point and self.point.optional)

    @property
    def count(self) -> int:
        return len(self.legal)

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON data: the point and its legal decisions as script entries."""
        return {"at": self.at, "player": self.player, "kinds": list(self.kinds), "clause": self.clause,
                "optional": self.optional, "winner": self.winner, "count": self.count,
                "legal": [o.as_entry() for o in self.legal], "unenumerated": dict(self.unenumerated),
                "complete": self.complete, "anytime": [o.as_entry() for o in self.anytime]}

    @property
    def only(self) -> Option | None:
        """The one legal decision, when there is exactly one and the enumeration is whole (an engine may then
        take it itself: outcome ``automatic``)."""
        return self.legal[0] if self.count == 1 and self.complete and not self.unenumerated else None

    def judge(self, decision: Any) -> Verdict | None:
        """:func:`check` of ``decision`` at this point, without playing the prefix again."""
        if self.point is None:
            raise ScriptError(f"no decision is asked after {self.at} script entries (the game "
                              f"{'is over' if self.winner else 'reached the end of its procedure'})")
        return judge(self.game, self.point, _decision(decision, self.at))[0]

    def same(self, a: Any, b: Any) -> bool:
        """Whether two decisions legal here are the same decision (a declaration is a set: ids in another
        order are the same declaration)."""
        da, db = _decision(a, self.at), _decision(b, self.at)
        (va, pa), (vb, pb) = judge(self.game, self.point, da), judge(self.game, self.point, db)
        if va is not None or vb is not None:
            raise ValueError(f"only legal decisions compare: {va or vb}")
        return key(self.game, da.kind, pa) == key(self.game, db.kind, pb)


# -- (a) the pending decision --------------------------------------------------------------------

def _request(request_like: Any) -> CaseRequest:
    if isinstance(request_like, CaseRequest):
        return request_like
    if not isinstance(request_like, Mapping):
        raise TypeError(f"a legality question takes a CaseRequest or a mapping, not {type(request_like).__name__}")
    missing = [f for f in ("game", "ruleset", "setup", "script") if f not in request_like]
    if missing:
        raise ValueError(f"the legality request lacks {', '.join(missing)}")
    script = [e if isinstance(e, Mapping) and "player" in e and "kind" in e
              else ScriptEntry.model_validate(e).model_dump(mode="json") for e in request_like["script"]]
    return CaseRequest(id=str(request_like.get("id", "legality")), game=request_like["game"],
                       ruleset=request_like["ruleset"], setup=dict(request_like["setup"]), script=script,
                       cards=dict(request_like.get("cards") or {}))


def _game(name: str) -> Any:
    return registry.get(name)  # the registry is the one module that imports games


def _legality_of(game: Any) -> Any:
    """The game's ``legality.py`` (its candidates, keys and well-formedness reasons)."""
    return importlib.import_module(game.legality)


def pending(request_like: Any, prefix_len: int) -> Pending:
    """(a) Play the setup and the first ``prefix_len`` script entries; the decision asked next."""
    request = _request(request_like)
    if not 0 <= prefix_len <= len(request.script):
        raise ValueError(f"prefix_len {prefix_len} is outside the script (0..{len(request.script)})")
    request = request.model_copy(update={"script": request.script[:prefix_len]})
    game = _game(request.game)

    def probe(state: Any):
        def at_end(point: DecisionPoint) -> None:
            raise _Reached(state, point)
        return at_end

    token = PROBE.set(probe)
    try:
        reply = game.run(request)
    except _Reached as reached:
        return Pending(game=request.game, at=prefix_len, point=reached.point, state=reached.state)
    finally:
        PROBE.reset(token)
    return Pending(game=request.game, at=prefix_len, point=None, winner=reply.winner)


# -- (c) one decision ------------------------------------------------------------------------------

def judge(game: str, point: DecisionPoint, decision: Decision) -> tuple[Verdict | None, Any]:
    """The verdict on ``decision`` at ``point`` (None: legal) and, when legal, its parsed form."""
    try:
        return None, point.judge(decision)
    except Refusal as r:
        own = _legality_of(_game(game))
        clause = r.clause or point.clause
        shape = r.reason in WELL_FORMED or r.reason == point.wrong_player or \
            r.reason in getattr(own, "WELL_FORMED", ())
        return Verdict(r.reason, clause, "well_formed" if shape else "rules", r.detail), None


def _decision(entry: Any, at: int) -> Decision:
    if isinstance(entry, Option):
        return Decision(at, entry.player, entry.kind, entry.args)
    if isinstance(entry, Decision):
        return entry
    if not isinstance(entry, Mapping):
        raise TypeError(f"a decision is a mapping {{player: {{kind: args}}}}, not {type(entry).__name__}")
    if "player" not in entry or "kind" not in entry:
        entry = ScriptEntry.model_validate(entry).model_dump(mode="json")
    return Decision(at, entry["player"], entry["kind"], entry.get("args"))


def check(request_like: Any, prefix_len: int, decision: Any) -> Verdict | None:
    """(c) ``None`` when ``decision`` (a script entry, either form) is legal after ``prefix_len`` entries,
    else why it is refused. A decision where the engine asks none is a :class:`ScriptError`."""
    return pending(request_like, prefix_len).judge(decision)


def reply(query: Mapping[str, Any]) -> dict[str, Any]:
    """The reference engine's answer to the protocol's ``legality`` query (``script`` holds entries 0..N-1,
    ``decision`` entry N): ``{"type": "legality", "id", "accepted", "reason"}``."""
    if "decision" not in query:
        raise ValueError("the legality query lacks decision")
    verdict = check(query, len(query.get("script") or ()), query["decision"])
    return {"type": "legality", "id": query.get("id"), "accepted": verdict is None,
            "reason": verdict.reason if verdict else None}


# -- (b) the legal decisions -----------------------------------------------------------------------

def key(game: str, kind: str, parsed: Any) -> Hashable:
    """What identifies an accepted decision (its parsed form as the game's ``key`` sees it)."""
    return (kind, _legality_of(_game(game)).key(kind, parsed))


def enumerate_legal(p: Pending, *, verify_pure: bool = False, limit: int | None = None) -> Pending:
    """The legal decisions at ``p``'s point: the game's candidates, filtered by :meth:`DecisionPoint.judge`,
    one per distinct :func:`key`. ``verify_pure`` raises AssertionError when judging changed the state.
    ``limit``: candidates tried before the enumeration stops (``complete=False``; the game's candidates come
    smallest first, so a part is the smaller decisions); default :data:`MAX_CANDIDATES`."""
    limit = MAX_CANDIDATES if limit is None else limit
    if p.point is None:
        return p
    own = _legality_of(_game(p.game))
    before = fingerprint(p.state) if verify_pure else None
    point, seen, legal, tried = p.point, set(), [], 0
    complete = True
    for kind, args in own.candidates(p.state, point):
        if tried >= limit:
            complete = False
            break
        tried += 1
        try:
            parsed = point.judge(Decision(p.at, point.player, kind, args))
        except Refusal:
            continue
        k = (kind, own.key(kind, parsed))
        if k not in seen:
            seen.add(k)
            legal.append(Option(point.player, kind, args))
    if verify_pure and fingerprint(p.state) != before:
        raise AssertionError(f"judging decisions at {point.clause} changed the {p.game} state")
    unenumerated = {k: own.UNENUMERATED.get(k) or f"no candidate generator for {k!r} in {own.__name__}"
                    for k in point.kinds if k not in own.ENUMERATED}
    any_time = point.anytime
    anytime = tuple(Option(q, any_time.kind, None) for q in p.state.board.players
                    if any_time.takes(Decision(p.at, q, any_time.kind, None), point.kinds, point.player)) if any_time else ()
    return dataclasses.replace(p, legal=tuple(legal), unenumerated=unenumerated, complete=complete, tried=tried,
                               anytime=anytime)


def legal_decisions(request_like: Any, prefix_len: int, *, verify_pure: bool = False) -> Pending:
    """(b) :func:`pending` with its legal decisions listed (``.legal``, ``.count``)."""
    return enumerate_legal(pending(request_like, prefix_len), verify_pure=verify_pure)


# -- validators must not change the state ----------------------------------------------------------

def fingerprint(obj: Any, _seen: set[int] | None = None) -> Any:
    """A comparable snapshot of plain state (dataclasses, objects, dicts, lists, sets; callables skipped)."""
    seen = set() if _seen is None else _seen
    if obj is None or isinstance(obj, (str, int, float, bool)):
        return obj
    if callable(obj) and not dataclasses.is_dataclass(obj):
        return "<callable>"
    if id(obj) in seen:
        return ("<seen>", type(obj).__name__)
    seen.add(id(obj))
    if isinstance(obj, Mapping):
        return ("map", tuple((repr(k), fingerprint(v, seen)) for k, v in obj.items()))
    if isinstance(obj, (list, tuple)):
        return ("seq", tuple(fingerprint(v, seen) for v in obj))
    if isinstance(obj, (set, frozenset)):
        return ("set", tuple(sorted(repr(fingerprint(v, seen)) for v in obj)))
    if dataclasses.is_dataclass(obj):
        return (type(obj).__name__, tuple((f.name, fingerprint(getattr(obj, f.name, None), seen))
                                          for f in dataclasses.fields(obj)))
    slots = [s for c in type(obj).__mro__ for s in getattr(c, "__slots__", ())]
    attrs = dict(getattr(obj, "__dict__", {}))
    attrs.update({s: getattr(obj, s) for s in slots if hasattr(obj, s)})
    return (type(obj).__name__, tuple((k, fingerprint(v, seen)) for k, v in sorted(attrs.items())))


# -- helpers for the games' candidate generators ---------------------------------------------------

def subsets(items: list[Any], *, empty: bool = False) -> Iterator[list[Any]]:
    """Every subset of ``items`` (in their order), smallest first; the empty one only with ``empty``."""
    for n in range(0 if empty else 1, len(items) + 1):
        for combo in itertools.combinations(items, n):
            yield list(combo)


def assignments(items: list[Any], choices: list[Any]) -> Iterator[dict[Any, Any]]:
    """Every map of some of ``items`` to one of ``choices`` each (``(len(choices) + 1) ** len(items)``)."""
    for picks in itertools.product([None, *choices], repeat=len(items)):
        yield {i: c for i, c in zip(items, picks) if c is not None}


def closure(point: DecisionPoint, name: str) -> Any:
    """A variable the point's validator closes over (its offered options, when the engine computed them);
    a rename in the engine fails the agreement test loudly here rather than miscounting."""
    seen = inspect.getclosurevars(point.validate)
    if name in seen.nonlocals:
        return seen.nonlocals[name]
    defaults = inspect.signature(point.validate).parameters.get(name)
    if defaults is not None and defaults.default is not inspect.Parameter.empty:
        return defaults.default
    raise LookupError(f"the validator at {point.clause} has no {name!r}")


def freeze(x: Any) -> Hashable:
    """A hashable form of a parsed decision: a card object by its id, lists as tuples, dicts as sets of
    items (a declaration is a set: its order is not part of the decision)."""
    if hasattr(x, "id") and isinstance(x.id, str):
        return x.id
    if isinstance(x, Mapping):
        return frozenset((k, freeze(v)) for k, v in x.items())
    if isinstance(x, (list, tuple)):
        return tuple(freeze(v) for v in x)
    if isinstance(x, (set, frozenset)):
        return frozenset(freeze(v) for v in x)
    return x


# -- (a) and (b) incrementally: one run, a chooser at each point -----------------------------------

class _Again(Signal):
    """Not an error: the entry the chooser gave was refused; the same point asks again."""


class _Ended(Signal):
    """Not an error: the chooser ended the script (``error``: it raised, re-raised once the run unwound)."""

    def __init__(self, error: BaseException | None = None) -> None:
        self.error = error


class _DrivenScript(Script):
    """A script that asks its chooser for the next entry when the run reaches a point with none left. An
    entry is then taken by :meth:`Script.decide` exactly as a written one is (a refused one asks again)."""

    __slots__ = ("game", "state", "choose", "entries", "listed")

    def __init__(self, game: str, state: Any, written: list[dict[str, Any]], trace: Any, choose: Any,
                 entries: list[dict[str, Any]], listed: int | None) -> None:
        super().__init__(written, trace, at_end=self._again)
        self.game, self.state, self.choose, self.entries, self.listed = game, state, choose, entries, listed

    @staticmethod
    def _again(point: DecisionPoint) -> None:
        raise _Again()

    def decide(self, player: str, kinds: tuple[str, ...], clause: str, validate: Any, *, other: Any = None,
               optional: bool = False, wrong_player: str = "not_your_decision") -> Any:
        point = DecisionPoint(player, kinds, clause, validate, other, optional, wrong_player, self.anytime)
        while True:
            if self.exhausted:
                p = Pending(game=self.game, at=len(self.decisions), point=point, state=self.state)
                token = SCRIPT.set(None)  # a run the chooser starts (a legality question) is an ordinary one
                try:
                    entry = self.choose(p if self.listed is None else enumerate_legal(p, limit=self.listed))
                except BaseException as exc:  # unwound through the engine, re-raised by drive
                    raise _Ended(exc) from None
                finally:
                    SCRIPT.reset(token)
                if entry is None:
                    raise _Ended()
                d = _decision(entry, len(self.decisions))  # the engine's copy, the script's copy: the
                self.decisions.append(dataclasses.replace(d, args=copy.deepcopy(d.args)))  # engine may keep it
                self.entries.append({"player": d.player, "kind": d.kind, "args": copy.deepcopy(d.args)})
            try:
                return super().decide(player, kinds, clause, validate, other=other, optional=optional,
                                      wrong_player=wrong_player)
            except _Again:
                continue


@dataclass(frozen=True)
class Driven:
    """What :func:`drive` built: the script (entries ``{"player", "kind", "args"}``, the request's own first),
    and how the run ended: ``stopped`` (the chooser ended the script at a point) or not (the game is over,
    ``winner``, or the procedure reached its end)."""

    script: list[dict[str, Any]]
    stopped: bool
    winner: str | None = None


def drive(request_like: Any, choose: Any, *, listed: int | None = MAX_CANDIDATES) -> Driven:
    """Play the setup and the request's script once; wherever the run then asks for a decision, call
    ``choose(pending)`` -- the :class:`Pending` there (``at``, ``point``, ``state``; its legal decisions unless
    ``listed`` is None, from at most ``listed`` candidates) -- and play on with the entry it returns (either form), or end the script there on None. An
    exception ``choose`` raises is raised by :func:`drive` once the run is unwound. Each ``pending`` is what
    :func:`legal_decisions` answers for the script built so far (a test holds them equal), at the cost of
    one run in all rather than one per entry."""
    request = _request(request_like)
    game = _game(request.game)
    entries: list[dict[str, Any]] = []

    def make(state: Any, script: list[dict[str, Any]], trace: Any) -> Script:
        entries.extend({"player": e["player"], "kind": e["kind"], "args": e.get("args")} for e in script)
        return _DrivenScript(request.game, state, list(script), trace, choose, entries, listed)

    token = SCRIPT.set(make)
    try:
        reply = game.run(request)
    except _Ended as ended:
        if ended.error is not None:
            raise ended.error from None
        return Driven(entries, stopped=True)
    finally:
        SCRIPT.reset(token)
    return Driven(entries, stopped=False, winner=reply.winner)
