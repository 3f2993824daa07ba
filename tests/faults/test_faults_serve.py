"""Fault injection, ``tcg-oracle serve``: whatever a request line holds -- too deep, too large, not JSON,
not UTF-8, a huge count -- it is answered with an ``error`` result and the next request is served."""

from __future__ import annotations

import io
import json

import pytest

from oracle.harness.serve import serve

GOOD = {"type": "case", "schema_version": 1, "id": "good", "game": "ijinden", "ruleset": "ijinden-rulecard-2.0-231225",
        "setup": {"active": "alice", "players": {"alice": {"deck": 3}, "bob": {}}}, "script": [], "cards": {}}


def _serve(*lines: bytes) -> list[dict]:
    out = io.BytesIO()
    assert serve(["ijinden"], io.BytesIO(b"".join(line + b"\n" for line in lines)), out) == 0
    return [json.loads(x) for x in out.getvalue().splitlines()]


def _with(**setup) -> bytes:
    return json.dumps({**GOOD, "id": "bad", "setup": {**GOOD["setup"], **setup}}).encode()


@pytest.mark.parametrize("line, words", [
    (b'{"type": "case", "id": "x", "setup": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "nested deeper than 128"),
    (b"[" * 150 + b"]" * 150, "nested deeper than 128"),
    (_with(players={"alice": {"deck": 10_000_000}, "bob": {}}), "10,000,000 cards in alice's deck"),
    (_with(players={"alice": {"deck": 10 ** 40}, "bob": {}}), "the limit is"),
    (_with(players={f"p{i}": {} for i in range(100)}), "100 players"),
    (b"not json at all", "malformed request"),
    (b'{"type": "case", "id": "\xff\xfe"}', "malformed request"),
    (b'{"type": "case", "id": "n", "setup": {"x": 1' + b"0" * 5000 + b"}}", "malformed request"),
    (b'{"type": "case", "id": "a\\ud800"}', "cannot be written as JSON"),
    (json.dumps({**GOOD, "id": "lone\ud800"}).encode(), "cannot be written as JSON"),
])
def test_a_bad_request_is_answered_and_serving_goes_on(line, words):
    """Defect 9: 1,000+ levels of nesting raised RecursionError and serve exited; defect 2: a huge deck
    sent to serve hung."""
    replies = _serve(line, json.dumps(GOOD).encode())
    assert len(replies) == 3  # hello, the error, the good case
    assert words in replies[1]["error"]
    assert replies[2]["id"] == "good" and replies[2].get("error") is None or "script" in replies[2]["error"]


def test_a_request_line_past_the_limit_is_answered_without_reading_it_whole(monkeypatch):
    from oracle.harness import serve as serve_module

    monkeypatch.setattr(serve_module, "LINE_MAX_BYTES", 1000)
    replies = _serve(b'{"type": "case", "id": "' + b"x" * 5000 + b'"}', json.dumps(GOOD).encode())
    assert len(replies) == 3 and "request line longer than 1,000 bytes" in replies[1]["error"]
    assert replies[2]["id"] == "good"
