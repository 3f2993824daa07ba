"""YAML read safely, keeping the node marks that give line numbers: the one reader of case files,
catalogs, card pools and baselines.

PyYAML's C safe loader (libyaml) when available, the pure-Python safe loader otherwise.
"""

from __future__ import annotations

from typing import Any

import yaml

from .errors import LimitError, YamlLimitError, YamlSyntaxError
from .limits import check_yaml_nodes, check_yaml_text

try:  # the C loader is much faster; fall back where libyaml is missing
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader  # type: ignore[misc]




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
