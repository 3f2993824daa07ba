"""Where the packaged data lives, in a source checkout and in an installed wheel alike."""

from __future__ import annotations

import os
from pathlib import Path

_HERE = Path(__file__).resolve().parent


def _mapped(name: str) -> Path:
    """``cases``, ``reports``, ``generators``: inside the package when installed from a wheel,
    beside it in a source checkout (setuptools maps them into ``oracle.*`` at build time)."""
    inside = _HERE / name
    return inside if inside.is_dir() else _HERE.parent / name


def cases_dir() -> Path:
    return _mapped("cases")


BUILTIN = "builtin"
"""``--cases builtin``: the installed suite (``./builtin`` names a folder of that name)."""


def cases_arg(text: str) -> Path:
    """A ``--cases`` argument: ``builtin`` is the installed suite (:func:`cases_dir`), anything else a path."""
    return cases_dir() if text == BUILTIN else Path(text)


def seeds_dir() -> Path | None:
    """The seed texts the tests quote-check against: ``$TCG_ORACLE_SEEDS``, else ``shared/seeds`` beside
    the checkout, when there is one."""
    env = os.environ.get("TCG_ORACLE_SEEDS")
    if env:
        return Path(env) if Path(env).is_dir() else None
    for base in (_HERE.parent.parent / "shared" / "seeds", _HERE.parent / "shared" / "seeds"):
        if base.is_dir():
            return base
    return None
