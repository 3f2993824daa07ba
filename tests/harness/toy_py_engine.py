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


class HangsOnce(ToyPy):
    """Hangs (for a long while) on ``toy.bigger-blocker`` the first time it is asked, as a buggy in-process
    engine would; every other case, and any later instance, answers."""

    hung = False

    def run_case(self, request, timeout=None):
        import time

        if request.id == "toy.bigger-blocker" and not HangsOnce.hung:
            HangsOnce.hung = True
            time.sleep(30)
        return super().run_case(request, timeout)


def make_hanging():
    return HangsOnce()


class CannotSetUpOne(ToyPy):
    """An adapter that cannot give its engine the board of ``toy.bigger-blocker`` (``oracle.engines.kit``)."""

    def run_case(self, request, timeout=None):
        from oracle.errors import CannotSetUp

        if request.id == "toy.bigger-blocker":
            raise CannotSetUp("toy.bigger-blocker: the engine has no zone 'outside_game' to set a card up in")
        return super().run_case(request, timeout)


def make_cannot_set_up():
    return CannotSetUpOne()
