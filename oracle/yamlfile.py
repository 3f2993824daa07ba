"""YAML read safely, keeping the node marks that give line numbers: the one reader of case files,
catalogs, card pools and baselines.

PyYAML's C safe loader (libyaml) when available, the pure-Python safe loader otherwise.
"""

from __future__ import annotations

from typing import Any

import yaml

from .limits import LimitError, check_yaml_nodes, check_yaml_text

try:  # the C loader is much faster; fall back where libyaml is missing
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader  # type: ignore[misc]


class YamlSyntaxError(ValueError):
    """Not YAML. ``line`` and ``column`` count from 1; ``message`` says what and, when known, where the
    construct that is left open started."""

    def __init__(self, problem: str, line: int | None, column: int | None, context: str | None,
                 context_line: int | None) -> None:
        self.problem, self.line, self.column = problem, line, column
        notes = [f"column {column}"] if column else []
        if context and context_line:
            notes.append(f"{context} started at line {context_line}")
        self.message = f"YAML syntax error: {problem}" + (f" ({'; '.join(notes)})" if notes else "")
        super().__init__(self.message)


class YamlLimitError(YamlSyntaxError):
    """A file past one of :mod:`oracle.limits`' limits (size, nesting, alias expansion, value length).
    A subclass of :class:`YamlSyntaxError` so every reader that reports one reports the other."""

    def __init__(self, exc: LimitError) -> None:
        super().__init__(exc.message, exc.line, None, None, None)
        self.message = f"{exc.message} (see the README's limits)"
        self.args = (self.message,)


def compose(text: str) -> tuple[Any, yaml.Node | None]:
    """The document as Python data, and its node tree (for line numbers); past a limit of
    :mod:`oracle.limits`, a :class:`YamlLimitError` before anything is built."""
    try:
        check_yaml_text(text)
        loader = _Loader(text)
        try:
            node = loader.get_single_node()
            check_yaml_nodes(node)
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except LimitError as exc:
        raise YamlLimitError(exc) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        cmark = getattr(exc, "context_mark", None)
        raise YamlSyntaxError(getattr(exc, "problem", None) or str(exc),
                              mark.line + 1 if mark else None, mark.column + 1 if mark else None,
                              getattr(exc, "context", None), cmark.line + 1 if cmark else None) from None
    return data, node
