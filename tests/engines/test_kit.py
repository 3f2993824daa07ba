"""The adapter kit (oracle/engines/kit.py) shared by in-process adapters of real engines."""

from __future__ import annotations

import pytest

from oracle.engines import kit

SETUP = {"active": "alice", "players": {
    "alice": {"life": 7, "hand": [{"id": "s", "card": "Shock"}], "library": 2},
    "bob": {"battlefield": [{"id": "b", "card": "Bear", "controller": "alice", "owner": "bob"}], "library": []},
    "carol": {}}}
ZONES = ("battlefield", "hand", "library", "graveyard")


def test_lay_out_leaves_every_zone_the_case_does_not_state_empty():
    board = kit.lay_out(SETUP, ZONES, filler="Plains", anonymous_zones=("library",))
    assert board.players == ("alice", "bob", "carol") and board.active == "alice"
    assert all(board.of("carol", z) == () for z in ZONES)          # carol: {} states nothing: all empty
    assert board.of("bob", "hand") == () and ("bob", "hand") not in board.stated
    assert ("bob", "library") in board.stated and board.of("bob", "library") == ()
    assert board.life == {"alice": 7, "bob": 20, "carol": 20}


def test_lay_out_names_anonymous_cards_as_the_reference_does_from_the_top():
    board = kit.lay_out(SETUP, ZONES, filler="Plains", anonymous_zones=("library",))
    lib = board.of("alice", "library")
    assert [(c.id, c.card, c.anonymous) for c in lib] == [("alice.library.1", "Plains", True),
                                                         ("alice.library.2", "Plains", True)]
    bear = board.find("b")
    assert (bear.player, bear.owner, bear.controller, bear.anonymous) == ("bob", "bob", "alice", False)


def test_lay_out_cannot_set_up_a_zone_the_engine_lacks_nor_anonymous_cards_elsewhere():
    outside = {"active": "a", "players": {"a": {"outside_game": [{"id": "o", "card": "Bear"}]}}}
    with pytest.raises(kit.CannotSetUp, match="a.outside_game: the engine has no zone 'outside_game'"):
        kit.lay_out(outside, ZONES)
    with pytest.raises(kit.CannotSetUp, match="alice.library: anonymous cards"):
        kit.lay_out(SETUP, ZONES)                                   # no filler given
    assert kit.lay_out({"active": "a", "players": {"a": {"outside_game": []}}}, ZONES).of("a", "hand") == ()


def test_record_writes_outcomes_with_their_events_and_checkpoints():
    rec = kit.Record()
    rec.checkpoint(-1, {"n": 0})
    rec.event(0, "tapped", card="x")
    rec.outcome(0, {"player": "alice", "kind": "cast"}, "accepted", {"n": 1})
    rec.outcome(1, {"player": "bob", "kind": "pass"}, "refused", {"n": 1}, why="not now")
    rec.outcome(2, {"player": "bob", "kind": "choose_protector"}, "not_asked", {"n": 1})
    rec.refresh(2, {"n": 2})
    reply = rec.reply("c", {"players": {}}, None)
    assert [d["outcome"] for d in reply["decisions"]] == ["accepted", "refused", "not_asked"]
    assert reply["steps"][0]["events"] == [
        {"kind": "decided", "args": {"at": 0, "player": "alice", "decision": "cast"}},
        {"kind": "tapped", "args": {"card": "x"}}]
    assert reply["steps"][1]["events"] == [{"kind": "rejected", "args": {"at": 1, "player": "bob"}}]
    assert reply["steps"][2]["events"] == [] and reply["why"] == {1: "not now"}
    assert [c["state"]["n"] for c in reply["checkpoints"]] == [0, 1, 1, 2]
    with pytest.raises(ValueError, match="outcome 'ok'"):
        rec.outcome(3, {"player": "bob", "kind": "pass"}, "ok", {})


def test_a_pass_is_implied_unless_the_entry_is_the_holders_priority_decision_or_an_open_point():
    cast = {"player": "alice", "kind": "cast"}
    block = {"player": "bob", "kind": "declare_blockers"}
    assert not kit.implies_pass(cast, "alice", open_point=False)
    assert kit.implies_pass(cast, "bob", open_point=False)       # bob holds priority; the entry is alice's
    assert kit.implies_pass(block, "bob", open_point=False)      # not a priority decision
    assert not kit.implies_pass(block, "alice", open_point=True)


def test_installed_version_reads_the_package_metadata():
    import importlib.metadata

    assert kit.installed_version("pydantic") == importlib.metadata.version("pydantic")
    assert kit.installed_version("no-such-distribution-here") is None


def test_mtg_card_has_every_field_of_the_reference_projection():
    # the fields oracle/games/mtg/procedure.py's project() gives each card
    card = kit.mtg_card(zone="battlefield", owner="a", controller="a")
    assert set(card) == {"zone", "owner", "controller", "face", "types", "subtypes", "tapped", "defense",
                         "protector", "attacking", "blocking", "attached_to", "damage", "counters", "power",
                         "toughness"}
    assert kit.mtg_player(20, False)["library"] == [] and kit.mtg_player(3, True)["lost"] is True
