"""Shared fixtures. Hypothesis profiles are sized for a 2-core machine."""

from __future__ import annotations

try:
    # tcg-fast by default; tcg-ci (Hypothesis's own ci profile, sized for our budget) when CI is set; deep or
    # any other by TCG_ORACLE_HYPOTHESIS_PROFILE; the example database by TCG_ORACLE_HYPOTHESIS_DB
    from oracle.generators.profiles import register

    register()
except ImportError:  # pragma: no cover - hypothesis is a test dependency
    pass
