"""The Duel Masters game object of the registry."""

from __future__ import annotations

from ...model import CaseReply, CaseRequest
from .vocabulary import VOCABULARY


class DuelMasters:
    name = "duelmasters"
    title = "Duel Masters (デュエル・マスターズ)"
    seed = "002_5341a325e7af91cc.txt"
    vocabulary = VOCABULARY

    def run(self, request: CaseRequest) -> CaseReply:
        from .rules import run  # noqa: PLC0415

        return run(request)


GAME = DuelMasters()
