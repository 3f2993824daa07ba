"""The Duel Masters game object of the registry."""

from __future__ import annotations

from ...core.game import GameModule
from .vocabulary import VOCABULARY

GAME = GameModule(name="duelmasters", title="Duel Masters (デュエル・マスターズ)", seed="002_5341a325e7af91cc.txt", vocabulary=VOCABULARY,
                  procedure="oracle.games.duelmasters.procedure")
