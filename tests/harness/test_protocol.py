"""The JSON-lines protocol: framing, checks, and ``serve`` answering requests."""

from __future__ import annotations

import io
import json

import pytest

from oracle.core.errors import EngineStartError
from oracle.harness import jsonl, serve
from oracle.model import CaseReply, EngineInfo, Hello, json_schema

HELLO = Hello(engine=EngineInfo(name="x", version="1"), games=["toy"])


def test_hello_round_trip():
    assert jsonl.parse_hello(jsonl.encode(HELLO)) == HELLO


@pytest.mark.parametrize("line, says", [
    (b"", "empty"),
    (b"ready!", "is not JSON"),
    (b'{"type": "hello", "games": []}', "engine"),
    (b'{"type": "hello", "protocol_version": 3, "engine": {"name": "x"}, "games": []}', "protocol version 3"),
    (b'{"type": "hello", "protocol_version": 1, "engine": {"name": "x"}, "games": [], "observation": "final"}',
     "protocol 2 fields"),
    (b'{"type": "hello", "protocol_version": 2, "engine": {"name": "x"}, "games": [], "observation": "moments"}',
     "observation"),
])
def test_bad_hello_says_what_to_fix(line, says):
    with pytest.raises(EngineStartError, match=says):
        jsonl.parse_hello(line)


def test_reply_checks_id_and_quotes_trimmed_bytes():
    assert jsonl.parse_reply(jsonl.encode(CaseReply(id="a")), "a").id == "a"
    with pytest.raises(jsonl.ProtocolError, match="case 'b' while case 'a' was asked"):
        jsonl.parse_reply(jsonl.encode(CaseReply(id="b")), "a")
    with pytest.raises(jsonl.ProtocolError, match="malformed JSON") as exc:
        jsonl.parse_reply(b"{" + b"z" * 5000, "a")
    assert "(5001 chars)" in str(exc.value) and len(str(exc.value)) < 400


def test_protocol_schema_has_every_message():
    text = json.dumps(json_schema("protocol"))
    for name in ("Hello", "CaseRequest", "CaseReply", "Bye", "TraceEntry", "LegalityRequest", "LegalityReply",
                 "DecisionOutcome", "Checkpoint", "Step"):
        assert name in text
    hello = json_schema("protocol")["$defs"]["Hello"]["properties"]
    assert {"observation", "reason_codes", "events"} <= set(hello)
    assert hello["observation"]["enum"] == ["final", "checkpoints", "steps", "trace"]
    assert "not checkable" in hello["observation"]["description"]


def test_serve_speaks_the_protocol(toy):
    from oracle.harness.request import make_request
    from oracle.loader import load_suite

    lc = load_suite(None, games=["toy"]).cases[0]
    req = make_request(lc.case, "toy-1")
    stdin = io.BytesIO(jsonl.encode(req) + b"not json\n" + b'{"type": "case", "id": "q"}\n' + jsonl.BYE
                       + jsonl.encode(req))
    stdout = io.BytesIO()
    assert serve.serve(["toy"], stdin, stdout) == 0
    lines = stdout.getvalue().splitlines()
    assert jsonl.parse_hello(lines[0]).games == ["toy"]
    reply = jsonl.parse_reply(lines[1], req.id)
    assert reply.winner == "alice" and reply.error is None
    assert "malformed request" in CaseReply.model_validate_json(lines[2]).error
    bad = CaseReply.model_validate_json(lines[3])
    assert bad.id == "q" and "malformed request" in bad.error
    assert len(lines) == 4  # nothing answered after bye


def test_serve_refuses_a_game_it_does_not_serve(toy):
    from oracle.model import CaseRequest

    req = CaseRequest(id="x", game="mtg", ruleset="r", setup={}, script=[], cards={})
    assert "not mtg" in serve.answer(jsonl.encode(req), ["toy"]).error
