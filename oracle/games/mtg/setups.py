"""Later-step setups (``setup.step``): a case that starts with attackers, or attackers and blockers, declared.

``declare_blockers``: attackers are declared (508.1); each attacker carries ``props: {attacking: <player,
planeswalker or battle id>}`` and the case starts as the declare blockers step begins (509.1). ``combat_damage``:
blocks are declared too; a blocker carries ``props: {blocking: <attacker id>}`` and the case starts as the combat
damage step begins (510.1). The setup states the board as it is: an attacker without vigilance is written
``tapped: true`` (508.1f). This module only checks the setup's shape (light: the loader imports it).
"""

from __future__ import annotations

from typing import Any

STEPS = {
    "declare_blockers": "attackers already declared: each attacker has props {attacking: player | planeswalker id | "
                        "battle id}; the case starts as the declare blockers step begins (509.1)",
    "combat_damage": "attackers and blockers already declared: attackers as for declare_blockers, each blocker has "
                     "props {blocking: attacker id}; the case starts as the combat damage step begins (510.1)",
}

Problem = tuple[tuple[Any, ...], str]


def setup_problems(setup) -> list[Problem]:
    """Located errors of a Magic setup's combat state: ``attacking``/``blocking`` only where the step has them."""
    out: list[Problem] = []
    step = setup.step
    if step is not None and setup.phase not in ("main", "combat"):
        out.append((("setup", "phase"), f"setup.step {step!r} is a combat step; phase {setup.phase!r} is not combat"))
    ids: dict[str, tuple[str, dict[str, Any]]] = {}
    for p in setup.players.values():
        for zone, content in p.zones.items():
            if isinstance(content, int):
                continue
            for cs in content:
                ids[cs.id] = (zone, cs.props)
    attackers = {cid for cid, (zone, props) in ids.items() if "attacking" in props}
    for pid, p in setup.players.items():
        for zone, content in p.zones.items():
            if isinstance(content, int):
                continue
            for j, cs in enumerate(content):
                loc = ("setup", "players", pid, zone, j, "props")
                owner = cs.controller or pid
                if "attacking" in cs.props:
                    target = cs.props["attacking"]
                    if step not in STEPS:
                        out.append((loc + ("attacking",), f"{cs.id} is attacking, but the setup starts before attackers "
                                    f"are declared ({'no setup.step' if step is None else f'setup.step {step!r}'}); use setup.step "
                                    "declare_blockers or combat_damage"))
                    elif zone != "battlefield":
                        out.append((loc + ("attacking",), f"{cs.id} attacks from {zone}; attackers are on the battlefield"))
                    elif owner != setup.active:
                        out.append((loc + ("attacking",), f"{cs.id} attacks but {owner}, not the active player "
                                    f"{setup.active}, controls it (508.1a)"))
                    elif not (target in setup.players or target in ids) or target == cs.id:
                        out.append((loc + ("attacking",), f"{cs.id} attacks {target!r}, which is neither a player nor a "
                                    "permanent of the setup"))
                if "blocking" in cs.props:
                    if step != "combat_damage":
                        out.append((loc + ("blocking",), f"{cs.id} is blocking, but blockers are declared only in the "
                                    f"declare blockers step; use setup.step combat_damage (setup.step is {step!r})"))
                    elif cs.props["blocking"] not in attackers:
                        out.append((loc + ("blocking",), f"{cs.id} blocks {cs.props['blocking']!r}, which is not an "
                                    "attacker of the setup (props.attacking)"))
    if step in STEPS and not attackers:
        out.append((("setup", "step"), f"setup.step {step!r} needs attackers (props.attacking): with none the declare "
                    "blockers and combat damage steps are skipped (508.8)"))
    return out
