"""Magic: The Gathering battles (CR 310, edition 20231117.0) with the combat, stack and SBA subset they need."""

from .game import GAME

__all__ = ["GAME"]
