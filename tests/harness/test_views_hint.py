"""The request's optional ``views`` (protocol 2): the harness says which reply views it reads for a case;
``serve`` then leaves out what is not read (checkpoints: one state projection per script entry), a
protocol-1 engine never sees the field, and every verdict is the same with or without it."""

from __future__ import annotations

import io
import json

import pytest

from oracle.harness import jsonl
from oracle.harness.engine import ReferenceEngine
from oracle.harness.request import make_request, views_read
from oracle.harness.serve import Behaviour, answer, serve
from oracle.loader import load_suite
from oracle.model import CaseRequest, EngineInfo, Hello, json_schema

GAMES = ["ijinden", "duelmasters", "mtg"]


@pytest.fixture(scope="module")
def cases():
    return {lc.case.id: lc for lc in load_suite().cases}


def _hello(level: str = "trace", version: int = 2, capabilities: tuple[str, ...] = ("views",)) -> Hello:
    return Hello(protocol_version=version, engine=EngineInfo(name="x", version="1"), games=GAMES,
                 capabilities=list(capabilities), **({"observation": level} if version > 1 else {}))


def _one(cases, want_after: bool, want_rejected: bool):
    return next(lc for lc in cases.values()
                if bool(lc.case.expect.after) == want_after and bool(lc.case.expect.rejected) == want_rejected)


def test_views_name_what_each_level_reads(cases):
    plain, after, refusal = _one(cases, False, False).case, _one(cases, True, False).case, _one(cases, False, True).case
    assert views_read(plain, _hello()) == ["final", "decisions", "trace"]
    assert views_read(after, _hello()) == ["final", "decisions", "trace", "checkpoints"]
    assert views_read(refusal, _hello()) == ["final", "decisions", "trace"]  # at level trace: read from the trace
    assert views_read(refusal, _hello("checkpoints")) == ["final", "decisions", "checkpoints"]
    assert views_read(refusal, _hello("steps")) == ["final", "decisions", "steps", "checkpoints"]
    assert views_read(plain, _hello("checkpoints")) == ["final", "decisions"]
    assert views_read(after, _hello("final")) == ["final", "decisions"]
    assert views_read(after, _hello(version=1)) is None  # a protocol-1 engine is never sent the field
    assert views_read(after, _hello(capabilities=("legality",))) is None  # nor one that does not ask for it
    assert views_read(after, None) is None


def test_serve_asks_for_views_and_the_runner_sends_them_only_then(cases):
    from oracle.harness.runner import choose_ruleset, run_case

    assert "views" in Behaviour().hello(GAMES).capabilities
    assert "views" in Behaviour(observation="final", reason_codes=False).hello(GAMES).capabilities
    seen: list[CaseRequest] = []

    class Recording(ReferenceEngine):
        def run_case(self, request, timeout=None):
            seen.append(request)
            return super().run_case(request, timeout)

    lc = _one(cases, True, False)
    ruleset, _ = choose_ruleset(lc, None)
    engine = Recording()
    for hello in (engine.hello(), _hello()):
        assert run_case(engine, lc, ruleset, "x", hello=hello).status == "pass"
    assert seen[0].views is None and seen[1].views == ["final", "decisions", "trace", "checkpoints"]


def test_a_request_without_views_is_written_without_the_field(cases):
    lc = _one(cases, False, False)
    line = jsonl.encode(make_request(lc.case, "ijinden-rulecard-2.0-231225"))
    assert b'"views"' not in line
    hinted = make_request(lc.case, "x", views=["final", "decisions"])
    assert json.loads(jsonl.encode(hinted))["views"] == ["final", "decisions"]
    assert CaseRequest.model_validate_json(jsonl.encode(hinted)) == hinted


def test_an_unknown_view_is_a_malformed_request(cases):
    data = make_request(_one(cases, False, False).case, "ijinden-rulecard-2.0-231225").model_dump(mode="json")
    data["views"] = ["trace", "moments"]
    reply = answer(json.dumps(data).encode(), GAMES)
    assert reply.error and "malformed request" in reply.error and "views.1" in reply.error


def test_the_protocol_schema_documents_views():
    schema = json.dumps(json_schema("protocol"))
    assert '"views"' in schema and "checkpoints" in schema


@pytest.mark.parametrize("level", ["trace", "checkpoints", "steps", "final"])
def test_serve_sends_checkpoints_only_when_read(cases, level):
    from oracle.harness.runner import choose_ruleset

    behaviour = Behaviour(observation=level)
    lc = _one(cases, True, False)
    base = make_request(lc.case, choose_ruleset(lc, None)[0])
    full = answer(jsonl.encode(base), GAMES, behaviour)
    hinted = answer(jsonl.encode(base.model_copy(update={"views": views_read(lc.case, _hello(level))})), GAMES,
                    behaviour)
    bare = answer(jsonl.encode(base.model_copy(update={"views": ["final", "decisions", "trace"]})), GAMES, behaviour)
    assert full.error is None and hinted.error is None and bare.error is None
    has_checkpoints = level != "final"
    assert (full.checkpoints is not None) == has_checkpoints
    assert hinted == full  # the case reads its checkpoints: they are sent
    assert bare.checkpoints is None  # not read: left out
    assert bare.model_copy(update={"checkpoints": full.checkpoints}) == full  # and nothing else changes


def test_every_golden_verdict_is_the_same_with_and_without_views(cases):
    """Over ``serve`` in process at level trace: the replies the harness reads are equal."""
    from oracle.harness.compare import compare
    from oracle.harness.runner import choose_ruleset

    hello = Behaviour().hello(GAMES)
    for lc in cases.values():
        ruleset, skip = choose_ruleset(lc, None)
        if skip:
            continue
        base = make_request(lc.case, ruleset)
        full = answer(jsonl.encode(base), GAMES)
        hinted = answer(jsonl.encode(base.model_copy(update={"views": views_read(lc.case, hello)})), GAMES)
        assert compare(lc.case, full, hello) == compare(lc.case, hinted, hello), lc.case.id


def test_integers_near_the_limit_are_told_apart_exactly():
    """The digit count of each integer literal decides whether the setup is walked for one past 2**53."""
    good = {"type": "case", "schema_version": 1, "id": "n", "game": "ijinden", "ruleset": "ijinden-rulecard-2.0-231225",
            "setup": {"active": "alice", "players": {"alice": {"deck": 3}, "bob": {}}}, "script": [], "cards": {}}

    def error(value: int) -> str | None:
        out = io.BytesIO()
        line = json.dumps({**good, "setup": {**good["setup"], "turn": value}}).encode()
        serve(["ijinden"], io.BytesIO(line + b"\n"), out)
        return json.loads(out.getvalue().splitlines()[1]).get("error")

    assert "too large" not in (error(2 ** 53) or "")
    assert "too large" not in (error(-(2 ** 53)) or "")
    assert "setup.turn: the number 9007199254740993 is too large" in error(2 ** 53 + 1)
    assert "the number -9007199254740993 is too large" in error(-(2 ** 53 + 1))


def test_long_digit_runs_outside_integers_are_no_error_and_legality_lines_are_read_as_legality():
    """``serve`` reads a line in one pass when pydantic's parser takes it: a run of digits in a string (the
    gate of the walk for integers past 2**53) is no error, and a legality query is answered as one."""
    setup = {"active": "alice", "players": {"alice": {"deck": 3}, "bob": {}}, "note": "12345678901234567890123"}
    case = {"type": "case", "schema_version": 1, "id": "99999999999999999999", "game": "ijinden",
            "ruleset": "ijinden-rulecard-2.0-231225", "setup": setup, "script": [], "cards": {}}
    reply = answer(json.dumps(case).encode(), GAMES)
    assert reply.error is None and reply.id == "99999999999999999999"
    query = {**case, "type": "legality", "id": "q", "decision": {"player": "alice", "kind": "no_such_kind"}}
    legal = answer(json.dumps(query).encode(), GAMES)
    assert type(legal).__name__ == "LegalityReply" and legal.id == "q" and legal.accepted is False
    spaced = json.dumps(query, indent=1).replace("\n", " ").encode()  # the same query, other bytes
    assert answer(spaced, GAMES) == legal


def test_the_gate_of_the_walk_for_long_integers_finds_every_run_that_long():
    from oracle.harness.serve import INT_DIGITS, long_digit_run

    n = INT_DIGITS
    assert long_digit_run(b'{"a": ' + b"1" * n + b"}") and long_digit_run(b'{"a": -' + b"9" * n + b"}")
    assert long_digit_run(b'{"a": "x' + b"0123456789" * 2 + b'"}')
    assert not long_digit_run(b'{"a": ' + b"1" * (n - 1) + b', "b": ' + b"2" * (n - 1) + b"}")
    assert not long_digit_run(b'{"a": ' + b"1" * (n - 1) + b"." + b"1" * (n - 1) + b"}")


def test_a_legality_query_without_its_type_is_read_as_a_case_request_as_before():
    """Only ``"type": "legality"`` makes a line a legality query; without it the line is a case request (and a
    legality-shaped one is malformed), whatever else the line says."""
    query = {"id": "legality", "game": "ijinden", "ruleset": "ijinden-rulecard-2.0-231225",
             "setup": {"active": "alice", "players": {"alice": {"deck": 3}, "bob": {}}}, "script": [], "cards": {},
             "decision": {"player": "alice", "kind": "no_such_kind"}}
    reply = answer(json.dumps(query).encode(), GAMES)
    assert type(reply).__name__ == "CaseReply" and reply.error and "malformed request" in reply.error
