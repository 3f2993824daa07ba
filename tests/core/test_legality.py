"""The legality API (oracle.core.legality): the enumeration agrees with the engine on every golden decision,
perft-style counts derived by hand from the rule text, the well-formed / rules split, pure validators."""

from __future__ import annotations

import dataclasses
import json

import pytest

from oracle.core import legality as L
from oracle.core.errors import ScriptError
from oracle.core.script import Decision
from oracle.harness.request import make_request
from oracle.loader import load_suite

from legality_requests import advance_to, request

SUITE = load_suite()
RUNS = [(lc, r) for lc in SUITE.cases for r in lc.case.rulesets]
RULESET = {"ijinden": "ijinden-rulecard-2.0-231225", "duelmasters": "dm-seed-crossgear-era", "mtg": "cr-20231117"}


def _outcomes(request) -> dict[int, tuple[str | None, str]]:
    """Script index -> (refusal reason or None, clause) from the reference engine's trace."""
    from oracle import registry

    out = {}
    for e in registry.get(request.game).run(request).trace:
        if e.kind in ("decided", "rejected"):
            out[e.args["at"]] = (e.args.get("reason"), e.clause)
    return out


@pytest.mark.parametrize("lc, ruleset", RUNS, ids=[f"{lc.case.id}@{r}" for lc, r in RUNS])
def test_every_scripted_decision_is_accepted_exactly_when_the_enumeration_holds_it(lc, ruleset):
    from oracle import registry

    request = make_request(lc.case, ruleset)
    # a script's shorthand written out (Magic: implied passes): legality is asked of explicit scripts
    request = request.model_copy(update={"script": registry.get(request.game).explicit_script(request)})
    actual = _outcomes(request)
    for i, entry in enumerate(request.script):
        p = L.legal_decisions(request, i, verify_pure=True)
        assert p.point is not None, f"{lc.case.id}: no decision asked at script entry {i}"
        assert p.complete and not p.unenumerated, p.unenumerated
        verdict, parsed = L.judge(p.game, p.point, Decision(i, entry["player"], entry["kind"], entry.get("args")))
        assert L.check(request, i, entry) == verdict
        reason, clause = actual[i]
        assert (verdict.reason if verdict else None) == reason, f"{lc.case.id}[{i}]"
        if verdict is None:
            legal = {L.key(p.game, o.kind, L.judge(p.game, p.point, Decision(i, o.player, o.kind, o.args))[1])
                     for o in p.legal}
            if entry["kind"] not in p.kinds:  # a decision of any time (Magic's concede, 104.3a): listed apart
                assert {"player": entry["player"], "kind": entry["kind"], "args": None} in \
                    [o.as_entry() for o in p.anytime], f"{lc.case.id}[{i}]: {entry} not among {p.anytime}"
                continue
            assert L.key(p.game, entry["kind"], parsed) in legal, f"{lc.case.id}[{i}]: {entry} not enumerated"
        else:
            assert verdict.clause == clause, f"{lc.case.id}[{i}]"
            written = [(o.player, o.kind, json.dumps(o.args, ensure_ascii=False)) for o in p.legal]  # dict order counts
            assert (entry["player"], entry["kind"], json.dumps(entry.get("args"), ensure_ascii=False)) not in written


# -- perft-style counts: small boards, counted by hand from the rule text ------------------------------

def _request(game: str, setup: dict, script: list | tuple = ()) -> dict:
    return request(game, RULESET[game], setup, script)


def test_perft_ijinden_battle_declaration():
    """A1 「アタッカーにするイジンを1体以上選ぶ。寝ている状態のイジンや、このターンに戦場に置かれたばかりの
    イジンは選べない」; 即応 「戦場に置かれたターンでもアタッカーになれる」.
    alice: a, b awake Ijin; c sleeping; d placed this turn; e placed this turn with 即応; g a guardian (not an
    Ijin). Attackers come from {a, b, e}: 2**3 - 1 = 7 non-empty sets; the open point also offers end_turn: 8."""
    ijin, guard = "テスト用イジン", "テスト用ガーディアン"
    req = _request("ijinden", {"active": "alice", "players": {
        "alice": {"battlefield": [{"id": "a", "card": ijin, "power": 1000}, {"id": "b", "card": ijin, "power": 1000},
                                  {"id": "c", "card": ijin, "power": 1000, "tapped": True},
                                  {"id": "d", "card": ijin, "power": 1000, "entered_this_turn": True},
                                  {"id": "e", "card": ijin, "power": 1000, "entered_this_turn": True,
                                   "abilities": ["sokuou"]},
                                  {"id": "g", "card": guard}]},
        "bob": {"battlefield": []}}})
    p = L.legal_decisions(req, 0)
    assert (p.player, p.kinds, p.optional) == ("alice", ("declare_attackers", "end_turn"), True)
    assert p.count == 8
    assert p.tried == 2 ** 6 - 1 + 1
    assert {frozenset(o.args) for o in p.legal if o.kind == "declare_attackers"} == {
        frozenset(s) for s in (["a"], ["b"], ["e"], ["a", "b"], ["a", "e"], ["b", "e"], ["a", "b", "e"])}


def test_perft_ijinden_block_declaration_with_triple_pressure():
    """B1 「ブロッカーにするイジンまたはガーディアンを0体以上、それぞれアタッカーを指定して…選ぶ。寝ている状態の
    イジンやガーディアンは選べない」; TRIPLE-PRESSURE 「3体以上のブロッカーが必要です…2体以下で指定することは
    できません」. Attackers a (plain) and x (triple pressure); bob: Ijin p, q, guardian r, sleeping Ijin s.
    p, q, r each block nothing, a or x; x has no blocker or all three: 2**3 (x none) + 1 (x gets p, q, r) = 9."""
    ijin, guard = "テスト用イジン", "テスト用ガーディアン"
    req = _request("ijinden", {"active": "alice", "players": {
        "alice": {"battlefield": [{"id": "a", "card": ijin, "power": 1000},
                                  {"id": "x", "card": ijin, "power": 1000, "abilities": ["triple_pressure"]}]},
        "bob": {"battlefield": [{"id": "p", "card": ijin, "power": 1000}, {"id": "q", "card": ijin, "power": 1000},
                                {"id": "r", "card": guard}, {"id": "s", "card": ijin, "power": 1000, "tapped": True}]}}},
        [{"alice": {"declare_attackers": ["a", "x"]}}])
    p = L.legal_decisions(req, 1)
    assert (p.player, p.kinds, p.clause) == ("bob", ("declare_blockers",), "ijinden:B1")
    assert p.count == 9
    assert p.tried == 3 ** 4
    assert {"x": ["p", "q", "r"]} in [o.args for o in p.legal]


def test_perft_duelmasters_attacks():
    """P1 「自分のクリーチャーがあるとき、相手に攻撃することができます」; P2 「このターンにバトルゾーンに出した
    クリーチャーは攻撃できません」 but N1 「スピードアタッカーを持つクリーチャーなどは…攻撃ができます」; A1 「クリーチャー
    を１体選んでタップします」 (an untapped one), 「どのシールドを攻撃するかまでは指定しません」; C1 「タップされている相手
    クリーチャーのうち、１体を選びます」. alice: m1 ready, m2 new this turn, m3 tapped, m4 new with speed attacker,
    m5 攻撃不可; bob: t1 tapped, t2 untapped, 2 shields. Attackers m1, m4; targets bob, t1: 2 * 2 = 4 attacks,
    no tap ability, and end_turn: 5."""
    v = "試験用バニラ"
    req = _request("duelmasters", {"active": "alice", "players": {
        "alice": {"battlefield": [{"id": "m1", "card": v, "power": 1000},
                                  {"id": "m2", "card": v, "power": 1000, "entered_this_turn": True},
                                  {"id": "m3", "card": v, "power": 1000, "tapped": True},
                                  {"id": "m4", "card": "試験用スピードアタッカー", "power": 1000,
                                   "entered_this_turn": True},
                                  {"id": "m5", "card": "試験用攻撃不可", "power": 1000}], "shields": 2},
        "bob": {"battlefield": [{"id": "t1", "card": v, "power": 1000, "tapped": True},
                                {"id": "t2", "card": v, "power": 1000}], "shields": 2}}})
    p = L.legal_decisions(req, 0)
    assert p.kinds == ("attack", "tap_ability", "end_turn")
    assert p.count == 5
    assert sorted((o.args["attacker"], o.args["target"]) for o in p.legal if o.kind == "attack") == [
        ("m1", "bob"), ("m1", "t1"), ("m4", "bob"), ("m4", "t1")]


def test_perft_duelmasters_blocks():
    """A3 「相手バトルゾーンにブロッカーが存在する場合、ブロックするかどうかを相手が決めます。「ブロッカー」の能力を
    持っているクリーチャーは…代わりにバトルを行う」; a tapped ブロッカー cannot block (the catalog's reading
    duelmasters:X-blocker-taps). bob: k1, k2 untapped ブロッカー, k3 a tapped one, v a vanilla creature. Block
    with k1, block with k2, or do not block: 3."""
    v, blocker = "試験用バニラ", "試験用ブロッカー"
    req = _request("duelmasters", {"active": "alice", "players": {
        "alice": {"battlefield": [{"id": "m1", "card": v, "power": 1000}], "shields": 2},
        "bob": {"battlefield": [{"id": "k1", "card": blocker, "power": 1000}, {"id": "k2", "card": blocker, "power": 1000},
                                {"id": "k3", "card": blocker, "power": 1000, "tapped": True},
                                {"id": "v", "card": v, "power": 1000}], "shields": 2}}},
        [{"alice": {"attack": {"attacker": "m1", "target": "bob"}}}])
    p = L.legal_decisions(req, 1)
    assert (p.player, p.kinds) == ("bob", ("block", "no_block"))
    assert p.count == 3
    assert sorted((o.kind, o.args) for o in p.legal if o.kind == "block") == [("block", "k1"), ("block", "k2")]


def test_perft_mtg_block_declaration():
    """509.1a 「The chosen creatures must be untapped…」; flying (702.9) 「can't be blocked except by creatures
    with flying or reach」; menace (702.111) 「can't be blocked except by two or more creatures」. Attackers f
    (flying), m (menace), n; bob: w (a plain 2/2), r (reach), t (tapped). w blocks nothing, m or n (3); r
    nothing, f, m or n (4): 12, less those where m has exactly one blocker: w on m with r not (3), r on m
    with w not (2): 12 - 5 = 7."""
    req = _request("mtg", {"active": "alice", "phase": "combat", "players": {
        "alice": {"battlefield": [{"id": "f", "card": "Oracle Hawk"}, {"id": "m", "card": "Oracle Ravager"},
                                  {"id": "n", "card": "Oracle Bear"}]},
        "bob": {"battlefield": [{"id": "w", "card": "Oracle Bear"}, {"id": "r", "card": "Oracle Archer"},
                                {"id": "t", "card": "Oracle Brute", "tapped": True}]}}},
        [{"alice": {"declare_attackers": {"f": "bob", "m": "bob", "n": "bob"}}}])
    p = advance_to(req, "declare_blockers")
    assert (p.player, p.kinds) == ("bob", ("declare_blockers",))
    assert p.count == 7
    assert sorted(sorted(o.args.items()) for o in p.legal) == sorted([
        [], [("w", "n")], [("r", "f")], [("r", "n")], [("r", "n"), ("w", "n")], [("r", "f"), ("w", "n")],
        [("r", "m"), ("w", "m")]])


def test_perft_mtg_attack_declaration():
    """508.1a 「untapped…each one must either have haste or have been controlled by the active player
    continuously since the turn began」, 「if any」; 508.1b: a player or a planeswalker an opponent controls.
    alice: a1 ready, a2 new this turn, a3 new with haste, a4 tapped; bob controls planeswalker pw. a1 and a3
    each attack nothing, bob or pw: 3 * 3 = 9 (the empty declaration included)."""
    bear = "Oracle Bear"
    req = _request("mtg", {"active": "alice", "phase": "combat", "players": {
        "alice": {"battlefield": [{"id": "a1", "card": bear}, {"id": "a2", "card": bear, "entered_this_turn": True},
                                  {"id": "a3", "card": "Oracle Sprinter", "entered_this_turn": True},
                                  {"id": "a4", "card": bear, "tapped": True}]},
        "bob": {"battlefield": [{"id": "pw", "card": "Oracle Walker"}]}}})
    p = advance_to(req, "declare_attackers")
    assert (p.player, p.kinds) == ("alice", ("declare_attackers",))
    assert p.count == 9


# -- the check: well formed, then the rules ------------------------------------------------------

def _ijinden_board(script=()):
    ijin = "テスト用イジン"
    return _request("ijinden", {"active": "alice", "players": {
        "alice": {"battlefield": [{"id": "a", "card": ijin, "power": 1000},
                                  {"id": "z", "card": ijin, "power": 1000, "tapped": True}]},
        "bob": {"battlefield": [{"id": "b", "card": ijin, "power": 1000}]}}}, script)


@pytest.mark.parametrize("decision, reason, stage", [
    ({"alice": {"declare_attackers": ["a"]}}, None, None),
    ({"alice": {"declare_attackers": ["nobody"]}}, "unknown_object", "well_formed"),
    ({"alice": {"declare_attackers": 3}}, "malformed_decision", "well_formed"),
    ({"bob": {"declare_attackers": ["b"]}}, "not_turn_player", "well_formed"),
    ({"alice": {"choose_attacker": "a"}}, "unexpected_decision", "well_formed"),
    ({"alice": {"declare_attackers": ["z"]}}, "attacker_sleeping", "rules"),
    ({"alice": {"declare_attackers": ["b"]}}, "attacker_not_yours", "rules"),
    ({"alice": {"declare_attackers": []}}, "no_attackers", "rules"),
    ({"alice": {"declare_attackers": ["z", "nobody"]}}, "attacker_sleeping", "rules"),   # A1's order: per card
])
def test_check_splits_well_formed_reasons_from_rule_reasons(decision, reason, stage):
    verdict = L.check(_ijinden_board(), 0, decision)
    if reason is None:
        assert verdict is None
    else:
        assert (verdict.reason, verdict.stage) == (reason, stage)
        assert verdict.clause in ("ijinden:A1", "ijinden:BATTLE")


def test_a_protocol_legality_request_is_answered_with_its_short_form_entries():
    req = _ijinden_board([{"alice": {"declare_attackers": ["a"]}}])
    req["script"][0] = {"alice": {"declare_attackers": ["a"]}}           # the short form, as a case writes it
    p = L.legal_decisions(req, 1)
    assert (p.player, p.kinds) == ("bob", ("declare_blockers",))
    assert p.count == 2                                                   # {} or {a: [b]}
    assert L.check(req, 1, {"player": "bob", "kind": "declare_blockers", "args": {"a": ["b"]}}) is None


def test_the_pending_point_after_the_end_and_out_of_range():
    req = _ijinden_board([{"alice": "end_turn"}])
    p = L.pending(req, 1)
    assert p.point is None and p.count == 0
    with pytest.raises(ScriptError, match="no decision is asked after 1"):
        L.check(req, 1, {"alice": "end_turn"})
    with pytest.raises(ValueError, match="outside the script"):
        L.pending(req, 2)
    with pytest.raises(ValueError, match="lacks ruleset"):
        L.pending({k: v for k, v in req.items() if k != "ruleset"}, 0)


def test_a_validator_that_changes_the_state_is_caught():
    p = L.pending(_ijinden_board(), 0)

    def sleepy(d):
        p.state.board.cards["a"].tapped = True       # a validator must never do this
        return p.point.validate(d)

    bad = dataclasses.replace(p, point=dataclasses.replace(p.point, validate=sleepy))
    with pytest.raises(AssertionError, match="changed the ijinden state"):
        L.enumerate_legal(bad, verify_pure=True)
    assert L.enumerate_legal(L.pending(_ijinden_board(), 0), verify_pure=True).count == 2


def test_a_large_candidate_space_is_marked_incomplete(monkeypatch):
    monkeypatch.setattr(L, "MAX_CANDIDATES", 1)
    p = L.legal_decisions(_ijinden_board(), 0)
    assert not p.complete and p.tried == 1


def test_the_only_legal_decision_and_the_same_declaration_in_another_order():
    ijin = "テスト用イジン"
    req = _request("ijinden", {"active": "alice", "players": {
        "alice": {"battlefield": [{"id": "a", "card": ijin, "power": 1000}, {"id": "c", "card": ijin, "power": 1000}]},
        "bob": {"battlefield": [{"id": "b", "card": ijin, "power": 1000, "tapped": True}]}}},
        [{"alice": {"declare_attackers": ["a", "c"]}}])
    p = L.legal_decisions(req, 1)                 # bob's only blocker sleeps (B1): the one declaration is {}
    assert p.only == L.Option("bob", "declare_blockers", {})
    assert p.as_dict() == {"at": 1, "player": "bob", "kinds": ["declare_blockers"], "clause": "ijinden:B1",
                           "optional": False, "winner": None, "count": 1, "complete": True, "unenumerated": {},
                           "legal": [{"player": "bob", "kind": "declare_blockers", "args": {}}], "anytime": []}
    assert p.judge({"bob": {"declare_blockers": {"a": ["b"]}}}).reason == "blocker_sleeping"
    opening = L.legal_decisions(req, 0)
    assert opening.only is None and opening.count == 4
    assert opening.same({"alice": {"declare_attackers": ["a", "c"]}}, {"alice": {"declare_attackers": ["c", "a"]}})
    assert not opening.same({"alice": {"declare_attackers": ["a"]}}, {"alice": {"declare_attackers": ["a", "c"]}})


def test_the_reply_to_a_protocol_legality_query():
    query = {"type": "legality", "id": "q1", **_ijinden_board([{"alice": {"declare_attackers": ["a"]}}]),
             "decision": {"bob": {"declare_blockers": {"a": ["a"]}}}}
    assert L.reply(query) == {"type": "legality", "id": "q1", "accepted": False, "reason": "blocker_not_defenders"}
    query["decision"] = {"bob": {"declare_blockers": {"a": ["b"]}}}
    assert L.reply(query) == {"type": "legality", "id": "q1", "accepted": True, "reason": None}


def test_a_prefix_that_goes_past_the_end_of_the_game_is_a_script_error():
    with pytest.raises(ScriptError, match="never used"):
        L.pending(_ijinden_board([{"alice": "end_turn"}, {"alice": "end_turn"}]), 2)


@pytest.mark.parametrize("game", sorted(RULESET))
def test_every_decision_kind_of_the_vocabulary_is_enumerated_or_says_why_not(game):
    import importlib

    from oracle import registry

    rules = importlib.import_module(registry.get(game).legality)
    kinds = set(registry.get(game).vocabulary.decisions)
    assert kinds <= rules.ENUMERATED | set(rules.UNENUMERATED), sorted(kinds - rules.ENUMERATED)


def test_a_concession_is_legal_at_every_point_and_listed_apart_from_the_points_own_decisions():
    """CR 104.3a "A player can concede the game at any time": at the declare blockers point (no priority) each
    player still in the game may concede; the point's own count (the blocks) is unchanged."""
    lc = next(x for x in SUITE.cases if x.case.id == "mtg.concede.defending-player-concedes-instead-of-declaring-blockers")
    req = make_request(lc.case, "cr-20231117")
    p = L.legal_decisions(req, 3)
    assert p.kinds == ("declare_blockers",) and p.count == 2  # no block, or the bear blocks
    assert sorted(o.player for o in p.anytime) == ["alice", "bob"] and {o.kind for o in p.anytime} == {"concede"}
    assert L.check(req, 3, {"alice": "concede"}) is None and L.check(req, 3, {"bob": "concede"}) is None
    assert p.as_dict()["anytime"] == [{"player": "alice", "kind": "concede", "args": None},
                                      {"player": "bob", "kind": "concede", "args": None}]
    main = L.legal_decisions(req_main := make_request(next(
        x for x in SUITE.cases if x.case.id == "mtg.concede.active-player-concedes-in-main-phase").case, "cr-20231117"), 0)
    # the active player's main-phase point offers alice's concede itself; bob may concede there all the same
    assert "concede" in main.kinds and [o.player for o in main.anytime] == ["bob"]
    assert L.check(req_main, 0, {"bob": "concede"}) is None
