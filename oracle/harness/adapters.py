"""Engines under test: ``py:package.module:factory`` (in process) and ``cmd:"program args"`` (JSON lines).

A ``cmd:`` engine is one persistent process started without a shell. Each case has a timeout; a hang,
a crash or a reply that breaks the protocol costs that case (status ``error``, with the offending bytes
or the engine's stderr tail) and the engine is restarted for the next case. An engine that cannot be
started or fails its handshake is an :class:`EngineStartError` (exit code 3).

An engine whose hello lists the capability ``pipeline`` answers its requests in the order it reads them,
one line at a time; the runner then keeps up to :data:`PIPELINE_WINDOW` requests in flight
(:meth:`SubprocessEngine.prefetch`), so the engine computes the next case while the harness checks the last.
A reply is matched to the oldest request in flight (its id must be that request's); a hang, crash or
protocol breach costs that request only, and the requests behind it are sent again to the restarted engine.
"""

from __future__ import annotations

import importlib
import os
import selectors
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from typing import Any, TypeVar

from pydantic import ValidationError

from ..errors import EngineError, EngineSpecError, EngineStartError, ProtocolError, Signal
from ..model import CaseReply, CaseRequest, Hello, LegalityReply, LegalityRequest
from . import jsonl
from ..limits import LINE_MAX_BYTES
from ..text import printable, trim_text
from .engine import Engine, ReferenceEngine

M = TypeVar("M", CaseReply, LegalityReply)
START_TIMEOUT = 20.0
PIPELINE_WINDOW = 8  # requests in flight to an engine that declares ``pipeline``
STDERR_KEEP = 8192
STDERR_SHOW = 800


def _dies_with_harness():
    """What the child runs before the engine starts so that it dies with the harness (Linux's parent-death
    signal), or None where that cannot be had.

    The engine runs in a session of its own (a Ctrl-C on the terminal must reach the harness only), so when the
    harness is killed outright (SIGKILL: no handler runs, no ``bye`` is written) nothing else stops an engine
    that is busy or ignores its closed stdin. The signal is tied to the *thread* that starts the process, so it
    is asked only from the main thread (a worker thread that ends would take the engine with it); elsewhere, and
    off Linux, an engine that ignores its closed stdin outlives a killed harness (docs/authors/harness.md)."""
    if not sys.platform.startswith("linux") or threading.current_thread() is not threading.main_thread():
        return None
    import ctypes

    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):  # pragma: no cover - a libc without prctl
        return None
    parent = os.getpid()
    pr_set_pdeathsig, kill = 1, int(signal.SIGKILL)

    def arm() -> None:  # runs in the child between fork and exec: no allocation, no lock
        prctl(pr_set_pdeathsig, kill)
        if os.getppid() != parent:  # the harness died before the signal was armed
            os.kill(os.getpid(), kill)

    return arm


class _Timeout(Signal):
    pass


class _WriteTimeout(_Timeout):
    """The engine did not read a request within the timeout (its stdin pipe stayed full)."""


class _Eof(Signal):
    def __init__(self, pending: bytes) -> None:
        self.pending = pending


class _StderrTail:
    """Drains the engine's stderr on a thread (so a chatty engine never blocks) and keeps its end."""

    def __init__(self, stream: Any) -> None:
        self._buf = bytearray()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._drain, args=(stream,), daemon=True)
        self._thread.start()

    def _drain(self, stream: Any) -> None:
        try:
            while chunk := stream.read1(65536) if hasattr(stream, "read1") else stream.read(65536):
                with self._lock:
                    self._buf += chunk
                    if len(self._buf) > STDERR_KEEP:
                        del self._buf[:-STDERR_KEEP]
        except (OSError, ValueError):
            pass

    def text(self, wait: float = 0.0) -> str:
        if wait:
            self._thread.join(wait)
        with self._lock:
            data = bytes(self._buf[-STDERR_SHOW:])
        return data.decode("utf-8", "replace").strip()


class SubprocessEngine:
    """The JSON-lines protocol over a child process's stdin and stdout."""

    def __init__(self, argv: list[str], *, start_timeout: float = START_TIMEOUT,
                 cwd: str | None = None, env: dict[str, str] | None = None) -> None:
        if not argv:
            raise EngineSpecError('cmd: needs a program, e.g. cmd:"python my_engine.py"')
        self.argv = list(argv)
        self.start_timeout = start_timeout
        self.cwd, self.env = cwd, env
        self.restarts = 0
        self._proc: subprocess.Popen | None = None
        self._stderr: _StderrTail | None = None
        self._buf = bytearray()
        self._sel: selectors.BaseSelector | None = None
        self._hello: Hello | None = None
        self._busy = False  # a case is in flight (an interrupt came mid-case): close stops it at once
        # requests written and not yet answered, oldest first: (id, how its reply line is read)
        self._in_flight: deque[tuple[str, Any]] = deque()
        self._answered: dict[str, Any] = {}  # id -> the reply read for it, or the error that cost it

    @property
    def command(self) -> str:
        return shlex.join(self.argv)

    # -- lifecycle -------------------------------------------------------------------------
    def hello(self) -> Hello:
        if self._hello is None:
            self._start()
        assert self._hello is not None
        return self._hello

    @property
    def window(self) -> int:
        """How many requests may be in flight at once: :data:`PIPELINE_WINDOW` for an engine that declares
        the capability ``pipeline``, else 1 (one request, then its reply)."""
        return PIPELINE_WINDOW if "pipeline" in self.hello().capabilities else 1

    def _start(self) -> None:
        try:
            proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, bufsize=0, cwd=self.cwd, env=self.env,
                                    start_new_session=True,  # Ctrl-C reaches the harness, not the engine
                                    preexec_fn=_dies_with_harness())
        except FileNotFoundError:
            raise EngineStartError(f"cannot start {self.command!r}: no program {self.argv[0]!r} "
                                   f"(the cmd: spec is split like a shell command but run without a shell; "
                                   f"give a path or a program on PATH)") from None
        except PermissionError:
            raise EngineStartError(f"cannot start {self.command!r}: {self.argv[0]!r} is not executable "
                                   f"(chmod +x it, or name its interpreter: cmd:\"python {self.argv[0]}\")") from None
        except OSError as exc:
            raise EngineStartError(f"cannot start {self.command!r}: {exc}") from None
        self._proc = proc
        self._stderr = _StderrTail(proc.stderr)
        self._buf.clear()
        self._sel = selectors.DefaultSelector()
        assert proc.stdout is not None and proc.stdin is not None
        self._sel.register(proc.stdout, selectors.EVENT_READ)
        os.set_blocking(proc.stdin.fileno(), False)
        try:
            self._busy = True  # not listening for bye until its hello is written
            line = self._readline(time.monotonic() + self.start_timeout)
            self._busy = False
            hello = jsonl.parse_hello(line)
        except _Timeout:
            self._kill()
            raise EngineStartError(f"{self.command!r} wrote no hello line within {self.start_timeout:g} s; an engine "
                                   f"writes its hello as soon as it starts, and flushes stdout"
                                   + self._tail_note()) from None
        except _Eof as eof:
            code = self._kill()
            raise EngineStartError(f"{self.command!r} exited (code {code}) before its hello line"
                                   + (f"; it wrote {jsonl.trim(eof.pending)}" if eof.pending else "")
                                   + self._tail_note()) from None
        except (EngineStartError, ProtocolError) as exc:
            self._kill()
            raise EngineStartError(f"{self.command!r}: {exc}") from None
        self._hello = self._hello or _bounded(hello)

    def _kill(self) -> int | None:
        """Stop the process (it is restarted on the next case); its exit code."""
        proc, self._proc = self._proc, None
        self._busy = False
        self._in_flight.clear()  # unanswered requests are sent again, to the restarted engine, when claimed
        if proc is None:
            return None
        if self._sel is not None:
            self._sel.close()
            self._sel = None
        if proc.poll() is None:
            proc.kill()
        if hasattr(os, "killpg"):  # and what it started (a wrapper's real engine): its session's group
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:  # the group is gone already
                pass
        try:
            code = proc.wait(5)
        except subprocess.TimeoutExpired:  # pragma: no cover
            code = None
        if self._stderr is not None:
            self._stderr.text(wait=1.0)
        for stream in (proc.stdin, proc.stdout):
            try:
                stream.close()  # type: ignore[union-attr]
            except OSError:
                pass
        return code

    def close(self) -> None:
        proc = self._proc
        if proc is None:
            return
        if self._busy or self._in_flight:  # interrupted mid-case, or requests unanswered: no bye
            self._kill()
            return
        try:
            self._write(jsonl.BYE, time.monotonic() + 2)
            proc.stdin.close()  # type: ignore[union-attr]
            proc.wait(2)
        except (OSError, _Timeout, subprocess.TimeoutExpired, ValueError):
            pass
        self._kill()

    # -- one case --------------------------------------------------------------------------
    def run_case(self, request: CaseRequest, timeout: float | None = None) -> CaseReply:
        return self._exchange(request, timeout, jsonl.parse_reply)

    def legality(self, request: LegalityRequest, timeout: float | None = None) -> LegalityReply:
        """A legality query (capability ``legality``): one request line, one reply line."""
        return self._exchange(request, timeout, jsonl.parse_legality)

    def prefetch(self, request: CaseRequest, timeout: float | None = None) -> bool:
        """Write ``request`` now, its reply read when :meth:`run_case` asks for it (capability
        ``pipeline``); ``False`` when the window is full or the engine does not pipeline (nothing written).
        The write is bounded by ``timeout`` like a reply: an engine that stops reading its stdin (a request
        bigger than the pipe's buffer) is stopped, and the request is sent again when its case is claimed."""
        if request.id in self._answered or self._sent(request.id):
            return True
        if len(self._in_flight) >= self.window:
            return False
        try:
            self._send(request, jsonl.parse_reply, timeout)
        except _Timeout:  # half a line may be in the pipe: the engine is stopped (restarted when claimed)
            self._kill()
            return False
        except (_Eof, OSError):  # said when the case is claimed: it is sent again then
            self._in_flight = deque(f for f in self._in_flight if f[0] != request.id)
            return False
        return True

    def _exchange(self, request: Any, timeout: float | None, parse: Any) -> Any:
        """Send ``request`` unless it is in flight already, then read replies (each to the oldest request in
        flight) until its own is read; what happened to it is returned or raised."""
        rid = request.id
        while rid not in self._answered:
            if not self._sent(rid):
                try:
                    self._send(request, parse, timeout)
                except (_Timeout, _Eof, OSError) as exc:
                    self._failed(exc, timeout)
                    continue
            self._read_reply(timeout)
        got = self._answered.pop(rid)
        if isinstance(got, Exception):
            raise got
        return got

    def _sent(self, rid: str) -> bool:
        """Whether request ``rid`` is written and not yet answered."""
        return any(r == rid for r, _ in self._in_flight)

    def _send(self, request: Any, parse: Any, timeout: float | None) -> None:
        if self._proc is None:
            self._start()
            self.restarts += 1
        self._in_flight.append((request.id, parse))
        self._busy = True
        self._write(jsonl.encode(request), time.monotonic() + timeout if timeout else None)

    def _read_reply(self, timeout: float | None) -> None:
        """Read one reply line: the answer of the oldest request in flight. A timeout (counted from now: the
        engine answers in order, so from the previous reply), an end of output or a protocol breach is
        that request's error; the engine is stopped, and the requests behind it are sent again."""
        rid, parse = self._in_flight[0]
        try:
            line = self._readline(time.monotonic() + timeout if timeout else None)
            self._answered[rid] = parse(line, rid)
        except (_Timeout, _Eof, OSError, ProtocolError) as exc:
            self._failed(exc, timeout)
            return
        self._in_flight.popleft()
        self._busy = bool(self._in_flight)

    def _failed(self, exc: BaseException, timeout: float | None) -> None:
        """The oldest request in flight is lost with the engine (stopped here; restarted for the next)."""
        rid = self._in_flight[0][0]
        if isinstance(exc, _Timeout):
            self._kill()
            what = "it read no request and wrote no reply" if isinstance(exc, _WriteTimeout) else "no reply"
            err: Exception = EngineError(f"timeout: {what} within {timeout:g} s; the engine was stopped and is "
                                         f"restarted for the next case" + self._tail_note())
        elif isinstance(exc, (_Eof, OSError)):
            how = self._how_it_ended()
            pending = getattr(exc, "pending", b"")
            err = EngineError(f"the engine {how} during the case; it is restarted for the next case"
                              + (f"; it wrote {jsonl.trim(pending)}" if pending else "") + self._tail_note())
        else:
            self._kill()
            err = ProtocolError(f"{exc} (the engine is restarted for the next case)")
        self._answered[rid] = err
        self._in_flight.clear()

    def _how_it_ended(self) -> str:
        """After end of output: "exited (code N)" when the process ended by itself (given a moment), else
        "closed its stdout" (it was still running; it is stopped)."""
        proc = self._proc
        try:
            code = proc.wait(0.5) if proc is not None else None
        except subprocess.TimeoutExpired:
            self._kill()
            return "closed its stdout (it was still running, and was stopped)"
        self._kill()
        return f"exited (code {code})"

    def _tail_note(self) -> str:
        tail = self._stderr.text(wait=0.2 if self._proc is None else 0.0) if self._stderr else ""
        return f"\n--- engine stderr (tail) ---\n{tail}" if tail else ""

    def _write(self, data: bytes, deadline: float | None) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        fd = self._proc.stdin.fileno()
        view = memoryview(data)
        while view:
            try:
                n = os.write(fd, view)
            except BlockingIOError:
                n = 0
            view = view[n:]
            if view:
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    raise _WriteTimeout
                with selectors.DefaultSelector() as sel:
                    sel.register(fd, selectors.EVENT_WRITE)
                    out = self._proc.stdout
                    sel.register(out, selectors.EVENT_READ)  # replies waiting: read them, or it stops reading
                    for key, _ in sel.select(remaining):
                        if key.fileobj is out:
                            chunk = os.read(out.fileno(), 1 << 16)
                            if not chunk:
                                raise _Eof(bytes(self._buf))
                            self._buf += chunk

    def _readline(self, deadline: float | None) -> bytes:
        assert self._proc is not None and self._proc.stdout is not None and self._sel is not None
        fd = self._proc.stdout.fileno()
        buf = self._buf
        searched = 0  # bytes of buf already known to hold no newline: a long line is scanned once
        while True:
            i = buf.find(b"\n", searched)
            if i >= 0:
                line = bytes(buf[:i])
                del buf[:i + 1]
                searched = 0
                if line.strip():
                    return line
                continue  # tolerate blank lines
            searched = len(buf)
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                raise _Timeout
            if not self._sel.select(remaining):
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                pending = bytes(buf)
                buf.clear()
                raise _Eof(pending)
            buf += chunk
            if len(buf) > LINE_MAX_BYTES:
                buf.clear()
                raise ProtocolError(f"the engine wrote a line longer than {LINE_MAX_BYTES:,} bytes (the limit "
                                          f"of one protocol line)")


class PythonEngine:
    """An in-process engine object from a factory, checked at the boundary like a JSON-lines engine.

    With a timeout each case runs on a worker thread. A thread cannot be killed: a case that hangs is an
    ``error``, its thread is left behind (a daemon), and a fresh instance from the factory plays the next
    case -- the in-process counterpart of restarting a ``cmd:`` engine.
    """

    def __init__(self, make: Any, name: str) -> None:
        self.make, self.name = make, name
        self.inner = make()
        self.restarts = 0

    start_timeout = START_TIMEOUT

    def hello(self) -> Hello:
        box: dict[str, Any] = {}
        inner = self.inner

        def call() -> None:
            try:
                box["hello"] = inner.hello()
            except BaseException as exc:  # handed to the caller's thread below
                box["error"] = exc

        worker = threading.Thread(target=call, name="tcg-oracle hello", daemon=True)
        worker.start()
        worker.join(self.start_timeout)
        if worker.is_alive():  # like a cmd: engine that writes no hello: the run stops (exit 3)
            raise EngineStartError(f"{self.name}: hello() did not return within {self.start_timeout:g} s")
        if "error" in box:  # like a cmd: engine that dies before its hello
            raise EngineStartError(f"{self.name}: hello() raised {_raised(box['error'])}")
        h = box["hello"]
        if not isinstance(h, (Hello, dict)):
            raise EngineStartError(f"{self.name}: hello() returned {type(h).__name__}, not a Hello or a mapping of "
                                   f"the same shape (see `tcg-oracle schema protocol`)")
        try:
            hello = h if isinstance(h, Hello) else Hello.model_validate(h)
        except ValidationError as exc:
            raise EngineStartError(f"{self.name}: hello() returned an invalid hello ({jsonl.first_problem(exc)}); "
                                   f"see `tcg-oracle schema protocol`") from None
        try:
            return _bounded(jsonl.check_hello(hello))  # the checks a cmd: engine's hello line gets
        except EngineStartError as exc:
            raise EngineStartError(f"{self.name}: {exc}") from None

    def run_case(self, request: CaseRequest, timeout: float | None = None) -> CaseReply:
        if timeout:
            reply = self._run_bounded(request, timeout)
        else:
            try:
                reply = self.inner.run_case(request, timeout)
            except SystemExit as exc:
                raise self._exited(exc) from None
            except KeyboardInterrupt as exc:
                if _a_real_signal(exc):
                    raise
                raise _raised_interrupt() from None
        reply = self._validated(reply, CaseReply, "run_case")
        if reply.id != request.id:
            raise ProtocolError(f"{self.name} answered case {reply.id!r} while case {request.id!r} was asked")
        return reply

    def legality(self, request: LegalityRequest, timeout: float | None = None) -> LegalityReply:
        ask = getattr(self.inner, "legality", None)
        if not callable(ask):
            return LegalityReply(id=request.id, error=f"{self.name} declares the legality capability but has "
                                                      f"no legality(request, timeout) method")
        reply = ask(request, timeout) if timeout is None else self._run_bounded(request, timeout, ask)
        reply = self._validated(reply, LegalityReply, "legality")
        if reply.id != request.id:
            raise ProtocolError(f"{self.name} answered legality query {reply.id!r} while {request.id!r} was asked")
        return reply

    def _validated(self, reply: Any, model: type[M], method: str) -> M:
        """What an in-process engine's ``method()`` returned, as ``model``: the model itself, or a mapping of the
        same shape validated into it; anything else is a :class:`ProtocolError` naming the method."""
        if isinstance(reply, model):
            return reply
        if not isinstance(reply, dict):
            raise ProtocolError(f"{self.name}: {method}() returned {type(reply).__name__}, not a {model.__name__} "
                                f"or a mapping of the same shape")
        try:
            return model.model_validate(reply)
        except ValidationError as exc:
            raise ProtocolError(f"{self.name}: {method}() returned a reply that does not match the protocol "
                                f"({jsonl.first_problem(exc)})") from None

    def _exited(self, exc: SystemExit) -> EngineError:
        """``sys.exit()`` inside ``run_case`` costs the case, like a ``cmd:`` engine that exits; a new
        instance from the factory plays the next one."""
        try:
            self.inner = self.make()
            self.restarts += 1
        except Exception as err:  # a factory that fails now cannot restart the engine
            return EngineStartError(f"{self.name}: run_case() called sys.exit({exc.code!r}), and the factory failed "
                                    f"to make a new instance: {_raised(err)}")
        return EngineError(f"the engine called sys.exit({exc.code!r}) during the case; a new instance from the "
                           f"factory plays the next case")

    def _run_bounded(self, request: Any, timeout: float, call: Any = None) -> Any:
        box: dict[str, Any] = {}
        inner = self.inner
        call = call or inner.run_case

        def work() -> None:
            try:
                box["reply"] = call(request, timeout)
            except BaseException as exc:  # handed to the caller's thread below
                box["error"] = exc

        worker = threading.Thread(target=work, name=f"tcg-oracle case {request.id}", daemon=True)
        worker.start()
        worker.join(timeout)
        if worker.is_alive():
            try:
                self.inner = self.make()
            except Exception as exc:  # a factory that fails now cannot restart the engine
                raise EngineStartError(f"{self.name}: timeout on case {request.id}, and the factory failed to "
                                       f"make a new instance: {type(exc).__name__}: {exc}") from None
            self.restarts += 1
            raise EngineError(f"timeout: no reply within {timeout:g} s (in process: the call is abandoned and a "
                              f"new instance from the factory plays the next case)")
        if isinstance(box.get("error"), SystemExit):
            raise self._exited(box["error"])
        if isinstance(box.get("error"), KeyboardInterrupt):  # raised on the worker: never a signal (those reach
            raise _raised_interrupt()                        # the main thread only)
        if "error" in box:
            raise box["error"]
        return box["reply"]

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if close:
            try:
                close()
            except (Exception, SystemExit) as exc:  # said by the caller; the results stay
                raise EngineError(f"{self.name}: close() raised {_raised(exc)}") from None


def _child_env() -> dict[str, str]:
    """The environment of an ``--isolate`` child (:mod:`oracle.harness.isolate`): this process's, with its
    import path (a factory importable here is importable there)."""
    env = dict(os.environ)
    path = [p for p in sys.path if p]
    if env.get("PYTHONPATH"):
        path.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(path))
    return env


def _a_real_signal(exc: KeyboardInterrupt) -> bool:
    """Whether a ``KeyboardInterrupt`` out of an in-process engine is Ctrl-C (or SIGTERM): raised by
    :mod:`oracle.signals`' handler as :class:`~oracle.signals.Interrupted`, or -- when no handler of ours is
    installed (a Python caller of ``run_suite``) -- taken to be one, since it cannot be told apart."""
    from ..signals import Interrupted

    return isinstance(exc, Interrupted) or signal.getsignal(signal.SIGINT) is signal.default_int_handler


def _raised_interrupt() -> EngineError:
    return EngineError("the engine raised KeyboardInterrupt during the case (no signal arrived): the engine's "
                       "error, which costs this case; only a real Ctrl-C or SIGTERM stops the run")


def _bounded(hello: Hello) -> Hello:
    """The hello with its engine name and version trimmed and their control and bidirectional characters
    escaped (``\\x1b``, ``\\u202e``): engine text is stored, printed, and written into XML and HTML, where
    ESC or NUL is not well-formed and U+202E reorders what a reader sees."""
    name, version = (printable(trim_text(hello.engine.name, 200)), printable(trim_text(hello.engine.version, 200)))
    if (name, version) == (hello.engine.name, hello.engine.version):
        return hello
    return hello.model_copy(update={"engine": hello.engine.model_copy(update={"name": name, "version": version})})


def _raised(exc: BaseException) -> str:
    if isinstance(exc, SystemExit):
        return f"SystemExit (sys.exit({exc.code!r}))"
    return f"{type(exc).__name__}: {trim_text(str(exc))}"


def _python(target: str, spec: str) -> Engine:
    module, sep, factory = target.rpartition(":")
    if not sep or not module or not factory:
        raise EngineSpecError(f"--engine {spec!r}: write py:package.module:factory")
    try:
        mod = importlib.import_module(module)
    except ImportError as exc:
        raise EngineStartError(f"--engine {spec}: cannot import {module!r} ({exc}); is it installed or on "
                               f"PYTHONPATH?") from None
    try:
        make = getattr(mod, factory)
    except AttributeError:
        raise EngineStartError(f"--engine {spec}: module {module!r} has no {factory!r}") from None
    try:
        engine = PythonEngine(make, spec)
    except Exception as exc:  # any failure of the factory is a start failure
        raise EngineStartError(f"--engine {spec}: {factory}() raised {type(exc).__name__}: {exc}") from None
    missing = [m for m in ("hello", "run_case") if not callable(getattr(engine.inner, m, None))]
    if missing:
        raise EngineStartError(f"--engine {spec}: {factory}() returned {type(engine.inner).__name__}, which lacks "
                               f"{', '.join(missing)} (see oracle.harness.engine.Engine)")
    return engine


def _mutant(name: str, spec: str) -> Engine:
    try:
        from ..mutants import make_mutant  # type: ignore[attr-defined]
    except ImportError:
        raise EngineSpecError(f"--engine {spec}: mutants arrive with a later issue; use reference, "
                         f"py:package.module:factory or cmd:\"program args\"") from None
    return make_mutant(name)


def make_engine(spec: str, *, isolate: bool = False) -> Engine:
    """``reference``, ``py:package.module:factory``, ``cmd:"program args"`` or ``mutant:NAME``.

    ``isolate``: a ``py:`` engine runs in a child process (:mod:`oracle.harness.isolate`), so one that
    kills its process (``os._exit``) costs a case, not the run. A malformed spec is an
    :class:`EngineSpecError` (a ``ValueError``; exit 2); an engine that cannot start, an
    ``EngineStartError`` (exit 3).
    """
    kind, sep, rest = spec.partition(":")
    if spec == "reference":
        return ReferenceEngine()
    if not sep:
        raise EngineSpecError(f"unknown engine {spec!r}; write reference, py:package.module:factory, "
                         f"cmd:\"program args\" or mutant:NAME")
    if kind == "py" and isolate:
        module, colon, factory = rest.rpartition(":")
        if not colon or not module or not factory:
            raise EngineSpecError(f"--engine {spec!r}: write py:package.module:factory")
        return SubprocessEngine([sys.executable, "-m", "oracle.harness.isolate", rest], env=_child_env())
    if kind == "py":
        return _python(rest, spec)
    if kind == "cmd":
        try:
            argv = shlex.split(rest)
        except ValueError as exc:
            raise EngineSpecError(f"--engine {spec!r}: {exc}") from None
        if not argv:
            raise EngineSpecError('--engine cmd: needs a program, e.g. cmd:"python my_engine.py"')
        return SubprocessEngine(argv)
    if kind == "mutant":
        return _mutant(rest, spec)
    raise EngineSpecError(f"unknown engine kind {kind!r} in {spec!r}; write reference, py:package.module:factory, "
                     f"cmd:\"program args\" or mutant:NAME")
