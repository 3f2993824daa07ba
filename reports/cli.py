"""``tcg-oracle report RESULTS.json... --out FILE [--baseline FILE] [--cases PATH]... [--proofs FILE]``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pydantic import ValidationError

EXIT_OK, EXIT_USAGE = 0, 2


def _read(path: Path):
    from oracle.limits import loads_json

    try:
        return loads_json(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise ValueError(f"{path}: not JSON: {exc}") from None


def _results(path: Path, data):
    from oracle.model import Results

    try:
        return Results.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ValueError(f"{path}: not a tcg-oracle results file ({len(exc.errors())} problem(s); "
                         f"first at {where or 'top level'}: {first['msg']})") from None


def load_results(path: Path):
    """One results file (a run, a merged run of shards or of several engines)."""
    return _results(path, _read(path))


def load_input(path: Path):
    """A results file, or a kill-matrix file (``tcg-oracle mutants --results FILE``): (results, matrix)."""
    from oracle.mutants.kill import is_kill_matrix

    data = _read(path)
    if is_kill_matrix(data):
        return None, data
    return _results(path, data), None


def main(args: argparse.Namespace) -> int:
    from oracle.baseline import BaselineError
    from .render import render_report

    try:
        loaded = [load_input(Path(p)) for p in args.inputs]
    except ValueError as exc:
        print(f"tcg-oracle report: {exc}", file=sys.stderr)
        return EXIT_USAGE
    results = [r for r, _ in loaded if r is not None]
    matrices = [m for _, m in loaded if m is not None]
    if not results:
        print("tcg-oracle report: a kill matrix is shown beside results: give a results file too", file=sys.stderr)
        return EXIT_USAGE
    try:
        from oracle.loader import suite_catalogs

        catalogs = suite_catalogs(getattr(args, "cases", None)) or None
    except Exception as exc:  # a broken suite catalog is bad usage, said with its location
        print(f"tcg-oracle report: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        out = render_report(results, Path(args.out), baseline=getattr(args, "baseline", None), catalogs=catalogs,
                            proofs=getattr(args, "proofs", None), kill_matrices=matrices)
    except (BaselineError, ValueError) as exc:  # a broken baseline or proofs file: said with its path
        print(f"tcg-oracle report: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:  # --out a folder, or not writable: said, no traceback
        print(f"tcg-oracle report: --out {args.out}: cannot write: {exc}", file=sys.stderr)
        return EXIT_USAGE
    n = sum(len(r.cases) for r in results)
    print(f"report: {out} ({n} results from {len(results)} file(s)"
          + (f", kill matrix of {sum(len(m['mutants']) for m in matrices)} mutants" if matrices else "")
          + f", {out.stat().st_size / 1e6:.2f} MB)")
    from oracle.cli import _coverage_line

    line = _coverage_line(results)
    if line:
        print(line)
    return EXIT_OK
