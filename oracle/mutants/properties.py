"""Kill sources beyond the golden cases: properties a mutant engine must keep, each a check that either holds
(``None``) or fails with the failing assertion's message (a kill). An exception is an error of the property
on that mutant, never a kill.

- ``block-legality``: the bounded agreement of :mod:`oracle.smt` -- on every block board of up to
  :data:`BOARD_CARDS` cards of the mutant's game (:func:`oracle.smt.enumerate.boards`), the mutant engine's
  verdict on every block declaration (:func:`oracle.smt.verdicts.engine_legal`, asked of the engine as the
  legality API asks it) equals the solver's (z3, :class:`oracle.smt.solver.BlockModel`; without z3 its
  brute-force twin :mod:`oracle.smt.brute`, which the agreement tests hold equal to it). A board whose attack
  the engine refuses is not judged (as in :mod:`oracle.smt.agree`). Kills a mutant that changes who may
  block whom.
- ``fuzz``: ``tcg-oracle fuzz`` on the mutant -- :data:`FUZZ_EXAMPLES` generated cases of its game with the
  fixed seed :data:`FUZZ_SEED`, each compared with the reference engine's reply (the differential
  comparison, :func:`oracle.fuzz.campaign`). A generated case that fails kills; one that errs is an error.

Only the ``mutants`` command imports this module (z3 and Hypothesis stay out of ``run``).
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Callable

from ..errors import EngineError
from .model import Mutant

BOARD_CARDS = 3
"""Boards of up to this many cards (as the agreement tests: 199 Ijinden, 110 Duel Masters, 592 Magic boards)."""
FUZZ_EXAMPLES = 100
FUZZ_SEED = 1


@dataclass(frozen=True)
class MutantProperty:
    name: str
    statement: str
    check: Callable[[Mutant], str | None]
    """``None`` when the property holds on the mutant; else what failed (the kill's evidence). Raises on an
    error (never a kill)."""


@cache
def _solver_verdicts(game: str, max_cards: int) -> tuple[tuple[Any, tuple[tuple[Any, bool], ...]], ...]:
    """Every board of ``game`` up to ``max_cards`` cards with the solver's verdict on each declaration
    (computed once: it does not depend on the engine)."""
    from ..smt import brute
    from ..smt.enumerate import boards

    try:
        from ..smt.solver import BlockModel
    except ImportError:  # z3 not installed: the brute force, held equal to the solver by the agreement tests
        def judge(board: Any) -> Callable[[Any], bool]:
            return lambda d: brute.legal(board, d)
    else:
        def judge(board: Any) -> Callable[[Any], bool]:
            return BlockModel(board).legal
    out = []
    for board in boards(game, max_cards):
        legal = judge(board)
        out.append((board, tuple((d, legal(d)) for d in board.declarations())))
    return tuple(out)


def _in_mutant(mutant: Mutant, call: Callable[[], Any]) -> Any:
    """``call()`` with the mutant's patches applied (as its engine plays), the verdict caches emptied before
    and after (a verdict of the reference must not answer for the mutant, nor the mutant's for the reference)."""
    from ..smt import verdicts
    from .engine import MutantEngine

    verdicts._attack_refused.cache_clear()
    try:
        return MutantEngine(mutant)._in_mutant(mutant.game, call)
    finally:
        verdicts._attack_refused.cache_clear()


def block_legality(mutant: Mutant, max_cards: int = BOARD_CARDS) -> str | None:
    from ..errors import Unreachable
    from ..smt import verdicts

    expected = _solver_verdicts(mutant.game, max_cards)

    def first_disagreement() -> str | None:
        for board, declared in expected:
            try:
                for decl, legal in declared:
                    engine = verdicts.engine_legal(board, decl)
                    if engine != legal:
                        shown = ", ".join(f"{b} blocks {a}" for b, a in decl) or "no block"
                        return (f"{board.describe()}: declaration [{shown}] is "
                                f"{'legal' if legal else 'illegal'} for the solver, "
                                f"{'legal' if engine else 'illegal'} for the engine")
            except Unreachable:  # the engine refuses the attack: no block to judge on this board
                continue
        return None

    return _in_mutant(mutant, first_disagreement)


def fuzz(mutant: Mutant, examples: int = FUZZ_EXAMPLES, seed: int = FUZZ_SEED) -> str | None:
    from ..fuzz import campaign  # imports Hypothesis: only here

    with tempfile.TemporaryDirectory() as tmp:
        outcome = campaign(mutant.game, f"mutant:{mutant.name}", examples, seed, Path(tmp),
                           f"tcg-oracle mutants (fuzz, seed {seed}, {examples} examples)")
    again = f"`tcg-oracle fuzz --game {mutant.game} --engine mutant:{mutant.name} --seed {seed} --examples {examples}`"
    if outcome.failure is not None:
        return f"a generated case fails: {(outcome.message or '').removeprefix('fail:').strip()} ({again} writes it)"
    errors = [k for k in outcome.stats.tally.errors if k.startswith("error: ")]
    if errors:  # fuzz counts an error as not run, not a disagreement; on a mutant it is a broken mutant
        raise EngineError(f"a generated case errs on the mutant: {errors[0]} ({again} shows it)")
    return None


PROPERTIES: list[MutantProperty] = [
    MutantProperty("block-legality", f"on every block board of up to {BOARD_CARDS} cards, the engine's verdict on "
                                     f"every declaration equals the solver's (bounded agreement, oracle.smt)",
                   block_legality),
    MutantProperty("fuzz", f"{FUZZ_EXAMPLES} generated cases (fixed seed {FUZZ_SEED}) pass against the "
                           f"reference's replies (tcg-oracle fuzz)", fuzz),
]
"""In the order they run (the cheaper first)."""
