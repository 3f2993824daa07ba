"""Fault injection, what is at an output path: a device, a FIFO or a symlink is kept (written to, or its
target written), never replaced by a regular file; new files honour the umask; the outputs of fuzz, mutants
and prove are checked before the work, and fuzz never overwrites a saved case."""

from __future__ import annotations

import os
import stat
import threading

import pytest

from oracle.outputs import write_atomic, write_new


def test_a_new_output_honours_the_umask(tmp_path):
    """Defect 1: every output was mode 0600 whatever the umask (a published report answered 403)."""
    old = os.umask(0o022)
    try:
        path = write_atomic(tmp_path / "report.html", "<html></html>")
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644


def test_an_existing_output_keeps_its_mode(tmp_path):
    path = tmp_path / "r.json"
    path.write_text("{}")
    path.chmod(0o640)
    write_atomic(path, "[]")
    assert stat.S_IMODE(path.stat().st_mode) == 0o640 and path.read_text() == "[]"


def test_a_symlink_output_writes_its_target_and_stays_a_link(tmp_path):
    real = tmp_path / "published" / "report.html"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "report.html"
    link.symlink_to(real)
    write_atomic(link, "new")
    assert link.is_symlink() and real.read_text() == "new"
    assert not list(tmp_path.glob(".*.tmp")) and not list(real.parent.glob(".*.tmp"))


def test_a_dangling_symlink_output_is_refused_clearly(tmp_path):
    from oracle.outputs import unwritable

    link = tmp_path / "r.json"
    link.symlink_to(tmp_path / "nowhere" / "r.json")
    assert "symlink" in (unwritable(link) or "")


def test_a_fifo_output_is_written_to_not_replaced(tmp_path):
    fifo = tmp_path / "junit.xml"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()), daemon=True)
    reader.start()
    write_atomic(fifo, "<testsuites/>")
    reader.join(5)
    assert got == [b"<testsuites/>"] and stat.S_ISFIFO(fifo.lstat().st_mode)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="making a device node needs root")
def test_a_device_output_is_written_to_not_replaced(tmp_path):
    """Defect 1: --junit /dev/null run as root replaced the device with a regular file (a copy of
    /dev/null's device numbers in tmp_path stands in for it)."""
    dev = tmp_path / "null"
    os.mknod(dev, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    write_atomic(dev, "<testsuites/>")
    assert stat.S_ISCHR(dev.lstat().st_mode)


@pytest.mark.usefixtures("toy")
def test_run_with_a_fifo_as_junit_keeps_the_fifo(tmp_path):
    from helpers_faults import run

    fifo = tmp_path / "junit.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()), daemon=True)
    reader.start()
    code, results = run(tmp_path, "--junit", str(fifo))
    reader.join(10)
    assert results is not None and stat.S_ISFIFO(fifo.lstat().st_mode) and got and b"<testsuites" in got[0]


def test_write_new_never_overwrites(tmp_path):
    """Defect 21: fuzz overwrote an existing case file of the same name in the save folder."""
    first = write_new(tmp_path, "fuzz.case", ".yaml", "one")
    second = write_new(tmp_path, "fuzz.case", ".yaml", "two")
    assert first.read_text() == "one" and second.read_text() == "two" and first != second
    assert second.name == "fuzz.case-2.yaml"


def _usage_before_work(capsys, argv, flag, monkeypatch, work):
    """The command exits 2 naming the flag, and ``work`` (what it would do first) is never called."""
    from oracle.cli import main

    called: list[bool] = []
    monkeypatch.setattr(*work, lambda *a, **k: called.append(True))
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2 and flag in err and "Traceback" not in err and not called


def test_fuzz_save_failures_is_checked_before_the_campaign(tmp_path, capsys, monkeypatch):
    """Defect 20: a bad --save-failures gave a traceback after the whole campaign."""
    pytest.importorskip("hypothesis")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    import oracle.fuzz

    _usage_before_work(capsys, ["fuzz", "--game", "ijinden", "--examples", "1", "--save-failures",
                                str(blocker / "sub")], "--save-failures", monkeypatch, (oracle.fuzz, "_run"))


def test_mutants_results_is_checked_before_the_mutants_run(tmp_path, capsys, monkeypatch):
    import oracle.mutants.kill

    _usage_before_work(capsys, ["mutants", "--game", "ijinden", "--results", str(tmp_path)], "--results",
                       monkeypatch, (oracle.mutants.kill, "run_mutants"))


def test_prove_json_is_checked_before_the_proofs(tmp_path, capsys, monkeypatch):
    pytest.importorskip("z3")
    import oracle.smt.prove

    _usage_before_work(capsys, ["prove", "--game", "ijinden", "--max-cards", "1", "--json", str(tmp_path)],
                       "--json", monkeypatch, (oracle.smt.prove, "run"))
