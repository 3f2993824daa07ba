"""phase.rs (https://github.com/phase-rs/phase), the open-source Magic rules engine, under test through its
PyPI binding ``phase-python`` (0.103.0): ``--engine py:oracle.engines.phase_rs:engine``.

Install it with ``pip install 'tcg-oracle[phase]'`` (or ``pip install 'phase-python==0.103.0'``); nothing
else in tcg-oracle imports ``phase``.

How a case is played:

- **Cards**: the card-pool entries of the request, written as MTGJSON atomic cards in Oracle wording
  (:mod:`oracle.engines.phase_cards`) and read by phase's own parser (``phase.build_oracle_face``; a
  transforming Siege as two faces of ``layout: transform`` with one oracle id). Each parsed face is
  checked against the intended effect; a card phase does not parse as meant is an ``error`` naming it.
  ``become_artifact_creature`` ("... and loses all other card types") is left out of ``hello.abilities``:
  phase's parser drops the type loss, so those cases are skipped, never run with a wrong card.
- **Board**: a game of phase is started with the players in the case's turn order (seat = position; the
  active player first; three or more players: Free-for-All; two teams of two: Two-Headed Giant, where
  phase pairs seats 0+1 and 2+3), every mulligan kept, and in turn 1's upkeep the exported
  ``Game.state()`` is edited -- zones, life, tapped, summoning sickness (entered this turn), counters
  (a battle's defense counters, a planeswalker's loyalty, +1/+1 counters as phase's ``P1P1``), protector
  (``chosen_attributes``; reported on the battlefield only: phase clears it as a card enters, not as it leaves),
  controller and owner, attachments; a library listed from the top; anonymous cards (``library: 5``) as
  Plains fillers with the reference's derived ids (``alice.library.1``); below them every library the case
  leaves unsaid holds 20 untracked Plains, whose draws are not reported (a library the case states is all there
  is: the padding goes to exile, untracked) -- and loaded back (``Engine.load_game``). The players then pass
  priority with an empty stack into the step the case starts in (the precombat main phase, or the declare
  attackers step), so phase itself checks state-based actions on the board. ``setup.step`` (attackers, or
  attackers and blockers, already declared) writes the combat into the state at the end of the step
  before. A power or toughness set by the case cannot be placed (``load_game`` rehydrates every object's
  printed characteristics from its card): such a case is an ``error`` saying so.
- **Decisions**: each script entry becomes a ``GameAction`` (cast with its targets, pass priority, declare
  attackers and blockers, choose a battle's protector, assign combat damage -- with trample, the part named
  for what the attacker attacks is phase's ``trample_damage`` --, cast the Siege transformed, proliferate:
  ``SelectTargets`` at phase's ``ProliferateChoice``, concede: phase's ``Concede``, which phase takes at any
  time; the script gives it where its player holds priority, mtg:A-concede).
  An entry phase refuses is ``refused`` (phase's error text is not a reason code: ``reason_codes: false``).
  A decision phase takes itself (a Siege's only possible protector, no blocks where nothing can block,
  no attackers where nothing can attack) makes the entry naming that option ``automatic`` and an entry
  naming another option ``not_asked``.
- **Priority**: phase gives priority in every step, as ``cases/mtg/PROCEDURE.md`` does (assumption
  ``mtg:A-priority``), and the adapter applies its pass shorthand: while a player has priority and the
  next script entry is not a ``pass`` or ``cast`` of that player, that player passes (an implied pass, in
  no decision's outcome) -- except the active player's decision in a main phase with an empty stack, which
  the script states (``cast``, or ``end_main``: that player's pass there); an exhausted script passes while
  the stack is empty, up to that decision.
- **Report** (protocol 2, level ``steps``): ``decisions``; ``checkpoints`` (the exported state after each
  entry and the passes implied before the next one, projected to the Magic ``final`` vocabulary); ``steps`` (the events phase reports per action,
  mapped to the vocabulary only where phase gives a direct counterpart -- see ``EVENTS``; no
  ``triggered``, ``protector_chosen``, ``defending_player``, ``removed_from_combat``, ``types_changed``,
  ``became_copy``, ``unattached`` or ``combat_ended``: phase reports none of them).
"""

from __future__ import annotations

import json
from typing import Any

from ..core.errors import EngineStartError
from ..errors import OracleError
from ..model import CaseReply, CaseRequest, Hello
from . import phase_cards

PHASE_VERSION = "0.103.0"
INSTALL_HINT = f"pip install 'tcg-oracle[phase]'  (or: pip install 'phase-python=={PHASE_VERSION}')"

ABILITIES = ["flying", "reach", "menace", "haste", "vigilance", "first_strike", "double_strike", "trample",
             "must_be_blocked", "lure", "blocks_each_combat", "deal_damage", "gain_control", "become_copy",
             "become_battle", "become_creature", "add_defense", "put_p1p1_counters", "proliferate", "draw",
             "return_to_hand", "attack_drain"]
"""The Magic abilities whose Oracle wording phase parses to the intended effect (checked per case)."""

EVENTS = ["decided", "rejected", "won", "lost", "drew", "moved", "resolved", "cast", "countered",
          "counters_placed", "counters_removed", "tapped", "became_attacker", "became_blocker", "blocked",
          "damaged", "life_changed", "left_game", "control_changed"]
"""The event kinds reported: phase's own events with a direct counterpart (ZoneChanged, StackResolved,
SpellCast, SpellCountered, CounterAdded/Removed, PermanentTapped, AttackersDeclared, BlockersDeclared,
DamageDealt, LifeChanged, CardsDrawn/CardDrawn, PlayerLost, PlayerEliminated, GameOver, ControllerChanged) and the
script's own decided/rejected entries."""

ZONES = {"Battlefield": "battlefield", "Hand": "hand", "Library": "library", "Graveyard": "graveyard",
         "Exile": "exile", "Stack": "stack"}
ANONYMOUS_ZONES = ("hand", "library", "graveyard", "exile")
"""Where a case's anonymous cards (``library: 5``) are placed: as library fillers (Plains), given the ids the
reference engine derives (``alice.library.1``, ...)."""
PRIORITY_KINDS = ("pass", "cast", "concede")
"""Decisions made where their player holds priority (a concede: mtg:A-concede)."""
CHOICES = {"declare_blockers": ("DeclareBlockers",), "choose_protector": ("BattleProtectorChoice", "NamedChoice"),
           "assign_combat_damage": ("AssignCombatDamage",), "cast_transformed": ("OptionalEffectChoice",),
           "proliferate": ("ProliferateChoice",)}
"""The choices phase asks for, by the prompt it waits with."""
TURN_OVER = ("End", "Cleanup")
"""The case's turn runs main -> combat -> main2 (PROCEDURE.md): no pass is implied beyond its postcombat main
phase."""
PAST = {"declare_attackers": ("DeclareAttackers", "DeclareBlockers", "CombatDamage", "FirstStrikeDamage", "EndCombat",
                              "PostCombatMain", *TURN_OVER),
        "declare_blockers": ("DeclareBlockers", "CombatDamage", "FirstStrikeDamage", "EndCombat", "PostCombatMain",
                             *TURN_OVER),
        "assign_combat_damage": ("CombatDamage", "EndCombat", "PostCombatMain", *TURN_OVER)}
"""Where phase waits for priority in these steps, the combat decision was made (or taken by phase itself):
implied passes stop there."""
MAX_AUTO = 60


def _import_phase() -> Any:
    try:
        import phase  # the one place tcg-oracle imports phase
    except ImportError as exc:
        raise EngineStartError(f"phase.rs is not installed ({exc}); install its Python binding: {INSTALL_HINT}") from None
    return phase


class _CaseFailure(OracleError):
    """The adapter cannot play this case on phase (an unsupported card, a script phase cannot follow)."""


# ------------------------------------------------------------------------------------------------
# Card data


def _expected(name: str, param: Any) -> str:
    """What phase's parse of one ability must contain (a fragment of its JSON), for the check."""
    return {
        "deal_damage": f'"type": "DealDamage", "amount": {{"type": "Fixed", "value": {param}}}',
        "gain_control": '"type": "GainControl"',
        "become_copy": '"type": "BecomeCopy"',
        "become_battle": '{"type": "AddType", "core_type": "Battle"}',
        "become_creature": '{"type": "AddType", "core_type": "Creature"}',
        "become_artifact_creature": '{"type": "RemoveType"',
        "add_defense": f'"type": "PutCounter", "counter_type": "defense", "count": {{"type": "Fixed", "value": {param}}}',
        "attack_drain": '"mode": "Attacks"',
        "must_be_blocked": '"mode": {"MustBeBlocked": {"by": null}}, "affected": {"type": "SelfRef"}',
        "lure": '"mode": {"MustBeBlockedByAll": {}}, "affected": {"type": "SelfRef"}',
        "blocks_each_combat": '"mode": "MustBlock", "affected": {"type": "SelfRef"}',
        "put_p1p1_counters": f'"type": "PutCounter", "counter_type": "P1P1", "count": {{"type": "Fixed", "value": {param}}}',
        "proliferate": '"type": "Proliferate"',
        "draw": f'"type": "Draw", "count": {{"type": "Fixed", "value": {param}}}, "target": {{"type": "Controller"}}',
        "return_to_hand": '"type": "Bounce", "target": {"type": "Typed", "type_filters": ["Permanent"]',
    }.get(name, "")


def _check_face(built: dict[str, Any], card: dict[str, Any]) -> None:
    text = json.dumps(built)
    if '"type": "Unimplemented"' in text:
        raise phase_cards.UnsupportedCard(f"{card['name']}: phase.rs does not parse {built.get('oracle_text')!r}")
    have = {str(k).replace(" ", "").lower() for k in built.get("keywords") or []}
    for kw in phase_cards.keywords(card):
        if kw.replace(" ", "").lower() not in have:      # phase names "First strike" FirstStrike
            raise phase_cards.UnsupportedCard(f"{card['name']}: phase.rs did not read the keyword {kw}")
    for ref in card.get("abilities", []):
        name, param = (ref, None) if isinstance(ref, str) else next(iter(ref.items()))
        want = _expected(name, param)
        if want and want not in text:
            raise phase_cards.UnsupportedCard(
                f"{card['name']}: phase.rs parses {built.get('oracle_text')!r} without the intended effect "
                f"({name}: expected {want} in its parse)")


def card_database(phase: Any, cards: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """phase's card data (name -> CardFace) for the request's cards and the library filler."""
    out: dict[str, Any] = {}
    filler = phase_cards.filler()
    out[filler["name"].lower()] = phase.build_oracle_face(filler, filler["identifiers"]["scryfallOracleId"])
    for card in cards.values():
        if card.get("back"):
            for i, (f, d) in enumerate(zip(phase_cards.transform_faces(card), (card, card["back"]))):
                built = dict(phase.build_oracle_face_multi(f, f["identifiers"]["scryfallOracleId"]))
                built["layout"], built["face_index"] = "transform", i
                _check_face(built, d)
                out[built["name"].lower()] = built
        else:
            f = phase_cards.face(card)
            built = phase.build_oracle_face(f, f["identifiers"]["scryfallOracleId"])
            _check_face(built, card)
            out[built["name"].lower()] = built
    return out


# ------------------------------------------------------------------------------------------------
# One case


class _Play:
    """One case on one phase game: setup, the script's decisions, and what phase reports."""

    def __init__(self, phase: Any, request: CaseRequest) -> None:
        self.phase, self.req = phase, request
        self.setup = request.setup
        self.players: list[str] = list(self.setup["players"])
        self.cards_def = request.cards
        self.oid: dict[int, str] = {}          # phase object id -> case id
        self.stack_src: dict[int, tuple[int, str | None, int]] = {}  # stack entry id -> (source, ability, controller)
        self.steps: list[dict[str, Any]] = []
        self.decisions: list[dict[str, Any]] = []
        self.checkpoints: list[dict[str, Any]] = []
        self.forced: list[tuple[str, Any]] = []  # decisions phase took itself: (kind, value)
        self.winner: str | None = None
        self.seat: dict[str, int] = {}
        self.why: dict[int, str] = {}            # a refused entry: phase's error text
        self.attackers_declared = False
        self.library_top: dict[int, int] = {}    # seat -> where the next library card of the case goes

    # -- seats ------------------------------------------------------------------------------------
    def _seats(self) -> str:
        teams = [self.setup["players"][p].get("team") for p in self.players]
        if any(teams):
            names = sorted(set(t or p for t, p in zip(teams, self.players)))
            if len(self.players) != 4 or len(names) != 2 or any(
                    sum(1 for t in teams if t == n) != 2 for n in names):
                raise _CaseFailure("phase.rs plays teams only as Two-Headed Giant: two teams of two players")
            active_team = self.setup["players"][self.setup["active"]].get("team")
            first = [p for p, t in zip(self.players, teams) if t == active_team]
            second = [p for p, t in zip(self.players, teams) if t != active_team]
            order = first + second   # phase pairs seats 0+1 and 2+3
            self.seat = {p: i for i, p in enumerate(order)}
            return "TwoHeadedGiant"
        # seats in turn order, rotated so that seat order from the active player is the case's turn order
        self.seat = {p: i for i, p in enumerate(self.players)}
        return "Standard" if len(self.players) == 2 else "FreeForAll"

    def pid(self, seat: int) -> str:
        return next(p for p, s in self.seat.items() if s == seat)

    # -- setup ------------------------------------------------------------------------------------
    def start(self) -> None:
        fmt = self._seats()
        by_seat: list[list[str]] = [[] for _ in self.players]
        for p, pdata in self.setup["players"].items():
            for zone, content in pdata.items():
                if zone in ("life", "team"):
                    continue
                if isinstance(content, int):
                    if content and zone not in ANONYMOUS_ZONES:
                        raise _CaseFailure(f"{p}.{zone}: anonymous cards are not placed on phase.rs in {zone}")
                    by_seat[self.seat[p]].extend([phase_cards.FILLER] * content)   # fillers, named as the case's
                    continue
                for cs in content:
                    owner = cs.get("owner") or p
                    by_seat[self.seat[owner]].append(cs["card"])
        db = card_database(self.phase, self.cards_def)
        self.engine = self.phase.Engine.from_json(json.dumps(db))
        decks = [[*names, *[phase_cards.FILLER] * 20] for names in by_seat]
        game = self.engine.new_game(decks[0], decks[1], extra_players=decks[2:] or None, seed=1, format=fmt,
                                    first_player=self.seat[self.setup["active"]])
        while game.waiting_for()["type"] == "MulliganDecision":
            seat = game.waiting_for()["data"]["pending"][0]["player"]
            keep = next(a for a in game.actions()
                        if a.kind == "MulliganDecision" and a.data["choice"]["type"] == "Keep")
            game.apply(seat, keep)
        self.game = self.engine.load_game(self._board(game.state()))
        step = self.setup.get("step")
        if step:
            self._start_in_combat(step)
        else:
            start = self.setup.get("phase", "main")
            want = {"main": "PreCombatMain", "combat": "DeclareAttackers", "declare_attackers": "DeclareAttackers",
                    "main2": "PostCombatMain"}.get(start)
            if want is None:
                raise _CaseFailure(f"setup.phase {start!r}: the adapter starts a case in main, combat or main2")
            self._advance_to(want, -1)
        self.checkpoints.append({"after": -1, "state": self.project()})

    def _start_in_combat(self, step: str) -> None:
        """``setup.step``: attackers already declared (``declare_blockers``), or blockers too
        (``combat_damage``). The combat is written into phase's state at the end of the step before, with the
        active player holding priority and the stack empty; the players then pass into the case's step."""
        before = {"declare_blockers": "DeclareAttackers", "combat_damage": "DeclareBlockers"}.get(step)
        if before is None:
            raise _CaseFailure(f"setup.step {step!r}: the adapter starts a later step in declare_blockers or "
                              f"combat_damage")
        exported = self.game.state()
        s = exported["state"]
        ids = {c: i for i, c in self.oid.items()}
        attackers, blocks = [], {}
        for pdata in self.setup["players"].values():
            for content in pdata.values():
                for cs in content if isinstance(content, list) else []:
                    if cs.get("attacking") is not None:      # the card's own fields (oracle/games/mtg/setups.py)
                        t = cs["attacking"]
                        target = ({"type": "Player", "data": self.seat[t]} if t in self.seat else
                                  {"type": "Battle" if "battle" in self.cards_def[self._card_name(t)].get("types", [])
                                   else "Planeswalker", "data": ids[t]})
                        defender = (self.seat[t] if t in self.seat else
                                    next(a["value"] for a in s["objects"][str(ids[t])].get("chosen_attributes") or []
                                         if a.get("type") == "Player")
                                    if target["type"] == "Battle" else s["objects"][str(ids[t])]["controller"])
                        attackers.append((ids[cs["id"]], target, defender))
                    if cs.get("blocking") is not None:
                        blocks.setdefault(ids[cs["blocking"]], []).append(ids[cs["id"]])
        blocked = set(blocks)
        s["combat"] = {
            "attackers": [{"object_id": i, "attack_target": t, "defending_player": d, "blocked": i in blocked,
                           "band_id": None} for i, t, d in attackers],
            "attacked_defenders_this_combat": {str(s["active_player"]): sorted({d for _, _, d in attackers})},
            "attacking_incarnations_this_combat": [{"object_id": i, "incarnation": 0} for i, _, _ in attackers],
            "creature_attacked_defenders_this_combat": {str(i): [d] for i, _, d in attackers},
            "blocker_assignments": {str(a): bs for a, bs in blocks.items()},
            "blocker_to_attacker": {str(b): [a] for a, bs in blocks.items() for b in bs},
            "blockers_declared_by": sorted({d for _, _, d in attackers}) if step == "combat_damage" else [],
            "creature_blocked_attackers_this_combat": [
                {"attacker": {"object_id": a, "incarnation": 0}, "blocker": {"object_id": b, "incarnation": 0}}
                for a, bs in blocks.items() for b in bs],
            "damage_assignments": {}, "damage_step_index": None, "first_strike_done": False,
            "first_strike_participants": None, "pending_blocker_declaration_events": [], "pending_damage": [],
            "regular_damage_done": False,
        }
        s["phase"] = before
        active = s["active_player"]
        s["priority_player"] = active
        s["waiting_for"] = {"type": "Priority", "data": {"player": active}}
        self.game = self.engine.load_game(exported)
        self.attackers_declared = True
        for _ in range(MAX_AUTO):        # every player passes: the step before ends and the case's step begins
            if self.game.phase != before or self.wf()["type"] != "Priority" or self.game.stack():
                return
            self._pass(-1)

    def _board(self, exported: dict[str, Any]) -> dict[str, Any]:
        s = exported["state"]
        objs = s["objects"]
        turn = s["turn_number"]
        for pl in s["players"]:       # hands back into the library: every card starts where the case says
            for i in list(pl["hand"]):
                pl["hand"].remove(i)
                pl["library"].append(i)
                objs[str(i)]["zone"] = "Library"
        taken: set[int] = set()
        placed: list[tuple[dict[str, Any], dict[str, Any]]] = []
        for p, pdata in self.setup["players"].items():
            for zone, content in pdata.items():
                if zone in ("life", "team"):
                    continue
                if isinstance(content, int):        # anonymous cards: fillers with the reference's derived ids
                    content = [{"id": f"{p}.{zone}.{n}", "card": phase_cards.FILLER} for n in range(1, content + 1)]
                for cs in content:
                    owner = cs.get("owner") or p
                    lib = s["players"][self.seat[owner]]["library"]
                    i = next((i for i in lib if i not in taken and objs[str(i)]["name"] == cs["card"]), None)
                    if i is None:
                        raise _CaseFailure(f"card {cs['card']!r} ({cs['id']}) not found in phase's library of {owner}")
                    taken.add(i)
                    lib.remove(i)
                    o = objs[str(i)]
                    self.oid[i] = cs["id"]
                    placed.append((cs, o))
                    self._place(s, p, zone, cs, o, turn)
        for cs, o in placed:
            if cs.get("attached_to"):
                o["attached_to"] = self._attach_ref(cs["attached_to"])
                if o["attached_to"]["type"] == "Object":
                    host = objs[str(o["attached_to"]["data"])]
                    host.setdefault("attachments", []).append(o["id"])
        for p, pdata in self.setup["players"].items():
            player = s["players"][self.seat[p]]
            player["life"] = pdata["life"] if pdata.get("life") is not None else 20  # PROCEDURE.md's default
            if "library" in pdata:   # a library the case states is all there is (121.4): the padding is exiled
                padding = [i for i in player["library"] if i not in taken]
                player["library"] = [i for i in player["library"] if i in taken]
                for i in padding:
                    objs[str(i)]["zone"] = "Exile"
                s["exile"].extend(padding)
        return exported

    def _attach_ref(self, target: str) -> dict[str, Any]:
        if target in self.seat:
            return {"type": "Player", "data": self.seat[target]}
        i = next((i for i, c in self.oid.items() if c == target), None)
        if i is None:
            raise _CaseFailure(f"attached_to {target!r} names no card or player of the case")
        return {"type": "Object", "data": i}

    def _place(self, s: dict[str, Any], p: str, zone: str, cs: dict[str, Any], o: dict[str, Any], turn: int) -> None:
        if cs.get("face") == "back":
            raise _CaseFailure(f"{cs['id']}: a card starting on its back face is not set up on phase.rs")
        owner = cs.get("owner") or p
        seat = self.seat[owner]
        if zone == "battlefield":
            ctrl = self.seat[cs.get("controller") or p]
            o.update(zone="Battlefield", controller=ctrl, base_controller=ctrl, tapped=bool(cs.get("tapped")),
                     summoning_sick=bool(cs.get("entered_this_turn")),
                     entered_battlefield_turn=turn if cs.get("entered_this_turn") else max(turn - 1, 0),
                     timestamp=s["next_timestamp"])
            s["next_timestamp"] += 1
            s["battlefield"].append(o["id"])
            d = self.cards_def.get(cs["card"], {})
            counters = dict(cs.get("counters") or {})
            types = d.get("types", [])
            if "battle" in types:
                counters.setdefault("defense", cs["defense"] if cs.get("defense") is not None else d.get("defense") or 0)
                o["defense"] = counters["defense"]
                prot = cs.get("protector")
                if prot is None and not d.get("subtypes"):
                    prot = cs.get("controller") or p          # 310.8a
                if prot is not None:
                    o["chosen_attributes"] = [{"type": "Player", "value": self.seat[prot]}]
            if "planeswalker" in types:
                counters.setdefault("loyalty", (d.get("props") or {}).get("loyalty", 0))
                o["loyalty"] = counters["loyalty"]
            phase_kind = {v: k for k, v in COUNTER_KINDS.items()}
            o["counters"] = {phase_kind.get(k, k): v for k, v in counters.items()}
            for stat in ("power", "toughness"):
                if cs.get(stat) is not None:
                    raise _CaseFailure(f"{cs['id']}: {stat} {cs[stat]} set by the case cannot be placed on phase.rs "
                                      f"(Engine.load_game rehydrates every object's printed characteristics from "
                                      f"its card)")
        elif zone in ("hand", "graveyard", "exile"):
            o["zone"] = zone.capitalize()
            if zone == "exile":
                s["exile"].append(o["id"])
            else:
                s["players"][seat][zone].append(o["id"])
        elif zone == "library":          # the case lists a library from the top (index 0 is phase's top)
            top = self.library_top.get(seat, 0)
            s["players"][seat]["library"].insert(top, o["id"])
            self.library_top[seat] = top + 1
        else:
            raise _CaseFailure(f"{cs['id']}: zone {zone!r} is not set up on phase.rs")

    # -- driving phase ----------------------------------------------------------------------------
    def wf(self) -> dict[str, Any]:
        return self.game.waiting_for()

    def _actor(self) -> int:
        d = self.wf().get("data") or {}
        p = d.get("player") if isinstance(d, dict) else None
        return self.game.priority_player() if p is None else p

    def _apply(self, seat: int, action: Any, at: int) -> Any:
        """Apply one action; its events, mapped, go to the step of entry ``at``. Errors propagate."""
        before = {i: self._peek(i) for i in self.oid}
        act = action if not isinstance(action, dict) else self.phase.GameAction.from_dict(action)
        result = self.game.apply(seat, act)
        self._record(at, act.kind, before, list(result.events))
        return result

    def _peek(self, i: int) -> dict[str, Any]:
        o = self.game.object(i) or {}
        return {"counters": dict(o.get("counters") or {}),
                "protector": [a.get("value") for a in o.get("chosen_attributes") or [] if a.get("type") == "Player"]}

    def _pass(self, at: int) -> None:
        act = next((a for a in self.game.actions() if a.kind == "PassPriority"), None)
        if act is None:
            raise _CaseFailure(f"phase.rs offers no priority pass here (waiting for {self._prompt()})")
        self._apply(self._actor(), act, at)

    def _prompt(self) -> str:
        return json.dumps(self.wf())[:300]

    def _advance_to(self, phase_name: str, at: int) -> None:
        """Setup: every player passes with an empty stack until phase reaches ``phase_name`` (for the declare
        attackers step: its declaration, or the step after it when nothing can attack)."""
        for _ in range(MAX_AUTO):
            w = self.wf()["type"]
            if phase_name == "DeclareAttackers":
                if w == "DeclareAttackers" or self.game.phase in PAST["declare_attackers"]:
                    return
            elif self.game.phase == phase_name and w == "Priority":
                return
            if w != "Priority" or self.game.stack():
                raise _CaseFailure(f"setup: phase.rs stopped at {self._prompt()} before {phase_name}")
            self._pass(at)
        raise _CaseFailure(f"setup: phase.rs did not reach {phase_name}")

    def _implied_passes(self, at: int, entry: dict[str, Any]) -> None:
        """PROCEDURE.md's pass shorthand: while a player has priority and the next entry is not a ``pass`` or
        ``cast`` of that player, that player passes (an implied pass, not a decision). The active player's
        decision in a main phase with an empty stack (``cast`` or ``end_main``) is never implied."""
        seat = self.seat[entry["player"]]
        later = PAST.get(entry["kind"], ())
        for _ in range(MAX_AUTO):
            if self.wf()["type"] != "Priority" or self.game.phase in later or self.game.phase in TURN_OVER:
                return
            if self._open_point():
                return      # the script's entry is this decision (or refused in its place)
            if entry["kind"] in PRIORITY_KINDS and self.game.priority_player() == seat:
                return
            if self._forced_for(entry) is not None:
                return
            self._pass(at)

    def _open_point(self) -> bool:
        """The active player's decision in a main phase with an empty stack (PROCEDURE.md: never implied)."""
        return (self.game.phase in ("PreCombatMain", "PostCombatMain") and not self.game.stack()
                and self.game.priority_player() == self.seat[self.setup["active"]])

    def finish(self) -> None:
        """An exhausted script is an implied pass while the stack is empty, up to the active player's decision
        in a main phase (PROCEDURE.md)."""
        at = len(self.req.script) - 1
        for _ in range(MAX_AUTO):
            if self.wf()["type"] != "Priority" or self.game.stack() or self.game.phase in TURN_OVER:
                break
            if self._open_point():
                break
            self._pass(at)
        if self.checkpoints and self.checkpoints[-1]["after"] == at:
            self.checkpoints[-1]["state"] = self.project()

    def _forced_for(self, entry: dict[str, Any]) -> int | None:
        return next((i for i, (k, _) in enumerate(self.forced) if k == entry["kind"]), None)

    # -- one script entry -------------------------------------------------------------------------
    def decide(self, at: int, entry: dict[str, Any]) -> None:
        kind, player = entry["kind"], entry["player"]
        if player not in self.seat:
            raise _CaseFailure(f"script[{at}]: {player!r} is not a player of the case")
        self._implied_passes(at, entry)
        if self.checkpoints and self.checkpoints[-1]["after"] == at - 1:
            # a checkpoint is the state after its entry and what it caused before the next decision (README):
            # the implied passes up to this entry included
            self.checkpoints[-1]["state"] = self.project()
        taken = self._taken(entry)
        if taken is not None:
            self._outcome(at, entry, taken)
            return
        # a refusal changes nothing: decisions applied in parts (a cast and its targets, the damage of several
        # attackers) are undone whole when a later part is refused
        snapshot = self.game.state() if kind in ("cast", "cast_transformed", "assign_combat_damage") else None
        n_events = len(self._step(at))
        try:
            getattr(self, "_do_" + kind)(at, entry)
        except (_Refused, ValueError, RuntimeError) as exc:
            if snapshot is not None:
                self.game = self.engine.load_game(snapshot)      # a refusal changes nothing
            del self._step(at)[n_events:]
            self._outcome(at, entry, "refused", why=str(exc))
            return
        self._outcome(at, entry, "accepted")

    def _asked(self, entry: dict[str, Any]) -> bool:
        """Is phase asking the entry's player for a decision of the entry's kind now?"""
        w = self.wf()["type"]
        return w in {**CHOICES, "declare_attackers": ("DeclareAttackers",)}.get(entry["kind"], ()) and self._actor() == self.seat[entry["player"]]

    def _taken(self, entry: dict[str, Any]) -> str | None:
        """``automatic``/``not_asked`` when phase took this decision itself; None when it is to be made."""
        kind = entry["kind"]
        if kind in PRIORITY_KINDS or kind == "end_main" or self._asked(entry):
            return None
        args = entry.get("args")
        if kind == "declare_attackers" and self.game.phase in PAST[kind]:
            # phase skipped the declaration (nothing could attack), or it was made by an earlier entry
            return "not_asked" if args or self.attackers_declared else "automatic"
        if kind == "declare_blockers":
            # phase declares no blocks itself for a defending player who cannot block, and asks the others
            if self.game.phase in PAST[kind] or self.wf()["type"] == "DeclareBlockers":
                return "not_asked" if args else "automatic"
            return None
        same = [i for i, (k, v) in enumerate(self.forced) if k == kind and self._same(kind, args, v)]
        if same:
            self.forced.pop(same[0])
            return "automatic"
        if any(k == kind for k, _ in self.forced):
            return "not_asked"
        if kind in CHOICES and self.wf()["type"] not in CHOICES[kind]:
            return "not_asked"    # phase asks for another kind of decision: it does not make this one now
        return None

    def _same(self, kind: str, args: Any, value: Any) -> bool:
        if kind in ("declare_attackers", "declare_blockers"):
            return not args
        return args == value

    def _outcome(self, at: int, entry: dict[str, Any], outcome: str, why: str | None = None) -> None:
        d: dict[str, Any] = {"at": at, "outcome": outcome}
        self.decisions.append(d)
        if why:
            self.why[at] = why
        ev = ({"kind": "rejected", "args": {"at": at, "player": entry["player"]}} if outcome == "refused" else
              None if outcome == "not_asked" else
              {"kind": "decided", "args": {"at": at, "player": entry["player"], "decision": entry["kind"]}})
        if ev:
            self._step(at).insert(0, ev)
        else:
            self._step(at)
        self.checkpoints.append({"after": at, "state": self.project()})

    def _step(self, at: int) -> list[dict[str, Any]]:
        for s in self.steps:
            if s["after"] == at:
                return s["events"]
        self.steps.append({"after": at, "events": []})
        return self.steps[-1]["events"]

    def _require(self, seat: int, want: str) -> None:
        w = self.wf()
        if w["type"] != want:
            raise _Refused(f"phase.rs is waiting for {json.dumps(w)[:200]}, not {want}")
        actor = self._actor()
        if actor != seat:
            raise _Refused(f"phase.rs asks {self.pid(actor)} ({want}), not {self.pid(seat)}")

    def _obj(self, cid: Any) -> int:
        i = next((i for i, c in self.oid.items() if c == cid), None)
        if i is None:
            raise _Refused(f"{cid!r} names no card of the case")
        return i

    def _target(self, x: Any) -> dict[str, Any]:
        return {"Player": self.seat[x]} if x in self.seat else {"Object": self._obj(x)}

    def _do_pass(self, at: int, entry: dict[str, Any]) -> None:
        seat = self.seat[entry["player"]]
        self._require(seat, "Priority")
        self._pass(at)

    def _do_end_main(self, at: int, entry: dict[str, Any]) -> None:
        """The active player's pass in a main phase with an empty stack."""
        seat = self.seat[entry["player"]]
        self._require(seat, "Priority")
        if self.game.phase not in ("PreCombatMain", "PostCombatMain") or self.game.stack():
            raise _Refused(f"end_main: phase.rs is in {self.game.phase} with {len(self.game.stack())} on the stack")
        self._pass(at)

    def _do_cast(self, at: int, entry: dict[str, Any]) -> None:
        seat = self.seat[entry["player"]]
        args = entry.get("args") or {}
        args = args if isinstance(args, dict) else {"card": args}
        obj = self._obj(args.get("card"))
        self._require(seat, "Priority")
        cast = next((a for a in self.game.actions() if a.kind == "CastSpell" and a.data.get("object_id") == obj), None)
        if cast is None:
            raise _Refused(f"phase.rs offers no CastSpell for {args.get('card')} "
                           f"(it offers {sorted({a.kind for a in self.game.actions()})})")
        self._apply(seat, cast, at)
        targets = list(args.get("targets") or [])
        for t in targets:
            if self.wf()["type"] != "TargetSelection":
                chosen = self._chosen_targets(obj)
                if chosen == [self._target(x) for x in targets]:
                    return       # phase chose the only legal target(s) itself: the script's
                raise _Refused(f"phase.rs asks for no target; it chose {chosen} itself")
            want = self._target(t)
            choose = next((a for a in self.game.actions()
                           if a.kind == "ChooseTarget" and a.data.get("target") == want), None)
            if choose is None:
                raise _Refused(f"phase.rs does not offer {t} as a target "
                               f"({[a.data.get('target') for a in self.game.actions() if a.kind == 'ChooseTarget']})")
            self._apply(seat, choose, at)
        if self.wf()["type"] == "TargetSelection":
            raise _Refused("phase.rs asks for more targets than the script gives")

    def _chosen_targets(self, obj: int) -> list[Any]:
        for e in self.game.stack() or []:
            if e.get("id") == obj:
                return list((((e.get("kind") or {}).get("data") or {}).get("ability") or {}).get("targets") or [])
        return []

    def _do_declare_attackers(self, at: int, entry: dict[str, Any]) -> None:
        seat = self.seat[entry["player"]]
        self._require(seat, "DeclareAttackers")
        if not isinstance(entry.get("args") or {}, dict):
            raise _Refused(f"declare_attackers takes {{attacker: target}}, not {entry.get('args')!r}")
        attacks = []
        for a, t in (entry.get("args") or {}).items():
            if t in self.seat:
                target = {"type": "Player", "data": self.seat[t]}
            else:
                tid = self._obj(t)
                types = self.game.object(tid)["card_types"]["core_types"]
                target = {"type": "Battle" if "Battle" in types else "Planeswalker" if "Planeswalker" in types
                          else "Object", "data": tid}
            attacks.append([self._obj(a), target])
        self._apply(seat, {"type": "DeclareAttackers", "data": {"attacks": attacks, "bands": []}}, at)
        self.attackers_declared = True

    def _do_declare_blockers(self, at: int, entry: dict[str, Any]) -> None:
        seat = self.seat[entry["player"]]
        self._require(seat, "DeclareBlockers")
        if not isinstance(entry.get("args") or {}, dict):
            raise _Refused(f"declare_blockers takes {{blocker: attacker}}, not {entry.get('args')!r}")
        pairs = [[self._obj(b), self._obj(a)] for b, a in (entry.get("args") or {}).items()]
        self._apply(seat, {"type": "DeclareBlockers", "data": {"assignments": pairs}}, at)

    def _do_choose_protector(self, at: int, entry: dict[str, Any]) -> None:
        seat = self.seat[entry["player"]]
        who = entry.get("args")
        if who not in self.seat:
            raise _Refused(f"choose_protector {who!r}: not a player")
        w = self.wf()["type"]
        if w == "BattleProtectorChoice":
            self._require(seat, w)
            self._apply(seat, {"type": "ChooseBattleProtector", "data": {"protector": self.seat[who]}}, at)
            return
        self._require(seat, "NamedChoice")
        act = next((a for a in self.game.actions()
                    if a.kind == "ChooseOption" and a.data.get("choice") == str(self.seat[who])), None)
        if act is None:
            raise _Refused(f"phase.rs does not offer {who} as the protector ({self._prompt()})")
        self._apply(seat, act, at)

    def _do_assign_combat_damage(self, at: int, entry: dict[str, Any]) -> None:
        """510.1c-d: each attacker's damage divided among its blockers; with trample (702.19b-c) the part named
        for what it attacks (a player, planeswalker or battle) is phase's ``trample_damage``."""
        seat = self.seat[entry["player"]]
        args = entry.get("args")
        if not isinstance(args, dict) or not args or not all(isinstance(v, dict) for v in args.values()):
            raise _Refused(f"assign_combat_damage takes {{attacker: {{recipient: n}}}}, not {args!r}")
        for attacker, split in args.items():
            self._require(seat, "AssignCombatDamage")
            prompt = self.wf()["data"]
            if prompt.get("attacker_id") != self._obj(attacker):
                raise _Refused(f"phase.rs asks for the damage of another attacker ({self._prompt()})")
            attacked = self._ref(prompt.get("attack_target")) or self.pid(prompt["defending_player"])
            assignments, trample = [], 0
            for b, n in split.items():
                if b == attacked:
                    trample += int(n)
                else:
                    assignments.append([self._obj(b), int(n)])
            self._apply(seat, {"type": "AssignCombatDamage",
                               "data": {"mode": "Normal", "assignments": assignments, "trample_damage": trample,
                                        "controller_damage": 0}}, at)

    def _do_proliferate(self, at: int, entry: dict[str, Any]) -> None:
        """701.34a: the permanents and players chosen as the proliferate spell resolves."""
        seat = self.seat[entry["player"]]
        self._require(seat, "ProliferateChoice")
        chosen = [self._target(x) for x in entry.get("args") or []]
        self._apply(seat, {"type": "SelectTargets", "data": {"targets": chosen}}, at)

    def _do_concede(self, at: int, entry: dict[str, Any]) -> None:
        """104.3a: phase's ``Concede`` (legal at any time there; the script gives it where the player holds
        priority or makes the active player's main-phase move, mtg:A-concede)."""
        self._apply(self.seat[entry["player"]], {"type": "Concede", "data": {"player_id": self.seat[entry["player"]]}},
                    at)

    def _do_cast_transformed(self, at: int, entry: dict[str, Any]) -> None:
        """310.11b: accept or decline to cast the Siege transformed; with ``{targets: [...]}`` the targets of
        the spell cast, chosen as phase asks for them."""
        seat = self.seat[entry["player"]]
        self._require(seat, "OptionalEffectChoice")
        args = entry.get("args")
        if not (isinstance(args, bool) or (isinstance(args, dict) and set(args) == {"targets"}
                                           and isinstance(args["targets"], list))):
            raise _Refused(f"cast_transformed takes true, false or {{targets: [...]}}, not {args!r}")
        want = bool(args)
        act = next((a for a in self.game.actions()
                    if a.kind == "DecideOptionalEffect" and a.data.get("accept") is want), None)
        if act is None:
            raise _Refused(f"phase.rs offers no DecideOptionalEffect accept={want}")
        self._apply(seat, act, at)
        for t in (args.get("targets") or []) if isinstance(args, dict) else []:
            if self.wf()["type"] != "TargetSelection":
                raise _Refused(f"phase.rs asks for no target of the spell cast transformed (waiting for "
                               f"{self._prompt()})")
            want_t = self._target(t)
            choose = next((a for a in self.game.actions()
                           if a.kind == "ChooseTarget" and a.data.get("target") == want_t), None)
            if choose is None:
                raise _Refused(f"phase.rs does not offer {t} as a target")
            self._apply(seat, choose, at)

    # -- events ---------------------------------------------------------------------------------
    def _record(self, at: int, action: str, before: dict[int, dict[str, Any]], events: list[dict[str, Any]]) -> None:
        for e in self.game.stack() or []:
            kind = e.get("kind") or {}
            if kind.get("type") == "TriggeredAbility":
                self.stack_src[e["id"]] = (e.get("source_id"), _trigger_ability(kind), e.get("controller"))
        counters = {i: b["counters"] for i, b in before.items()}
        out = self._step(at)
        free = any(e["type"] == "EffectResolved" and (e.get("data") or {}).get("kind") == "CastFromZone"
                   for e in events)
        for e in events:
            out.extend(self._map(e, counters, free))
            if e["type"] == "GameOver":
                w = (e.get("data") or {}).get("winner")
                if isinstance(w, int):
                    self.winner = self.pid(w)
        if action not in ("ChooseBattleProtector", "ChooseOption"):
            for i, b in before.items():      # a protector phase chose itself (the only possible one)
                now = self._peek(i)["protector"]
                if now and now != b["protector"]:
                    self.forced.append(("choose_protector", self.pid(now[0])))

    def _card(self, i: Any) -> str | None:
        return self.oid.get(i) if isinstance(i, int) else None

    def _ref(self, t: Any) -> Any:
        """A phase target ({Player: n} / {Object: id} / {type, data}) as a case id."""
        if isinstance(t, dict):
            if "Player" in t:
                return self.pid(t["Player"])
            if "Object" in t:
                return self._card(t["Object"])
            if t.get("type") == "Player":
                return self.pid(t["data"])
            return self._card(t.get("data"))
        return None

    def _map(self, e: dict[str, Any], counters: dict[int, dict[str, int]], free: bool) -> list[dict[str, Any]]:
        t, d = e["type"], e.get("data") or {}
        ev = []

        def add(event: str, **args: Any) -> None:
            ev.append({"kind": event, "args": args})

        if t == "ZoneChanged":
            c = self._card(d.get("object_id"))
            if c and d.get("from") in ZONES and d.get("to") in ZONES:
                owner = (d.get("record") or {}).get("owner", (self.game.object(d["object_id"]) or {}).get("owner"))
                add("moved", card=c, **{"from": ZONES[d["from"]], "to": ZONES[d["to"]]},
                    **({"player": self.pid(owner)} if isinstance(owner, int) else {}))
        elif t == "SpellCast":
            c = self._card(d.get("object_id"))
            if c:
                o = self.game.object(d["object_id"]) or {}
                add("cast", card=c, player=self.pid(d["controller"]),
                    face="back" if o.get("transformed") else "front", free=free)
        elif t == "StackResolved":
            i = d.get("object_id")
            if i in self.stack_src:
                src, ability, ctrl = self.stack_src[i]
                c = self._card(src)
                if c:
                    args: dict[str, Any] = {"card": c, "player": self.pid(ctrl)}
                    if ability:
                        args["ability"] = ability
                    add("resolved", **args)
            elif self._card(i):
                o = self.game.object(i) or {}
                add("resolved", card=self._card(i), player=self.pid(o.get("controller", 0)))
        elif t == "SpellCountered":
            c = self._card(d.get("object_id"))
            if c:
                add("countered", card=c)
        elif t == "DamageDealt":
            src, tgt = self._card(d.get("source_id")), self._ref(d.get("target"))
            if src and tgt:
                add("damaged", source=src, target=tgt, amount=d.get("amount"), combat=bool(d.get("is_combat")))
        elif t == "LifeChanged":
            add("life_changed", player=self.pid(d["player_id"]), amount=d.get("amount"), life=d.get("new_total"))
        elif t in ("CounterAdded", "CounterRemoved"):
            i = d.get("object_id")
            c = self._card(i)
            if c:
                kind, n = _counter_kind(d.get("counter_type")), int(d.get("count") or 0)
                cur = counters.setdefault(i, {})
                cur[kind] = cur.get(kind, 0) + (n if t == "CounterAdded" else -n)
                if t == "CounterAdded":
                    add("counters_placed", card=c, kind=kind, count=n, defense=cur.get("defense", 0))
                else:
                    add("counters_removed", card=c, kind=kind, count=n, left=cur[kind])
        elif t == "PermanentTapped":
            c = self._card(d.get("object_id"))
            if c:
                add("tapped", card=c)
        elif t == "AttackersDeclared":
            for a, target in d.get("attacks") or []:
                c = self._card(a)
                if c:
                    add("became_attacker", card=c, target=self._ref(target))
        elif t == "BlockersDeclared":
            blocked = []
            for b, a in d.get("assignments") or []:
                add("became_blocker", card=self._card(b), attacker=self._card(a))
                if a not in blocked:
                    blocked.append(a)
            for a in blocked:
                add("blocked", card=self._card(a))
        elif t == "ControllerChanged":
            c = self._card(d.get("object_id"))
            if c:
                add("control_changed", card=c, player=self.pid(d["new_controller"]))
        elif t == "CardsDrawn":
            add("drew", player=self.pid(d["player_id"]), count=d.get("count"))
        elif t == "CardDrawn" and self._card(d.get("object_id")):   # one per card drawn (121.2); not the padding
            add("drew", player=self.pid(d["player_id"]), count=1)
        elif t == "PlayerLost":
            add("lost", player=self.pid(d["player_id"]))
        elif t == "PlayerEliminated":
            add("left_game", player=self.pid(d["player_id"]))
        elif t == "GameOver" and isinstance(d.get("winner"), int):
            add("won", player=self.pid(d["winner"]))
        return ev

    # -- the state, projected -----------------------------------------------------------------------
    def project(self) -> dict[str, Any]:
        s = self.game.state()["state"]
        objs = s["objects"]
        combat = s.get("combat") or {}
        attacking = {a["object_id"]: self._ref(a.get("attack_target")) for a in combat.get("attackers") or []}
        blocking = {int(b): a[0] for b, a in (combat.get("blocker_to_attacker") or {}).items() if a}
        players: dict[str, Any] = {}
        for pl in s["players"]:
            p = self.pid(pl["id"])
            players[p] = {z: [] for z in ("battlefield", "hand", "library", "graveyard", "exile", "stack")}
            players[p].update(life=pl["life"], lost=bool(pl.get("is_eliminated"))
                              or (pl.get("status") or {}).get("type") not in (None, "Active"))
        cards: dict[str, Any] = {}
        for i, cid in self.oid.items():
            o = objs.get(str(i))
            if o is None:
                continue
            zone = ZONES.get(o["zone"], o["zone"].lower())
            holder = self.pid(o["controller"] if zone in ("battlefield", "stack") else o["owner"])
            players[holder][zone].append(cid)
            ct = o.get("card_types") or {}
            back = bool(o.get("transformed"))
            d = self.cards_def.get(self._card_name(cid), {})
            face_d = d.get("back", d) if back else d
            prot = [a.get("value") for a in o.get("chosen_attributes") or [] if a.get("type") == "Player"]
            att = o.get("attached_to")
            cards[cid] = {
                "zone": zone, "owner": self.pid(o["owner"]), "controller": self.pid(o["controller"]),
                "face": "back" if back else "front",
                "types": [x.lower() for x in ct.get("core_types", [])], "subtypes": list(ct.get("subtypes", [])),
                "tapped": bool(o.get("tapped")),
                "defense": (o.get("counters") or {}).get("defense", 0) if zone == "battlefield"
                else face_d.get("defense") or 0,
                "protector": self.pid(prot[0]) if prot and zone == "battlefield" else None,
                "attacking": attacking.get(i), "blocking": self._card(blocking.get(i)),
                "attached_to": self._ref(att) if att else None, "damage": o.get("damage_marked") or 0,
                "counters": {_counter_kind(k): v for k, v in (o.get("counters") or {}).items() if v},
                "power": o.get("power") or 0, "toughness": o.get("toughness") or 0,
            }
        return {"players": players, "cards": cards}

    def _card_name(self, cid: str) -> str | None:
        for pdata in self.setup["players"].values():
            for content in pdata.values():
                if isinstance(content, list):
                    for cs in content:
                        if cs.get("id") == cid:
                            return cs.get("card")
        return None


class _Refused(OracleError):
    """phase.rs does not accept this script entry now."""


COUNTER_KINDS = {"P1P1": "+1/+1", "M1M1": "-1/-1"}
"""phase's counter types under the names the Magic vocabulary gives them (defense, loyalty: the same)."""


def _counter_kind(kind: Any) -> Any:
    return COUNTER_KINDS.get(kind, kind)


def _trigger_ability(kind: dict[str, Any]) -> str | None:
    """Our vocabulary's name for a triggered ability phase put on the stack, from its effect."""
    eff = (((kind.get("data") or {}).get("ability") or {}).get("effect") or {}).get("type")
    return {"LoseLife": "attack_drain", "ChangeZone": "siege"}.get(eff)


# ------------------------------------------------------------------------------------------------
# The engine


class PhaseRs:
    """The tcg-oracle engine protocol (``oracle.harness.engine.Engine``) over phase.rs, in process."""

    def __init__(self) -> None:
        self.phase = _import_phase()

    def hello(self) -> Hello:
        fields: dict[str, Any] = {
            "protocol_version": 2, "engine": {"name": "phase.rs", "version": f"phase-python {PHASE_VERSION}"},
            "games": ["mtg"], "capabilities": [], "abilities": {"mtg": ABILITIES},
            "observation": "steps", "reason_codes": False, "events": {"mtg": EVENTS},
        }
        return Hello.model_validate({k: v for k, v in fields.items() if k in Hello.model_fields})

    def run_case(self, request: CaseRequest, timeout: float | None = None) -> CaseReply:
        return _reply(self.play(request))

    def play(self, request: CaseRequest) -> dict[str, Any]:
        """The whole protocol-2 reply as a dict."""
        play = _Play(self.phase, request)
        try:
            play.start()
            for at, entry in enumerate(request.script):
                play.decide(at, entry)
            play.finish()
        except (_CaseFailure, phase_cards.UnsupportedCard) as exc:
            return {"id": request.id, "error": str(exc)}
        final = play.project()
        return {"id": request.id, "final": final, "winner": play.winner, "decisions": play.decisions,
                "checkpoints": play.checkpoints, "steps": [s for s in play.steps if s["events"] or s["after"] >= 0],
                "why": play.why}

    def close(self) -> None:
        pass


def _reply(fields: dict[str, Any]) -> CaseReply:
    """A reply with the protocol-2 fields the harness's model knows (all of them once it speaks v2)."""
    return CaseReply.model_validate({k: v for k, v in fields.items() if k in CaseReply.model_fields})


def engine() -> PhaseRs:
    """The factory for ``--engine py:oracle.engines.phase_rs:engine``."""
    return PhaseRs()


__all__ = ["engine", "PhaseRs", "INSTALL_HINT", "ABILITIES", "EVENTS"]
