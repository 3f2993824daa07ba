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



def matcher(expr: str):
    """Compile ``expr`` to a predicate over a case's searchable text (case-insensitive substrings)."""
    tokens = [t for t in _TOKEN.findall(expr) if t]
    pos = 0

    def peek():
        return tokens[pos] if pos < len(tokens) else None

    def take():
        nonlocal pos
        pos += 1
        return tokens[pos - 1]

    def parse_or():
        left = parse_and()
        while peek() == "or":
            take()
            right = parse_and()
            left = (lambda a, b: lambda s: a(s) or b(s))(left, right)
        return left

    def parse_and():
        left = parse_not()
        while peek() == "and":
            take()
            right = parse_not()
            left = (lambda a, b: lambda s: a(s) and b(s))(left, right)
        return left

    def parse_not():
        if peek() == "not":
            take()
            inner = parse_not()
            return lambda s: not inner(s)
        return parse_atom()

    def parse_atom():
        tok = peek()
        if tok is None:
            raise SelectError(f"-k {expr!r}: the expression ends too early")
        if tok == "(":
            take()
            inner = parse_or()
            if peek() != ")":
                raise SelectError(f"-k {expr!r}: missing ')'")
            take()
            return inner
        if tok in (")", "and", "or"):
            raise SelectError(f"-k {expr!r}: unexpected {tok!r}")
        word = take().lower()
        return lambda s: word in s

    pred = parse_or()
    if pos != len(tokens):
        raise SelectError(f"-k {expr!r}: unexpected {tokens[pos]!r}")
    return pred


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
