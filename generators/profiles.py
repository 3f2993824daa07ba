"""Hypothesis profiles for tcg-oracle's properties and differential tests.

- ``tcg-fast`` (default): small and quick, for the test suite on two cores.
- ``tcg-ci`` (loaded when ``CI`` is set): Hypothesis's own ``ci`` profile (derandomized, no database) with
  tcg-oracle's example count; built on it, never redefining it.
- ``deep``: long runs (HypoFuzz, nightly): many examples, the database kept.
- ``replay``: generate nothing, only replay what the example database holds (another worker's failures).

``TCG_ORACLE_HYPOTHESIS_DB`` names the example database directory (CI keeps it between runs; several
workers, even on several machines through a shared directory, pool what each found); unset, the tests use
Hypothesis's default (``.hypothesis/examples``) and the ``ci`` profile none. ``TCG_ORACLE_HYPOTHESIS_PROFILE``
picks a profile by name.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, Phase, settings
from hypothesis.database import DirectoryBasedExampleDatabase

DB_ENV = "TCG_ORACLE_HYPOTHESIS_DB"
PROFILE_ENV = "TCG_ORACLE_HYPOTHESIS_PROFILE"
SLOW = [HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large]
"""Playing a case is slower than Hypothesis expects of a test, and some boards are rejected."""


def database():
    """The example database named by ``TCG_ORACLE_HYPOTHESIS_DB``, or None (Hypothesis's default)."""
    path = os.environ.get(DB_ENV)
    return DirectoryBasedExampleDatabase(path) if path else None


def register() -> str:
    """Register the profiles and load the one this environment asks for; returns its name."""
    db = database()
    extra = {"database": db} if db is not None else {}
    settings.register_profile("tcg-fast", max_examples=25, deadline=None, suppress_health_check=SLOW, **extra)
    settings.register_profile("tcg-ci", parent=settings.get_profile("ci"), max_examples=40,
                              suppress_health_check=SLOW, **extra)
    settings.register_profile("deep", max_examples=5_000, deadline=None, suppress_health_check=SLOW, **extra)
    settings.register_profile("replay", deadline=None, suppress_health_check=SLOW, **extra,
                              phases=(Phase.explicit, Phase.reuse, Phase.shrink))
    name = os.environ.get(PROFILE_ENV) or ("tcg-ci" if os.environ.get("CI") else "tcg-fast")
    settings.load_profile(name)
    return name
