"""phase.rs (https://github.com/phase-rs/phase), the open-source Magic rules engine, under test through its
PyPI binding ``phase-python`` (0.103.0; 0.77.0 and 0.83.0 too, the release installed is the one named in
``hello``): ``--engine py:oracle.engines.phase_rs:engine``.

Install it with ``pip install 'tcg-oracle[phase]'`` (or ``pip install 'phase-python==0.103.0'``); nothing
else in tcg-oracle imports ``phase``.

How a case is played:

- **Cards**: the card-pool entries of the request, written as MTGJSON atomic cards in Oracle wording
  (:mod:`oracle.engines.phase_cards`) and read by phase's own parser (``phase.build_oracle_face``; a
  transforming Siege as two faces of ``layout: transform`` with one oracle id). Each parsed face is
  checked against the intended effect; a card phase does not parse as meant is an ``error`` naming it.
  ``become_artifact_creature`` ("... and loses all other card types") is left out of ``hello.abilities``:
  phase's parser drops the type loss, so those cases are skipped, never run with a wrong card.
- **Board** (:func:`kit.lay_out`: a zone the case does not state is empty): a game of phase is started with the
  players in the case's turn order (seat = position; the active player first; three or more players:
  Free-for-All; two teams of two: Two-Headed Giant, where phase pairs seats 0+1 and 2+3), each deck holding the
  cards the case places (one filler Plains for a player with none, taken out of the state after: phase starts
  no game with an empty library), every mulligan kept; the exported ``Game.state()`` is edited -- zones, life,
  tapped, summoning sickness (entered this turn), counters (a battle's defense counters, a planeswalker's
  loyalty, +1/+1 counters as phase's ``P1P1``), protector (``chosen_attributes``; reported on the battlefield
  only: phase clears it as a card enters, not as it leaves), controller and owner, attachments; a library listed
  from the top; anonymous cards (``library: 5``) as Plains fillers with the reference's derived ids
  (``alice.library.1``); no padding: a player drawing from a library the case leaves empty draws from an empty
  library (121.4) -- and written at turn 1's draw step with the active player holding priority (its draw
  already past: no card is drawn in setup), then loaded back (``Engine.load_game``). The players pass priority
  with an empty stack into the step the case starts in (the precombat main phase, or the declare attackers
  step), so phase itself checks state-based actions on the board. ``setup.step`` (attackers, or attackers and
  blockers, already declared) writes the combat into the state at the end of the step before. ``load_game``
  rehydrates every object's characteristics from its printed reference, so a power, toughness or ability set
  by the case is given by a face written for that case (``<card> (<id>)``), and a card set up back face up has
  its two faces swapped in the state (``transformed``, the front face kept as the back-face snapshot, as phase's
  own transform leaves them). What phase has no counterpart for (a card outside the game) is
  :class:`~oracle.errors.CannotSetUp`: the case is a ``skip`` with the reason.
- **Decisions**: each script entry becomes a ``GameAction`` (cast with its targets, pass priority, declare
  attackers and blockers, choose a battle's protector, assign combat damage -- with trample, the part named
  for what the attacker attacks is phase's ``trample_damage`` --, cast the Siege transformed, proliferate:
  ``SelectTargets`` at phase's ``ProliferateChoice``, concede: phase's ``Concede``, which phase takes at any
  time; the script gives it where its player holds priority, mtg:A-concede; a composed trigger's
  ``choose_targets`` at ``TriggerTargetSelection``, ``use_optional`` at ``OptionalEffectChoice``, ``discard`` at
  ``DiscardChoice``; a token phase creates gets the reference's id ``<source id>.token<n>``).
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
  mapped to the vocabulary only where phase gives a direct counterpart -- see ``EVENTS``; phase's
  ``StackResolved`` is its bookkeeping for anything leaving the stack: ``resolved`` where phase ran the entry's
  effect (``EffectResolved``), put the permanent spell onto the battlefield or resolved an untargeted spell,
  ``countered`` for a targeted entry that left with none (608.2b); ``life_changed``'s ``life`` is worked back
  from the state's life after the action (the event carries it only from 0.103 on); no
  ``triggered``, ``protector_chosen``, ``defending_player``, ``removed_from_combat``, ``types_changed``,
  ``became_copy``, ``unattached`` or ``combat_ended``: phase reports none of them).
"""

from __future__ import annotations

import json
from typing import Any

from ..core.errors import EngineStartError
from ..errors import OracleError
from ..model import CaseReply, CaseRequest, Hello
from . import kit, phase_cards
from .kit import CannotSetUp

DISTRIBUTION = "phase-python"
PHASE_VERSION = "0.103.0"
"""The release ``tcg-oracle[phase]`` installs (the baselines are for it); the adapter runs on 0.77.0 and later and
names the release installed (:func:`kit.installed_version`)."""
INSTALL_HINT = f"pip install 'tcg-oracle[phase]'  (or: pip install 'phase-python=={PHASE_VERSION}')"

ABILITIES = ["flying", "reach", "menace", "haste", "vigilance", "first_strike", "double_strike", "trample",
             "must_be_blocked", "lure", "blocks_each_combat", "deal_damage", "gain_control", "become_copy",
             "become_battle", "become_creature", "add_defense", "put_p1p1_counters", "proliferate", "draw",
             "return_to_hand", "attack_drain", "triggered", "static"]
"""The Magic abilities whose Oracle wording phase parses to the intended effect (checked per case)."""

EVENTS = ["decided", "rejected", "won", "lost", "drew", "moved", "resolved", "cast", "countered",
          "counters_placed", "counters_removed", "tapped", "became_attacker", "became_blocker", "blocked",
          "damaged", "life_changed", "left_game", "control_changed", "token_created"]
"""The event kinds reported: phase's own events with a direct counterpart (ZoneChanged, StackResolved,
SpellCast, SpellCountered, CounterAdded/Removed, PermanentTapped, AttackersDeclared, BlockersDeclared,
DamageDealt, LifeChanged, CardsDrawn/CardDrawn, PlayerLost, PlayerEliminated, GameOver, ControllerChanged,
TokenCreated) and the script's own decided/rejected entries."""

ZONES = {"Battlefield": "battlefield", "Hand": "hand", "Library": "library", "Graveyard": "graveyard",
         "Exile": "exile", "Stack": "stack"}
ANONYMOUS_ZONES = ("hand", "library", "graveyard", "exile")
"""Where a case's anonymous cards (``library: 5``) are placed: as library fillers (Plains), given the ids the
reference engine derives (``alice.library.1``, ...)."""
PRIORITY_KINDS = ("pass", "cast", "concede")
"""Decisions made where their player holds priority (a concede: mtg:A-concede)."""
CHOICES = {"declare_blockers": ("DeclareBlockers",), "choose_protector": ("BattleProtectorChoice", "NamedChoice"),
           "assign_combat_damage": ("AssignCombatDamage",), "cast_transformed": ("OptionalEffectChoice",),
           "proliferate": ("ProliferateChoice",), "choose_targets": ("TriggerTargetSelection",),
           "use_optional": ("OptionalEffectChoice",), "discard": ("DiscardChoice",)}
"""The choices phase asks for, by the prompt it waits with."""
CHOICE_PROMPTS = ("OptionalEffectChoice", "DiscardChoice", "TriggerTargetSelection")
"""Prompts phase waits with while an ability resolves (or goes on the stack): a stack entry that left the stack with
one of these pending for its source resolved (its effect is under way), it was not countered."""
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
COMBAT_STEPS = ("BeginCombat", "DeclareAttackers", "DeclareBlockers", "CombatDamage", "FirstStrikeDamage", "EndCombat")
"""phase's combat steps: where its state may hold attackers and blockers (a main phase's combat is empty)."""


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


def _fixed(n: Any) -> str:
    return f'{{"type": "Fixed", "value": {int(n)}}}'


_EFFECT_PARSE = {
    "deal_damage": lambda n, each: (f'"type": "{"DamageAll" if each else "DealDamage"}", "amount": {_fixed(n)}',),
    "lose_life": lambda n, each: (f'"type": "LoseLife", "amount": {_fixed(n)}',),
    "draw": lambda n, each: (f'"type": "Draw", "count": {_fixed(n)}',),
    "discard": lambda n, each: (f'"type": "Discard", "count": {_fixed(n)}',),
    "discard_at_random": lambda n, each: (f'"type": "Discard", "count": {_fixed(n)}', '"random": true'),
    "put_p1p1_counters": lambda n, each: (f'"type": "PutCounter", "counter_type": "P1P1", "count": {_fixed(n)}',),
    "create_token": lambda p, each: ('"type": "Token"', f'"count": {_fixed(p.get("count", 1))}'),
    "defending_player_loses_life": lambda n, each: (f'"type": "LoseLife", "amount": {_fixed(n)}',),
}
"""What phase's parse of one composed effect must contain (fragments of its JSON)."""


def _expected_composed(kind: str, param: dict[str, Any]) -> list[str]:
    """The fragments phase's parse of a ``triggered`` or ``static`` composition must contain: the trigger's mode
    and condition, "may", each effect; a static's keyword grants."""
    if kind == "static":
        return [f'"type": "AddKeyword", "keyword": "{phase_cards.KEYWORDS[g].replace(" ", "")}"'
                for g in param.get("grants") or []]
    when = param["when"]
    out = ['"mode": "Attacks"' if when["event"] == "became_attacker" else '"mode": "ChangesZone"']
    if when["event"] == "put_into_graveyard":
        out.append('"origin": "Battlefield", "destination": "Graveyard"')
    n = (when.get("condition") or {}).get("attackers_at_least")
    if n:
        out.append(f'"type": "MinCoAttackers", "minimum": {int(n) - 1}')
    control = (param.get("condition") or {}).get("you_control")
    if control:  # 603.4: phase's QuantityComparison of the controller's objects
        kind = control.get("is", "permanent")
        if kind != "permanent":
            out.append(f'"type_filters": ["{kind.capitalize()}"], "controller": "You"')
        out.append(f'"comparator": "GE", "rhs": {{"type": "Fixed", "value": {int(control["at_least"])}}}')
    if param.get("optional"):
        out.append('"optional": true')
    each = {t["name"] for t in param.get("targets") or [] if t.get("count") == "all"}
    for e in param["effects"]:
        (k, v), = ((k, v) for k, v in e.items() if k != "on")
        out += _EFFECT_PARSE[k](v, e.get("on") in each)
    return out


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
        wants = _expected_composed(name, param) if name in ("triggered", "static") else [_expected(name, param)]
        for want in wants:
            if want and want not in text:
                raise phase_cards.UnsupportedCard(
                    f"{card['name']}: phase.rs parses {built.get('oracle_text')!r} without the intended effect "
                    f"({name}: expected {want} in its parse)")
        if name == "triggered" and any("discard" in e for e in param["effects"]) and '"random": true' in text:
            raise phase_cards.UnsupportedCard(f"{card['name']}: phase.rs parses a chosen discard as a random one")


_BUILT: dict[tuple[int, str], list[dict[str, Any]] | Exception] = {}
"""Parsed faces by (phase module, card entry): a card is parsed and checked once per process, not once per case
(``build_oracle_face`` was a twentieth of a case's time)."""


def _tokens(card: dict[str, Any], pool: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The pool cards that define the tokens the card's composed abilities create (their text depends on them)."""
    names = {e["create_token"]["card"]
             for d in (card, card.get("back") or {}) for a in d.get("abilities") or []
             if isinstance(a, dict) and "triggered" in a
             for e in a["triggered"].get("effects") or [] if "create_token" in e}
    return {n: pool[n] for n in sorted(names) if n in pool}


def _built(phase: Any, card: dict[str, Any], pool: dict[str, dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """phase's faces of one card-pool entry (two for a transforming card), each checked (:func:`_check_face`)."""
    tokens = _tokens(card, pool or {})
    key = (id(phase), json.dumps([card, tokens], sort_keys=True, default=str))
    if key not in _BUILT:
        try:
            if card.get("back"):
                faces = []
                for i, (f, d) in enumerate(zip(phase_cards.transform_faces(card, tokens), (card, card["back"]))):
                    built = dict(phase.build_oracle_face_multi(f, f["identifiers"]["scryfallOracleId"]))
                    built["layout"], built["face_index"] = "transform", i
                    _check_face(built, d)
                    faces.append(built)
            else:
                f = phase_cards.face(card, pool=tokens)
                built = phase.build_oracle_face(f, f["identifiers"]["scryfallOracleId"])
                _check_face(built, card)
                faces = [built]
            _BUILT[key] = faces
        except phase_cards.UnsupportedCard as exc:
            _BUILT[key] = exc
    got = _BUILT[key]
    if isinstance(got, Exception):
        raise got
    return got


def card_database(phase: Any, cards: dict[str, dict[str, Any]], pool: dict[str, dict[str, Any]] | None = None
                  ) -> dict[str, Any]:
    """phase's card data (name -> CardFace) for the case's cards and the library filler; ``pool``: the request's
    cards (a token a composed ability creates is defined there)."""
    key = (id(phase), phase_cards.FILLER)
    if key not in _BUILT:
        filler = phase_cards.filler()
        _BUILT[key] = [phase.build_oracle_face(filler, filler["identifiers"]["scryfallOracleId"])]
    out: dict[str, Any] = {}
    for card in cards.values():
        if card["name"] == phase_cards.FILLER:
            continue
        for built in _built(phase, card, pool if pool is not None else cards):
            out[built["name"].lower()] = built
    for built in _BUILT[key]:
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
        self.board = kit.lay_out(self.setup, kit.MTG_ZONES, filler=phase_cards.FILLER,
                                 anonymous_zones=ANONYMOUS_ZONES)
        self.faces = _faces(self.board, self.cards_def)   # case id -> the card (pool entry) phase is given for it
        self.oid: dict[int, str] = {}          # phase object id -> case id
        self.stack_src: dict[int, tuple[int, str | None, int, bool]] = {}
        # stack entry id -> (source, ability, controller, targets chosen)
        self.record = kit.Record()
        self.forced: list[tuple[str, Any]] = []  # decisions phase took itself: (kind, value)
        self.winner: str | None = None
        self.seat: dict[str, int] = {}
        self.moves = 0                           # actions applied (or states loaded): what a projection is of
        self._projected: tuple[int, dict[str, Any]] | None = None
        self.attackers_declared = False
        self.library_top: dict[int, int] = {}    # seat -> where the next library card of the case goes

    # -- seats ------------------------------------------------------------------------------------
    def _seats(self) -> str:
        teams = [self.setup["players"][p].get("team") for p in self.players]
        if any(teams):
            names = sorted(set(t or p for t, p in zip(teams, self.players)))
            if len(self.players) != 4 or len(names) != 2 or any(
                    sum(1 for t in teams if t == n) != 2 for n in names):
                raise CannotSetUp("phase.rs plays teams only as Two-Headed Giant: two teams of two players")
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
        """A game of phase with the case's board: every card the case places is in its owner's deck (one filler
        where a player has none: phase starts no game with an empty library), every mulligan kept; the state is
        then edited in turn 1 (:meth:`_board`) and written at the draw step's priority, so no card is drawn in
        setup, and the players pass into the step the case starts in."""
        fmt = self._seats()
        by_seat: list[list[str]] = [[] for _ in self.players]
        for c in self.board.cards():
            by_seat[self.seat[c.owner]].append(self.faces[c.id]["name"])
        db = card_database(self.phase, {f["name"]: f for f in self.faces.values()}, self.cards_def)
        self.engine = self.phase.Engine.from_json(json.dumps(db))
        decks = [names or [phase_cards.FILLER] for names in by_seat]
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
                raise CannotSetUp(f"setup.phase {start!r}: the adapter starts a case in main, combat or main2")
            self._advance_to(want, -1)
        self.record.checkpoint(-1, self.project())

    def _start_in_combat(self, step: str) -> None:
        """``setup.step``: attackers already declared (``declare_blockers``), or blockers too
        (``combat_damage``). The combat is written into phase's state at the end of the step before, with the
        active player holding priority and the stack empty; the players then pass into the case's step."""
        before = {"declare_blockers": "DeclareAttackers", "combat_damage": "DeclareBlockers"}.get(step)
        if before is None:
            raise CannotSetUp(f"setup.step {step!r}: the adapter starts a later step in declare_blockers or "
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
                                  {"type": "Battle" if "battle" in self.faces[t].get("types", [])
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
        self.moves += 1
        self.attackers_declared = True
        for _ in range(MAX_AUTO):        # every player passes: the step before ends and the case's step begins
            if self.game.phase != before or self.wf()["type"] != "Priority" or self.game.stack():
                return
            self._pass(-1)

    def _board(self, exported: dict[str, Any]) -> dict[str, Any]:
        """The case's board written into phase's exported state: each card of the layout taken from its owner's
        library to its zone (:meth:`_place`); a zone the case does not state is empty (the case format; no
        padding: a player who draws from a library the case leaves empty draws from an empty library); the
        fillers phase needed to start are taken out of the game's state. The turn is set at the draw step's
        priority, past its draw."""
        s = exported["state"]
        objs = s["objects"]
        turn = s["turn_number"]
        for pl in s["players"]:       # hands back into the library: every card starts where the case says
            for i in list(pl["hand"]):
                pl["hand"].remove(i)
                pl["library"].append(i)
                objs[str(i)]["zone"] = "Library"
        taken: set[int] = set()
        placed: list[tuple[kit.Placed, dict[str, Any]]] = []
        for c in self.board.cards():
            lib = s["players"][self.seat[c.owner]]["library"]
            name = self.faces[c.id]["name"]
            i = next((i for i in lib if i not in taken and objs[str(i)]["name"] == name), None)
            if i is None:
                raise _CaseFailure(f"card {c.card!r} ({c.id}) not found in phase's library of {c.owner}")
            taken.add(i)
            lib.remove(i)
            o = objs[str(i)]
            self.oid[i] = c.id
            placed.append((c, o))
            self._place(s, c, o, turn)
        for c, o in placed:
            if c.spec.get("attached_to"):
                o["attached_to"] = self._attach_ref(c.spec["attached_to"])
                if o["attached_to"]["type"] == "Object":
                    host = objs[str(o["attached_to"]["data"])]
                    host.setdefault("attachments", []).append(o["id"])
        for p in self.players:
            player = s["players"][self.seat[p]]
            player["life"] = self.board.life[p]
            for i in [i for i in player["library"] if i not in taken]:    # the fillers phase needed to start
                player["library"].remove(i)
                del objs[str(i)]
        active = s["active_player"]
        s["phase"] = "Draw"
        s["priority_player"] = active
        s["waiting_for"] = {"type": "Priority", "data": {"player": active}}
        return exported

    def _attach_ref(self, target: str) -> dict[str, Any]:
        if target in self.seat:
            return {"type": "Player", "data": self.seat[target]}
        i = next((i for i, c in self.oid.items() if c == target), None)
        if i is None:
            raise _CaseFailure(f"attached_to {target!r} names no card or player of the case")
        return {"type": "Object", "data": i}

    def _place(self, s: dict[str, Any], c: kit.Placed, o: dict[str, Any], turn: int) -> None:
        cs, zone = c.spec, c.zone
        seat = self.seat[c.owner]
        if (self.faces[c.id].get("props") or {}).get("token"):  # a token of the setup (111.1): phase's own flag
            o["is_token"] = True
        if cs.get("face") == "back":
            _turn_over(o, c.id)
        if zone == "battlefield":
            ctrl = self.seat[c.controller]
            o.update(zone="Battlefield", controller=ctrl, base_controller=ctrl, tapped=bool(cs.get("tapped")),
                     summoning_sick=bool(cs.get("entered_this_turn")),
                     entered_battlefield_turn=turn if cs.get("entered_this_turn") else max(turn - 1, 0),
                     timestamp=s["next_timestamp"])
            s["next_timestamp"] += 1
            s["battlefield"].append(o["id"])
            d = self.faces[c.id]
            d = d.get("back", d) if cs.get("face") == "back" else d
            counters = dict(cs.get("counters") or {})
            types = d.get("types", [])
            if "battle" in types:
                counters.setdefault("defense", cs["defense"] if cs.get("defense") is not None else d.get("defense") or 0)
                o["defense"] = counters["defense"]
                prot = cs.get("protector")
                if prot is None and not d.get("subtypes"):
                    prot = c.controller          # 310.8a
                if prot is not None:
                    o["chosen_attributes"] = [{"type": "Player", "value": self.seat[prot]}]
            if "planeswalker" in types:
                counters.setdefault("loyalty", (d.get("props") or {}).get("loyalty", 0))
                o["loyalty"] = counters["loyalty"]
            phase_kind = {v: k for k, v in COUNTER_KINDS.items()}
            o["counters"] = {phase_kind.get(k, k): v for k, v in counters.items()}
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
            raise CannotSetUp(f"{c.id}: zone {zone!r} is not set up on phase.rs")

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
        self.moves += 1
        self._record(at, act.kind, before, list(result.events))
        return result

    def _phase_object(self, i: int) -> dict[str, Any] | None:
        """phase's object ``i``, or None: phase no longer has it (a token that ceased to exist, 704.5d)."""
        try:
            return self.game.object(i)
        except ValueError:
            return None

    def _peek(self, i: int) -> dict[str, Any]:
        o = self._phase_object(i) or {}
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
        later = PAST.get(entry["kind"], ())
        for _ in range(MAX_AUTO):
            if self.wf()["type"] != "Priority" or self.game.phase in later or self.game.phase in TURN_OVER:
                return
            if not kit.implies_pass(entry, self.pid(self.game.priority_player()), open_point=self._open_point()):
                return      # the script's entry is this decision (or refused in its place)
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
        self.record.refresh(at, self.project())

    def _forced_for(self, entry: dict[str, Any]) -> int | None:
        return next((i for i, (k, _) in enumerate(self.forced) if k == entry["kind"]), None)

    # -- one script entry -------------------------------------------------------------------------
    def decide(self, at: int, entry: dict[str, Any]) -> None:
        kind, player = entry["kind"], entry["player"]
        if player not in self.seat:
            raise _CaseFailure(f"script[{at}]: {player!r} is not a player of the case")
        self._implied_passes(at, entry)
        # a checkpoint is the state after its entry and what it caused before the next decision (README): the
        # implied passes up to this entry included
        self.record.refresh(at - 1, self.project())
        taken = self._taken(entry)
        if taken is not None:
            self._outcome(at, entry, taken)
            return
        # a refusal changes nothing: decisions applied in parts (a cast and its targets, the damage of several
        # attackers) are undone whole when a later part is refused
        snapshot = self.game.state() if _in_parts(entry) else None
        n_events = len(self.record.events(at))
        try:
            getattr(self, "_do_" + kind)(at, entry)
        except (_Refused, ValueError, RuntimeError) as exc:
            if snapshot is not None:
                self.game = self.engine.load_game(snapshot)      # a refusal changes nothing
                self.moves += 1
            del self.record.events(at)[n_events:]
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
        self.record.outcome(at, entry, outcome, self.project(), why=why)

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
            self._choose_target(seat, t, at, "a target")
        if self.wf()["type"] == "TargetSelection":
            raise _Refused("phase.rs asks for more targets than the script gives")

    def _choose_target(self, seat: int, x: Any, at: int, what: str) -> None:
        """phase's ``ChooseTarget`` naming case id ``x`` (a card or a player); refused when phase does not offer it."""
        want = self._target(x)
        offered = [a for a in self.game.actions() if a.kind == "ChooseTarget"]
        choose = next((a for a in offered if a.data.get("target") == want), None)
        if choose is None:
            raise _Refused(f"phase.rs does not offer {x} as {what} ({[a.data.get('target') for a in offered]})")
        self._apply(seat, choose, at)

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
        if not isinstance(args, dict) or not args or not all(isinstance(v, (dict, list)) for v in args.values()):
            raise _Refused(f"assign_combat_damage takes {{attacker: {{recipient: n}}}} or {{attacker: [{{to, damage}}, "
                           f"...]}}, not {args!r}")
        for attacker, split in args.items():
            self._require(seat, "AssignCombatDamage")
            prompt = self.wf()["data"]
            if prompt.get("attacker_id") != self._obj(attacker):
                raise _Refused(f"phase.rs asks for the damage of another attacker ({self._prompt()})")
            attacked = self._ref(prompt.get("attack_target")) or self.pid(prompt["defending_player"])
            assignments, trample = [], 0
            for b, n in _division(split):
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

    def _do_choose_targets(self, at: int, entry: dict[str, Any]) -> None:
        """603.3d: the targets of a composed triggered ability as it goes on the stack (phase's
        ``TriggerTargetSelection``), named by the ability's target names, chosen in the order its text gives them."""
        seat = self.seat[entry["player"]]
        self._require(seat, "TriggerTargetSelection")
        args = entry.get("args")
        if not isinstance(args, dict):
            raise _Refused(f"choose_targets takes {{target name: id}}, not {args!r}")
        names = self._target_names(self._selecting())
        if sorted(args) != sorted(names):
            raise _Refused(f"choose_targets names {sorted(args)}; the ability's targets are {names}")
        for name in names:
            if self.wf()["type"] != "TriggerTargetSelection":
                raise _Refused(f"phase.rs asks for no more targets (waiting for {self._prompt()})")
            for x in (args[name] if isinstance(args[name], list) else [args[name]]):
                self._choose_target(seat, x, at, f"the target {name}")

    def _selecting(self) -> int | None:
        """The source of the triggered ability phase is choosing targets for (the stack's top entry)."""
        top = (self.game.stack() or [None])[-1]
        return top.get("source_id") if top else None

    def _composition(self, source: Any) -> dict[str, Any] | None:
        """The ``triggered`` composition of the case card phase's object ``source`` stands for (one per card)."""
        cid = self._card(source)
        d = self.faces.get(cid) if cid else None
        if d and (self._phase_object(source) or {}).get("transformed") and d.get("back"):
            d = d["back"]
        found = [a["triggered"] for a in (d or {}).get("abilities") or [] if isinstance(a, dict) and "triggered" in a]
        return found[0] if len(found) == 1 else None

    def _target_names(self, source: Any) -> list[str]:
        """The composition's chosen targets (not ``count: all``) in the order phase asks for them: its text's,
        which is the order the effects first name them (phase_cards.composed_text)."""
        comp = self._composition(source) or {}
        chosen = [t["name"] for t in comp.get("targets") or [] if t.get("count", 1) != "all"]
        order = [e.get("on") for e in comp.get("effects") or []]
        return sorted(chosen, key=lambda n: order.index(n) if n in order else len(order))

    def _do_use_optional(self, at: int, entry: dict[str, Any]) -> None:
        """603.5: a "may" ability's controller chooses, as it resolves (phase's ``OptionalEffectChoice``)."""
        seat = self.seat[entry["player"]]
        self._require(seat, "OptionalEffectChoice")
        want = entry.get("args")
        if not isinstance(want, bool):
            raise _Refused(f"use_optional takes true or false, not {want!r}")
        self._decide_optional(seat, want, at)

    def _decide_optional(self, seat: int, want: bool, at: int) -> None:
        """phase's ``DecideOptionalEffect`` with ``accept`` ``want`` (a "may", a Siege cast transformed)."""
        act = next((a for a in self.game.actions()
                    if a.kind == "DecideOptionalEffect" and a.data.get("accept") is want), None)
        if act is None:
            raise _Refused(f"phase.rs offers no DecideOptionalEffect accept={want}")
        self._apply(seat, act, at)

    def _do_discard(self, at: int, entry: dict[str, Any]) -> None:
        """701.9b: the cards the discarding player chooses (phase's ``DiscardChoice``)."""
        seat = self.seat[entry["player"]]
        self._require(seat, "DiscardChoice")
        args = entry.get("args")
        ids = [self._obj(x) for x in (args if isinstance(args, list) else [args])]
        act = next((a for a in self.game.actions()
                    if a.kind == "SelectCards" and sorted(a.data.get("cards") or []) == sorted(ids)), None)
        if act is None:
            raise _Refused(f"phase.rs offers no discard of {args} (it offers "
                           f"{[a.data.get('cards') for a in self.game.actions() if a.kind == 'SelectCards']})")
        self._apply(seat, act, at)

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
        self._decide_optional(seat, want, at)
        for t in (args.get("targets") or []) if isinstance(args, dict) else []:
            if self.wf()["type"] != "TargetSelection":
                raise _Refused(f"phase.rs asks for no target of the spell cast transformed (waiting for "
                               f"{self._prompt()})")
            self._choose_target(seat, t, at, "a target")

    # -- events ---------------------------------------------------------------------------------
    def _record(self, at: int, action: str, before: dict[int, dict[str, Any]], events: list[dict[str, Any]]) -> None:
        events = _conceded(action, events)
        for e in self.game.stack() or []:
            kind = e.get("kind") or {}
            targeted = bool((((kind.get("data") or {}).get("ability") or {}).get("targets")))
            trigger = kind.get("type") == "TriggeredAbility"
            if trigger and e["id"] not in self.stack_src and targeted and action != "ChooseTarget":
                self._forced_targets(e)
            self.stack_src[e["id"]] = (e.get("source_id") if trigger else e["id"],
                                       self._ability_name(e) if trigger else None, e.get("controller"), targeted)
        counters = {i: b["counters"] for i, b in before.items()}
        out = self.record.events(at)
        free = any(e["type"] == "EffectResolved" and (e.get("data") or {}).get("kind") == "CastFromZone"
                   for e in events)
        lives = _lives(events, self.game)
        for e in events:             # a token gets the id the reference derives: <source id>.token<n> (111.2)
            d = e.get("data") or {}
            if e["type"] == "TokenCreated" and d.get("object_id") not in self.oid and self._card(d.get("source_id")):
                src, k = self._card(d["source_id"]), 1
                while f"{src}.token{k}" in self.oid.values():
                    k += 1
                self.oid[d["object_id"]] = tid = f"{src}.token{k}"
                self.faces[tid] = self.cards_def.get(self._token_card(d) or "", {})
        done: set[Any] = set()       # the sources whose effect phase reports having run (EffectResolved)
        for n, e in enumerate(events):
            d = e.get("data") or {}
            if e["type"] == "EffectResolved":
                done.add(d.get("source_id"))
            elif e["type"] == "ZoneChanged" and d.get("from") == "Stack" and d.get("to") == "Battlefield":
                done.add(d.get("object_id"))     # a permanent spell resolves into a permanent (608.3)
            out.extend(self._map(e, counters, free, lives.get(n), done))
            if e["type"] == "GameOver":
                w = (e.get("data") or {}).get("winner")
                if isinstance(w, int):
                    self.winner = self.pid(w)
        if action not in ("ChooseBattleProtector", "ChooseOption"):
            for i, b in before.items():      # a protector phase chose itself (the only possible one)
                now = self._peek(i)["protector"]
                if now and now != b["protector"]:
                    self.forced.append(("choose_protector", self.pid(now[0])))

    def _forced_targets(self, e: dict[str, Any]) -> None:
        """A composed trigger phase put on the stack with its targets already chosen (the only legal ones): the
        script's ``choose_targets`` there is ``automatic`` (an entry naming others, ``not_asked``)."""
        names = self._target_names(e.get("source_id"))
        got = ((((e.get("kind") or {}).get("data") or {}).get("ability") or {}).get("targets")) or []
        if names and len(got) == len(names):
            self.forced.append(("choose_targets", {n: self._ref(t) for n, t in zip(names, got)}))

    def _token_card(self, d: dict[str, Any]) -> str | None:
        """The pool card that defines a token phase created (TokenCreated): its source's one ``create_token``."""
        made = [e["create_token"]["card"] for e in (self._composition(d.get("source_id")) or {}).get("effects") or []
                if "create_token" in e]
        return made[0] if len(made) == 1 else None

    def _ability_name(self, e: dict[str, Any]) -> str | None:
        """Our vocabulary's name for a triggered ability phase put on the stack: a composed one's ``name`` when its
        source's card has one (one per card); else a named ability's, from its effect (a composition that loses life
        is not ``attack_drain``)."""
        named = _trigger_ability(e.get("kind") or {})
        cid = self._card(e.get("source_id"))
        if named and any(a == named or (isinstance(a, dict) and named in a)
                         for a in (self.faces.get(cid) or {}).get("abilities") or []):
            return named  # the card has that named ability
        comp = self._composition(e.get("source_id"))
        return comp.get("name", "triggered") if comp is not None else named

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

    def _map(self, e: dict[str, Any], counters: dict[int, dict[str, int]], free: bool, life: int | None,
             done: set[Any]) -> list[dict[str, Any]]:
        t, d = e["type"], e.get("data") or {}
        ev = []

        def add(event: str, **args: Any) -> None:
            ev.append({"kind": event, "args": args})

        if t == "ZoneChanged":
            c = self._card(d.get("object_id"))
            if c and d.get("from") in ZONES and d.get("to") in ZONES:
                owner = (d.get("record") or {}).get("owner", (self._phase_object(d["object_id"]) or {}).get("owner"))
                add("moved", card=c, **{"from": ZONES[d["from"]], "to": ZONES[d["to"]]},
                    **({"player": self.pid(owner)} if isinstance(owner, int) else {}))
        elif t == "SpellCast":
            c = self._card(d.get("object_id"))
            if c:
                o = self._phase_object(d["object_id"]) or {}
                add("cast", card=c, player=self.pid(d["controller"]),
                    face="back" if o.get("transformed") else "front", free=free)
        elif t == "StackResolved":
            # phase's bookkeeping for anything leaving the stack, resolved or not (game/stack.rs, resolve_top): a
            # resolution where phase ran the entry's effect (EffectResolved of its source), put the permanent spell
            # onto the battlefield, or resolved a spell with no target (only a targeted entry can leave without
            # resolving there); a targeted entry that left with none of these did not resolve (608.2b: all its
            # targets illegal), nor did a composed trigger with an intervening "if" (603.4: removed as it resolves):
            # the vocabulary's countered ("leaves the stack without resolving")
            i = d.get("object_id")
            src, ability, ctrl, targeted = self.stack_src.get(i, (i, None, None, False))
            c = self._card(src)
            spell = src == i
            w = self.wf()
            pending = (w.get("data") or {}) if w["type"] in CHOICE_PROMPTS else {}
            if c and (src in done or i in done or (spell and not targeted) or pending.get("source_id") == src):
                args: dict[str, Any] = {"card": c}
                if ctrl is not None:
                    args["player"] = self.pid(ctrl)
                if ability:
                    args["ability"] = ability
                add("resolved", **args)
            elif c and (targeted or (not spell and (self._composition(src) or {}).get("condition"))):
                add("countered", card=c)  # 608.2b, or 603.4: an intervening "if" false as it resolves
        elif t == "SpellCountered":
            c = self._card(d.get("object_id"))
            if c:
                add("countered", card=c)
        elif t == "DamageDealt":
            src, tgt = self._card(d.get("source_id")), self._ref(d.get("target"))
            if src and tgt:
                add("damaged", source=src, target=tgt, amount=d.get("amount"), combat=bool(d.get("is_combat")))
        elif t == "LifeChanged":
            add("life_changed", player=self.pid(d["player_id"]), amount=d.get("amount"), life=life)
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
        elif t == "TokenCreated" and self._card(d.get("object_id")):
            o = self._phase_object(d["object_id"]) or {}
            add("token_created", card=self._card(d["object_id"]),
                **({"player": self.pid(o["controller"])} if isinstance(o.get("controller"), int) else {}),
                name=self._token_card(d) or d.get("name"))
        elif t == "PlayerLost":
            add("lost", player=self.pid(d["player_id"]))
        elif t == "PlayerEliminated":
            add("left_game", player=self.pid(d["player_id"]))
        elif t == "GameOver" and isinstance(d.get("winner"), int):
            add("won", player=self.pid(d["winner"]))
        return ev

    # -- the state, projected -----------------------------------------------------------------------
    def project(self) -> dict[str, Any]:
        """phase's state in Magic's ``final`` vocabulary (:func:`kit.mtg_card`): each tracked object and player as
        phase gives it (``Game.object``, ``Game.player``), the combat from the exported state in a combat step only
        (``Game.state()`` exports the whole game: the costliest call of a case). Made once per state."""
        if self._projected is None or self._projected[0] != self.moves:
            self._projected = (self.moves, self._project())
        return self._projected[1]       # shared by the checkpoints of one state: never changed once made

    def _project(self) -> dict[str, Any]:
        g = self.game
        combat = (g.state()["state"].get("combat") or {}) if g.phase in COMBAT_STEPS else {}
        attacking = {a["object_id"]: self._ref(a.get("attack_target")) for a in combat.get("attackers") or []}
        blocking = {int(b): a[0] for b, a in (combat.get("blocker_to_attacker") or {}).items() if a}
        players: dict[str, Any] = {}
        for seat in range(len(self.players)):
            pl = g.player(seat)
            players[self.pid(seat)] = kit.mtg_player(
                pl["life"], bool(pl.get("is_eliminated")) or (pl.get("status") or {}).get("type") not in (None, "Active"))
        cards: dict[str, Any] = {}
        for i, cid in self.oid.items():
            try:
                o = g.object(i)
            except ValueError:  # an object phase no longer has: a token that ceased to exist (704.5d)
                continue
            if o is None:
                continue
            zone = ZONES.get(o["zone"], o["zone"].lower())
            holder = self.pid(o["controller"] if zone in ("battlefield", "stack") else o["owner"])
            players[holder][zone].append(cid)
            ct = o.get("card_types") or {}
            back = bool(o.get("transformed"))
            d = self.faces[cid]
            face_d = d.get("back", d) if back else d
            prot = [a.get("value") for a in o.get("chosen_attributes") or [] if a.get("type") == "Player"]
            att = o.get("attached_to")
            cards[cid] = kit.mtg_card(
                zone=zone, owner=self.pid(o["owner"]), controller=self.pid(o["controller"]),
                face="back" if back else "front",
                types=[x.lower() for x in ct.get("core_types", [])], subtypes=ct.get("subtypes", []),
                tapped=bool(o.get("tapped")),
                defense=(o.get("counters") or {}).get("defense", 0) if zone == "battlefield"
                else face_d.get("defense") or 0,
                protector=self.pid(prot[0]) if prot and zone == "battlefield" else None,
                attacking=attacking.get(i), blocking=self._card(blocking.get(i)),
                attached_to=self._ref(att) if att else None, damage=o.get("damage_marked") or 0,
                counters={_counter_kind(k): v for k, v in (o.get("counters") or {}).items() if v},
                power=o.get("power") or 0, toughness=o.get("toughness") or 0)
        return {"players": players, "cards": cards}


class _Refused(OracleError):
    """phase.rs does not accept this script entry now."""


COUNTER_KINDS = {"P1P1": "+1/+1", "M1M1": "-1/-1"}
"""phase's counter types under the names the Magic vocabulary gives them (defense, loyalty: the same)."""


def _counter_kind(kind: Any) -> Any:
    return COUNTER_KINDS.get(kind, kind)


def _faces(board: kit.Layout, pool: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Case id -> the card phase is given for it: its card-pool entry; for a card whose setup sets its power,
    toughness or added abilities, a face written for the case, named ``<card> (<id>)`` (phase's
    ``Engine.load_game`` rehydrates every object's printed characteristics from its card, so a stat edited in
    the state would not hold); an anonymous card, the filler."""
    out: dict[str, dict[str, Any]] = {}
    for c in board.cards():
        if c.anonymous:
            out[c.id] = {"name": phase_cards.FILLER, "types": ["land"], "subtypes": ["Plains"]}
            continue
        d = pool.get(c.card)
        if d is None:
            raise _CaseFailure(f"{c.id}: card {c.card!r} is not among the request's cards")
        own = {k: c.spec[k] for k in ("power", "toughness") if c.spec.get(k) is not None}
        if c.spec.get("abilities"):
            own["abilities"] = [*d.get("abilities", []), *c.spec["abilities"]]
        if own:
            if d.get("back"):
                raise CannotSetUp(f"{c.id}: a stat or ability set by the case on a double-faced card is not "
                                  f"written as a face for phase.rs")
            d = {**d, **own, "name": f"{d['name']} ({c.id})"}
        out[c.id] = d
    return out


def _turn_over(o: dict[str, Any], cid: str) -> None:
    """A card set up back face up (712.8d): its two faces swapped in the exported state, as phase's own transform
    leaves them (``transformed``, the front face kept as the ``back_face`` snapshot); ``Engine.load_game`` then
    rehydrates each face from its printed reference."""
    back = o.get("back_face")
    if not back or not back.get("printed_ref") or not o.get("printed_ref"):
        raise CannotSetUp(f"{cid}: phase.rs gives its card no back face to set it up on")
    o["printed_ref"], back["printed_ref"] = back["printed_ref"], o["printed_ref"]
    o["name"], back["name"] = back["name"], o["name"]
    back["is_swap_snapshot"] = True
    o["transformed"] = True


def _division(split: dict[str, Any] | list[Any]) -> list[tuple[str, Any]]:
    """An attacker's division in script order: the mapping form (its key order) or the list form
    ``[{to, damage}, ...]``, whose order is the damage assignment order (510.1c). The list names each recipient
    once (the protocol's shape, as the mapping's keys do); one that does not is no division phase can be given."""
    if isinstance(split, dict):
        return list(split.items())
    if not all(isinstance(x, dict) and set(x) == {"to", "damage"} for x in split):
        raise _Refused(f"a division of damage as a list holds {{to, damage}} items, not {split!r}")
    named = [x["to"] for x in split]
    if len(set(named)) != len(named):
        raise _Refused(f"a division of damage as a list names each recipient once, not {split!r}")
    return [(x["to"], x["damage"]) for x in split]


def _in_parts(entry: dict[str, Any]) -> bool:
    """Can phase take a part of this decision and refuse a later one? A cast (its targets come after the
    ``CastSpell``, and phase may ask for more or fewer than the script gives), a Siege cast transformed, the damage
    of several attackers. Only then is the game saved first (``Game.state()`` exports the whole game)."""
    if entry["kind"] in ("cast", "cast_transformed", "choose_targets"):
        return True
    args = entry.get("args")
    return entry["kind"] == "assign_combat_damage" and not (isinstance(args, dict) and len(args) == 1)


def _conceded(action: str, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """104.3a: "A player who concedes leaves the game immediately. That player loses the game." phase plays its
    ``Concede`` action as that player's elimination (``game/engine.rs``: ``eliminate_player``), which reports
    ``PlayerEliminated`` and no ``PlayerLost`` (that event comes only from a state-based action): its record of the
    loss is the elimination. So the elimination answering a ``Concede`` is read as the loss, then the leaving."""
    if action != "Concede":
        return events
    lost = {(e.get("data") or {}).get("player_id") for e in events if e["type"] == "PlayerLost"}
    out: list[dict[str, Any]] = []
    for e in events:
        p = (e.get("data") or {}).get("player_id")
        if e["type"] == "PlayerEliminated" and p not in lost:
            out.append({"type": "PlayerLost", "data": {"player_id": p}})
            lost.add(p)
        out.append(e)
    return out


def _lives(events: list[dict[str, Any]], game: Any) -> dict[int, int]:
    """Index of each ``LifeChanged`` event -> the player's life after it, worked back from the life phase's state
    gives after the action (phase-python 0.103 puts ``new_total`` in the event; 0.77 and 0.83 do not)."""
    out: dict[int, int] = {}
    now: dict[int, int] = {}
    for n in range(len(events) - 1, -1, -1):
        e = events[n]
        if e["type"] != "LifeChanged":
            continue
        d = e.get("data") or {}
        p = d["player_id"]
        if p not in now:
            now[p] = int(game.player(p)["life"])
        out[n] = now[p]
        now[p] -= int(d.get("amount") or 0)
    return out


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
            "protocol_version": 2,
            "engine": {"name": "phase.rs", "version": f"{DISTRIBUTION} {kit.installed_version(DISTRIBUTION)}"},
            "games": ["mtg"], "capabilities": [], "abilities": {"mtg": ABILITIES},
            "observation": "steps", "reason_codes": False, "events": {"mtg": EVENTS},
        }
        return Hello.model_validate({k: v for k, v in fields.items() if k in Hello.model_fields})

    def run_case(self, request: CaseRequest, timeout: float | None = None) -> CaseReply:
        return _reply(self.play(request))

    def play(self, request: CaseRequest) -> dict[str, Any]:
        """The whole protocol-2 reply as a dict."""
        """The whole protocol-2 reply as a dict. A case the adapter cannot give phase raises :class:`CannotSetUp`
        (the runner's ``skip``, with the reason); an adapter that cannot follow the script answers an ``error``."""
        play = _Play(self.phase, request)
        try:
            play.start()
            for at, entry in enumerate(request.script):
                play.decide(at, entry)
            play.finish()
        except _CaseFailure as exc:
            return {"id": request.id, "error": str(exc)}
        return play.record.reply(request.id, play.project(), play.winner)

    def close(self) -> None:
        pass


def _reply(fields: dict[str, Any]) -> CaseReply:
    """A reply with the protocol-2 fields the harness's model knows (all of them once it speaks v2)."""
    return CaseReply.model_validate({k: v for k, v in fields.items() if k in CaseReply.model_fields})


def engine() -> PhaseRs:
    """The factory for ``--engine py:oracle.engines.phase_rs:engine``."""
    return PhaseRs()


__all__ = ["engine", "PhaseRs", "INSTALL_HINT", "ABILITIES", "EVENTS"]
