"""``-k EXPR``: pytest-style selection of cases by words of their id, title, game and clause ids.

``-k "ijinden and not qa"`` keeps the Ijinden cases whose id or title does not contain ``qa``;
``-k "ijinden and not arena"`` those whose cards do not use 円形闘技場's ability.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterable

from ..errors import SelectError

if TYPE_CHECKING:
    from ..loader import LoadedCase, Suite

_TOKEN = re.compile(r"\s*(\(|\)|[^\s()]+)")



MAX_NESTING = 32
"""Parentheses of ``-k`` nested at most this deep (deeper is a usage error, never a ``RecursionError``)."""


def matcher(expr: str):
    """Compile ``expr`` to a predicate over a case's searchable text (case-insensitive substrings). ``or``
    and ``and`` chains are flat lists (1,000 terms cost no stack), ``not not`` folds, nesting is bounded."""
    tokens = [t for t in _TOKEN.findall(expr) if t]
    pos = 0

    def peek():
        return tokens[pos] if pos < len(tokens) else None

    def take():
        nonlocal pos
        pos += 1
        return tokens[pos - 1]

    def parse_or(depth):
        terms = [parse_and(depth)]
        while peek() == "or":
            take()
            terms.append(parse_and(depth))
        return terms[0] if len(terms) == 1 else (lambda ts: lambda s: any(t(s) for t in ts))(terms)

    def parse_and(depth):
        terms = [parse_not(depth)]
        while peek() == "and":
            take()
            terms.append(parse_not(depth))
        return terms[0] if len(terms) == 1 else (lambda ts: lambda s: all(t(s) for t in ts))(terms)

    def parse_not(depth):
        negate = False
        while peek() == "not":
            take()
            negate = not negate
        inner = parse_atom(depth)
        return (lambda s: not inner(s)) if negate else inner

    def parse_atom(depth):
        tok = peek()
        if tok is None:
            raise SelectError(f"-k {expr!r}: the expression ends too early")
        if tok == "(":
            if depth >= MAX_NESTING:
                raise SelectError(f"-k {_short(expr)}: parentheses nested deeper than {MAX_NESTING} levels")
            take()
            inner = parse_or(depth + 1)
            if peek() != ")":
                raise SelectError(f"-k {_short(expr)}: missing ')'")
            take()
            return inner
        if tok in (")", "and", "or"):
            raise SelectError(f"-k {_short(expr)}: unexpected {tok!r}")
        word = take().lower()
        return lambda s: word in s

    pred = parse_or(0)
    if pos != len(tokens):
        raise SelectError(f"-k {_short(expr)}: unexpected {tokens[pos]!r}")
    return pred


def _short(expr: str) -> str:
    return repr(expr) if len(expr) <= 200 else repr(expr[:200]) + f"... ({len(expr):,} characters)"


def haystack(case, extra=()) -> str:
    """What ``-k`` words match: id, title, game, clause ids, features, and the abilities its cards use."""
    from .request import used_abilities

    return " ".join([case.id, case.title, case.game, *case.rules, *case.features,
                     *sorted(used_abilities(case, extra))]).lower()


def select_cases(suite: Suite, k: str | None = None, games: Iterable[str] | None = None) -> list[LoadedCase]:
    """The suite's cases of ``games`` (all when none) that ``-k k`` keeps, in suite order."""
    pred = matcher(k) if k else None
    wanted = set(games) if games else None
    return [lc for lc in suite.cases
            if (wanted is None or lc.case.game in wanted) and (pred is None or pred(haystack(lc.case, lc.extra)))]
