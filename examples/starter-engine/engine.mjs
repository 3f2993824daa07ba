// A starter engine for tcg-oracle in JavaScript (Node.js >= 18, no dependencies): the smallest honest
// Ijinden engine, at observation level `final`. The same engine as engine.py beside it.
//
// Copy this file and grow it. It speaks the JSON-lines protocol on stdin/stdout. It plays the battle of
// vanilla Ijin and guardians (cards with no abilities): the battle declaration (A1), blocks (B1), the choice
// of the next attacker (C1a), an unblocked attacker wins (C1b), battles (D1-D6) and the once-per-main-phase
// rule, from a setup at the start of the main phase or at a later step (`setup.step`). Its hello declares no
// ability, so the harness skips every case whose cards have one.
//
// At level `final` an engine reports no events: only, per script entry, whether it accepted or refused it
// (with the reason code), the end state and the winner. Run it on every Ijinden case:
//
//   tcg-oracle run --engine cmd:"node examples/starter-engine/engine.mjs" --game ijinden
//
// The rules it follows are cases/ijinden/PROCEDURE.md (the steps, and the order in which refusals are
// checked) and the Ijinden vocabulary (docs/vocabulary/ijinden.md: decisions, reason codes, final fields).

import { createInterface } from "node:readline";

const HELLO = {
  type: "hello", protocol_version: 2, schema_version: 1,
  engine: { name: "starter-engine-js", version: "0.1" }, games: ["ijinden"], capabilities: [],
  abilities: { ijinden: [] },               // no ability implemented: cases that need one are skipped
  observation: "final", reason_codes: true,
};
const ZONES = ["battlefield", "hand", "deck", "graveyard"];

class CannotRun extends Error {}            // the script lacks a decision, or has some left over: `error`
class Refused extends Error {}              // a refused decision; its message is the reason code

class Game {
  constructor(req) {
    const setup = req.setup;
    this.active = setup.active;
    this.players = Object.keys(setup.players);         // in turn order; Ijinden has two
    this.defender = this.players.find((p) => p !== this.active);
    this.zones = {};
    this.cards = {};
    for (const [p, zones] of Object.entries(setup.players)) {
      this.zones[p] = Object.fromEntries(ZONES.map((z) => [z, []]));
      for (let [zone, content] of Object.entries(zones)) {
        if (!ZONES.includes(zone)) continue;
        if (typeof content === "number") {             // anonymous cards: <player>.<zone>.<n>, from the top
          content = Array.from({ length: content }, (_, n) => ({ id: `${p}.${zone}.${n + 1}` }));
        }
        for (const c of content) {
          const printed = req.cards[c.card] ?? {};
          const types = printed.types ?? [];
          this.cards[c.id] = {
            zone, owner: p, sleeping: c.tapped ?? false, new: c.entered_this_turn ?? false,
            ijin: types.includes("ijin"), guardian: types.includes("guardian"),
            power: (c.power ?? printed.power) || 0,
            // a later-step setup says which cards are already in the battle
            attacker: c.attacking === true, blocking: c.blocking ?? null,
          };
          this.zones[p][zone].push(c.id);
        }
      }
    }
    this.step = setup.step ?? null;                    // null, "block", "resolution" or "after_battle"
    this.declared = this.step !== null;                // a later step: this turn's battle is declared
    this.script = req.script;
    this.at = 0;                                       // the next script entry
    this.decisions = [];                               // per script entry: accepted or refused (why)
    this.winner = null;
  }

  /** Take script entries until one is a legal decision of `player` of one of `kinds`; refuse the others. */
  ask(player, kinds, check) {
    while (this.at < this.script.length) {
      const d = this.script[this.at], at = this.at++;
      try {
        if (!kinds.includes(d.kind)) throw new Refused("unexpected_decision");  // the kind, then the player
        if (d.player !== player) throw new Refused(player === this.active ? "not_turn_player" : "not_your_decision");
        check(d.args, d.kind);
      } catch (e) {
        if (!(e instanceof Refused)) throw e;          // a refusal changes nothing; the same player decides again
        this.decisions.push({ at, outcome: "refused", reason: e.message });
        continue;
      }
      this.decisions.push({ at, outcome: "accepted" });
      return d;
    }
    return null;
  }

  need(player, kinds, check) {
    const d = this.ask(player, kinds, check);
    if (d === null) throw new CannotRun(`the script ended, but ${player} must decide ${kinds.join(" or ")}`);
    return d;
  }

  /** The card named `id`: an id of nothing is `unknown_object`; a player's id is refused by `notACard`. */
  card(id, notACard) {
    if (typeof id !== "string" || !(id in this.cards || this.players.includes(id))) throw new Refused("unknown_object");
    if (!(id in this.cards)) throw new Refused(notACard);
    return this.cards[id];
  }

  checkAttackers(ids) {                                // A1, in PROCEDURE.md's order
    if (this.declared) throw new Refused("battle_already_declared");
    if (!Array.isArray(ids)) throw new Refused("malformed_decision");
    if (ids.length === 0) throw new Refused("no_attackers");
    if (new Set(ids.map(String)).size !== ids.length) throw new Refused("attacker_twice");
    for (const id of ids) {
      const c = this.card(id, "attacker_not_yours");
      if (c.owner !== this.active || c.zone !== "battlefield") throw new Refused("attacker_not_yours");
      if (!c.ijin) throw new Refused("attacker_not_ijin");
      if (c.sleeping) throw new Refused("attacker_sleeping");
      if (c.new) throw new Refused("attacker_placed_this_turn");
    }
  }

  checkBlockers(plan) {                                // B1, in PROCEDURE.md's order
    if (plan === null || typeof plan !== "object" || Array.isArray(plan)) throw new Refused("malformed_decision");
    const seen = new Set();
    for (const [attacker, blockers] of Object.entries(plan)) {
      if (!Array.isArray(blockers)) throw new Refused("malformed_decision");
      if (!this.card(attacker, "not_an_attacker").attacker) throw new Refused("not_an_attacker");
      for (const b of blockers) {
        const c = this.card(b, "blocker_not_defenders");
        if (seen.has(b)) throw new Refused("blocker_assigned_twice");
        seen.add(b);
        if (c.owner !== this.defender || c.zone !== "battlefield") throw new Refused("blocker_not_defenders");
        if (!(c.ijin || c.guardian)) throw new Refused("blocker_not_ijin_or_guardian");
        if (c.sleeping) throw new Refused("blocker_sleeping");
      }
    }
  }

  checkChoice(id) {                                    // C1a
    if (!this.card(id, "not_an_attacker").attacker) throw new Refused("not_an_attacker");
  }

  play() {
    let at = { null: "main", after_battle: "main", block: "block", resolution: "resolution" }[this.step];
    for (;;) {
      if (at === "main") {                             // the main phase's open point: a battle, or the end
        const d = this.ask(this.active, ["declare_attackers", "end_turn"],
                           (a, k) => k === "end_turn" || this.checkAttackers(a));
        if (d === null || d.kind === "end_turn") return;
        this.declared = true;
        for (const id of d.args) Object.assign(this.cards[id], { sleeping: true, attacker: true });  // A3
      }
      if (at === "main" || at === "block") {           // B1: the defender assigns blockers
        const d = this.need(this.defender, ["declare_blockers"], (a) => this.checkBlockers(a));
        for (const [attacker, blockers] of Object.entries(d.args)) {
          for (const b of blockers) this.cards[b].blocking = attacker;
        }
      }
      while (Object.values(this.cards).some((c) => c.attacker)) {
        const id = this.need(this.defender, ["choose_attacker"], (a) => this.checkChoice(a)).args;
        const blockers = Object.keys(this.cards).filter((b) => this.cards[b].blocking === id);
        if (blockers.length === 0) {                   // C1b: an unblocked attacker wins the game
          this.winner = this.active;
          return;
        }
        this.battle(id, blockers);
      }
      at = "main";                                     // C2: back to the main phase
    }
  }

  /** D1: the attacker against the sum of its blockers' powers, each blocker against the attacker; a guardian
   * counts 0 and wins only against power 0 or less. D2-D4: the losers go to the graveyard at once. D6: the
   * survivors stop being attacker and blockers. */
  battle(attacker, blockers) {
    const isGuardian = (c) => c.guardian && !c.ijin;
    const power = (id) => (isGuardian(this.cards[id]) ? 0 : this.cards[id].power);
    const p = power(attacker);
    const losers = p > blockers.reduce((s, b) => s + power(b), 0) ? [] : [attacker];
    for (const b of blockers) {
      const wins = isGuardian(this.cards[b]) ? p <= 0 : power(b) > p;
      if (!wins) losers.push(b);
    }
    for (const id of losers) {
      const c = this.cards[id];
      const field = this.zones[c.owner].battlefield;
      field.splice(field.indexOf(id), 1);
      this.zones[c.owner].graveyard.push(id);
      c.zone = "graveyard";
    }
    this.cards[attacker].attacker = false;
    for (const b of blockers) this.cards[b].blocking = null;
  }

  final() {
    const players = {}, cards = {};
    for (const [p, zones] of Object.entries(this.zones)) players[p] = { ...zones, battle_declared: this.declared };
    for (const [id, c] of Object.entries(this.cards)) {
      cards[id] = { zone: c.zone, owner: c.owner, sleeping: c.sleeping, attacker: c.attacker,
                    blocker: c.blocking !== null, destroyed: false, ijin: c.ijin, guardian: c.guardian,
                    power: c.power, abilities: [] };
    }
    return { players, cards };
  }
}

function answer(req) {
  if (req.game !== "ijinden") return { type: "result", id: req.id ?? "", error: "this engine plays ijinden only" };
  const game = new Game(req);
  try {
    game.play();
    if (game.at < game.script.length) {
      throw new CannotRun(`${game.script.length - game.at} script entries left after the game ended`);
    }
  } catch (e) {
    if (!(e instanceof CannotRun)) throw e;
    return { type: "result", id: req.id, error: e.message };
  }
  return { type: "result", id: req.id, decisions: game.decisions, final: game.final(), winner: game.winner };
}

console.log(JSON.stringify(HELLO));                    // the hello, as soon as the engine starts
for await (const line of createInterface({ input: process.stdin })) {  // one request per line, one reply each
  const req = JSON.parse(line);
  if (req.type === "bye") break;
  console.log(JSON.stringify(answer(req)));
}
