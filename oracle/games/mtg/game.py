"""The Magic game object of the registry: battles (CR 310) and the combat, stack and SBAs they need."""

from __future__ import annotations

from ...core.game import GameModule
from .vocabulary import VOCABULARY

GAME = GameModule(name="mtg", title="Magic: The Gathering — battles (CR 310)", seed="003_e59ac1d09f5d2d00.txt", vocabulary=VOCABULARY,
                  procedure="oracle.games.mtg.procedure")
