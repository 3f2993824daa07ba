"""``tcg-oracle prove [--game G] [--max-cards K] [--json FILE]``: each property proved, refuted (with a
counterexample board) or unknown, with its time. Exit 1 on a counterexample or an unknown."""

from __future__ import annotations

import argparse
import sys


def main(args: argparse.Namespace) -> int:
    from .. import registry

    for g in args.game or []:
        if g not in registry.names():
            print(f"tcg-oracle: --game {g!r}: unknown game; the games are {', '.join(registry.names())}",
                  file=sys.stderr)
            return 2
    if args.max_cards < 1:
        print("tcg-oracle: --max-cards must be at least 1", file=sys.stderr)
        return 2
    from ..outputs import unwritable

    if args.json and (why := unwritable(args.json)):  # said before the proofs, not after
        print(f"tcg-oracle: --json {args.json}: {why}", file=sys.stderr)
        return 2
    try:
        from .prove import run
    except ImportError as exc:  # pragma: no cover - z3 missing
        print(f"tcg-oracle prove needs z3 (pip install 'tcg-oracle[smt]'): {exc}", file=sys.stderr)
        return 2
    outcomes = run(args.game, args.max_cards)
    width = max(len(o.property.id) for o in outcomes)
    for o in outcomes:
        print(f"{o.property.id:<{width}}  {o.status:<14} {o.seconds * 1000:8.1f} ms  "
              f"{', '.join(o.property.clauses)}  -- {o.property.statement}")
        if o.counterexample:
            print("  counterexample:\n    " + o.counterexample.replace("\n", "\n    "))
    failed = [o for o in outcomes if o.status != "proved"]
    print(f"{len(outcomes) - len(failed)} of {len(outcomes)} properties proved for every board of up to "
          f"{args.max_cards} cards")
    if args.json:
        from ..outputs import write_json

        data = {"schema_version": 1, "max_cards": args.max_cards, "properties": [o.as_dict() for o in outcomes]}
        write_json(args.json, data)
    return 1 if failed else 0
