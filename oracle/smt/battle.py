"""What happens after the blocks, as z3 terms over a :class:`~oracle.smt.solver.View`: Ijinden's block
pass-through at C1a and battle judging (D1, D2), Duel Masters' battle (B3, B4), and damage to a Magic
battle (310.6). Written from the rule text; ``misread`` names deliberate misreadings for the tests.
"""

from __future__ import annotations

import z3

from .solver import GUARDIAN, IJIN, View


def c1a_blocked(v: View, i: int, gone: list[z3.BoolRef], misread: frozenset[str] = frozenset()) -> z3.BoolRef:
    """Whether attacker ``i`` is still blocked at C1a when the candidates marked ``gone`` have stopped
    being blockers (PASS-THROUGH-1: none left -> not blocked; PASS-THROUGH-2: the block no longer meets
    B1's legal-block condition -> not blocked)."""
    n = v.blockers_of(i)
    if "no-recheck" in misread:  # misreading: once blocked, always blocked
        return n >= 1
    left = z3.Sum([z3.If(z3.And(v.x[j, i], z3.Not(gone[j])), 1, 0) for j in range(len(v.candidates))])
    return z3.And(left >= 1, left >= v.attackers[i].pressure)


def d1_power(v: View, j: int, misread: frozenset[str] = frozenset()) -> z3.ArithRef:
    """A blocker's power in D1: ガーディアンのパワーは0と見なす (a guardian that is not an Ijin)."""
    c = v.candidates[j]
    if "guardian-printed-power" in misread:
        return c.power
    return z3.If(c.kind == GUARDIAN, 0, c.power)


def d1_judgement(v: View, i: int, misread: frozenset[str] = frozenset()) -> tuple[z3.BoolRef, dict[int, z3.BoolRef]]:
    """D1 for attacker ``i`` and its blockers: (the attacker loses, {blocker: it loses}).

    The attacker compares its power with the blockers' total (one blocker: that blocker's power); each
    blocker compares its own with the attacker's; the greater wins, equal both lose. Assumption
    ijinden:assume.guardian-zero-tie: a lone guardian blocker wins against an attacker of power 0 or less
    (rule card: ガーディアンのブロッカーは、アタッカーのパワーが0 以下のときにだけ勝ちます)."""
    a = v.attackers[i]
    m = len(v.candidates)
    total = z3.Sum([z3.If(v.x[j, i], d1_power(v, j, misread), 0) for j in range(m)]) if m else z3.IntVal(0)
    attacker_loses = a.power < total if "tie-attacker-wins" in misread else a.power <= total
    losers = {}
    for j in range(m):
        c = v.candidates[j]
        own = d1_power(v, j, misread)
        guardian_wins = z3.And(c.kind == GUARDIAN, a.power <= 0)
        losers[j] = z3.And(v.x[j, i], own <= a.power, z3.Not(guardian_wins))
    return attacker_loses, losers


def dm_battle(attacker_power: z3.ArithRef, blocker_power: z3.ArithRef,
              misread: frozenset[str] = frozenset()) -> tuple[z3.BoolRef, z3.BoolRef]:
    """Duel Masters B3/B4: (the attacker goes to the graveyard, the blocker goes): the smaller power
    loses; equal powers, both lose (B4)."""
    if "tie-attacker-wins" in misread:
        return attacker_power < blocker_power, blocker_power <= attacker_power
    return attacker_power <= blocker_power, blocker_power <= attacker_power


def defense_after_damage(defense: z3.ArithRef, damage: z3.ArithRef,
                         misread: frozenset[str] = frozenset()) -> z3.ArithRef:
    """310.6: damage dealt to a battle removes that many defense counters (no more than there are)."""
    if "damage-adds-counters" in misread:
        return defense + damage
    return defense - z3.If(damage < defense, damage, defense)


__all__ = ["IJIN", "c1a_blocked", "d1_judgement", "dm_battle", "defense_after_damage"]
