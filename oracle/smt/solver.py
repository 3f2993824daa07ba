"""Block legality as z3 constraints, one model per game, written from the rule text.

The model is stated over a *view* of a board whose every attribute is a z3 term: a concrete board
(:func:`concrete`) gives constants, and the bounded proofs (``prove.py``) give free variables, so the
very constraints that enumerate a board's legal declarations are the ones proved for all boards up to
K cards. ``misread`` names deliberate misreadings (used by the tests that show a proof can fail).

z3 is imported here; only ``prove``, the ordering explanation and their tests import this module.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import z3

from .block_board import BlockBoard, Declaration, declaration

IJIN, GUARDIAN, CREATURE, BATTLE = 0, 1, 2, 3
KINDS = {"ijin": IJIN, "guardian": GUARDIAN, "creature": CREATURE, "battle": BATTLE}


@dataclass
class CardView:
    """A card's attributes as z3 terms. ``controller``/``protector`` are player indexes."""

    id: str
    controller: z3.ArithRef
    kind: z3.ArithRef
    tapped: z3.BoolRef
    power: z3.ArithRef
    pressure: z3.ArithRef
    protector: z3.ArithRef
    blocker: z3.BoolRef
    flying: z3.BoolRef
    reach: z3.BoolRef
    menace: z3.BoolRef
    watcher: z3.BoolRef | None = None
    """Ijinden ウォッチャー: may block while sleeping (None: no card has it)."""
    unblockable_by_ijin: z3.BoolRef | None = None
    """Ijinden イジンにブロックされない: no Ijin may block this attacker (None: no card has it)."""
    blocks_if_able: z3.BoolRef | None = None
    """Duel Masters 可能であればブロックする: must block if able (None: not modelled on this view)."""


@dataclass
class View:
    """A board as z3 terms: players are ``0..players-1``; an attack's ``target`` is a player index, or
    ``players + j`` for candidate ``j`` (a battle or a creature)."""

    game: str
    players: int
    active: z3.ArithRef
    attackers: list[CardView]
    targets: list[z3.ArithRef]
    candidates: list[CardView]
    shield_chosen: z3.BoolRef
    x: dict[tuple[int, int], z3.BoolRef] = field(default_factory=dict)
    """``x[j, i]``: candidate ``j`` blocks attacker ``i``."""

    def blockers_of(self, i: int) -> z3.ArithRef:
        return z3.Sum([z3.If(self.x[j, i], 1, 0) for j in range(len(self.candidates))])

    def defender(self, i: int) -> z3.ArithRef:
        """Who defends against attack ``i``: the attacked player; for a battle its protector (508.5,
        310.8d); for a creature (Duel Masters C1) its controller."""
        t = self.targets[i]
        if z3.is_int_value(t):  # a concrete board: read it off
            n = t.as_long()
            if n < self.players:
                return t
            c = self.candidates[n - self.players]
            return z3.simplify(z3.If(c.kind == BATTLE, c.protector, c.controller))
        out: z3.ArithRef = t
        for j, c in enumerate(self.candidates):
            owner = z3.If(c.kind == BATTLE, c.protector, c.controller)
            out = z3.If(t == self.players + j, owner, out)
        return out


def concrete(board: BlockBoard, prefix: str = "") -> View:
    """The view of a concrete board, with a fresh Bool per (candidate, attacker)."""
    index = {p: n for n, p in enumerate(board.players)}
    cand_ids = board.candidates

    def view(card_id: str) -> CardView:
        c = board.card(card_id)
        return CardView(c.id, z3.IntVal(index[c.controller]), z3.IntVal(KINDS[c.kind]), z3.BoolVal(c.tapped),
                        z3.IntVal(c.power), z3.IntVal(c.pressure),
                        z3.IntVal(index[c.protector] if c.protector else -1),
                        *(z3.BoolVal(k in c.keywords) for k in ("blocker", "flying", "reach", "menace")),
                        z3.BoolVal("watcher" in c.keywords), z3.BoolVal("unblockable_by_ijin" in c.keywords),
                        z3.BoolVal("blocks_if_able" in c.keywords))

    targets = [z3.IntVal(index[a.target] if a.target in index else len(board.players) + cand_ids.index(a.target))
               for a in board.attacks]
    v = View(board.game, len(board.players), z3.IntVal(index[board.active]), [view(a) for a in board.attackers],
             targets, [view(c) for c in cand_ids], z3.BoolVal(board.shield_chosen))
    v.x = {(j, i): z3.Bool(f"{prefix}{cand_ids[j]}>{board.attackers[i]}")
           for j in range(len(cand_ids)) for i in range(len(board.attackers))}
    return v


def constraints(v: View, misread: frozenset[str] = frozenset()) -> list[z3.BoolRef]:
    """The legal-declaration constraints of ``v.game`` over ``v.x``."""
    out: list[z3.BoolRef] = []
    n_att = len(v.attackers)
    # every game: a blocker blocks one attacker (Ijinden B1 それぞれアタッカーを指定して; Duel Masters A3;
    # Magic 509.1a "one creature for it to block")
    for j in range(len(v.candidates)):
        out.append(z3.AtMost(*[v.x[j, i] for i in range(n_att)], 1) if n_att > 1 else z3.BoolVal(True))
    out += {"ijinden": _ijinden, "duelmasters": _duelmasters, "mtg": _mtg}[v.game](v, misread)
    return out


def _ijinden(v: View, misread: frozenset[str]) -> list[z3.BoolRef]:
    out = []
    defender = 1 - v.active  # B1: the attacked player (two players) becomes the defending side
    for (j, i), x in v.x.items():
        c = v.candidates[j]
        # B1: 起きているイジンまたはガーディアン of the defender
        awake = z3.BoolVal(True) if "sleeping-blocks" in misread else z3.Not(c.tapped)
        if c.watcher is not None:  # ウォッチャー (イジンデン コラム 第12廻): 寝ていてもブロッカーになれる
            awake = z3.Or(awake, c.watcher)
        out.append(z3.Implies(x, z3.And(c.controller == defender, z3.Or(c.kind == IJIN, c.kind == GUARDIAN),
                                        awake)))
        a = v.attackers[i]
        if a.unblockable_by_ijin is not None:  # イジンにブロックされない (イジンデンQ&A_240216's card text)
            out.append(z3.Implies(x, z3.Not(z3.And(a.unblockable_by_ijin, c.kind == IJIN))))
    for i, a in enumerate(v.attackers):
        n = v.blockers_of(i)
        need = a.pressure - 1 if "pressure-minus-one" in misread else a.pressure
        # B1 / TRIPLE-PRESSURE: pressure N -> 0 blockers or N or more
        out.append(z3.Or(n == 0, n >= need))
    return out


def _duelmasters(v: View, misread: frozenset[str]) -> list[z3.BoolRef]:
    out = []
    defenders = [v.defender(i) for i in range(len(v.attackers))]
    def can_block(c: CardView, i: int) -> z3.BoolRef:
        # A3: the defender's creature with ブロッカー; X-blocker-taps: untapped
        return z3.And(c.kind == CREATURE, c.controller == defenders[i], c.blocker, z3.Not(c.tapped))

    for (j, i), x in v.x.items():
        out.append(z3.Implies(x, can_block(v.candidates[j], i)))
    # 「可能であればブロックする」 (CR507.1b; the seed's one blocker, X-blocks-if-able-seed): when a creature that must
    # block if able can block the attack, the one blocker is one of them (U3: not once the shield is chosen)
    if "required-left-out" not in misread:
        for i in range(len(v.attackers)):
            required = [(j, z3.And(c.blocks_if_able, can_block(c, i))) for j, c in enumerate(v.candidates)
                        if c.blocks_if_able is not None]
            if required:
                out.append(z3.Implies(z3.And(z3.Not(v.shield_chosen), z3.Or([r for _, r in required])),
                                      z3.Or([z3.And(v.x[j, i], r) for j, r in required])))
    every = [x for x in v.x.values()]
    if every and "many-blockers" not in misread:
        out.append(z3.AtMost(*every, 1))  # A3: one blocker battles instead (代わりにバトルを行う)
    if every and "block-after-shield" not in misread:
        out.append(z3.Implies(v.shield_chosen, z3.Not(z3.Or(every))))  # U3
    return out


def _mtg(v: View, misread: frozenset[str]) -> list[z3.BoolRef]:
    out = []
    defenders = [v.defender(i) for i in range(len(v.attackers))]
    for (j, i), x in v.x.items():
        c, a = v.candidates[j], v.attackers[i]
        defender = defenders[i]
        if "battle-controller-defends" in misread:  # the misreading 310.8c forbids
            t = v.targets[i]
            for k, b in enumerate(v.candidates):
                defender = z3.If(t == v.players + k, b.controller, defender)
        ok = [c.controller == defender, z3.Not(c.tapped)]  # 509.1a
        if "battles-block" not in misread:
            ok.append(c.kind == CREATURE)  # 509.1a "can't also be battles"; summary.no-combat
        if "flying-ignored" not in misread:
            ok.append(z3.Implies(a.flying, z3.Or(c.flying, c.reach)))  # flying / reach
        out.append(z3.Implies(x, z3.And(ok)))
    for i, a in enumerate(v.attackers):
        n = v.blockers_of(i)
        need = 1 if "menace-one" in misread else 2
        out.append(z3.Implies(a.menace, z3.Or(n == 0, n >= need)))  # menace
    return out


class BlockModel:
    """One solver for one concrete board: enumerate its legal declarations (push/pop, a blocking clause
    per model) and judge single declarations."""

    def __init__(self, board: BlockBoard, misread: frozenset[str] = frozenset()) -> None:
        self.board = board
        self.view = concrete(board)
        self.solver = z3.Solver()
        self.solver.add(*constraints(self.view, misread))
        self.pairs = {(board.candidates[j], board.attackers[i]): x for (j, i), x in self.view.x.items()}

    def _assign(self, decl: Declaration) -> list[z3.BoolRef]:
        chosen = set(decl)
        if not chosen <= set(self.pairs):
            raise ValueError(f"{sorted(chosen - set(self.pairs))} are not (candidate, attacker) pairs of the board")
        return [x if pair in chosen else z3.Not(x) for pair, x in self.pairs.items()]

    def legal(self, decl: Declaration) -> bool:
        """The verdict on one declaration (assumptions: no push needed)."""
        return self.solver.check(*self._assign(decl)) == z3.sat

    def enumerate(self, where: z3.BoolRef | None = None) -> list[Declaration]:
        """Every legal declaration (optionally: those satisfying ``where``)."""
        found: list[Declaration] = []
        self.solver.push()
        try:
            if where is not None:
                self.solver.add(where)
            while self.solver.check() == z3.sat:
                m = self.solver.model()
                chosen = [pair for pair, x in self.pairs.items() if z3.is_true(m.eval(x, model_completion=True))]
                found.append(declaration(chosen))
                if not self.pairs:
                    break
                self.solver.add(z3.Or([z3.Not(x) if pair in chosen else x for pair, x in self.pairs.items()]))
        finally:
            self.solver.pop()
        return found

    def count(self) -> int:
        return len(self.enumerate())

    def divide(self) -> dict[str, int]:
        """Per attacker: how many legal declarations block it (each counted in its own push/pop)."""
        out = {}
        for a in self.board.attackers:
            blocked = [x for (b, att), x in self.pairs.items() if att == a]
            out[a] = len(self.enumerate(z3.Or(blocked))) if blocked else 0
        return out
