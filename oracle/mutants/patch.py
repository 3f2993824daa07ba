"""Applying a mutant's patches: only inside :func:`applied`, only for the code running in its context.

Each patched attribute is replaced, for the duration of the block, by a dispatcher that calls the
mutated function when the calling context is the mutant's (a ``ContextVar``) and the original otherwise;
so a reference engine running on another thread of the same process never sees the misreading. Runs of
mutants are serialized by a lock; on leaving the block every attribute is restored (the originals are
checked to be back: a leaked patch is an error).
"""

from __future__ import annotations

import functools
import importlib
import sys
import threading
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Iterator

from ..errors import PatchError
from .model import Mutant, Patch

ACTIVE: ContextVar[str | None] = ContextVar("tcg_oracle_mutant", default=None)
_LOCK = threading.RLock()


def resolve(target: str) -> tuple[Any, str, Any]:
    """(owner, attribute, current value) of ``package.module:Name.attr``."""
    module_name, sep, path = target.partition(":")
    if not sep or not path:
        raise PatchError(f"patch target {target!r}: write package.module:Name or package.module:Class.method")
    try:
        owner: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise PatchError(f"patch target {target!r}: cannot import {module_name!r} ({exc})") from None
    *parents, attr = path.split(".")
    for part in parents:
        try:
            owner = getattr(owner, part)
        except AttributeError:
            raise PatchError(f"patch target {target!r}: {module_name} has no {part!r}") from None
    if attr not in vars(owner):
        raise PatchError(f"patch target {target!r}: {getattr(owner, '__name__', owner)!r} defines no {attr!r}")
    return owner, attr, vars(owner)[attr]


def _bindings(owner: Any, attr: str, original: Any) -> list[tuple[Any, str]]:
    """Where the original is bound: the owner, and for a module function every module of the same game
    package that imported it by name."""
    out = [(owner, attr)]
    if isinstance(owner, type(sys)):
        package = owner.__name__.rsplit(".", 1)[0] + "."
        for name, mod in list(sys.modules.items()):
            if mod is not owner and name.startswith(package) and getattr(mod, attr, None) is original:
                out.append((mod, attr))
    return out


def _dispatcher(mutant: str, original: Any, mutated: Any) -> Any:
    if not callable(original):
        raise PatchError(f"mutant {mutant}: only functions are patched (a constant swapped outright would be seen "
                         f"by other engines of the process); patch the function that reads it")
    raw = original.__func__ if isinstance(original, (staticmethod, classmethod)) else original

    @functools.wraps(raw)
    def dispatch(*args: Any, **kwargs: Any) -> Any:
        return (mutated if ACTIVE.get() == mutant else raw)(*args, **kwargs)

    if isinstance(original, staticmethod):
        return staticmethod(dispatch)
    if isinstance(original, classmethod):
        return classmethod(dispatch)
    return dispatch


@contextmanager
def applied(mutant: Mutant) -> Iterator[None]:
    """The game's rules with ``mutant``'s patches, for the calling context, inside the block."""
    with _LOCK:
        saved: list[tuple[Any, str, Any]] = []
        token = ACTIVE.set(mutant.name)
        try:
            for p in mutant.patches:
                _apply(mutant, p, saved)
            yield
        finally:
            ACTIVE.reset(token)
            for owner, attr, value in reversed(saved):
                setattr(owner, attr, value)
            leaked = [f"{getattr(o, '__name__', o)}.{a}" for o, a, v in saved if vars(o)[a] is not v]
            if leaked:  # pragma: no cover - setattr restores; a guard against future tricks
                raise RuntimeError(f"mutant {mutant.name}: patches not restored: {leaked}")


def _apply(mutant: Mutant, p: Patch, saved: list[tuple[Any, str, Any]]) -> None:
    owner, attr, original = resolve(p.target)
    raw = original.__func__ if isinstance(original, (staticmethod, classmethod)) else original
    mutated = p.make(raw)
    replacement = _dispatcher(mutant.name, original, mutated)
    for o, a in _bindings(owner, attr, original):
        saved.append((o, a, vars(o)[a]))
        setattr(o, a, replacement)
