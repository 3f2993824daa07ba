"""``tcg-oracle serve [--game G]``: the reference engine behind the JSON-lines protocol (its reference
implementation). Writes ``hello``, then answers each ``case`` line with one ``result`` line until ``bye``
or end of input. A request it cannot read is answered with a ``result`` carrying ``error``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import BinaryIO, Iterator

from pydantic import ValidationError

from .. import __version__, registry
from ..core.errors import OracleError, ScriptError
from ..limits import (JSON_MAX_DEPTH, LINE_MAX_BYTES, SCRIPT_MAX_DECISIONS, check_ints, check_setup_sizes,
                      json_depth_exceeds)
from ..model import CaseReply, CaseRequest, EngineInfo, Hello
from . import jsonl


def answer(line: bytes, games: list[str]) -> CaseReply | None:
    """The reply to one request line; ``None`` for ``bye``. A request past a limit of
    :mod:`oracle.limits` (nesting, zone sizes) is answered with an error, and serving goes on."""
    if json_depth_exceeds(line):
        return CaseReply(id="", error=f"malformed request: JSON nested deeper than {JSON_MAX_DEPTH} levels: "
                                      f"{jsonl.trim(line)}")
    try:
        request = CaseRequest.model_validate_json(line)
    except ValidationError as exc:
        try:
            data = json.loads(line)
        except ValueError:
            data = None
        if isinstance(data, dict) and data.get("type") == "bye":
            return None
        rid = str(data.get("id", "")) if isinstance(data, dict) else ""
        return CaseReply(id=rid, error=f"malformed request ({exc.error_count()} problem(s): "
                                       f"{exc.errors()[0]['msg']} at {'.'.join(map(str, exc.errors()[0]['loc']))}): "
                                       f"{jsonl.trim(line)}")
    too_big = check_setup_sizes(request.setup) + check_ints(request.setup, ("setup",))
    if len(request.script) > SCRIPT_MAX_DECISIONS:
        too_big.append((("script",), f"{len(request.script):,} decisions; the limit is {SCRIPT_MAX_DECISIONS:,}"))
    if too_big:
        loc, why = too_big[0]
        return CaseReply(id=request.id, error=f"request too large: {'.'.join(map(str, loc))}: {why}")
    if request.game not in games:
        return CaseReply(id=request.id, error=f"this engine plays {', '.join(games)}, not {request.game}")
    from .runner import error_text  # noqa: PLC0415

    try:
        return registry.get(request.game).run(request)
    except ScriptError as exc:  # the same text as an in-process run (runner.run_case)
        return CaseReply(id=request.id, error=f"script: {exc}")
    except OracleError as exc:
        return CaseReply(id=request.id, error=str(exc))
    except Exception as exc:  # noqa: BLE001 - a bug costs its case, as in process
        return CaseReply(id=request.id, error=error_text(exc))


def serve(games: list[str], stdin: BinaryIO, stdout: BinaryIO) -> int:
    hello = Hello(engine=EngineInfo(name="reference", version=__version__), games=games, capabilities=[])
    stdout.write(jsonl.encode(hello))
    stdout.flush()
    for line in _lines(stdin):
        if not line.strip():
            continue
        try:
            reply = answer(line, games) if len(line) <= LINE_MAX_BYTES else CaseReply(
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


def _dump(reply: CaseReply) -> bytes:
    try:
        return jsonl.encode(reply)
    except Exception as exc:  # noqa: BLE001 - e.g. a value JSON cannot hold
        return jsonl.encode(CaseReply(id=reply.id, error=f"reply cannot be written as JSON: {exc}"))


def main(args: argparse.Namespace) -> int:
    games = args.game or registry.names()
    unknown = [g for g in games if g not in registry.names()]
    if unknown:
        print(f"tcg-oracle serve: unknown game(s) {', '.join(unknown)}; the games are "
              f"{', '.join(registry.names())}", file=sys.stderr)
        return 2
    try:
        return serve(games, sys.stdin.buffer, sys.stdout.buffer)
    except KeyboardInterrupt:
        return 0
