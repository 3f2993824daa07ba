"""pytest plugin (entry point ``pytest11: tcg_oracle``): golden cases as pytest items.

``pytest --tcg-engine SPEC cases/`` collects every golden case file under the given paths as items, one
item per case, and runs each on the engine ``SPEC`` (``reference``, ``py:module:factory``,
``cmd:"program args"``). A failing item shows the ruling quote and the first divergence.

The plugin loads in every pytest session of anyone who installs tcg-oracle, so it imports nothing heavy
(no pydantic, no YAML) and collects nothing unless ``--tcg-engine`` is given. With pytest-xdist each
worker starts its own engine.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

_NOT_CASES = {"rules.yaml", "cards.yaml"}
_ENGINE_KEY: Any = pytest.StashKey()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("tcg-oracle", "tcg-oracle golden cases")
    group.addoption("--tcg-engine", metavar="SPEC", default=None,
                    help="collect golden case YAML files and run them on this engine "
                         '(reference, py:module:factory, cmd:"program args")')
    group.addoption("--tcg-timeout", metavar="S", type=float, default=10.0,
                    help="per-case timeout for --tcg-engine (default 10)")
    group.addoption("--tcg-ruleset", metavar="R", default=None,
                    help="run cases under this edition of the rules (others are skipped)")


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    config = parent.config
    if config.getoption("tcg_engine", None) is None:
        return None
    if file_path.suffix not in (".yaml", ".yml") or file_path.name in _NOT_CASES:
        return None
    return CaseFile.from_parent(parent, path=file_path)


def pytest_sessionstart(session: pytest.Session) -> None:
    """Start the engine before anything runs: one clear message (exit code 3) when it cannot start,
    not one traceback per item. Under xdist the controller only checks, and each worker starts its own."""
    config = session.config
    if config.getoption("tcg_engine", None) is None or hasattr(config, "workerinput"):
        return
    engine, _ = _engine(config)
    if getattr(config.option, "numprocesses", None):
        engine.close()
        del config.stash[_ENGINE_KEY]


def pytest_unconfigure(config: pytest.Config) -> None:
    engine = config.stash.get(_ENGINE_KEY, None)
    if engine is not None:
        engine[0].close()


def _engine(config: pytest.Config):
    """One engine per pytest process (per xdist worker), started on first use. An engine that cannot
    be started ends the session with one message (exit code 3, as ``tcg-oracle run``)."""
    held = config.stash.get(_ENGINE_KEY, None)
    if held is None:
        from .core.errors import EngineStartError  # noqa: PLC0415
        from .harness.engine import make_engine  # noqa: PLC0415

        spec = config.getoption("tcg_engine")
        engine = None
        try:
            engine = make_engine(spec)
            held = (engine, engine.hello())
        except (EngineStartError, ValueError) as exc:
            if engine is not None:
                engine.close()
            message = f"tcg-oracle: the engine {spec} could not be started: {exc}"
            if hasattr(config, "workerinput"):  # an xdist worker cannot end the session: each item says it
                raise CaseFailure(message) from None
            pytest.exit(message, returncode=3)
        config.stash[_ENGINE_KEY] = held
    return held


class CaseFile(pytest.File):
    def collect(self):
        from .loader import load_case_file  # noqa: PLC0415

        suite = load_case_file(self.path)
        for err in suite.errors:
            yield CaseFileErrorItem.from_parent(self, name=f"{err.case_id or 'file'}:{err.line or 0}", error=err)
        for lc in suite.cases:
            yield CaseItem.from_parent(self, name=lc.case.id, loaded=lc)


class CaseFileErrorItem(pytest.Item):
    """A case that does not load: it fails with the loader's message (file, line, field)."""

    def __init__(self, *, error: Exception, **kw: Any) -> None:
        super().__init__(**kw)
        self.error = error

    def runtest(self) -> None:
        raise CaseFailure(f"invalid case file: {self.error}")

    def repr_failure(self, excinfo, style=None):  # type: ignore[override]
        if isinstance(excinfo.value, CaseFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, getattr(self.error, "line", None), self.name


class CaseFailure(Exception):
    """A case failed or errored; the message is the whole report."""


class CaseItem(pytest.Item):
    def __init__(self, *, loaded: Any, **kw: Any) -> None:
        super().__init__(**kw)
        self.loaded = loaded
        self.extra_keyword_matches.update([loaded.case.game, *loaded.case.features])  # -k by game or feature

    def runtest(self) -> None:
        from .harness.runner import _unsupported, choose_ruleset, run_case  # noqa: PLC0415

        config = self.config
        engine, hello = _engine(config)
        ruleset, why = choose_ruleset(self.loaded, config.getoption("tcg_ruleset"))
        if why:
            pytest.skip(why)
        unsupported = _unsupported(self.loaded, hello, hello.engine.name)  # the same skips as `run`
        if unsupported:
            pytest.skip(unsupported)
        result = run_case(engine, self.loaded, ruleset, hello.engine.name, config.getoption("tcg_timeout"),
                          hello=hello)
        if result.status == "skip":
            pytest.skip(result.skip_reason or "skipped")
        if result.status == "not_checkable":
            from .harness.junit import not_checkable_reason  # noqa: PLC0415

            pytest.skip(not_checkable_reason(result))
        if result.status != "pass":
            raise CaseFailure(format_failure(self.loaded, result))

    def repr_failure(self, excinfo, style=None):  # type: ignore[override]
        if isinstance(excinfo.value, CaseFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, self.loaded.line - 1, f"{self.loaded.case.game} case {self.loaded.case.id}"


def format_failure(loaded: Any, result: Any) -> str:
    """The case's ruling (quote and source), then the first divergence or the error."""
    import json  # noqa: PLC0415

    from .text import printable  # noqa: PLC0415

    case = loaded.case
    src = case.source
    lines = [f"{result.status.upper()}: {case.id} ({loaded.path}:{loaded.line})", f"  {case.title}",
             f"  rules: {', '.join(case.rules)}"]
    quote = getattr(src, "quote", None)
    if quote:
        doc = getattr(src, "document", "")
        lines.append(f"  ruling ({doc}): {quote}")
    if result.divergence is not None:
        d = result.divergence
        lines.append(f"  first divergence ({d.what}): {printable(d.message)}")
        lines.append(f"    expected: {json.dumps(d.expected, ensure_ascii=False, default=str)}")
        lines.append(f"    actual:   {json.dumps(d.actual, ensure_ascii=False, default=str)}")
        if d.context:
            lines.append("    trace around it:")
            for e in d.context:
                clause = f"  [{e.clause}]" if e.clause else ""
                lines.append(f"      {e.moment:>3} {e.kind} {json.dumps(e.args, ensure_ascii=False, default=str)}{clause}")
    if result.error:
        lines.append(f"  error: {printable(result.error)}")
    return "\n".join(lines)
