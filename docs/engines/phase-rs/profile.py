"""Where a phase.rs case's time goes: inside phase-python's calls vs the adapter's own Python.

    python docs/engines/phase-rs/profile.py [--ruleset cr-20260807]

Plays every Magic case through the adapter in this process, with each phase-python call (every method of
``Engine`` and ``Game``, ``build_oracle_face``) timed by a thin proxy (``time.perf_counter`` around the call; no
profiler, whose overhead would inflate the Python side), twice: the first pass warms the adapter's per-process
card cache, the second is measured. Prints the wall time per case, the part inside phase-python and the rest (the
adapter: the board, the mapping of events, the projections), and the costliest phase-python calls.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import phase

from oracle.engines import phase_rs
from oracle.harness.request import make_request
from oracle.loader import load_suite

inside: dict[str, float] = {}


def timed(name: str, f: Any) -> Any:
    def call(*a: Any, **k: Any) -> Any:
        t = time.perf_counter()
        try:
            return f(*a, **k)
        finally:
            inside[name] = inside.get(name, 0.0) + time.perf_counter() - t
    return call


class Game:
    def __init__(self, g: Any) -> None:
        self._g = g

    def __getattr__(self, n: str) -> Any:
        v = getattr(self._g, n)
        if n == "phase":
            return timed("Game.phase", lambda: v)()
        return timed("Game." + n, v) if callable(v) else v


class Engine:
    def __init__(self, e: Any) -> None:
        self._e = e

    @classmethod
    def from_json(cls, s: str) -> "Engine":
        return cls(timed("Engine.from_json", phase.Engine.from_json)(s))

    def load_game(self, *a: Any, **k: Any) -> Game:
        return Game(timed("Engine.load_game", self._e.load_game)(*a, **k))

    def new_game(self, *a: Any, **k: Any) -> Game:
        return Game(timed("Engine.new_game", self._e.new_game)(*a, **k))


class Phase:
    Engine = Engine
    GameAction = phase.GameAction
    build_oracle_face = staticmethod(timed("build_oracle_face", phase.build_oracle_face))
    build_oracle_face_multi = staticmethod(timed("build_oracle_face_multi", phase.build_oracle_face_multi))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ruleset")
    args = ap.parse_args()
    cases = [lc.case for lc in load_suite(games=["mtg"]).cases
             if args.ruleset is None or args.ruleset in lc.case.rulesets]
    requests = [make_request(c, args.ruleset or c.rulesets[0]) for c in cases]
    engine = phase_rs.engine()
    engine.phase = Phase
    for _pass in ("warm-up", "measured"):
        inside.clear()
        start = time.perf_counter()
        for r in requests:
            try:
                engine.play(r)
            except Exception:  # a case the adapter cannot set up (CannotSetUp, UnsupportedCard): still timed
                pass
        total = time.perf_counter() - start
    n, engine_time = len(requests), sum(inside.values())
    print(f"phase-python {phase_rs.kit.installed_version('phase-python')}, {n} cases: {1000 * total / n:.1f} ms per "
          f"case; inside phase-python {1000 * engine_time / n:.1f} ms ({100 * engine_time / total:.0f}%), the adapter "
          f"{1000 * (total - engine_time) / n:.1f} ms ({100 * (total - engine_time) / total:.0f}%)")
    for name, t in sorted(inside.items(), key=lambda kv: -kv[1])[:8]:
        print(f"  {name:26s} {1000 * t / n:6.2f} ms per case")


if __name__ == "__main__":
    main()
