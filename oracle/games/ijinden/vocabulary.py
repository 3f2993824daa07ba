"""Ijinden's closed vocabulary: events, decisions, refusal reasons, zones and abilities."""

from __future__ import annotations

from ...core.compose import AbilityRef, Example, static_grammar, triggered_grammar
from ...core.params import (
    AbilityName,
    Alternatives,
    Bool,
    Field,
    Int,
    Keyed,
    ListOf,
    Mapping,
    Named,
    Nothing,
    Omittable,
    OneOf,
    Other,
    label,
    params_of,
)
from ...core.vocabulary import (
    CORE_EVENTS,
    CORE_REASONS,
    AbilitySpec,
    DecisionSpec,
    EventSpec,
    StepSpec,
    Vocabulary,
    specs,
)

EVENTS = specs(
    *CORE_EVENTS,
    EventSpec("declared_battle", ("player",), "A1: the turn player declares the battle and becomes the attacking side", "player"),
    EventSpec("slept", ("card",), "A3: a card is put to sleep (寝かせる)", "card"),
    EventSpec("became_attacker", ("card",), "A3: an Ijin becomes an attacker", "card"),
    EventSpec("attacked", ("player",), "A3: the attacking player has attacked (アタックした)", "player"),
    EventSpec("became_blocker", ("card", "attacker"), "B3: a card becomes a blocker of an attacker", "card"),
    EventSpec("blocked", ("card",), "B3: an attacker is assigned blockers (ブロックされた状態)", "card"),
    EventSpec("chose_attacker", ("player", "card"), "C1a: the defending player chooses the next attacker", "card"),
    EventSpec("unblocked", ("card",), "Block pass-through: the attacker is no longer blocked -- at C1a when its "
              "blockers are all gone (PASS-THROUGH-1); in the moment of the change when they fall short of its "
              "pressure (PASS-THROUGH-2), for good", "card"),
    EventSpec("ceased_attacker", ("card",), "A card stops being an attacker", "card"),
    EventSpec("ceased_blocker", ("card",), "A card stops being a blocker", "card"),
    EventSpec("ceased_ijin", ("card",), "A guardian stops being an Ijin (円形闘技場 gone, or not your turn)", "card"),
    EventSpec("won_battle", ("card", "power", "against"), "D1: a card wins its battle (power compared against `against`)", "card"),
    EventSpec("lost_battle", ("card", "power", "against"), "D1: a card loses its battle", "card"),
    EventSpec("destroyed", ("card",), "A card is destroyed and is now in the being-destroyed state (D2)", "card"),
    EventSpec("undestroyed", ("card",), "D3: a card stops being in the being-destroyed state (これを破壊されていない状態にする)", "card"),
    EventSpec("gained", ("card", "ability"), "A card gains an ability (this turn, or while a continuous effect grants it)", "card"),
    EventSpec("power_changed", ("card", "power"), "A2/B2: attack+ or block+ takes effect: the card's power now", "card"),
    EventSpec("power_modified", ("card", "amount", "power"),
              "An effect changes the card's power by `amount` this turn (「このターンの間、パワーを-2000する」; apart "
              "from attack+/block+): its power now", "card"),
    EventSpec("entered_resolution_step", ("attackers",), "C1: the battle-resolution step begins with these attackers", "attackers"),
    EventSpec("battle_resolution_ended", ("card",), "D6: the battle resolution of this attacker ends", "card"),
    EventSpec("battle_ended", ("player",), "C2: the battle-resolution step ends; the main phase goes on", "player"),
)

DECISIONS = specs(
    DecisionSpec("declare_attackers", "[card, ...]",
                 "A1: declare the battle with these Ijin as attackers (the active player)"),
    DecisionSpec("declare_blockers", "{attacker: [blocker, ...], ...} (may be empty: {})",
                 "B1: the defending player assigns blockers to attackers, each blocker to one attacker"),
    DecisionSpec("choose_attacker", "card", "C1a: the defending player chooses the next attacker to resolve"),
    DecisionSpec("activate", "{card: source, target: card?, targets: {name: card | [card, ...]}?, cost: card?}",
                 "Use a triggered ability of `card` (optional: 発動できる; or mandatory, to name its targets) with its "
                 "targets and cost: `target` when it has one target choosing one card, else `targets` by the "
                 "composition's target names"),
    DecisionSpec("decline", "card", "Do not use an optional triggered ability of `card`"),
    DecisionSpec("order_triggers", "[card, ...]",
                 "The order in which a player's simultaneous triggers resolve (first first)"),
    DecisionSpec("discard", "card", "Choose the card to put from hand to the graveyard (航海: draw then discard)"),
    DecisionSpec("end_turn", "null", "The active player ends the main phase (the case stops there)"),
)

REASONS = {
    **CORE_REASONS,
    "not_turn_player": "A1: only the player whose turn it is declares a battle (or ends the main phase: "
                       "`declare_attackers` or `end_turn` by the other player)",
    "battle_already_declared": "a battle may be declared only once per main phase",
    "no_attackers": "A1: one or more attackers must be chosen",
    "attacker_sleeping": "A1: a sleeping Ijin cannot become an attacker",
    "attacker_placed_this_turn": "A1: an Ijin placed on the battlefield this turn cannot attack (unless 即応)",
    "attacker_not_ijin": "A1: only an Ijin can become an attacker (a guardian only while it is an Ijin)",
    "attacker_not_yours": "A1: attackers are the attacking player's own Ijin",
    "attacker_twice": "A1: the same card is listed twice",
    "blocker_sleeping": "B1: a sleeping Ijin or guardian cannot be a blocker (unless it has ウォッチャー, `watcher`)",
    "blocker_not_defenders": "B1: blockers are the defending player's Ijin or guardians",
    "blocker_not_ijin_or_guardian": "B1: only an Ijin or a guardian can block",
    "blocker_assigned_twice": "B1: each blocker is assigned to one attacker",
    "blocker_ijin_forbidden": "B1: the attacker has 「イジンにブロックされない」 (`unblockable_by_ijin`): an Ijin cannot "
                              "be its blocker (a guardian that is not an Ijin can)",
    "not_an_attacker": "the card is not an attacker",
    "pressure_not_met": "B1: an attacker with pressure N needs N or more blockers, or none",
    "no_such_trigger": "the card has no pending triggered ability to use or decline",
    "illegal_target": "the chosen target is not a legal one for the ability",
    "illegal_cost": "the cost cannot be paid with the chosen card",
    "not_in_hand": "the card is not in the player's hand",
    "wrong_order": "the order does not name exactly the pending triggers",
    "mandatory_trigger": "the ability's condition does not say 発動できる: it cannot be declined (Q&A: 「発動しないことを"
                         "選べる能力は、条件に「発動できる」と書かれています。」; ijinden:assume.mandatory-trigger). Not a 遺業: "
                         "遺業 is 発動できる",
}

ZONES = ("battlefield", "hand", "deck", "graveyard")

# -- the parameters abilities.py and state.py read (oracle.core.params) ------------------------------------

NONE = Nothing()
AMOUNT = Int()
"""A power amount: アタック+X, パワーを-2000する."""
COUNT = Int(minimum=1)
"""A number of cards (a draw, a discard) or of blockers."""
DRAW = Omittable(COUNT, 1)
"""abilities._draw: ``int(t.params or 1)``."""

CARD_TYPES = ("ijin", "guardian", "haikei")
"""What a card is: イジン, ガーディアン (a card face down on the battlefield), ハイケイ (a card on the battlefield that
is neither: 《徳川吉宗》's 「戦場のハイケイ1つ」)."""

RANGE = Mapping((Field("min", Int(minimum=0), None, "no minimum"), Field("max", Int(minimum=0), None, "no maximum")))
"""A count between ``min`` and ``max`` (both included)."""

TARGET_FILTER = Named("FILTER", Mapping((
    Field("types", ListOf(OneOf(CARD_TYPES), min_items=1), None, "any type"),
    Field("controller", OneOf(("you", "opponent", "any")), "any"),
    Field("role", OneOf(("attacker", "blocker")), None, "any role or none"),
    Field("sleeping", Bool(), None, "sleeping or awake"),
    Field("battle", OneOf(("this",)), None, "any battle or none"),
    Field("power", RANGE, None, "any power"),
    Field("level", RANGE, None, "any level"),
    Field("zone", OneOf(("battlefield", "graveyard")), "battlefield"),
)))
"""abilities.legal_targets: the cards an ability may affect (``types`` as the card is now, ``controller`` from the
ability's controller's side -- a card off the battlefield is its owner's --, ``role`` now, ``sleeping`` 寝ている状態 or
not, ``battle: this`` the cards of this card's battle -- this card and the attacker it blocks or is, with that
attacker's blockers: 「これとこれをブロックしているブロッカーすべて」 --, ``power`` now (「パワー4000以下の」: max 4000),
``level`` (「レベル7以下の」: max 7; a card with no level given has none and is never allowed by it), ``zone``: on the
battlefield, or in a graveyard (「自分の墓地のレベル7以下のイジン1体」))."""

EFFECT = Keyed("effect", "Ijinden", (
    ("destroy", NONE), ("return_to_hand", NONE), ("power", AMOUNT), ("gain", AbilityName(bare=True))))
"""abilities.apply_effect: what a generic ability (遺業, 冥府発動, ブロックされたとき) does to its target."""

ANY_CARD: dict = {}
"""The target filter a generic ability without ``target`` has: any card on the battlefield (its doc)."""

GENERIC = Mapping((
    Field("effect", EFFECT),
    Field("target", Alternatives((OneOf(("self",)), TARGET_FILTER)), ANY_CARD, "{} (any card on the battlefield)"),
))
"""abilities.resolve_effect: ``{effect, target?}`` of 遺業, 冥府発動 and ブロックされたとき."""

# -- composed abilities (oracle.core.compose; issue 25): each part stated once ---------------------------------

TRIGGER_EVENTS = ("became_attacker", "attacked", "slept", "became_blocker", "blocked", "destroyed", "put_into_graveyard",
                  "put_onto_battlefield")
"""The events a composed ability may trigger on -- the procedure's own (A3 slept (寝たとき: also an effect's 寝かせる,
resolved after that effect) / became_attacker / attacked, B3
became_blocker / blocked, D2 destroyed, D4 put into the graveyard from the battlefield, each resolved at the
next step: A4, B4, D3, D5); ``put_onto_battlefield`` (戦場に置かれたとき: an effect's 戦場に置く, resolved after that
effect). ``attacked`` is about a player: ``watch: yours`` = its controller attacked,
``opponents`` = an opponent did; its subject is the lone attacker when one attacked."""

EVENT_CONDITION = Mapping((Field("attackers", RANGE, None, "any number"), Field("power", RANGE, None, "any power"),
                           Field("from", OneOf(("graveyard",)), None, "any zone")))
"""What must hold when the event happens, for the ability to trigger at all: ``attackers`` (``attacked`` only) -- how
many attacked (「1体だけでアタックしたとき」 max 1, 「3体以上でアタックしたとき」 min 3); ``power`` -- this card's power
then (「これのパワーが6000以上なら、これが寝たときに発動する」: min 6000); ``from`` (``put_onto_battlefield`` only) --
the zone the card came from (「墓地から戦場に置かれたとき」: graveyard). Judged at the event, not again as the
ability resolves (ijinden:assume.trigger-condition-at-the-event)."""

CONDITION = Named("CONDITION", Mapping((
    Field("destroyed", Bool(), None, "either"),
    Field("cards", Mapping((Field("zone", OneOf(ZONES)), Field("player", OneOf(("you", "opponent"))),
                            Field("types", ListOf(OneOf(CARD_TYPES), min_items=1), None, "any card"),
                            Field("min", Int(minimum=0), None, "no minimum"),
                            Field("max", Int(minimum=0), None, "no maximum"))), None, "any"),
)))
"""What must hold: ``destroyed`` -- this card is (true) or is not in the 破壊されている state; ``cards`` -- the number
of cards in a player's zone (``you``: the ability's controller; 「相手の墓地に5枚以下」: graveyard, opponent, max 5), of
the ``types`` given when written (「相手の戦場のガーディアンが1体以下」: battlefield, opponent, [guardian], max 1)."""

COST = Mapping((Field("put_into_graveyard", TARGET_FILTER, None, "-"), Field("sleep", TARGET_FILTER, None, "-")))
"""One of: ``put_into_graveyard`` -- 「自分の戦場の…1体を墓地に置いて発動できる」: one of your cards on the battlefield
other than this one that the filter allows, named by ``activate {cost: id}``, put into the graveyard as the ability
resolves; ``sleep`` -- 「自分の戦場の…をすきなだけ寝かせて発動できる」: any number (none included) of your awake cards on
the battlefield that the filter allows, named by ``activate {cost: [id, ...]}``, put to sleep as the ability
resolves (``power_per_cost`` counts them). What paying triggers resolves after the ability."""

COMPOSED_EFFECT = Keyed("effect", "Ijinden", (
    ("destroy", NONE), ("return_to_hand", NONE), ("power", AMOUNT), ("gain", AbilityName(bare=True)),
    ("unattack", NONE), ("undestroy", NONE), ("sleep", NONE), ("power_per_cost", AMOUNT),
    ("put_onto_battlefield", NONE), ("draw", COUNT), ("discard", COUNT), ("guardian_from_deck", COUNT)))
"""abilities.EFFECTS: what a composed ability's effect does. On cards (``on``: this | subject | a target; left out:
the ability's only target): destroy (D2-D5 order), return_to_hand, power: N (this turn), gain: ability (this turn),
unattack (アタッカーでない状態にする), undestroy (破壊されていない状態にする), sleep (寝かせる: the awake ones; their 寝たとき
abilities resolve after it), power_per_cost: N (this turn, N for each card its ``sleep`` cost put to sleep: 「寝かせた1体に
つき」); on a card in a graveyard (a target with ``zone: graveyard``): put_onto_battlefield (戦場に置く: onto its
owner's battlefield, awake, placed this turn). ``on: [a, b]``: the cards of several targets in one effect (「それらの
イジンすべてを破壊する」: destroyed at once). On its controller (no ``on``): draw: N,
discard: N (the controller chooses, ``discard`` decisions), guardian_from_deck: N (「自分の山札の上からN枚を裏のまま戦場に
置く」: each a guardian, whatever its card, awake, placed this turn)."""

CARD_EFFECTS = ("destroy", "return_to_hand", "power", "gain", "unattack", "undestroy", "sleep", "power_per_cost",
                "put_onto_battlefield")
GRAVEYARD_EFFECTS = ("put_onto_battlefield",)
"""The effects on a card in a graveyard; every other card effect acts on cards on the battlefield."""
PLAYER_EFFECTS = ("draw", "discard", "guardian_from_deck")


def _composed_checks(value, loc, ctx):
    """What the core grammar cannot know: a card effect needs a card (``on``, or the one target); a player
    effect takes no ``on``; ``attacked`` is watched for a player (yours, opponents, any); an event condition only on
    ``attacked``; a cost only on an optional ability (「…を墓地に置いて発動できる」)."""
    out = []
    targets = value.get("targets") or []
    for i, e in enumerate(value.get("effects") or []):
        if not isinstance(e, dict):
            continue
        kinds = [k for k in e if k != "on"]
        where = loc + ("effects", i)
        if any(k in PLAYER_EFFECTS for k in kinds) and "on" in e:
            out.append((where + ("on",), f"{label(where + ('on',))}: draw, discard and guardian_from_deck are "
                                         f"the ability's controller's; write no `on`"))
        if any(k in CARD_EFFECTS for k in kinds) and "on" not in e and len(targets) != 1:
            out.append((where, f"{label(where)}: which card? write `on: this | subject | <target name>` "
                               f"(left out only when the ability has exactly one target)"))
    when = value.get("when") or {}
    if isinstance(when, dict) and when.get("event") == "attacked" and when.get("watch", "this") in ("this",
                                                                                                     "another_yours"):
        out.append((loc + ("when", "watch"), f"{label(loc + ('when', 'watch'))}: `attacked` is about a player (アタック"
                                             f"した): watch yours, opponents or any"))
    if isinstance(when, dict) and isinstance(when.get("condition"), dict) and "attackers" in when["condition"] \
            and when.get("event") != "attacked":
        at = loc + ("when", "condition", "attackers")
        out.append((at, f"{label(at)}: only `attacked` counts the attackers (how many attacked)"))
    if isinstance(when, dict) and isinstance(when.get("condition"), dict) and "from" in when["condition"] \
            and when.get("event") != "put_onto_battlefield":
        at = loc + ("when", "condition", "from")
        out.append((at, f"{label(at)}: only `put_onto_battlefield` comes from a zone (「墓地から戦場に置かれたとき」)"))
    if value.get("cost") is not None and not value.get("optional"):
        out.append((loc + ("cost",), f"{label(loc + ('cost',))}: a cost is paid by choice "
                                     f"(「…を墓地に置いて発動できる」): write `optional: true`"))
    if isinstance(value.get("cost"), dict) and len(value["cost"]) != 1:
        out.append((loc + ("cost",), f"{label(loc + ('cost',))}: a cost is one of put_into_graveyard or sleep"))
    zones = {t.get("name"): (t.get("filter") or {}).get("zone", "battlefield") for t in targets if isinstance(t, dict)}
    for i, e in enumerate(value.get("effects") or []):
        if not isinstance(e, dict):
            continue
        on = e.get("on")
        named = on if isinstance(on, list) else [on] if on is not None else list(zones)[:1]
        for kind in (k for k in e if k in CARD_EFFECTS):
            for n in named:
                zone = zones.get(n, "battlefield")  # this, subject: cards on the battlefield
                if (kind in GRAVEYARD_EFFECTS) != (zone == "graveyard"):
                    at = loc + ("effects", i)
                    out.append((at, f"{label(at)}: {kind} acts on a card "
                                    + ("in a graveyard: name a target whose filter has `zone: graveyard`"
                                       if kind in GRAVEYARD_EFFECTS else
                                       f"on the battlefield, and {n!r} is a target in a graveyard")))
    if isinstance(value.get("cost"), dict) and any(isinstance(f, dict) and f.get("zone", "battlefield") != "battlefield"
                                                   for f in value["cost"].values()):
        out.append((loc + ("cost",), f"{label(loc + ('cost',))}: a cost is paid with cards on the battlefield; "
                                     f"write no `zone`"))
    sleeps = isinstance(value.get("cost"), dict) and "sleep" in value["cost"]
    for i, e in enumerate(value.get("effects") or []):
        if isinstance(e, dict) and "power_per_cost" in e and not sleeps:
            out.append((loc + ("effects", i), f"{label(loc + ('effects', i))}: power_per_cost counts the cards a "
                                              f"`sleep` cost put to sleep; this ability has none"))
    return out


TRIGGERED = Example(triggered_grammar(events=TRIGGER_EVENTS, effects=COMPOSED_EFFECT, filter=TARGET_FILTER,
                                      condition=CONDITION, event_condition=EVENT_CONDITION, cost=COST,
                                      several_on=True, also=_composed_checks),
                    {"when": {"event": "became_blocker"}, "effects": [{"draw": 1}]})
"""``{triggered: {...}}``: abilities.interpret."""

DESTROYED_IN_BATTLE = Mapping((Field("filter", TARGET_FILTER), Field("blockers_include", TARGET_FILTER, None, "any")))
"""《魔除けの社》's 「バトル解決に際し、自分の戦場のガーディアンがブロッカーに含まれているなら、パワー4000以下のアタッカーは
破壊される。」: in each battle resolution whose blockers include a card ``blockers_include`` allows, the cards of that
battle (its attacker and blockers) that ``filter`` allows are destroyed at D2, with the losers (both read from the
static's controller's side)."""


def _static_checks(value, loc, ctx):
    """A static's filters read cards on the battlefield (``zone`` is a target's, not a static's)."""
    out = []
    spots = [(("affects",), value.get("affects"))]
    for i, r in enumerate(value.get("rules") or []):
        if isinstance(r, dict) and isinstance(r.get("destroyed_in_battle"), dict):
            d = r["destroyed_in_battle"]
            spots += [(("rules", i, "destroyed_in_battle", k), d.get(k)) for k in ("filter", "blockers_include")]
    for where, f in spots:
        if isinstance(f, dict) and f.get("zone", "battlefield") != "battlefield":
            at = loc + where + ("zone",)
            out.append((at, f"{label(at)}: a static reads cards on the battlefield; write no `zone`"))
    if value.get("rules") and any(isinstance(r, dict) and "destroyed_in_battle" in r for r in value["rules"]) \
            and value.get("affects", "this") != "this":
        at = loc + ("affects",)
        out.append((at, f"{label(at)}: destroyed_in_battle names its cards in its own filter; write no `affects`"))
    return out


STATIC = Example(static_grammar(affects=TARGET_FILTER, grants=AbilityRef(), condition=CONDITION,
                                rules=Keyed("rule", "Ijinden", (("loses", AbilityName(bare=True)),
                                                                ("destroyed_in_battle", DESTROYED_IN_BATTLE))),
                                zones=("graveyard",), also=_static_checks),
                 {"grants": ["watcher"]})
"""``{static: {...}}``: state.State.granted -- while the condition holds, the affected cards (this, or the cards on
the battlefield the filter allows, from this card's controller's side) have the granted abilities; ``rules: [{loses:
ability}]`` (「…の間「ダブルプレッシャー」を失い」): they do not have that ability, printed, gained or granted, and cannot
gain it meanwhile (state.State.lost); ``rules: [{destroyed_in_battle: ...}]``: more cards destroyed at D2
(:data:`DESTROYED_IN_BATTLE`). ``zone: graveyard`` (「この能力は墓地で効果を発揮する」): it applies while its card is in
its owner's graveyard, not on the battlefield."""

ABILITIES = specs(
    AbilitySpec("attack_plus", AMOUNT, "アタック+X: +X power while an attacker, in effect from A2", "seed A2"),
    AbilitySpec("block_plus", AMOUNT, "ブロック+X: +X power while a blocker, in effect from B2", "seed B2"),
    AbilitySpec("pressure", COUNT, "Pressure N: needs N or more blockers (ダブル=2, トリプル=3)", "seed B1"),
    AbilitySpec("double_pressure", NONE, "ダブルプレッシャー: pressure 2", "seed D2 note"),
    AbilitySpec("triple_pressure", NONE, "トリプルプレッシャー: pressure 3", "seed Q&A"),
    AbilitySpec("sokuou", NONE, "即応: may become an attacker the turn it was placed", "seed 円形闘技場"),
    AbilitySpec("voyage_draw", DRAW, "航海 - アタッカーになったとき、N ドローする", "seed 足利義満"),
    AbilitySpec("voyage_draw_discard",
                Omittable(Mapping((Field("draw", COUNT, 1), Field("discard", COUNT, 1))), {}, "draw 1, discard 1"),
                "航海 - アタッカーになったとき、1ドローして、自分の手札1枚を墓地に置く", "seed A4"),
    AbilitySpec("grant_voyage",
                Mapping((Field("min_power", AMOUNT, 0), Field("draw", COUNT, 1))),
                "足利義満: while on the battlefield, your Ijin with power >= min_power have 航海 draw N", "seed A2"),
    AbilitySpec("lone_attack_double_pressure", NONE,
                "自分が1体だけでアタックしたとき: the attacker gains ダブルプレッシャー this turn", "seed A4"),
    AbilitySpec("three_attackers_destroy", NONE,
                "相手が3体以上でアタックしたとき、アタッカー1体を指定して発動できる。そのアタッカーをアタッカーでない状態にして、これを破壊する。",
                "seed A4"),
    AbilitySpec("block_draw", DRAW, "ブロッカーになったとき、N ドローする", "seed B4"),
    AbilitySpec("arena", NONE,
                "円形闘技場: during your turn, your guardians are also Ijin with power 3000 and 即応", "seed A4"),
    AbilitySpec("undestroy", Mapping((Field("cost", OneOf(("guardian",))),)),
                "破壊されたとき、自分の戦場のガーディアン1体を墓地に置いて発動できる。これを破壊されていない状態にする。",
                "seed D3 (安倍晴明, 出雲の阿国)"),
    AbilitySpec("legacy_draw", DRAW,
                "遺業能力:(戦場から墓地に置かれたときに発動できる)N ドローする (千利休's 遺業: 1): optional, asked as "
                "`activate {card}` or `decline card` when it resolves (D5)", "seed D5; 千利休's card text"),
    AbilitySpec("netherworld_unattack", NONE,
                "冥府発動 (a マホウ guardian): when put into the graveyard from the battlefield, choose an attacker: "
                "it is no longer an attacker (synthetic effect)", "seed C1 note, D2 note"),
    AbilitySpec("netherworld_destroy", NONE,
                "冥府発動 (a マホウ guardian): when put into the graveyard from the battlefield, choose an attacker "
                "and destroy it (synthetic effect)", "seed C1 note"),
    AbilitySpec("block_unattack", NONE,
                "ブロッカーになったとき、アタッカー1体を指定して発動できる。そのアタッカーをアタッカーでない状態にする。 (synthetic)",
                "seed A4 note"),
    AbilitySpec("block_destroy", NONE,
                "ブロッカーになったとき、戦場のカード1枚を指定して発動できる。それを破壊する。 (synthetic)", "seed Q&A"),
)

ABILITIES.update(specs(
    AbilitySpec("watcher", NONE,
                "ウォッチャー: may be chosen as a blocker at B1 while sleeping (寝ていてもブロッカーになれる); losing it "
                "after B1 does not end the block",
                "イジンデン コラム 第12廻 (daiso-syuppan.com/public/ijinden-13)"),
    AbilitySpec("unblockable_by_ijin", NONE,
                "イジンにブロックされない: at B1 no Ijin (a guardian that is an Ijin included) may be assigned as this "
                "attacker's blocker (refused `blocker_ijin_forbidden`); a guardian that is not an Ijin may",
                "イジンデンQ&A_240216 (「このターンの間、アタッカーは「イジンにブロックされず、破壊されない」を得る。」)"),
    AbilitySpec("indestructible", NONE,
                "破壊されない: when this would be destroyed (D2 as a loser, or an effect's 破壊する) it is not: no "
                "`destroyed`, nothing triggers, it stays on the battlefield (ijinden:assume.indestructible)",
                "イジンデンQ&A_240216 (「このターンの間、アタッカーは「イジンにブロックされず、破壊されない」を得る。」)"),
    AbilitySpec("indestructible_by_opponents", NONE,
                "相手の能力によって破壊されない: an effect of an ability its controller's opponent controls does not "
                "destroy it (no `destroyed`, nothing triggers); losing a battle (D2) or its own side's abilities do",
                "リザレクション's card text (「自分の戦場のイジンは、相手の能力によって破壊されない。」)"),
    AbilitySpec("triggered", TRIGGERED,
                "A triggered ability composed of parts: when (event, watch, condition), optional (発動できる), condition "
                "(checked as it resolves), cost (always one of its controller's own cards on the battlefield other "
                "than this one, narrowed by the filter), targets (each with its filter, count N or all) and effects in "
                "order; "
                "asked as `activate {card, target?, targets?, cost?}` / `decline card` (PROCEDURE.md, composed "
                "abilities). Every named triggered ability is shorthand for one (abilities.SHORTHAND)",
                "seed A4, B4, D3, D5 (issue 25)"),
    AbilitySpec("static", STATIC,
                "A static ability: while the condition holds, the affected cards (this, or those the filter allows) "
                "have the granted abilities (e.g. 「相手の墓地に5枚以下しかない間」「ウォッチャー」を得る)",
                "seed A2 (足利義満's form); イジンデン コラム 第12廻 (周瑜)"),
    AbilitySpec("legacy", GENERIC,
                "遺業能力:(戦場から墓地に置かれたときに発動できる) (D5), optional: `activate` naming a target the filter "
                "allows (any card on the battlefield: an attacker, a blocker of another attacker, ...) or `decline`; "
                "with no legal target only `decline` is accepted", "seed D5, C1 note; 千利休's card text"),
    AbilitySpec("netherworld", GENERIC,
                "冥府発動 (a マホウ guardian): 戦場から墓地に置かれたとき、…発動できる (D5), optional: the effect on a "
                "target the filter allows", "seed C1 note"),
    AbilitySpec("when_blocked", GENERIC,
                "ブロックされたとき (an attacker's B3 event 「ブロッカーに指定された状態になる」, resolved in B4), "
                "mandatory: the effect (`target: self` = this attacker)", "seed B3, B4"),
    AbilitySpec("grant_by_power",
                Mapping((Field("min_power", AMOUNT, 0), Field("ability", AbilityName()),
                         Field("params", Other("that ability's params"), None, "none")),
                        also=params_of("ability", "params")),
                "これが戦場にいる間、自分の戦場のパワーN以上のイジンは「…」を得る (足利義満's form): your Ijin with power "
                ">= min_power have the ability (e.g. double_pressure) while their power is that high",
                "seed A2 (足利義満)"),
))

PLAYER_FIELDS = {"battle_declared": "bool: this main phase's battle has been declared (by the turn player; the "
                                    "same value for every player: it is the main phase's, not the declarer's)"}

CARD_FIELDS = {
    "zone": "battlefield | hand | deck | graveyard",
    "owner": "player id",
    "sleeping": "bool",
    "attacker": "bool: is an attacker now",
    "blocker": "bool: is a blocker now",
    "destroyed": "bool: in the being-destroyed state",
    "ijin": "bool: is an Ijin now (a guardian under 円形闘技場 on its controller's turn is)",
    "guardian": "bool: is a guardian",
    "power": "int: current power with every continuous effect (attack+/block+ and effects' power changes "
             "included); a guardian's is its printed or set power (D1 counts a guardian's as 0 in battle, the field "
             "does not)",
    "abilities": "[name, ...]: abilities it has now, granted ones included, in any order (compared as a multiset); "
                 "each by the name a card lists it under: a composed ability as `triggered` or `static` (its own "
                 "`name:` is what `triggered`/`resolved` events call it)",
}

FIELD_EVENTS = {
    "zone": ("moved",),
    "sleeping": ("slept",),
    "attacker": ("became_attacker", "ceased_attacker"),
    "blocker": ("became_blocker", "ceased_blocker"),
    "destroyed": ("destroyed", "undestroyed"),
    "ijin": ("ceased_ijin",),
    "power": ("power_changed", "power_modified"),
    "abilities": ("gained",),
    "battle_declared": ("declared_battle",),
}

STEPS = specs(
    StepSpec("block", "ブロックステップ B1: the battle is declared and the attack step is over (A1-A4: the "
                      "cards marked `attacking: true` were put to sleep and became attackers, attack+ is in "
                      "effect, what that triggered has resolved); the defender declares blockers next",
             attackers=(1, None)),
    StepSpec("resolution", "バトル解決ステップ C1: the block step is over too (B1-B4: each card marked "
                           "`blocking: <attacker>` became its blocker, block+ is in effect); C1 begins next",
             attackers=(1, None), blockers=True),
    StepSpec("after_battle", "メインフェイズ after this turn's battle (C2 is over): the battle has been "
                             "declared this turn; the turn player may end the turn", attackers=(0, 0)),
)

VOCABULARY = Vocabulary(
    game="ijinden",
    events=EVENTS,
    decisions=DECISIONS,
    reasons=REASONS,
    zones=ZONES,
    abilities=ABILITIES,
    player_fields=PLAYER_FIELDS,
    card_fields=CARD_FIELDS,
    field_events=FIELD_EVENTS,
    steps=STEPS,
    players=(2, 2),
)
