"""Bounded proofs: properties of the rules, each tied to its clauses, proved by z3 for every board of up
to K cards (``tcg-oracle prove [--game G] [--max-cards K]``).

A board of K cards is every split into attackers and other cards (at least one attacker); every
attribute of every card -- controller, kind, sleeping/tapped, power, pressure, keywords, protector, what
each attacker attacks, which blockers later leave -- is a free z3 variable, and so is the block
declaration, constrained to be legal by the very model that enumerates the golden boards
(:mod:`oracle.smt.solver`). The negation of the property is asserted: ``unsat`` proves it for all those
boards; a model is a counterexample, printed as a board. Each property names a deliberate misreading of
the model under which it must fail (the tests check that it does).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import z3

from .battle import c1a_blocked, d1_judgement, defense_after_damage, dm_battle
from .block_board import Attack, BlockBoard, BlockCard, declaration
from .solver import BATTLE, CREATURE, GUARDIAN, IJIN, KINDS, CardView, View, constraints

PLAYERS = {"ijinden": 2, "duelmasters": 2, "mtg": 3}
KIND_DOMAIN = {"ijinden": (IJIN, GUARDIAN), "duelmasters": (CREATURE,), "mtg": (CREATURE, BATTLE)}
DEFAULT_K = 4


def _card(game: str, name: str, attacker: bool) -> CardView:
    ints = {f: z3.Int(f"{name}.{f}") for f in ("controller", "kind", "power", "pressure", "protector")}
    bools = {f: z3.Bool(f"{name}.{f}") for f in ("tapped", "blocker", "flying", "reach", "menace")}
    return CardView(name, ints["controller"], ints["kind"], bools["tapped"], ints["power"], ints["pressure"],
                    ints["protector"], bools["blocker"], bools["flying"], bools["reach"], bools["menace"])


def symbolic(game: str, attackers: int, others: int) -> tuple[View, list[z3.BoolRef]]:
    """A board with free attributes, and the assumptions every such board satisfies (domains; the
    attacks are declared legally: by the active player's Ijin/creatures, at an opponent or something
    they may attack)."""
    n_players = PLAYERS[game]
    att = [_card(game, f"a{i + 1}", True) for i in range(attackers)]
    cand = [_card(game, f"c{j + 1}", False) for j in range(others)]
    targets = [z3.Int(f"a{i + 1}.target") for i in range(attackers)]
    v = View(game, n_players, z3.IntVal(0), att, targets, cand, z3.Bool("shield_chosen"))
    v.x = {(j, i): z3.Bool(f"c{j + 1}>a{i + 1}") for j in range(others) for i in range(attackers)}
    dom: list[z3.BoolRef] = []
    for c in att + cand:
        dom += [c.controller >= 0, c.controller < n_players, z3.Or([c.kind == k for k in KIND_DOMAIN[game]]),
                c.pressure >= 1, c.protector >= 0, c.protector < n_players]
        if game != "ijinden":
            dom.append(c.pressure == 1)
    for i, a in enumerate(att):
        dom += [a.controller == v.active, a.kind == (IJIN if game == "ijinden" else CREATURE)]
        t = targets[i]
        if game == "ijinden":
            dom.append(t == 1)  # A1/B1: the other player is attacked
        else:
            options = [z3.And(t == p, t != v.active) for p in range(n_players)]
            for j, c in enumerate(cand):
                if game == "duelmasters":  # C1: a tapped creature of the opponent
                    options.append(z3.And(t == n_players + j, c.controller != v.active, c.tapped))
                else:  # 310.8b: a battle whose protector is not the attacker's controller
                    options.append(z3.And(t == n_players + j, c.kind == BATTLE, c.protector != v.active))
            dom.append(z3.Or(options))
    return v, dom


@dataclass(frozen=True)
class Property:
    id: str
    game: str
    clauses: tuple[str, ...]
    statement: str
    misread: str
    """The misreading of the model under which the property fails (the tests check that it does)."""
    violated: Callable[[View, frozenset[str], dict], z3.BoolRef]
    """The negation: a board/declaration on which the property fails (``extra`` collects helper vars)."""


def _some(terms) -> z3.BoolRef:
    terms = list(terms)
    return z3.Or(terms) if terms else z3.BoolVal(False)


def _pressure(v, misread, extra):
    return _some(z3.And(v.blockers_of(i) >= 1, v.blockers_of(i) <= a.pressure - 1) for i, a in enumerate(v.attackers))


def _pass_through(v, misread, extra):
    gone = [z3.Bool(f"c{j + 1}.gone") for j in range(len(v.candidates))]
    extra["gone"] = gone
    out = []
    for i, a in enumerate(v.attackers):
        left = z3.Sum([z3.If(z3.And(v.x[j, i], z3.Not(gone[j])), 1, 0) for j in range(len(v.candidates))]) \
            if v.candidates else z3.IntVal(0)
        short = z3.Or(left == 0, left < a.pressure)
        out.append(z3.And(v.blockers_of(i) >= 1, short, c1a_blocked(v, i, gone, misread)))
    return _some(out)


def _guardian(v, misread, extra):
    out = []
    for i, a in enumerate(v.attackers):
        _, losers = d1_judgement(v, i, misread)
        out += [z3.And(v.x[j, i], c.kind == GUARDIAN, a.power > 0, z3.Not(losers[j])) for j, c in enumerate(v.candidates)]
    return _some(out)


def _tie(v, misread, extra):
    out = []
    for i, a in enumerate(v.attackers):
        attacker_loses, losers = d1_judgement(v, i, misread)
        for j, c in enumerate(v.candidates):
            alone = v.blockers_of(i) == 1
            tie = z3.And(v.x[j, i], alone, c.kind == IJIN, c.power == a.power)
            out.append(z3.And(tie, z3.Not(z3.And(attacker_loses, losers[j]))))  # D2: every loser is destroyed
    return _some(out)


def _dm_tie(v, misread, extra):
    out = []
    for (j, i), x in v.x.items():
        a, c = v.attackers[i], v.candidates[j]
        attacker_goes, blocker_goes = dm_battle(a.power, c.power, misread)
        out.append(z3.And(x, a.power == c.power, z3.Not(z3.And(attacker_goes, blocker_goes))))
    return _some(out)


def _dm_one_blocker(v, misread, extra):
    return z3.Sum([z3.If(x, 1, 0) for x in v.x.values()]) >= 2 if len(v.x) >= 2 else z3.BoolVal(False)


def _dm_after_shield(v, misread, extra):
    return z3.And(v.shield_chosen, _some(v.x.values()))


def _protector(v, misread, extra):
    out = []
    for (j, i), x in v.x.items():
        for k, b in enumerate(v.candidates):
            out.append(z3.And(x, v.targets[i] == v.players + k, b.kind == BATTLE,
                              v.candidates[j].controller != b.protector))
    return _some(out)


def _battles_block(v, misread, extra):
    return _some(z3.And(x, v.candidates[j].kind == BATTLE) for (j, _i), x in v.x.items())


def _menace(v, misread, extra):
    return _some(z3.And(a.menace, v.blockers_of(i) == 1) for i, a in enumerate(v.attackers))


def _flying(v, misread, extra):
    return _some(z3.And(x, v.attackers[i].flying, z3.Not(v.candidates[j].flying), z3.Not(v.candidates[j].reach))
                 for (j, i), x in v.x.items())


def _defense(v, misread, extra):
    out = []
    for c in v.candidates:
        defense, damage = z3.Int(f"{c.id}.defense"), z3.Int(f"{c.id}.damage")
        extra.setdefault("defense, damage", []).extend([defense, damage])
        out.append(z3.And(c.kind == BATTLE, defense >= 0, damage >= 0,
                          defense_after_damage(defense, damage, misread) > defense))
    return _some(out)


def _ijinden_who(v, misread, extra):
    return _some(z3.And(x, z3.Or(v.candidates[j].tapped, v.candidates[j].controller == v.active))
                 for (j, _i), x in v.x.items())


def _requirements_maximum(v, misread, extra):
    """509.1c: the declarations that break no restriction always include the empty one, so whenever a legal
    declaration exists (``v.x``) the finite set of restriction-legal declarations is non-empty and one of them
    obeys the most requirements. The misreading ``requirement-as-restriction`` (the XMage 6914 / Forge 8244
    failure: a "must be blocked" requirement enforced as a restriction) makes the empty declaration illegal
    on a board where a legal one exists."""
    from dataclasses import replace

    empty = replace(v, x={k: z3.BoolVal(False) for k in v.x})
    legal = list(constraints(empty, misread))
    if "requirement-as-restriction" in misread:
        must = [z3.Bool(f"{a.id}.must_be_blocked") for a in v.attackers]
        extra["must_be_blocked"] = must
        legal += [z3.Implies(m, empty.blockers_of(i) >= 1) for i, m in enumerate(must)]
    return z3.Not(z3.And(legal)) if legal else z3.BoolVal(False)


PROPERTIES: tuple[Property, ...] = (
    Property("ijinden.pressure", "ijinden", ("ijinden:B1", "ijinden:TRIPLE-PRESSURE"),
             "a pressure-N attacker is never legally blocked by 1..N-1 blockers", "pressure-minus-one", _pressure),
    Property("ijinden.who-blocks", "ijinden", ("ijinden:B1",),
             "only the defender's awake Ijin and guardians block", "sleeping-blocks", _ijinden_who),
    Property("ijinden.pass-through", "ijinden", ("ijinden:PASS-THROUGH-1", "ijinden:PASS-THROUGH-2"),
             "an attacker whose blockers are all gone, or fewer than its pressure, by C1a is not blocked",
             "no-recheck", _pass_through),
    Property("ijinden.guardian-never-beats-positive", "ijinden", ("ijinden:D1", "ijinden:RC-GUARDIAN-WIN"),
             "a guardian blocker never beats an attacker of positive power", "guardian-printed-power", _guardian),
    Property("ijinden.tie-destroys-both", "ijinden", ("ijinden:D1", "ijinden:D2"),
             "a lone Ijin blocker with the attacker's power: both lose and both are destroyed "
             "(a guardian at power 0 is the rule card's exception: ijinden:assume.guardian-zero-tie)",
             "tie-attacker-wins", _tie),
    Property("duelmasters.one-blocker", "duelmasters", ("duelmasters:A3",),
             "an attack is blocked by at most one ブロッカー", "many-blockers", _dm_one_blocker),
    Property("duelmasters.no-block-after-shield", "duelmasters", ("duelmasters:U3",),
             "no block once the shield has been chosen", "block-after-shield", _dm_after_shield),
    Property("duelmasters.tie-destroys-both", "duelmasters", ("duelmasters:B3", "duelmasters:B4"),
             "a blocked battle of equal powers sends both creatures to the graveyard", "tie-attacker-wins", _dm_tie),
    Property("mtg.protector-blocks", "mtg", ("mtg:310.8c", "mtg:509.1a"),
             "only the protector's creatures block an attacker of a battle", "battle-controller-defends", _protector),
    Property("mtg.battles-never-block", "mtg", ("mtg:summary.no-combat", "mtg:509.1a"),
             "a battle never blocks", "battles-block", _battles_block),
    Property("mtg.menace", "mtg", ("mtg:509.1a",),
             "an attacker with menace is never blocked by exactly one creature", "menace-one", _menace),
    Property("mtg.flying", "mtg", ("mtg:509.1a",),
             "an attacker with flying is blocked only by creatures with flying or reach", "flying-ignored", _flying),
    Property("mtg.requirements-maximum-exists", "mtg", ("mtg:509.1c",),
             "a block declaration obeying the most requirements exists whenever any legal one does (the declaration "
             "of no blocks breaks no restriction)", "requirement-as-restriction", _requirements_maximum),
    Property("mtg.damage-never-raises-defense", "mtg", ("mtg:310.6",),
             "damage to a battle never raises its defense", "damage-adds-counters", _defense),
)


@dataclass(frozen=True)
class Outcome:
    property: Property
    status: str
    """``proved`` | ``counterexample`` | ``unknown``"""
    seconds: float
    max_cards: int
    counterexample: str = ""
    board: BlockBoard | None = None
    declaration: tuple[tuple[str, str], ...] = ()

    def as_dict(self) -> dict:
        return {"property": self.property.id, "game": self.property.game, "clauses": list(self.property.clauses),
                "statement": self.property.statement, "status": self.status, "max_cards": self.max_cards,
                "seconds": round(self.seconds, 4), "counterexample": self.counterexample or None}


def splits(max_cards: int):
    for total in range(1, max_cards + 1):
        for attackers in range(1, total + 1):
            yield attackers, total - attackers


def prove(prop: Property, max_cards: int = DEFAULT_K, misread: frozenset[str] = frozenset(),
          timeout_ms: int = 60_000) -> Outcome:
    """Prove ``prop`` for every board of up to ``max_cards`` cards (or find a counterexample)."""
    start = time.perf_counter()
    unknown = False
    for attackers, others in splits(max_cards):
        v, dom = symbolic(prop.game, attackers, others)
        extra: dict = {}
        s = z3.Solver()
        s.set("timeout", timeout_ms)
        s.add(*dom, *constraints(v, misread), prop.violated(v, misread, extra))
        r = s.check()
        if r == z3.sat:
            board, decl, text = _decode(v, s.model(), extra)
            return Outcome(prop, "counterexample", time.perf_counter() - start, max_cards, text, board, decl)
        unknown |= r == z3.unknown
    return Outcome(prop, "unknown" if unknown else "proved", time.perf_counter() - start, max_cards)


def _decode(v: View, m: z3.ModelRef, extra: dict) -> tuple[BlockBoard, tuple[tuple[str, str], ...], str]:
    """The counterexample as a board, its declaration and the helper values."""
    def val(t):
        return m.eval(t, model_completion=True)

    players = tuple(f"p{n}" for n in range(v.players))
    kinds = {k: name for name, k in KINDS.items()}

    def card(c: CardView) -> BlockCard:
        kw = frozenset(k for k in ("blocker", "flying", "reach", "menace") if z3.is_true(val(getattr(c, k))))
        kind = kinds[val(c.kind).as_long()]
        return BlockCard(c.id, players[val(c.controller).as_long()], kind, z3.is_true(val(c.tapped)),
                    val(c.power).as_long(), kw, val(c.pressure).as_long(),
                    players[val(c.protector).as_long()] if kind == "battle" else None)

    cards = tuple(card(c) for c in v.attackers + v.candidates)
    attacks = []
    for i, a in enumerate(v.attackers):
        t = val(v.targets[i]).as_long()
        attacks.append(Attack(a.id, players[t] if t < v.players else v.candidates[t - v.players].id))
    board = BlockBoard(v.game, players[0], players, cards, tuple(attacks), z3.is_true(val(v.shield_chosen)))
    pairs = declaration((v.candidates[j].id, v.attackers[i].id) for (j, i), x in v.x.items() if z3.is_true(val(x)))
    lines = [board.describe(), "  declaration: " + (", ".join(f"{b} blocks {a}" for b, a in pairs) or "no block")]
    for name, terms in extra.items():
        lines.append(f"  {name}: " + ", ".join(str(val(t)) for t in terms))
    return board, pairs, "\n".join(lines)


def run(games: list[str] | None = None, max_cards: int = DEFAULT_K) -> list[Outcome]:
    return [prove(p, max_cards) for p in PROPERTIES if games is None or p.game in games]
