"""The Magic game object of the registry: battles (CR 310) and the combat, stack and SBAs they need."""

from __future__ import annotations

from ...model import CaseReply, CaseRequest
from .vocabulary import VOCABULARY


class Magic:
    name = "mtg"
    title = "Magic: The Gathering — battles (CR 310)"
    seed = "003_e59ac1d09f5d2d00.txt"
    vocabulary = VOCABULARY

    def run(self, request: CaseRequest) -> CaseReply:
        from .rules import run  # noqa: PLC0415

        return run(request)


GAME = Magic()
