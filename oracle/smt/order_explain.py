"""Which clauses a trace's order breaks, named by z3 (``tcg-oracle explain`` on a trace that breaks an
order; the plain check that finds the breaks is :func:`oracle.smt.order.check_order`).

Every step of a broken chain (per key and scope) is a *step instance* whose events the trace puts at
moments ``lo..hi``. A Bool ``placed`` per instance says "this step is where the procedure puts it"; the
chain's constraints ``placed(i) and placed(j) -> hi(i) < lo(j)`` hold over the observed moments. Then

- the **unsat core** of the ``placed`` assumptions (minimised: no instance can be dropped) is a smallest
  set of steps that cannot all be in place together -- the clauses that conflict;
- an ``Optimize`` that keeps as many steps placed as possible names the **smallest set of steps out of
  place**: when two steps of a chain are swapped, those two, though the plain check reports every pair
  the swap disturbs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

import z3

from .order import Violation, _pairs, check_order


@dataclass(frozen=True)
class Instance:
    order: str
    step: int
    label: str
    clause: str
    key: Any
    scope: str
    lo: int
    hi: int

    def __str__(self) -> str:
        key = f" of {self.key}" if self.key != "*" else ""
        return f"{self.clause} {self.label}{key} (moments {self.lo}..{self.hi}, {self.scope})"


@dataclass(frozen=True)
class OrderExplanation:
    violations: tuple[Violation, ...]
    core: tuple[Instance, ...]
    """A minimal unsat core: steps that cannot all be where the trace puts them."""
    misplaced: tuple[Instance, ...]
    """The fewest steps whose moving makes the trace keep every broken chain."""

    @property
    def clauses(self) -> tuple[str, ...]:
        """The clauses of the misplaced steps: the smallest set of clauses broken."""
        return tuple(dict.fromkeys(i.clause for i in self.misplaced))


def explain_order(game: str, trace: Iterable[Any]) -> OrderExplanation:
    trace = list(trace)
    violations = check_order(game, trace)
    if not violations:
        return OrderExplanation((), (), ())
    broken = {(v.order, v.scope) for v in violations}
    instances: dict[tuple, Instance] = {}
    links: list[tuple[tuple, tuple]] = []
    for order, i, j, key, firsts, thens, scope in _pairs(game, trace):
        if (order.id, scope.name) not in broken:
            continue
        a = (order.id, i, key, scope.name)
        b = (order.id, j, key, scope.name)
        for ident, step, moments in ((a, order.steps[i], firsts), (b, order.steps[j], thens)):
            instances.setdefault(ident, Instance(order.id, ident[1], step.label, step.clause, key, scope.name,
                                                 min(moments), max(moments)))
        links.append((a, b))
    placed = {ident: z3.Bool(f"placed[{n}]") for n, ident in enumerate(instances)}
    hard = [z3.Implies(z3.And(placed[a], placed[b]), instances[a].hi < instances[b].lo) for a, b in links]

    solver = z3.Solver()
    solver.add(*hard)
    if solver.check(*placed.values()) != z3.unsat:  # pragma: no cover - a violation is a conflict
        raise AssertionError("the broken chains are satisfiable: check_order and the links disagree")
    by_lit = {placed[k].get_id(): k for k in placed}
    core = [by_lit[lit.get_id()] for lit in solver.unsat_core()]
    for k in list(core):  # deletion-based minimisation
        rest = [placed[c] for c in core if c != k]
        if solver.check(*rest) == z3.unsat:
            core.remove(k)

    opt = z3.Optimize()
    opt.add(*hard)
    for lit in placed.values():
        opt.add_soft(lit, 1)
    opt.check()
    model = opt.model()
    misplaced = [k for k, lit in placed.items() if not z3.is_true(model.eval(lit, model_completion=True))]
    return OrderExplanation(tuple(violations), tuple(instances[k] for k in core),
                            tuple(instances[k] for k in misplaced))


def describe(expl: OrderExplanation) -> str:
    if not expl.violations:
        return "the trace keeps every ordering constraint"
    lines = [f"{len(expl.violations)} ordering constraint(s) broken:"]
    lines += [f"  {v.message}" for v in expl.violations]
    lines.append("steps that cannot all be in place (unsat core): " + "; ".join(map(str, expl.core)))
    lines.append("fewest steps out of place: " + "; ".join(map(str, expl.misplaced)))
    lines.append("smallest set of clauses broken: " + ", ".join(expl.clauses))
    return "\n".join(lines)
