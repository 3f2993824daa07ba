package main

// The suite's cards as engine cards. A real card of the suite is the engine's own card with the same text
// (sim/DuelMastersCards.json; its constructor from game/cards); a synthetic card is composed, per case, from
// the engine's own ability pieces (game/fx), each ability of the suite's vocabulary mapped to the piece
// that says the same thing. An ability or effect with no such piece makes the case a skip, never a guess.

import (
	"duel-masters/game/cards"
	"duel-masters/game/civ"
	"duel-masters/game/cnd"
	"duel-masters/game/fx"
	"duel-masters/game/match"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// realCards: the suite's real cards -> the uid of the engine's card of the same text, found by its English
// name (realNames) among the engine's registered cards at start.
var realCards = map[string]string{}

// realNames: the English names the engine gives those cards (looked up among the registered constructors).
var realNames = map[string]string{
	"フェアリー・キャンドル":   "Kelp Candle",
	"ねじれる者ボーン・スライム": "Marrow Ooze, the Twister",
	"アクア・ソルジャー":     "Aqua Soldier", // fx.When(fx.WouldBeDestroyed, fx.ReturnToHand) (dm01)
	"アクア・サーファー":     "Aqua Surfer",  // fx.ShieldTrigger, fx.When(fx.Summoned, fx.MayReturnCreatureToOwnersHand) (dm05)
}

// declaredAbilities: the suite's abilities this driver builds from the engine's pieces (hello.abilities).
func declaredAbilities() []string {
	names := make([]string, 0, len(keywordPieces)+len(triggerPieces)+4)
	for k := range keywordPieces {
		names = append(names, k)
	}
	for k := range triggerPieces {
		names = append(names, k)
	}
	names = append(names, "power_attacker", "s_trigger", "spell", "tap_trigger", "on_block", "after_attack_destroy")
	// a composed static ability only as printed on one of the engine's own cards above (アクア・ソルジャー), a composed
	// triggered one as printed there (アクア・サーファー) or, on a synthetic card, where composedTrigger finds the pieces;
	// any other composition is a skip with the reason (pieces)
	names = append(names, "static", "triggered")
	sort.Strings(names)
	return names
}

// keywordPieces: abilities without parameters -> the engine's piece.
var keywordPieces = map[string][]match.HandlerFunc{
	"blocker":             {fx.Blocker()},
	"cannot_attack":       {fx.CantAttackCreatures, fx.CantAttackPlayers},
	"speed_attacker":      {fx.SpeedAttacker},
	"w_breaker":           {fx.Doublebreaker},
	"t_breaker":           {fx.Triplebreaker},
	"slayer":              {fx.Slayer},
	"can_attack_untapped": {fx.AttackUntapped},
	// 可能であればブロックする: the engine's piece of "Whenever an opponent's creature attacks, this creature blocks
	// if able" (Belmol, Pierr, Messa Bahna, Ardent Lunatron): at the attack's Block event, if the creature is among
	// the ブロッカー the engine offers against it (untapped, not the creature attacked; without ブロッカー never), the
	// engine blocks with it itself, asking nothing (play.go: autoBlock)
	"blocks_if_able": {fx.BlockIfAbleWhenOppAttacks},
}

// triggerPieces: triggered abilities -> the engine's test for the moment they trigger.
var triggerPieces = map[string]func(*match.Card, *match.Context) bool{
	"on_attack":         fx.AttackConfirmed,                         // このクリーチャーが攻撃する時
	"on_attack_blocked": fx.Blocked,                                 // 攻撃してブロックされた時
	"on_unblocked":      fx.WheneverThisAttacksPlayerAndIsntBlocked, // 相手プレイヤーを攻撃してブロックされなかった時
	"end_of_turn":       fx.EndOfMyTurnCreatureBZ,                   // 自分のターンが終わる時
}

type ability struct {
	Name  string
	Param json.RawMessage // null when the ability has none
}

func parseAbilities(raw []json.RawMessage) ([]ability, error) {
	out := []ability{}
	for _, r := range raw {
		var s string
		if json.Unmarshal(r, &s) == nil {
			out = append(out, ability{Name: s, Param: json.RawMessage("null")})
			continue
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(r, &m); err != nil || len(m) != 1 {
			return nil, fmt.Errorf("ability %s is neither a name nor a one-key mapping", string(r))
		}
		for k, v := range m {
			out = append(out, ability{Name: k, Param: v})
		}
	}
	return out, nil
}

type poolCard struct {
	Name      string            `json:"name"`
	Synthetic bool              `json:"synthetic"`
	Types     []string          `json:"types"`
	Power     *int              `json:"power"`
	Abilities []json.RawMessage `json:"abilities"`
	Props     map[string]any    `json:"props"`
}

// effect builds one effect of the vocabulary from the engine's pieces; "" reason = supported. inBattle: the
// ability triggers at the engine's Battle event (fx.Blocked, fx.Blocks), after it read the battle's powers.
func effect(raw json.RawMessage, inBattle bool) (match.HandlerFunc, string) {
	var name string
	if json.Unmarshal(raw, &name) == nil {
		switch name {
		case "destroy_self":
			return fx.DestroyYourself, ""
		case "tap_target":
			return fx.TapOpCreature, ""
		}
		return nil, fmt.Sprintf("effect %s has no piece in the engine that this driver maps", name)
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		hs := []match.HandlerFunc{}
		for _, r := range list {
			h, why := effect(r, inBattle)
			if why != "" {
				return nil, why
			}
			hs = append(hs, h)
		}
		return func(c *match.Card, ctx *match.Context) {
			for _, h := range hs {
				h(c, ctx)
			}
		}, ""
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || len(m) != 1 {
		return nil, fmt.Sprintf("effect %s is not one mapping", string(raw))
	}
	for k, v := range m {
		var n int
		isInt := json.Unmarshal(v, &n) == nil
		switch {
		case k == "draw" && isInt && n > 0:
			return func(c *match.Card, ctx *match.Context) { c.Player.DrawCards(n) }, ""
		case k == "destroy_target" && string(v) == "null":
			return fx.DestroyOpCreature, "" // 相手のクリーチャーを1体選び、破壊する
		case k == "tap_target" && string(v) == "null":
			return fx.TapOpCreature, ""
		case k == "power_plus" && isInt:
			// このターン、パワーを+N: a condition the engine clears at the turn's end. Inside a battle (the
			// engine fires "when blocked" / "when it blocks" at its Battle event, after reading the powers)
			// the battle's power too, as the engine's own card of this text does (Storm Wrangler, dm09).
			return func(c *match.Card, ctx *match.Context) {
				c.AddCondition(cnd.PowerAmplifier, n, c.ID)
				addBattlePower(c, ctx, n)
			}, ""
		case k == "battle_power_plus" && isInt && inBattle:
			// そのバトルの間、パワーを+N: the battle's power only, as the engine's own battle-only bonuses are made
			// ("Battle captures both powers on the event, so a battle-only bonus has to change the captured value
			// rather than the card's power": Tajimal, dm10/initiate.go:152; Sasha, Storm Wrangler's battle half).
			// Before a battle (no Battle event yet) the engine has no piece to carry it: not built.
			return func(c *match.Card, ctx *match.Context) { addBattlePower(c, ctx, n) }, ""
		case k == "mana_from_deck" && isInt && n == 1:
			return fx.Draw1ToMana, ""
		case k == "mana_from_deck" && isInt && n == 2:
			return fx.Draw2ToMana, ""
		case k == "destroy_target":
			var f map[string]json.RawMessage
			if json.Unmarshal(v, &f) == nil && len(f) == 1 {
				if string(f["has"]) == `"blocker"` { // 相手のブロッカーを持つクリーチャーを1体選び、破壊する
					return fx.DestroyOpBlocker, ""
				}
				var x int
				if raw, ok := f["max_power"]; ok && json.Unmarshal(raw, &x) == nil { // 相手のパワーx以下の…
					return fx.DestroyOpCreatureXPowerOrLess(x, false, match.DestroyedByMiscAbility), ""
				}
			}
		case k == "discard":
			var d struct {
				Count  int    `json:"count"`
				Player string `json:"player"`
			}
			if json.Unmarshal(v, &d) == nil && d.Count > 0 {
				switch d.Player {
				case "you": // 自分の手札をN枚選び、捨てる
					return fx.DiscardOwnXCards(d.Count), ""
				case "opponent": // 相手は自身の手札をN枚選び、捨てる
					return fx.OpDiscardsXCards(d.Count), ""
				}
			}
		}
		return nil, fmt.Sprintf("effect %s: %s has no piece in the engine that this driver maps", k, string(v))
	}
	return nil, "empty effect"
}

var civs = map[string]string{"light": civ.Light, "water": civ.Water, "darkness": civ.Darkness, "fire": civ.Fire,
	"nature": civ.Nature}

// buildCtor: the engine's card constructor for a suite card with its case-added abilities.
func buildCtor(pc poolCard, extra []ability) (match.CardConstructor, []string, string) {
	own, err := parseAbilities(pc.Abilities)
	if err != nil {
		return nil, nil, err.Error()
	}
	names := []string{}
	for _, a := range append(own, extra...) {
		names = append(names, a.Name)
	}
	if !pc.Synthetic {
		name, ok := realNames[pc.Name]
		if !ok {
			return nil, nil, fmt.Sprintf("card %s: a real card this driver has no engine card for", pc.Name)
		}
		uid := realCards[pc.Name]
		base, err := match.CardCtor(uid)
		if err != nil {
			return nil, nil, fmt.Sprintf("card %s (%s): not found in the engine: %v", pc.Name, name, err)
		}
		hs, why := pieces(extra, true)
		if why != "" {
			return nil, nil, fmt.Sprintf("card %s: %s", pc.Name, why)
		}
		return func(c *match.Card) { base(c); c.Use(hs...) }, names, ""
	}
	isSpell, isCreature := false, false
	for _, t := range pc.Types {
		isSpell = isSpell || t == "spell"
		isCreature = isCreature || t == "creature"
	}
	if !isSpell && !isCreature {
		return nil, nil, fmt.Sprintf("card %s: neither a creature nor a spell", pc.Name)
	}
	if isSpell && isCreature {
		return nil, nil, fmt.Sprintf("card %s: both a creature and a spell", pc.Name)
	}
	all := append(append([]ability{}, own...), extra...)
	hs, why := pieces(all, isCreature)
	if why != "" {
		return nil, nil, fmt.Sprintf("card %s: %s", pc.Name, why)
	}
	cv := civ.Fire // a card the suite gives no civilization: any one (no supported ability reads it)
	if s, ok := pc.Props["civ"].(string); ok {
		if c, ok := civs[s]; ok {
			cv = c
		}
	}
	name := pc.Name
	return func(c *match.Card) {
		c.Name, c.Civs, c.ManaCost, c.ManaRequirement = name, []string{cv}, 1, []string{cv}
		if pc.Power != nil {
			c.Power = *pc.Power
		}
		if isSpell {
			c.Use(fx.Spell)
		} else {
			c.Use(fx.Creature)
		}
		c.Use(hs...)
	}, names, ""
}

// composedWhen: a composition's {event, watch} -> the engine's test for that moment (the shorthands' ones, and
// 「自分の他のクリーチャーがバトルゾーンに出た時」 = fx.AnotherOwnCreatureSummoned); inBattle as for effect.
var composedWhen = map[[2]string]struct {
	test     func(*match.Card, *match.Context) bool
	inBattle bool
}{
	{"attacks", "this"}:         {fx.AttackConfirmed, false},
	{"attack_blocked", "this"}:  {fx.Blocked, true},
	{"blocks", "this"}:          {fx.Blocks, true},
	{"unblocked", "this"}:       {fx.WheneverThisAttacksPlayerAndIsntBlocked, false},
	{"turn_ends", "yours"}:      {fx.EndOfMyTurnCreatureBZ, false},
	{"enters", "another_yours"}: {fx.AnotherOwnCreatureSummoned, false},
}

// composedTrigger builds a composed triggered ability (oracle.core.compose) of a synthetic card when the engine
// has a piece for its moment and every effect, and it has no targets, is not optional, and its effects act on no
// named card: fx.When(test, effects). Anything else: the reason it is not built.
func composedTrigger(raw json.RawMessage) (match.HandlerFunc, string) {
	var t struct {
		When struct {
			Event string `json:"event"`
			Watch string `json:"watch"`
		} `json:"when"`
		Optional bool                         `json:"optional"`
		Targets  []json.RawMessage            `json:"targets"`
		Effects  []map[string]json.RawMessage `json:"effects"`
	}
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, "not a composition: " + err.Error()
	}
	watch := t.When.Watch
	if watch == "" {
		watch = "this"
	}
	w, ok := composedWhen[[2]string{t.When.Event, watch}]
	if !ok {
		return nil, fmt.Sprintf("when {event: %s, watch: %s} has no piece in the engine that this driver maps",
			t.When.Event, watch)
	}
	if t.Optional || len(t.Targets) > 0 {
		return nil, "an optional ability or one with targets: no piece in the engine that this driver maps"
	}
	list := []json.RawMessage{}
	for _, e := range t.Effects {
		if on, ok := e["on"]; ok && string(on) != `"this"` {
			return nil, "an effect on " + string(on) + ": no piece in the engine that this driver maps"
		}
		delete(e, "on")
		b, _ := json.Marshal(e)
		list = append(list, b)
	}
	if len(list) == 0 {
		return nil, "no effects"
	}
	b, _ := json.Marshal(list)
	h, why := effect(b, w.inBattle)
	if why != "" {
		return nil, why
	}
	return fx.When(w.test, h), ""
}

// pieces maps each ability to the engine's handlers.
func pieces(abs []ability, creature bool) ([]match.HandlerFunc, string) {
	hs := []match.HandlerFunc{}
	for _, a := range abs {
		if p, ok := keywordPieces[a.Name]; ok {
			hs = append(hs, p...)
			continue
		}
		if test, ok := triggerPieces[a.Name]; ok {
			h, why := effect(a.Param, a.Name == "on_attack_blocked")
			if why != "" {
				return nil, a.Name + ": " + why
			}
			hs = append(hs, fx.When(test, h))
			continue
		}
		switch a.Name {
		case "triggered":
			h, why := composedTrigger(a.Param)
			if why != "" {
				return nil, "triggered: " + why
			}
			hs = append(hs, h)
		case "power_attacker":
			var n int
			if json.Unmarshal(a.Param, &n) != nil {
				return nil, "power_attacker needs an int"
			}
			hs = append(hs, func(c *match.Card, ctx *match.Context) { fx.PowerAttacker(c, ctx, n) })
		case "s_trigger":
			hs = append(hs, fx.ShieldTrigger)
		case "spell":
			h, why := effect(a.Param, false)
			if why != "" {
				return nil, "spell: " + why
			}
			hs = append(hs, fx.When(fx.SpellCast, h))
		case "on_block":
			h, why := effect(a.Param, true)
			if why != "" {
				return nil, "on_block: " + why
			}
			hs = append(hs, fx.When(fx.Blocks, h))
		case "tap_trigger":
			h, why := effect(a.Param, false)
			if why != "" {
				return nil, "tap_trigger: " + why
			}
			hs = append(hs, func(c *match.Card, ctx *match.Context) {
				c.TapAbility = h
				fx.TapAbility(c, ctx)
			})
		default:
			return nil, fmt.Sprintf("ability %s has no piece in the engine that this driver maps", a.Name)
		}
	}
	return hs, ""
}

// registerEngineCards registers every card of the engine (as its scenario harness does) and finds the suite's
// real cards among them by the engine's own names.
func registerEngineCards() {
	byName := map[string]string{}
	for _, set := range cards.Sets {
		for uid, ctor := range *set {
			if ctor == nil {
				continue
			}
			match.AddCard(uid, ctor)
			c := &match.Card{}
			func() {
				defer func() { recover() }()
				ctor(c)
			}()
			byName[strings.ToLower(c.Name)] = uid
		}
	}
	for jp, en := range realNames {
		if uid, ok := byName[strings.ToLower(en)]; ok {
			realCards[jp] = uid
		}
	}
}

// addBattlePower adds n to c's power captured by the battle being fought (the engine's Battle event), if any:
// the value the engine compares, as its own battle-time bonuses change it (Tajimal, dm10/initiate.go:152).
func addBattlePower(c *match.Card, ctx *match.Context, n int) {
	if b, ok := ctx.Event.(*match.Battle); ok {
		if b.Attacker == c {
			b.AttackerPower += n
		} else if b.Defender == c {
			b.DefenderPower += n
		}
	}
}
