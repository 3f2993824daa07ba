"""python-mtg (PyPI ``python-mtg``, https://github.com/yevbar/witchcraft), a Datalog Magic rules engine with a
python-chess-style API, under test in process: ``--engine py:oracle.engines.python_mtg:engine``.

Install it with ``pip install 'tcg-oracle[python-mtg]'``; nothing else in tcg-oracle imports ``mtg``.

How a case is played (level ``final``: the end state, the winner and each script entry's outcome):

- **Cards**: each case card is the real card of python-mtg's corpus with its Oracle text
  (:mod:`oracle.engines.python_mtg_cards`): python-mtg 0.1.1 ships no Oracle-text parser, its cards are the facts
  precompiled in ``mtg/_datalog/cards.dl`` (``sim.load_db``, looked up by name in ``bridge_to_engine.card_facts``). A card no real card has the text of, or whose power and toughness
  (the card's, or the setup's) are not the real card's, is :class:`CannotSetUp` (the case is skipped).
- **Board**: an engine state is written the way python-mtg's own ``bridge_to_engine.make_deck_state`` writes
  one (``card_facts`` per instance, ``_materialize_printed``), with the zones the setup states, two players
  only (python-mtg attacks "the" opponent), the case's step as ``current_step``, a zone the case does not state
  empty (``kit.lay_out``; the case's turn has no draw step); anonymous cards are
  :data:`~oracle.engines.python_mtg_cards.FILLER`; the mana its spells cost is given as untracked basic lands
  (mana is not modelled by the suite, ``mtg:A-no-mana``), left out of the projection. ``MTG_NO_DELTA=1``: the
  incremental mode keeps derived facts of one game into the next.
- **Decisions**: python-mtg's referee (``mtg.engine.env``) offers the active player's moves in a main phase and,
  with ``_instant_speed``, in the other steps; ``attack`` sets; ``block`` sets for the defending player. An entry
  it offers is pushed (``accepted``); one it does not offer is ``refused`` (python-mtg has no reason codes). Its
  attack and block lists are a capped slice of the declarations (``env._attack_options``/``_block_options``: a
  search-branching cap, "a policy detail, not an engine limit"); a declaration beyond the cap is judged by the
  engine's own per-creature legality (``may_attack``/summoning sickness; ``_legal_block_pairs`` and
  ``_required_blocks_ok``) and pushed unchecked. Priority goes only to the active player: another player's
  ``pass`` is ``not_asked``; an active player's pass or ``end_main`` where python-mtg left that window by itself
  (nothing to do there) is ``automatic``. python-mtg assigns combat damage itself: ``assign_combat_damage`` is
  ``not_asked``. A spell whose target python-mtg picks itself (``any_target``), ``concede``, ``choose_protector``,
  ``cast_transformed`` and ``proliferate`` have no action there: :class:`CannotSetUp`. A ``discard`` a trigger asks
  during a cast is answered from the script through python-mtg's choice seam (``driver._choose``,
  ``state['_policy']``); a trigger's "target opponent" is its one legal choice (``choose_targets`` ``automatic``).
- **Turn**: python-mtg advances through steps where nobody has a choice; the adapter advances with its
  ``_advance_one`` and stops at the postcombat main phase (the case's turn runs main -> combat -> main2), or at
  the active player's main-phase decision when the script is exhausted there (PROCEDURE.md).
"""

from __future__ import annotations

import contextlib
import io
import os
from typing import Any

from ..core.errors import EngineStartError
from ..errors import OracleError
from ..model import CaseReply, CaseRequest, Hello
from . import python_mtg_cards as cards
from .kit import CannotSetUp, installed_version, lay_out, mtg_card, mtg_player

DISTRIBUTION = "python-mtg"
INSTALL_HINT = "pip install 'tcg-oracle[python-mtg]'  (or: pip install python-mtg)"
ZONES = ("battlefield", "hand", "library", "graveyard")
"""The zones the adapter places cards in (a card the setup puts elsewhere is :class:`CannotSetUp`)."""
MAIN = ("precombat_main", "postcombat_main")
STEP = {"main": "precombat_main", "combat": "declare_attackers", "main2": "postcombat_main"}
LANDS = {"W": "Plains", "U": "Island", "B": "Swamp", "R": "Mountain", "G": "Forest"}
NO_ACTION = {"concede": "python-mtg has no concede action (CR 104.3a)",
             "choose_protector": "python-mtg has no battles (CR 310)",
             "cast_transformed": "python-mtg has no battles (CR 310)",
             "proliferate": "python-mtg chooses what proliferate takes itself (no proliferate choice)"}
LATE_NO_ACTION = {
    "use_optional": "no card the adapter gives python-mtg has a \"you may\" trigger (the only source of this decision)",
    "choose_copy": "no card the adapter gives python-mtg enters as a copy (the only source of this decision)"}
"""Decisions checked after the cards: their only sources are composed abilities no corpus card has (the card's
reason, found first, is the precise one)."""
CARD_FIELDS = {"id", "card", "tapped", "entered_this_turn", "power", "toughness"}  # P/T: only the real card's
"""The setup fields of a card the adapter places; any other (counters, protector, attached_to, face, abilities
added, another owner or controller) is :class:`CannotSetUp`."""


def _import_mtg() -> Any:
    os.environ["MTG_NO_DELTA"] = "1"  # before mtg.engine_inproc reads it
    try:
        import mtg  # noqa: F401  -- the one place tcg-oracle imports python-mtg
        from mtg import _corpus, bridge_to_engine, driver, sim
        from mtg._text import slug
        from mtg.engine import env
    except ImportError as exc:
        raise EngineStartError(f"python-mtg is not installed ({exc}); install it: {INSTALL_HINT}") from None
    return _Mtg(driver=driver, env=env, bridge=bridge_to_engine, db=sim.load_db(), slug=slug,
                corpus={c["name"]: c for c in _corpus.load_cards() if isinstance(c, dict)})


class _Mtg:
    def __init__(self, **kw: Any) -> None:
        self.__dict__.update(kw)


def _quiet(fn: Any, *a: Any) -> Any:
    with contextlib.redirect_stdout(io.StringIO()):  # python-mtg narrates its play on stdout
        return fn(*a)


class _NotOffered(OracleError):
    """python-mtg does not offer this script entry now."""


# ------------------------------------------------------------------------------------------------
# One case


class _CaseOnMtg:
    def __init__(self, m: _Mtg, request: CaseRequest) -> None:
        self.m, self.req = m, request
        self.setup = request.setup
        self.players = list(self.setup["players"])
        self.tid: dict[str, str] = {}      # case id -> python-mtg instance id
        self.cid: dict[str, str] = {}      # and back
        self.owner: dict[str, str] = {}
        self.decisions: list[dict[str, Any]] = []
        self.n = 0
        self.case_card: dict[str, str | None] = {}   # case id -> its card-pool name (None: anonymous)
        self.pending: set[str] = set()
        self.at = 0                        # the script entry being played
        self.cast_card: str | None = None  # the case card of the last cast (whose enters trigger a choice is of)
        self.discards: dict[int, str] = {}
        """Script entry -> outcome of the ``discard`` entries python-mtg's discard seam asked for (see
        :meth:`_discard_policy`); one it never asked for is refused."""
        """After a cast: the players whose passes resolve it under the rules (117.4). python-mtg resolved it at
        once; those passes are its own (``automatic``), and the case ends there if the script does."""

    # -- setup ------------------------------------------------------------------------------------
    def check(self) -> None:
        """Everything the case needs that python-mtg cannot be given, before any engine work."""
        if len(self.players) != 2 or any(p.get("team") for p in self.setup["players"].values()):
            raise CannotSetUp("python-mtg plays two players only (its attacks go to the one opponent)")
        if self.setup.get("step"):
            raise CannotSetUp(f"setup.step {self.setup['step']!r}: the adapter starts only at a phase")
        for e in self.req.script:
            if e["kind"] in NO_ACTION:
                raise CannotSetUp(f"{e['kind']}: {NO_ACTION[e['kind']]}")
        for name, card in self.req.cards.items():
            real = cards.REAL.get(name)
            rec = self.m.corpus.get(real) if real else None
            if rec is None or not cards.same_text(card, rec):
                raise CannotSetUp(f"{name}: no card of python-mtg's corpus has its Oracle text {card.get('text')!r} "
                                  f"(python-mtg plays only the cards of its corpus: no Oracle-text parser ships with it)")
        for e in self.req.script:
            if e["kind"] in LATE_NO_ACTION:
                raise CannotSetUp(f"{e['kind']}: {LATE_NO_ACTION[e['kind']]}")
        self.board = lay_out(self.setup, ZONES, filler=cards.FILLER, anonymous_zones=ZONES)
        for c in self.board.cards():
            extra = sorted(k for k, v in c.spec.items() if k not in CARD_FIELDS and v not in (None, [], {}, False))
            if c.owner != c.player or c.controller != c.player:
                extra = sorted({*extra, "owner/controller"} - {"owner", "controller"})
            else:
                extra = [k for k in extra if k not in ("owner", "controller")]
            if extra:
                raise CannotSetUp(f"{c.player}.{c.zone} {c.id}: the adapter does not set {', '.join(extra)} on python-mtg")
            if not c.anonymous:
                self._same_stats(c)

    def _same_stats(self, c: Any) -> None:
        """python-mtg takes a card's power and toughness from its corpus entry (``card_power``/``card_toughness``
        by card, ``printed_*`` derived from them): a case card, or a setup, with others cannot be given."""
        d, rec = self.req.cards[c.card], self.m.corpus[cards.REAL[c.card]]
        for f in ("power", "toughness"):
            want = c.spec.get(f, d.get(f))
            if want is not None and str(want) != str(rec.get(f)):
                raise CannotSetUp(f"{c.id} ({c.card}): {f} {want}, but python-mtg's {rec['name']} has {rec.get(f)} "
                                  f"(python-mtg takes power and toughness from the card)")

    def start(self) -> None:
        m, setup = self.m, self.setup
        m.driver.clear_cache()      # python-mtg's scenario-isolation seam: no memo of another case's states
        active = setup["active"]
        st: dict[str, Any] = {
            "current_step": {(STEP.get(setup.get("phase") or "main", "precombat_main"),)},
            "active_player": {(active,)}, "is_player": {(p,) for p in self.players},
            "life": {(p, int(d.get("life") if d.get("life") is not None else 20))
                     for p, d in setup["players"].items()},
            "counter": set(), "tapped": set(), "attacks": set(), "blocks": set(), "on_battlefield": set(),
            "in_hand": set(), "in_library": set(), "command_zone": set(), "_commander_owner": set(),
            "_cmd_casts": {}, "is_commander": set(), "commander_damage": set(), "graveyard": set(),
            "_lib_order": {p: [] for p in self.players}, "_land_played": set(), "_seed": 0,
            "_variant": "two-player", "_sick": set(), "_instant_speed": True, "_turn": 1}
        for c in self.board.cards():
            tid = self._load(st, c.card if c.anonymous else cards.REAL[c.card], c.player, c.zone, c.id)
            self.case_card[c.id] = None if c.anonymous else c.card
            if c.spec.get("tapped"):
                st["tapped"].add((tid,))
            if c.spec.get("entered_this_turn"):
                st["_sick"].add((tid,))
        for p in self.players:
            for land, k in self._mana(self.board.of(p, "hand")).items():
                for _ in range(k):
                    self._load(st, land, p, "battlefield", None)
        m.bridge._materialize_printed(st)
        self.state = st
        _quiet(m.env._develop_if_main, st)
        self._advance(st)

    def _mana(self, hand: Any) -> dict[str, int]:
        """The basic lands that pay for the case's cards in this player's hand (one land per mana symbol)."""
        need: dict[str, int] = {}
        for c in hand:
            if c.anonymous:
                continue
            rec = self.m.corpus[cards.REAL[c.card]]
            if "Land" in (rec.get("types") or []):
                continue
            cost = str(rec.get("manaCost") or "")
            colours = [c for c in cost if c in LANDS] or ["R"]
            generic = sum(int(x) for x in __import__("re").findall(r"\{(\d+)\}", cost))
            for c in colours:
                need[LANDS[c]] = need.get(LANDS[c], 0) + 1
            need[LANDS[colours[0]]] += generic
        return need

    def _load(self, st: dict[str, Any], name: str, p: str, zone: str, cid: str | None) -> str:
        """One instance of ``name``, as ``make_deck_state`` loads it."""
        m = self.m
        tid = f"{m.slug(name)}_{self.n}"
        self.n += 1
        facts, _dropped = m.bridge.card_facts(name, p, tid, m.db, m.corpus)
        for rel, rows in facts.items():
            st.setdefault(rel, set()).update(rows)
        rec = m.corpus[name]
        for t in rec.get("types") or []:
            st.setdefault("spell_type", set()).add((tid, t.lower()))
        st.setdefault("mana_cost", set()).add((tid, m.bridge._mana_value(rec.get("manaCost"))))
        m.bridge._register_colored(st, tid, rec)
        if zone == "battlefield":
            st["on_battlefield"].add((tid,))
        elif zone == "hand":
            st["in_hand"].add((p, tid))
        elif zone == "library":
            st["in_library"].add((p, tid))
            st["_lib_order"][p].append(tid)
        else:
            st["graveyard"].add((tid,))
        if cid is not None:
            self.tid[cid], self.cid[tid], self.owner[cid] = tid, cid, p
        return tid

    # -- the turn -----------------------------------------------------------------------------------
    @property
    def step(self) -> str:
        return next(iter(self.state["current_step"]))[0]

    @property
    def active(self) -> str:
        return next(iter(self.state["active_player"]))[0]

    @property
    def over(self) -> bool:
        return self.m.env.is_terminal(self.state)

    def waiting(self) -> str | None:
        """What python-mtg waits for now: ``priority`` (the active player's move), ``attack``, ``block``,
        ``idle`` (no decision: python-mtg's own step would advance by itself), or ``None`` (the game is over, or
        the case's turn is done: its postcombat main phase with nothing to do)."""
        if self.over:
            return None
        if self.step == "declare_attackers":
            return "attack"
        if self.step == "declare_blockers" and self.state.get("attacks"):
            return "block"
        if self.m.env._has_decision(self.state):
            return "priority"
        return None if self.step == "postcombat_main" else "idle"

    def _advance(self, st: dict[str, Any]) -> None:
        """python-mtg's ``_advance_to_decision``, stopped at the postcombat main phase (the case's turn ends
        there)."""
        env = self.m.env
        for _ in range(40):
            if env.is_terminal(st) or env._has_decision(st):
                return
            if next(iter(st["current_step"]))[0] == "postcombat_main":
                return
            _quiet(env._advance_one, st)

    def _push(self, action: tuple[Any, ...]) -> None:
        """``env.step`` for the adapter's four moves, with its advance stopped as :meth:`_advance` says."""
        m, env = self.m, self.m.env
        s = env._clone(self.state)
        kind = action[0]
        with contextlib.redirect_stdout(io.StringIO()):
            if kind == "cast":
                _, ap, spell, choices = action
                s["_forced"] = dict(choices)
                s["_policy"] = self._discard_policy(self._discard_entries())
                before = env._source_ids(s, ap)
                try:
                    m.driver._cast_spell(s, ap, spell, sorted(p for (p,) in s["is_player"]))
                finally:
                    s.pop("_policy", None)
                s["_forced"] = {}
                if env._source_ids(s, ap) - before:
                    m.driver._refresh_mana_pool(s, ap)
                self.state = s        # resolved at once (python-mtg has no stack); the caster's priority again
                return
            elif kind in ("attack", "block"):
                s["_forced"] = {"attackers" if kind == "attack" else "blocks": action[1]}
                env._advance_one(s)
                s["_forced"] = {}
            else:
                env._advance_one(s)
            self._advance(s)
        self.state = s

    def legal(self) -> list[tuple[Any, ...]]:
        return [getattr(a, "raw", a) for a in self.m.env.legal_actions(self.state)]

    # -- the script ---------------------------------------------------------------------------------
    def decide(self, at: int, entry: dict[str, Any]) -> bool:
        """Play entry ``at``; False once the game is over (later entries are never reached)."""
        kind, player = entry["kind"], entry["player"]
        if kind in ("declare_attackers", "declare_blockers"):
            self._implied_passes()
        elif kind == "cast" and player == self.active:
            self._implied_passes(until_cast=entry)
        if self.over:
            return False
        self.at = at
        try:
            outcome = getattr(self, f"_do_{kind}")(entry)
        except _NotOffered:
            outcome = "refused"
        self.decisions.append({"at": at, "outcome": outcome})
        return True

    def _implied_passes(self, until_cast: dict[str, Any] | None = None) -> None:
        """The active player's passes the script leaves out (PROCEDURE.md), up to a declaration or, for a cast,
        to a window where python-mtg offers that cast."""
        for _ in range(20):
            if self.waiting() not in ("priority", "idle"):
                return
            if until_cast is not None and self._cast_move(until_cast) is not None:
                return
            if until_cast is not None and self.step in MAIN:
                return              # an open point: the cast is decided here (refused if not offered)
            if self.pending:
                self.pending = set()  # the passes that resolve the spell: python-mtg resolved it already
                continue
            self._push(("pass",))

    def _do_pass(self, entry: dict[str, Any]) -> str:
        if entry["player"] in self.pending:
            self.pending.discard(entry["player"])
            if entry["player"] == self.active:
                return "automatic"      # a pass that resolves the spell: python-mtg resolved it itself
        if entry["player"] != self.active:
            return "not_asked"          # python-mtg gives priority to the active player only
        return self._do_end_main(entry)

    def _do_end_main(self, entry: dict[str, Any]) -> str:
        if entry["player"] != self.active:
            return "not_asked"
        self.pending = set()
        w = self.waiting()
        if w not in ("priority", "idle"):
            return "automatic"          # python-mtg left this window itself: nothing to do there
        self._push(("pass",))
        return "accepted" if w == "priority" else "automatic"

    def _do_assign_combat_damage(self, entry: dict[str, Any]) -> str:
        return "not_asked"              # python-mtg assigns combat damage itself

    # -- choices inside a resolution: an enters trigger's target, a discard ---------------------------------
    def _discard_entries(self) -> list[tuple[int, str, list[str]]]:
        """The script's ``discard`` entries after this cast and before the next one: python-mtg resolves the spell
        and the triggers of its resolution as it is cast (bug 11), so their choices are asked during the cast."""
        out = []
        for at in range(self.at + 1, len(self.req.script)):
            e = self.req.script[at]
            if e["kind"] == "cast":
                break
            if e["kind"] == "discard":
                args = e.get("args")
                out.append((at, e["player"], [str(c) for c in (args if isinstance(args, list) else [args])]))
        return out

    def _discard_policy(self, queue: list[tuple[int, str, list[str]]]) -> Any:
        """python-mtg's choice seam (``driver._choose``: ``_forced``, then ``state['_policy']``, then its greedy
        default) answered from the script for ``discard``: a discard effect asks it once per card, its options the
        discarding player's hand (``driver._apply_effects``, ``eff == "discard"``). The next scripted discard by that
        player of a card among the options is taken (``accepted``); one naming a card not among them, or by another
        player, is ``refused`` and the next is tried. No scripted discard left: python-mtg's own pick (its default).
        Every other choice keeps python-mtg's default, as without a policy."""
        def policy(state: dict[str, Any], key: str, options: Any, default: Any) -> Any:
            if key != "discard" or options is None:
                return default
            opts = list(options)
            owner = next((p for p, c in state.get("in_hand", set()) if opts and c == opts[0]), None)
            while queue:
                at, player, want = queue.pop(0)
                tids = [self.tid.get(c) for c in want]
                if player == owner and len(tids) == 1 and tids[0] in opts:
                    self.discards[at] = "accepted"
                    return tids[0]
                if player == owner and len(tids) > 1 and all(t in opts for t in tids):
                    raise CannotSetUp(f"discard {want}: python-mtg asks a discard one card at a time")
                self.discards[at] = "refused"
            return default
        return policy

    def _do_discard(self, entry: dict[str, Any]) -> str:
        return self.discards.get(self.at, "refused")   # an entry python-mtg never asked for: not offered

    def _do_choose_targets(self, entry: dict[str, Any]) -> str:
        """An enters trigger's targets (603.3d). python-mtg picks them itself as the trigger resolves (no target
        choice); a target "target opponent" has one legal choice in a two-player game, the caster's opponent, and
        python-mtg's parse applies the effect to that player (``target_opponent``): the entry is ``automatic``, and
        the passes that resolve the trigger are python-mtg's own. Any other target is :class:`CannotSetUp`."""
        name = self.cast_card
        args = entry.get("args") or {}
        ability = next((a["triggered"] for a in (self.req.cards.get(name or "", {}).get("abilities") or [])
                        if isinstance(a, dict) and "triggered" in a
                        and (a["triggered"].get("when") or {}).get("event") == "entered"), None)
        targets = {t["name"]: t.get("filter") or {} for t in (ability or {}).get("targets") or []}
        parse = (self.m.db.get(self.m.slug(cards.REAL.get(name or "", ""))) or {}).get("abilities") or {}
        by_python_mtg = {eff[3] for a in parse.values() if a.get("trigger") == "enters" for eff in a["effects"]}
        opp = next(p for p in self.players if p != entry["player"])
        if (not isinstance(args, dict) or not args or set(args) - set(targets) or "target_opponent" not in by_python_mtg
                or any({k: v for k, v in targets[t].items() if v not in (None, False, [], {})}
                       != {"is": "player", "controller": "opponent"} for t in args)):
            raise CannotSetUp(f"choose_targets {args!r}: python-mtg picks the targets of {name}'s triggered ability "
                              f"itself (no target choice to give it)")
        if entry["player"] != self.active or any(v != opp for v in args.values()):
            return "not_asked"          # not the one legal choice: python-mtg never asks, so it cannot refuse it
        self.pending = set(self.players)
        return "automatic"

    def _cast_move(self, entry: dict[str, Any]) -> tuple[Any, ...] | None:
        args = entry.get("args") or {}
        card = args.get("card") if isinstance(args, dict) else args
        tid = self.tid.get(card)
        targets = [self.tid.get(t, t) for t in (args.get("targets") or [])] if isinstance(args, dict) else []
        moves = [a for a in self.legal() if a[0] == "cast" and a[1] == entry["player"] and a[2] == tid]
        if not moves:
            return None
        want = {"target": targets[0]} if targets else {}
        if len(targets) > 1:
            raise CannotSetUp(f"cast {card}: python-mtg takes one target")
        exact = next((a for a in moves if a[3] == want), None)
        if exact is not None:
            return exact
        if targets and all("target" not in a[3] for a in moves):
            name = self._card_name(card)
            raise CannotSetUp(f"cast {card} ({cards.REAL.get(name, name)}): python-mtg picks this spell's target "
                              f"itself (no target choice to give it)")
        return None

    def _do_cast(self, entry: dict[str, Any]) -> str:
        if entry["player"] != self.active or self.waiting() not in ("priority", "idle"):
            raise _NotOffered("python-mtg offers no cast now")
        move = self._cast_move(entry)
        if move is None:
            raise _NotOffered("python-mtg does not offer this cast")
        args = entry.get("args") or {}
        self.cast_card = self._card_name(args.get("card") if isinstance(args, dict) else args)
        self._push(move)
        self.pending = set(self.players)
        return "accepted"

    def _do_declare_attackers(self, entry: dict[str, Any]) -> str:
        args = entry.get("args") or {}
        if not isinstance(args, dict):
            raise _NotOffered(f"declare_attackers takes {{attacker: target}}, not {args!r}")
        opp = next(p for p in self.players if p != self.active)
        for a, t in args.items():
            if t != opp:
                raise CannotSetUp(f"{a} attacks {t}: python-mtg's attacks go to the opponent only")
        if self.waiting() != "attack" or entry["player"] != self.active:
            return "automatic" if not args else "not_asked"
        chosen = frozenset(self.tid.get(a, a) for a in args)
        offered = [a[1] for a in self.legal() if a[0] == "attack"]
        if chosen not in offered and not (len(offered) > 2 ** 5 - 1 and chosen <= frozenset().union(*offered)):
            raise _NotOffered("python-mtg does not offer this attack")
        self._push(("attack", chosen))
        return "accepted"

    def _do_declare_blockers(self, entry: dict[str, Any]) -> str:
        args = entry.get("args") or {}
        if not isinstance(args, dict):
            raise _NotOffered(f"declare_blockers takes {{blocker: attacker}}, not {args!r}")
        defender = next(p for p in self.players if p != self.active)
        if self.waiting() != "block":
            return "automatic" if not args else "not_asked"
        if entry["player"] != defender:
            raise _NotOffered("only the defending player blocks")
        chosen = frozenset((self.tid.get(b, b), self.tid.get(a, a)) for b, a in args.items())
        offered = [a[1] for a in self.legal() if a[0] == "block"]
        if chosen not in offered and not self._block_allowed(defender, chosen):
            raise _NotOffered("python-mtg does not allow this block")
        self._push(("block", chosen))
        return "accepted"

    def _block_allowed(self, defender: str, chosen: frozenset[tuple[str, str]]) -> bool:
        """A declaration beyond python-mtg's capped list, judged as python-mtg judges blocks: blockers among
        ``env._legal_block_pairs``'s (untapped creatures of the defender that may block), no pair of the whole
        declaration in its Datalog ``illegal_block`` (menace is judged on the declaration there), and its
        requirement check ``env._required_blocks_ok``."""
        env, driver = self.m.env, self.m.driver
        pairs = _quiet(env._legal_block_pairs, self.state, defender)
        blockers = {b for b, _ in pairs} | set(self._menace_blockers(defender))
        attacking = {a for a, _ in self.state.get("attacks", set())}
        if any(b not in blockers or a not in attacking for b, a in chosen) or len({b for b, _ in chosen}) != len(chosen):
            return False
        probe = dict(self.state)
        probe["blocks"] = set(chosen)
        if set(driver.run(probe, ["illegal_block"])["illegal_block"]) & set(chosen):
            return False
        return bool(_quiet(env._required_blocks_ok, self.state, defender, chosen, pairs))

    def _menace_blockers(self, defender: str) -> list[str]:
        """Untapped creatures of the defender (``_legal_block_pairs`` probes one pair at a time, so a creature
        whose only blocks are of a menace attacker is in none of its pairs)."""
        tapped = self.state.get("tapped", set())
        return [b for b in self.m.driver._creatures_of(self.state, defender)
                if (b,) not in tapped and (b,) not in self.state.get("_cant_block", set())]

    def finish(self) -> None:
        """An exhausted script: implied passes up to the active player's main-phase decision, or to the end of
        the case's turn (its postcombat main phase)."""
        for _ in range(20):
            w = self.waiting()
            if w is None or self.pending or (w == "priority" and self.step in MAIN):
                return          # the game or the turn is over; a spell "on the stack"; an open point
            if w in ("priority", "idle"):
                self._push(("pass",))
            else:       # python-mtg asks a declaration the script does not give: none
                self._push((w, frozenset()))

    # -- the state, projected -------------------------------------------------------------------------
    def _card_name(self, cid: str) -> str | None:
        for pdata in self.setup["players"].values():
            for content in pdata.values():
                if isinstance(content, list):
                    for cs in content:
                        if cs.get("id") == cid:
                            return cs.get("card")
        return None

    def project(self) -> dict[str, Any]:
        s, m = self.state, self.m
        out = m.driver.run(s, ["controls", "power", "eff_toughness"])
        control = {c: p for p, c in out["controls"]}
        power = {c: int(n) for c, n in out["power"]}
        tough = {c: int(n) for c, n in out["eff_toughness"]}
        loser = s.get("_loser")
        players = {p: mtg_player(next((v for q, v in s["life"] if q == p), 0), loser == p) for p in self.players}
        cards_out: dict[str, Any] = {}
        attacks = {a: d for a, d in s.get("attacks", set())}
        blocks = {b: a for b, a in s.get("blocks", set())}
        types: dict[str, list[str]] = {}
        for c, t in s.get("printed_type", set()):
            types.setdefault(c, []).append(str(t).lower())
        subtypes: dict[str, list[str]] = {}
        for c, t in s.get("printed_subtype", set()):
            subtypes.setdefault(c, []).append(str(t).capitalize())
        lib = {c: p for p, order in s.get("_lib_order", {}).items() for c in order}
        for tid, cid in self.cid.items():
            owner = self.owner[cid]
            if (tid,) in s["on_battlefield"]:
                zone, holder = "battlefield", control.get(tid, owner)
            elif any(c == tid for _, c in s.get("in_hand", set())):
                zone, holder = "hand", owner
            elif any(c == tid for _, c in s.get("in_library", set())):
                zone, holder = "library", owner
            elif (tid,) in s.get("graveyard", set()):
                zone, holder = "graveyard", owner
            elif any(r[-1] == tid for r in s.get("exile", set())):
                zone, holder = "exile", owner
            else:
                continue
            if zone != "library":
                players[holder][zone].append(cid)
            name = self.case_card.get(cid)
            if name is None:
                continue        # an anonymous card: in its zone's list only (as the reference projects it)
            on_bf = zone == "battlefield"
            card = cards_out[cid] = mtg_card(
                zone=zone, owner=owner, controller=holder, types=sorted(types.get(tid, [])),
                subtypes=sorted(subtypes.get(tid, [])), tapped=on_bf and (tid,) in s.get("tapped", set()),
                attacking=attacks.get(tid) if on_bf else None,
                blocking=self.cid.get(blocks.get(tid)) if on_bf and tid in blocks else None,
                power=power.get(tid, 0), toughness=tough.get(tid, 0))
            wanted = {str(t).lower() for t in self.req.cards[name].get("subtypes") or []}
            if {t.lower() for t in card["subtypes"]} != wanted:
                del card["subtypes"]     # the real card's creature types (Grizzly Bears: Bear), not the case card's
        for p in self.players:           # a library from the top
            players[p]["library"] = [self.cid[t] for t in s.get("_lib_order", {}).get(p, []) if t in self.cid]
            players[p]["library"] += [self.cid[c] for q, c in sorted(s.get("in_library", set()))
                                      if q == p and c in self.cid and c not in lib]
        return {"players": players, "cards": cards_out}


# ------------------------------------------------------------------------------------------------
# The engine


class PythonMtg:
    """The tcg-oracle engine protocol (``oracle.harness.engine.Engine``) over python-mtg, in process."""

    def __init__(self) -> None:
        self.version = _version()
        self.m = _import_mtg()   # its corpus and card parse: seconds, once, before the first case's timeout

    def hello(self) -> Hello:
        return Hello.model_validate({
            "protocol_version": 2, "engine": {"name": "python-mtg", "version": self.version},
            "games": ["mtg"], "capabilities": [], "observation": "final", "reason_codes": False})

    def run_case(self, request: CaseRequest, timeout: float | None = None) -> CaseReply:
        return CaseReply.model_validate(self.play(request))

    def play(self, request: CaseRequest) -> dict[str, Any]:
        play = _CaseOnMtg(self.m, request)
        play.check()
        play.start()
        for at, entry in enumerate(request.script):
            if not play.decide(at, entry):
                break
        else:
            play.finish()
        return {"id": request.id, "final": play.project(), "winner": self.m.env.winner(play.state),
                "decisions": play.decisions}

    def close(self) -> None:
        pass


def _version() -> str:
    version = installed_version(DISTRIBUTION)
    if version is None:
        raise EngineStartError(f"python-mtg is not installed; install it: {INSTALL_HINT}")
    return version


def engine() -> PythonMtg:
    """The factory for ``--engine py:oracle.engines.python_mtg:engine``."""
    return PythonMtg()


__all__ = ["engine", "PythonMtg", "CannotSetUp", "INSTALL_HINT"]
