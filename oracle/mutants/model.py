"""What a mutant is: one misreading of one clause, as named patches of the game's rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class Patch:
    """Swap ``target`` (``package.module:Name`` or ``package.module:Class.method``) for ``make(original)``
    while the mutant plays. A module-level function is swapped in every module of its game package that
    binds it (``from .abilities import power`` included)."""

    target: str
    make: Callable[[Any], Any]


@dataclass(frozen=True)
class Mutant:
    name: str
    game: str
    clause: str
    """The clause id of the catalog whose ruling it misreads (``ijinden:D1``)."""
    source: str
    """The source text it misreads, quoted verbatim (seed text, or the Comprehensive Rules)."""
    misreading: str
    """What the mutant does instead, in one sentence."""
    patches: tuple[Patch, ...]
