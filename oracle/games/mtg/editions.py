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

SEED = "cr-20231117"
CURRENT = "cr-20260807"
PREFIX = "mtg:cr20260807."

# 510.1c (current): "it assigns its combat damage to those creatures divided as its controller chooses among them".
FREE_DAMAGE_DIVISION = frozenset({CURRENT})
# 310.8/704.5w (current): a non-Siege battle with defense 0 goes to the graveyard even while its trigger waits.
SIEGE_ONLY_TRIGGER_EXCEPTION = frozenset({CURRENT})

# The current edition's number for a clause the engine tags in the seed's numbering (where the text differs or
# the rule moved); the seed's 310.7 is tagged per battle by the SBA check itself (310.7 Siege / 310.8 other).
_RENUMBERED = {
    "310.1": "310.1", "310.2": "310.2", "310.4b": "310.4b", "310.4c": "310.4c", "310.6": "310.6",
    "310.8a": "310.9a", "310.8b": "310.9b", "310.8c": "310.9c", "310.8d": "310.9d", "310.8e": "310.9e",
    "310.8f": "310.9f", "310.8g": "310.9g", "310.9": "310.10", "310.10": "310.11",
    "310.11a": "310.12a", "310.11b": "310.12b", "510.1c": "510.1c", "506.4": "506.4",
}


def cite(ruleset: str, clause: str) -> str:
    """The clause id the engine cites under ``ruleset`` for a rule in the seed's numbering (State.c).

    The current 506.4 names every removal from combat the engine performs ("if its controller or protector
    changes", "if it’s a battle that’s being attacked and stops being a battle", "or becomes a battle"), which
    20231117.0 left to the March of the Machine release notes and the seed's summary: under the current edition
    a removal from combat cites it (State.removal_clause)."""
    if ruleset != CURRENT or not clause.startswith("mtg:"):
        return clause
    number = clause[len("mtg:"):]
    return PREFIX + _RENUMBERED[number] if number in _RENUMBERED else clause
