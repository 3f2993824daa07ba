"""Direct reproductions of the phase.rs behaviours in docs/phase-rs.md, with phase-python alone (direct.py).

    python reproduce.py            # every one
    python reproduce.py bug01 ...  # some

Each prints phase's events for the actions taken and a line ``REPRODUCED: ...`` or ``NOT REPRODUCED: ...``.
"""

from __future__ import annotations

import sys

from direct import act, card, engine, game, pass_until, raw, transform, verdict

BEAR = card("Bear", ["Creature"], ["Bear"], "", 2, 2)
BEAR2 = card("Other Bear", ["Creature"], ["Bear"], "", 2, 2)
WALL = card("Wall", ["Creature"], ["Wall"], "", 1, 3)
GIANT = card("Giant", ["Creature"], ["Giant"], "", 5, 5)
ANIMATE = card("Animate", ["Instant"], [], "Target permanent becomes a 3/3 creature in addition to its other types.")
STEAL = card("Steal", ["Instant"], [], "Gain control of target permanent.")
BOLT = card("Bolt", ["Instant"], [], "Bolt deals 3 damage to any target.")
COPY = card("Copy", ["Sorcery"], [], "Target permanent becomes a copy of another target battle.")
PROLIF = card("Prolif", ["Sorcery"], [], "Proliferate. (Choose any number of permanents and/or players, then give "
                                        "each another counter of each kind already there.)")
GROWTH = card("Growth", ["Sorcery"], [], "Put two +1/+1 counters on target creature.")
SIEGE = transform(card("Test Siege", ["Battle"], ["Siege"], "", defense=3),
                  card("Test Warden", ["Creature"], ["Soldier"], "", 3, 3))
RITE = transform(card("Rite Siege", ["Battle"], ["Siege"], "", defense=2),
                 card("Ember Rite", ["Sorcery"], [], "Ember Rite deals 2 damage to any target."))
UNTYPED = card("Plain Battle", ["Battle"], [], "", defense=3)


def obj_target(i):
    return lambda d: d.get("target") == {"Object": i}


def no_blocks(g):
    raw(g, {"type": "DeclareBlockers", "data": {"assignments": []}})


def to_combat_end(g, limit=30):
    for _ in range(limit):
        t = g.waiting_for()["type"]
        if g.phase in ("PostCombatMain", "End", "Cleanup"):
            return
        if t == "Priority":
            act(g, "PassPriority")
        elif t == "DeclareBlockers":
            no_blocks(g)
        else:
            raise RuntimeError(f"phase asks for {t}")


def combat(g):
    cb = g.state()["state"].get("combat") or {}
    return [(a["object_id"], a.get("attack_target")) for a in cb.get("attackers", [])]


def bug01():
    """CR 508.1a: a battle can't attack, even as a creature."""
    g, ids = game(engine([SIEGE, ANIMATE, BEAR]), [
        {"battlefield": [("Test Siege", {"defense": 3, "protector": 1})], "hand": ["Animate"]},
        {"battlefield": ["Bear"]}])
    s = ids[(0, "Test Siege")]
    act(g, "CastSpell", lambda d: d["object_id"] == ids[(0, "Animate")])
    act(g, "ChooseTarget", obj_target(s))
    pass_until(g, lambda g: not g.stack())
    pass_until(g, lambda g: g.waiting_for()["type"] != "Priority")
    valid = g.waiting_for()["data"].get("valid_attacker_ids") or []
    print("types:", g.object(s)["card_types"]["core_types"], "valid attackers:", valid)
    raw(g, {"type": "DeclareAttackers", "data": {"attacks": [[s, {"type": "Player", "data": 1}]], "bands": []}})
    to_combat_end(g)
    verdict(s in valid and g.player(1)["life"] == 17,
            f"the 3/3 Battle Creature attacked; bob's life {g.player(1)['life']} (20 before)")


def bug02():
    """CR 310.9a/310.12a: the protector is chosen as the battle enters."""
    g, ids = game(engine([SIEGE]), [{"hand": ["Test Siege"]}, {}])
    s = ids[(0, "Test Siege")]
    act(g, "CastSpell", lambda d: d["object_id"] == s)
    act(g, "PassPriority")
    act(g, "PassPriority")
    o = g.object(s)
    print("waiting for:", g.waiting_for()["type"], "| zone", o["zone"], "counters", o.get("counters"),
          "protector", o.get("chosen_attributes"))
    verdict(o["zone"] == "Battlefield" and not o.get("chosen_attributes") and g.waiting_for()["type"] == "NamedChoice",
            "the Siege is on the battlefield with its defense counters and no protector while phase waits for the "
            "protector choice")


def _siege_defeated_in_bobs_turn(back):
    g, ids = game(engine([back, BOLT]), [
        {"battlefield": [(back[0]["faceName"], {"defense": 3, "protector": 1})]}, {"hand": ["Bolt"]}], active=1)
    s = ids[(0, back[0]["faceName"])]
    act(g, "CastSpell", lambda d: d["object_id"] == ids[(1, "Bolt")])
    act(g, "ChooseTarget", obj_target(s))
    act(g, "PassPriority")
    act(g, "PassPriority")        # Bolt resolves: the last defense counter goes, the Siege triggers
    act(g, "PassPriority")
    act(g, "PassPriority")        # the trigger resolves: exile it, then alice may cast it transformed
    act(g, "DecideOptionalEffect", lambda d: d["accept"] is True)
    return g, s


def bug03():
    """CR 117.3b: the active player receives priority after a resolution."""
    g, s = _siege_defeated_in_bobs_turn(SIEGE)
    who = g.priority_player()
    print("active player: 1 (bob); priority:", who)
    verdict(who == 0, "after the trigger resolves and alice casts the back face, alice (not the active player) "
                      "holds priority")


def bug04():
    """CR 712.8c/712.11a: a card cast transformed is on the stack back face up."""
    g, s = _siege_defeated_in_bobs_turn(SIEGE)
    o = g.object(s)
    print("on the stack:", o["zone"], "transformed", o.get("transformed"), "types", o["card_types"]["core_types"],
          o["card_types"]["subtypes"], "name", o["name"])
    verdict(o["zone"] == "Stack" and not o.get("transformed") and "Battle" in o["card_types"]["core_types"],
            "the spell cast transformed is a Battle - Siege spell, its front face")


def bug05():
    """CR 506.4: a permanent whose controller changes is removed from combat."""
    g, ids = game(engine([SIEGE, BEAR, STEAL]), [
        {"battlefield": [("Test Siege", {"defense": 5, "protector": 1}), "Bear"]}, {"hand": ["Steal"]}])
    s, b = ids[(0, "Test Siege")], ids[(0, "Bear")]
    pass_until(g, lambda g: g.waiting_for()["type"] != "Priority")
    raw(g, {"type": "DeclareAttackers", "data": {"attacks": [[b, {"type": "Battle", "data": s}]], "bands": []}})
    act(g, "PassPriority")
    act(g, "CastSpell", lambda d: d["object_id"] == ids[(1, "Steal")])
    act(g, "ChooseTarget", obj_target(s))
    act(g, "PassPriority")
    act(g, "PassPriority")
    print("controller", g.object(s)["controller"], "| combat:", combat(g))
    to_combat_end(g)
    o = g.object(s)
    verdict((o.get("counters") or {}).get("defense") == 3,
            f"the Siege, now bob's, stayed the attacked battle and lost 2 defense counters ({o.get('counters')})")


def bug06():
    """CR 707.2: the target permanent becomes the copy."""
    g, ids = game(engine([SIEGE, BEAR, COPY]), [
        {"battlefield": ["Bear", ("Test Siege", {"defense": 3, "protector": 1})], "hand": ["Copy"]}, {}])
    b, s = ids[(0, "Bear")], ids[(0, "Test Siege")]
    act(g, "CastSpell", lambda d: d["object_id"] == ids[(0, "Copy")])
    for want in (b, s):
        if g.waiting_for()["type"] == "TargetSelection":
            act(g, "ChooseTarget", obj_target(want))
    print("targets on the stack:", [e["kind"]["data"]["ability"].get("targets") for e in g.stack()])
    pass_until(g, lambda g: not g.stack() and g.waiting_for()["type"] == "Priority")
    o = g.object(b)
    print("Bear now:", o["zone"], o["name"], o["card_types"]["core_types"])
    verdict(o["zone"] == "Battlefield" and "Creature" in o["card_types"]["core_types"] and o["name"] == "Bear",
            "the Bear is unchanged: no copy was made")


def bug07():
    """CR 805.10d: in Two-Headed Giant the defending team's creatures may block for a teammate's battle."""
    g, ids = game(engine([SIEGE, BEAR, GIANT]), [
        {"battlefield": [("Test Siege", {"defense": 3, "protector": 2}), "Bear"]}, {}, {}, {"battlefield": ["Giant"]}],
        fmt="TwoHeadedGiant")      # teams: seats 0+1 (alice's) and 2+3; bob (2) protects, carol (3) has the Giant
    s, b = ids[(0, "Test Siege")], ids[(0, "Bear")]
    pass_until(g, lambda g: g.waiting_for()["type"] != "Priority")
    raw(g, {"type": "DeclareAttackers", "data": {"attacks": [[b, {"type": "Battle", "data": s}]], "bands": []}})
    asked = []
    for _ in range(30):
        t = g.waiting_for()["type"]
        if g.phase in ("PostCombatMain", "End"):
            break
        if t == "DeclareBlockers":
            asked.append(g.waiting_for()["data"])
            no_blocks(g)
        else:
            act(g, "PassPriority")
    print("blockers asked:", asked)
    verdict(not any(d.get("valid_blocker_ids") for d in asked), "no defending player was asked for blocks; the 5/5 of the protector's teammate could not "
                       "block the Siege's attacker")


def bug08():
    """CR 608.2n: an instant or sorcery spell goes to its owner's graveyard as it resolves."""
    g, s = _siege_defeated_in_bobs_turn(RITE)
    if g.waiting_for()["type"] == "TargetSelection":
        act(g, "ChooseTarget", lambda d: True)
    pass_until(g, lambda g: not g.stack())
    o = g.object(s)
    st = g.state()["state"]
    listed = [z for z, ids in (("battlefield", st["battlefield"]), ("exile", st["exile"]),
                               *((f"{p['id']}.{z}", p[z]) for p in st["players"] for z in ("hand", "library", "graveyard")))
              if s in ids]
    print("object zone:", o and o["zone"], "| listed in:", listed)
    verdict(not listed, "the card is in no zone after the spell left the stack")


def bug09():
    """CR 800.4a: the objects a leaving player owns leave the game."""
    g, ids = game(engine([BEAR, BEAR2]), [{"battlefield": ["Bear"]}, {"battlefield": ["Other Bear"], "life": 2}, {}])
    b, y = ids[(0, "Bear")], ids[(1, "Other Bear")]
    pass_until(g, lambda g: g.waiting_for()["type"] != "Priority")
    raw(g, {"type": "DeclareAttackers", "data": {"attacks": [[b, {"type": "Player", "data": 1}]], "bands": []}})
    to_combat_end(g)
    o = g.object(y)
    print("bob eliminated:", g.player(1)["is_eliminated"], "| his creature:", o and o["zone"])
    verdict(g.player(1)["is_eliminated"] and o is not None and o["zone"] == "Exile",
            "bob's own creature was exiled: it stays in the game, in exile")


def bug10():
    """CR 104.3a: a player who concedes loses the game; phase reports the leaving, not the loss."""
    g, ids = game(engine([BEAR]), [{}, {}, {}])
    events = raw(g, {"type": "Concede", "data": {"player_id": 1}}, seat=1)
    kinds = [e["type"] for e in events]
    print("events:", kinds, "| status", g.player(1).get("status"), "eliminated", g.player(1)["is_eliminated"])
    verdict("PlayerLost" not in kinds and "PlayerEliminated" in kinds,
            "a concession reports PlayerEliminated only (no PlayerLost); the game state is right: the player is out")


def bug11():
    """CR 800.4e: combat damage is not assigned to a player who left."""
    g, ids = game(engine([BEAR, BEAR2]), [{"battlefield": ["Bear", "Other Bear"]}, {}, {}])
    b, y = ids[(0, "Bear")], ids[(0, "Other Bear")]
    pass_until(g, lambda g: g.waiting_for()["type"] != "Priority")
    raw(g, {"type": "DeclareAttackers", "data": {"attacks": [[b, {"type": "Player", "data": 1}],
                                                             [y, {"type": "Player", "data": 2}]], "bands": []}})
    raw(g, {"type": "Concede", "data": {"player_id": 2}}, seat=2)
    to_combat_end(g)
    print("carol eliminated:", g.player(2)["is_eliminated"], "life", g.player(2)["life"])
    verdict(g.player(2)["is_eliminated"] and g.player(2)["life"] == 18, "carol, who left, was dealt 2 combat damage")


def bug12():
    """CR 608.2n: the spell is put into the graveyard as the final part of its resolution."""
    g, ids = game(engine([SIEGE, PROLIF]), [
        {"battlefield": [("Test Siege", {"defense": 3, "protector": 1})], "hand": ["Prolif"]}, {}])
    p = ids[(0, "Prolif")]
    act(g, "CastSpell", lambda d: d["object_id"] == p)
    act(g, "PassPriority")
    act(g, "PassPriority")
    print("waiting for:", g.waiting_for()["type"], "| the spell:", g.object(p)["zone"])
    verdict(g.waiting_for()["type"] == "ProliferateChoice" and g.object(p)["zone"] == "Graveyard",
            "the proliferate spell is in the graveyard while its controller still chooses")


def bug13():
    """CR 509.1a: a blocker blocks a creature that is attacking."""
    g, ids = game(engine([BEAR, BEAR2, WALL]), [{"battlefield": ["Bear", "Other Bear"]}, {"battlefield": ["Wall"]}])
    b, o, w = ids[(0, "Bear")], ids[(0, "Other Bear")], ids[(1, "Wall")]
    pass_until(g, lambda g: g.waiting_for()["type"] != "Priority")
    raw(g, {"type": "DeclareAttackers", "data": {"attacks": [[b, {"type": "Player", "data": 1}]], "bands": []}})
    pass_until(g, lambda g: g.waiting_for()["type"] != "Priority")
    try:
        raw(g, {"type": "DeclareBlockers", "data": {"assignments": [[w, o]]}}, seat=1)
        accepted = True
    except Exception as exc:  # phase refuses: an error
        print("refused:", exc)
        accepted = False
    verdict(accepted, "a block of the Other Bear, which is not attacking, was accepted")


def bug16():
    """CR 310.9a (20260807): a battle with no battle type can be protected only by its controller."""
    g, ids = game(engine([UNTYPED]), [{"battlefield": [("Plain Battle", {"defense": 3, "protector": 1})]}, {}])
    u = ids[(0, "Plain Battle")]
    print("protector:", g.object(u).get("chosen_attributes"))
    verdict(g.object(u).get("chosen_attributes") == [{"type": "Player", "value": 1}],
            "bob, not its controller, is still the protector of alice's battle with no battle type after the "
            "state-based actions")


def siege310_7():
    """CR 310.7 (20231117.0) / 704.5v (20260807): a Siege at 0 defense that is the source of an ability which has
    triggered but not yet left the stack stays on the battlefield (combat damage takes its last counters;
    phase-python 0.77.0 and 0.83.0 put it into the graveyard, 0.103.0 does not)."""
    g, ids = game(engine([SIEGE, BEAR, BEAR2]), [
        {"battlefield": [("Test Siege", {"defense": 2, "protector": 1}), "Bear", "Other Bear"]}, {}])
    s, b, o = ids[(0, "Test Siege")], ids[(0, "Bear")], ids[(0, "Other Bear")]
    pass_until(g, lambda g: g.waiting_for()["type"] != "Priority")
    raw(g, {"type": "DeclareAttackers", "data": {"attacks": [[b, {"type": "Battle", "data": s}],
                                                             [o, {"type": "Battle", "data": s}]], "bands": []}})
    for _ in range(10):
        if g.stack():
            break
        if g.waiting_for()["type"] == "DeclareBlockers":
            no_blocks(g)
        else:
            act(g, "PassPriority")
    print("stack:", [e["kind"]["type"] for e in g.stack()], "| the Siege:", g.object(s)["zone"])
    verdict(g.object(s)["zone"] != "Battlefield",
            "the Siege left the battlefield while the trigger it is the source of is on the stack")


def library121():
    """CR 121.4 with 104.5: a multiplayer player who drew from an empty library loses and leaves (not a bug)."""
    draw = card("Insight", ["Instant"], [], "Draw a card.")
    g, ids = game(engine([draw]), [{}, {"hand": ["Insight"]}, {}])
    act(g, "PassPriority")
    act(g, "CastSpell", lambda d: d["object_id"] == ids[(1, "Insight")])
    pass_until(g, lambda g: not g.stack() or g.player(1)["is_eliminated"])
    print("bob eliminated:", g.player(1)["is_eliminated"])
    verdict(g.player(1)["is_eliminated"], "bob drew from an empty library and left the game (as 121.4 says)")


def token704():
    """CR 704.5d: a token returned to its owner's hand ceases to exist (not a bug: phase does it)."""
    recall = card("Recall", ["Instant"], [], "Return target permanent to its owner's hand.")
    g, ids = game(engine([BEAR, recall]), [{"battlefield": [("Bear", {"is_token": True})]}, {"hand": ["Recall"]}])
    b, r = ids[(0, "Bear")], ids[(1, "Recall")]
    act(g, "PassPriority")
    act(g, "CastSpell", lambda d: d["object_id"] == r)
    pass_until(g, lambda g: not g.stack())
    try:
        g.object(b)
        gone = False
    except ValueError as exc:  # phase no longer has the object
        print("the token:", exc)
        gone = True
    verdict(gone and g.player(0)["hand"] == [], "the token returned to its owner's hand ceased to exist (as 704.5d says)")


ALL = {n: f for n, f in globals().items() if n.startswith(("bug", "library", "siege", "token"))}

if __name__ == "__main__":
    for name in sys.argv[1:] or list(ALL):
        print(f"\n===== {name}: {ALL[name].__doc__}")
        try:
            ALL[name]()
        except Exception as exc:
            print(f"could not play it: {type(exc).__name__}: {exc}")
