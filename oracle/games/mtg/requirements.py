"""Block requirements (CR 509.1c): "If the number of requirements that are being obeyed is fewer than the
maximum possible number of requirements that could be obeyed without disobeying any restrictions, the
declaration of blockers is illegal."

Requirements, as abilities: an attacker that ``must_be_blocked`` ("must be blocked if able": one requirement,
obeyed when something blocks it); an attacker with ``lure`` ("all creatures able to block it do so": one
requirement per creature able to block it, obeyed when that creature blocks it); a creature with
``blocks_each_combat`` ("blocks each combat if able": obeyed when it blocks). Restrictions are those of
``combat.py`` (509.1a, 310.8c, flying/reach per pair; menace per attacker).

The maximum is found by a plain search over every restriction-legal declaration of the deciding player's
creatures, exact: a dynamic program over the creatures whose state is each attacker's blocker count capped
at 2 for menace and 1 for "must be blocked", kept only for the attackers with either (all the others need).
Its states grow as 3 to the power of those attackers (16 menace attackers against 16 blockers: past 100 s
and 2 GB), so the search is bounded: past :data:`MAX_STATES` partial declarations it stops with a
:class:`~oracle.errors.LimitError` naming the bound (the case is an ``error`` saying so; the golden cases
need a few hundred at most).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Mapping, Sequence

from ...errors import LimitError

REQUIREMENTS = ("must_be_blocked", "lure", "blocks_each_combat")
MAX_STATES = 200_000
"""Partial declarations the 509.1c search may visit (memory: about 200 bytes each)."""


def obeyed(blocks: Mapping[str, str], has: Callable[[str, str], bool], already: Mapping[str, int]) -> int:
    """How many requirements ``blocks`` ({blocker: attacker}) obeys; ``already``: blockers other players
    declared for each attacker (a "must be blocked" already obeyed is not obeyed again)."""
    n = sum(has(b, "blocks_each_combat") + has(a, "lure") for b, a in blocks.items())
    blocked = set(blocks.values())
    return n + sum(1 for a in blocked if has(a, "must_be_blocked") and not already.get(a))


def most_obeyable(options: Sequence[Sequence[str]], creatures: Sequence[str], attackers: Sequence[str],
                  has: Callable[[str, str], bool], already: Mapping[str, int]) -> int:
    """The most requirements a declaration breaking no restriction can obey. ``options[i]``: the attackers
    ``creatures[i]`` may block by the per-pair restrictions; menace (no attacker with exactly one blocker,
    counting ``already``) is checked on the whole declaration."""
    # only attackers with menace or "must be blocked" need their blocker count (capped: 2 for menace, else 1)
    tracked = [a for a in attackers if has(a, "menace") or (has(a, "must_be_blocked") and not already.get(a))]
    idx = {a: k for k, a in enumerate(tracked)}
    cap = tuple(2 if has(a, "menace") else 1 for a in tracked)
    menace = tuple(has(a, "menace") for a in tracked)
    mbb = tuple(has(a, "must_be_blocked") and not already.get(a) for a in tracked)
    lure = {a: has(a, "lure") for a in attackers}
    bec = tuple(has(c, "blocks_each_combat") for c in creatures)
    start = tuple(min(already.get(a, 0), c) for a, c in zip(tracked, cap))

    visited = 0

    @lru_cache(maxsize=None)
    def best(i: int, counts: tuple[int, ...]) -> int:
        nonlocal visited
        visited += 1
        if visited > MAX_STATES:
            raise LimitError(f"CR 509.1c: finding the most block requirements {len(creatures)} creature(s) can obey "
                             f"against {len(attackers)} attacker(s) ({len(tracked)} with menace or \"must be "
                             f"blocked\") needs more than {MAX_STATES:,} partial declarations, the bound of the "
                             f"reference's search (oracle.games.mtg.requirements.MAX_STATES)")
        if i == len(creatures):
            ok = all(not (m and n == 1) for m, n in zip(menace, counts))
            return 0 if ok else -1
        top = best(i + 1, counts)  # creature i does not block
        for a in options[i]:
            k = idx.get(a)
            after = counts if k is None else counts[:k] + (min(counts[k] + 1, cap[k]),) + counts[k + 1:]
            rest = best(i + 1, after)
            if rest >= 0:
                gain = bec[i] + lure[a] + (k is not None and mbb[k] and counts[k] == 0)
                top = max(top, rest + gain)
        return top

    return max(best(0, start), 0)
