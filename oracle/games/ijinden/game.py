"""The Ijinden game object of the registry."""

from __future__ import annotations

from ...core.game import GameModule
from .vocabulary import VOCABULARY

GAME = GameModule(name="ijinden", title="Ijinden (イジンデン)", seed="000_3d9ad01336bbc75e.txt", vocabulary=VOCABULARY,
                  procedure="oracle.games.ijinden.procedure")
