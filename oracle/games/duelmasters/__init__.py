"""Duel Masters (デュエル・マスターズ) attack procedure: P1-P4, A1-A3, B1-B4, U1-U9, C1-C8, E1 and ※1-※9."""

from .game import GAME

__all__ = ["GAME"]
