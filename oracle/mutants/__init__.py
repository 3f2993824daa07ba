"""Mutant engines: the reference engine with one plausible misreading of one ruling each.

A mutant is an engine (``--engine mutant:NAME``). Each is a :class:`Mutant`: the clause it misreads, the
source text it misreads (quoted), the misreading in one sentence, and one or more :class:`Patch` es -- a
named function (or constant) of the game's rules swapped only while that mutant engine plays a case
(:mod:`oracle.mutants.patch`). ``tcg-oracle mutants`` runs the golden cases against each
(:mod:`oracle.mutants.kill`); every mutant must be killed by some case's failing assertion.

The per-game lists are :mod:`oracle.mutants.ijinden`, :mod:`oracle.mutants.duelmasters` and
:mod:`oracle.mutants.mtg`; they name their patch points by dotted path and never import a game (the patch
resolves the path when the mutant runs).
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING

from .model import Mutant, Patch

if TYPE_CHECKING:
    from .engine import MutantEngine

__all__ = ["Mutant", "Patch", "all_mutants", "get", "make_mutant"]

_MODULES = ("oracle.mutants.ijinden", "oracle.mutants.duelmasters", "oracle.mutants.mtg")


@cache
def all_mutants() -> tuple[Mutant, ...]:
    """Every mutant, game by game, in the order its module lists them."""
    out: list[Mutant] = []
    for name in _MODULES:
        out.extend(importlib.import_module(name).MUTANTS)
    names = [m.name for m in out]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ValueError(f"mutant names must be unique: {', '.join(dupes)}")
    return tuple(out)


def get(name: str) -> Mutant:
    for m in all_mutants():
        if m.name == name:
            return m
    known = ", ".join(m.name for m in all_mutants())
    from ..errors import EngineSpecError

    raise EngineSpecError(f"no mutant {name!r}; `tcg-oracle mutants --list` lists them: {known}")


def make_mutant(name: str) -> "MutantEngine":
    """The engine of ``--engine mutant:NAME``."""
    from .engine import MutantEngine  # a lazy import: the patch machinery only when a mutant runs

    return MutantEngine(get(name))
