"""``serve`` reads requests with orjson and writes replies with it: the same requests and the same bytes as
pydantic's own JSON (``model_validate_json``, :func:`oracle.harness.jsonl.encode`), on every golden case; and
where orjson reads or writes differently (an integer past 64 bits, a lone surrogate), pydantic's path."""

from __future__ import annotations

import json

import orjson
import pytest

from oracle import registry
from oracle.bench import _requests
from oracle.harness import jsonl
from oracle.harness.serve import _dump, answer
from oracle.model import CaseReply, CaseRequest, LegalityReply, TraceEntry

GAMES = registry.names()


@pytest.fixture(scope="module")
def lines() -> list[bytes]:
    return [jsonl.encode(r) for r in _requests(views=True)]


def test_every_golden_request_is_read_as_pydantic_reads_it_and_answered_in_its_bytes(lines):
    assert len(lines) > 400
    for line in lines:
        assert CaseRequest.model_validate(orjson.loads(line)) == CaseRequest.model_validate_json(line)
        reply = answer(line, GAMES)
        assert isinstance(reply, CaseReply) and reply.error is None, line[:200]
        assert _dump(reply) == jsonl.encode(reply), reply.id


def test_replies_of_every_shape_are_written_as_pydantic_writes_them():
    for reply in (CaseReply(id="e", error="why"), LegalityReply(id="l", accepted=True),
                  CaseReply(id="ü", trace=[TraceEntry(moment=1, kind="moved", args={"from": "hand", "n": 1.5})])):
        assert _dump(reply) == jsonl.encode(reply)


def test_an_integer_past_64_bits_stays_an_integer():
    """orjson would read it as a float: such a line is read by pydantic (and the size limits then say no)."""
    big = {"type": "case", "schema_version": 1, "id": "big", "game": "ijinden", "ruleset": "ijinden-rulecard-2.0-231225",
           "setup": {"active": "alice", "players": {"alice": {"deck": 10 ** 40}, "bob": {}}}, "script": [],
           "cards": {}}
    reply = answer(json.dumps(big).encode(), GAMES)
    assert reply is not None and "the limit is" in (reply.error or "")


def test_a_reply_orjson_cannot_write_is_written_by_pydantic():
    huge = CaseReply(id="h", trace=[TraceEntry(moment=1, kind="counted", args={"n": 2 ** 70})])
    assert json.loads(_dump(huge))["trace"][0]["args"]["n"] == 2 ** 70
