"""Ijinden (イジンデン) battle procedure: attack step A1-A4, block step B1-B4, battle resolution C1-C2, D1-D6."""

from .game import GAME

__all__ = ["GAME"]
