"""The JSON-lines protocol, version 1: framing and checking of the messages of :mod:`oracle.model`.

One UTF-8 JSON object per line, ``\\n``-terminated, no blank lines; stdout carries only protocol lines
(logs go to stderr). Lifecycle:

1. the engine starts and writes a ``hello`` line (protocol_version, schema_version, engine, games,
   capabilities);
2. the harness writes one ``case`` request line; the engine answers one ``result`` line with the same
   ``id``; repeat;
3. the harness writes ``bye`` (or closes stdin): the engine exits.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from ..errors import EngineStartError, ProtocolError
from ..model import PROTOCOL_VERSION, PROTOCOL_VERSIONS, Bye, CaseReply, CaseRequest, Hello, LegalityReply

TRIM = 240



def trim(data: bytes | str, limit: int = TRIM) -> str:
    """The offending bytes as a short printable quote."""
    text = data.decode("utf-8", "backslashreplace") if isinstance(data, bytes) else data
    text = text.rstrip("\n")
    if len(text) > limit:
        text = text[:limit] + f"... ({len(text)} chars)"
    return repr(text)


def encode(message: Any) -> bytes:
    """A model (``CaseRequest``, ``CaseReply``, ``Hello``, ``Bye``) as one protocol line. A request's
    optional ``views`` is written only when set (a protocol-1 engine never sees the field)."""
    if isinstance(message, CaseRequest) and message.views is None:
        return message.model_dump_json(exclude={"views"}).encode("utf-8") + b"\n"
    return message.model_dump_json(exclude_none=False).encode("utf-8") + b"\n"


BYE = encode(Bye())


def first_problem(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "(message)"
    more = f" (+{exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return f"field {where}: {err['msg']}{more}"


def _invalid_json(exc: ValidationError) -> bool:
    return any(e["type"] == "json_invalid" for e in exc.errors())


def _json_problem(exc: ValidationError) -> str:
    """What is wrong with JSON the parser refused: nesting too deep, a number too large, or malformed."""
    detail = " ".join(str((e.get("ctx") or {}).get("error", "")) for e in exc.errors() if e["type"] == "json_invalid")
    if "recursion limit" in detail:
        return f"JSON nested too deeply ({detail.strip()})"
    if "number out of range" in detail or "out of range" in detail:
        return f"JSON with a number too large ({detail.strip()})"
    return "malformed JSON"


def parse_hello(line: bytes) -> Hello:
    """The engine's first line. Anything else is an :class:`EngineStartError` that says what to fix."""
    if not line.strip():
        raise EngineStartError("the engine's first line was empty; it must write a hello message first, "
                               'e.g. {"type": "hello", "protocol_version": 1, "schema_version": 1, '
                               '"engine": {"name": "my-engine", "version": "1.0"}, "games": ["ijinden"]}')
    try:
        hello = Hello.model_validate_json(line)
    except ValidationError as exc:
        why = "is not JSON" if _invalid_json(exc) else f"is not a valid hello message ({first_problem(exc)})"
        raise EngineStartError(f"the engine's first line {why}: {trim(line)}; an engine writes only protocol "
                               f"lines on stdout (logs go to stderr), starting with its hello; see "
                               f"`tcg-oracle schema protocol`") from None
    return check_hello(hello)


def check_hello(hello: Hello) -> Hello:
    """The checks of a hello beyond its shape, the same for a ``cmd:`` and a ``py:`` engine: a protocol
    version this harness speaks, and no protocol 2 field in a protocol 1 hello
    (:class:`EngineStartError` otherwise)."""
    if hello.protocol_version not in PROTOCOL_VERSIONS:
        raise EngineStartError(f"the engine speaks protocol version {hello.protocol_version}; this tcg-oracle "
                               f"speaks version {' or '.join(map(str, PROTOCOL_VERSIONS))}")
    if hello.v1 and hello.model_fields_set & {"observation", "reason_codes", "events"}:
        raise EngineStartError(f"the engine's hello says protocol_version {hello.protocol_version} but declares "
                               f"{', '.join(sorted(hello.model_fields_set & {'observation', 'reason_codes', 'events'}))}"
                               f" (protocol {PROTOCOL_VERSION} fields); say protocol_version {PROTOCOL_VERSION}")
    return hello


def parse_legality(line: bytes, expected_id: str) -> LegalityReply:
    """One reply line to a legality query; a :class:`ProtocolError` quoting the bytes otherwise."""
    try:
        reply = LegalityReply.model_validate_json(line)
    except ValidationError as exc:
        kind = "malformed JSON" if _invalid_json(exc) else \
            f"a legality reply that does not match the protocol ({first_problem(exc)})"
        raise ProtocolError(f"the engine answered {kind}: {trim(line)}") from None
    if reply.id != expected_id:
        raise ProtocolError(f"the engine answered legality query {reply.id!r} while {expected_id!r} was asked: "
                            f"{trim(line)}")
    return reply


def parse_reply(line: bytes, expected_id: str) -> CaseReply:
    """One reply line for the case ``expected_id``; a :class:`ProtocolError` quoting the bytes otherwise."""
    try:
        reply = CaseReply.model_validate_json(line)
    except ValidationError as exc:
        kind = _json_problem(exc) if _invalid_json(exc) else \
            f"a reply that does not match the protocol ({first_problem(exc)})"
        raise ProtocolError(f"the engine answered {kind}: {trim(line)}") from None
    if reply.id != expected_id:
        raise ProtocolError(f"the engine answered case {reply.id!r} while case {expected_id!r} was asked: "
                            f"{trim(line)}")
    return reply
