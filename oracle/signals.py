"""SIGINT, SIGTERM and SIGHUP during a run: stop like Ctrl-C, once, and never while writing.

CI systems cancel a job with SIGTERM (SIGHUP when a terminal goes away). During a run (:meth:`StopSignals.run`)
the first of these signals raises :class:`Interrupted` (a ``KeyboardInterrupt``) in the main thread, so
the run stops where Ctrl-C would stop it and keeps the cases run so far; any later signal is only noted,
so a second Ctrl-C cannot destroy what the first saved. While the engine is closed and the outputs are
written (:meth:`StopSignals.deferred`) signals are only noted: the files are finished first.

Handlers can only be installed from the main thread; elsewhere (a worker thread) both are no-ops.
"""

from __future__ import annotations

import os
import signal
import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator

SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


class Interrupted(KeyboardInterrupt):
    """A stop signal arrived; ``signame`` says which."""

    def __init__(self, signame: str) -> None:
        super().__init__(f"interrupted by {signame}")
        self.signame = signame


class StopSignals:
    """The stop signals received during one command."""

    def __init__(self) -> None:
        self.received: list[str] = []
        self.raised = False  # Interrupted was raised once: later signals are only noted

    @property
    def first(self) -> str | None:
        return self.received[0] if self.received else None

    def _note(self, signum: int) -> str:
        name = signal.Signals(signum).name
        self.received.append(name)
        return name

    def _raise_first(self, signum: int, frame: Any) -> None:
        name = self._note(signum)
        if not self.raised:
            self.raised = True
            raise Interrupted(self.first or name)
        _say(f"tcg-oracle: {name} again: already stopping, writing the partial results")

    def _only_note(self, signum: int, frame: Any) -> None:
        name = self._note(signum)
        _say(f"tcg-oracle: {name}: the outputs are being written; stopping right after")

    @contextmanager
    def run(self) -> Iterator[StopSignals]:
        """The first stop signal raises :class:`Interrupted`; later ones are noted. A signal noted before
        (while the handlers were being swapped, or during loading) raises as soon as this begins: it is
        never only noted while the work goes on to the end."""
        with _handlers(self._raise_first):
            if self.received and not self.raised:
                self.raised = True
                raise Interrupted(self.first)  # type: ignore[arg-type]
            yield self

    @contextmanager
    def deferred(self) -> Iterator[StopSignals]:
        """Stop signals are noted, never raised (closing the engine, writing the outputs)."""
        with _handlers(self._only_note):
            yield self


def _say(message: str) -> None:
    """A line on stderr from a signal handler: written to the file descriptor directly (``print`` could be
    a reentrant call into a stream the interrupted code was writing)."""
    try:
        os.write(2, (message + "\n").encode("utf-8", "replace"))
    except OSError:
        pass


@contextmanager
def _handlers(handler: Callable[[int, Any], None]) -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = {s: signal.getsignal(s) for s in SIGNALS}
    for s in SIGNALS:
        signal.signal(s, handler)
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h if h is not None else signal.SIG_DFL)
