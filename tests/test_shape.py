"""The package's shape (issue 16): one error tree, names that say one thing, a public front, no import cycle."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest

from oracle import errors


def _modules() -> list[str]:
    """Every module of the installed package (``oracle.reports`` and ``oracle.generators`` are mapped in)."""
    import oracle.generators
    import oracle.reports

    names = ["oracle"]
    for pkg in (oracle, oracle.generators, oracle.reports):
        names += [m.name for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + ".")
                  if m.name not in names]
    return sorted(n for n in names if not n.endswith("__main__"))  # __main__ runs the command


def _classes():
    for name in _modules():
        module = importlib.import_module(name)
        for obj in vars(module).values():
            if inspect.isclass(obj) and obj.__module__ == name:
                yield name, obj


OUTSIDE_THE_TREE = {
    "oracle.signals.Interrupted": "a KeyboardInterrupt on purpose: `except Exception` must not catch a stop signal",
}
NOT_YET = {
}


def test_every_exception_of_the_package_is_an_oracle_error_defined_in_oracle_errors():
    outside, not_oracle, elsewhere = [], [], []
    for module, cls in _classes():
        if not issubclass(cls, BaseException):
            continue
        qual = f"{module}.{cls.__name__}"
        if not issubclass(cls, Exception):
            outside.append(qual)
        elif not issubclass(cls, errors.OracleError):
            not_oracle.append(qual)
        elif module != "oracle.errors" and not cls.__name__.startswith("_"):  # private control flow stays local
            elsewhere.append(qual)
    assert sorted(outside) == sorted(OUTSIDE_THE_TREE)
    assert sorted(not_oracle) == sorted(NOT_YET), "an exception outside OracleError (or NOT_YET is out of date)"
    assert elsewhere == [], "public exceptions are defined in oracle.errors"


@pytest.mark.parametrize("cls, builtin", [
    (errors.BaselineError, ValueError), (errors.MergeError, ValueError), (errors.YamlSyntaxError, ValueError),
    (errors.YamlLimitError, ValueError), (errors.LimitError, ValueError), (errors.SelectError, ValueError),
    (errors.EngineSpecError, ValueError), (errors.ShardError, ValueError), (errors.OutputError, OSError),
])
def test_errors_of_bad_input_are_the_builtins_callers_expect(cls, builtin):
    assert issubclass(cls, errors.OracleError) and issubclass(cls, builtin)


def test_the_old_import_path_of_the_errors_is_the_same_classes():
    from oracle.core import errors as old

    assert all(getattr(old, n) is getattr(errors, n) for n in old.__all__)


@pytest.mark.parametrize("spec, words", [
    ("nonsense", "unknown engine 'nonsense'"),
    ("py:no_colon_here", "write py:package.module:factory"),
    ("cmd:", "cmd: needs a program"),
    ('cmd:"unclosed', "No closing quotation"),
    ("tcp:localhost", "unknown engine kind 'tcp'"),
])
def test_a_malformed_engine_spec_is_a_named_error(spec, words):
    from oracle.harness.adapters import make_engine

    with pytest.raises(errors.EngineSpecError, match=words.replace("(", r"\(")):
        make_engine(spec)


# -- the public front --------------------------------------------------------------------------------

def test_the_public_front_exports_the_engine_author_api():
    import oracle

    for name in oracle.__all__:
        assert getattr(oracle, name) is not None, name
    for name in ("Engine", "CaseRequest", "CaseReply", "Hello", "load_suite", "run_suite", "legal_decisions",
                 "check", "make_engine", "OracleError", "EngineStartError"):
        assert name in oracle.__all__
    assert {n for n in dir(errors) if isinstance(getattr(errors, n), type)} - {"Any"} <= set(oracle.__all__)
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        oracle.nope  # noqa: B018


def test_importing_the_package_imports_none_of_its_modules():
    import subprocess
    import sys

    code = "import sys, oracle; print(sorted(m for m in sys.modules if m.startswith('oracle.')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# -- no import cycle ------------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
SOURCES = {"oracle": ROOT / "oracle", "oracle.generators": ROOT / "generators", "oracle.reports": ROOT / "reports"}
CYCLES_NOT_YET: list[list[str]] = []


def _source_modules() -> dict[str, tuple[Path, bool]]:
    """Module name -> (file, is a package), as the wheel maps them (generators/ and reports/ into oracle)."""
    out = {}
    for pkg, folder in SOURCES.items():
        for path in folder.rglob("*.py"):
            parts = path.relative_to(folder).with_suffix("").parts
            is_pkg = parts[-1] == "__init__"
            out[".".join([pkg, *(parts[:-1] if is_pkg else parts)])] = (path, is_pkg)
    return out


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports, statically: every ``import`` and ``from ... import``
    anywhere in the file (function-level ones too), relative ones resolved; ``from P import name`` is an
    edge to ``P.name`` when that is a module, else to ``P``."""
    mods = _source_modules()
    graph: dict[str, set[str]] = {}
    for name, (path, is_pkg) in mods.items():
        package = name if is_pkg else name.rpartition(".")[0]
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[:len(package.split(".")) - node.level + 1]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                targets = [f"{source}.{a.name}" if f"{source}.{a.name}" in mods else source for a in node.names]
            for t in targets:
                while t and t not in mods:
                    t = t.rpartition(".")[0]
                if t and t != name:
                    deps.add(t)
        graph[name] = deps
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def test_the_import_graph_finder_sees_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    graph = import_graph()
    assert "oracle.harness.adapters" in graph["oracle.cli"]  # a function-level import is an edge
    assert "oracle.registry" in graph["oracle.harness.engine"]  # from .. import registry: the module


def test_no_import_cycle_between_modules():
    assert cycles(import_graph()) == CYCLES_NOT_YET, "an import cycle (or CYCLES_NOT_YET is out of date)"


# -- names that say one thing ----------------------------------------------------------------------------

SAME_NAME_NOT_YET: dict[str, list[str]] = {}


def _top_level_classes() -> dict[str, list[str]]:
    """Class name -> the modules whose top level defines it (a re-export is an import, not a definition)."""
    out: dict[str, list[str]] = {}
    for name, (path, _) in _source_modules().items():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef):
                out.setdefault(node.name, []).append(name)
    return {k: sorted(v) for k, v in out.items()}


def _one_role_per_game(modules: list[str]) -> bool:
    """The same name in different games is the same role (each game's ``State``), as python-chess's variants."""
    games = [m.split(".")[2] for m in modules if m.startswith("oracle.games.")]
    return len(games) == len(modules) == len(set(games))


def test_no_two_modules_define_a_class_of_the_same_name():
    twice = {k: v for k, v in _top_level_classes().items() if len(v) > 1 and not _one_role_per_game(v)}
    assert twice == SAME_NAME_NOT_YET, "one class name, two things (or SAME_NAME_NOT_YET is out of date)"


ONE_ROLE_MODULES = {
    "game": "the Game interface (core) and each game's registry entry",
    "vocabulary": "the vocabulary types (core) and each game's closed lists",
    "legality": "the legality API (core) and each game's candidates",
    "clauses": "a game's clause ids", "state": "a game's state", "procedure": "a game's procedure",
    "abilities": "a game's abilities and effects", "editions": "a game's rulesets",
    "cli": "a command's arguments and entry (tcg-oracle, mutants, prove, report)",
    "bench": "figures for tcg-oracle bench (its table, z3's, the report's render time)",
    "errors": "the error tree (oracle.errors; oracle.core.errors re-exports it)",
    "model": "a package's typed data (the protocol and files; a mutant)",
    "engine": "an Engine (the reference; a mutant)",
    "kill": "the kill matrix, computed (mutants) and drawn (reports)",
    "requirements": "CR 509.1c block requirements, in the engine (Magic) and in the z3 model (smt)",
    "__main__": "`python -m` entry of a package (tcg-oracle; the shobu engine build command)",
}
"""Module names defined in several packages for one role each (python-chess's variants: same name, same job)."""


def test_no_two_modules_of_one_name_do_different_jobs():
    by_name: dict[str, list[str]] = {}
    for name, (_, is_pkg) in _source_modules().items():
        if not is_pkg:
            by_name.setdefault(name.rpartition(".")[2], []).append(name)
    twice = {k: sorted(v) for k, v in by_name.items() if len(v) > 1 and k not in ONE_ROLE_MODULES}
    assert twice == {}, "one module name, two jobs (or a role missing from ONE_ROLE_MODULES)"


# -- one layout for every game -----------------------------------------------------------------------------

GAMES = sorted(p.name for p in (ROOT / "oracle" / "games").iterdir() if (p / "game.py").exists())


def _catalog(game: str) -> set[str]:
    import yaml

    data = yaml.safe_load((ROOT / "cases" / game / "rules.yaml").read_text(encoding="utf-8"))
    return {c["id"] for c in data["clauses"]}


@pytest.mark.parametrize("game", [g for g in GAMES if (ROOT / "oracle" / "games" / g / "clauses.py").exists()])
def test_every_clause_id_is_a_literal_of_clauses_py_and_in_the_catalog(game):
    """clauses.py holds every clause id as a literal constant of the catalog; no module of the game (nor its
    mutants) builds one from a prefix (``G + "P1"``, ``f"{G}D{i}"``)."""
    source = ROOT / "oracle" / "games" / game / "clauses.py"
    constants = {}
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign):
            assert isinstance(node.value, ast.Constant) and isinstance(node.value.value, str), ast.unparse(node)
            constants[node.targets[0].id] = node.value.value
    assert constants, "clauses.py names no clause"
    assert sorted(set(constants.values()) - _catalog(game)) == [], "a clause id missing from the catalog"
    prefix = f"{game}:"
    files = [*(ROOT / "oracle" / "games" / game).glob("*.py"), ROOT / "oracle" / "mutants" / f"{game}.py"]
    built = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value == prefix:
                built.append(f"{path.name}:{node.lineno}")
            elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant) \
                    and str(node.values[0].value).startswith(prefix) and len(node.values) > 1:
                built.append(f"{path.name}:{node.lineno}")
    assert built == [], "a clause id built from a prefix"


def _layout_roles() -> set[str]:
    """The game modules the Layout page (docs/contributing/layout.md) lists under ``games/<game>/``."""
    import re

    text = (ROOT / "docs" / "contributing" / "layout.md").read_text(encoding="utf-8").split("# Layout", 1)[1]
    block = text.split("games/<game>/", 1)[1].split("\n  engines/", 1)[0]
    return set(re.findall(r"^    (\w+\.py) ", block, flags=re.M))


def test_the_games_have_the_module_roles_the_layout_lists():
    """The Layout page: the same module names in every game mean the same roles (issue 16). Ijinden and Duel
    Masters have each (editions where a game has more than one); "rules" is the catalog's name, not a module."""
    roles = _layout_roles()
    assert {"game.py", "vocabulary.py", "clauses.py", "state.py", "procedure.py", "legality.py",
            "abilities.py", "editions.py"} == roles
    for game in ("ijinden", "duelmasters"):
        present = {p.name for p in (ROOT / "oracle" / "games" / game).glob("*.py")} - {"__init__.py"}
        assert roles - {"editions.py"} <= present, (game, sorted(roles - present))
        assert present <= roles, (game, sorted(present - roles))
    mtg = {p.name for p in (ROOT / "oracle" / "games" / "mtg").glob("*.py")}
    assert roles <= mtg, sorted(roles - mtg)  # Magic's long procedure has named parts beside these (Layout)
