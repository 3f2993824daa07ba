"""Later-step setups (``setup.step``): a case that starts with attackers, or attackers and blockers, declared.

``declare_blockers``: attackers are declared (508.1); each attacker is marked ``attacking: <player, planeswalker
or battle id>`` and the case starts as the declare blockers step begins (509.1). ``combat_damage``: blocks are
declared too; a blocker is marked ``blocking: <attacker id>`` and the case starts as the combat damage step begins
(510.1). The setup states the board as it is: an attacker without vigilance is written ``tapped: true`` (508.1f;
not required, since vigilance leaves it untapped). The loader checks the shape (oracle/loader.py, StepSpec).
"""

from __future__ import annotations

from ...core.vocabulary import StepSpec, specs

STEPS = specs(
    StepSpec("declare_blockers", "attackers already declared: each marked attacking: <player | planeswalker id | "
             "battle id>; the case starts as the declare blockers step begins (509.1)",
             attackers=(1, None), target=True, blockers=False, attackers_tapped=False),
    StepSpec("combat_damage", "attackers and blockers already declared: attackers as for declare_blockers, each "
             "blocker marked blocking: <attacker id>; the case starts as the combat damage step begins (510.1)",
             attackers=(1, None), target=True, blockers=True, attackers_tapped=False),
)
