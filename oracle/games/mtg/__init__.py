"""Magic: The Gathering battles (CR 310; editions 20231117.0 and 20260807, editions.py) with the combat, stack and SBA
subset they need."""

from .game import GAME

__all__ = ["GAME"]
