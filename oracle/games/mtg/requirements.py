"""Block requirements (CR 509.1c): "If the number of requirements that are being obeyed is fewer than the
maximum possible number of requirements that could be obeyed without disobeying any restrictions, the
declaration of blockers is illegal."

Requirements, as abilities: an attacker that ``must_be_blocked`` ("must be blocked if able": one requirement,
obeyed when something blocks it); an attacker with ``lure`` ("all creatures able to block it do so": one
requirement per creature able to block it, obeyed when that creature blocks it); a creature with
``blocks_each_combat`` ("blocks each combat if able": obeyed when it blocks). Restrictions are those of
``combat.py`` (509.1a, 310.8c, flying/reach per pair; menace per attacker).

The maximum is found exactly, over every restriction-legal declaration, by a dynamic program that uses the
board's symmetry. Only the attackers with menace or a "must be blocked" not yet obeyed ("tracked") need
their blocker count; a creature that blocks one of the others simply takes the best gain among them (its
own "blocks each combat", plus one for a lure). Tracked attackers with the same flags (menace, "must be
blocked" not yet obeyed, lure) that every creature may block alike (each creature's options hold all of
them or none) form a *class*: swapping two of them maps declarations to declarations obeying as many
requirements and breaking the same restrictions. Creatures with the same classes in their options, the
same best untracked gain and the same "blocks each combat" form a *kind*. Two searches, both exact; the
one whose state space is the smaller is run:

- by creature (:func:`_by_creature`): the creatures one at a time, the state per class the number of its
  attackers at each capped blocker count (0, 1, 2 for menace; 0, 1 otherwise), not a count per attacker.
  A class no later creature may block is checked (menace: none left at one blocker) and dropped; states:
  at most the product over classes of (size + 1)(size + 2) / 2.
- by class (:func:`_by_class`): the classes one at a time, the state the number of creatures of each kind
  still free; a class takes some of each kind, and the best its attackers make of y blockers (menace: 0 or
  at least 2 each, counting blockers already declared; one "must be blocked" per attacker blocked; a lure
  per blocker) is precomputed. States: at most the product over kinds of (count + 1), times y.

Real boards have few classes and few kinds (flying or not, reach or not, menace, "must be blocked", lure,
"blocks each combat"): 16 menace attackers against 16 creatures is one class and one kind, a few hundred
states; 24 attackers in 12 classes against 24 creatures of 2 kinds, a few thousand. Only boards where few
attackers or few creatures are alike (options given pair by pair) bring back the exponential growth, so the
search stays bounded: past :data:`MAX_STATES` partial declarations (states summed over the steps) it stops
with a :class:`~oracle.errors.LimitError` naming the bound (the case is an ``error`` saying so).
"""

from __future__ import annotations

from math import prod
from typing import Callable, Mapping, NamedTuple, Sequence

from ...errors import LimitError

REQUIREMENTS = ("must_be_blocked", "lure", "blocks_each_combat")
MAX_STATES = 200_000
"""Partial declarations the 509.1c search may visit (memory: about 200 bytes each)."""

_NONE = -1  # no legal declaration reaches this state


def obeyed(blocks: Mapping[str, str], has: Callable[[str, str], bool], already: Mapping[str, int]) -> int:
    """How many requirements ``blocks`` ({blocker: attacker}) obeys; ``already``: blockers other players
    declared for each attacker (a "must be blocked" already obeyed is not obeyed again)."""
    n = sum(has(b, "blocks_each_combat") + has(a, "lure") for b, a in blocks.items())
    blocked = set(blocks.values())
    return n + sum(1 for a in blocked if has(a, "must_be_blocked") and not already.get(a))


class _Board(NamedTuple):
    """The search's view of a board: classes of interchangeable tracked attackers, and per creature the
    classes it may block (``can``), its best gain blocking an untracked attacker (``free``, None when it may
    block none) and its "blocks each combat" (``bec``)."""

    classes: list[list[str]]
    menace: list[bool]      # per class
    mbb: list[bool]         # per class: "must be blocked", not yet obeyed
    lure: list[int]         # per class
    already: list[list[int]]  # per class, per attacker: blockers other players declared
    can: list[tuple[int, ...]]
    free: list[int | None]
    bec: list[int]


def _board(options: Sequence[Sequence[str]], creatures: Sequence[str], attackers: Sequence[str],
           has: Callable[[str, str], bool], already: Mapping[str, int]) -> _Board:
    menace = {a: has(a, "menace") for a in attackers}
    mbb = {a: has(a, "must_be_blocked") and not already.get(a) for a in attackers}
    lure = {a: int(has(a, "lure")) for a in attackers}
    opt_sets = [frozenset(o) for o in options]
    by_key: dict[tuple, list[str]] = {}
    for a in attackers:
        if menace[a] or mbb[a]:
            by_key.setdefault((menace[a], mbb[a], lure[a], tuple(a in s for s in opt_sets)), []).append(a)
    classes = list(by_key.values())
    cls_of = {a: c for c, members in enumerate(classes) for a in members}
    return _Board(classes, [menace[m[0]] for m in classes], [mbb[m[0]] for m in classes],
                  [lure[m[0]] for m in classes], [[already.get(a, 0) for a in m] for m in classes],
                  [tuple(sorted({cls_of[a] for a in s if a in cls_of})) for s in opt_sets],
                  [max((lure[a] for a in s if a not in cls_of), default=None) for s in opt_sets],
                  [int(has(c, "blocks_each_combat")) for c in creatures])


def _limit(b: _Board, creatures: int, attackers: int) -> LimitError:
    return LimitError(f"CR 509.1c: finding the most block requirements {creatures} creature(s) can obey against "
                      f"{attackers} attacker(s) ({sum(map(len, b.classes))} with menace or \"must be blocked\", "
                      f"in {len(b.classes)} class(es) of interchangeable ones) needs more than {MAX_STATES:,} "
                      f"partial declarations, the bound of the reference's search "
                      f"(oracle.games.mtg.requirements.MAX_STATES)")


def most_obeyable(options: Sequence[Sequence[str]], creatures: Sequence[str], attackers: Sequence[str],
                  has: Callable[[str, str], bool], already: Mapping[str, int], *, search: str | None = None) -> int:
    """The most requirements a declaration breaking no restriction can obey. ``options[i]``: the attackers
    ``creatures[i]`` may block by the per-pair restrictions; menace (no attacker with exactly one blocker,
    counting ``already``) is checked on the whole declaration. ``search``: ``"creature"`` or ``"class"`` to
    force one of the two searches (tests); by default the one with the smaller state space."""
    b = _board(options, creatures, attackers, has, already)
    if search is None:
        by_creature = prod((len(m) + 1) * (len(m) + 2) // 2 if men else len(m) + 1
                           for m, men in zip(b.classes, b.menace))
        by_class = prod(len(g) + 1 for g in _kinds(b).values()) * (len(creatures) + 1)
        search = "creature" if by_creature <= by_class else "class"
    best = (_by_creature if search == "creature" else _by_class)(b)
    if best is None:
        raise _limit(b, len(creatures), len(attackers))
    return max(best, 0)


def _by_creature(b: _Board) -> int | None:
    """The creatures one at a time; the state, per class, how many of its attackers have each capped blocker
    count. None past :data:`MAX_STATES`."""
    n, k = len(b.can), len(b.classes)
    cap = [2 if m else 1 for m in b.menace]
    off = [sum(cap[d] + 1 for d in range(c)) for c in range(k)]
    start = [0] * sum(c + 1 for c in cap)
    for c in range(k):
        for a in b.already[c]:
            start[off[c] + min(a, cap[c])] += 1
    # order: creatures that may block rarely blockable classes first (those classes finish early), alike together
    able = [sum(c in can for can in b.can) for c in range(k)]
    order = sorted(range(n), key=lambda i: (min((able[c] for c in b.can[i]), default=n + 1), b.can[i],
                                            b.free[i] is None, b.free[i] or 0, b.bec[i]))
    rem = [[0] * k for _ in range(n + 1)]  # rem[j][c]: creatures from position j on that may block class c
    for j in range(n - 1, -1, -1):
        rem[j] = list(rem[j + 1])
        for c in b.can[order[j]]:
            rem[j][c] += 1
    done = [[c for c in range(k) if rem[j][c] == 0 and (j == 0 or rem[j - 1][c] > 0)] for j in range(n + 1)]

    def settle(j: int, state: list[int]) -> tuple[int, ...] | None:
        """The state entering position ``j``: the classes finished there checked and cleared; None when a
        menace attacker is left (or must be left) with one blocker."""
        for c in done[j]:
            if cap[c] == 2 and state[off[c] + 1]:
                return None
            for v in range(cap[c] + 1):
                state[off[c] + v] = 0
        for c in range(k):
            if cap[c] == 2 and state[off[c] + 1] > rem[j][c]:
                return None
        return tuple(state)

    first = settle(0, start)
    if first is None:
        return _NONE
    layer = {first: 0}
    visited = 1
    for j, i in enumerate(order):
        nxt: dict[tuple[int, ...], int] = {}

        def put(state: list[int], value: int) -> None:
            s = settle(j + 1, state)
            if s is not None and nxt.get(s, _NONE) < value:
                nxt[s] = value

        for state, value in layer.items():
            if visited + len(nxt) > MAX_STATES:
                return None
            put(list(state), value)  # creature i does not block
            if b.free[i] is not None:
                put(list(state), value + b.bec[i] + b.free[i])
            for c in b.can[i]:
                gain = value + b.bec[i] + b.lure[c]
                for v in range(cap[c] + 1):
                    if state[off[c] + v]:
                        after = list(state)
                        if v < cap[c]:
                            after[off[c] + v] -= 1
                            after[off[c] + v + 1] += 1
                        put(after, gain + (v == 0 and b.mbb[c]))
        layer = nxt
        visited += len(layer)
    return max(layer.values(), default=_NONE)


def _kinds(b: _Board) -> dict[tuple[int, ...], list[int]]:
    """Creatures alike for the class search: the same classes in their options -> what each gains by blocking
    a tracked attacker rather than staying free (free: it blocks the best untracked attacker if it may,
    else nothing), best first."""
    out: dict[tuple[int, ...], list[int]] = {}
    for can, free, bec in zip(b.can, b.free, b.bec):
        out.setdefault(can, []).append(bec if free is None else -free)  # bec - (bec + free)
    return {can: sorted(gains, reverse=True) for can, gains in out.items()}


def _class_value(b: _Board, c: int) -> list[int]:
    """The most "must be blocked" requirements class ``c``'s attackers obey with y = 0 .. 2 x size (menace;
    else size) blockers among them, one per attacker blocked; _NONE when no spread of y blockers leaves every
    menace attacker with 0 or at least 2 (counting blockers already declared). From that y on every attacker
    can be blocked legally, so more blockers change nothing (their lures are counted one by one)."""
    most = len(b.classes[c]) * (2 if b.menace[c] else 1)
    g = [0] + [_NONE] * most
    for a in b.already[c]:
        h = [_NONE] * (most + 1)
        for y in range(most + 1):
            for x in range(y + 1):  # x of the y blockers on this attacker
                if g[y - x] == _NONE or (b.menace[c] and a + x == 1):
                    continue
                h[y] = max(h[y], g[y - x] + (x > 0 and b.mbb[c]))
        g = h
    return g


def _by_class(b: _Board) -> int | None:
    """The classes one at a time; the state, how many creatures of each kind are still free (and, inside a
    class, how many blockers it has taken). Of a kind, the creatures that block tracked attackers are those
    that gain most by it (any two of a kind may block the same attackers, so swapping them changes nothing
    else). None past :data:`MAX_STATES`."""
    kinds = list(_kinds(b).items())
    top = [[0] for _ in kinds]  # top[t][u]: the gain of kind t's u best creatures blocking tracked attackers
    for t, (_, gains) in enumerate(kinds):
        for g in gains:
            top[t].append(top[t][-1] + g)
    layer = {tuple(len(gains) for _, gains in kinds): 0}
    visited = 1
    for c in range(len(b.classes)):
        takers = [t for t, (can, _) in enumerate(kinds) if c in can]
        value = _class_value(b, c)
        most = len(value) - 1
        inner = {(free, 0): v for free, v in layer.items()}
        for t in takers:
            used = len(kinds[t][1])
            nxt: dict[tuple[tuple[int, ...], int], int] = {}
            for (free, y), v in inner.items():
                if visited + len(nxt) > MAX_STATES:
                    return None
                u = used - free[t]
                for x in range(free[t] + 1):
                    key = (free[:t] + (free[t] - x,) + free[t + 1:], min(y + x, most))
                    w = v + top[t][u + x] - top[t][u] + b.lure[c] * x
                    if key not in nxt or nxt[key] < w:
                        nxt[key] = w
            inner = nxt
            visited += len(inner)
        layer = {}
        for (free, y), v in inner.items():
            if value[y] != _NONE and (free not in layer or layer[free] < v + value[y]):
                layer[free] = v + value[y]
        visited += len(layer)
        if visited > MAX_STATES:
            return None
    # every creature counted as staying free (blocking the best untracked attacker if it may), plus the gains
    stay = sum(0 if free is None else bec + free for free, bec in zip(b.free, b.bec))
    return max((v + stay for v in layer.values()), default=_NONE)
