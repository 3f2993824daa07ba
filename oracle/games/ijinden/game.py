"""The Ijinden game object of the registry."""

from __future__ import annotations

from ...model import CaseReply, CaseRequest
from .vocabulary import VOCABULARY


class Ijinden:
    name = "ijinden"
    title = "Ijinden (イジンデン)"
    seed = "000_3d9ad01336bbc75e.txt"
    vocabulary = VOCABULARY

    def run(self, request: CaseRequest) -> CaseReply:
        from .rules import run  # noqa: PLC0415

        return run(request)


GAME = Ijinden()
