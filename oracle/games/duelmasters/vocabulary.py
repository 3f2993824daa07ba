"""Duel Masters' closed vocabulary: events, decisions, refusal reasons, zones, abilities, projection fields.

Clause ids are those of ``cases/duelmasters/rules.yaml`` (seed ``002_5341a325e7af91cc.txt``; CR… = the current
総合ルール, ruleset ``dm-comprehensive-2024-02-15``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.compose import SUBJECT, THIS, Example, static_grammar, triggered_grammar
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
    Noted,
    Nothing,
    Omittable,
    OneOf,
    Param,
    label,
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
    *(e for e in CORE_EVENTS if e.kind != "lost"),   # the game ends with `won` alone: no `lost` is emitted
    # The core events, with what each field means in Duel Masters (their place in the table is the core's):
    EventSpec("won", ("player",), "U2/CR104.2a: `player` (the attacking player) wins; the game ends. The only "
              "event of the game's end (Duel Masters emits no `lost`)", "player"),
    EventSpec("drew", ("player", "count"), "`player` draws `count` cards from the top of their deck: the only "
              "event of a draw (no `moved` for the cards drawn)", "player"),
    EventSpec("moved", ("card", "from", "to", "player"),
              "A card changes zones: `from` the zone it left, `to` the zone it is put into, `player` the card's "
              "owner; also a card put on the bottom of its deck (look_take: `from: deck, to: deck`)", "card"),
    EventSpec("triggered", ("card", "ability", "player"),
              "A triggered ability of `card` triggers; `player` is the card's controller", "card"),
    EventSpec("resolved", ("card", "ability", "player"),
              "A triggered ability of `card` resolves; `player` is the card's controller", "card"),
    EventSpec("tapped", ("card",), "A creature is tapped (to attack, to block, or as a tap ability's cost), or a "
              "mana-zone card to pay a summon's cost (CR112.2a)", "card"),
    EventSpec("untapped", ("card",), "A tapped creature is untapped by an effect (an untap effect on an untapped "
              "creature does nothing: no event)", "card"),
    EventSpec("attacked", ("card", "target"),
              "A1/C1: the attacker attacks `target`: a player id (never a shield) or a tapped creature", "card"),
    EventSpec("used", ("card", "ability", "player"),
              "P3/N2/U5/N7: a tap ability (tap_trigger, dynamo), an Ｓ・トリガー or an Ｓ・バック is used; `player` is "
              "the player who uses it", "card"),
    EventSpec("blocked", ("card", "attacker"), "A3/C3: `card` (a ブロッカー) blocks `attacker`", "card"),
    EventSpec("redirected", ("card", "attacker"),
              "CR507.1a (current rules, several ブロッカー chosen): `card`'s ブロッカー is used, the attack of "
              "`attacker` is redirected to it, and a later one resolves after it (only the last one blocks)", "card"),
    EventSpec("shield_chosen", ("card", "player"), "U2/U8: the attacking player (`player`: the chooser, not the shield's owner) chooses the shield to "
              "break", "card"),
    EventSpec("broken", ("card", "player"), "U4: a shield of `player` (the shield's owner, the defender) is broken (it goes to its owner's hand)",
              "card"),
    EventSpec("waiting", ("card", "player"),
              "CR113.6a (current rules): a shield of `player` (its owner, the defender) being added to the hand waits "
              "in the shield zone, not counted among the shields, until the declarations end", "card"),
    EventSpec("declared", ("card", "ability", "player"),
              "CR113.6 (current rules): the use of an Ｓ・トリガー (a waiting shield) or Ｓ・バック (in the hand) is "
              "declared by `player` (the defender); it is used after the shields moved to the hand", "card"),
    EventSpec("won_battle", ("card", "power", "against"), "B3/C4: a creature wins its battle (`power`: its power in the battle; `against`: the id of the creature it battled)", "card"),
    EventSpec("lost_battle", ("card", "power", "against"), "B3/C4/N5: a creature loses its battle (a tie: both; `power`, `against`: as for won_battle)", "card"),
    EventSpec("destroyed", ("card",), "A creature is destroyed (put into its owner's graveyard)", "card"),
    EventSpec("pumped", ("card", "amount"),
              "A creature's power changes by `amount` until the end of the turn (battle_power_plus: of the battle)",
              "card"),
    EventSpec("attack_ended", ("card",), "U7/C8/N9: one attack of `card` is over", "card"),
    EventSpec("turn_ended", ("player",), "E1: the turn of `player` (the active player) ends after the end-of-turn "
              "effects", "player"),
)

DECISIONS = specs(
    DecisionSpec("attack", "{attacker: card, target: player | card}",
                 "P4/A1/C1: the active player attacks the opponent (a player id) or a tapped opposing creature"),
    DecisionSpec("tap_ability", "card (or {card: card})",
                 "P3: tap a creature to use its タップトリガー or ダイナモ instead of attacking; N2: at the beginning "
                 "of a battle, tap an offered ダイナモ creature (either player's, even one that cannot attack)"),
    DecisionSpec("block", "card (or {blocker: card}) | [card, ...]",
                 "A3: the defending player blocks with a ブロッカー; current rules (CR507.1a): one or more chosen at "
                 "once, used in the list's order, the last one blocking (the seed: one, `several_blockers`)"),
    DecisionSpec("no_block", "null", "A3: the defending player does not block"),
    DecisionSpec("choose_shield", "card", "U2/U8: the attacking player chooses one shield of the attacked player"),
    DecisionSpec("use", "card (or {card: card, discard?: card})",
                 "U5/N7: use an Ｓ・トリガー or Ｓ・バック offered now; CR113.6 (current rules): declare it, in any "
                 "order (the order of use); `discard` names the waiting shield an Ｓ・バック discards; an optional "
                 "composed ability (してもよい) as it resolves: use it (naming its card); CR506.3b (current rules): "
                 "declare the 革命チェンジ of a card in the hand when a creature meeting its condition attacks"),
    DecisionSpec("decline", "card (or {card: card})",
                 "U5/N7/CR113.6: do not use (declare) the Ｓ・トリガー or Ｓ・バック offered now; N2: do not tap the "
                 "ダイナモ offered at the beginning of a battle; an optional composed ability: decline it; CR506.3b: do "
                 "not declare the 革命チェンジ offered"),
    DecisionSpec("choose_target", "card | [card, ...]",
                 "The controller of a resolving effect chooses its target; a composed ability's target of N "
                 "creatures (count: N) is one list of N different ids (fewer when fewer qualify)"),
    DecisionSpec("choose_card", "card or {take: card, bottom: [card, ...]}",
                 "look_take: the card to put into the hand (the rest go to the deck's bottom in the given order)"),
    DecisionSpec("discard", "card", "discard: the discarding player chooses a card of their hand to discard"),
    DecisionSpec("end_turn", "null", "E1: the active player ends the turn (end-of-turn effects resolve)"),
    DecisionSpec("summon", "card (or {card: card, mana?: [card, ...], onto?: card})",
                 "CR301.1/701.3a (current rules): in the main step (before the case's first attack or tap ability) "
                 "the active player summons a creature of their hand, tapping the untapped cards of their mana zone "
                 "named by `mana` (none by default) to pay its cost (112.2a: one card for each of its "
                 "civilizations, a multicolored card counting as one; as many cards as the cost, no more: 112.2c); "
                 "an evolution creature names its source `onto` (801.1: a creature of the summoner's of its "
                 "進化 condition)"),
)

REASONS = {
    **CORE_REASONS,
    "unknown_object": "well-formedness, before any rule: an id that names neither a card nor a player of the case (a "
                      "player's id where a card is asked breaks the place's rule instead: `attack {attacker: alice}` "
                      "attacker_not_in_battle_zone, `block alice` blocker_not_defenders)",
    "attacker_not_yours": "P1: only a creature of the active player's battle zone attacks",
    "attacker_not_in_battle_zone": "P1: the attacker must be in the battle zone",
    "summoning_sick": "P2: a creature put into the battle zone this turn cannot attack (※1: unless 進化 or スピードアタッカー)",
    "several_attackers": "A1: one attack is made by one creature (「攻撃に参加するクリーチャーを１体選んでタップします」): "
                         "an attacker given as a list of two or more ids",
    "attacker_tapped": "a tapped creature cannot attack (assumption duelmasters:X-tapped-attacker)",
    "attacker_cannot_attack": "the creature has 'このクリーチャーは攻撃することができない'",
    "target_not_opponent": "P4: the attack targets the opponent or an opposing creature",
    "attack_target_shield": "A1: an attack declares only the player, never a shield",
    "target_untapped_creature": "C1: only a tapped opposing creature may be attacked (unless an effect allows)",
    "no_tap_ability": "P3: the creature has no タップトリガー or ダイナモ",
    "tap_ability_cannot_attack": "N2: a tap ability is used instead of an attack, so only by a creature that could attack",
    "blocker_not_blocker": "A3: only a creature with ブロッカー can block",
    "blocker_tapped": "A3: a tapped ブロッカー cannot block (assumption duelmasters:X-blocker-taps)",
    "blocker_not_defenders": "A3: the blocker must be the attacked player's creature in the battle zone",
    "several_blockers": "A3 (the seed's procedure): one ブロッカー blocks an attack; choosing several at once is the "
                        "current rules' (CR507.1a, ruleset dm-comprehensive-2024-02-15)",
    "blocker_is_attack_target": "CR507.1a (current rules): a creature that cannot properly use its ブロッカー cannot be "
                                "chosen -- the creature being attacked cannot redirect the attack to itself (official "
                                "ruling of 2021-09-07)",
    "required_blocker_left_out": "CR507.1b (current rules): a creature with 「可能であればブロックする」 (`blocks_if_able`) "
                                 "that can properly use its ブロッカー against this attack (CR507.1a) must be among the "
                                 "chosen -- all of them; `no_block` or a `block` leaving one out is refused. The seed's "
                                 "procedure (one blocker, A3; reading duelmasters:X-blocks-if-able-seed): when any is "
                                 "required, the one blocker is one of them",
    "block_after_shield_chosen": "U3: once a shield has been chosen, no block is possible",
    "shield_not_attacked_players": "U2: the shield must be one of the attacked player's shields",
    "shield_already_chosen": "U2 (current rules): the shields of one break are different shields",
    "s_trigger_not_broken": "N7: an Ｓ・トリガー is used only as its shield is broken, not from the hand",
    "not_offered": "the card named is not the Ｓ・トリガー/Ｓ・バック/ダイナモ being offered now",
    "illegal_target": "the chosen card is not a legal target of the effect",
    "evolution_source": "the card is an evolution source (進化元) under a creature: a card in the battle zone, not a "
                        "creature (it does not attack, block or get attacked)",
    "not_in_hand": "discard: the card is not in the discarding player's hand; summon (CR301.1): the card is not in "
                   "the summoning player's hand",
    "not_a_creature": "summon (CR301.1): only a creature is summoned (a spell is cast, which the suite does not model)",
    "mana_not_available": "summon (CR112.2a): a card named to pay is not an untapped card of the summoner's mana zone",
    "cost_not_paid": "summon (CR112.2a, 112.2c): the mana cards named do not pay the cost exactly -- as many cards as "
                     "the cost, no more, with a different card for each civilization of the creature (a multicolored "
                     "card counts as one of its civilizations)",
    "illegal_evolution_source": "summon (CR801.1a): an evolution creature goes onto a legal source only -- a creature "
                                "of the summoner's battle zone of its 進化 condition (`onto`); none named, or another "
                                "card, is refused",
    "revolution_change_condition": "CR506.3b (current rules): the 革命チェンジ of a card in the attacking player's hand "
                                   "is declared only when the attacking creature is of its condition (「自分の[条件]の"
                                   "クリーチャーが攻撃する時」: civilization, race, cost); a `use` of one whose "
                                   "condition the attacker does not meet is refused",
}

ZONES = ("battlefield", "shields", "hand", "deck", "graveyard", "mana")

# -- the parameters abilities.py and procedure.py read (oracle.core.params) ---------------------------------

NONE = Nothing()
CIVILIZATIONS = ("light", "water", "darkness", "fire", "nature")
"""光 水 闇 火 自然: what a card's ``props.civ`` and Ｓ・バック's civilization name."""
AMOUNT = Int()
"""A power amount (パワーアタッカー+N, +N power)."""
COUNT = Omittable(Int(minimum=1), 1)
"""A number of cards; left out, 1 (abilities._draw and its kin: ``int(param or 1)``)."""


def _filter(controller: str) -> Param:
    """abilities.matching: the creatures a targeted effect may choose; ``controller`` left out is the effect's
    own default (so each effect has its own FILTER default, said in the grammar's note)."""
    return Named("FILTER", Omittable(Mapping((
        Field("controller", OneOf(("you", "opponent")), controller, "the effect's"),
        Field("has", AbilityName(), None, "any"),
        Field("max_power", AMOUNT, None, "any"),
        Field("other", Bool(), False),
    )), {}))


EFFECTS = Keyed("effect", "Duel Masters", (
    ("draw", COUNT),
    ("destroy_target", _filter("opponent")),
    ("tap_target", _filter("opponent")),
    ("untap_target", _filter("you")),
    ("untap_self", NONE),
    ("power_plus", AMOUNT),
    ("battle_power_plus", AMOUNT),
    ("pump_target", AMOUNT),
    ("destroy_self", NONE),
    ("mana_from_deck", COUNT),
    ("summon_self", NONE),
    ("look_take", COUNT),
    ("discard", Named("DISCARD", Omittable(Alternatives((Int(minimum=1), Mapping((
        Field("count", Int(minimum=1), 1), Field("player", OneOf(("you", "opponent")), "you"))))),
        {"count": 1, "player": "you"}))),
), bare=True, several=True, listed=True)
"""abilities.EFFECTS: the effect language every effect ability (spell, tap_trigger, on_attack ...) speaks."""

EFFECT_NOTES = ("what a FILTER omits is the effect's default: controller opponent (destroy_target, tap_target) or "
                "you (untap_target); tap_target offers untapped creatures only, untap_target tapped ones "
                "(X-tap-untap-targets); pump_target: one of your creatures other than the source")


_EFFECTS = Noted(EFFECTS, EFFECT_NOTES)

@dataclass(frozen=True, slots=True)
class Text(Param):
    """A non-empty word of the card's own text (a race: 203.2)."""

    def check(self, value, loc, ctx):
        return [] if self.fits(value) and value else self.expected(value, loc)

    def grammar(self):
        return "text"

    def fits(self, value):
        return isinstance(value, str)

    def sample(self, ctx):
        return "ドラゴン"


CIVILIZATION = OneOf(CIVILIZATIONS)
CHANGE_CONDITION = Named("CHANGE_CONDITION", Omittable(Mapping((
    Field("civ", Alternatives((CIVILIZATION, ListOf(CIVILIZATION, 1))), None, "any civilization"),
    Field("race", Text(), None, "any race"),
    Field("min_cost", Int(minimum=0), None, "any cost"),
)), {}, "any creature of yours"))
"""革命チェンジ's condition on the attacking creature (procedure.change_allowed): 「火または自然の」 (civ: one of them,
props.civ of the attacker), 「ドラゴン」 (race: a race whose name holds the word, 203.2), 「コスト5以上の」 (min_cost:
the attacker's printed cost at least N)."""

EVOLUTION_SOURCE = Named("EVOLUTION_SOURCE", Omittable(CHANGE_CONDITION.inner.inner, {}, "any creature of yours"))
"""進化's condition on its source (「進化―自分の[条件]のクリーチャー1体の上に置く」): the fields of CHANGE_CONDITION."""


# -- composed abilities (oracle.core.compose; issue 25) -------------------------------------------------------

TRIGGER_EVENTS: dict[str, tuple[str, str]] = {
    "attacks": ("card", "A2/C2: a creature attacks (「攻撃する時」): with the attack triggers, after the declaration"),
    "attack_blocked": ("card", "B1 (※3): a creature attacks and is blocked (「攻撃してブロックされた時」): at the block"),
    "blocks": ("card", "B2 (※4): a creature blocks (「ブロックした時」): at the block, after the attacker's"),
    "unblocked": ("card", "U1 (※6): a creature attacks a player and is not blocked (「相手プレイヤーを攻撃してブロック"
                          "されなかった時」): before the first shield is chosen"),
    "wins_battle": ("card", "C6 (※5): a creature wins a battle (「バトルに勝った時」): after the battle, none on a tie; "
                            "resolves at C7"),
    "turn_ends": ("player", "E1: a player's turn ends (「ターンが終わる時」): before `turn_ended`; watch yours = "
                            "「自分のターンが終わる時」, opponents = 「相手のターンが終わる時」"),
    "enters": ("card", "a creature is put into the battle zone (「バトルゾーンに出た時」, cip): by an Ｓ・トリガー "
                       "(U6), an Ｓ・バック (N7) or an effect (summon_self); it resolves as soon as the card, or the "
                       "effect, that put the creature there has resolved (U6: 「ここで効果が解決されます」; "
                       "X-cip-timing)"),
}
"""The events a triggered ability watches: what the event is about (a card, or the player whose turn ends), and
when its triggers resolve (the procedure's step)."""

PLAYER_EVENTS = tuple(e for e, (about, _) in TRIGGER_EVENTS.items() if about == "player")

TARGET_FILTER = Named("TARGET_FILTER", Mapping((
    Field("controller", OneOf(("you", "opponent", "any")), "any"),
    Field("has", AbilityName(), None, "any"),
    Field("max_power", AMOUNT, None, "any"),
    Field("other", Bool(), False),
    Field("tapped", Bool(), None, "either"),
)))
"""The creatures a composed target may be (abilities.matching): in the battle zone, never an evolution source."""

OBJECT_EFFECTS: dict[str, tuple[Param, str]] = {
    "destroy": (NONE, "破壊する: the creature is destroyed"),
    "tap": (NONE, "タップする: the creature is tapped (an untapped one)"),
    "untap": (NONE, "アンタップする: the creature is untapped (a tapped one)"),
    "power": (AMOUNT, "パワーを+N/-N する (this turn): the creature's power changes until the end of the turn"),
    "return_to_hand": (NONE, "持ち主の手札に戻す: the creature is returned to its owner's hand (its evolution "
                             "sources go with it)"),
}
"""Effects that act on cards (``on: this | subject | <target>``; omitted: this); the other effects are the effect
language's (EFFECTS), which act on no card named by ``on``."""

@dataclass(frozen=True, slots=True)
class ComposedEffects(Keyed):
    """The effects a composition may do: the effect language's (``shared``: stated once on the vocabulary page, as
    the params of ``spell``) and the effects on cards; checked as one table, rendered naming the shared part."""

    shared: tuple[str, ...] = ()

    def grammar(self):
        own = " | ".join(n if not p.grammar() else f"{n}: {p.grammar()}" for n, p in self.parts
                         if n not in self.shared)
        return f"an effect of the effect language (the params of spell, above) | {own}"

    def named(self):
        return [n for name, p in self.parts if name not in self.shared for n in p.named()]


COMPOSED_EFFECTS = ComposedEffects("effect", "Duel Masters",
                                   EFFECTS.parts + tuple((n, p) for n, (p, _) in OBJECT_EFFECTS.items()), bare=True,
                                   shared=tuple(n for n, _ in EFFECTS.parts))


@dataclass(frozen=True, slots=True)
class Checked(Example):
    """``inner`` (``example``: its sample), then what only Duel Masters says of a composition: a player's event (``turn_ends``) watches
    whose turn it is (``yours``, ``opponents``, ``any``), not a card; ``on`` names the card(s) of an effect that
    acts on cards, and no other effect takes it; ``subject`` is a card only for a card's event."""

    def check(self, value, loc, ctx):
        out = self.inner.check(value, loc, ctx)
        if out or not isinstance(value, dict) or "when" not in value:
            return out
        event, watch = value["when"]["event"], value["when"].get("watch", THIS)
        player_event = event in PLAYER_EVENTS
        if player_event and watch in (THIS, "another_yours"):
            at = loc + ("when", "watch")
            out.append((at, f"{label(at)}: {event} is about a player's turn, not a card; watch yours, opponents "
                            f"or any (got {watch})"))
        for i, e in enumerate(value["effects"]):
            kinds = [k for k in e if k != "on"]
            if "on" not in e:
                continue
            at = loc + ("effects", i, "on")
            if any(k not in OBJECT_EFFECTS for k in kinds):
                out.append((at, f"{label(at)}: {', '.join(k for k in kinds if k not in OBJECT_EFFECTS)} acts on no "
                                f"card named by on (it has its own); on is for {' | '.join(OBJECT_EFFECTS)}"))
            elif player_event and e["on"] == SUBJECT:
                out.append((at, f"{label(at)}: {event} is about a player, so there is no subject card"))
        return out


TRIGGERED = Checked(triggered_grammar(events=tuple(TRIGGER_EVENTS), effects=COMPOSED_EFFECTS, filter=TARGET_FILTER),
                    {"when": {"event": "attacks"}, "effects": [{"draw": 1}]})
"""The grammar of ``{triggered: {...}}`` (oracle.core.compose.triggered_grammar from the parts above)."""

TRIGGERED_NOTES = ("events: " + "; ".join(f"{e}: {doc}" for e, (_, doc) in TRIGGER_EVENTS.items())
                   + ". Effects acting on cards (on: this | subject | <target name>; omitted: this): "
                   + "; ".join(f"{n}: {doc}" for n, (_, doc) in OBJECT_EFFECTS.items())
                   + ". As it resolves: each target is chosen in order (`choose_target`: one id, or a list of "
                     "`count` different ids; count: all takes every creature the filter allows, nothing asked); then "
                     "an optional one (してもよい) asks its controller `use` or `decline` naming its card "
                     "(X-optional-trigger); then its effects in order; one effect's changes to several cards are one moment, "
                     "those cards in battle-zone order")

STATIC_RULES: dict[str, tuple[Param, str]] = {
    "destroyed_to": (OneOf(("hand",)), "「破壊される時、墓地に置くかわりに手札に戻す」: an affected creature destroyed is "
                                        "destroyed (`destroyed`) and put into its owner's hand instead of the graveyard, "
                                        "in the destruction's moment (X-destroy-replacement)"),
}
"""The rule changes a Duel Masters static ability makes while its card is in the battle zone."""


@dataclass(frozen=True, slots=True)
class NoGrant(Param):
    """What a Duel Masters static ability grants: nothing yet (the engine reads a creature's abilities as printed or
    added by the case; a grant would need every ability check to consult the statics in play)."""

    def check(self, value, loc, ctx):
        return [(loc, f"{label(loc)}: a Duel Masters static ability grants no ability yet; write rules")]

    def grammar(self):
        return "(none yet)"

    def fits(self, value):
        return True

    def sample(self, ctx):
        return None


STATIC = Checked(static_grammar(affects=TARGET_FILTER, grants=NoGrant(),
                                rules=Keyed("rule", "Duel Masters", tuple((n, p) for n, (p, _) in STATIC_RULES.items()))),
                 {"rules": [{"destroyed_to": "hand"}]})
"""The grammar of ``{static: {...}}`` (oracle.core.compose.static_grammar): the cards it affects (``this``, or a
TARGET_FILTER read from its controller's side) and its rule changes, while its card is in the battle zone."""

STATIC_NOTES = "rules: " + "; ".join(f"{n}: {doc}" for n, (_, doc) in STATIC_RULES.items())

ABILITIES = specs(
    AbilitySpec("blocker", NONE, "ブロッカー: may block an attack by tapping (A3)", "seed A3"),
    AbilitySpec("blocks_if_able", NONE,
                "可能であればブロックする: when this creature can properly use its ブロッカー against an attack (untapped, "
                "not the creature attacked: CR507.1a), the defender must choose it to use ブロッカー (CR507.1b: every "
                "such creature; the seed's one blocker: one of them, X-blocks-if-able-seed), else "
                "`required_blocker_left_out`; the last used blocks (RD-2021-09-07). Without ブロッカー it requires "
                "nothing", "CR507.1b (総合ゲームルール Ver.1.48)"),
    AbilitySpec("revolution_change", CHANGE_CONDITION,
                "革命チェンジ―[条件] 「自分の[条件]のクリーチャーが攻撃する時、そのクリーチャーと手札にあるこのクリーチャーを"
                "入れ替えてもよい」 (current rules): when a creature of its controller meeting the condition is "
                "designated to attack, this card in the hand may be declared (`use`/`decline`, CR506.3b; it "
                "triggers when declared, CR603.2f: `triggered`); it resolves among the attacking player's attack "
                "triggers, after those that triggered at the attack (X-revolution-change): the attacker (and its "
                "evolution sources) goes to the hand and this card comes into the battle zone in one moment of "
                "`moved`, tapped and attacking in its place (CR701.26a); its 「出た時」 (enters) abilities trigger, its "
                "「攻撃する時」 ones do not (506.3a); it is put into the battle zone this turn (summoning_sick, "
                "301.5). Condition: civ (any of them), race (203.2: a race holding the word), min_cost",
                "CR506.3b, CR603.2f, CR701.26a (総合ゲームルール Ver.1.48)"),
    AbilitySpec("cannot_attack", NONE, "このクリーチャーは攻撃することができない", "フェアリー・キャンドル"),
    AbilitySpec("speed_attacker", NONE, "スピードアタッカー: may attack the turn it is put into the battle zone", "seed ※1"),
    AbilitySpec("evolution", EVOLUTION_SOURCE,
                "進化クリーチャー: may attack the turn it is put into the battle zone (801.3); in a setup its "
                "sources (進化元) are battle-zone cards marked `attached_to: <it>`, which go to the graveyard with "
                "it when it is destroyed (CR316.3 例); summoned (`summon {card, onto}`, current rules) onto a "
                "creature of its controller's of the condition 「進化―自分の[条件]のクリーチャー1体の上に置く」 "
                "(801.1a), keeping that creature's position and effects (801.2)", "seed ※1; CR316.3; CR801.1"),
    AbilitySpec("w_breaker", NONE, "Ｗ・ブレイカー: breaks 2 shields, one at a time (U8; current rules: at once, "
                "CR113.6)", "seed U8"),
    AbilitySpec("t_breaker", NONE, "Ｔ・ブレイカー: breaks 3 shields, one at a time (U8; current rules: at once, "
                "CR113.6)", "seed U8"),
    AbilitySpec("power_attacker", AMOUNT, "パワーアタッカー+N: +N power while attacking", "seed B3 (プラスマイナスされたパワー)"),
    AbilitySpec("slayer", NONE, "スレイヤー 'このクリーチャーがバトルする時、バトルの後、相手クリーチャーを破壊する': "
                "triggers after every battle of its creature, won, lost or tied (C6); destroys the creature it "
                "battled if that is still in the battle zone, else resolves with no effect (C7)", "seed C6"),
    AbilitySpec("can_attack_untapped", NONE, "may attack untapped creatures (C1 '効果がない限り')", "seed C1"),
    AbilitySpec("s_trigger", NONE, "Ｓ・トリガー: used free when broken from the shields (U5); a spell resolves "
                "its `spell` effect, a creature is put into the battle zone", "seed U5"),
    AbilitySpec("s_back", Omittable(OneOf(CIVILIZATIONS), meaning="any civilization"),
                "Ｓ・バック: when a shield of that civilization (props.civ; null = any) is broken, discard it to use "
                "this card from the hand free (N7)", "seed ※7"),
    AbilitySpec("spell", _EFFECTS, "what a spell does when used", "card text"),
    AbilitySpec("tap_trigger", _EFFECTS, "タップトリガー: tap instead of attacking to use the effect (P3, N2)", "seed P3"),
    AbilitySpec("dynamo", _EFFECTS, "ダイナモ: as tap_trigger, and also usable when a battle begins (before the "
                "powers are compared) even by a creature that cannot attack (N2; reading duelmasters:X-dynamo)",
                "seed ※2; printed ダイナモ text"),
    AbilitySpec("on_attack", _EFFECTS, "アタックトリガー 'このクリーチャーが攻撃する時' (A2, C2)", "seed A2"),
    AbilitySpec("on_attack_blocked", _EFFECTS, "'このクリーチャーが攻撃してブロックされた時' (※3, B1)", "seed ※3"),
    AbilitySpec("on_block", _EFFECTS, "'このクリーチャーがブロックした時' (※4, B2)", "seed ※4"),
    AbilitySpec("on_unblocked", _EFFECTS, "'相手プレイヤーを攻撃してブロックされなかった時' (※6, U1)", "seed ※6"),
    AbilitySpec("on_battle_win", _EFFECTS, "'バトルに勝った時' after-battle effect (C6; none on a tie, ※5)", "seed C6, ※5"),
    AbilitySpec("after_attack_destroy", NONE, "'相手プレイヤーを攻撃する時、攻撃の後、このクリーチャーを破壊する' (※8)",
                "seed ※8 (ねじれる者ボーン・スライム)"),
    AbilitySpec("end_of_turn", _EFFECTS, "'自分のターンが終わる時' (E1)", "seed E1"),
    AbilitySpec("opponent_creature_attacks", _EFFECTS,
                "'相手のクリーチャーが攻撃する時': triggers with the attacker's attack triggers (A2/C2), its "
                "controller's resolving after the active player's (C7 generalised)", "seed A2, C7"),
    AbilitySpec("triggered", Noted(TRIGGERED, TRIGGERED_NOTES),
                "a triggered ability composed of parts (oracle.core.compose): when {event, watch}, optional, targets "
                "(each with its TARGET_FILTER and count), effects in order; the named triggered abilities "
                "(on_attack ...) are shorthand for such compositions (abilities.SHORTHAND)",
                "issue 25; printed 「〜時、〜」 texts"),
    AbilitySpec("static", Noted(STATIC, STATIC_NOTES),
                "a static ability composed of parts (oracle.core.compose): while its card is in the battle zone, the "
                "creatures it affects (this, or a TARGET_FILTER from its controller's side) follow its rule changes",
                "issue 25; printed 「〜かわりに〜」 texts"),
    AbilitySpec("creature_wins_battle", _EFFECTS,
                "'クリーチャーがバトルに勝った時' (any creature): an after-battle effect of each creature in the "
                "battle zone when a battle has a winner (C6; none on a tie, ※5)", "seed C6, C7, ※5"),
)

PLAYER_FIELDS: dict[str, str] = {}

CARD_FIELDS = {
    "zone": "battlefield | shields | hand | deck | graveyard | mana",
    "owner": "player id",
    "tapped": "bool: a battle-zone state, and a mana-zone one (a card tapped to pay a cost, 112.2a); false for a "
              "card anywhere else (a card that leaves the battle zone is no longer tapped, an evolution source that "
              "follows its creature included)",
    "power": "int | null: in the battle zone the current power (pumps included; パワーアタッカー only during its "
             "attack; battle_power_plus only until its battle ends; no power given counts 0); elsewhere the card's "
             "own power, null when it has none",
    "abilities": "[name, ...]: the abilities it has",
}

FIELD_EVENTS = {
    "zone": ("moved", "broken"),
    "tapped": ("tapped", "untapped"),
    "power": ("pumped",),
}

STEPS = specs(
    StepSpec("attack_triggers", "an attack in progress (A1/C1 done: the card marked `attacking: <player or "
                                "creature>` tapped and attacks it); its attack triggers (A2/C2) resolve next, then "
                                "the block (A3/C3) and the rest of the attack; then the open point",
             attackers=(1, 1), target=True),
    StepSpec("block", "an attack in progress whose attack triggers have resolved (A2/C2 done): the defender "
                      "decides whether a ブロッカー blocks (A3/C3) next",
             attackers=(1, 1), target=True),
)

VOCABULARY = Vocabulary(
    game="duelmasters",
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
    refines={"several_attackers": "malformed_decision", "several_blockers": "malformed_decision"},
    card_props=Mapping((Field("civ", Alternatives((CIVILIZATION, ListOf(CIVILIZATION, 1))), None, "colorless"),)),
    # a pool card's props: its civilization(s) (106.2; none: colorless), read by Ｓ・バック, 革命チェンジ, 進化 and a
    # summon's cost
    # an attack or a block given as a list of several ids: releases before 0.2.0 refused these as
    # malformed_decision (CHANGELOG.md); the narrower codes say which rule the shape breaks
)
