"""The editions (rulesets) of the Magic rules the reference engine follows, and what differs between them.

``cr-20231117`` (default): CR 310 as the seed quotes it (総合ルール 20231117.0), with damage assignment order
(510.1c before the Foundations update of November 2024) and 310.7's exception for any battle that is the source
of a triggered ability still on the stack.

``cr-20260807``: the Comprehensive Rules effective August 7, 2026 (MagicCompRules 20260819.txt), the edition
phase.rs follows: 510.1c divides a blocked creature's damage "as its controller chooses among them" (no damage
assignment order); 310.7/704.5v keep the exception for Sieges only, 310.8/704.5w put any other battle with
defense 0 into its owner's graveyard; battle rules 310.8-310.11 are renumbered 310.9-310.12. Its clauses carry
the prefix ``mtg:cr20260807.`` in the catalog.
"""

from __future__ import annotations

from . import clauses as cl

SEED = "cr-20231117"
CURRENT = "cr-20260807"

# 510.1c (current): "it assigns its combat damage to those creatures divided as its controller chooses among them".
FREE_DAMAGE_DIVISION = frozenset({CURRENT})
# 310.8/704.5w (current): a non-Siege battle with defense 0 goes to the graveyard even while its trigger waits.
SIEGE_ONLY_TRIGGER_EXCEPTION = frozenset({CURRENT})

# The current edition's clause for a clause the engine tags in the seed's numbering (where the text differs or
# the rule moved); the seed's 310.7 is tagged per battle by the SBA check itself (310.7 Siege / 310.8 other).
_RENUMBERED = {
    cl.CR310_1: cl.CR20260807_310_1, cl.CR310_2: cl.CR20260807_310_2, cl.CR310_4B: cl.CR20260807_310_4B,
    cl.CR310_4C: cl.CR20260807_310_4C, cl.CR310_6: cl.CR20260807_310_6,
    cl.CR310_8A: cl.CR20260807_310_9A, cl.CR310_8B: cl.CR20260807_310_9B, cl.CR310_8C: cl.CR20260807_310_9C,
    cl.CR310_8D: cl.CR20260807_310_9D, cl.CR310_8E: cl.CR20260807_310_9E, cl.CR310_8F: cl.CR20260807_310_9F,
    cl.CR310_8G: cl.CR20260807_310_9G, cl.CR310_9: cl.CR20260807_310_10, cl.CR310_10: cl.CR20260807_310_11,
    cl.CR310_11A: cl.CR20260807_310_12A, cl.CR310_11B: cl.CR20260807_310_12B, cl.CR510_1C: cl.CR20260807_510_1C,
    cl.CR506_4: cl.CR20260807_506_4,
}


def cite(ruleset: str, clause: str) -> str:
    """The clause id the engine cites under ``ruleset`` for a clause in the seed's numbering (State.c).

    The current 506.4 names every removal from combat the engine performs ("if its controller or protector
    changes", "if it’s a battle that’s being attacked and stops being a battle", "or becomes a battle"), which
    20231117.0 left to the March of the Machine release notes and the seed's summary: under the current edition
    a removal from combat cites it (State.removal_clause)."""
    if ruleset != CURRENT:
        return clause
    return _RENUMBERED.get(clause, clause)
