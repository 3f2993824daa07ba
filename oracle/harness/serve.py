"""``tcg-oracle serve [--game G] [--observation LEVEL] [--no-reason-codes] [--automatic]``: the reference
engine behind the JSON-lines protocol (its reference implementation). Writes ``hello``, then answers each
``case`` line with one ``result`` line and each ``legality`` line with one ``legality`` line, until
``bye`` or end of input. A request it cannot read is answered with a ``result`` carrying ``error``.

``--observation`` plays an engine of a weaker level (protocol 2): the full reply is projected down to
what that level reports (:func:`oracle.harness.views.project`); ``--no-reason-codes`` drops refusal
reasons; ``--automatic`` plays an engine that takes forced decisions itself (see :func:`automatic`).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from typing import Any, BinaryIO, Callable, Iterator

import orjson
from pydantic import BaseModel, ValidationError

from .. import CONTRACT_VERSION, __version__, registry
from ..errors import MissingDecision, OracleError, ScriptError
from ..limits import (INT_MAX, JSON_MAX_DEPTH, LINE_MAX_BYTES, SCRIPT_MAX_DECISIONS, check_ints, check_setup_sizes,
                      json_depth_exceeds)
from ..model import (LEVELS, Asked, CaseReply, CaseRequest, DecisionOutcome, EngineInfo, Hello, LegalityReply,
                     LegalityRequest, TraceEntry)
from . import jsonl
from .views import project


@dataclass(frozen=True)
class Behaviour:
    """The engine ``serve`` plays: its observation level, reason codes, forced decisions."""

    observation: str = "trace"
    reason_codes: bool = True
    automatic: bool = False

    @property
    def name(self) -> str:
        """``reference``, or e.g. ``reference-final-no-codes-automatic`` (runs side by side in a report)."""
        if self == Behaviour():
            return "reference"
        return "-".join(["reference", self.observation] + ["no-codes"] * (not self.reason_codes)
                        + ["automatic"] * self.automatic)

    def hello(self, games: list[str]) -> Hello:
        extra = {} if self == Behaviour() else {"observation": self.observation, "reason_codes": self.reason_codes}
        return Hello(engine=EngineInfo(name=self.name, version=__version__), games=games,
                     capabilities=["legality", "views", "pipeline"], contract_version=CONTRACT_VERSION, **extra)


DEFAULT = Behaviour()


def _players(request: CaseRequest, entry: dict[str, Any]) -> list[Any]:
    return list(request.setup.get("players", {}))


OPTIONS: dict[tuple[str, str], Callable[[CaseRequest, dict[str, Any]], list[Any]]] = {
    ("mtg", "choose_protector"): _players,
}
"""Decisions whose options ``--automatic`` can list (the arguments an entry of that kind may name). A
battle's protector is a player (CR 310.8); only an opponent of its controller is legal."""


def only_option(request: CaseRequest, at: int) -> bool:
    """Whether script entry ``at`` had exactly one legal option where it was asked: each option the
    decision could name is put to the reference engine (a legality query after entries 0..at-1)."""
    from .engine import reference_legality

    entry = request.script[at]
    options = OPTIONS.get((request.game, entry["kind"]))
    if options is None:
        return False
    legal = 0
    for option in options(request, entry):
        query = LegalityRequest(id=request.id, game=request.game, ruleset=request.ruleset, setup=request.setup,
                                script=request.script[:at], cards=request.cards, decision={**entry, "args": option})
        legal += reference_legality(query).accepted
        if legal > 1:
            return False
    return legal == 1


def automatic(request: CaseRequest, reply: CaseReply) -> CaseReply:
    """The reply of an engine that takes forced decisions itself: an accepted entry that had exactly one
    legal option (:func:`only_option`; decisions of :data:`OPTIONS`) is ``automatic`` (a ``decided`` event
    with ``automatic: true``), and the refused entries of the same kind just before it, at the same
    point, were never asked (``not_asked``; their ``rejected`` events disappear)."""
    if reply.decisions is None:
        return reply
    outcome = {d.at: d for d in reply.decisions}
    auto: set[int] = set()
    unasked: set[int] = set()
    for d in reply.decisions:
        kind = request.script[d.at]["kind"]
        if d.outcome != "accepted" or (request.game, kind) not in OPTIONS or not only_option(request, d.at):
            continue
        auto.add(d.at)
        n = d.at - 1
        while n >= 0 and n in outcome and outcome[n].outcome == "refused" and request.script[n]["kind"] == kind:
            unasked.add(n)
            n -= 1
    if not auto:
        return reply
    decisions = [DecisionOutcome(at=d.at, outcome="automatic") if d.at in auto else
                 DecisionOutcome(at=d.at, outcome="not_asked") if d.at in unasked else d for d in reply.decisions]
    trace: list[TraceEntry] = []
    for e in reply.trace:
        at = e.args.get("at")
        if e.kind == "rejected" and at in unasked:
            continue
        if e.kind == "decided" and at in auto:
            e = e.model_copy(update={"args": {**e.args, "automatic": True}})
        trace.append(e)
    return reply.model_copy(update={"decisions": decisions, "trace": trace})


def wants_checkpoints(request: CaseRequest, behaviour: Behaviour = Behaviour()) -> bool:
    """Whether the reply carries checkpoints (one state projection per script entry, the largest part of
    a reply): at level ``checkpoints`` and above, unless the request's ``views`` leaves them out."""
    return (LEVELS.index(behaviour.observation) >= LEVELS.index("checkpoints")
            and (request.views is None or "checkpoints" in request.views))


def play(request: CaseRequest, behaviour: Behaviour = Behaviour()) -> CaseReply:
    """The reference engine's reply to a case as ``behaviour``'s engine sends it (also used in process by
    the level tests)."""
    from ..core.game import observing

    with observing(checkpoints=wants_checkpoints(request, behaviour)):
        reply = registry.get(request.game).run(request)
    if behaviour == DEFAULT:  # the full reply is what the reference sends
        return reply
    if behaviour.automatic:
        reply = automatic(request, reply)
    return project(reply, behaviour.observation, reason_codes=behaviour.reason_codes)


def legality(request: LegalityRequest, behaviour: Behaviour = Behaviour()) -> LegalityReply:
    from .engine import reference_legality

    reply = reference_legality(request)
    return reply if behaviour.reason_codes else reply.model_copy(update={"reason": None})


INT_DIGITS = len(str(INT_MAX))
"""Digits of :data:`oracle.limits.INT_MAX`: an integer literal with fewer cannot be past it."""
_DIGITS_ONLY = bytes(0x30 if 0x30 <= b <= 0x39 else 0x20 for b in range(256))
_LONG_RUN = b"0" * INT_DIGITS


def long_digit_run(line: bytes) -> bool:
    """Whether a run of :data:`INT_DIGITS` digits is anywhere in ``line`` (a superset of the integer literals
    that long): every digit made ``0``, anything else a space, then one substring search (a regular
    expression costs ten times more on a request of cards)."""
    return _LONG_RUN in line.translate(_DIGITS_ONLY)


def _malformed(line: bytes, exc: ValueError, data: Any, model: Any) -> CaseReply | LegalityReply | None:
    """The reply to a line that is not JSON or not a request (``None`` for ``bye``)."""
    if not isinstance(exc, ValidationError):
        data = None
        model = CaseRequest
        try:
            CaseRequest.model_validate_json(line)
        except ValidationError as invalid:
            exc = invalid
    assert isinstance(exc, ValidationError)
    if isinstance(data, dict) and data.get("type") == "bye":
        return None
    rid = str(data.get("id", "")) if isinstance(data, dict) else ""
    why = (f"malformed request ({exc.error_count()} problem(s): "
           f"{exc.errors()[0]['msg']} at {'.'.join(map(str, exc.errors()[0]['loc']))}): {jsonl.trim(line)}")
    return LegalityReply(id=rid, error=why) if model is LegalityRequest else CaseReply(id=rid, error=why)


def answer(line: bytes, games: list[str], behaviour: Behaviour = Behaviour()) -> CaseReply | LegalityReply | None:
    """The reply to one request line; ``None`` for ``bye``. A request past a limit of
    :mod:`oracle.limits` (nesting, zone sizes) is answered with an error, and serving goes on."""
    if json_depth_exceeds(line):
        return CaseReply(id="", error=f"malformed request: JSON nested deeper than {JSON_MAX_DEPTH} levels: "
                                      f"{jsonl.trim(line)}")
    data: Any = None
    long_ints: list[str] = []

    # The common case in one pass (orjson, then the model guessed from the bytes); a line it refuses, or a
    # legality query without its "type" (read below as a case request), takes the path below, whose replies say
    # what is wrong.
    model: Any = LegalityRequest if b'"legality"' in line else CaseRequest
    request: Any = None
    long_run = long_digit_run(line)  # maybe an integer literal as long as INT_MAX: the walk below says
    try:  # orjson parses in half the time, but reads an integer past 64 bits as a float: not where one may be
        request = model.model_validate_json(line) if long_run else model.model_validate(orjson.loads(line))
    except ValueError:  # orjson.JSONDecodeError is one too
        pass
    else:
        if model is LegalityRequest and "type" not in request.model_fields_set:
            request = None
        elif long_run:
            long_ints.append("")
    if request is None:
        def parse_int(text: str) -> int:  # notes the literals long enough to pass INT_MAX (exact, cheaper than a walk)
            if len(text.lstrip("-")) >= INT_DIGITS:
                long_ints.append(text)
            return int(text)

        try:
            data = json.loads(line, parse_int=parse_int)
            model = LegalityRequest if isinstance(data, dict) and data.get("type") == "legality" else CaseRequest
            request = model.model_validate(data)  # parsed once: JSON to Python, then checked
        except ValueError as exc:  # not JSON, or a ValidationError (a ValueError)
            return _malformed(line, exc, data, model)
    too_big = check_setup_sizes(request.setup)
    if long_ints:  # no integer literal of the line has as many digits as INT_MAX: none is larger
        too_big += check_ints(request.setup, ("setup",))
    if len(request.script) > SCRIPT_MAX_DECISIONS:
        too_big.append((("script",), f"{len(request.script):,} decisions; the limit is {SCRIPT_MAX_DECISIONS:,}"))
    if too_big:
        loc, why = too_big[0]
        why = f"request too large: {'.'.join(map(str, loc))}: {why}"
        return LegalityReply(id=request.id, error=why) if model is LegalityRequest else CaseReply(id=request.id,
                                                                                                 error=why)
    if request.game not in games:
        why = f"this engine plays {', '.join(games)}, not {request.game}"
        return LegalityReply(id=request.id, error=why) if model is LegalityRequest else CaseReply(id=request.id,
                                                                                                 error=why)
    try:
        if isinstance(request, LegalityRequest):
            return legality(request, behaviour)
        return play(request, behaviour)
    except MissingDecision as exc:  # said as a decision asked for (runner.run_case judges it), and in words
        if not isinstance(request, LegalityRequest):
            return CaseReply(id=request.id, error=f"script: {exc}",
                             asked=Asked(at=exc.at, player=exc.player, decisions=list(exc.kinds)))
        why = f"script: {exc}"
    except ScriptError as exc:  # the same text as an in-process run (runner.run_case)
        why = f"script: {exc}"
    except OracleError as exc:
        why = str(exc)
    except Exception as exc:  # a bug costs its case, as in process
        from .runner import error_text

        why = error_text(exc)
    return LegalityReply(id=request.id, error=why) if model is LegalityRequest else CaseReply(id=request.id, error=why)


def serve(games: list[str], stdin: BinaryIO, stdout: BinaryIO, behaviour: Behaviour = Behaviour()) -> int:
    hello = behaviour.hello(games)
    stdout.write(jsonl.encode(hello))
    stdout.flush()
    for line in _lines(stdin):
        if not line.strip():
            continue
        try:
            reply = answer(line, games, behaviour) if len(line) <= LINE_MAX_BYTES else CaseReply(
                id="", error=f"request line longer than {LINE_MAX_BYTES:,} bytes: {jsonl.trim(line[:200])}")
        except RecursionError:  # a request no check foresaw: answered, and serving goes on
            reply = CaseReply(id="", error=f"malformed request: nested too deeply: {jsonl.trim(line)}")
        if reply is None:
            break
        stdout.write(_dump(reply))
        stdout.flush()
    return 0


def _lines(stdin: BinaryIO) -> Iterator[bytes]:
    """Request lines; a line past :data:`LINE_MAX_BYTES` is read only that far (the rest is skipped), so
    its length, not its content, reaches :func:`answer`."""
    while line := stdin.readline(LINE_MAX_BYTES + 1):
        if len(line) > LINE_MAX_BYTES and not line.endswith(b"\n"):
            while (more := stdin.readline(1 << 20)) and not more.endswith(b"\n"):
                pass
        yield line


def _fields(model: Any) -> dict[str, Any]:
    """A reply model's fields, as orjson writes them (``__dict__``: every field, in the model's order)."""
    if isinstance(model, BaseModel):
        return model.__dict__
    raise TypeError(type(model).__name__)


def _dump(reply: CaseReply | LegalityReply) -> bytes:
    """The reply as one protocol line: by orjson (the same bytes as ``jsonl.encode``, in about a third of the time;
    a test holds them equal), else, for a value orjson refuses (an integer past 64 bits, a lone surrogate: its
    ``JSONEncodeError`` is a ``TypeError``), ``jsonl.encode``."""
    try:
        if isinstance(reply, CaseReply):  # its lists of models as dicts at once (a callback per entry costs more)
            fields = dict(reply.__dict__)
            for key in ("trace", "decisions", "checkpoints"):
                if fields[key] is not None:
                    fields[key] = [m.__dict__ for m in fields[key]]
            return orjson.dumps(fields, default=_fields, option=orjson.OPT_APPEND_NEWLINE)
        return orjson.dumps(reply, default=_fields, option=orjson.OPT_APPEND_NEWLINE)
    except TypeError:
        pass
    try:
        return jsonl.encode(reply)
    except Exception as exc:  # e.g. a value JSON cannot hold, or an id with a lone surrogate (UTF-8 cannot)
        error = type(reply)(id=reply.id, error=f"reply cannot be written as JSON: {exc}")
        # ensure_ascii writes a lone surrogate as its \\uXXXX escape: the line is JSON, and the id the one sent
        return json.dumps(error.model_dump(mode="python"), ensure_ascii=True).encode("ascii") + b"\n"


def main(args: argparse.Namespace) -> int:
    games = args.game or registry.names()
    unknown = [g for g in games if g not in registry.names()]
    if unknown:
        print(f"tcg-oracle serve: unknown game(s) {', '.join(unknown)}; the games are "
              f"{', '.join(registry.names())}", file=sys.stderr)
        return 2
    try:
        behaviour = Behaviour(observation=getattr(args, "observation", None) or "trace",
                              reason_codes=not getattr(args, "no_reason_codes", False),
                              automatic=bool(getattr(args, "automatic", False)))
        return serve(games, sys.stdin.buffer, sys.stdout.buffer, behaviour)
    except KeyboardInterrupt:
        return 0
