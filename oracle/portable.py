"""Results that travel: no path of the machine that ran them.

A results file is merged with shards from other runners, committed as a baseline, published as a report.
So every path it records is relative to the suite it came from, never to the machine:

- a case file of the built-in suite is ``cases/<game>/<file>`` (``cases/ijinden/attack_step.yaml``);
- a case file of a user's ``--cases`` folder is that folder's own name and the path inside it
  (``--cases /ci/work/my-suite`` -> ``my-suite/ijinden/x.yaml``); a ``--cases`` file is named with its folder;
- any other path in a message: relative to the working directory (``./tests/engine.py``), or under ``~``.

The recorded command keeps what reproduces the run -- the engine, the selection, the cases -- with its
paths made relative the same way (an absolute path outside the working directory and the suites is cut
to its file name, e.g. the Python interpreter of a ``cmd:`` engine); the output options (``--results``,
``--report``, ``--junit``, ``--quiet``) are left out: where a run writes does not change what it finds,
and leaving them out lets shards written to different files merge to the whole run's command.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any, Iterable

from . import paths
from .model import CaseResult, Results

OUTPUT_OPTIONS = {"--results": True, "--report": True, "--junit": True, "--quiet": False}  # option -> takes a value
SHARD_OPTION = "--shard"


@dataclass(frozen=True)
class Root:
    """A folder whose files are recorded as ``label/<path inside it>``."""

    folder: Path  # absolute, resolved
    label: str
    builtin: bool = False


def _absolute(p: str | PurePath, cwd: Path) -> Path:
    p = Path(p).expanduser()
    return Path(os.path.normpath(p if p.is_absolute() else cwd / p))


def _resolved(p: Path) -> Path:
    try:
        return p.resolve()
    except OSError:  # pragma: no cover - e.g. a loop of links
        return p


def _inside(p: Path, folder: Path) -> PurePath | None:
    try:
        return p.relative_to(folder)
    except ValueError:
        return None


def suite_roots(cases: Iterable[str | PurePath] | None = None, cwd: Path | None = None) -> list[Root]:
    """The built-in suite (``cases``) and each ``--cases`` folder outside it (its own name; a file: its
    folder's). The built-in suite first, then the outermost folders first: a file is named by the first
    root that holds it."""
    cwd = cwd or Path.cwd()
    builtin = _resolved(paths.cases_dir())
    roots = [Root(builtin, "cases", builtin=True)]
    users: list[Root] = []
    for given in cases or []:
        folder = _resolved(_absolute(given, cwd))
        if not folder.is_dir():
            folder = folder.parent
        if _inside(folder, builtin) is not None or len(folder.parts) < 2:
            continue
        users.append(Root(folder, folder.name))
    users.sort(key=lambda r: len(r.folder.parts))
    return roots + users


class Portable:
    """Rewrites paths of one run's machine into suite-relative ones."""

    def __init__(self, cases: Iterable[str | PurePath] | None = None, cwd: Path | None = None) -> None:
        self.cwd = _resolved(cwd or Path.cwd())
        self.given_cwd = Path(os.path.normpath(os.path.abspath(cwd or Path.cwd())))
        self.roots = suite_roots(cases, self.cwd)
        self._files: dict[str, str] = {}
        prefixes: dict[str, str] = {}
        for r in self.roots:
            prefixes.setdefault(str(r.folder), r.label)
        for given in cases or []:  # the folders as typed too (relative ones: messages quote them so)
            folder = Path(given) if _absolute(given, self.given_cwd).is_dir() else Path(given).parent
            label = self._root_label(_absolute(folder, self.given_cwd))
            for form in (str(folder), str(_absolute(folder, self.given_cwd))):
                if label is not None and form not in ("", ".", label):
                    prefixes.setdefault(form, label)
        for here in {self.cwd, self.given_cwd}:
            if len(here.parts) > 2:
                prefixes.setdefault(str(here), ".")
        home = Path.home()
        if len(home.parts) > 2:
            prefixes.setdefault(str(home), "~")
        ordered = sorted(prefixes, key=len, reverse=True)
        self._prefixes = prefixes
        self._pattern = re.compile(r"(?<![\w.~/\\-])(" + "|".join(map(re.escape, ordered)) + r")(?![\w.-])") \
            if ordered else None

    def _root_label(self, p: Path) -> str | None:
        p = _resolved(p)
        for r in self.roots:
            inner = _inside(p, r.folder)
            if inner is not None:
                return PurePath(r.label, inner).as_posix() if inner.parts else r.label
        return None

    def file(self, path: str) -> str:
        """A case file's path as recorded: ``cases/ijinden/x.yaml``, ``my-suite/ijinden/x.yaml``."""
        got = self._files.get(path)
        if got is None:
            got = self._files[path] = self._file(path)
        return got

    def _file(self, path: str) -> str:
        p = _absolute(path, self.given_cwd)
        label = self._root_label(p)
        if label is not None:
            return label
        return self.path(path)

    def path(self, path: str) -> str:
        """Any other path: relative to the working directory when inside it, else its name alone."""
        p = Path(path).expanduser()
        if not p.is_absolute():
            return PurePath(path).as_posix()
        label = self._root_label(p)
        if label is not None:
            return label
        for here in (self.given_cwd, self.cwd):
            inner = _inside(Path(os.path.normpath(p)), here)
            if inner is not None:
                return inner.as_posix() or "."
        return p.name

    def text(self, s: str) -> str:
        """Paths of this machine inside a message (an error naming a case file) made portable."""
        if self._pattern is None or "/" not in s and "\\" not in s:
            return s
        return self._pattern.sub(lambda m: self._prefixes[m.group(1)], s)

    def command(self, command: str) -> str:
        """The recorded command without output options, its paths relative (see the module doc)."""
        try:
            argv = shlex.split(command)
        except ValueError:
            return self.text(command)
        out: list[str] = []
        skip = False
        for i, tok in enumerate(argv):
            if skip:
                skip = False
                continue
            name, eq, value = tok.partition("=")
            if name in OUTPUT_OPTIONS and i > 0:
                skip = OUTPUT_OPTIONS[name] and not eq
                continue
            if eq and name.startswith("--"):
                out.append(f"{name}={self._token(value)}")
            else:
                out.append(self._token(tok))
        return shlex.join(out)

    def _token(self, tok: str) -> str:
        if tok.startswith("cmd:"):
            try:
                inner = shlex.split(tok[4:])
            except ValueError:
                return self.text(tok)
            return "cmd:" + shlex.join([self._token(t) for t in inner])
        if Path(tok).expanduser().is_absolute() and not tok.startswith("//"):
            return self.path(tok)
        return self.text(tok)  # e.g. --data=/the/checkout/x -> --data=./x

    def results(self, results: Results) -> Results:
        """The same results with every path portable (idempotent). Rewritten: each case's ``file``, its
        string fields (the error naming a case file, the id of a file that holds no valid case, ...) and
        its divergence's message; the run's command and why it stopped. The case data and traces are the
        engine's and the case's own, not the machine's."""
        update: dict[str, Any] = {"cases": [self._case(c) for c in results.cases]}
        if results.command:
            update["command"] = self.command(results.command)
        if results.aborted:
            update["aborted"] = self.text(results.aborted)
        return results.model_copy(update=update)

    def _case(self, c: CaseResult) -> CaseResult:
        update: dict[str, Any] = {}
        for name in type(c).model_fields:
            value = getattr(c, name)
            if isinstance(value, str):
                new = self.file(value) if name == "file" else self.text(value)
                if new != value:
                    update[name] = new
        if c.divergence is not None:
            message = self.text(c.divergence.message)
            if message != c.divergence.message:
                update["divergence"] = c.divergence.model_copy(update={"message": message})
        return c.model_copy(update=update) if update else c


def portable(results: Results, cases: Iterable[str | PurePath] | None = None, cwd: Path | None = None) -> Results:
    """``results`` of a run given ``--cases`` folders (None: the built-in suite), paths made portable."""
    return Portable(cases, cwd).results(results)


def without_shard(command: str | None) -> str | None:
    """A shard's recorded command without its ``--shard I/N``: the whole run's command."""
    return without_option(command, SHARD_OPTION)


def without_option(command: str | None, option: str) -> str | None:
    """A recorded command without one option and its value (``--shard 1/2``, ``--ruleset=R``)."""
    if not command:
        return command
    try:
        argv = shlex.split(command)
    except ValueError:
        return command
    out: list[str] = []
    skip = False
    for tok in argv:
        if skip:
            skip = False
        elif tok == option:
            skip = True
        elif not tok.startswith(option + "="):
            out.append(tok)
    return shlex.join(out)
