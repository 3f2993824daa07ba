"""Magic 509.1c: the reference's search for the most block requirements a declaration can obey
(``oracle.games.mtg.requirements.most_obeyable``) equals the search it replaced (kept here as the oracle:
a memoised search over every attacker's capped blocker count) on random small boards, and finds the maximum
of large boards that the old search could not (their expected values are derived in each test)."""

from __future__ import annotations

from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle.errors import LimitError
from oracle.games.mtg import requirements
from oracle.games.mtg.requirements import most_obeyable


def old_most_obeyable(options, creatures, attackers, has, already) -> int:
    """The search before issue 24 (commit 9ef3ce7), unbounded: state, each tracked attacker's blocker count."""
    tracked = [a for a in attackers if has(a, "menace") or (has(a, "must_be_blocked") and not already.get(a))]
    idx = {a: k for k, a in enumerate(tracked)}
    cap = tuple(2 if has(a, "menace") else 1 for a in tracked)
    menace = tuple(has(a, "menace") for a in tracked)
    mbb = tuple(has(a, "must_be_blocked") and not already.get(a) for a in tracked)
    lure = {a: has(a, "lure") for a in attackers}
    bec = tuple(has(c, "blocks_each_combat") for c in creatures)
    start = tuple(min(already.get(a, 0), c) for a, c in zip(tracked, cap))

    @lru_cache(maxsize=None)
    def best(i, counts):
        if i == len(creatures):
            return 0 if all(not (m and n == 1) for m, n in zip(menace, counts)) else -1
        top = best(i + 1, counts)
        for a in options[i]:
            k = idx.get(a)
            after = counts if k is None else counts[:k] + (min(counts[k] + 1, cap[k]),) + counts[k + 1:]
            rest = best(i + 1, after)
            if rest >= 0:
                top = max(top, rest + bec[i] + lure[a] + (k is not None and mbb[k] and counts[k] == 0))
        return top

    return max(best(0, start), 0)


def board(attacker_flags, creature_flags, options=None):
    """Attackers ``a0..``, creatures ``c0..`` with the given ability sets; ``options[i]``: the attackers
    creature i may block (default: all)."""
    attackers = [f"a{i}" for i in range(len(attacker_flags))]
    creatures = [f"c{i}" for i in range(len(creature_flags))]
    flags = dict(zip(attackers, map(set, attacker_flags))) | dict(zip(creatures, map(set, creature_flags)))
    options = [list(attackers) for _ in creatures] if options is None else options
    return options, creatures, attackers, (lambda card, ability: ability in flags[card])


ATTACKER_FLAGS = st.sets(st.sampled_from(["menace", "must_be_blocked", "lure"]))


@st.composite
def small_boards(draw):
    na, nc = draw(st.integers(0, 6)), draw(st.integers(0, 6))
    aflags = draw(st.lists(ATTACKER_FLAGS, min_size=na, max_size=na))
    cflags = draw(st.lists(st.sets(st.just("blocks_each_combat")), min_size=nc, max_size=nc))
    attackers = [f"a{i}" for i in range(na)]
    if draw(st.booleans()):  # options pair by pair (few attackers or creatures alike)
        options = [[a for a in attackers if draw(st.booleans())] for _ in range(nc)]
    else:  # flying / reach: a flier is blocked only by creatures with reach (many alike)
        fliers = draw(st.lists(st.booleans(), min_size=na, max_size=na))
        reach = draw(st.lists(st.booleans(), min_size=nc, max_size=nc))
        options = [[a for a, f in zip(attackers, fliers) if r or not f] for r in reach]
    already = {a: draw(st.sampled_from([0, 0, 0, 1, 2])) for a in attackers}  # blockers of other players
    return (*board(aflags, cflags, options), already)


@settings(max_examples=400, deadline=None)
@given(small_boards())
def test_the_search_equals_the_old_one_on_random_small_boards(b):
    expected = old_most_obeyable(*b)
    assert most_obeyable(*b) == expected
    assert most_obeyable(*b, search="creature") == expected
    assert most_obeyable(*b, search="class") == expected


@pytest.mark.parametrize("n", [12, 16])
def test_menace_boards_the_old_search_could_not_finish(n):
    """n menace attackers against n creatures that each block each combat if able: every creature can block
    (in pairs, n even), so all n requirements are obeyed; with "must be blocked" too, the n creatures block
    at most n / 2 attackers with two each, so n + n / 2."""
    menace = [{"menace"}] * n
    assert most_obeyable(*board(menace, [{"blocks_each_combat"}] * n), {}) == n
    assert most_obeyable(*board([{"menace", "must_be_blocked"}] * n, [{"blocks_each_combat"}] * n), {}) == n + n // 2
    # plain creatures: only the n / 2 "must be blocked" a declaration can obey; menace alone: nothing to obey
    assert most_obeyable(*board([{"menace", "must_be_blocked"}] * n, [set()] * n), {}) == n // 2
    assert most_obeyable(*board(menace, [set()] * n), {}) == 0
    # an odd number of creatures (n - 1): still all block (one attacker takes three), (n - 2) / 2 attackers blocked
    assert most_obeyable(*board([{"menace", "must_be_blocked"}] * n, [{"blocks_each_combat"}] * (n - 1)), {}) \
        == (n - 1) + (n - 2) // 2


def test_a_mixed_large_board():
    """16 attackers: 8 ground menace that must be blocked (M), 4 flying menace that must be blocked (F),
    4 flying lures (L); 16 creatures: 6 with reach (block anything), 10 plain that block each combat (ground
    only). The 10 plain creatures all block (10 requirements), in groups of two or more on M's. With r of the
    reach creatures on L's (r lures obeyed), the 16 - r creatures left give at most (16 - r) // 2 attackers
    two blockers each: at most 10 + r + (16 - r) // 2, largest at r = 6: 10 + 6 + 5 = 21, reached by the six
    reach creatures on L's and the plain ones in five pairs on M's."""
    aflags = [{"menace", "must_be_blocked"}] * 8 + [{"menace", "must_be_blocked", "flying"}] * 4 + [{"lure", "flying"}] * 4
    cflags = [{"reach"}] * 6 + [{"blocks_each_combat"}] * 10
    options, creatures, attackers, has = board(aflags, cflags)
    options = [[a for a in attackers if not has(a, "flying") or has(c, "reach")] for c in creatures]
    assert most_obeyable(options, creatures, attackers, has, {}) == 21
    # an M already blocked once by another player (2HG): its "must be blocked" is obeyed, and menace needs one
    # more blocker on it, which obeys nothing new; the 15 - r others: at most 10 + r + (15 - r) // 2 = 20
    # (r = 5 or 6)
    assert most_obeyable(options, creatures, attackers, has, {"a0": 1}) == 20


def test_many_classes_against_few_kinds_of_creature():
    """24 attackers in 12 classes (flying or not x six sets of menace / must be blocked / lure, two of each)
    against 24 creatures (12 plain, 12 with reach). Obeyed = lures (one per blocker on a lure attacker) + "must
    be blocked"s. Let S be the creatures on attackers without lure: lures <= 24 - |S|; the "must be blocked"s
    of attackers with lure are at most 8, of those without at most |S| (each needs a blocker of S): at most
    32. Reached: on each side (plain on ground, reach on fliers) one blocker on each of the 2 mbb-lure
    attackers, two on each of the 2 menace-mbb-lure ones, the 6 left on any lure attacker: 24 + 8."""
    combos = [{"menace"}, {"menace", "must_be_blocked"}, {"menace", "lure"}, {"menace", "must_be_blocked", "lure"},
              {"must_be_blocked"}, {"must_be_blocked", "lure"}]
    aflags = [c | f for f in (set(), {"flying"}) for c in combos for _ in range(2)]
    options, creatures, attackers, has = board(aflags, [set()] * 12 + [{"reach"}] * 12)
    options = [[a for a in attackers if not has(a, "flying") or has(c, "reach")] for c in creatures]
    assert most_obeyable(options, creatures, attackers, has, {}) == 32


def test_a_board_past_the_bound_is_a_located_error(monkeypatch):
    """Options given pair by pair leave no two attackers and no two creatures alike: the state space grows as
    2 to the power of the creatures, and 20 of them pass :data:`MAX_STATES`."""
    import random

    rng = random.Random(24)
    options, creatures, attackers, has = board([{"menace"}] * 20, [{"blocks_each_combat"}] * 20)
    options = [[a for a in attackers if rng.random() < 0.5] for _ in creatures]
    with pytest.raises(LimitError) as err:
        most_obeyable(options, creatures, attackers, has, {})
    assert "CR 509.1c" in str(err.value) and "needs more than 200,000 partial declarations" in str(err.value)
    assert "oracle.games.mtg.requirements.MAX_STATES" in str(err.value)
    # and the bound is the module's: a small one stops even the 16 x 16 menace board
    monkeypatch.setattr(requirements, "MAX_STATES", 10)
    with pytest.raises(LimitError, match="needs more than 10 partial declarations"):
        most_obeyable(*board([{"menace", "must_be_blocked"}] * 16, [set()] * 16), {})
