"""An in-process (``py:toy_py_engine:make``) engine for the toy game: the Engine protocol, by hand."""

from oracle.model import EngineInfo, Hello


class ToyPy:
    def hello(self):
        return Hello(engine=EngineInfo(name="toy-py", version="1"), games=["toy"])

    def run_case(self, request, timeout=None):
        import toygame

        return toygame.GAME.run(request)

    def close(self):
        pass


def make():
    return ToyPy()
