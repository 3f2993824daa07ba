"""Regenerate phase.rs's history: the Magic cases run on each phase-python release, under both rulesets.

    python docs/engines/phase-rs/regenerate.py [--venvs DIR] [--release 0.83.0 ...]

For each release a virtual environment ``DIR/phase-python-<release>`` (default ``DIR``:
``~/.cache/tcg-oracle/phase-rs``, outside the checkout) is made once with this checkout (editable) and ``phase-python==<release>``; then, from the checkout's
root, for the default ruleset (cr-20231117) and cr-20260807:

    tcg-oracle run --game mtg [--ruleset cr-20260807] --engine py:oracle.engines.phase_rs:engine \
        --results docs/engines/phase-rs/phase-python-<release>[.cr-20260807].json --report ''

The results are portable already (``oracle/portable.py``: no path of the machine); the script leaves out each
case's ``case`` field (the case as loaded, for a report's board drawing: the suite at the recorded commit holds
it), which is half of a file. Then the history view of each ruleset (``tcg-oracle report`` of one engine's runs at
several versions, ``reports/history.py``) is written to ``history.html`` and ``history.cr-20260807.html`` here.
Each run takes about a minute. A release's runs exit 1 (phase.rs fails cases); any other exit stops the script.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
RELEASES = ("0.77.0", "0.83.0", "0.103.0")
RULESETS = (None, "cr-20260807")
SPEC = "py:oracle.engines.phase_rs:engine"


def venv(folder: Path, release: str) -> Path:
    env = folder / f"phase-python-{release}"
    if not (env / "bin" / "tcg-oracle").exists():
        subprocess.run([sys.executable, "-m", "venv", str(env)], check=True)
        subprocess.run([str(env / "bin" / "pip"), "install", "-q", "-e", str(ROOT), f"phase-python=={release}"],
                       check=True)
    return env


def results_file(release: str, ruleset: str | None) -> Path:
    return HERE / f"phase-python-{release}{'.' + ruleset if ruleset else ''}.json"


def run(env: Path, release: str, ruleset: str | None) -> Path:
    out = results_file(release, ruleset)
    cmd = [str(env / "bin" / "tcg-oracle"), "run", "--game", "mtg", *(["--ruleset", ruleset] if ruleset else []),
           "--engine", SPEC, "--results", str(out.relative_to(ROOT)), "--report", "", "--quiet"]
    done = subprocess.run(cmd, cwd=ROOT)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)}: exit {done.returncode}")
    results = json.loads(out.read_text(encoding="utf-8"))
    for case in results["cases"]:
        case.pop("case", None)
    out.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--venvs", type=Path, default=Path.home() / ".cache" / "tcg-oracle" / "phase-rs")
    ap.add_argument("--release", action="append", help=f"only these releases (default: {', '.join(RELEASES)})")
    args = ap.parse_args(argv)
    for release in args.release or RELEASES:
        env = venv(args.venvs, release)
        for ruleset in RULESETS:
            print(f"phase-python {release} {ruleset or 'cr-20231117'}: {run(env, release, ruleset).name}")
    newest = venv(args.venvs, RELEASES[-1])
    for ruleset in RULESETS:
        runs = [str(results_file(r, ruleset).relative_to(ROOT)) for r in RELEASES if results_file(r, ruleset).exists()]
        page = HERE / f"history{'.' + ruleset if ruleset else ''}.html"
        subprocess.run([str(newest / "bin" / "tcg-oracle"), "report", *runs, "--out", str(page.relative_to(ROOT))],
                       cwd=ROOT, check=True)
        print(f"history {ruleset or 'cr-20231117'}: {page.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
