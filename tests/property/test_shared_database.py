"""Two workers sharing one Hypothesis example database (a directory, as HypoFuzz workers on several machines
would through a shared path, or Redis through ``hypothesis[redis]``): a failure the first finds is replayed
by the second, which generates nothing itself (profile ``replay``); with an empty database it finds nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _worker(db: Path, profile: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "TCG_ORACLE_FUZZ_ENGINE": "py:misreading_engine:make", "TCG_ORACLE_HYPOTHESIS_DB": str(db),
           "TCG_ORACLE_HYPOTHESIS_PROFILE": profile,
           "PYTHONPATH": os.pathsep.join([str(ROOT / "tests" / "property"), os.environ.get("PYTHONPATH", "")])}
    env.pop("CI", None)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", "-n", "0",
                           "tests/property/test_differential.py", "-k", "ijinden"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_a_failure_found_by_one_worker_is_replayed_by_another(tmp_path):
    shared, empty = tmp_path / "shared-db", tmp_path / "empty-db"
    nothing = _worker(empty, "replay")
    assert nothing.returncode == 0, "with nothing in its database the replaying worker finds nothing\n" + nothing.stdout
    finder = _worker(shared, "deep")
    assert finder.returncode == 1 and "final cards" in finder.stdout, finder.stdout[-3000:]
    assert any(shared.rglob("*")), "the failure is saved in the shared database"
    replayer = _worker(shared, "replay")
    assert replayer.returncode == 1 and "final cards" in replayer.stdout, replayer.stdout[-3000:]
