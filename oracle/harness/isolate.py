"""``--isolate``: a ``py:`` engine run in a child process, behind the JSON-lines protocol.

``python -m oracle.harness.isolate package.module:factory`` makes the engine from its factory (checked as
``py:`` checks it), writes its hello, then answers each request line with one reply line until ``bye``
or end of input. The parent talks to it as to any ``cmd:`` engine, so what kills a process -- an engine
calling ``os._exit``, a segfault in a C extension, memory exhaustion -- costs that case (the child is
restarted), never the run. What the engine prints on stdout goes to stderr: stdout carries only protocol
lines. Costs a process start and a JSON round trip per case (docs/faults.md).
"""

from __future__ import annotations

import os
import sys
from typing import Any


def _answer(engine: Any, line: bytes) -> bytes:
    from ..model import CaseReply, CaseRequest, LegalityReply, LegalityRequest
    from . import jsonl
    from .runner import error_text

    import json

    try:
        data = json.loads(line)
    except ValueError:
        return jsonl.encode(CaseReply(id="", error=f"malformed request: {jsonl.trim(line)}"))
    legal = isinstance(data, dict) and data.get("type") == "legality"
    rid = str(data.get("id", "")) if isinstance(data, dict) else ""
    try:
        if legal:
            return jsonl.encode(engine.legality(LegalityRequest.model_validate(data)))
        return jsonl.encode(engine.run_case(CaseRequest.model_validate(data)))
    except BaseException as exc:  # KeyboardInterrupt or SystemExit raised by the engine is its error
        if isinstance(exc, SystemExit):
            why = f"the engine called sys.exit({exc.code!r}) during the case"
        else:
            why = str(exc) if type(exc).__module__.startswith("oracle") else error_text(exc)
        return jsonl.encode(LegalityReply(id=rid, error=why) if legal else CaseReply(id=rid, error=why))


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m oracle.harness.isolate package.module:factory", file=sys.stderr)
        return 2
    protocol = os.fdopen(os.dup(1), "wb", buffering=0)  # the real stdout, for protocol lines only
    os.dup2(2, 1)  # the engine's prints go to stderr
    sys.stdout = sys.stderr
    from ..errors import EngineStartError
    from . import jsonl
    from .adapters import _python

    try:
        engine = _python(argv[0], f"py:{argv[0]}")
        hello = engine.hello()
    except EngineStartError as exc:
        print(f"tcg-oracle isolate: {exc}", file=sys.stderr)
        return 3
    protocol.write(jsonl.encode(hello))
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        if b'"bye"' in line and line.strip().startswith(b"{") and b'"type"' in line:
            import json

            try:
                if json.loads(line).get("type") == "bye":
                    break
            except ValueError:
                pass
        protocol.write(_answer(engine, line))
    try:
        engine.close()
    except Exception as exc:
        print(f"tcg-oracle isolate: close() failed: {exc}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
