"""The optional ``legal_blocks`` capability: the reference engine's answers match every block-count file
(through the protocol's JSON), and an engine that miscounts is named entry by entry."""

from __future__ import annotations

import json

import pytest

from oracle.model import LegalBlocksReply, LegalBlocksRequest, json_schema
from oracle.smt.legal_blocks import check_engine, reference_answer


def over_the_wire(request: LegalBlocksRequest) -> LegalBlocksReply:
    line = request.model_dump_json()
    reply = reference_answer(LegalBlocksRequest.model_validate_json(line))
    return LegalBlocksReply.model_validate_json(reply.model_dump_json())


@pytest.mark.parametrize("game", ["ijinden", "duelmasters", "mtg"])
def test_reference_answers_match_the_block_counts(game):
    assert check_engine(over_the_wire, game) == []


def test_a_miscounting_engine_is_named_per_entry():
    def menace_blind(request: LegalBlocksRequest) -> LegalBlocksReply:
        right = reference_answer(request)
        menace = any("menace" in c.get("abilities", []) for p in request.setup["players"].values()
                     for c in p["battlefield"])
        return right.model_copy(update={"count": right.count + 3}) if menace else right

    problems = check_engine(menace_blind, "mtg")
    assert any(p.startswith("mtg.counts.menace-three-blockers: expected 5") for p in problems)
    assert not any("flier-reach" in p for p in problems)


def test_enumerate_lists_the_declarations():
    from oracle.smt.counts import board_of, load_counts
    from oracle.smt.legal_blocks import request_of

    entry = next(e for e in load_counts("mtg").entries if e.id == "mtg.counts.flier-reach-and-flying")
    reply = reference_answer(request_of(board_of("mtg", entry), entry.id, enumerate_=True))
    assert sorted(map(tuple, reply.declarations)) == sorted([(), (("f", "a"),), (("r", "a"),), (("f", "a"), ("r", "a"))])


def test_the_protocol_schema_has_legal_blocks():
    text = json.dumps(json_schema("protocol"))
    assert "LegalBlocksRequest" in text and "LegalBlocksReply" in text
