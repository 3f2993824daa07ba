"""``reports.bench_render(n)``: seconds to render a report of ``n`` synthetic results (for ``tcg-oracle bench``).

The synthetic results look like real ones (a board of six cards, a script of four decisions, a trace of
about twenty entries that differs from case to case, a clause catalog of forty clauses, a few failures
with divergences) so that the measure includes everything a real report costs.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from oracle.model import CaseResult, Catalog, Divergence, EngineInfo, Results, TraceEntry

GAME = "benchgame"


def synthetic_catalog(clauses: int = 40) -> Catalog:
    return Catalog.model_validate({
        "game": GAME,
        "rulesets": [{"id": "bench-1", "title": "bench rules", "default": True}],
        "clauses": [{"id": f"{GAME}:C{k}", "text": f"原文 {k}: アタッカーとブロッカーのパワーを比べる。",
                     "summary": f"Clause {k}: compare the attacker's and the blocker's power.", "document": "bench",
                     **({"testable": False, "reason": "definition"} if k % 13 == 0 else {})}
                    for k in range(clauses)],
        "assumptions": [{"id": f"{GAME}:assume-1", "reading": "a reading", "weighed": ["text a", "text b"]}],
    })


def _case(i: int) -> dict:
    a, b = f"c{i}a", f"c{i}b"
    return {
        "id": f"{GAME}.case-{i:05d}", "game": GAME, "rulesets": ["bench-1"], "title": f"Synthetic battle number {i}",
        "source": {"kind": "generated", "seed": i, "command": "tcg-oracle bench", "date": "2024-01-01"},
        "rules": [f"{GAME}:C{i % 40}", f"{GAME}:C{(i * 7) % 40}"],
        "setup": {"active": "alice", "turn": 3, "phase": "main", "players": {
            "alice": {"battlefield": [{"id": a, "card": "vanilla", "power": 2000 + i % 5 * 1000},
                                      {"id": f"c{i}c", "card": "vanilla", "power": 1000, "tapped": True}],
                      "hand": [{"id": f"c{i}h", "card": "vanilla"}], "deck": 10},
            "bob": {"battlefield": [{"id": b, "card": "guardian", "power": 3000, "counters": {"shield": 1}},
                                    {"id": f"c{i}d", "card": "vanilla", "power": 1000}], "deck": 8}}},
        "script": [{"player": "alice", "kind": "declare_attackers", "args": [a]},
                   {"player": "bob", "kind": "declare_blockers", "args": {a: [b]}},
                   {"player": "bob", "kind": "choose_attacker", "args": a}],
        "expect": {"events": [{"events": [{"kind": "slept", "fields": {"card": a}},
                                          {"kind": "became_attacker", "fields": {"card": a}},
                                          {"kind": "attacked", "fields": {"player": "alice"}}]},
                              {"events": [{"kind": "became_blocker", "fields": {"card": b, "attacker": a}},
                                          {"kind": "blocked", "fields": {"card": a}}]},
                              {"events": [{"kind": "destroyed", "fields": {"card": a}}]}],
                   "exact": False},
    }


def _trace(i: int) -> list[TraceEntry]:
    a, b = f"c{i}a", f"c{i}b"
    rows = [
        (1, "decided", {"at": 0, "player": "alice", "decision": "declare_attackers"}, "A1"),
        (2, "declared_battle", {"player": "alice"}, "A1"),
        (3, "slept", {"card": a}, "A3"), (3, "became_attacker", {"card": a}, "A3"), (3, "attacked", {"player": "alice"}, "A3"),
        (4, "decided", {"at": 1, "player": "bob", "decision": "declare_blockers"}, "B1"),
        (5, "became_blocker", {"card": b, "attacker": a}, "B3"), (5, "blocked", {"card": a}, "B3"),
        (6, "decided", {"at": 2, "player": "bob", "decision": "choose_attacker"}, "C1"),
        (7, "chose_attacker", {"player": "bob", "card": a}, "C1"),
        (8, "won_battle", {"card": b, "power": 3000, "against": a}, "D1"),
        (8, "lost_battle", {"card": a, "power": 2000, "against": b}, "D1"),
        (9, "destroyed", {"card": a}, "D2"),
        (10, "moved", {"card": a, "from": "battlefield", "to": "graveyard", "player": "alice"}, "D4"),
        (10, "ceased_attacker", {"card": a}, "D4"), (11, "ceased_blocker", {"card": b}, "D6"),
        (11, "battle_resolution_ended", {"card": a}, "D6"), (12, "battle_ended", {"player": "alice"}, "C2"),
    ]
    return [TraceEntry(moment=m, kind=k, args=args, clause=f"{GAME}:C{(i + n) % 40}") for n, (m, k, args, _) in enumerate(rows)]


def synthetic_results(n: int = 10_000, engines: int = 1) -> list[Results]:
    out = []
    per = max(1, n // engines)
    for e in range(engines):
        cases = []
        for i in range(per):
            trace = _trace(i)
            status = "fail" if (i + e) % 17 == 0 else "error" if i % 53 == 0 else "skip" if i % 97 == 0 else "pass"
            div = None
            if status == "fail":
                div = Divergence(what="moment", index=2, message=f"expected moment 2 [{{'destroyed': {{'card': 'c{i}a'}}}}] was not found",
                                 expected=[{"destroyed": {"card": f"c{i}a"}}], actual=[{"destroyed": {"card": f"c{i}b"}}],
                                 context=trace[-6:])
            cases.append(CaseResult(
                id=f"{GAME}.case-{i:05d}", game=GAME, status=status, rules=_case(i)["rules"],
                executed=sorted({t.clause for t in trace if t.clause}), asserted=[f"{GAME}:C{i % 40}"],
                duration=0.0002, divergence=div, error="engine crashed" if status == "error" else None,
                skip_reason="not for this ruleset" if status == "skip" else None, file=f"cases/{GAME}/bench.yaml",
                line=1 + 40 * i, title=f"Synthetic battle number {i}", ruleset="bench-1",
                engine="reference" if e == 0 else f"engine-{e}", trace=None if status == "skip" else trace, case=_case(i)))
        out.append(Results(engine=EngineInfo(name="reference" if e == 0 else f"engine-{e}", version="bench"),
                           suite_version="bench", started="2024-01-01T00:00:00+00:00", cases=cases,
                           summary=Results.count(cases)))
    return out


def bench_render(n: int = 10_000, engines: int = 1, out: Path | None = None) -> float:
    """Seconds to render ``n`` results (split over ``engines`` runs) into one HTML file."""
    return render_times(n, engines, out)[0]


def render_times(n: int = 10_000, engines: int = 1, out: Path | None = None) -> tuple[float, float]:
    """Wall-clock and CPU seconds (this process) to render ``n`` results into one HTML file (the CPU time
    is what other work on the machine does not inflate)."""
    from .render import render_report

    results = synthetic_results(n, engines)
    catalogs = {GAME: synthetic_catalog()}
    with tempfile.TemporaryDirectory() as tmp:
        target = out or Path(tmp) / "bench-report.html"
        start, cpu = time.perf_counter(), time.process_time()
        render_report(results, target, catalogs=catalogs)
        return time.perf_counter() - start, time.process_time() - cpu
