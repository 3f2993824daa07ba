"""``tcg-oracle mutants``: run the golden cases against every mutant; print what killed each first.

Exit 0 when every mutant is killed (by a failing case, or a property: ``--properties``) and no case or
property errs on any mutant; 1 when a mutant survives or something errs on one; 2 for bad usage or invalid
case files.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("mutants", help="run the golden cases against the mutant engines; the kill rate")
    p.add_argument("--game", action="append", metavar="G", help="only this game's mutants (repeatable)")
    p.add_argument("--list", action="store_true", help="list the mutants with their clause and misreading")
    p.add_argument("--mutant", action="append", metavar="NAME", help="only this mutant (repeatable)")
    p.add_argument("--cases", action="append", metavar="PATH", type=Path,
                   help="case files or folders (default: every game's cases)")
    p.add_argument("--results", metavar="FILE", help="write the kill matrix (JSON) here; `report` reads it")
    p.add_argument("--properties", choices=("survivors", "all", "none"), default="survivors",
                   help="kill sources beyond the cases (block-legality agreement with the solver, a fixed-seed "
                        "fuzz budget): on the mutants no case killed (default), on every mutant (all: what each "
                        "source kills; about 2 minutes), or never (none)")


def main(args: argparse.Namespace) -> int:
    from .. import registry
    from . import all_mutants, get

    for g in args.game or []:
        if g not in registry.names():
            print(f"tcg-oracle: --game {g!r}: unknown game; the games are {', '.join(registry.names())}",
                  file=sys.stderr)
            return EXIT_USAGE
    try:
        mutants = [get(n) for n in args.mutant] if args.mutant else list(all_mutants())
    except ValueError as exc:
        print(f"tcg-oracle: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if args.game:
        mutants = [m for m in mutants if m.game in args.game]
    if args.list:
        for m in mutants:
            print(f"{m.name}\t{m.clause}\t{m.misreading}\n\tsource: 「{m.source}」")
        print(f"{len(mutants)} mutant(s)")
        return EXIT_OK

    from ..loader import load_suite
    from ..outputs import unwritable
    from ..text import trim_text

    if args.results and (why := unwritable(args.results)):  # said before the mutants run, not after
        print(f"tcg-oracle: --results {args.results}: {why}", file=sys.stderr)
        return EXIT_USAGE
    from .kill import kill_matrix, run_mutants

    suite = load_suite(args.cases, games=args.game or None)
    if suite.errors:
        for err in suite.errors:
            print(f"invalid case file: {err}", file=sys.stderr)
        return EXIT_USAGE
    width = max((len(m.name) for m in mutants), default=10)

    def show(run) -> None:
        verdict = f"killed by {run.killed_by}" if run.killed else "SURVIVED"
        extra = f"  ({len(run.kills)}/{run.cases} cases fail)" if run.kills else ""
        if run.checked:
            extra += "  [properties: " + ", ".join(
                f"{p} {'fails' if p in run.properties else 'errs' if p in dict(run.property_errors) else 'holds'}"
                for p in run.checked) + "]"
        errs = f"  [{len(run.errors)} case error(s): {run.errors[0][0]}]" if run.errors else ""
        print(f"{run.mutant.name:<{width}}  {verdict}{extra}{errs}", flush=True)
        if not run.kills and run.properties:
            print(f"  {run.properties[0]}: {trim_text(run.evidence[run.properties[0]], 600)}", flush=True)
        for name, why in run.property_errors:
            print(f"  property {name} errs: {trim_text(why, 600)}", flush=True)

    from .kill import MutantsInterrupted

    interrupted: MutantsInterrupted | None = None
    try:
        runs = run_mutants(mutants, suite, on_done=show, properties=args.properties)
    except MutantsInterrupted as exc:  # the mutants done are kept; the one stopped is not counted as tested
        interrupted, runs = exc, exc.runs
    matrix = kill_matrix(runs, suite)
    if interrupted is not None:
        matrix["partial"] = True
        matrix["aborted"] = f"{interrupted}; {len(runs)} of {len(mutants)} mutant(s) finished"
    s = matrix["summary"]
    rate = f"{100 * s['kill_rate']:.1f}%" if s["kill_rate"] is not None else "-"
    print(f"killed {s['killed']}/{s['mutants']} mutants ({rate}); case errors: {s['errors']}; property errors: "
          f"{s['property_errors']}")
    for name, killed in matrix["by_property"].items():
        checked = sum(name in r.checked for r in runs)
        print(f"property {name} kills {len(killed)} of the {checked} mutant(s) it was checked on")
    if matrix["weak"]:
        print(f"weakly tested clauses (a mutant survives): {', '.join(matrix['weak'])}")
    if args.results:
        from ..outputs import write_json

        path = write_json(args.results, matrix)
        print(f"kill matrix: {path}" + (" (partial)" if interrupted else ""))
    if interrupted is not None:
        print(f"tcg-oracle mutants: {matrix['aborted']}; the figures above are of those only", file=sys.stderr)
        return EXIT_FAIL
    return EXIT_OK if s["killed"] == s["mutants"] and not s["errors"] and not s["property_errors"] else EXIT_FAIL
