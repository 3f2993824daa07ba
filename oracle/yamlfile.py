"""YAML read safely, keeping the node marks that give line numbers: the one reader of case files,
catalogs, card pools and baselines.

PyYAML's C safe loader (libyaml) when available, the pure-Python safe loader otherwise.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import yaml

from .errors import InputError, LimitError, YamlLimitError, YamlSyntaxError
from .limits import YAML_MAX_BYTES, YAML_MAX_CHARS, check_yaml_nodes, check_yaml_text

try:  # the C loader is much faster; fall back where libyaml is missing
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader  # type: ignore[misc]




_BOOL, _STR = "tag:yaml.org,2002:bool", "tag:yaml.org,2002:str"
_YAML11_WORDS = frozenset({"yes", "no", "on", "off"})


def _keys_as_spelled(node: yaml.Node) -> None:
    """A plain mapping key spelled yes, no, on or off is that word, as YAML 1.2 reads it -- not the boolean
    YAML 1.1 (PyYAML) makes of it: an effect's ``on:`` key is ``on`` from the moment a file is read. Values
    keep YAML 1.1's reading (``optional: yes`` is true)."""
    seen: set[int] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        if isinstance(n, yaml.MappingNode):
            for key, value in n.value:
                if (isinstance(key, yaml.ScalarNode) and key.tag == _BOOL and not key.style
                        and key.value.lower() in _YAML11_WORDS):
                    key.tag = _STR
                stack += (key, value)
        elif isinstance(n, yaml.SequenceNode):
            stack += n.value


def compose(text: str) -> tuple[Any, yaml.Node | None]:
    """The document as Python data, and its node tree (for line numbers); past a limit of
    :mod:`oracle.limits`, a :class:`YamlLimitError` before anything is built."""
    try:
        check_yaml_text(text)
        loader = _Loader(text)
        try:
            node = loader.get_single_node()
            check_yaml_nodes(node)
            if node is not None:
                _keys_as_spelled(node)
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


def read_yaml_file(path: Path, *, within: Path | None = None) -> str:
    """The text of a YAML file, read safely (docs/faults.md): a regular file only (a FIFO, a device or
    ``/dev/zero`` is refused, never waited on or read without end), its size checked with ``fstat`` and
    the read bounded before anything is decoded, and -- with ``within`` (the suite folder it was found in)
    -- a file that resolves outside that folder (a symlink to ``/etc/shadow``) is refused unread, so no
    foreign text is ever echoed. An :class:`InputError` says which; ``OSError``/``UnicodeDecodeError``
    as ``Path.read_text`` raises them. Line ends are read as ``Path.read_text`` reads them."""
    if within is not None:
        real, home = path.resolve(), within.resolve()
        if real != home and home not in real.parents:
            raise InputError(f"resolves to {real}, outside the suite folder {within}; a suite folder's files "
                             f"(and its symlinks) must stay inside it -- the file was not read")
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise InputError(f"is not a regular file ({_kind(st.st_mode)}); a case file, catalog or card pool "
                             f"is a regular file -- it was not read")
        if st.st_size > YAML_MAX_BYTES:
            raise InputError(f"the file has {st.st_size:,} bytes; the limit is {YAML_MAX_CHARS:,} characters "
                             f"({YAML_MAX_BYTES:,} bytes)")
        chunks, got = [], 0
        while got <= YAML_MAX_BYTES:
            chunk = os.read(fd, min(1 << 20, YAML_MAX_BYTES + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > YAML_MAX_BYTES:  # it grew while read
            raise InputError(f"the file has more than {YAML_MAX_BYTES:,} bytes; the limit is {YAML_MAX_CHARS:,} "
                             f"characters")
    finally:
        os.close(fd)
    return b"".join(chunks).decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder")):
        if test(mode):
            return name
    return "not a regular file"
