// Direct reproductions, against shobu.io's engine's own API (its tests/scenario harness), of what
// tcg-oracle's Duel Masters cases found (docs/shobu.md). tcg-oracle's own code, not part of the engine.
//
// Run: copy this file into the engine's module as sim/tests/tcgoracle/repro_test.go and, in sim/,
//
//	go test -mod=vendor -modfile=OUT/sim.vendor.mod -count=1 -v ./tests/tcgoracle/
//
// (OUT: the folder `python -m oracle.engines.shobu build --out OUT` wrote; its src/sim is such a module).
package tcgoracle

import (
	"duel-masters/game/civ"
	"duel-masters/game/fx"
	"duel-masters/game/match"
	"duel-masters/tests/scenario"
	"strings"
	"testing"
	"time"
)

const (
	uidVorg          = "af3bc221-1cc2-4f58-83ea-2673ac2c66c5" // Immortal Baron, Vorg (2000, no ability)
	uidTropicCrawler = "adddbc05-e53f-485b-be16-f94a7c5ddd88" // Tropic Crawler (DM-12)
	uidBelmol        = "d0b9d738-bd33-4dd1-b6dc-234897f52266" // Belmol, the Explorer (DM-12; 3500, blocks if able)
	uidMessaBahna    = "e0fcacac-1394-4dff-8c58-ebf67fba7da4" // Messa Bahna, Expanse Guardian (DM-10; 5000, blocks if able)
)

func init() {
	// Composed from the engine's own pieces, as a card "when this creature attacks and is blocked, choose one of
	// your opponent's creatures and destroy it" would be (the engine's colony_beetle.go and giant.go use
	// fx.When(fx.Blocked, ...) the same way).
	match.AddCard("tcg-oracle-sledge-break", func(c *match.Card) {
		c.Name, c.Civs, c.ManaCost, c.Power = "sledge-break tester", []string{civ.Fire}, 1, 3000
		c.Use(fx.Creature, fx.When(fx.Blocked, fx.DestroyOpCreature))
	})
	match.AddCard("tcg-oracle-blocker", func(c *match.Card) {
		c.Name, c.Civs, c.ManaCost = "blocker tester", []string{civ.Light}, 1
		c.Use(fx.Creature, fx.Blocker())
	})
	match.AddCard("tcg-oracle-w-breaker", func(c *match.Card) {
		c.Name, c.Civs, c.ManaCost, c.Power = "w-breaker tester", []string{civ.Fire}, 1, 9000
		c.Use(fx.Creature, fx.Doublebreaker)
	})
	match.AddCard("tcg-oracle-s-trigger-draw", func(c *match.Card) {
		c.Name, c.Civs, c.ManaCost = "s-trigger draw tester", []string{civ.Water}, 1
		c.Use(fx.Spell, fx.ShieldTrigger, fx.When(fx.SpellCast, fx.Draw1))
	})
}

type board struct {
	s          *scenario.TestScenario
	m          *match.Match
	alice, bob *match.PlayerReference
}

// newBoard: a fresh match, every zone but the decks emptied (the decks keep the harness's 30 fillers).
func newBoard(t *testing.T) *board {
	s := scenario.New()
	m := s.Match
	alice := m.CurrentPlayer()
	bob := m.PlayerRef(m.Opponent(alice.Player))
	for _, p := range []*match.Player{alice.Player, bob.Player} {
		for _, z := range []string{match.HAND, match.SHIELDZONE, match.BATTLEZONE, match.MANAZONE, match.GRAVEYARD} {
			ref, err := p.ContainerRef(z)
			if err != nil {
				t.Fatal(err)
			}
			*ref = (*ref)[:0]
		}
	}
	return &board{s: s, m: m, alice: alice, bob: bob}
}

func (b *board) spawn(t *testing.T, p *match.PlayerReference, uid, zone string) *match.Card {
	c, err := p.Player.SpawnCard(uid, match.HAND)
	if err != nil {
		t.Fatal(err)
	}
	if zone != match.HAND {
		if c, err = p.Player.MoveCard(c.ID, match.HAND, zone, "tcg-oracle setup"); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// ready grants the keyword abilities (the cards' handlers add them at the untap step).
func (b *board) ready() { b.m.HandleFx(match.NewContext(b.m, &match.UntapStep{})) }

// The attacking player is asked for the shields as the attack is declared, before the defender decides on a
// block (seed 002: 「どのシールドを攻撃するかまでは指定しません」; the shields are chosen only after an
// unblocked attack).
func TestShieldsAreChosenBeforeTheBlock(t *testing.T) {
	b := newBoard(t)
	atk := b.spawn(t, b.alice, uidVorg, match.BATTLEZONE)
	blk := b.spawn(t, b.bob, "tcg-oracle-blocker", match.BATTLEZONE)
	blk.Power = 1000
	b.spawn(t, b.bob, uidVorg, match.SHIELDZONE)
	b.ready()
	bobSince, _ := b.s.MessageCount(b.bob)
	prompt, err := b.s.ActionAttackPlayer(b.alice, atk.ID)
	if err != nil {
		t.Fatal(err)
	}
	headers, _ := b.s.MessageHeaders(b.bob, bobSince)
	t.Logf("alice is asked: %q; bob's messages so far: %v", prompt.Text, headers)
	if !strings.Contains(prompt.Text, "shield(s) to break") {
		t.Fatalf("expected the shield prompt first, got %q", prompt.Text)
	}
	for _, h := range headers {
		if h == "action" {
			t.Fatalf("bob was asked something before the shields were chosen")
		}
	}
	t.Log("CONFIRMED: the shields are chosen before the block is offered")
	_ = b.s.CancelAction(b.alice)
	_ = b.s.WaitForEventLoop()
}

// A "when this attacks and is blocked" effect destroys the blocker; the engine still fights the battle with
// the powers it read before the effect, and the attacker (3000) is destroyed by a blocker (5000) that is in
// the graveyard (seed 002: 「両方の効果の解決が終わったら、ここでクリーチャー同士のバトルが起こります」).
func TestBattleFoughtAfterTheBlockerWasDestroyed(t *testing.T) {
	b := newBoard(t)
	atk := b.spawn(t, b.alice, "tcg-oracle-sledge-break", match.BATTLEZONE)
	blk := b.spawn(t, b.bob, "tcg-oracle-blocker", match.BATTLEZONE)
	blk.Power = 5000
	sh := b.spawn(t, b.bob, uidVorg, match.SHIELDZONE)
	b.ready()
	if _, err := b.s.ActionAttackPlayer(b.alice, atk.ID); err != nil {
		t.Fatal(err)
	}
	bobSince, _ := b.s.MessageCount(b.bob)
	if err := b.s.ResolveAttack(b.alice, sh.ID); err != nil {
		t.Fatal(err)
	}
	if err := b.s.WaitForMessage(b.bob, bobSince, "action"); err != nil {
		t.Fatal("no block prompt:", err)
	}
	if err := b.s.SubmitAction(b.bob, blk.ID); err != nil {
		t.Fatal(err)
	}
	// bob's creature is the only one: the engine destroys it without a prompt (fx.SelectFilter)
	if err := b.s.WaitForEventLoop(); err != nil {
		t.Fatal(err)
	}
	t.Logf("attacker zone %s, blocker zone %s", atk.Zone, blk.Zone)
	if blk.Zone != match.GRAVEYARD {
		t.Fatalf("the effect did not destroy the blocker (zone %s)", blk.Zone)
	}
	if atk.Zone == match.GRAVEYARD {
		t.Log("CONFIRMED: the attacker was destroyed in a battle against a creature already in the graveyard")
	} else {
		t.Fatalf("not reproduced: the attacker is in %s", atk.Zone)
	}
}

// The same with a real card: Tropic Crawler (DM-12) "Whenever this creature blocks, your opponent chooses one
// of his creatures in the battle zone, and returns it to his hand." The attacker, returned to its owner's
// hand, still wins the battle: Tropic Crawler is destroyed by a creature in the hand.
func TestTropicCrawlerDestroyedByACreatureInTheHand(t *testing.T) {
	b := newBoard(t)
	atk := b.spawn(t, b.alice, uidVorg, match.BATTLEZONE)
	atk.Power = 5000
	crawler := b.spawn(t, b.bob, uidTropicCrawler, match.BATTLEZONE)
	sh := b.spawn(t, b.bob, uidVorg, match.SHIELDZONE)
	b.ready()
	if _, err := b.s.ActionAttackPlayer(b.alice, atk.ID); err != nil {
		t.Fatal(err)
	}
	bobSince, _ := b.s.MessageCount(b.bob)
	if err := b.s.ResolveAttack(b.alice, sh.ID); err != nil {
		t.Fatal(err)
	}
	if err := b.s.WaitForMessage(b.bob, bobSince, "action"); err != nil {
		t.Fatal("no block prompt:", err)
	}
	if err := b.s.SubmitAction(b.bob, crawler.ID); err != nil {
		t.Fatal(err)
	}
	// alice's only creature is the attacker: the engine returns it without a prompt
	if err := b.s.WaitForEventLoop(); err != nil {
		t.Fatal(err)
	}
	t.Logf("attacker zone %s, Tropic Crawler zone %s", atk.Zone, crawler.Zone)
	if atk.Zone != match.HAND {
		t.Fatalf("the attacker was not returned to the hand (zone %s)", atk.Zone)
	}
	if crawler.Zone == match.GRAVEYARD {
		t.Log("CONFIRMED: Tropic Crawler was destroyed in a battle with a creature in the hand")
	} else {
		t.Fatalf("not reproduced: Tropic Crawler is in %s", crawler.Zone)
	}
}

// A double break puts both shields into the hand, then offers their shield triggers one at a time (the
// seed: one shield at a time, each with its own Ｓ・トリガー window; CR113.6 of 2024.02.15: all at once).
func TestDoubleBreakPutsBothShieldsInTheHandFirst(t *testing.T) {
	b := newBoard(t)
	atk := b.spawn(t, b.alice, "tcg-oracle-w-breaker", match.BATTLEZONE)
	s1 := b.spawn(t, b.bob, "tcg-oracle-s-trigger-draw", match.SHIELDZONE)
	s2 := b.spawn(t, b.bob, "tcg-oracle-s-trigger-draw", match.SHIELDZONE)
	b.ready()
	if _, err := b.s.ActionAttackPlayer(b.alice, atk.ID); err != nil {
		t.Fatal(err)
	}
	bobSince, _ := b.s.MessageCount(b.bob)
	if err := b.s.ResolveAttack(b.alice, s1.ID, s2.ID); err != nil {
		t.Fatal(err)
	}
	a, err := b.s.WaitForAction(b.bob, bobSince)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("first shield trigger prompt: %q offers %d cards; s1 in %s, s2 in %s", a.Text, len(a.Cards), s1.Zone, s2.Zone)
	if s1.Zone != match.HAND || s2.Zone != match.HAND || len(a.Cards) != 2 {
		t.Fatalf("not reproduced")
	}
	t.Log("CONFIRMED: both broken shields are in the hand before the first Ｓ・トリガー is offered")
	_ = b.s.CancelAction(b.bob)
	_ = b.s.WaitForEventLoop()
}

// The game ends the moment a deck is empty: drawing the last card ends it (player.go DrawCards "deck out").
func TestDeckOutEndsTheGameAtZero(t *testing.T) {
	b := newBoard(t)
	deck, _ := b.bob.Player.ContainerRef(match.DECK)
	*deck = (*deck)[:1]
	b.bob.Player.DrawCards(1)
	deadline := time.Now().Add(2 * time.Second)
	for !b.m.IsClosed() && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if !b.m.IsClosed() {
		t.Fatal("not reproduced: the match goes on with an empty deck")
	}
	t.Log("CONFIRMED: drawing the last card of a deck ends the game")
}

// blockIfAble: alice's attacker (power atkPower) attacks bob, whose battle zone holds the given cards in that
// order, and one shield; returns the attacker, bob's creatures, and whether bob was sent any prompt ("action").
func blockIfAble(t *testing.T, atkPower int, bobs ...string) (*match.Card, []*match.Card, bool) {
	b := newBoard(t)
	atk := b.spawn(t, b.alice, uidVorg, match.BATTLEZONE)
	atk.Power = atkPower
	var cs []*match.Card
	for _, uid := range bobs {
		cs = append(cs, b.spawn(t, b.bob, uid, match.BATTLEZONE))
	}
	sh := b.spawn(t, b.bob, uidVorg, match.SHIELDZONE)
	b.ready()
	bobSince, _ := b.s.MessageCount(b.bob)
	if _, err := b.s.ActionAttackPlayer(b.alice, atk.ID); err != nil {
		t.Fatal(err)
	}
	if err := b.s.ResolveAttack(b.alice, sh.ID); err != nil {
		t.Fatal(err)
	}
	if err := b.s.WaitForEventLoop(); err != nil {
		t.Fatal(err)
	}
	headers, _ := b.s.MessageHeaders(b.bob, bobSince)
	asked := false
	for _, h := range headers {
		asked = asked || h == "action"
	}
	return atk, cs, asked
}

// The control: with a plain ブロッカー the engine does ask the defender (the prompt the two tests below never see).
func TestBlockIfAbleControlAPlainBlockerIsOffered(t *testing.T) {
	b := newBoard(t)
	atk := b.spawn(t, b.alice, uidVorg, match.BATTLEZONE)
	b.spawn(t, b.bob, "tcg-oracle-blocker", match.BATTLEZONE)
	sh := b.spawn(t, b.bob, uidVorg, match.SHIELDZONE)
	b.ready()
	bobSince, _ := b.s.MessageCount(b.bob)
	if _, err := b.s.ActionAttackPlayer(b.alice, atk.ID); err != nil {
		t.Fatal(err)
	}
	if err := b.s.ResolveAttack(b.alice, sh.ID); err != nil {
		t.Fatal(err)
	}
	a, err := b.s.WaitForAction(b.bob, bobSince)
	if err != nil {
		t.Fatal("no block prompt:", err)
	}
	t.Logf("bob is asked: %q", a.Text)
	_ = b.s.CancelAction(b.bob)
	_ = b.s.WaitForEventLoop()
}

// "Whenever an opponent's creature attacks, this creature blocks if able" (fx.BlockIfAbleWhenOppAttacks): the
// engine blocks with it by itself, asking the defender nothing, so another ブロッカー can never be chosen with it
// (CR507.1a/1b of the current rules: the defender chooses one or more ブロッカー, the forced one among them, and
// the last one used blocks). Bob: a plain ブロッカー, then Belmol (3500); alice's attacker: 5000.
func TestBlockIfAbleBlocksByItselfAndAlone(t *testing.T) {
	atk, cs, asked := blockIfAble(t, 5000, "tcg-oracle-blocker", uidBelmol)
	other, belmol := cs[0], cs[1]
	t.Logf("bob was asked: %v; Belmol %s tapped=%v; the other blocker %s tapped=%v; attacker %s",
		asked, belmol.Zone, belmol.Tapped, other.Zone, other.Tapped, atk.Zone)
	if asked || belmol.Zone != match.GRAVEYARD || other.Tapped || atk.Zone != match.BATTLEZONE {
		t.Fatal("not reproduced")
	}
	t.Log("CONFIRMED: Belmol blocked without bob being asked; the other ブロッカー could not be chosen with it")
}

// Two creatures that block if able: the engine blocks with the first in the defender's battle zone (the card
// order HandleFx walks, match.go:772; the first one's handler interrupts the Block event), never asking which.
// Attacker 4000 against Belmol (3500) and Messa Bahna (5000), in both orders.
func TestTwoBlockIfAbleTheFirstInTheBattleZoneBlocks(t *testing.T) {
	atk, cs, asked := blockIfAble(t, 4000, uidBelmol, uidMessaBahna)
	t.Logf("[Belmol, Messa Bahna]: bob was asked: %v; Belmol %s, Messa Bahna %s tapped=%v, attacker %s",
		asked, cs[0].Zone, cs[1].Zone, cs[1].Tapped, atk.Zone)
	if asked || cs[0].Zone != match.GRAVEYARD || cs[1].Tapped || atk.Zone != match.BATTLEZONE {
		t.Fatal("not reproduced (Belmol first)")
	}
	atk, cs, asked = blockIfAble(t, 4000, uidMessaBahna, uidBelmol)
	t.Logf("[Messa Bahna, Belmol]: bob was asked: %v; Messa Bahna %s tapped=%v, Belmol %s tapped=%v, attacker %s",
		asked, cs[0].Zone, cs[0].Tapped, cs[1].Zone, cs[1].Tapped, atk.Zone)
	if asked || !cs[0].Tapped || cs[1].Tapped || atk.Zone != match.GRAVEYARD {
		t.Fatal("not reproduced (Messa Bahna first)")
	}
	t.Log("CONFIRMED: the first forced blocker in the battle zone's order blocks; the defender is never asked which")
}
