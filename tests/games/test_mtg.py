"""Magic battles (CR 310): golden cases on the reference engine, seed quotes, coverage, and unit checks per clause."""

from __future__ import annotations

from functools import cache

import pytest

from oracle import registry
from oracle.harness.engine import ReferenceEngine
from oracle.harness.request import make_request
from oracle.harness.runner import run_suite
from oracle.loader import load_cards, load_catalog, load_suite

GAME = "mtg"
RULESET = "cr-20231117"
CURRENT = "cr-20260807"


@cache
def suite():
    return load_suite(games=[GAME])


@cache
def results():
    return run_suite(ReferenceEngine(), suite(), games=[GAME])


def run_case(case_id: str):
    lc = next(lc for lc in suite().cases if lc.case.id == case_id)
    return registry.get(GAME).run(make_request(lc.case, RULESET))


def kinds(reply, kind: str):
    return [(e.args, e.clause) for e in reply.trace if e.kind == kind]


# -- the suite --------------------------------------------------------------------------------

def test_cases_load_without_errors():
    s = suite()
    assert not s.errors, [str(e) for e in s.errors]
    assert len(s.cases) >= 45


def test_every_golden_case_passes():
    bad = [(c.id, c.status, c.divergence.message if c.divergence else c.error) for c in results().cases
           if c.status != "pass"]
    assert not bad


# Every testable clause of the catalog asserted by two passing cases: tests/test_golden.py, for every game.


def test_untestable_clauses_have_reasons():
    for cl in load_catalog(GAME).clauses:
        assert cl.testable or cl.reason


def test_cases_cite_sources_and_known_rulesets():
    for lc in suite().cases:
        assert set(lc.case.rulesets) <= {RULESET, CURRENT} and lc.case.rulesets
        if lc.case.source.kind == "external":
            assert lc.case.source.url and lc.case.source.quote


def _status_under(case, ruleset: str) -> str:
    from oracle.harness.compare import compare

    try:
        reply = registry.get(GAME).run(make_request(case, ruleset))
    except Exception:          # e.g. MissingDecision: the other edition asks for another decision
        return "error"
    return "error" if reply.error else compare(case, reply).status


def test_cases_of_one_edition_do_not_pass_under_the_other():
    """A case listing one ruleset only differs between the editions: the other edition's engine fails it."""
    single = [lc.case for lc in suite().cases if len(lc.case.rulesets) == 1]
    assert {c.rulesets[0] for c in single} == {RULESET, CURRENT}
    passing = {}
    for case in single:
        other = CURRENT if case.rulesets[0] == RULESET else RULESET
        assert _status_under(case, case.rulesets[0]) == "pass", case.id
        passing[case.id] = _status_under(case, other)
    assert not {i: s for i, s in passing.items() if s == "pass"}


def test_a_script_that_fits_both_editions_fails_not_errs_under_the_other():
    """310.7 vs 310.8/704.5w: the same decisions, a different trace (the battle goes at once in the current rules)."""
    for case_id, ruleset in (("mtg.sba.creature-in-combat-becomes-battle", CURRENT),
                             ("mtg.current.creature-in-combat-becomes-battle-goes-at-once", RULESET)):
        case = next(lc.case for lc in suite().cases if lc.case.id == case_id)
        assert _status_under(case, ruleset) == "fail", case_id


def test_traces_cite_only_clauses_of_the_edition_they_run_under():
    """Under cr-20260807 the engine tags the current numbering (mtg:cr20260807.310.9b ...), never the seed's 310."""
    catalog = {c.id: c for c in load_catalog(GAME).clauses}
    wrong = set()
    for lc in suite().cases:
        for ruleset in lc.case.rulesets:
            for e in registry.get(GAME).run(make_request(lc.case, ruleset)).trace:
                clause = catalog.get(e.clause)
                if clause is None or (clause.rulesets and ruleset not in clause.rulesets):
                    wrong.add((lc.case.id, ruleset, e.clause))
    assert not wrong


def test_current_edition_divides_damage_freely_and_spares_only_sieges():
    from oracle.games.mtg.editions import cite

    assert cite(CURRENT, "mtg:310.8b") == "mtg:cr20260807.310.9b"
    assert cite(CURRENT, "mtg:510.1c") == "mtg:cr20260807.510.1c"
    assert cite(RULESET, "mtg:310.8b") == "mtg:310.8b"
    assert cite(CURRENT, "mtg:508.5") == "mtg:508.5"


def test_synthetic_cards_are_marked():
    real = {"Invasion of Tarkir", "Invasion of Theros", "Invasion of Dominaria"}
    for name, card in load_cards(GAME).items():
        assert card.synthetic or name in real, name


def test_required_refusals_exist():
    reasons = {r.reason for lc in suite().cases for r in lc.case.expect.rejected}
    assert {"protector_cant_attack", "not_protector", "battle_cant_attack", "battle_cant_block",
            "blocker_tapped"} <= reasons


# -- unit checks per clause (each reads the trace of one case) ---------------------------------

def test_310_4b_counters_equal_printed_defense():
    r = run_case("mtg.cast.siege-enters-with-defense-and-protector")
    [(args, clause)] = kinds(r, "counters_placed")
    assert args == {"card": "s", "kind": "defense", "count": 3, "defense": 3} and clause == "mtg:310.4b"


def test_310_8a_untyped_battle_needs_no_decision():
    r = run_case("mtg.cast.untyped-battle-protected-by-controller")
    assert not [e for e in r.trace if e.kind == "decided" and e.args["decision"] == "choose_protector"]
    assert r.final["cards"]["u"]["protector"] == "alice"


def test_310_8b_refusal_changes_nothing():
    r = run_case("mtg.attack.refused-protector-attacks-battle")
    i = next(i for i, e in enumerate(r.trace) if e.kind == "rejected")
    assert r.trace[i].clause == "mtg:310.8b"
    assert r.trace[i + 1].kind == "decided"


def test_310_8c_refusal_tagged_with_clause():
    r = run_case("mtg.mp.refused-non-protector-blocks")
    [(args, clause)] = kinds(r, "rejected")
    assert args["reason"] == "not_protector" and clause == "mtg:310.8c"


def test_310_8d_protector_loses_life_not_controller():
    r = run_case("mtg.attack.defending-player-drain-hits-protector")
    assert [a["player"] for a, _ in kinds(r, "life_changed")] == ["bob"]


def test_310_7_waits_for_the_trigger_on_the_stack():
    r = run_case("mtg.siege.zero-defense-stays-while-trigger-on-stack")
    assert r.final["cards"]["s"]["zone"] == "battlefield"
    assert not [a for a, _ in kinds(r, "moved") if a["card"] == "s"]


def test_310_7_source_of_any_trigger_counts():
    r = run_case("mtg.sba.creature-in-combat-becomes-battle")
    order = [e.kind for e in r.trace if e.kind in ("life_changed", "moved") and e.args.get("card", "r") == "r"]
    assert order.index("life_changed") < order.index("moved")


def test_310_10_waits_until_combat_ends():
    r = run_case("mtg.sba.protector-leaves-game-while-attacked")
    ks = [e.kind for e in r.trace]
    assert ks.index("combat_ended") < ks.index("protector_chosen")


def test_310_11b_back_face_is_a_creature():
    r = run_case("mtg.siege.tarkir-defeated-cast-transformed")
    t = r.final["cards"]["t"]
    assert t["face"] == "back" and t["types"] == ["creature"] and t["protector"] is None


def test_combat_damage_is_one_moment():
    r = run_case("mtg.block.menace-two-blockers-and-damage-order")
    moments = {e.moment for e in r.trace if e.kind == "damaged"}
    assert len(moments) == 1


def test_missing_decision_is_a_script_error():
    from oracle.core.errors import MissingDecision

    lc = next(lc for lc in suite().cases if lc.case.id == "mtg.attack.controller-attacks-own-siege")
    req = make_request(lc.case, RULESET)
    req = req.model_copy(update={"script": req.script[:1]})  # the blockers decision is missing
    with pytest.raises(MissingDecision):
        registry.get(GAME).run(req)


def test_508_1k_attacking_a_player_becomes_an_attacker():
    r = run_case("mtg.attack.active-player-declares-each-attack-target")
    tags = {a["target"]: clause for a, clause in kinds(r, "became_attacker")}
    assert tags == {"w": "mtg:508.1k", "b": "mtg:310.8b"}


def test_310_8b_tags_every_legal_attack_on_a_battle():
    """310.8b: "それを守る者を防御プレイヤーとする攻撃プレイヤー1人は、バトルを攻撃できる" — its controller or not."""
    for case_id in ("mtg.attack.controller-attacks-own-siege", "mtg.attack.opponent-attacks-untyped-battle"):
        assert [c for _, c in kinds(run_case(case_id), "became_attacker")] == ["mtg:310.8b"], case_id


def test_defending_player_is_506_2_unless_a_protector_defends_a_battle_it_does_not_control():
    tags = lambda case_id: {a["player"]: c for a, c in kinds(run_case(case_id), "defending_player")}  # noqa: E731
    assert tags("mtg.attack.two-player-nonactive-player-defends") == {"bob": "mtg:506.2"}
    assert tags("mtg.attack.refused-battle-attacks") == {"bob": "mtg:506.2"}
    assert tags("mtg.mp.2hg-teammate-blocks-for-battle") == {"bob": "mtg:310.8d", "carol": "mtg:506.2a"}


def test_509_1a_is_the_declaration_even_for_a_protector():
    r = run_case("mtg.block.protector-blocks-for-self-and-for-battle")
    [decision] = [e for e in r.trace if e.kind == "decided" and e.args["decision"] == "declare_blockers"]
    assert decision.clause == "mtg:509.1a"
    assert {a["card"]: c for a, c in kinds(r, "became_blocker")} == {"y1": "mtg:509.1g", "y2": "mtg:310.8c"}


def test_illegal_protector_is_310_11a_in_the_sba_check_too():
    r = run_case("mtg.sba.control-of-siege-goes-to-protector")
    [(args, clause)] = kinds(r, "rejected")
    assert args["reason"] == "illegal_protector" and clause == "mtg:310.11a"
    assert [e.clause for e in r.trace if e.kind == "decided" and e.args["decision"] == "choose_protector"] == \
        ["mtg:310.10"]


def test_copy_effect_is_707_2_and_the_protector_choice_310_10():
    r = run_case("mtg.sba.nonbattle-becomes-copy-of-siege")
    assert [c for _, c in kinds(r, "became_copy")] == ["mtg:707.2"]
    assert [c for _, c in kinds(r, "protector_chosen")] == ["mtg:310.10"]


def test_ruling_battle_removed_from_combat_deals_no_damage_to_it():
    r = run_case("mtg.combat.attacked-battle-stops-being-battle")
    assert kinds(r, "removed_from_combat") == [({"card": "b"}, "mtg:ruling.removed-from-combat")]
    assert not [a for a, _ in kinds(r, "damaged") if a["target"] == "b"]


def test_creature_that_becomes_a_copy_of_a_battle_leaves_combat():
    r = run_case("mtg.combat.attacker-becomes-copy-of-siege")
    [(copied, _)] = kinds(r, "became_copy")
    [(removed, clause)] = kinds(r, "removed_from_combat")
    assert removed == {"card": "x"} and clause == "mtg:summary.no-combat"
    moment = {e.kind for e in r.trace if e.moment == next(e.moment for e in r.trace if e.kind == "became_copy")}
    assert moment == {"became_copy", "removed_from_combat"}


def test_two_headed_giant_teammate_block_tagged_with_the_seed_note():
    r = run_case("mtg.mp.2hg-teammate-blocks-for-battle")
    assert kinds(r, "became_blocker") == [({"card": "c1", "attacker": "x"}, "mtg:summary.two-headed-giant")]


def test_310_11b_the_triggers_controller_casts_the_back_face():
    r = run_case("mtg.siege.trigger-controller-casts-after-control-change")
    [(args, _)] = [(a, c) for a, c in kinds(r, "cast") if a["face"] == "back"]
    assert args["player"] == "alice" and r.final["cards"]["s"]["controller"] == "alice"


def test_drain_on_a_battle_its_controller_protects_is_508_5_not_310_8d():
    """310.8d applies only "バトルを守る者がそのコントローラーでない場合"; otherwise 508.5."""
    assert [c for _, c in kinds(run_case("mtg.attack.drain-on-untyped-battle-hits-its-protector"), "life_changed")] \
        == ["mtg:508.5"]
    assert [c for _, c in kinds(run_case("mtg.attack.defending-player-drain-hits-protector"), "life_changed")] \
        == ["mtg:310.8d"]


# -- priority in every step (117.3a) and the pass shorthand -------------------------------------

def test_a_pass_with_an_argument_is_a_located_validate_error(tmp_path):
    """A pass is one pass; writing {alice: {pass: declare_blockers}} to mean "pass until" is refused with its place."""
    f = tmp_path / "mtg" / "bad.yaml"
    f.parent.mkdir()
    f.write_text("""- id: mtg.bad.pass-until
  game: mtg
  rulesets: [cr-20231117]
  title: misuse
  source: {kind: seed, document: d, quote: "x"}
  rules: [mtg:117.3d]
  setup: {active: alice, phase: combat, players: {alice: {}, bob: {}}}
  script:
    - {alice: {declare_attackers: {}}}
    - {alice: {pass: declare_blockers}}
  expect: {final: {players: {bob: {life: 20}}}}
""", encoding="utf-8")
    errors = [str(e) for e in load_suite([f]).errors]
    assert len(errors) == 1 and "bad.yaml" in errors[0] and "script" in errors[0] and "pass takes no argument" in errors[0]


def test_players_receive_priority_with_an_empty_stack_in_combat():
    """509.2: after blocks, with nothing on the stack, the defending player may cast an instant (an implied pass
    of the active player first); the attacker it destroys deals no combat damage."""
    reply = run_case("mtg.priority.instant-in-declare-blockers-with-empty-stack")
    order = [e.kind for e in reply.trace if e.kind in ("decided", "cast", "resolved", "combat_ended")]
    assert order == ["decided", "decided", "decided", "cast", "decided", "decided", "resolved", "combat_ended"]
    assert not any(e.kind == "damaged" and e.args.get("combat") for e in reply.trace)


def test_after_resolution_the_active_player_is_asked_first():
    """117.3b: the script's next pass by the non-active player is not taken while the active player has priority:
    with the two passes after the back face is cast swapped, the back face resolves only after both passed, and
    the active player's implied pass comes first."""
    lc = next(lc for lc in suite().cases if lc.case.id == "mtg.priority.active-player-after-siege-trigger-resolves")
    script = list(lc.case.script)
    script[6], script[7] = script[7], script[6]          # alice's pass first, then bob's
    case = lc.case.model_copy(update={"script": script})
    reply = registry.get(GAME).run(make_request(case, RULESET))
    decided = [(e.args["at"], e.args["player"]) for e in reply.trace if e.kind == "decided"]
    # bob (active) has priority: the next entry is alice's, so bob passes implicitly; alice passes (entry 6);
    # both passed in succession: the back face resolves; bob's entry 7 is then refused at his main-phase decision
    assert (6, "alice") in decided
    kinds = [e.kind for e in reply.trace]
    assert kinds.index("resolved", kinds.index("cast", 5)) < max(i for i, e in enumerate(reply.trace) if e.kind == "rejected")


# -- later-step setups (setup.step) -----------------------------------------------------------

_STEP_CASE = """- id: mtg.bad.step
  game: mtg
  rulesets: [cr-20231117]
  title: misuse
  source: {{kind: seed, document: d, quote: "x"}}
  rules: [mtg:310.8c]
  setup:
    active: alice
{step}    players:
      alice: {{battlefield: [{{id: x, card: Oracle Bear, tapped: true, attacking: bob}}]}}
      bob: {{battlefield: [{{id: y, card: Oracle Archer{blocking}}}]}}
  expect: {{final: {{players: {{bob: {{life: 20}}}}}}}}
"""


def _step_errors(tmp_path, step: str, blocking: str = "") -> list[str]:
    f = tmp_path / "mtg" / "bad.yaml"
    f.parent.mkdir(exist_ok=True)
    f.write_text(_STEP_CASE.format(step=step, blocking=blocking), encoding="utf-8")
    return [str(e) for e in load_suite([f]).errors]


def test_an_attacker_in_a_setup_that_starts_before_combat_is_a_located_error(tmp_path):
    """The loader's generic step check with Magic's steps (setups.py)."""
    errors = _step_errors(tmp_path, "")
    assert len(errors) == 1, errors
    assert "bad.yaml:" in errors[0] and "setup.players.alice.battlefield[0].attacking" in errors[0]
    assert "need a setup.step" in errors[0]


def test_a_blocker_needs_the_combat_damage_step(tmp_path):
    errors = _step_errors(tmp_path, "    step: declare_blockers\n", ", blocking: x")
    assert len(errors) == 1 and "battlefield[0].blocking" in errors[0] and "combat_damage" in errors[0], errors
    assert _step_errors(tmp_path, "    step: combat_damage\n", ", blocking: x") == []
    assert any("unknown step" in e for e in _step_errors(tmp_path, "    step: blockers\n"))


def test_an_attack_on_the_active_players_own_siege_can_be_set_up(tmp_path):
    """310.8b: a Siege's controller may attack it, so a setup may hold such an attack (its protector an opponent)."""
    f = tmp_path / "mtg" / "own.yaml"
    f.parent.mkdir(exist_ok=True)
    f.write_text(_STEP_CASE.format(step="    step: declare_blockers\n", blocking="").replace(
        "attacking: bob}]}", "attacking: s}, {id: s, card: Siege of Cinderfall Keep, protector: bob}]}"),
        encoding="utf-8")
    assert "attacking: s}" in f.read_text(encoding="utf-8")
    assert [str(e) for e in load_suite([f]).errors] == []


def test_a_declared_attack_in_the_setup_is_in_the_final_state_until_combat_ends():
    reply = run_case("mtg.step.declare-blockers-protector-blocks")
    assert [e.args for e in reply.trace if e.kind == "decided"] == [{"at": 0, "player": "bob",
                                                                     "decision": "declare_blockers"}]
    assert kinds(reply, "became_blocker") == [({"card": "y", "attacker": "x"}, "mtg:310.8c")]


def test_with_no_attackers_the_end_of_combat_step_still_happens():
    """506.1: "The declare blockers and combat damage steps are skipped if no creatures are declared as attackers"
    -- the end of combat step is not."""
    reply = run_case("mtg.attack.refused-untyped-battle-own-controller")
    tail = [e.kind for e in reply.trace][-2:]
    assert tail == ["decided", "combat_ended"]
    assert not any(e.kind in ("became_blocker", "damaged") for e in reply.trace)


def test_explicit_script_writes_out_the_implied_passes_and_plays_the_same():
    """The shorthand expanded: the passes the engine implied before an entry are inserted there; the explicit
    script is decided entry for entry and ends in the same state."""
    lc = next(lc for lc in suite().cases if lc.case.id == "mtg.priority.instant-in-declare-blockers-with-empty-stack")
    request = make_request(lc.case, RULESET)
    game = registry.get(GAME)
    explicit = game.explicit_script(request)
    # 507.2, 508.2, 509.2: the active player first in each step, then the other; the step ends when both pass
    assert [(e["player"], e["kind"]) for e in explicit][:8] == [
        ("alice", "pass"), ("bob", "pass"),                       # beginning of combat
        ("alice", "declare_attackers"), ("alice", "pass"), ("bob", "pass"),
        ("bob", "declare_blockers"), ("alice", "pass"), ("bob", "cast")]
    full = request.model_copy(update={"script": explicit})
    a, b = game.run(request), game.run(full)
    assert a.final == b.final
    assert sum(e.kind == "decided" for e in b.trace) == len(explicit)


def test_every_clause_constant_is_in_the_catalog_and_written_literally():
    import ast
    from pathlib import Path

    from oracle.games.mtg import clauses

    catalog = {c.id for c in load_catalog(GAME).clauses}
    constants = {n: v for n, v in vars(clauses).items() if n.isupper()}
    assert constants and set(constants.values()) <= catalog
    folder = Path(clauses.__file__).parent
    for path in folder.glob("*.py"):  # no clause id built by concatenation ("mtg:" + number)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
                for side in (node.left, node.right):
                    assert not (isinstance(side, ast.Constant) and isinstance(side.value, str)
                                and side.value.startswith("mtg:")), f"{path.name}:{node.lineno}"


def test_the_trigger_and_spell_effect_tables_cover_the_vocabulary():
    from oracle.games.mtg.abilities import SPELL_EFFECTS, TRIGGER_EFFECTS
    from oracle.games.mtg.casting import TARGETS
    from oracle.games.mtg.vocabulary import ABILITIES

    assert set(SPELL_EFFECTS) == set(TARGETS)
    assert set(SPELL_EFFECTS) <= set(ABILITIES)
    assert set(TRIGGER_EFFECTS) - {"siege"} <= set(ABILITIES)  # the Siege's ability is its battle type's (310.11b)


# -- issue 10 item 4: strikes, trample, counters, zones, concession --------------------------------

def _with_script(case_id: str, script: list[dict], ruleset: str = RULESET):
    lc = next(lc for lc in suite().cases if lc.case.id == case_id)
    req = make_request(lc.case, ruleset)
    return registry.get(GAME).run(req.model_copy(update={"script": script}))


def test_510_4_first_strike_damage_and_regular_damage_are_two_moments_with_priority_between():
    r = run_case("mtg.strike.regular-attacker-strikes-back-in-second-step")
    damage = [e for e in r.trace if e.kind == "damaged"]
    assert [(e.args["source"], e.clause) for e in damage] == [("d", "mtg:702.7b"), ("m", "mtg:510.4")]
    assert damage[0].moment != damage[1].moment


def test_702_19b_a_trampler_whose_power_is_not_more_than_lethal_is_not_asked():
    # the 3/3 double-strike trampler blocked by a 5/5: in the first step all 3 go to the blocker with no decision;
    # in the second (3 damage marked, lethal 2) the assignment is asked
    r = run_case("mtg.trample.lethal-counts-damage-already-marked")
    ks = [(e.kind, e.args.get("decision"), e.args.get("amount")) for e in r.trace
          if e.kind == "damaged" and e.args["source"] == "r" or e.kind == "decided"]
    first = ks.index(("damaged", None, 3))
    asked = [i for i, k in enumerate(ks) if k[:2] == ("decided", "assign_combat_damage")]
    assert asked and all(i > first for i in asked)


def test_702_19b_without_trample_naming_the_attacked_player_is_refused_510_1c():
    r = _with_script("mtg.block.menace-two-blockers-and-damage-order", [
        {"player": "alice", "kind": "declare_attackers", "args": {"m": "b"}},
        {"player": "bob", "kind": "declare_blockers", "args": {"y": "m", "a": "m"}},
        {"player": "alice", "kind": "assign_combat_damage", "args": {"m": {"y": 2, "a": 0, "b": 1}}},
        {"player": "alice", "kind": "assign_combat_damage", "args": {"m": {"y": 2, "a": 1}}}])
    [(args, clause)] = kinds(r, "rejected")
    assert args["reason"] == "illegal_damage_assignment" and clause == "mtg:510.1c"


def test_701_34a_a_malformed_proliferate_choice_is_refused():
    r = _with_script("mtg.counters.proliferate-chooses-only-what-has-counters", [
        {"player": "alice", "kind": "cast", "args": {"card": "pr"}},
        {"player": "alice", "kind": "pass", "args": None},
        {"player": "bob", "kind": "pass", "args": None},
        {"player": "alice", "kind": "proliferate", "args": "w"},
        {"player": "alice", "kind": "proliferate", "args": ["w", "w"]},
        {"player": "alice", "kind": "proliferate", "args": []}])
    assert [a["reason"] for a, _ in kinds(r, "rejected")] == ["malformed_decision", "malformed_decision"]
    assert r.final["cards"]["w"]["counters"] == {"loyalty": 3}


def test_122_1a_counters_add_to_a_set_power_and_toughness():
    from oracle.games.mtg.state import State

    class _C:
        counters = {"+1/+1": 2}
        props = {"pt_effects": [("set", (0, 0))]}
        name = None

    st = State.__new__(State)
    st.cards_def = {}
    assert State.pt(st, _C()) == (2, 2)  # 613.4c: counters apply after effects that set P/T


def test_104_3a_a_concession_by_a_player_without_priority_is_not_taken_there():
    # bob's concede entry waits for bob's priority: alice's pass is implied first, and bob concedes then
    r = _with_script("mtg.concede.two-player-opponent-wins", [
        {"player": "alice", "kind": "cast", "args": {"card": "sp", "targets": ["bob"]}},
        {"player": "bob", "kind": "concede", "args": None}])
    assert [a for a, _ in kinds(r, "lost")] == [{"player": "bob"}] and r.winner == "alice"


def test_players_losing_at_one_check_lose_together_a_draw():
    """704.3 performs every state-based action of a check at once; 104.4a: "If all the players remaining in a game
    lose simultaneously, the game is a draw." One at 0 life (704.5a) and one who drew from an empty library (121.4),
    found at the same check."""
    from oracle.core.script import GameOver, Script
    from oracle.core.trace import Trace
    from oracle.games.mtg import sba
    from oracle.games.mtg.state import build
    from oracle.model import Case
    case = Case.model_validate({
        "id": "t.both-lose", "game": GAME, "rulesets": [RULESET], "title": "both lose at one check",
        "source": {"kind": "generated", "seed": 0, "command": "test", "date": "2026-11-30"}, "rules": ["mtg:121.4"],
        "setup": {"active": "alice", "players": {"alice": {"library": 0}, "bob": {}}},
        "script": [], "expect": {"winner": None}})
    request = make_request(case, RULESET)
    trace = Trace()
    st = build(request, trace)
    st.life["bob"] = 0
    st.drew_from_empty.add("alice")
    with pytest.raises(GameOver) as over:
        sba.check(st, Script([], trace))
    assert over.value.winner is None and st.lost == {"alice", "bob"}
    assert sorted(e.args["player"] for e in trace.entries if e.kind == "lost") == ["alice", "bob"]
    assert not [e for e in trace.entries if e.kind == "won"]
