"""One engine at three versions, for the report's history view: the reference engine, misreading more
rulings release after release.

- ``py:versioned_engine:v1`` (1.0): plays as the reference engine does;
- ``py:versioned_engine:v2`` (2.0): misreads ``ijinden.attack.single-unblocked-wins``: an unblocked attacker's
  win is not reported (no ``won`` event, no winner);
- ``py:versioned_engine:v3`` (3.0): that misreading still, and the same one on
  ``ijinden.attack.three-attackers-one-moment``.

Use with this folder on PYTHONPATH.
"""

from __future__ import annotations

from oracle.harness.engine import ReferenceEngine
from oracle.model import CaseReply, EngineInfo, Hello

NAME = "versioned-engine"
FIRST_MISREAD = "ijinden.attack.single-unblocked-wins"
SECOND_MISREAD = "ijinden.attack.three-attackers-one-moment"


class Versioned:
    def __init__(self, version: str, misread: frozenset[str]) -> None:
        self.inner = ReferenceEngine(games=["ijinden"])  # plays Ijinden only: other cases are skipped
        self.version, self.misread = version, misread

    def hello(self) -> Hello:
        h = self.inner.hello()
        return h.model_copy(update={"engine": EngineInfo(name=NAME, version=self.version)})

    def run_case(self, request, timeout=None) -> CaseReply:
        reply = self.inner.run_case(request, timeout)
        if request.id not in self.misread:
            return reply
        trace = [e for e in reply.trace if e.kind != "won"]
        return reply.model_copy(update={"trace": trace, "winner": None})

    def close(self) -> None:
        self.inner.close()


def v1() -> Versioned:
    return Versioned("1.0", frozenset())


def v2() -> Versioned:
    return Versioned("2.0", frozenset({FIRST_MISREAD}))


def v3() -> Versioned:
    return Versioned("3.0", frozenset({FIRST_MISREAD, SECOND_MISREAD}))
