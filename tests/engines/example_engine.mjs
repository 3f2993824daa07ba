// A minimal Ijinden engine in JavaScript (Node.js >= 18), written from the user-facing docs only
// (README "For engine authors", cases/ijinden/PROCEDURE.md, `tcg-oracle schema protocol`); it imports
// nothing from tcg-oracle and speaks the JSON-lines protocol version 1 on stdin/stdout.
//
// What it plays: plain battles of vanilla Ijin and guardians -- one or more attackers and blockers,
// the A1/B1 conditions and their refusals, pressure N (ダブル/トリプルプレッシャー) and 即応 (static
// conditions only), D1's comparisons (a guardian counts 0 and wins only against power 0 or less),
// the D2/D4/D6 moments, C1a's choice (with the pass-through of a blocker count short of the pressure), C2,
// the once-per-main-phase rule, and setups that start at a later step (`setup.step`: block, resolution,
// after_battle). Its hello declares the abilities it implements (`abilities: {ijinden: [...]}`), so the
// harness skips every case whose cards use another one; run on the whole game it passes 37 of the 88
// Ijinden cases and skips the rest:
//
//   tcg-oracle run --engine cmd:"node tests/engines/example_engine.mjs" --game ijinden
//
// Debugging: TCG_JS_DEBUG=1 copies every request and reply to stderr. The harness shows stderr only when the
// engine crashes or hangs, so keep it with a shell explicitly (cmd: runs no shell itself):
//   TCG_JS_DEBUG=1 tcg-oracle run --engine cmd:"sh -c 'node tests/engines/example_engine.mjs 2>>/tmp/engine.log'" -k ID
// and `tcg-oracle explain ID --engine cmd:"node tests/engines/example_engine.mjs"` shows where it parts from
// the reference, moment by moment.

import { createInterface } from "node:readline";

const DEBUG = !!process.env.TCG_JS_DEBUG;
const IMPLEMENTED = new Set(["pressure", "double_pressure", "triple_pressure", "sokuou"]);

class ScriptError extends Error {}          // the case cannot be run: answered as `error`

function send(obj) {
  const line = JSON.stringify(obj);
  if (DEBUG) process.stderr.write(`>> ${line}\n`);
  process.stdout.write(line + "\n");
}

function abilityName(a) {
  return typeof a === "string" ? a : Object.keys(a)[0];
}

function abilityParam(a) {
  return typeof a === "string" ? null : Object.values(a)[0];
}

/** One game of Ijinden, from a case request to its reply. */
class Game {
  constructor(request) {
    this.request = request;
    this.trace = [];
    this.moment = 0;
    this.winner = null;
    this.battleDeclared = false;
    const setup = request.setup;
    this.active = setup.active;
    this.order = Object.keys(setup.players);               // players in turn order
    this.zones = {};                                        // player -> zone -> [id]
    this.cards = {};                                        // id -> card state
    for (const [pid, p] of Object.entries(setup.players)) {
      this.zones[pid] = {};
      for (const [zone, content] of Object.entries(p)) {
        if (zone === "life" || zone === "team") continue;
        const ids = [];
        if (typeof content === "number") {
          for (let n = 1; n <= content; n++) ids.push(`${pid}.${zone}.${n}`);
        } else {
          for (const c of content) {
            this.cards[c.id] = this.makeCard(c, pid, zone);
            ids.push(c.id);
          }
        }
        this.zones[pid][zone] = ids;
      }
    }
    for (const card of Object.values(this.cards)) {
      if (card.zone !== "battlefield") continue;
      for (const a of card.abilities) {
        if (!IMPLEMENTED.has(abilityName(a))) {
          throw new ScriptError(`ability ${abilityName(a)} of ${card.id} is not implemented`);
        }
      }
    }
    this.script = request.script;
    this.at = 0;
  }

  makeCard(c, pid, zone) {
    const def = this.request.cards[c.card] || {};
    const types = def.types || [];
    return {
      id: c.id,
      owner: c.owner || pid,
      controller: c.controller || c.owner || pid,
      zone,
      ijin: types.includes("ijin"),
      guardian: types.includes("guardian"),
      power: c.power ?? def.power ?? null,
      sleeping: !!(c.tapped ?? c.sleeping ?? false),
      enteredThisTurn: !!c.entered_this_turn,
      abilities: [...(def.abilities || []), ...(c.abilities || [])],
      attacker: !!c.attacking,                              // a later setup.step: attacking already
      blocker: !!c.blocking,
      blocking: c.blocking ?? null,                         // the attacker this card blocks
      destroyed: false,
    };
  }

  has(card, name) {
    return card.abilities.some((a) => abilityName(a) === name);
  }

  pressure(card) {
    let n = 0;
    for (const a of card.abilities) {
      const name = abilityName(a);
      if (name === "pressure") n = Math.max(n, abilityParam(a));
      if (name === "double_pressure") n = Math.max(n, 2);
      if (name === "triple_pressure") n = Math.max(n, 3);
    }
    return n;
  }

  /** D1: a guardian's power counts as 0. */
  battlePower(card) {
    return card.guardian && !card.ijin ? 0 : (card.power ?? 0);
  }

  emit(events) {                                            // one moment
    this.moment += 1;
    for (const [kind, args] of events) this.trace.push({ moment: this.moment, kind, args });
  }

  // ------------------------------------------------------------------ decisions

  /** The next decision of `player`, one of `kinds`; refusals are emitted and the player decides again.
   *  `validate(entry)` returns a refusal reason or null. Returns null when the script is exhausted. */
  decide(player, kinds, validate) {
    for (;;) {
      if (this.at >= this.script.length) return null;
      const at = this.at++;
      const entry = this.script[at];
      let reason = null;
      if (!kinds.includes(entry.kind)) {
        reason = entry.kind === "declare_attackers" && entry.player !== this.active
          ? "not_turn_player" : "unexpected_decision";
      } else if (entry.player !== player) {
        reason = ["declare_attackers", "end_turn"].includes(entry.kind) ? "not_turn_player" : "not_your_decision";
      } else {
        reason = validate(entry);
      }
      if (reason) {
        this.emit([["rejected", { at, player: entry.player, reason }]]);
        continue;
      }
      this.emit([["decided", { at, player: entry.player, decision: entry.kind }]]);
      return entry;
    }
  }

  need(player, kinds, validate) {
    const entry = this.decide(player, kinds, validate);
    if (!entry) throw new ScriptError(`the script ran out: ${player} must decide ${kinds.join("/")}`);
    return entry;
  }

  known(id) {
    return typeof id === "string" && Object.prototype.hasOwnProperty.call(this.cards, id);
  }

  // ------------------------------------------------------------------ the main phase

  run() {
    const step = this.request.setup.step;                   // a later step: the battle is declared
    if (step) this.battleDeclared = true;
    if (step === "block" || step === "resolution") {
      this.battle(Object.values(this.cards).filter((c) => c.attacker).map((c) => c.id), step);
    }
    for (;;) {
      if (this.winner) break;
      const entry = this.decide(this.active, ["declare_attackers", "end_turn"], (e) =>
        e.kind === "declare_attackers" ? this.checkAttackers(e.args) : null);
      if (!entry || entry.kind === "end_turn") break;
      this.battle(entry.args);
      if (this.winner) break;
    }
    if (this.at < this.script.length) {
      throw new ScriptError(`script entries left from index ${this.at} after the case ended`);
    }
  }

  /** A1's conditions (and the once-per-main-phase rule). */
  checkAttackers(ids) {
    if (this.battleDeclared) return "battle_already_declared";
    if (!Array.isArray(ids) || !ids.every((x) => typeof x === "string")) return "malformed_decision";
    if (ids.length === 0) return "no_attackers";
    if (new Set(ids).size !== ids.length) return "attacker_twice";
    for (const id of ids) {
      if (!this.known(id)) return "unknown_object";
      const c = this.cards[id];
      if (c.controller !== this.active || c.zone !== "battlefield") return "attacker_not_yours";
      if (!c.ijin) return "attacker_not_ijin";
      if (c.sleeping) return "attacker_sleeping";
      if (c.enteredThisTurn && !this.has(c, "sokuou")) return "attacker_placed_this_turn";
    }
    return null;
  }

  defender() {
    return this.order.find((p) => p !== this.active);
  }

  // ------------------------------------------------------------------ the battle

  /** The battle from A1, or (a later setup.step) from B1 ("block") or C1 ("resolution"). */
  battle(ids, step) {
    const attacking = this.active;
    const defending = this.defender();
    this.battleDeclared = true;
    const attackers = ids.map((id) => this.cards[id]);
    if (!step) {
      this.emit([["declared_battle", { player: attacking }]]);                     // A1
      // A2: no attack+ here. A3: one moment.
      for (const a of attackers) { a.sleeping = true; a.attacker = true; }
      this.emit([
        ...attackers.map((a) => ["slept", { card: a.id }]),
        ...attackers.map((a) => ["became_attacker", { card: a.id }]),
        ["attacked", { player: attacking }],
      ]);
    }
    if (step !== "resolution") this.blockStep(attackers, defending);
    this.resolutionStep(attackers, attacking, defending);
  }

  blockStep(attackers, defending) {
    // A4: no triggers. B1:
    const blocks = this.need(defending, ["declare_blockers"], (e) => this.checkBlockers(e.args, defending)).args;
    // B2: no block+. B3: one moment.
    const b3 = [];
    const blockedIds = [];
    for (const a of attackers) {
      const bs = blocks[a.id] || [];
      for (const b of bs) {
        const card = this.cards[b];
        card.blocker = true;
        card.blocking = a.id;
        b3.push(["became_blocker", { card: b, attacker: a.id }]);
      }
      if (bs.length) blockedIds.push(a.id);
    }
    for (const id of blockedIds) b3.push(["blocked", { card: id }]);
    if (b3.length) this.emit(b3);
    // B4: no triggers.
  }

  resolutionStep(attackers, attacking, defending) {
    // C1:
    const left = attackers.map((a) => a.id);
    this.emit([["entered_resolution_step", { attackers: [...left] }]]);
    while (left.length) {
      // C1a: pass-through: an attacker with fewer blockers than its pressure is not blocked (a blocker
      // leaves only with its own attacker here, so the short count can only come from the setup).
      const through = [];
      for (const id of left) {
        const bs = this.blockersOf(id);
        if (bs.length > 0 && bs.length < this.pressure(this.cards[id])) {
          for (const b of bs) { b.blocker = false; b.blocking = null; through.push(["ceased_blocker", { card: b.id }]); }
          through.push(["unblocked", { card: id }]);
        }
      }
      if (through.length) this.emit(through);
      const entry = this.need(defending, ["choose_attacker"], (e) => {
        if (typeof e.args !== "string") return "malformed_decision";
        if (!this.known(e.args)) return "unknown_object";
        return left.includes(e.args) ? null : "not_an_attacker";
      });
      const id = entry.args;
      left.splice(left.indexOf(id), 1);
      this.emit([["chose_attacker", { player: defending, card: id }]]);
      const blockers = this.blockersOf(id);
      if (blockers.length === 0) {                                                 // C1b
        this.emit([["won", { player: attacking }]]);
        this.winner = attacking;
        return;
      }
      this.resolve(this.cards[id], blockers);
    }
    this.emit([["battle_ended", { player: attacking }]]);                          // C2
  }

  blockersOf(attackerId) {
    return Object.values(this.cards).filter((c) => c.blocker && c.blocking === attackerId);
  }

  /** B1's conditions. */
  checkBlockers(blocks, defending) {
    if (blocks === null || typeof blocks !== "object" || Array.isArray(blocks)) return "malformed_decision";
    const seen = new Set();
    for (const [aid, bs] of Object.entries(blocks)) {
      if (!Array.isArray(bs) || !bs.every((x) => typeof x === "string")) return "malformed_decision";
      if (!this.known(aid)) return "unknown_object";
      if (!this.cards[aid].attacker) return "not_an_attacker";
      for (const b of bs) {
        if (!this.known(b)) return "unknown_object";
        if (seen.has(b)) return "blocker_assigned_twice";
        seen.add(b);
        const c = this.cards[b];
        if (c.controller !== defending || c.zone !== "battlefield") return "blocker_not_defenders";
        if (!c.ijin && !c.guardian) return "blocker_not_ijin_or_guardian";
        if (c.sleeping) return "blocker_sleeping";
      }
      const n = this.pressure(this.cards[aid]);
      if (bs.length > 0 && bs.length < n) return "pressure_not_met";
    }
    return null;
  }

  /** D1-D6 for one blocked attacker. */
  resolve(attacker, blockers) {
    // D1: the attacker against the sum of its blockers; each blocker against the attacker.
    const p = this.battlePower(attacker);
    const sum = blockers.reduce((s, b) => s + this.battlePower(b), 0);
    const losers = [];
    const d1 = [];
    const attackerWins = p > sum;
    d1.push([attackerWins ? "won_battle" : "lost_battle", { card: attacker.id, power: p, against: sum }]);
    if (!attackerWins) losers.push(attacker);
    for (const b of blockers) {
      const bp = this.battlePower(b);
      // a guardian blocker wins only when the attacker's power is 0 or less (rule card)
      const wins = b.guardian && !b.ijin ? p <= 0 : bp > p;
      d1.push([wins ? "won_battle" : "lost_battle", { card: b.id, power: bp, against: p }]);
      if (!wins) losers.push(b);
    }
    this.emit(d1);
    // D2: every loser is destroyed at once.
    for (const c of losers) c.destroyed = true;
    this.emit(losers.map((c) => ["destroyed", { card: c.id }]));
    // D3: no abilities. D4: what is still destroyed goes to the graveyard at once.
    const d4 = [];
    const ceased = new Set();
    for (const c of losers) {
      this.move(c, "graveyard", d4);
      if (c === attacker) {
        c.attacker = false;
        d4.push(["ceased_attacker", { card: c.id }]);
      }
    }
    const attackerLeft = attacker.zone !== "battlefield";
    for (const b of blockers) {
      if (b.zone !== "battlefield" || attackerLeft) {
        b.blocker = false;
        b.blocking = null;
        ceased.add(b.id);
        d4.push(["ceased_blocker", { card: b.id }]);
      }
    }
    if (d4.length) this.emit(d4);
    // D5: no abilities. D6: the survivors stop being attacker/blockers.
    const d6 = [];
    if (attacker.attacker) {
      attacker.attacker = false;
      d6.push(["ceased_attacker", { card: attacker.id }]);
    }
    for (const b of blockers) {
      if (!ceased.has(b.id)) {
        b.blocker = false;
        b.blocking = null;
        d6.push(["ceased_blocker", { card: b.id }]);
      }
    }
    d6.push(["battle_resolution_ended", { card: attacker.id }]);
    this.emit(d6);
  }

  move(card, to, events) {
    const from = card.zone;
    const zones = this.zones[card.owner];
    if (zones[from]) zones[from] = zones[from].filter((x) => x !== card.id);
    (zones[to] ||= []).push(card.id);
    card.zone = to;
    card.destroyed = false;
    card.sleeping = false;
    events.push(["moved", { card: card.id, from, to, player: card.owner }]);
  }

  // ------------------------------------------------------------------ the reply

  final() {
    const players = {};
    for (const [pid, zones] of Object.entries(this.zones)) {
      players[pid] = { ...zones, battle_declared: pid === this.active && this.battleDeclared };
    }
    const cards = {};
    for (const c of Object.values(this.cards)) {
      cards[c.id] = {
        zone: c.zone, owner: c.owner, sleeping: c.sleeping, attacker: c.attacker, blocker: c.blocker,
        destroyed: c.destroyed, ijin: c.ijin, guardian: c.guardian, power: c.power,
        abilities: c.abilities.map(abilityName),
      };
    }
    return { players, cards };
  }
}

function play(request) {
  if (request.game !== "ijinden") return { type: "result", id: request.id, error: `game ${request.game} is not played` };
  try {
    const game = new Game(request);
    game.run();
    return { type: "result", id: request.id, trace: game.trace, final: game.final(), winner: game.winner };
  } catch (err) {
    if (!(err instanceof ScriptError)) process.stderr.write(`${err.stack}\n`);
    return { type: "result", id: request.id, error: String(err.message || err) };
  }
}

send({ type: "hello", protocol_version: 1, schema_version: 1,
       engine: { name: "example-engine-js", version: "1" }, games: ["ijinden"], capabilities: [],
       abilities: { ijinden: [...IMPLEMENTED] } });

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  if (!line.trim()) return;
  if (DEBUG) process.stderr.write(`<< ${line}\n`);
  const message = JSON.parse(line);
  if (message.type === "bye") { lines.close(); return; }
  if (message.type === "case") send(play(message));
});

