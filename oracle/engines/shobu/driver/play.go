package main

// One case on one fresh match of the engine: the board is written into the players' zones, then each script
// entry is turned into what a player of shobu.io does (an attack, an answer to the prompt the engine has
// open, ending the turn). The engine's functions run on a goroutine of their own; the driver waits until
// that goroutine finishes, opens a prompt, or refuses an answer with a warning.

import (
	"duel-masters/game/cnd"
	"duel-masters/game/match"
	"duel-masters/server"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
)

const (
	fillerUID  = "af3bc221-1cc2-4f58-83ea-2673ac2c66c5" // Immortal Baron, Vorg: the deck filler of the engine's tests
	padding    = 20                                     // untracked cards under a deck the case leaves unsaid
	waitLimit  = 5 * time.Second
	zoneFields = "battlefield shields hand deck graveyard mana"
)

var engineZone = map[string]string{"battlefield": match.BATTLEZONE, "shields": match.SHIELDZONE,
	"hand": match.HAND, "deck": match.DECK, "graveyard": match.GRAVEYARD, "mana": match.MANAZONE}
var suiteZone = map[string]string{match.BATTLEZONE: "battlefield", match.SHIELDZONE: "shields",
	match.HAND: "hand", match.DECK: "deck", match.GRAVEYARD: "graveyard", match.MANAZONE: "mana",
	match.SPELLZONE: "graveyard", match.HIDDENZONE: "battlefield"}

var system = match.NewSystem()
var once sync.Once

type setup struct {
	Active  string                                `json:"active"`
	Step    string                                `json:"step"`
	Players map[string]map[string]json.RawMessage `json:"players"`
}

type setupCard struct {
	ID              string            `json:"id"`
	Card            string            `json:"card"`
	Power           *int              `json:"power"`
	Abilities       []json.RawMessage `json:"abilities"`
	Tapped          bool              `json:"tapped"`
	EnteredThisTurn bool              `json:"entered_this_turn"`
	AttachedTo      string            `json:"attached_to"`
	Attacking       json.RawMessage   `json:"attacking"`
	Blocking        string            `json:"blocking"`
}

type tracked struct {
	caseID    string
	owner     string
	card      *match.Card
	abilities []string
	hasPower  bool
	setZone   string // where the setup put it, and whether tapped: an effect the engine took by itself shows
	setTapped bool
}

type state struct {
	Players map[string]map[string]any `json:"players"`
	Cards   map[string]map[string]any `json:"cards"`
}

type game struct {
	m        *match.Match
	refs     map[string]*match.PlayerReference // case player id -> engine player
	names    map[*match.Player]string
	order    []string // case player ids: active first
	cards    []*tracked
	byCase   map[string]*tracked
	byEngine map[string]*tracked
	prompts  chan prompt
	warns    chan string
	winner   chan string
	done     chan struct{}
	running  bool
	pending  *prompt
	declined map[string]bool // Ｓ・トリガー cards the defender declined while the prompt stays open
	confirm  map[string]bool // engine ids whose attack the engine confirmed (AttackConfirmed)
	turnEnd  *state          // the state when the turn ended (end_turn), before the next turn began
	ending   bool
	panicked string
	won      string
	script   []entry
	deferred []int          // use/decline entries waiting for the engine to offer its next Ｓ・トリガー
	late     map[int]string // outcomes known only later (a deferred entry)
	triggers bool           // the running engine call has offered Ｓ・トリガー
	// the current attack's block: whether the engine opened its block prompt, and the creature it blocked with
	// without one (a "blocks if able" creature: fx.BlockIfAbleWhenOppAttacks blocks by itself, asking nothing)
	blockAsked bool
	autoBlock  *match.Card
}

func playCase(req *request) reply {
	once.Do(registerEngineCards)
	r := reply{Type: "result", ID: req.ID}
	if req.Setup.Step != "" {
		r.Skip = "a setup that starts in the middle of an attack (setup.step " + req.Setup.Step + "): shobu.io's engine " +
			"starts an attack only from its declaration"
		return r
	}
	for _, e := range req.Script {
		if !playedKinds[e.Kind] {
			r.Skip = "the decision " + e.Kind + " is not played by tcg-oracle's driver: the main step's summoning " +
				"(summon) is not mapped onto the engine's actions"
			return r
		}
	}
	g, why := newGame(req)
	if why != "" {
		if g != nil {
			g.m.Dispose()
		}
		r.Skip = why
		return r
	}
	defer g.close()
	g.script, g.late = req.Script, map[int]string{}
	r.Checkpoints = append(r.Checkpoints, checkpoint{After: -1, State: g.observe()}) // before the first entry
	pre := map[int]bool{}                                                            // script entries answered ahead (the shields the engine asks for at the attack)
	for i := range req.Script {
		var out string
		if g.over() { // the engine ended the game (its win or its deck-out): it asks nothing more
			out = "not_asked"
		} else {
			out = g.play(req.Script, i, pre)
			g.feedDeferred()
		}
		if g.panicked != "" {
			r.Error = "engine panic: " + g.panicked
			return r
		}
		r.Decisions = append(r.Decisions, decision{At: i, Outcome: out})
		r.Checkpoints = append(r.Checkpoints, checkpoint{After: i, State: g.observe()})
	}
	refused := false
	for n, d := range r.Decisions {
		if d.Outcome == "deferred" {
			r.Decisions[n].Outcome = "not_asked" // the engine never offered that card again
			if late, ok := g.late[d.At]; ok {
				r.Decisions[n].Outcome = late
			}
		}
		refused = refused || r.Decisions[n].Outcome == "refused"
	}
	// a prompt still open after the script: the decision the rules give there came earlier and the engine
	// refused it (the case then fails on that refusal), or the engine asks what the rules do not (an error)
	if r.Error == "" && g.pending != nil && !g.over() && !refused {
		p := g.pending
		r.Error = fmt.Sprintf("the script ran out while the engine asks %s: %q", g.playerName(p.player), p.text)
	}
	final := g.observe()
	r.Final = &final
	if g.won != "" {
		w := g.won
		r.Winner = &w
	}
	return r
}

func newGame(req *request) (*game, string) {
	g := &game{refs: map[string]*match.PlayerReference{}, names: map[*match.Player]string{},
		byCase: map[string]*tracked{}, byEngine: map[string]*tracked{}, prompts: make(chan prompt, 64),
		warns: make(chan string, 64), winner: make(chan string, 4), declined: map[string]bool{},
		confirm: map[string]bool{}}
	if len(req.Setup.Players) != 2 {
		return nil, fmt.Sprintf("%d players: shobu.io's engine plays two", len(req.Setup.Players))
	}
	m := system.NewMatch("tcg-oracle", "1", "Player1", []string{}, "2", "Player2", []string{}, false, false,
		match.FormatDescriptor{})
	g.m = m
	c1 := &conn{player: 1, prompts: g.prompts, warns: g.warns, winner: g.winner}
	c2 := &conn{player: 2, prompts: g.prompts, warns: g.warns, winner: g.winner}
	p1, p2 := match.NewPlayer(m, 1), match.NewPlayer(m, 2)
	m.Player1 = match.NewPlayerReference(p1, server.NewSocket(c1, m, "1", "Player1"))
	m.Player2 = match.NewPlayerReference(p2, server.NewSocket(c2, m, "2", "Player2"))
	deck := make([]string, 40)
	for i := range deck {
		deck[i] = fillerUID
	}
	p1.CreateDeck(deck)
	p2.CreateDeck(append([]string{}, deck...))
	p1.Ready, p2.Ready = true, true
	m.Start()
	active := m.CurrentPlayer()
	other := m.PlayerRef(m.Opponent(active.Player))
	var otherID string
	for id := range req.Setup.Players {
		if id != req.Setup.Active {
			otherID = id
		}
	}
	if _, ok := req.Setup.Players[req.Setup.Active]; !ok {
		return g, "the active player " + req.Setup.Active + " is not a player of the setup"
	}
	g.refs[req.Setup.Active], g.refs[otherID] = active, other
	g.names[active.Player], g.names[other.Player] = req.Setup.Active, otherID
	g.order = []string{req.Setup.Active, otherID}
	for _, ref := range []*match.PlayerReference{active, other} {
		for _, z := range []string{match.HAND, match.SHIELDZONE, match.BATTLEZONE, match.MANAZONE, match.GRAVEYARD,
			match.DECK} {
			zone, _ := ref.Player.ContainerRef(z)
			*zone = (*zone)[:0]
		}
	}
	// the card pool entries as engine constructors, one per (card, case-added abilities)
	ctors := map[string]string{}
	var sickness, tapped []*match.Card
	for _, pid := range g.order {
		p := g.refs[pid].Player
		zones := req.Setup.Players[pid]
		for z := range zones {
			if _, ok := engineZone[z]; !ok {
				return g, "zone " + z + " of " + pid + ": shobu.io's engine has no such zone"
			}
		}
		// the deck first: the engine ends the game at any event while a deck is empty
		for _, z := range []string{"deck", "shields", "hand", "mana", "graveyard", "battlefield"} {
			raw, ok := zones[z]
			if !ok {
				if z == "deck" {
					for i := 0; i < padding; i++ {
						if _, err := p.SpawnCard(fillerUID, match.DECK); err != nil {
							return g, "filler: " + err.Error()
						}
					}
				}
				continue
			}
			var n int
			var list []setupCard
			if json.Unmarshal(raw, &n) == nil {
				for i := 1; i <= n; i++ {
					list = append(list, setupCard{ID: fmt.Sprintf("%s.%s.%d", pid, z, i)})
				}
			} else if err := json.Unmarshal(raw, &list); err != nil {
				return g, fmt.Sprintf("zone %s of %s: %v", z, pid, err)
			}
			for _, sc := range list {
				if sc.AttachedTo != "" {
					return g, "an evolution source (attached_to): the driver does not set up evolution creatures"
				}
				uid, names, hasPower := fillerUID, []string{}, false
				if sc.Card != "" {
					var pc poolCard
					if err := json.Unmarshal(req.Cards[sc.Card], &pc); err != nil {
						return g, "card " + sc.Card + " is not in the request's card pool"
					}
					extra, err := parseAbilities(sc.Abilities)
					if err != nil {
						return g, err.Error()
					}
					key := sc.Card + "|" + fmt.Sprint(len(sc.Abilities))
					for _, a := range sc.Abilities {
						key += "|" + string(a)
					}
					ctor, ns, why := buildCtor(pc, extra)
					if why != "" {
						return g, why
					}
					if ctors[key] == "" {
						ctors[key] = fmt.Sprintf("tcg-oracle:%s:%d", req.ID, len(ctors))
					}
					uid, names = ctors[key], ns
					match.AddCard(uid, ctor)
					hasPower = pc.Power != nil || sc.Power != nil
				}
				ez := engineZone[z]
				spawnZone := ez
				if ez == match.BATTLEZONE {
					spawnZone = match.HAND
				}
				c, err := p.SpawnCard(uid, spawnZone)
				if err != nil {
					return g, "spawn " + sc.ID + ": " + err.Error()
				}
				if ez == match.BATTLEZONE { // into the battle zone without an event (no summoning)
					hand, _ := p.ContainerRef(match.HAND)
					*hand = (*hand)[:len(*hand)-1]
					bz, _ := p.ContainerRef(match.BATTLEZONE)
					*bz = append(*bz, c)
					c.Zone = match.BATTLEZONE
				}
				if sc.Power != nil {
					c.Power = *sc.Power
				}
				if sc.EnteredThisTurn {
					sickness = append(sickness, c)
				}
				if sc.Tapped {
					tapped = append(tapped, c)
				}
				t := &tracked{caseID: sc.ID, owner: pid, card: c, abilities: names, hasPower: hasPower,
					setZone: c.Zone, setTapped: sc.Tapped}
				g.cards = append(g.cards, t)
				g.byCase[sc.ID] = t
				g.byEngine[c.ID] = t
			}
		}
	}
	// keyword abilities are granted by each card's handler at the untap step (as the engine's tests do)
	m.HandleFx(match.NewContext(m, &match.UntapStep{}))
	for _, c := range sickness {
		c.AddCondition(cnd.SummoningSickness, nil, nil)
	}
	for _, c := range tapped {
		c.Tapped = true
	}
	m.ApplyPersistentEffect(g.spy)
	return g, ""
}

// spy sees every engine event first (a persistent effect): which attacks the engine confirmed, and the
// state at the end of the turn, before the engine begins the next one.
func (g *game) spy(ctx *match.Context, exit func()) {
	switch e := ctx.Event.(type) {
	case *match.AttackConfirmed:
		g.confirm[e.CardID] = true
	case *match.Battle:
		if e.Blocked && !g.blockAsked && g.autoBlock == nil {
			g.autoBlock = e.Defender
		}
	case *match.BeginTurnStep:
		if g.turnEnd == nil {
			s := g.observe()
			g.turnEnd = &s
		}
	}
}

func (g *game) close() {
	g.m.Dispose()
	if g.running {
		select {
		case <-g.done:
		case <-time.After(time.Second):
		}
	}
}

func (g *game) over() bool { return g.won != "" || g.m.IsClosed() }

func (g *game) playerName(n int) string {
	if n == 1 {
		return g.names[g.m.Player1.Player]
	}
	return g.names[g.m.Player2.Player]
}

// start runs an engine function on its own goroutine, then waits; returns the warnings it gave.
func (g *game) start(f func()) string {
	g.done = make(chan struct{})
	g.running = true
	done := g.done
	go func() {
		defer close(done)
		defer func() {
			if r := recover(); r != nil && !match.IsMatchDisposed(r) {
				g.panicked = fmt.Sprint(r)
			}
		}()
		f()
	}()
	return g.wait(false)
}

// wait until the engine's goroutine finishes or opens a prompt (or, after an answer, refuses it with a
// warning: its prompt then stays open); returns the warnings it gave meanwhile.
func (g *game) wait(answered bool) string {
	warn := ""
	for {
		select {
		case p := <-g.prompts:
			g.pending = &p
			g.triggers = g.triggers || kindOf(&p) == "s_trigger"
			g.blockAsked = g.blockAsked || kindOf(&p) == "block"
			return warn + g.drainWarns()
		case w := <-g.warns:
			warn += w
			if answered { // an answer refused: the same prompt stays open
				return warn
			}
		case uid := <-g.winner:
			g.setWinner(uid)
		case <-g.done:
			g.running = false
			g.triggers = false
			g.pending = nil
			g.drainWinner()
			return warn + g.drainWarns()
		case <-time.After(waitLimit):
			g.panicked = "the engine neither finished nor asked anything within 5 s"
			return warn
		}
	}
}

func (g *game) drainWarns() string {
	s := ""
	for {
		select {
		case w := <-g.warns:
			s += w
		default:
			return s
		}
	}
}

func (g *game) drainWinner() {
	for {
		select {
		case uid := <-g.winner:
			g.setWinner(uid)
		default:
			return
		}
	}
}

func (g *game) setWinner(uid string) {
	if uid == "1" {
		g.won = g.names[g.m.Player1.Player]
	} else if uid == "2" {
		g.won = g.names[g.m.Player2.Player]
	}
}

// answer the open prompt; "" when the engine took it, else its warning (the prompt stays open).
func (g *game) answer(cards []string, cancel bool) string {
	p := g.pending
	pl := g.m.Player1.Player
	if p.player == 2 {
		pl = g.m.Player2.Player
	}
	g.pending = nil
	if cards == nil {
		cards = []string{}
	}
	select {
	case pl.Action <- match.PlayerAction{Cards: cards, Count: len(cards), Cancel: cancel}:
	case <-g.done:
		g.running = false
		return ""
	case <-time.After(waitLimit):
		g.panicked = "the engine did not take the answer to its prompt"
		return ""
	}
	w := g.wait(true)
	if w != "" && g.pending == nil && g.running {
		g.pending = p
	}
	return w
}

// kind of the open prompt, from the engine's own prompt texts (game/fx/creature.go, game/match/match.go)
func kindOf(p *prompt) string {
	switch {
	case strings.HasPrefix(p.text, "Select ") && strings.HasSuffix(p.text, "shield(s) to break"):
		return "shields"
	case strings.Contains(p.text, "Choose a creature to block the attack with"):
		return "block"
	case strings.HasPrefix(p.text, "Shield trigger!"):
		return "s_trigger"
	case p.text == "Select the creature to attack":
		return "attack_target"
	case p.actionType == "order":
		return "order"
	}
	return "effect"
}

func (g *game) engineID(caseID string) string {
	if t, ok := g.byCase[caseID]; ok {
		return t.card.ID
	}
	return "tcg-oracle:unknown:" + caseID // an id no card has: the engine refuses it as it refuses any
}

func (g *game) caseIDs(ids []string) []string {
	out := []string{}
	for _, id := range ids {
		if t, ok := g.byEngine[id]; ok {
			out = append(out, t.caseID)
		}
	}
	return out
}

func cardArg(raw json.RawMessage, key string) (string, bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, true
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) == nil && len(m) >= 1 {
		if v, ok := m[key]; ok && json.Unmarshal(v, &s) == nil {
			return s, true
		}
	}
	return "", false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// playedKinds: the decisions the driver maps onto the engine's actions (play); a case with any other is a skip.
var playedKinds = map[string]bool{
	"attack": true, "block": true, "no_block": true, "choose_shield": true, "use": true, "decline": true,
	"choose_target": true, "discard": true, "choose_card": true, "tap_ability": true, "end_turn": true,
}

// play one script entry; returns its outcome (accepted | refused | automatic | not_asked).
func (g *game) play(script []entry, i int, pre map[int]bool) string {
	e := script[i]
	ref, isPlayer := g.refs[e.Player]
	if !isPlayer {
		return "refused"
	}
	if !wellFormed(e.Kind, e.Args) {
		return "refused" // no message of the engine says this: the driver cannot send it
	}
	mine := g.pending != nil && g.playerName(g.pending.player) == e.Player
	kind := ""
	if g.pending != nil {
		kind = kindOf(g.pending)
	}
	switch e.Kind {
	case "attack":
		if g.pending != nil || !g.m.IsPlayerTurn(ref.Player) {
			return "refused"
		}
		var a struct {
			Attacker json.RawMessage `json:"attacker"`
			Target   json.RawMessage `json:"target"`
		}
		var attacker, target string
		if json.Unmarshal(e.Args, &a) != nil || json.Unmarshal(a.Attacker, &attacker) != nil ||
			json.Unmarshal(a.Target, &target) != nil {
			return "refused" // the engine's attack names one creature and, for a creature, one target
		}
		t, ok := g.byCase[attacker]
		if !ok || t.card.Player != ref.Player {
			return "refused"
		}
		id := t.card.ID
		delete(g.confirm, id)
		g.blockAsked, g.autoBlock = false, nil
		if opp, isP := g.refs[target]; isP {
			if opp == ref {
				return "refused" // the engine's only player attack is on the opponent
			}
			g.start(func() { g.m.AttackPlayer(ref, id) })
			if g.pending != nil && kindOf(g.pending) == "shields" && g.playerName(g.pending.player) == e.Player {
				g.chooseShields(script, i, pre)
			}
			if g.confirm[id] {
				return "accepted"
			}
			return "refused"
		}
		g.start(func() { g.m.AttackCreature(ref, id) })
		if g.pending == nil || kindOf(g.pending) != "attack_target" {
			if g.confirm[id] {
				return "accepted"
			}
			return "refused"
		}
		tid := g.engineID(target)
		if !contains(g.pending.cards, tid) {
			g.answer(nil, true)
			return "refused"
		}
		g.answer([]string{tid}, false)
		if g.confirm[id] {
			return "accepted"
		}
		return "refused"
	case "block":
		if !mine || kind != "block" {
			if g.blockedItself(e) {
				return "automatic" // the engine blocked with this very creature itself ("blocks if able")
			}
			return "not_asked"
		}
		if g.blockBeforeAutomatic(script, i) {
			return "not_asked"
		}
		var ids []string
		if s, ok := cardArg(e.Args, "blocker"); ok {
			ids = []string{g.engineID(s)}
		} else {
			var list []string
			if json.Unmarshal(e.Args, &list) != nil {
				return "refused"
			}
			for _, s := range list {
				ids = append(ids, g.engineID(s))
			}
		}
		if w := g.answer(ids, false); w != "" {
			return "refused"
		}
		return "accepted"
	case "no_block":
		if !mine || kind != "block" {
			if g.autoBlock != nil {
				return "not_asked" // the engine blocked itself: it never took "no block"
			}
			return "automatic"
		}
		g.answer(nil, true)
		return "accepted"
	case "choose_shield":
		if pre[i] {
			s, _ := cardArg(e.Args, "card")
			if t, ok := g.byCase[s]; ok && t.card.Zone != match.SHIELDZONE {
				return "accepted"
			}
			return "not_asked"
		}
		return "not_asked"
	case "use", "decline":
		if pre[i] {
			return "accepted" // answered with the choose_target before it (one prompt of the engine: optionalAnswer)
		}
		if !mine || kind != "s_trigger" {
			if g.running && g.triggers { // the engine resolves one Ｓ・トリガー before it offers the next:
				g.deferred = append(g.deferred, i) // this declaration waits for that offer (CR113.6)
				return "deferred"
			}
			return "not_asked"
		}
		s, ok := cardArg(e.Args, "card")
		if !ok {
			return "refused"
		}
		id := g.engineID(s)
		if e.Kind == "decline" && !contains(g.pending.cards, id) {
			return "refused" // the prompt does not offer it (declining is closing the prompt: no card is sent)
		}
		if e.Kind == "use" {
			if w := g.answer([]string{id}, false); w != "" {
				return "refused"
			}
		} else {
			g.declined[id] = true
		}
		g.declineRest()
		return "accepted"
	case "choose_target", "discard":
		s, ok := cardArg(e.Args, "card")
		if !ok {
			return "refused"
		}
		if e.Kind == "discard" && pre[i] {
			return "accepted" // answered with the entry of the discard before it (one prompt for all N cards)
		}
		if !mine || kind != "effect" {
			if t, ok := g.byCase[s]; ok && (t.card.Zone != t.setZone || t.card.Tapped != t.setTapped) {
				return "automatic" // the engine took it itself (its only legal option: fx.SelectFilter)
			}
			return "not_asked"
		}
		ids := []string{g.engineID(s)}
		if e.Kind == "discard" && pre[i] {
			return "accepted" // answered with the entry of the discard before it (one prompt for all N cards)
		}
		if e.Kind == "discard" && g.pending.max > 1 { // the engine asks for all N cards at once
			for j := i + 1; j < len(script) && len(ids) < g.pending.max; j++ {
				if script[j].Kind != "discard" || script[j].Player != e.Player {
					break
				}
				if c, ok := cardArg(script[j].Args, "card"); ok {
					ids = append(ids, g.engineID(c))
					pre[j] = true
				}
			}
		}
		j := -1
		if e.Kind == "choose_target" && g.pending.cancel {
			j = g.optionalAnswer(script, i)
		}
		if j >= 0 && script[j].Kind == "decline" { // the engine's "you may choose": closed, nothing chosen
			g.answer(nil, true)
			pre[j] = true
			return "accepted"
		}
		if w := g.answer(ids, false); w != "" {
			return "refused"
		}
		if j >= 0 {
			pre[j] = true
		}
		g.declineRest()
		return "accepted"
	case "choose_card":
		if !mine || kind != "effect" {
			return "not_asked"
		}
		var a struct {
			Take   string   `json:"take"`
			Bottom []string `json:"bottom"`
		}
		if s, ok := cardArg(e.Args, "take"); ok {
			a.Take = s
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(e.Args, &m) == nil {
			json.Unmarshal(m["bottom"], &a.Bottom)
		}
		if w := g.answer([]string{g.engineID(a.Take)}, false); w != "" {
			return "refused"
		}
		if g.pending != nil && kindOf(g.pending) == "order" && g.playerName(g.pending.player) == e.Player {
			ids := []string{}
			for _, b := range a.Bottom {
				ids = append(ids, g.engineID(b))
			}
			if a.Bottom == nil { // the script names the card taken only: the rest as the engine offers them
				ids = append(ids, g.pending.cards...)
			}
			if w := g.answer(ids, false); w != "" {
				return "refused"
			}
		}
		return "accepted"
	case "tap_ability":
		if g.pending != nil || !g.m.IsPlayerTurn(ref.Player) {
			return "refused"
		}
		s, ok := cardArg(e.Args, "card")
		if !ok {
			return "refused"
		}
		t, ok := g.byCase[s]
		if !ok || t.card.Player != ref.Player {
			return "refused"
		}
		id := t.card.ID
		g.blockAsked, g.autoBlock = false, nil
		if w := g.start(func() { g.m.TapAbility(ref, id) }); w != "" && g.pending == nil {
			return "refused"
		}
		return "accepted"
	case "end_turn":
		if g.pending != nil || !g.m.IsPlayerTurn(ref.Player) {
			return "refused"
		}
		g.blockAsked, g.autoBlock = false, nil
		g.start(func() { g.m.EndTurn() })
		return "accepted"
	}
	return "refused"
}

// optionalAnswer: the engine asks an optional ability's target and whether to use it in one cancellable prompt
// (「…選び、…戻してもよい」: "<card>: You may choose ...", e.g. Aqua Surfer's MayReturnCreatureToOwnersHand), the
// suite in two decisions, choose_target then use or decline naming the ability's card (X-optional-trigger). The
// index of that use/decline entry (the same player's, after this choose_target and any further ones), else -1:
// use answers the prompt with the target, decline closes it.
func (g *game) optionalAnswer(script []entry, i int) int {
	for j := i + 1; j < len(script); j++ {
		e := script[j]
		if e.Player != script[i].Player {
			return -1
		}
		switch e.Kind {
		case "choose_target":
			continue
		case "use", "decline":
			s, ok := cardArg(e.Args, "card")
			t, known := g.byCase[s]
			if ok && known && strings.HasPrefix(g.pending.text, t.card.Name+": ") {
				return j
			}
		}
		return -1
	}
	return -1
}

// blockedItself: the engine blocked the current attack by itself (a "blocks if able" creature, no prompt) with the
// one creature this block entry names, its controller's.
func (g *game) blockedItself(e entry) bool {
	if g.autoBlock == nil || g.names[g.autoBlock.Player] != e.Player {
		return false
	}
	var ids []string
	if s, ok := cardArg(e.Args, "blocker"); ok {
		ids = []string{s}
	} else if json.Unmarshal(e.Args, &ids) != nil {
		return false
	}
	return len(ids) == 1 && g.engineID(ids[0]) == g.autoBlock.ID
}

// wellFormed: the decision's arguments have the one shape its kind takes (README, Vocabulary, Duel Masters).
func wellFormed(kind string, raw json.RawMessage) bool {
	var s string
	isStr := json.Unmarshal(raw, &s) == nil
	var m map[string]json.RawMessage
	isMap := json.Unmarshal(raw, &m) == nil && m != nil
	keysIn := func(required []string, optional ...string) bool {
		for _, k := range required {
			var v string
			if json.Unmarshal(m[k], &v) != nil {
				return false
			}
		}
		for k := range m {
			if !contains(required, k) && !contains(optional, k) {
				return false
			}
		}
		return true
	}
	switch kind {
	case "attack":
		return isMap && keysIn([]string{"attacker", "target"})
	case "block":
		var list []string
		return isStr || (isMap && keysIn([]string{"blocker"})) || json.Unmarshal(raw, &list) == nil
	case "use":
		return isStr || (isMap && keysIn([]string{"card"}, "discard"))
	case "decline", "tap_ability":
		return isStr || (isMap && keysIn([]string{"card"}))
	case "choose_shield", "choose_target", "discard":
		return isStr
	case "choose_card":
		return isStr || (isMap && keysIn([]string{"take"}, "bottom"))
	case "no_block", "end_turn":
		return string(raw) == "null" || len(raw) == 0
	}
	return true
}

// blockBeforeAutomatic: the script has this player block now, then an effect's choice, then block again: the
// rules ask the choice first and the engine, which made it itself (one legal option), asks the block now. This
// entry is an attempt the engine never saw (not_asked); the later block answers the engine's prompt.
func (g *game) blockBeforeAutomatic(script []entry, i int) bool {
	for j := i + 1; j < len(script); j++ {
		k := script[j].Kind
		if k == "block" || k == "no_block" || k == "attack" || k == "end_turn" {
			return false
		}
		if k == "discard" || k == "choose_target" || k == "choose_card" {
			for _, later := range script[j+1:] {
				if later.Kind == "attack" || later.Kind == "end_turn" || later.Kind == "tap_ability" {
					return false // a block of a later attack is that attack's
				}
				if (later.Kind == "block" || later.Kind == "no_block") && later.Player == script[i].Player {
					return true
				}
			}
			return false
		}
	}
	return false
}

// feedDeferred answers a newly offered Ｓ・トリガー prompt with the declarations the script made meanwhile.
func (g *game) feedDeferred() {
	for len(g.deferred) > 0 && g.pending != nil && kindOf(g.pending) == "s_trigger" {
		i := g.deferred[0]
		e := g.script[i]
		if g.playerName(g.pending.player) != e.Player {
			return
		}
		g.deferred = g.deferred[1:]
		s, _ := cardArg(e.Args, "card")
		id := g.engineID(s)
		if !contains(g.pending.cards, id) {
			g.late[i] = "not_asked" // no longer offered (it left the hand)
			continue
		}
		if e.Kind == "decline" {
			g.declined[id] = true
			g.late[i] = "accepted"
		} else if w := g.answer([]string{id}, false); w != "" {
			g.late[i] = "refused"
		} else {
			g.late[i] = "accepted"
		}
		g.declineRest()
	}
}

// chooseShields answers the engine's shield prompt, which it opens as the attack is declared (before the
// block): with the attack's own choose_shield entries of the script (up to the attacker's next attack,
// tap ability or end of turn), each one the engine offers; if the script names fewer than the engine
// needs (an attack the script then blocks: the rules ask no shield), the first other shields it offers.
func (g *game) chooseShields(script []entry, i int, pre map[int]bool) {
	p := g.pending
	need := p.max
	picked := []string{}
	for j := i + 1; j < len(script) && len(picked) < need; j++ {
		e := script[j]
		if e.Player == script[i].Player && (e.Kind == "attack" || e.Kind == "tap_ability" || e.Kind == "end_turn") {
			break
		}
		if e.Kind != "choose_shield" || e.Player != script[i].Player {
			continue
		}
		s, ok := cardArg(e.Args, "card")
		if !ok {
			continue
		}
		id := g.engineID(s)
		if contains(p.cards, id) && !contains(picked, id) {
			picked = append(picked, id)
			pre[j] = true
		}
	}
	for _, id := range p.cards {
		if len(picked) >= need {
			break
		}
		if !contains(picked, id) {
			picked = append(picked, id)
		}
	}
	g.answer(picked, false)
}

// declineRest closes an Ｓ・トリガー prompt whose every offered card the defender has declined: the engine's
// prompt offers the remaining triggers one at a time and is closed (cancel) to use none of them.
func (g *game) declineRest() {
	for g.pending != nil && kindOf(g.pending) == "s_trigger" {
		for _, id := range g.pending.cards {
			if !g.declined[id] {
				return
			}
		}
		g.answer(nil, true)
	}
}

// observe projects the engine's state onto the suite's final-state vocabulary (case cards only; the
// padding under an unsaid deck is not the case's).
func (g *game) observe() state {
	if g.turnEnd != nil {
		return *g.turnEnd
	}
	s := state{Players: map[string]map[string]any{}, Cards: map[string]map[string]any{}}
	for _, pid := range g.order {
		p := g.refs[pid].Player
		zs := map[string]any{}
		for _, z := range strings.Fields(zoneFields) {
			ids := []string{}
			cs, _ := p.Container(engineZone[z])
			for _, c := range cs {
				if t, ok := g.byEngine[c.ID]; ok {
					ids = append(ids, t.caseID)
				}
			}
			zs[z] = ids
		}
		s.Players[pid] = zs
	}
	for _, t := range g.cards {
		c := t.card
		zone := suiteZone[c.Zone]
		f := map[string]any{"zone": zone, "owner": t.owner, "tapped": c.Zone == match.BATTLEZONE && c.Tapped,
			"abilities": append([]string{}, t.abilities...)}
		switch {
		case c.Zone == match.BATTLEZONE:
			f["power"] = g.m.GetPower(c, false)
		case t.hasPower && !c.HasCondition(cnd.Spell):
			f["power"] = c.Power
		default:
			f["power"] = nil
		}
		s.Cards[t.caseID] = f
	}
	return s
}

var _ = sort.Strings
