"""A JSON-lines engine for the toy game that misbehaves on purpose, at a chosen phase (fault injection).

    python fault_engine.py [--fault PHASE=HOW]...

PHASE: ``start`` (before the hello), ``case:ID`` (while answering case ID), ``bye`` (when the harness
says bye). HOW:

  hang          never go on                   crash         exit 7, a message on stderr
  garbage       a line that is not JSON       close-stdout  close stdout, keep running
  huge-error    an ``error`` of $FAULT_SIZE characters (default 5,000,000)
  long-line     a line of $FAULT_SIZE bytes with no newline, then hang
  deep          a reply nested 100,000 levels deep
  bignum        a reply with a 5,000-digit number
  bad-utf8      a reply line that is not UTF-8
  half-line     half a reply, then exit 0     escape        an error holding CR, LF and ANSI escapes

When $FAULT_HELLO holds a JSON object, it is the hello line (the same as ``fault_py:hello_from_env``'s).
When $FAULT_MARKER names a file, the engine appends ``PHASE\\n`` to it as each phase begins, so a test
knows when to send a signal. Other cases are answered by the toy game's reference rules.
"""

import argparse
import json
import os
import sys
import time
from pathlib import Path

HARNESS = Path(__file__).resolve().parent.parent / "harness"
sys.path.insert(0, str(HARNESS))

p = argparse.ArgumentParser()
p.add_argument("--fault", action="append", default=[])
opts = p.parse_args()
faults = dict(f.split("=", 1) for f in opts.fault)
SIZE = int(os.environ.get("FAULT_SIZE", "5000000"))
out = sys.stdout.buffer


def mark(phase):
    marker = os.environ.get("FAULT_MARKER")
    if marker:
        with open(marker, "a") as f:
            f.write(phase + "\n")


def send(obj):
    out.write(json.dumps(obj).encode() + b"\n")
    out.flush()


def misbehave(how, cid):
    """Act out ``how``; returns only when the fault leaves the engine able to go on."""
    if how == "hang":
        time.sleep(3600)
    if how == "crash":
        print("fault_engine: crashing on purpose", file=sys.stderr, flush=True)
        raise SystemExit(7)
    if how == "garbage":
        out.write(b"oops, not JSON\n")
    elif how == "close-stdout":
        out.close()
        os.close(1)
        time.sleep(3600)
    elif how == "huge-error":
        send({"type": "result", "id": cid, "error": "E" * SIZE})
    elif how == "long-line":
        out.write(b"x" * SIZE)
        out.flush()
        time.sleep(3600)
    elif how == "deep":
        out.write(b'{"type": "result", "id": "' + cid.encode() + b'", "final": {"x": ' + b"[" * 100000
                  + b"]" * 100000 + b"}}\n")
    elif how == "bignum":
        out.write(b'{"type": "result", "id": "' + cid.encode() + b'", "final": {"x": 1' + b"0" * 5000 + b"}}\n")
    elif how == "bad-utf8":
        out.write(b'{"type": "result", "id": "' + cid.encode() + b'", "error": "\xff\xfe"}\n')
    elif how == "half-line":
        out.write(b'{"type": "result", "id": "')
        out.flush()
        raise SystemExit(0)
    elif how == "escape":
        send({"type": "result", "id": cid, "error": "bad\r\nPASS toy.fake\x1b[32m green"})
    out.flush()


import toygame  # noqa: E402  # before the hello: a restart's imports count on the start timeout, not a case's
from oracle.model import CaseRequest  # noqa: E402

mark("start")
if "start" in faults:
    misbehave(faults["start"], None)
if os.environ.get("FAULT_HELLO"):  # the hello to write instead of the good one (a JSON object)
    send(json.loads(os.environ["FAULT_HELLO"]))
else:
    send({"type": "hello", "protocol_version": 1, "schema_version": 1,
          "engine": {"name": "fault-engine", "version": "1"}, "games": ["toy"]})

for line in sys.stdin.buffer:
    req = json.loads(line)
    if req.get("type") == "bye":
        mark("bye")
        if "bye" in faults:
            misbehave(faults["bye"], None)
        break
    cid = req["id"]
    mark(f"case:{cid}")
    how = faults.get(f"case:{cid}")
    if how:
        misbehave(how, cid)
        continue
    out.write(toygame.GAME.run(CaseRequest.model_validate(req)).model_dump_json().encode() + b"\n")
    out.flush()
