"""Magic's closed vocabulary for battles (CR 310) and the combat, stack and SBA subset they need."""

from __future__ import annotations

from dataclasses import dataclass

from .setups import STEPS
from ...core.compose import SUBJECT, THIS, Example, static_grammar, triggered_grammar
from ...core.params import (Bool, Context, Field, Int, Keyed, Loc, Mapping, Named, Nothing, OneOf, Param, Problem, label,
                           shown)
from ...core.vocabulary import (
    CORE_EVENTS,
    CORE_REASONS,
    AbilitySpec,
    DecisionSpec,
    EventSpec,
    Vocabulary,
    specs,
)

EVENTS = specs(
    *CORE_EVENTS,
    EventSpec("cast", ("card", "player", "face", "free"), "601/310.1: a spell is cast (put on the stack)", "card"),
    EventSpec("countered", ("card",), "a spell or ability leaves the stack without resolving", "card"),
    EventSpec("counters_placed", ("card", "kind", "count", "defense"),
              "310.4b/310.4c: counters are put on a permanent (defense = its defense after)", "card"),
    EventSpec("counters_removed", ("card", "kind", "count", "left"),
              "310.6: counters are removed (defense by damage to a battle, loyalty by damage to a planeswalker)", "card"),
    EventSpec("protector_chosen", ("card", "player", "previous"),
              "310.8a/310.11a/310.10: a player becomes a battle's protector (previous: who stopped being it)", "card"),
    EventSpec("tapped", ("card",), "508.1f: a permanent becomes tapped", "card"),
    EventSpec("became_attacker", ("card", "target"),
              "508.1k: a creature becomes an attacking creature, attacking a player, planeswalker or battle", "card"),
    EventSpec("defending_player", ("player", "via"),
              "506.2/310.8d: a player is a defending player this combat (via: the battle they protect, or null)",
              "player"),
    EventSpec("became_blocker", ("card", "attacker"), "509.1g: a creature becomes a blocking creature", "card"),
    EventSpec("blocked", ("card",), "509.1h: an attacking creature becomes blocked", "card"),
    EventSpec("removed_from_combat", ("card",), "506.4: a permanent is removed from combat", "card"),
    EventSpec("damaged", ("source", "target", "amount", "combat"),
              "510.2/120: a source deals damage to a player, creature, planeswalker or battle", "target"),
    EventSpec("life_changed", ("player", "amount", "life"), "a player's life total changes", "player"),
    EventSpec("unattached", ("card", "from"), "310.9: a battle attached to something becomes unattached", "card"),
    EventSpec("left_game", ("player",), "800.4a: a player who lost a multiplayer game leaves it (then the objects they "
              "own move to outside_game and what they still control is exiled)", "player"),
    EventSpec("control_changed", ("card", "player"), "a permanent's controller changes", "card"),
    EventSpec("types_changed", ("card", "types"), "a type-changing effect applies (types: the card types after)", "card"),
    EventSpec("became_copy", ("card", "of"), "a permanent becomes a copy of another permanent", "card"),
    EventSpec("token_created", ("card", "player", "name"),
              "111.1/111.2: an effect creates a token on the battlefield; the player who creates it owns and controls "
              "it (card: the token's id, `<source id>.token<n>`; name: its card in the pool)", "card"),
    EventSpec("ceased_to_exist", ("card",), "704.5d/111.7: a token in a zone other than the battlefield ceases to "
              "exist (a state-based action; it is then in no zone and not in the final state)", "card"),
    EventSpec("discarded", ("card", "player"), "701.9a: a card moves from its owner's hand to their graveyard "
              "(with its `moved` in the same moment)", "card"),
    EventSpec("combat_ended", ("player",), "511: the end of combat step; every creature stops attacking and blocking",
              "player"),
)

DECISIONS = specs(
    DecisionSpec("cast", "{card: id, targets: [id, ...]?}",
                 "601/310.1: cast a spell from hand (the player with priority)"),
    DecisionSpec("pass", "null", "117.3d: pass priority; when all players pass in succession the top of the stack "
                                 "resolves (or, with an empty stack, the step ends). Passes may be left out: a player "
                                 "with priority whose pass or cast is not the next script entry passes (PROCEDURE.md)"),
    DecisionSpec("end_main", "null",
                 "the active player, with an empty stack in a main phase, moves on (to combat, or ends the turn "
                 "after the second main phase)"),
    DecisionSpec("concede", "null",
                 "104.3a: the player concedes, leaves the game at once and loses it (accepted at every decision "
                 "point, by any player still in the game: where they hold priority or make the active player's "
                 "main-phase move it is the point's own decision, elsewhere it comes before the player asked decides, "
                 "who is then asked again: mtg:A-concede); with teams the whole team leaves (810.8b)", any_time=True),
    DecisionSpec("choose_protector", "player",
                 "310.8a/310.11a/310.10: the battle's controller chooses its protector (asked for each such battle, "
                 "in the order they enter or need one)"),
    DecisionSpec("declare_attackers", "{attacker: target, ...} (target = player id or planeswalker/battle id; {} for none)",
                 "508.1a/b: the active player's attack declaration"),
    DecisionSpec("declare_blockers", "{blocker: attacker, ...} ({} for none)",
                 "509.1a: each defending player in turn order declares blocks for the creatures they control"),
    DecisionSpec("assign_combat_damage", "{attacker: {blocker or attacked player/permanent: amount, ...}, ...}",
                 "510.1c: the attacking player divides the damage of each creature blocked by two or more "
                 "(cr-20231117: in the damage assignment order they list, lethal to each before the next; "
                 "cr-20260807: as they choose); 702.19b: a blocked creature with trample whose power exceeds its "
                 "blockers' lethal damage may also assign to what it attacks, once each blocker has lethal damage. "
                 "Asked in each combat damage step (510.4: two with first or double strike) where it is a choice"),
    DecisionSpec("proliferate", "[permanent id, ...] ([] for none)",
                 "701.34a: as a proliferate spell resolves, its controller chooses any number of permanents that "
                 "have a counter"),
    DecisionSpec("choose_targets", "{target name: id | [id, ...], ...} (one id for a target of count 1)",
                 "603.3d/601.2c: as a composed triggered ability with targets is put on the stack, its controller "
                 "chooses them, each by the name the ability gives it (asked in the order the abilities go on the "
                 "stack, APNAP)"),
    DecisionSpec("use_optional", "bool",
                 "603.5: as an optional (\"may\") composed triggered ability resolves, its controller chooses whether "
                 "to do it"),
    DecisionSpec("choose_copy", "permanent id | null",
                 "707.2/614.1c: as a permanent with enters_as_copy enters, its controller chooses the permanent it "
                 "enters as a copy of (one its filter allows), or null: it enters as itself"),
    DecisionSpec("discard", "[card id, ...]",
                 "701.9b: the discarding player chooses that many cards of their hand (all of them when they hold no "
                 "more)"),
    DecisionSpec("cast_transformed", "bool | {targets: [id, ...]}",
                 "310.11b: as the Siege trigger resolves, its controller may cast it transformed without paying its "
                 "mana cost; a back face with a target is given it as it is cast (601.2c): {targets: [...]}"),
)

REASONS = {
    **CORE_REASONS,
    "not_in_hand": "601.2a: the card is not in the caster's hand",
    "not_your_turn": "307.1/310.1: a non-instant spell is cast only by the active player",
    "not_main_phase": "307.1/310.1: a non-instant spell is cast only in a main phase",
    "stack_not_empty": "307.1/310.1: a non-instant spell is cast only when the stack is empty",
    "illegal_target": "601.2c/603.3d/115: the chosen targets are not legal for the spell or ability",
    "illegal_protector": "310.8a/310.11a: that player can't be the battle's protector (a Siege's must be an opponent)",
    "attacker_not_yours": "508.1a: attackers are creatures the active player controls",
    "not_a_creature": "508.1a/509.1a: only creatures attack or block",
    "battle_cant_attack": "508.1a: a battle can't attack, even if it is also a creature",
    "attacker_tapped": "508.1a: a tapped creature can't attack",
    "attacker_summoning_sick": "302.6/508.1a: a creature without haste attacks only if controlled since the turn began",
    "illegal_attack_target": "508.1b: a creature attacks an opponent, a planeswalker an opponent controls, or a battle",
    "protector_cant_attack": "310.8b: a battle's protector can never attack it",
    "teammate_protects_battle": "310.8b/two-headed giant: no attacking a battle your teammate protects",
    "battle_cant_block": "509.1a: a battle can't block, even if it is also a creature",
    "blocker_tapped": "509.1a: a tapped creature can't block",
    "blocker_not_yours": "509.1a: a defending player declares blocks for creatures they control",
    "not_an_attacker": "509.1a: a blocker blocks a creature that is attacking",
    "not_protector": "310.8c: only creatures the battle's protector controls can block creatures attacking it",
    "not_defending": "509.1a: the attacker is not attacking this player, a planeswalker they control or a battle they protect "
                     "(one attacking nothing may be blocked by a defending player: 506.4c)",
    "flying": "702.9b: a creature with flying can be blocked only by creatures with flying or reach",
    "menace": "702.111b: a creature with menace can't be blocked except by two or more creatures",
    "block_requirements_not_maximized": "509.1c: the blocks obey fewer requirements (must be blocked, all able to "
                                        "block it do so, blocks each combat if able) than a declaration breaking no "
                                        "restriction could",
    "no_counters": "701.34a: proliferate chooses only permanents and players that have a counter",
    "trample_before_lethal": "702.19b: damage is assigned to what a trampler attacks only once all its blockers are "
                             "assigned lethal damage",
    "illegal_discard": "701.9b: the discard names cards not in the discarding player's hand, or not as many as it "
                       "discards",
    "illegal_damage_assignment": "510.1c: the damage must add up to the attacker's power (cr-20231117: lethal to each blocker in order before the next)",
}

ZONES = ("battlefield", "hand", "library", "graveyard", "exile", "stack", "outside_game")

# -- the parameters abilities.py, casting.py and combat.py read (oracle.core.params) --------------------------

NONE = Nothing()
COUNT = Int(minimum=1)
"""A number: damage (120.3), cards drawn (121.2), counters (122.1), life lost (119.3); each effect uses it as is."""
POWER_TOUGHNESS = Mapping((Field("power", Int()), Field("toughness", Int())))
"""The P/T a permanent becomes (abilities._become_creature: ``pt["power"], pt["toughness"]``)."""

# -- composed abilities (oracle.core.compose, issue 25): Magic's parts, each stated once ---------------------

KINDS = ("permanent", "creature", "battle", "planeswalker", "player", "any_target")
"""What a filter is: a permanent of that card type, a player, or any target (115.4: a creature, player,
planeswalker or battle)."""
FILTER = Mapping((
    Field("is", OneOf(KINDS), "permanent"),
    Field("controller", OneOf(("you", "opponent", "any")), "any",
          "any (a player: themselves; you = the ability's controller, opponent = an opponent of theirs)"),
    Field("other", Bool(), False, "false (true: not the ability's own card)"),
))
"""A target's filter, a static ability's affected cards, an event condition's entering card."""
TRIGGER_EVENTS = ("entered", "became_attacker", "put_into_graveyard")
"""A composed trigger's events: ``entered`` -- a permanent enters the battlefield (603.6a; the trace's
``moved {to: battlefield}`` or ``token_created``); ``became_attacker`` -- a creature is declared as an attacker
(508.1m; the trace's ``became_attacker``); ``put_into_graveyard`` -- a permanent is put into a graveyard from the
battlefield (603.6c: "When this creature dies", "Whenever a creature is put into a graveyard from the battlefield";
the trace's ``moved {from: battlefield, to: graveyard}``), looking back in time (603.10a): the abilities of the
permanents on the battlefield immediately before, those leaving with it included, with their controllers and the
leaving permanent's types of that moment."""
EVENT_CONDITION = Mapping((
    Field("is", OneOf(KINDS[:4]), None, "any permanent"),
    Field("attackers_at_least", Int(minimum=1), None, "any number"),
))
"""What the event must also be: the card it is about is ``is`` (603.6a "Whenever a [type] enters"); at least N
creatures were declared attackers with it (became_attacker only; 508.1m, 603.2: "Whenever this and at least two
other creatures attack" is 3)."""
@dataclass(frozen=True, slots=True)
class CardName(Param):
    """A card of the pool, by its name (a token's definition: 111.3, its characteristics are the card's)."""

    def check(self, value, loc, ctx):
        if not isinstance(value, str) or not value.strip():
            return [(loc, f"{label(loc)}: expected a card name of the pool, got {shown(value)}")]
        return []

    def grammar(self):
        return "card name"

    def fits(self, value):
        return isinstance(value, str)

    def sample(self, ctx):
        return "Oracle Soldier Token"


TOKEN = Mapping((Field("card", CardName()), Field("count", COUNT, 1)))
"""create_token's parameter: which card of the pool defines the token (111.3) and how many are created."""
EFFECTS = Keyed("effect", "Magic", (
    ("draw", COUNT),
    ("deal_damage", COUNT),
    ("lose_life", COUNT),
    ("defending_player_loses_life", COUNT),
    ("put_p1p1_counters", COUNT),
    ("create_token", TOKEN),
    ("discard", COUNT),
    ("discard_at_random", COUNT),
))
"""The effects a composed ability does, in order (abilities.COMPOSED_EFFECTS does them): ``deal_damage`` N to
``on`` (required: a target, this or subject; 120.3); ``draw`` N (121.2; ``on`` a player target, else the
ability's controller); ``lose_life`` N (119.3; ``on`` a player target, required); ``defending_player_loses_life``
N (508.5: the defending player for the attacking creature ``on``, default this); ``put_p1p1_counters`` N on
``on`` (default this; a creature, 122.1a); ``create_token`` (111.2: the ability's controller creates ``count``
tokens of ``card``; no ``on``); ``discard`` N (701.9b: the player ``on`` -- a player target, required --
chooses N cards of their hand); ``discard_at_random`` N (701.9b: the player ``on`` -- required -- discards N cards
of their hand at random; nobody is asked)."""
PLAYER_EFFECTS = {"draw": False, "lose_life": True, "discard": True, "discard_at_random": True}
"""Effects that act on a player (``on`` a target whose filter is ``is: player``), and whether ``on`` is required."""


def _composed_check(value: dict, loc: Loc, ctx: Context) -> list[Problem]:
    """What one part of a Magic composition says of another: an event condition the event has, and each effect
    ``on`` what it can act on (a player effect on a player target, a permanent's effect on a permanent)."""
    out: list[Problem] = []
    when = value.get("when") or {}
    if "attackers_at_least" in (when.get("condition") or {}) and when.get("event") != "became_attacker":
        at = loc + ("when", "condition", "attackers_at_least")
        out.append((at, f"{label(at)}: only a became_attacker trigger counts attackers (this one is "
                        f"{when.get('event')})"))
    kinds = {t["name"]: (t.get("filter") or {}).get("is", "permanent") for t in value.get("targets") or []}
    for i, e in enumerate(value.get("effects") or []):
        kind = next(k for k in e if k != "on")
        on = e.get("on")
        at = loc + ("effects", i) + (("on",) if on is not None else ())
        is_ = kinds.get(on) if on not in (THIS, SUBJECT) else "permanent"
        if kind in PLAYER_EFFECTS:
            if on is None and not PLAYER_EFFECTS[kind]:
                continue
            if is_ != "player":
                out.append((at, f"{label(at)}: {kind} acts on a player: write on: <the name of a target with "
                                f"filter {{is: player}}>"))
        elif kind == "deal_damage":
            if on is None or (is_ == "permanent" and on not in (THIS, SUBJECT)):
                out.append((at, f"{label(at)}: deal_damage needs on: this, subject or a target that is a creature, "
                                f"planeswalker, battle, player or any_target"))
        elif kind == "create_token":
            if on is not None:
                out.append((at, f"{label(at)}: create_token acts on nothing (its controller creates the tokens, "
                                f"111.2); leave on out"))
        elif is_ in ("player", "any_target"):
            out.append((at, f"{label(at)}: {kind} acts on a permanent, and target {on!r} may be a player"))
    return out


CONDITION = Named("CONDITION", Mapping((
    Field("you_control", Mapping((Field("is", OneOf(KINDS[:4]), "permanent"),
                                  Field("at_least", Int(minimum=1)))), None, "-"),
)))
"""603.4's intervening "if" ("When/Whenever/At [trigger event], if [condition], [effect]"): ``you_control`` -- the
ability's controller controls at least N permanents of the kind ``is`` ("if you control three or more creatures"). It
is checked when the trigger event occurs (false: the ability does not trigger) and again as it resolves (false: it is
removed from the stack and does nothing, a ``countered`` entry tagged 603.4)."""

TRIGGERED = triggered_grammar(events=TRIGGER_EVENTS, effects=EFFECTS, filter=FILTER, event_condition=EVENT_CONDITION,
                              condition=CONDITION, also=_composed_check)


GRANTABLE = ("flying", "reach", "menace", "must_be_blocked", "lure", "blocks_each_combat", "first_strike",
             "double_strike", "trample", "haste", "vigilance")
"""The abilities a static ability may grant: the keywords and block requirements the engine reads of a permanent as
it decides (State.has); a granted triggered ability or spell effect would be read nowhere, so it is refused."""
STATIC = Example(static_grammar(affects=FILTER, grants=OneOf(GRANTABLE)), {"grants": ["vigilance"]})
"""A static ability's sample must grant something (what generators add for an ability no card writes)."""

ABILITIES = specs(
    AbilitySpec("flying", NONE, "702.9: can't be blocked except by creatures with flying or reach", "CR 702.9"),
    AbilitySpec("reach", NONE, "702.17: can block creatures with flying", "CR 702.17"),
    AbilitySpec("menace", NONE, "702.111: can't be blocked except by two or more creatures", "CR 702.111"),
    AbilitySpec("must_be_blocked", NONE, "509.1c requirement: this creature must be blocked if able (obeyed when "
                "at least one creature blocks it)", "CR 509.1c"),
    AbilitySpec("lure", NONE, "509.1c requirements: all creatures able to block this creature do so (one requirement "
                "per creature able to block it)", "CR 509.1c"),
    AbilitySpec("blocks_each_combat", NONE, "509.1c requirement: this creature blocks each combat if able (obeyed when "
                "it blocks any attacker)", "CR 509.1c"),
    AbilitySpec("first_strike", NONE, "702.7b: deals combat damage in a first combat damage step, before creatures "
                "without first strike or double strike (510.4)", "CR 702.7"),
    AbilitySpec("double_strike", NONE, "702.4b: deals combat damage in both the first-strike and the regular combat "
                "damage step (510.4)", "CR 702.4"),
    AbilitySpec("trample", NONE, "702.19b: once its blockers are assigned lethal damage, the excess may be assigned to "
                "the player, planeswalker or battle it attacks; 702.19d: with no blockers left, all of it", "CR 702.19"),
    AbilitySpec("haste", NONE, "702.10: can attack the turn it comes under your control", "CR 702.10"),
    AbilitySpec("vigilance", NONE, "702.20: attacking doesn't cause it to tap", "CR 702.20"),
    AbilitySpec("deal_damage", COUNT, "spell: deals N damage to any target (115.4: a battle is a legal 'any target')",
                "synthetic"),
    AbilitySpec("gain_control", NONE, "spell: gain control of target permanent", "synthetic"),
    AbilitySpec("become_copy", NONE, "spell: target nonbattle permanent becomes a copy of target battle "
                                   "(second target); it keeps its counters", "synthetic"),
    AbilitySpec("become_battle", NONE, "spell: target creature becomes a battle in addition to its other types",
                "synthetic"),
    AbilitySpec("become_creature", POWER_TOUGHNESS,
                "spell: target permanent becomes a P/T creature in addition to its other types", "synthetic"),
    AbilitySpec("become_artifact_creature", POWER_TOUGHNESS,
                "spell: target permanent becomes a P/T artifact creature and loses its other card types "
                "(and their subtypes)", "synthetic"),
    AbilitySpec("add_defense", COUNT, "spell: put N defense counters on target battle", "synthetic"),
    AbilitySpec("put_p1p1_counters", COUNT, "spell: put N +1/+1 counters on target creature (122.1a: each adds 1 to its "
                "power and toughness)", "synthetic"),
    AbilitySpec("proliferate", NONE, "spell: proliferate (701.34a: its controller chooses any number of permanents with "
                "a counter; each gets one more counter of each kind it has, a battle a defense counter)", "synthetic"),
    AbilitySpec("draw", COUNT, "spell: its controller draws N cards (121.1, one at a time: 121.2)", "synthetic"),
    AbilitySpec("return_to_hand", NONE, "spell: return target permanent to its owner's hand (400.7: a new object)",
                "synthetic"),
    AbilitySpec("attack_drain", COUNT,
                "triggered: whenever this creature attacks, the defending player (for it) loses N life; shorthand for "
                "{triggered: {name: attack_drain, when: {event: became_attacker}, effects: "
                "[{defending_player_loses_life: N}]}} (abilities.SHORTHAND)", "synthetic"),
    AbilitySpec("triggered", TRIGGERED,
                "a triggered ability composed of parts (603): when (event, whose card it watches, condition), "
                "optional (603.5 \"may\", asked as it resolves: use_optional), targets (chosen as it is put on the "
                "stack, 603.3d: choose_targets; count: all = every player and permanent the filter allows, nothing chosen), "
                "effects in order (608.2c); see cases/mtg/PROCEDURE.md, \"Composed abilities\"", "CR 603"),
    AbilitySpec("enters_as_copy", FILTER,
                "replacement (614.1c): you may have this permanent enter as a copy of a permanent on the battlefield "
                "the filter allows (choose_copy as it enters, 707.2); a copy of a battle enters with the battle's "
                "printed defense in defense counters and a protector chosen as it enters "
                "(mtg:ruling.copy-enters-with-defense, 310.4b, 310.8a/310.11a)", "CR 707.2, 614.1c"),
    AbilitySpec("static", STATIC,
                "a static ability (604): the permanents it affects (this, or a filter read from its controller's "
                "side) have the abilities it grants while it is on the battlefield (613.1f)", "CR 604"),
)

PLAYER_FIELDS = {
    "life": "int: life total",
    "lost": "bool: has lost the game (and, with 3+ players, left it)",
}

CARD_FIELDS = {
    "zone": "battlefield | hand | library | graveyard | exile | stack | outside_game (left the game with its owner, 800.4a)",
    "owner": "player id",
    "controller": "player id",
    "face": "front | back",
    "types": "[card type, ...]: its card types now (with every type-changing and copy effect)",
    "subtypes": "[subtype, ...]",
    "tapped": "bool",
    "defense": "int: on the battlefield the number of defense counters (310.4c), elsewhere the printed defense (310.4a)",
    "protector": "player id or null (310.8)",
    "attacking": "what it attacks (player or card id), or null",
    "blocking": "the attacker it blocks, or null",
    "attached_to": "card or player id, or null",
    "damage": "int: damage marked on it",
    "counters": "{kind: count}",
    "power": "int",
    "toughness": "int",
}

FIELD_EVENTS = {
    "zone": ("moved", "cast", "drew", "token_created", "ceased_to_exist"),
    "controller": ("control_changed",),
    "face": ("cast",),
    "types": ("types_changed", "became_copy"),
    "subtypes": ("types_changed", "became_copy"),
    "tapped": ("tapped",),
    "defense": ("counters_placed", "counters_removed"),
    "counters": ("counters_placed", "counters_removed"),
    "protector": ("protector_chosen",),
    "attacking": ("became_attacker", "removed_from_combat", "combat_ended"),
    "blocking": ("became_blocker", "removed_from_combat", "combat_ended"),
    "attached_to": ("unattached",),
    "damage": ("damaged",),
    "power": ("types_changed", "became_copy", "counters_placed"),
    "toughness": ("types_changed", "became_copy", "counters_placed"),
    "life": ("life_changed",),
    "lost": ("lost", "left_game"),
}

VOCABULARY = Vocabulary(
    game="mtg",
    events=EVENTS,
    decisions=DECISIONS,
    reasons=REASONS,
    zones=ZONES,
    waiting={"stack": "a spell or ability resolves only when every player passes priority in succession with it on "
                      "top of the stack (CR 117.4, 608.1), and an exhausted script passes only while the stack is "
                      "empty (an open point: the case ends there, cases/mtg/PROCEDURE.md); write a `pass` for "
                      "each player, in turn order, after the cast"},
    abilities=ABILITIES,
    player_fields=PLAYER_FIELDS,
    card_fields=CARD_FIELDS,
    field_events=FIELD_EVENTS,
    steps=STEPS,
)
