"""An engine under test for the report and explain tests: the reference engine with one misreading.

``one_by_one``: losers are destroyed one at a time (one moment each) instead of at once; and a
refused decision is not reported (it is accepted instead) -- enough to make cases fail visibly.
Use as ``--engine py:report_engines:one_by_one`` with this folder on PYTHONPATH.
"""

from __future__ import annotations

from oracle.harness.engine import ReferenceEngine
from oracle.model import CaseReply, EngineInfo, Hello, TraceEntry


class OneByOne:
    def __init__(self) -> None:
        self.inner = ReferenceEngine()

    def hello(self) -> Hello:
        h = self.inner.hello()
        return Hello(engine=EngineInfo(name="one-by-one", version="0.0.1"), games=h.games)

    def run_case(self, request, timeout=None) -> CaseReply:
        reply = self.inner.run_case(request, timeout)
        out, shift = [], 0
        by_moment: dict[int, int] = {}
        for e in reply.trace:
            by_moment[e.moment] = by_moment.get(e.moment, 0) + 1
        seen: dict[int, int] = {}
        for e in reply.trace:
            n = seen.get(e.moment, 0)
            seen[e.moment] = n + 1
            if e.kind == "destroyed" and by_moment[e.moment] > 1 and n > 0:
                shift += 1
            out.append(TraceEntry(moment=e.moment + shift, kind=e.kind, args=e.args, clause=e.clause))
        return CaseReply(id=reply.id, trace=out, final=reply.final, winner=reply.winner, error=reply.error)

    def close(self) -> None:
        pass


def one_by_one() -> OneByOne:
    return OneByOne()
