"""Headless Chromium for the report's browser test and screenshot (Debian's ``chromium``; no download).

``python -m oracle.reports.browser REPORT.html --png reports/screenshot.png [--fragment status=fail]``
keeps a screenshot of a report, e.g. for the README.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

INSTALL_HINT = "install Debian's chromium: apt-get update && apt-get install -y chromium"
_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
          "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
          "--hide-scrollbars", "--mute-audio")


def find_chromium() -> str | None:
    """``/usr/bin/chromium`` (or ``$CHROMIUM``, or chromium on PATH), None when absent."""
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def _url(path: Path, fragment: str | None) -> str:
    return path.resolve().as_uri() + (f"#{fragment}" if fragment else "")


def _run(args: list[str], timeout: float) -> subprocess.CompletedProcess:
    exe = find_chromium()
    if exe is None:
        raise FileNotFoundError(f"chromium not found; {INSTALL_HINT}")
    with tempfile.TemporaryDirectory(prefix="tcg-oracle-chromium-") as profile:
        return subprocess.run([exe, *_FLAGS, f"--user-data-dir={profile}", *args], capture_output=True,
                              timeout=timeout, check=False)


def dump_dom(path: Path, fragment: str | None = None, timeout: float = 60) -> str:
    """The DOM of the page after its scripts ran (``--dump-dom``)."""
    proc = _run(["--virtual-time-budget=2000", "--dump-dom", _url(path, fragment)], timeout)
    if proc.returncode != 0 or not proc.stdout:
        raise RuntimeError(f"chromium --dump-dom failed ({proc.returncode}): {proc.stderr.decode(errors='replace')[-800:]}")
    return proc.stdout.decode("utf-8", errors="replace")


def screenshot(path: Path, png: Path, fragment: str | None = None, size: str = "1400,1800",
               timeout: float = 60) -> Path:
    """A PNG of the top of the page (``fragment`` without scrolling: the report honours ``noscroll``)."""
    png = Path(png).resolve()
    png.parent.mkdir(parents=True, exist_ok=True)
    frag = f"{fragment}&noscroll" if fragment else None
    proc = _run([f"--window-size={size}", "--virtual-time-budget=2000", f"--screenshot={png}", _url(path, frag)],
                timeout)
    if proc.returncode != 0 or not png.exists():
        raise RuntimeError(f"chromium --screenshot failed ({proc.returncode}): {proc.stderr.decode(errors='replace')[-800:]}")
    return png


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m oracle.reports.browser", description=__doc__.split("\n\n")[0])
    p.add_argument("report", type=Path)
    p.add_argument("--png", type=Path, required=True)
    p.add_argument("--fragment", help="filters as in the report's URL, e.g. status=fail or case=ID")
    p.add_argument("--size", default="1400,1800", help="window width,height")
    a = p.parse_args(argv)
    print(screenshot(a.report, a.png, a.fragment, a.size))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
