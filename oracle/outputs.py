"""Every file tcg-oracle writes (results, report, JUnit, baseline, merged results) goes through here.

- :func:`write_atomic`: a unique temporary file in the target's folder, flushed and fsynced, then
  ``os.replace``-d over the target, with the stop signals held meanwhile. A reader (or a concurrent run
  writing the same path) sees the old file or the new one, never a mix; a signal arrives after the file
  is in place, and an error leaves the old file and no stray temporary.
  What is at the path is kept (docs/faults.md): a new file gets ``0666 & ~umask`` (an existing one keeps
  its mode); a symlink is followed and its target replaced atomically beside the target (the link
  stays); a device or a FIFO (``/dev/null``, ``/dev/stdout``, a named pipe) is written directly, never
  replaced by a regular file.
- :func:`unwritable`: why a path cannot be written (checked before a run starts, so a bad ``--results``
  costs a usage error, not the run).
"""

from __future__ import annotations

import json
import os
import signal
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from .errors import OutputError


STOP_SIGNALS = tuple(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n))



def write_atomic(path: str | Path, data: str | bytes) -> Path:
    """Write ``data`` (text as UTF-8) to ``path`` atomically; the folder is made when missing."""
    path = Path(path)
    reason = unwritable(path)
    if reason:
        raise OutputError(f"{path}: {reason}")
    payload = data.encode("utf-8") if isinstance(data, str) else data
    target = Path(os.path.realpath(path)) if path.is_symlink() else path  # the link stays; its target is written
    if target.exists() and not target.is_file():  # a device, a FIFO: written to, never replaced
        with _stop_signals_held(), open(target, "wb") as f:
            f.write(payload)
        return path
    target.parent.mkdir(parents=True, exist_ok=True)
    mode = _mode_for(target)
    with _stop_signals_held():
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        try:
            os.fchmod(fd, mode)  # mkstemp makes 0600; an output is as readable as any file the user makes
            with os.fdopen(fd, "wb") as f:
                f.write(payload)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, target)
        except BaseException:  # an error or an interrupt mid-write: the old file stays, the temporary goes
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    return path


def _mode_for(target: Path) -> int:
    """The permission bits of the file written at ``target``: an existing file's own; else what ``open``
    would give a new file (``0666`` less the umask)."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


@contextmanager
def _stop_signals_held() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP are noted while one file is written and renamed, and raised again right
    after, to whatever handled them before: a signal whose default action kills the process (``merge``,
    ``report``) cannot leave a temporary file behind or a target half-replaced. (Python handlers, not a
    signal mask: a mask holds a signal only from the thread that sets it.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    noted: list[int] = []
    old = {s: signal.getsignal(s) for s in STOP_SIGNALS}
    for s in STOP_SIGNALS:
        signal.signal(s, lambda signum, frame: noted.append(signum))
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h if h is not None else signal.SIG_DFL)
        for signum in noted:
            signal.raise_signal(signum)


def write_json(path: str | Path, data: Any) -> Path:
    return write_atomic(path, json.dumps(data, ensure_ascii=False, indent=1))


def unwritable(path: str | Path) -> str | None:
    """Why ``path`` cannot be written as a file (``None`` when it can): a folder, a missing folder that
    cannot be made, a parent that is a file, no permission."""
    path = Path(path)
    if str(path) in ("", "."):
        return "no file name given"
    if path.is_dir():
        return "is a directory; give a file name"
    if path.is_symlink() and not path.exists():
        return f"is a symlink to {os.readlink(path)}, which does not exist"
    if path.exists() and not os.access(path, os.W_OK):
        return "permission denied (the file is read-only)"
    parent = path.parent
    while not parent.exists():
        if parent == parent.parent:
            break
        parent = parent.parent
    if parent.exists() and not parent.is_dir():
        return f"{parent} is a file, not a folder"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"permission denied: cannot create files in {parent}"
    return None


def unwritable_folder(path: str | Path) -> str | None:
    """Why files cannot be made in folder ``path`` (``None`` when they can; a missing folder that can be
    made is fine): a file in its place, a file as a parent, no permission."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        return "is a file, not a folder"
    return unwritable(path / "x")


def write_new(folder: str | Path, stem: str, suffix: str, data: str) -> Path:
    """Write ``data`` to a new file ``folder/stem+suffix`` -- or ``stem-2+suffix``, ``stem-3`` ... when that
    name is taken: a file already there is never overwritten (``O_EXCL``). The folder is made when missing."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    payload = data.encode("utf-8")
    for n in range(1, 10_000):
        path = folder / (f"{stem}{suffix}" if n == 1 else f"{stem}-{n}{suffix}")
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies
        except FileExistsError:
            continue
        with _stop_signals_held(), os.fdopen(fd, "wb") as f:
            f.write(payload)
        return path
    raise OutputError(f"{folder}: 9,999 files named {stem}*{suffix} already; clear the folder")
