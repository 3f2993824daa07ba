"""Fault injection, what a case file is on disk: a file past the size limit is refused from its size
(never read whole), a FIFO or a device named ``*.yaml`` is a located error (never waited on, never read
without end), and a symlink out of the suite folder is refused unread -- its text is never echoed."""

from __future__ import annotations

import os
import threading

import pytest
from test_faults_loader import BASE

from oracle.cli import main
from oracle.loader import load_suite


def _errors(folder):
    suite = load_suite([folder])
    return suite, {os.path.basename(e.path): str(e) for e in suite.errors}


def test_a_file_past_the_size_limit_is_refused_from_its_size_not_read(tmp_path, monkeypatch):
    """Defect 4: a 1.5 GB case file was read whole first (MemoryError, nothing written). A sparse file of
    2 GB costs no disk; reading it is forbidden by the test."""
    big = tmp_path / "big.yaml"
    with open(big, "wb") as f:
        f.truncate(2 * 1024 ** 3)
    (tmp_path / "good.yaml").write_text(BASE)
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: real_read(fd, min(n, 1 << 20)) if n <= 4_000_001 else
                        pytest.fail(f"a read of {n} bytes"))
    suite, errors = _errors(tmp_path)
    assert "2,147,483,648 bytes; the limit is 1,000,000 characters" in errors["big.yaml"]
    assert [lc.case.id for lc in suite.cases] == ["faults.base"]


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_a_fifo_or_a_device_named_yaml_is_a_located_error(tmp_path, kind):
    """Defect 4: a FIFO named *.yaml hung the run; a symlink to /dev/zero ended in MemoryError."""
    odd = tmp_path / "odd.yaml"
    if kind == "fifo":
        os.mkfifo(odd)
    else:
        odd.symlink_to("/dev/zero")
    (tmp_path / "good.yaml").write_text(BASE)
    done: list = []
    worker = threading.Thread(target=lambda: done.append(_errors(tmp_path)), daemon=True)
    worker.start()
    worker.join(60)
    assert done, "the loader waited on the file"
    suite, errors = done[0]
    if kind == "fifo":
        assert "is not a regular file (a FIFO)" in errors["odd.yaml"]
    else:  # /dev/zero is outside the suite folder: refused before it is even opened
        assert "outside the suite folder" in errors["odd.yaml"]
    assert len(suite.cases) == 1


def test_a_fifo_named_explicitly_is_a_located_error(tmp_path):
    odd = tmp_path / "odd.yaml"
    os.mkfifo(odd)
    suite = load_suite([odd])
    assert "is not a regular file (a FIFO)" in str(suite.errors[0])


SECRET = "DATABASE_PASSWORD: hunter2-secret\nAPI_KEY: s3cr3t-value\n"


@pytest.mark.parametrize("name", ["leak.yaml", "ijinden/rules.yaml", "ijinden/cards.yaml"])
def test_a_symlink_out_of_the_suite_folder_is_refused_and_never_echoed(tmp_path, capsys, name):
    """Defect 5: a case or catalog file symlinked to an arbitrary file (a .env) had its lines echoed as
    "field names" in the console, results.json and the report."""
    secret = tmp_path / "outside" / ".env"
    secret.parent.mkdir()
    secret.write_text(SECRET)
    suite_dir = tmp_path / "suite"
    (suite_dir / "ijinden").mkdir(parents=True)
    (suite_dir / "ok.yaml").write_text(BASE)
    (suite_dir / name).symlink_to(secret)
    out, report = tmp_path / "r.json", tmp_path / "r.html"
    code = main(["run", "--cases", str(suite_dir), "--results", str(out), "--report", str(report), "--quiet"])
    captured = capsys.readouterr()
    assert code == 2
    for text in (captured.out, captured.err, out.read_text(), report.read_text()):
        assert "hunter2" not in text and "DATABASE_PASSWORD" not in text and "API_KEY" not in text
    assert "outside the suite folder" in captured.err


def test_a_symlink_inside_the_suite_folder_is_followed(tmp_path):
    suite_dir = tmp_path / "suite"
    (suite_dir / "shared").mkdir(parents=True)
    (suite_dir / "shared" / "base.yml").write_text(BASE)
    (suite_dir / "link.yaml").symlink_to(suite_dir / "shared" / "base.yml")
    suite = load_suite([suite_dir])
    assert not suite.errors and [lc.case.id for lc in suite.cases] == ["faults.base"]
