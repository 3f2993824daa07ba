"""The documented limits on what tcg-oracle reads: YAML files, cases, protocol messages, engine text.

A value past a limit is a located error (file, line, field) at load time -- never a ``MemoryError``, a
crash inside the YAML parser, or a run that turns 1 KB of aliases into 100 MB of results. Each limit
is far above anything the shipped cases use (the largest case file: 30 KB, 3,637 YAML nodes, nesting
9 deep; the largest anonymous zone: 40 cards).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Iterator

from .errors import LimitError

if TYPE_CHECKING:
    import yaml

YAML_MAX_CHARS = 1_000_000
"""A YAML file (case file, catalog, card pool, baseline): at most this many characters."""
YAML_MAX_BYTES = 4 * YAML_MAX_CHARS
"""A YAML file's size on disk, checked with ``fstat`` before it is read (UTF-8: at most 4 bytes a
character); the characters are counted once it is decoded."""
YAML_MAX_DEPTH = 64
"""Nesting of mappings and sequences in a YAML file."""
YAML_MAX_NODES = 100_000
"""Nodes of a YAML document once every alias is expanded (an alias counts as a copy of its anchor)."""
YAML_MAX_SCALAR = 100_000
"""Characters of one YAML scalar (a quote, a title, a free-form ``props`` value)."""
ZONE_MAX_CARDS = 1_000
"""Cards in one zone: an anonymous count (``deck: 1000``) or a list of cards."""
SETUP_MAX_PLAYERS = 64
"""Players of a setup."""
SCRIPT_MAX_DECISIONS = 10_000
"""Entries of a case's script."""
INT_MAX = 2 ** 53
"""Any integer of a case or a request (power, life, counters, counts): |n| <= 2**53, exact in every
JSON reader."""
FREEFORM_MAX_VALUES = 1_000
"""Values (counted through every nesting) of one free-form field: a ``props`` mapping, a decision's
``args``."""
JSON_MAX_DEPTH = 128
"""Nesting of a protocol message (a request to ``serve``, an engine's reply)."""
LINE_MAX_BYTES = 64 * 1024 * 1024
"""One protocol line (an engine's reply): longer is a protocol error for that case."""
TRACE_KEEP = 2_000
"""Entries of an engine's trace kept in a case result (the whole trace is compared; the rest is counted
in ``trace_cut``). The longest golden trace has far fewer."""
TEXT_LIMIT = 2_000
"""Engine-provided text (an ``error``, a reason) kept in results and shown: longer is cut, saying how
much (the engine's stderr tail: 800 characters)."""


_BIG_INT = re.compile(r"[-+]?[0-9][0-9_]*")




def check_yaml_text(text: str) -> None:
    """Size, nesting and scalar length, checked on the parser's events before anything is built (a
    deeply nested document would crash the C composer)."""
    import yaml  # the limits are read by the CLI at start-up; YAML only when reading one

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    opening, closing = (yaml.SequenceStartEvent, yaml.MappingStartEvent), (yaml.SequenceEndEvent, yaml.MappingEndEvent)
    if len(text) > YAML_MAX_CHARS:
        raise LimitError(f"the file has {len(text):,} characters; the limit is {YAML_MAX_CHARS:,}", line=1)
    depth = 0
    try:
        for ev in yaml.parse(text, Loader=loader):
            if isinstance(ev, opening):
                depth += 1
                if depth > YAML_MAX_DEPTH:
                    raise LimitError(f"nesting deeper than {YAML_MAX_DEPTH} levels", line=ev.start_mark.line + 1)
            elif isinstance(ev, closing):
                depth -= 1
            elif isinstance(ev, yaml.ScalarEvent):
                if len(ev.value) > YAML_MAX_SCALAR:
                    raise LimitError(f"a value of {len(ev.value):,} characters; the limit is {YAML_MAX_SCALAR:,}",
                                     line=ev.start_mark.line + 1)
                if not ev.style and len(ev.value) > 15 and _BIG_INT.fullmatch(ev.value) \
                        and abs(int(ev.value.replace("_", ""))) > INT_MAX:
                    raise LimitError(f"the number {ev.value[:30]}{'...' if len(ev.value) > 30 else ''} is too large "
                                     f"(the limit is 2**53)", line=ev.start_mark.line + 1)
    except yaml.YAMLError:
        return  # not YAML: the composer reports it, with its line


def check_yaml_nodes(node: yaml.Node | None) -> None:
    """The document's size once aliases are expanded (an alias bomb: 1 KB that expands to millions of
    nodes), counted without expanding anything."""
    if node is None:
        return
    size: dict[int, int] = {}
    reused: dict[int, yaml.Node] = {}
    for n in _post_order(node, reused):
        kids = [size.get(id(k)) for k in _children(n)]
        if None in kids:  # a child still being counted is an ancestor: an alias inside its own anchor
            raise LimitError("a YAML alias refers to the mapping or list that holds it (a recursive structure)",
                             line=n.start_mark.line + 1)
        size[id(n)] = 1 + sum(kids)  # type: ignore[arg-type]
        if size[id(n)] > YAML_MAX_NODES:
            anchor = max(reused.values(), key=lambda r: size.get(id(r), 0), default=n)
            raise LimitError(f"the document expands to more than {YAML_MAX_NODES:,} values through YAML aliases "
                             f"(*name); the anchor at this line is copied too often",
                             line=anchor.start_mark.line + 1)


def _children(n: yaml.Node) -> list[yaml.Node]:
    import yaml

    if isinstance(n, yaml.SequenceNode):
        return list(n.value)
    if isinstance(n, yaml.MappingNode):
        return [x for kv in n.value for x in kv]
    return []


def _post_order(root: yaml.Node, reused: dict[int, yaml.Node]) -> Iterator[yaml.Node]:
    """Each distinct node once, children before parents (iterative: the depth is already bounded)."""
    done: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        n, expanded = stack.pop()
        if expanded:
            yield n
            continue
        if id(n) in done:
            reused[id(n)] = n
            continue
        done.add(id(n))
        stack.append((n, True))
        stack.extend((k, False) for k in _children(n))


def check_setup_sizes(setup: Any) -> list[tuple[tuple[Any, ...], str]]:
    """Zone sizes and player count of a setup (a :class:`~oracle.model.Setup` or a request's dict), as
    (location, message) problems."""
    players = setup.players if hasattr(setup, "players") else (setup or {}).get("players") or {}
    out: list[tuple[tuple[Any, ...], str]] = []
    if not isinstance(players, dict):
        return out
    if len(players) > SETUP_MAX_PLAYERS:
        out.append((("setup", "players"), f"{len(players)} players; the limit is {SETUP_MAX_PLAYERS}"))
    for pid, p in players.items():
        zones = p.zones if hasattr(p, "zones") else {k: v for k, v in (p or {}).items() if isinstance(v, (int, list))}
        for zone, content in zones.items():
            n = content if isinstance(content, int) and not isinstance(content, bool) else \
                len(content) if isinstance(content, list) else 0
            if n > ZONE_MAX_CARDS:
                out.append((("setup", "players", pid, zone),
                            f"{n:,} cards in {pid}'s {zone}; the limit is {ZONE_MAX_CARDS:,} per zone"))
            elif isinstance(content, int) and n < 0:
                out.append((("setup", "players", pid, zone), f"a negative card count ({n})"))
    return out


def check_ints(data: Any, loc: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], str]]:
    """Integers past :data:`INT_MAX` anywhere in ``data`` (plain JSON-like values)."""
    out: list[tuple[tuple[Any, ...], str]] = []
    stack: list[tuple[Any, tuple[Any, ...]]] = [(data, loc)]
    while stack:
        v, where = stack.pop()
        if isinstance(v, int) and not isinstance(v, bool) and abs(v) > INT_MAX:
            out.append((where, f"the number {str(v)[:30]}{'...' if len(str(v)) > 30 else ''} is too large "
                               f"(the limit is 2**53)"))
        elif isinstance(v, dict):
            stack.extend((x, where + (k,)) for k, x in v.items())
        elif isinstance(v, list):
            stack.extend((x, where + (i,)) for i, x in enumerate(v))
    return out


def json_depth_exceeds(data: bytes | str, limit: int = JSON_MAX_DEPTH) -> bool:
    """Whether a JSON text nests deeper than ``limit`` (counted on brackets outside strings, without
    parsing: a 100,000-deep message must not reach a recursive parser)."""
    raw = data.encode("utf-8", "replace") if isinstance(data, str) else data
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False
    depth = 0
    in_str = esc = False
    for b in raw:
        if in_str:
            if esc:
                esc = False
            elif b == 0x5C:
                esc = True
            elif b == 0x22:
                in_str = False
        elif b == 0x22:
            in_str = True
        elif b in (0x5B, 0x7B):
            depth += 1
            if depth > limit:
                return True
        elif b in (0x5D, 0x7D):
            depth -= 1
    return False


def count_values(v: Any, stop: int) -> int:
    """How many values ``v`` holds, counted through nesting (shared objects count each time), stopping
    past ``stop``."""
    n = 0
    stack = [v]
    while stack and n <= stop:
        x = stack.pop()
        n += 1
        if isinstance(x, dict):
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return n


def check_case_sizes(case: Any) -> list[tuple[tuple[Any, ...], str]]:
    """A loaded :class:`~oracle.model.Case` against the limits: zone sizes, players, script length,
    free-form fields (integers are checked as the YAML is read)."""
    out = check_setup_sizes(case.setup)
    if len(case.script) > SCRIPT_MAX_DECISIONS:
        out.append((("script",), f"{len(case.script):,} decisions; the limit is {SCRIPT_MAX_DECISIONS:,}"))
    free: list[tuple[tuple[Any, ...], Any]] = [(("setup", "props"), case.setup.props)]
    for pid, p in case.setup.players.items():
        for zone, content in p.zones.items():
            if isinstance(content, list):
                free += [(("setup", "players", pid, zone, j, "props"), cs.props) for j, cs in enumerate(content)]
    free += [(("script", i, "args"), d.args) for i, d in enumerate(case.script)]
    for loc, value in free:
        if count_values(value, FREEFORM_MAX_VALUES) > FREEFORM_MAX_VALUES:
            out.append((loc, f"more than {FREEFORM_MAX_VALUES:,} values in a free-form field"))
    return out


def loads_json(text: str | bytes) -> Any:
    """``json.loads`` within :data:`JSON_MAX_DEPTH` (a results file, a JSON baseline): deeper is a
    ``ValueError`` saying so, never a ``RecursionError``."""
    import json

    if json_depth_exceeds(text):
        raise ValueError(f"JSON nested deeper than {JSON_MAX_DEPTH} levels (see the README's limits)")
    return json.loads(text)
