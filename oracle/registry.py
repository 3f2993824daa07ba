"""The games, looked up by name. No module imports a game directly but this one."""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .core.game import Game

_GAMES: dict[str, str] = {
    "ijinden": "oracle.games.ijinden",
    "duelmasters": "oracle.games.duelmasters",
    "mtg": "oracle.games.mtg",
}


def names() -> list[str]:
    """Every registered game, in a stable order."""
    return list(_GAMES)


@cache
def get(name: str) -> "Game":
    try:
        module = _GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; the games are {', '.join(_GAMES)}") from None
    return importlib.import_module(module).GAME
