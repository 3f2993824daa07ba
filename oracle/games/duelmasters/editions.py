"""The editions (rulesets) of the Duel Masters procedure and what differs between them.

``dm-seed-crossgear-era`` (default): the seed's procedure (U8: choose -> break -> Ｓ・トリガー, once per shield).
``dm-comprehensive-2024-02-15``: the seed's procedure with the shield-break and direct-attack rules of the
current 総合ルール as cited in ``cases/duelmasters/rules.yaml`` (CR113.6, CR113.6a, CR104.2a).
"""

from __future__ import annotations

SEED = "dm-seed-crossgear-era"
CURRENT = "dm-comprehensive-2024-02-15"

# CR113.6/113.6a: every shield of one break waits together; declarations first, then all move to hand.
SIMULTANEOUS_BREAK = frozenset({CURRENT})
# CR104.2a: an attack on a player with no shield wins as soon as it is not redirected (before U1 effects).
IMMEDIATE_DIRECT_ATTACK = frozenset({CURRENT})
# CR507.1a (2021-09-07): the non-turn player chooses one or more creatures using ブロッカー, at once; they
# resolve in the order chosen, and the last one resolved blocks (official ruling of 2021-09-07).
SEVERAL_BLOCKERS = frozenset({CURRENT})
# CR316.3 (2023-04-10) 例: an evolution creature destroyed takes its sources (進化元) to the graveyard with it
# (the same behaviour under the seed, where it is an assumption; only the clause tag differs).
EVOLUTION_SOURCES = frozenset({CURRENT})
# CR506.3b/603.2f/701.26a (Ver.1.48): 革命チェンジ, a triggered ability of a card in the hand that triggers only when its
# use is declared (after the attack triggers trigger, before any resolves), swapping the attacker for the card.
# The keyword (2016) is later than the seed's era, whose procedure has no declaration: under the seed's ruleset a
# card's revolution_change is never offered (assumption X-revolution-change-edition).
REVOLUTION_CHANGE = frozenset({CURRENT})
# CR301.1/701.3a/112.2a/801.1 (Ver.1.48): the main step before the attacks, where the turn player summons creatures
# of the hand by tapping mana (`summon`). The seed describes the attack procedure only: under its ruleset a case
# starts at the attacks, and no summon is asked (assumption X-summon).
SUMMONING = frozenset({CURRENT})
