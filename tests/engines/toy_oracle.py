"""``tcg-oracle`` with the toy game registered (tests run ``serve`` and ``run`` through it in a subprocess)."""

import sys
from pathlib import Path

HARNESS = Path(__file__).resolve().parent.parent / "harness"
sys.path.insert(0, str(HARNESS))

from oracle import paths, registry
from oracle.cli import main

registry._GAMES["toy"] = "toygame"
paths.cases_dir = lambda: HARNESS / "fixtures" / "cases"

raise SystemExit(main(sys.argv[1:]))
