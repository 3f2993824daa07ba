"""A test engine with one injected misreading: it ignores that a card is sleeping / tapped (Ijinden A1's
「起きている」, Duel Masters' tapped creatures, Magic's tapped permanents) by reading every setup card as
untapped, and otherwise plays as the reference engine. ``tcg-oracle fuzz`` must find it."""

from __future__ import annotations

from oracle.harness.engine import ReferenceEngine
from oracle.model import CaseRequest, EngineInfo, Hello


class UntappingEngine(ReferenceEngine):
    def hello(self) -> Hello:
        return Hello(engine=EngineInfo(name="untapping", version="1"), games=self.games)

    def run_case(self, request: CaseRequest, timeout: float | None = None):
        setup = request.setup
        players = {pid: {zone: ([{**c, "tapped": False} for c in content] if isinstance(content, list) else content)
                         for zone, content in p.items()} for pid, p in setup["players"].items()}
        return super().run_case(request.model_copy(update={"setup": {**setup, "players": players}}), timeout)


def make() -> UntappingEngine:
    return UntappingEngine()
