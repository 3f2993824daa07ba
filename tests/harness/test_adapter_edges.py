"""Edges of the ``cmd:`` adapter: an engine behind a wrapper that starts a helper process."""

from __future__ import annotations

import os
import sys
import textwrap
import time
from pathlib import Path

import pytest

from oracle.core.errors import EngineError
from oracle.harness.adapters import SubprocessEngine
from oracle.model import CaseRequest

HELLO = ('{"type": "hello", "protocol_version": 1, "schema_version": 1, '
         '"engine": {"name": "wrapped", "version": "1"}, "games": ["toy"]}')


def _alive(pid: int) -> bool:
    """Running (a zombie, killed but not yet reaped by its new parent, counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads process states from /proc")
def test_a_timeout_stops_the_engines_helper_processes_too(tmp_path):
    """A wrapper (a shell script, ``npx``, ``cargo run``) that starts the real engine as its child: after a
    timeout the whole engine is stopped, not only the wrapper, or every hung case leaves a process behind."""
    pidfile = tmp_path / "helper.pid"
    engine = tmp_path / "engine.py"
    engine.write_text(textwrap.dedent(f"""
        import subprocess, sys, time
        helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        open({str(pidfile)!r}, "w").write(str(helper.pid))
        print({HELLO!r}, flush=True)
        sys.stdin.readline()
        time.sleep(600)  # hangs on the first case
    """))
    eng = SubprocessEngine([sys.executable, str(engine)])
    try:
        eng.hello()
        helper = int(pidfile.read_text())
        assert _alive(helper)
        request = CaseRequest(id="t", game="toy", ruleset="r", setup={"active": "a", "players": {"a": {}}},
                              script=[], cards={})
        with pytest.raises(EngineError, match="timeout"):
            eng.run_case(request, timeout=0.3)
        for _ in range(100):  # SIGKILL is delivered asynchronously: wait for it, do not time it
            if not _alive(helper):
                break
            time.sleep(0.05)
        assert not _alive(helper), "the engine's helper process survived the timeout"
    finally:
        eng.close()
        try:
            os.kill(int(pidfile.read_text()), 9)
        except (OSError, ValueError):
            pass


class _InterruptedOnSecondCase:
    """The toy engine, in process; Ctrl-C arrives while it plays its second case."""

    def __init__(self) -> None:
        import toy_py_engine

        self.inner, self.n = toy_py_engine.make(), 0

    def hello(self):
        return self.inner.hello()

    def run_case(self, request, timeout=None):
        self.n += 1
        if self.n == 2:  # a real Ctrl-C (an engine's own KeyboardInterrupt is its error: it costs the case)
            import signal
            import time

            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)
        return self.inner.run_case(request, timeout)


def make_interrupted():
    return _InterruptedOnSecondCase()


@pytest.mark.usefixtures("toy")
def test_an_interrupted_run_is_never_as_expected_even_with_a_baseline(tmp_path):
    from helpers import run_cli

    base = tmp_path / "baseline.yaml"
    code, _ = run_cli(tmp_path, "--engine", "py:toy_py_engine:make", "--baseline", str(base), "--update-baseline")
    assert code == 0
    code, res = run_cli(tmp_path, "--engine", "py:test_adapter_edges:make_interrupted", "--baseline", str(base))
    assert res["partial"] is True and len(res["cases"]) == 1
    assert code == 1, "a partial run has no regression among the cases it ran, but it is not 'as expected'"


@pytest.mark.usefixtures("toy")
def test_an_interrupted_run_does_not_overwrite_the_baseline(tmp_path):
    from helpers import run_cli

    base = tmp_path / "baseline.yaml"
    code, _ = run_cli(tmp_path, "--engine", "py:toy_py_engine:make", "--baseline", str(base), "--update-baseline")
    before = base.read_text()
    code, res = run_cli(tmp_path, "--engine", "py:test_adapter_edges:make_interrupted", "--baseline", str(base),
                        "--update-baseline")
    assert res["partial"] is True and code == 1
    assert base.read_text() == before, "a baseline of the cases an interrupted run reached would lose the rest"
