"""The reference engine's fast model construction equals pydantic's own."""

from oracle.core.game import built
from oracle.model import CaseReply, Checkpoint, DecisionOutcome, TraceEntry


def test_built_equals_model_construct_and_validation():
    e = built(TraceEntry, {"moment": 2, "kind": "slept", "args": {"card": "a"}, "clause": "ijinden:A3"})
    assert e == TraceEntry(moment=2, kind="slept", args={"card": "a"}, clause="ijinden:A3")
    assert e == TraceEntry.model_construct(moment=2, kind="slept", args={"card": "a"}, clause="ijinden:A3")
    assert e.model_fields_set == {"moment", "kind", "args", "clause"}
    d = built(DecisionOutcome, {"at": 0, "outcome": "refused", "reason": "menace"})
    c = built(Checkpoint, {"after": -1, "state": {"players": {}}})
    r = built(CaseReply, {"type": "result", "id": "x", "trace": [e], "final": {}, "winner": None, "decisions": [d],
                          "checkpoints": [c], "steps": None, "error": None, "asked": None})
    assert CaseReply.model_validate_json(r.model_dump_json()) == r
    assert r.model_dump() == CaseReply(id="x", trace=[e], decisions=[d], checkpoints=[c]).model_dump()


def test_trace_emits_protocol_entries_equal_to_validated_ones():
    from oracle.core.trace import Trace

    t = Trace()
    t.emit("slept", "ijinden:A3", card="a")
    with t.simultaneous():
        t.emit("moved", "ijinden:D2", card="b", to="graveyard")
        t.emit("moved", "ijinden:D2", card="c", to="graveyard")
    assert t.entries == [TraceEntry(moment=1, kind="slept", args={"card": "a"}, clause="ijinden:A3"),
                         TraceEntry(moment=2, kind="moved", args={"card": "b", "to": "graveyard"}, clause="ijinden:D2"),
                         TraceEntry(moment=2, kind="moved", args={"card": "c", "to": "graveyard"}, clause="ijinden:D2")]
    assert all(type(e) is TraceEntry and e.model_fields_set == {"moment", "kind", "args", "clause"}
               for e in t.entries)
    assert t.entries[0].model_dump_json() == TraceEntry(moment=1, kind="slept", args={"card": "a"},
                                                        clause="ijinden:A3").model_dump_json()
