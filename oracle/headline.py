"""The one headline of a run's counts, the same in the terminal, the report and ``merge``: how many passed
of how many were run, and how many were skipped -- a pass rate alone hides the skips (37 passing of 132
cases, 94 of them skipped, is "97.4 %")."""

from __future__ import annotations

from typing import Mapping, NamedTuple


class Headline(NamedTuple):
    passed: int
    run: int       # checked: neither skipped nor not checkable
    skipped: int
    not_checkable: int
    total: int

    @property
    def rate(self) -> float | None:
        """pass / run, in percent; ``None`` when nothing was run."""
        return 100.0 * self.passed / self.run if self.run else None

    def text(self) -> str:
        """``37 pass of 38 run (97.4%) · 94 skipped · 132 cases`` (not checkable, when some are)."""
        rate = self.rate
        head = f"{self.passed} pass of {self.run} run" + (f" ({pct(rate)})" if rate is not None else "")
        parts = [head, f"{self.skipped} skipped"]
        if self.not_checkable:
            parts.append(f"{self.not_checkable} not checkable")
        parts.append(f"{self.total} case{'' if self.total == 1 else 's'}")
        return " · ".join(parts)


def headline(counts: Mapping[str, int]) -> Headline:
    """The headline of counts per status."""
    total = sum(counts.values())
    skipped, nc = counts.get("skip", 0), counts.get("not_checkable", 0)
    return Headline(counts.get("pass", 0), total - skipped - nc, skipped, nc, total)


def pct(value: float) -> str:
    """``97.4%``, ``100%``."""
    return f"{value:.1f}".removesuffix(".0") + "%"
