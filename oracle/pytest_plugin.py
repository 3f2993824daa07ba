"""pytest plugin (entry point ``pytest11: tcg_oracle``): golden cases as pytest items.

``pytest --tcg-engine SPEC cases/`` collects every golden case file under the given paths as items, one
item per case, and runs each on the engine ``SPEC`` (``reference``, ``py:module:factory``,
``cmd:"program args"``). A failing item shows the ruling quote and the first divergence. The path
``builtin`` names the installed suite (``pytest --tcg-engine SPEC builtin mysuite/``). As ``run`` does, a
suite folder's own ``<game>/rules.yaml`` and ``cards.yaml`` extend the catalog and card pool for its cases
(a broken one is a failing item), and catalogs, card pools and ``block_counts.yaml`` are not case files.

``--tcg-baseline FILE`` (the file of ``run --baseline``): a case that fails, or errs, as its baseline entry
expects is ``xfail`` with the entry's reason and bug; one that passes although expected to fail is XPASS,
which does not fail the session (not strict) unless ``--tcg-baseline-strict``. A case failing worse than
its entry, or failing without one, fails as usual.

The plugin loads in every pytest session of anyone who installs tcg-oracle, so it imports nothing heavy
(no pydantic, no YAML) and collects nothing unless ``--tcg-engine`` is given. With pytest-xdist each
worker starts its own engine.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from .errors import CaseFailure

BUILTIN = "builtin"
_ENGINE_KEY: Any = pytest.StashKey()
_BASELINE_KEY: Any = pytest.StashKey()
_SAID_KEY: Any = pytest.StashKey()  # the suite extensions whose errors were reported already


class CaseFailed(CaseFailure):
    """The case's status is ``fail`` (what a baseline's ``fail`` entry expects)."""


class CaseErred(CaseFailure):
    """The case's status is ``error`` (what a baseline's ``error`` entry expects)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("tcg-oracle", "tcg-oracle golden cases")
    group.addoption("--tcg-engine", metavar="SPEC", default=None,
                    help="collect golden case YAML files and run them on this engine "
                         '(reference, py:module:factory, cmd:"program args")')
    group.addoption("--tcg-timeout", metavar="S", type=float, default=10.0,
                    help="per-case timeout for --tcg-engine (default 10; 0: none)")
    group.addoption("--tcg-ruleset", metavar="R", default=None,
                    help="run cases under this edition of the rules (others are skipped)")
    group.addoption("--tcg-baseline", metavar="FILE", default=None,
                    help="expected statuses (the file of tcg-oracle run --baseline): a case failing as its entry "
                         "expects is xfail with the entry's reason; one passing although expected to fail is "
                         "XPASS, not a failure (not strict)")
    group.addoption("--tcg-baseline-strict", action="store_true", default=False,
                    help="with --tcg-baseline: a case passing although expected to fail fails the session")


def pytest_configure(config: pytest.Config) -> None:
    """The path ``builtin`` names the installed suite (as ``--cases builtin`` does for the command)."""
    if config.getoption("tcg_engine", None) is None:
        return
    args = getattr(config, "args", None)
    if isinstance(args, list) and BUILTIN in args:  # ./builtin: a folder of that name
        from .paths import cases_dir

        args[:] = [str(cases_dir()) if a == BUILTIN else a for a in args]


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    config = parent.config
    if config.getoption("tcg_engine", None) is None:
        return None
    if file_path.suffix not in (".yaml", ".yml"):
        return None
    from .loader import NOT_CASES  # catalogs, card pools and block_counts.yaml (the z3 checks' counts)

    if file_path.name in NOT_CASES:
        return None
    return CaseFile.from_parent(parent, path=file_path)


def pytest_sessionstart(session: pytest.Session) -> None:
    """Check the options (bad usage: exit 2, as ``run``), then start the engine before anything runs: one
    clear message (exit code 3) when it cannot start, not one traceback per item. Under xdist the
    controller only checks, and each worker starts its own."""
    config = session.config
    if config.getoption("tcg_engine", None) is None or hasattr(config, "workerinput"):
        return
    why = _bad_options(config)
    if why:
        pytest.exit(f"tcg-oracle: {why}", returncode=2)
    engine, _ = _engine(config)
    if getattr(config.option, "numprocesses", None):
        engine.close()
        del config.stash[_ENGINE_KEY]


def pytest_unconfigure(config: pytest.Config) -> None:
    engine = config.stash.get(_ENGINE_KEY, None)
    if engine is not None:
        engine[0].close()


def _bad_options(config: pytest.Config) -> str | None:
    """What ``run`` refuses as bad usage: a timeout that is not a finite number 0 or more, a ruleset no game
    lists, a baseline that cannot be read."""
    timeout = config.getoption("tcg_timeout")
    if not math.isfinite(timeout) or timeout < 0:
        return f"--tcg-timeout {timeout:g}: give seconds, a finite number 0 or more (0: no timeout)"
    ruleset = config.getoption("tcg_ruleset")
    if ruleset is not None:
        from . import registry
        from .cli import _unknown_ruleset

        if why := _unknown_ruleset(ruleset, registry.names()):
            return why.replace("--ruleset", "--tcg-ruleset", 1)
    if config.getoption("tcg_baseline"):
        from .errors import BaselineError

        try:
            _baseline(config)
        except BaselineError as exc:
            return f"--tcg-baseline: {exc}"
    return None


def _baseline(config: pytest.Config):
    """The ``--tcg-baseline`` file, read once per process; ``None`` without the option."""
    if _BASELINE_KEY not in config.stash:
        path = config.getoption("tcg_baseline")
        if path is None:
            config.stash[_BASELINE_KEY] = None
        else:
            from .baseline import load_baseline

            config.stash[_BASELINE_KEY] = load_baseline(path)
    return config.stash[_BASELINE_KEY]


def _engine(config: pytest.Config):
    """One engine per pytest process (per xdist worker), started on first use. An engine that cannot
    be started ends the session with one message (exit code 3, as ``tcg-oracle run``)."""
    held = config.stash.get(_ENGINE_KEY, None)
    if held is None:
        from .errors import EngineStartError
        from .harness.adapters import make_engine

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
        from .loader import load_case_file

        extras = _extras(self.path, self.config.rootpath)
        said = self.config.stash.setdefault(_SAID_KEY, set())
        for err in _extension_errors(extras):  # a suite's broken rules.yaml / cards.yaml: once, as a failing item
            if str(err) not in said:
                said.add(str(err))
                yield CaseFileErrorItem.from_parent(self, name=f"{Path(err.path).name}:{err.line or 0}", error=err)
        suite = load_case_file(self.path, extras=extras)
        for err in suite.errors:
            yield CaseFileErrorItem.from_parent(self, name=f"{err.case_id or 'file'}:{err.line or 0}", error=err)
        for lc in suite.cases:
            item = CaseItem.from_parent(self, name=lc.case.id, loaded=lc)
            _expect(item)
            yield item


def _extras(path: Path, root: Path) -> dict[str, tuple[Path, ...]]:
    """Per game, the suite's own rules.yaml / cards.yaml the case file is checked against: those of the
    nearest folder above it (up to the rootdir, or the filesystem's root outside it) that brings them --
    ``SUITE/<game>/`` as ``run --cases SUITE`` reads them."""
    from . import registry
    from .loader import suite_extras

    path = path.resolve()
    root = root.resolve()
    ups = [p for p in path.parents]
    if root in ups:
        ups = ups[:ups.index(root) + 1]
    out: dict[str, tuple[Path, ...]] = {}
    for g in registry.names():
        for folder in ups:
            found = suite_extras(folder, g)
            if found:
                out[g] = found
                break
    return out


def _extension_errors(extras: dict[str, tuple[Path, ...]]) -> list[Exception]:
    from .loader import _extension_errors as errors

    return [err for g, extra in extras.items() for err in errors(g, None, extra)]


def _expect(item: CaseItem) -> None:
    """A case the baseline expects to fail (or err): ``xfail`` with the entry's reason, for that status or a
    better one (an error where ``fail`` is expected is a regression: it fails); not strict unless
    ``--tcg-baseline-strict``."""
    baseline = _baseline(item.config)
    exp = baseline.expectation(item.loaded.case.id) if baseline is not None else None
    if exp is None or exp.status not in ("fail", "error"):
        return
    raises = CaseFailed if exp.status == "fail" else CaseFailure  # expected error: a fail is no regression either
    item.add_marker(pytest.mark.xfail(reason=exp.describe(), raises=raises,
                                      strict=item.config.getoption("tcg_baseline_strict")))


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



class CaseItem(pytest.Item):
    def __init__(self, *, loaded: Any, **kw: Any) -> None:
        super().__init__(**kw)
        self.loaded = loaded
        self.extra_keyword_matches.update([loaded.case.game, *loaded.case.features])  # -k by game or feature

    def runtest(self) -> None:
        from .harness.runner import _unsupported, choose_ruleset, run_case

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
            from .harness.junit import not_checkable_reason

            pytest.skip(not_checkable_reason(result))
        if result.status != "pass":
            raise (CaseFailed if result.status == "fail" else CaseErred)(format_failure(self.loaded, result))

    def repr_failure(self, excinfo, style=None):  # type: ignore[override]
        if isinstance(excinfo.value, CaseFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, self.loaded.line - 1, f"{self.loaded.case.game} case {self.loaded.case.id}"


def format_failure(loaded: Any, result: Any) -> str:
    """The case's ruling (quote and source), then the first divergence or the error."""
    import json

    from .text import printable

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
