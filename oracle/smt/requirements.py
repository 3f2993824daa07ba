"""Magic block requirements (CR 509.1c) with z3's ``Optimize``: the restrictions are hard constraints
(:func:`oracle.smt.solver.constraints`), each requirement a soft constraint of weight 1; a declaration is
legal when it breaks no restriction and obeys as many requirements as the optimum. The brute-force twin is
:func:`oracle.smt.brute.legal_with_requirements`.

The reference engine's own reading is ``oracle/games/mtg/requirements.py`` (a plain search, no z3); the tests
(``tests/smt/test_requirements.py``) check that the engine, this model and the brute force agree on every small
board with requirements.
"""

from __future__ import annotations

import z3

from .block_board import BlockBoard, Declaration, declaration
from .solver import BlockModel


class RequirementModel(BlockModel):
    def __init__(self, board: BlockBoard) -> None:
        super().__init__(board)
        self.obeyed = self._requirements()
        opt = z3.Optimize()
        opt.add(*self.solver.assertions())
        for term in self.obeyed:
            opt.add_soft(term, 1)
        opt.check()
        m = opt.model()
        self.best = sum(1 for t in self.obeyed if z3.is_true(m.eval(t, model_completion=True)))
        count = z3.Sum([z3.If(t, 1, 0) for t in self.obeyed]) if self.obeyed else z3.IntVal(0)
        self.solver.add(count == self.best)  # from here on, legal = no restriction broken, most obeyed

    def _requirements(self) -> list[z3.BoolRef]:
        b = self.board
        out: list[z3.BoolRef] = []
        for a in b.attackers:
            kw = b.card(a).keywords
            mine = [x for (c, att), x in self.pairs.items() if att == a]
            if "must_be_blocked" in kw:
                out.append(z3.Or(mine) if mine else z3.BoolVal(False))
            if "lure" in kw:
                out += [self.pairs[(c, a)] if (c, a) in self.pairs else z3.BoolVal(False) for c in b.candidates]
        for c in b.candidates:
            if "blocks_each_combat" in b.card(c).keywords:
                mine = [x for (cand, _a), x in self.pairs.items() if cand == c]
                out.append(z3.Or(mine) if mine else z3.BoolVal(False))
        return out


def legal_declarations(board: BlockBoard) -> list[Declaration]:
    return sorted(declaration(d) for d in RequirementModel(board).enumerate())
