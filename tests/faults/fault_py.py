"""In-process (``py:``) engines for the toy game that misbehave on purpose, one factory per fault."""

import os
import signal
import sys
import time

from oracle.model import EngineInfo, Hello

HELLO = Hello(engine=EngineInfo(name="fault-py", version="1"), games=["toy"])


class Good:
    """Answers every case with the toy game's rules."""

    def hello(self):
        return HELLO

    def run_case(self, request, timeout=None):
        import toygame

        return toygame.GAME.run(request)

    def close(self):
        pass


def _on(case_id, action):
    """An engine that does ``action(request)`` on case ``case_id`` and plays the others."""

    class Faulty(Good):
        def run_case(self, request, timeout=None):
            if request.id == case_id:
                return action(request)
            return super().run_case(request, timeout)

    return Faulty()


FAULT_CASE = "toy.bigger-blocker"


class HelloRaises(Good):
    def hello(self):
        raise RuntimeError("no licence file")


class HelloList(Good):
    def hello(self):
        return ["toy"]


class HelloInvalid(Good):
    def hello(self):
        return {"engine": {"name": "x"}, "games": "toy"}


class HelloHangs(Good):
    def hello(self):
        time.sleep(60)


class HelloExits(Good):
    def hello(self):
        sys.exit(4)


class CloseRaises(Good):
    def close(self):
        raise OSError("socket already closed")


class CloseExits(Good):
    def close(self):
        sys.exit(9)


def good():
    return Good()


def factory_raises():
    raise ImportError("the engine's native library is missing")


def hello_raises():
    return HelloRaises()


def hello_list():
    return HelloList()


def hello_invalid():
    return HelloInvalid()


class HelloFromEnv(Good):
    def hello(self):
        import json

        return json.loads(os.environ["FAULT_HELLO"])


def hello_from_env():
    """Says the hello in $FAULT_HELLO (a JSON object), as ``fault_engine.py`` does with the same variable."""
    return HelloFromEnv()


def hello_hangs():
    return HelloHangs()


def hello_exits():
    return HelloExits()


def case_exits():
    return _on(FAULT_CASE, lambda r: sys.exit(5))


def case_returns_none():
    return _on(FAULT_CASE, lambda r: None)


def case_returns_invalid():
    return _on(FAULT_CASE, lambda r: {"id": r.id, "trace": "not a list"})


def case_raises_huge():
    def boom(r):
        raise ValueError("x" * 1_000_000)

    return _on(FAULT_CASE, boom)


def case_huge_error():
    return _on(FAULT_CASE, lambda r: {"id": r.id, "error": "E" * 5_000_000})


def case_sigterm():
    """Sends the harness (this process) SIGTERM while playing the fault case, as a CI cancel would."""

    def term(r):
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.5)  # the signal is handled in the main thread meanwhile
        return Good().run_case(r)

    return _on(FAULT_CASE, term)


def case_sigint():
    """Ctrl-C during the fault case (played on the main thread with --timeout 0: raised at once)."""

    def ctrl_c(r):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)  # not reached: the interrupt is raised here
        return Good().run_case(r)

    return _on(FAULT_CASE, ctrl_c)


def close_raises():
    return CloseRaises()


def close_exits():
    return CloseExits()


class NoAbilities:
    """The reference engine for Ijinden, declaring it implements no ability: cases that need one are
    skipped, by ``run`` and by the pytest plugin alike."""

    def __init__(self):
        from oracle.harness.engine import ReferenceEngine

        self.inner = ReferenceEngine(["ijinden"])

    def hello(self):
        return self.inner.hello().model_copy(update={"abilities": {"ijinden": []}})

    def run_case(self, request, timeout=None):
        return self.inner.run_case(request, timeout)

    def close(self):
        pass


def no_abilities():
    return NoAbilities()


def case_huge_event():
    """Answers the fault case with a trace whose event holds a 5 MB string (and so fails the case)."""

    def huge(r):
        reply = Good().run_case(r)
        trace = [e.model_copy(update={"args": {**e.args, "player": "P" * 5_000_000}}) if e.kind == "won" else e
                 for e in reply.trace]
        return reply.model_copy(update={"trace": trace})

    return _on("toy.unblocked-wins", huge)


class HugeName(Good):
    def hello(self):
        return HELLO.model_copy(update={"engine": EngineInfo(name="N" * 1_000_000, version="1")})


def huge_name():
    return HugeName()


def case_raises_keyboard_interrupt():
    """Raises ``KeyboardInterrupt`` itself on the fault case (no signal is sent)."""

    def boom(request):
        raise KeyboardInterrupt("the engine's own")

    return _on(FAULT_CASE, boom)


def case_os_exit():
    """Calls ``os._exit(9)`` on the fault case: the process ends at once, no handler runs."""
    return _on(FAULT_CASE, lambda request: os._exit(9))


def case_prints():
    """Prints on stdout while answering (a protocol line only in process)."""

    class Chatty(Good):
        def run_case(self, request, timeout=None):
            print("debug: playing", request.id)
            return super().run_case(request, timeout)

    return Chatty()


def case_long_trace():
    """Answers the fault case with its trace followed by 50,000 more events (a later moment each)."""

    def long(r):
        reply = Good().run_case(r)
        last = reply.trace[-1]
        extra = [last.model_copy(update={"moment": last.moment + 1 + i}) for i in range(50_000)]
        return reply.model_copy(update={"trace": [*reply.trace, *extra]})

    return _on(FAULT_CASE, long)


def case_hangs():
    """Never answers the fault case."""
    return _on(FAULT_CASE, lambda request: time.sleep(3600))
