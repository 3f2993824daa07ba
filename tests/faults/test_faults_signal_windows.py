"""Fault injection, signals at the edges of a run: while the cases load, and in the moment the run's
handler replaces the one that only notes (the signal must stop the run, never be only noted)."""

from __future__ import annotations

import os
import signal

import pytest
from helpers_faults import run

from oracle.signals import Interrupted, StopSignals

pytestmark = pytest.mark.usefixtures("toy")


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGINT"])
def test_a_signal_while_the_cases_load_writes_partial_results(tmp_path, monkeypatch, capsys, signame):
    """Defect 6: a signal while cases were loading killed the process (exit -15) or printed a
    KeyboardInterrupt traceback, and nothing was written."""
    import oracle.loader

    real = oracle.loader.load_suite

    def load_and_signal(*a, **k):
        os.kill(os.getpid(), getattr(signal, signame))
        return real(*a, **k)

    monkeypatch.setattr(oracle.loader, "load_suite", load_and_signal)
    code, res = run(tmp_path, junit=True)
    err = capsys.readouterr().err
    assert code == 1 and res["partial"] is True and res["cases"] == []
    assert signame in res["aborted"] and "loading" in res["aborted"]
    assert "Traceback" not in err and "while the cases were loading" in err
    assert (tmp_path / "junit.xml").is_file()


def test_a_signal_noted_before_the_run_handler_stops_the_run_at_once():
    """Defect 7: a signal that arrived just as the handler was installed was only noted: the run went on
    to the end, a second SIGTERM was ignored too."""
    stop = StopSignals()
    with stop.deferred():
        os.kill(os.getpid(), signal.SIGTERM)  # noted by the deferred handler (the moment of the swap)
        with pytest.raises(Interrupted, match="SIGTERM"):
            with stop.run():
                pytest.fail("the run began although a signal had arrived")
    assert stop.received == ["SIGTERM"]


def test_the_first_signal_during_the_run_raises_once_and_later_ones_are_noted():
    stop = StopSignals()
    with stop.deferred():
        with pytest.raises(Interrupted):
            with stop.run():
                os.kill(os.getpid(), signal.SIGINT)
                for _ in range(10_000_000):  # the handler runs between bytecodes
                    pass
        assert stop.raised
        with stop.run():  # already raised: another signal is only noted
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(1000):
                pass
    assert stop.received == ["SIGINT", "SIGTERM"]


def test_a_signal_after_the_last_case_says_the_results_are_complete(tmp_path, monkeypatch, capsys):
    """Defect 7: stderr said "partial" while the results said complete."""
    import oracle.cli

    real = oracle.cli._close

    def close_and_signal(engine, stop):
        os.kill(os.getpid(), signal.SIGTERM)
        return real(engine, stop)

    monkeypatch.setattr(oracle.cli, "_close", close_and_signal)
    code, res = run(tmp_path)
    err = capsys.readouterr().err
    assert res["partial"] is False and "partial" not in err and "the results are complete" in err and code == 1
