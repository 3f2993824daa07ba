/* tcg-oracle report: case list, filters, boards and traces drawn from the embedded JSON.
   Every string from the results is put in the page as a text node (never innerHTML). */
(function () {
  "use strict";
  // The data: plain JSON, or (a large report) gzip in base64, unpacked by the browser's DecompressionStream.
  var plain = document.getElementById("report-data");
  if (plain) { start(JSON.parse(plain.textContent)); return; }
  var bin = atob(document.getElementById("report-data-gz").textContent.trim());
  var bytes = new Uint8Array(bin.length);
  for (var b = 0; b < bin.length; b++) bytes[b] = bin.charCodeAt(b);
  new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text()
    .then(function (text) { start(JSON.parse(text)); });

  function start(D) {
  var E = D.engines, C = D.cases, CL = D.clauses || {}, N = D.names || [], decoded = {};
  var PAGE = 100;
  var S = {game: "", status: "", engine: "", clause: "", q: "", "case": ""};
  var KEYS = Object.keys(S);
  var form = document.getElementById("filters");
  var tbody = document.getElementById("case-rows");
  var shown = document.getElementById("shown");
  var more = document.getElementById("more");
  var matched = [], limit = PAGE, open = {}, hay = null;

  function add(el, kid) {
    if (kid === null || kid === undefined || kid === false) return;
    if (Array.isArray(kid)) { kid.forEach(function (k) { add(el, k); }); return; }
    el.appendChild(typeof kid === "object" ? kid : document.createTextNode(String(kid)));
  }
  function h(tag, attrs) {
    var el = document.createElement(tag);
    if (attrs) Object.keys(attrs).forEach(function (k) {
      var v = attrs[k];
      if (v === null || v === undefined || v === false) return;
      if (k === "class") el.className = v;
      else if (k.slice(0, 2) === "on") el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? "" : String(v));
    });
    for (var i = 2; i < arguments.length; i++) add(el, arguments[i]);
    return el;
  }
  function val(v) {
    if (v === null || v === undefined) return "null";
    return typeof v === "string" ? v : JSON.stringify(v);
  }
  function args(o) {
    return Object.keys(o || {}).map(function (k) { return (k === "_primary" ? "" : k + "=") + val(o[k]); }).join(" ");
  }
  function shq(s) { return /^[\w.:\/=@+,-]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\\''") + "'"; }
  function tr(i) {  // a trace with its kinds and clauses spelled out: [moment, kind, args, clause]
    if (!decoded[i]) decoded[i] = D.traces[i].map(function (e) {
      return [e[0], N[e[1]], e[2], e[3] === null ? null : N[e[3]]];
    });
    return decoded[i];
  }
  function clauseTitle(id) {
    var c = CL[id];
    return c ? c[0] + "\n— " + c[1] + (c.length > 2 ? "\n(not scenario-testable: " + c[2] + ")" : "") : "not in the clause catalog";
  }

  // ---- filtering ------------------------------------------------------------------------------
  function haystack(i) {
    if (!hay) hay = [];
    if (hay[i] === undefined) {
      var c = C[i], parts = [c.id, c.title, c.game, c.file || ""].concat(c.rules, c.features || []);
      if (c.source) parts.push(c.source.quote || "", c.source.document || "");
      if (c.board) c.board.players.forEach(function (p) {
        parts.push(p.id);
        p.zones.forEach(function (z) { (z.cards || []).forEach(function (k) { parts.push(k.id, k.name); }); });
      });
      c.runs.forEach(function (r) { if (r) parts.push(r.err || "", r.skip || "", r.div ? r.div.message : ""); });
      hay[i] = parts.join("\n").toLowerCase();
    }
    return hay[i];
  }
  function engineIndex() { for (var i = 0; i < E.length; i++) if (E[i].key === S.engine) return i; return -1; }
  function matches(i) {
    var c = C[i];
    if (S["case"] && c.id !== S["case"]) return false;
    if (S.game && c.game !== S.game) return false;
    var ei = engineIndex();
    var runs = ei >= 0 ? [c.runs[ei]] : c.runs;
    if (ei >= 0 && !c.runs[ei]) return false;
    if (S.status === "differs") {
      var seen = {};
      c.runs.forEach(function (r) { seen[r ? r.s : "none"] = 1; });
      if (Object.keys(seen).length < 2) return false;
    } else if (S.status === "regression") {
      if (!runs.some(function (r) { return r && r.reg; })) return false;
    } else if (S.status && !runs.some(function (r) { return r && r.s === S.status; })) return false;
    if (S.clause) {
      var want = S.clause, star = want.slice(-1) === "*", pre = star ? want.slice(0, -1) : want;
      var list = c.rules.concat(c.more || []);
      if (!list.some(function (x) { return star ? x.indexOf(pre) === 0 || x.indexOf(":" + pre) > 0 : x === want; })) return false;
    }
    if (S.q) {
      var text = haystack(i), words = S.q.toLowerCase().split(/\s+/);
      for (var w = 0; w < words.length; w++) if (words[w] && text.indexOf(words[w]) < 0) return false;
    }
    return true;
  }
  function refresh() {
    matched = [];
    for (var i = 0; i < C.length; i++) if (matches(i)) matched.push(i);
    limit = PAGE;
    if (S["case"] && matched.length === 1) open[matched[0]] = true;
    draw();
  }

  // ---- case list ------------------------------------------------------------------------------
  function statusBadge(r, tip) {
    if (!r) return h("span", {class: "muted", title: "not run on this engine"}, "—");
    if (r.xf) return h("span", {class: "st xfail", title: "expected " + r.s + " (the baseline)" + (r.xf[0] ? ": " + r.xf[0] : "") + (r.xf[1] ? " · " + r.xf[1] : "")}, "expected " + r.s);
    return h("span", {class: "st " + r.s + (r.reg ? " reg" : ""), title: tip || (r.reg ? (r.was ? "regression: the baseline expects " + r.was : "regression: a new case, not in the baseline, that " + (r.s === "error" ? "errs" : "fails")) : r.s)}, r.s);
  }
  function row(i) {
    var c = C[i];
    var tr = h("tr", {class: "row" + (open[i] ? " open" : ""), "data-id": c.id, "data-status": c.runs.map(function (r) { return r ? r.s : "none"; }).join(" ")});
    c.runs.forEach(function (r) { tr.appendChild(h("td", {class: "eng"}, statusBadge(r))); });
    tr.appendChild(h("td", {class: "id"}, c.id, " ", permalink(c, "🔗"), h("div", {class: "small muted"}, c.game)));
    tr.appendChild(h("td", {class: "title"}, c.title));
    tr.appendChild(h("td", {class: "rules"}, c.rules.join(" ")));
    tr.addEventListener("click", function () { toggle(i, tr); });
    return tr;
  }
  function permalink(c, text) {  // #case=ID: this case alone, opened (the fragment syntax: docs/report.md)
    return h("a", {class: "permalink", href: "#case=" + encodeURIComponent(c.id), title: "link to this case (#case=" + c.id + ")",
      onclick: function (ev) { ev.stopPropagation(); }}, text);
  }
  function toggle(i, tr) {
    if (open[i]) {
      delete open[i];
      tr.classList.remove("open");
      if (tr.nextSibling && tr.nextSibling.classList.contains("detail")) tr.parentNode.removeChild(tr.nextSibling);
    } else {
      open[i] = true;
      tr.classList.add("open");
      tr.parentNode.insertBefore(detail(i), tr.nextSibling);
    }
  }
  function draw() {
    tbody.textContent = "";
    var frag = document.createDocumentFragment(), n = Math.min(limit, matched.length);
    for (var k = 0; k < n; k++) {
      var i = matched[k];
      frag.appendChild(row(i));
      if (open[i]) frag.appendChild(detail(i));
    }
    tbody.appendChild(frag);
    shown.textContent = (matched.length === C.length ? "" : matched.length + " of ") + C.length + " cases" +
      (n < matched.length ? " · showing the first " + n : "") + (KEYS.some(function (k) { return S[k]; }) ? " · filtered" : "");
    more.hidden = n >= matched.length;
    more.textContent = "show " + Math.min(PAGE, matched.length - n) + " more";
  }
  more.addEventListener("click", function () { limit += PAGE; draw(); });

  // ---- one case -------------------------------------------------------------------------------
  function card(k, word) {
    var stats = ["power", "toughness", "defense"].filter(function (s) { return k[s] !== undefined; });
    var st = stats.length === 2 && k.toughness !== undefined ? k.power + "/" + k.toughness :
      stats.map(function (s) { return s + " " + k[s]; }).join(" · ");
    return h("div", {class: "card" + (k.tapped ? " tapped" : ""), title: k.tapped ? word : null},
      h("div", {class: "nm"}, k.name), h("div", {class: "cid"}, k.id),
      st ? h("div", {class: "stats"}, st) : null,
      k.abilities ? h("div", {class: "ab"}, k.abilities.join(" · ")) : null,
      h("div", null, k.tapped ? h("span", {class: "bd tap"}, word) : null,
        (k.badges || []).map(function (b) { return h("span", {class: "bd " + (/^(attacker|blocker)$/.test(b) ? b : "")}, b); })));
  }
  function board(b) {
    var players = b.players.filter(function (p) { return !p.active; }).concat(b.players.filter(function (p) { return p.active; }));
    return h("div", {class: "board"},
      h("div", {class: "small muted"}, "turn " + b.turn + " · " + b.phase + " phase · active player " + b.active),
      b.props ? h("div", {class: "small"}, "board: " + args(b.props)) : null,
      players.map(function (p) {
        return h("div", {class: "player" + (p.active ? " active" : "")},
          h("h5", null, p.id, p.active ? h("span", {class: "tag"}, "active") : null,
            p.life !== undefined ? h("span", {class: "tag"}, "life " + p.life) : null,
            p.team !== undefined ? h("span", {class: "tag"}, "team " + p.team) : null),
          p.zones.map(function (z) {
            return h("div", {class: "zone"}, h("span", {class: "zname"}, z.zone),
              h("div", {class: "zcards"}, z.count !== undefined ? h("span", {class: "deck", title: z.count + " cards"}, z.count) :
                (z.cards.length ? z.cards.map(function (k) { return card(k, b.tapped_word); }) : h("span", {class: "muted small"}, "empty"))));
          }));
      }));
  }
  function ev(kind, a, clause) {
    return h("span", {class: "ev"}, h("span", {class: "k"}, kind), " ", args(a),
      clause ? h("span", {class: "cl", title: clauseTitle(clause)}, clause) : null);
  }
  function moments(trace) {
    var out = [], last = null;
    (trace || []).forEach(function (e) {
      if (out.length && e[0] === last) out[out.length - 1].push(e); else { out.push([e]); last = e[0]; }
    });
    return out;
  }
  function traceTable(c, r) {
    var ex = c.expect || {moments: []}, exp = ex.moments || [];
    var trace = r.tr !== undefined ? tr(r.tr) : (r.ctx !== undefined ? tr(r.ctx) : null);
    var act = moments(trace), al = r.al || {match: [], first: -1, near: -1, rejected: {}};
    var byAct = {}, missing = {}, pos = 0;
    exp.forEach(function (m, i) {
      var j = al.match[i];
      if (j !== undefined && j >= 0) { (byAct[j] = byAct[j] || []).push(i); pos = j + 1; }
      else (missing[pos] = missing[pos] || []).push(i);
    });
    var rejAt = {};
    (ex.rejected || []).forEach(function (x) { rejAt[x.at] = x.reason; });
    var body = h("tbody");
    function expCell(is) {
      return h("td", {class: "exp"}, is.map(function (i) {
        var note = ex.notes && ex.notes[i] ? " · " + ex.notes[i] : "";
        return h("div", null, h("span", {class: "small muted"}, "expected #" + i + (exp[i].length > 1 ? " (one moment)" : "") + note),
          exp[i].map(function (e) { return ev(e[0], e[1]); }));
      }));
    }
    function missingRows(at) {
      (missing[at] || []).forEach(function (i) {
        var first = i === al.first;
        body.appendChild(h("tr", {class: first ? "diverged missing" : "missing"}, h("td", {class: "m"}, ""), expCell([i]),
          h("td", {class: "act"}, first ? h("span", {class: "mark"}, "✗ first divergence: ") : null, "not in the trace" + (first && al.near >= 0 ? " (nearest moment highlighted)" : ""))));
      });
    }
    act.forEach(function (m, j) {
      missingRows(j);
      var left = byAct[j] ? expCell(byAct[j]) : h("td", {class: "exp"});
      if (al.rejected && al.rejected[j] !== undefined && rejAt[al.rejected[j]] !== undefined)
        add(left, h("div", null, h("span", {class: "small muted"}, "expected refusal"), ev("rejected", {at: al.rejected[j], reason: rejAt[al.rejected[j]]})));
      var cls = (byAct[j] ? "matched" : "") + (j === al.near ? (r.div && al.first < 0 ? " diverged" : " near") : "");
      body.appendChild(h("tr", {class: cls}, h("td", {class: "m"}, m[0][0]), left,
        h("td", {class: "act"}, j === al.near && r.div && al.first < 0 ? h("span", {class: "mark"}, "✗ " + r.div.what + ": ") : null,
          j === al.near && al.first >= 0 ? h("span", {class: "mark"}, "≈ nearest ") : null,
          m.map(function (e) { return ev(e[1], e[2], e[3]); }))));
    });
    missingRows(act.length);
    if (!trace) body.appendChild(h("tr", null, h("td", {colspan: 3, class: "muted"}, "no trace recorded")));
    return h("table", {class: "trace"}, h("thead", null, h("tr", null, h("th", null, "m"), h("th", null, "expected"), h("th", null, "actual (" + (r.tr !== undefined ? "whole trace" : "around the divergence") + ")"))), body);
  }
  function decisionTable(r) {  // an engine below level trace: each decision as it reported it
    return h("table", {class: "trace decisions"},
      h("thead", null, h("tr", null, ["decision", "who", "what", "expected", "engine (level " + r.lv + ")"].map(function (t) { return h("th", null, t); }))),
      h("tbody", null, r.dec.map(function (d) {
        return h("tr", {class: d[5] ? "diverged" : (d[4] === "not reported" ? "" : "matched")},
          h("td", {class: "m"}, d[0]), h("td", null, d[1]), h("td", null, h("code", null, d[2])), h("td", null, d[3]),
          h("td", null, d[5] ? h("span", {class: "mark"}, "✗ ") : null, d[4]));
      })));
  }
  function levelEvents(c, r) {  // expected events of an engine that sends no trace: never "not in the trace"
    var exp = (c.expect && c.expect.moments) || [];
    if (!exp.length) return null;
    var steps = r.lv === "steps", div = r.div && r.div.what === "moment" ? r.div.index : -1;
    return h("table", {class: "trace"},
      h("thead", null, h("tr", null, h("th", null, "#"), h("th", null, "expected"), h("th", null, "at level " + r.lv))),
      h("tbody", null, exp.map(function (m, i) {
        var decision = m.every(function (e) { return e[0] === "decided" || e[0] === "rejected"; });
        var note = decision && r.dec ? "a decision: checked in the Decisions table above" :
          !steps ? "not checkable at level " + r.lv + " (the engine reports no events)" :
          i === div ? "✗ first divergence: its events did not all happen in one step" :
            div >= 0 && i > div ? "not reached (the case failed before)" : "checked against the engine's steps";
        return h("tr", {class: i === div ? "diverged" : steps && (div < 0 || i < div) ? "matched" : "unc"},
          h("td", {class: "m"}, i), h("td", {class: "exp"}, m.map(function (e) { return ev(e[0], e[1]); })),
          h("td", {class: "act muted"}, note));
      })));
  }
  function endState(c, r) {
    var ex = c.expect || {}, rows = [];
    if ("winner" in ex) {
      var won = (r.tr !== undefined ? tr(r.tr) : []).filter(function (e) { return e[1] === "won"; }).map(function (e) { return e[2].player; });
      rows.push(h("dt", null, "winner"), h("dd", null, "expected " + val(ex.winner) + (r.lv ? " (the engine's winner is checked at level " + r.lv + ": see the verdict above)" : " · actual " + (r.tr !== undefined ? (won.length ? won.join(", ") : "none") : "?"))));
    }
    if (ex.final) rows.push(h("dt", null, "final (expected)"), h("dd", null, h("code", null, JSON.stringify(ex.final))));
    if (ex.absent) rows.push(h("dt", null, "absent anywhere (expected)"), h("dd", null, h("code", null, JSON.stringify(ex.absent))));
    (ex.after || []).forEach(function (a) {
      rows.push(h("dt", null, "after decision " + a.decision + " (expected)"), h("dd", null, h("code", null, JSON.stringify(a.state))));
    });
    if (r.div && (r.div.what === "final" || r.div.what === "winner" || r.div.what === "rejection" || r.div.what === "after" ||
                  (r.div.what === "absent" && r.div.index === undefined))) {
      rows.push(h("dt", {class: "bad"}, "expected"), h("dd", null, h("code", null, val(r.div.expected))));
      rows.push(h("dt", {class: "bad"}, "actual"), h("dd", null, h("code", null, val(r.div.actual))));
    }
    return rows.length ? h("dl", {class: "cmp"}, rows) : null;
  }
  function copyButton(text) {
    return h("button", {type: "button", class: "small", onclick: function (ev) {
      ev.stopPropagation();
      var done = function () { ev.target.textContent = "copied"; };
      if (navigator.clipboard) navigator.clipboard.writeText(text).then(done, function () {}); else done();
    }}, "copy");
  }
  function commands(c, e) {
    var spec = e.spec && e.spec !== "reference" ? " --engine " + shq(e.spec) : "";
    return [
      "tcg-oracle run" + spec + " --game " + shq(c.game) + " -k " + shq(c.id),
      "tcg-oracle explain " + shq(c.id) + spec
    ].map(function (cmd) { return h("div", {class: "cmd"}, h("code", null, cmd), copyButton(cmd)); });
  }
  function bad(r) { return r && (r.s === "fail" || r.s === "error") ? 1 : 0; }
  function runBlock(c, r, ei) {
    var e = E[ei];
    if (!r) return h("div", {class: "runhead"}, h("h4", null, e.key), h("span", {class: "muted"}, "not run on this engine"));
    var xf = r.xf ? h("div", {class: "msg xfail"}, "expected " + r.s + " (the baseline)" + (r.xf[0] ? ": " + r.xf[0] : ""),
      r.xf[1] ? [" · bug ", /^https?:\/\//.test(r.xf[1]) ? h("a", {href: r.xf[1], rel: "noreferrer"}, r.xf[1]) : h("code", null, r.xf[1])] : null) : null;
    var msg = r.div ? h("div", {class: "msg " + (r.xf ? "xfail" : "fail")}, r.div.message) : r.err ? h("div", {class: "msg " + (r.xf ? "xfail" : "error")}, r.err) :
      r.skip ? h("div", {class: "msg skip"}, r.skip) : null;
    var unc = r.unc ? h("div", {class: "msg not_checkable"},
      (r.s === "not_checkable" ? "Nothing of this case can be checked" : "Not checked") + " at observation level " + (r.lv || "trace") + ":",
      h("ul", null, r.unc.map(function (u) { return h("li", null, h("code", null, u[0]), " needs ", h("b", null, u[1]), " — ", u[2]); }))) : null;
    return h("div", {class: "run"},
      h("div", {class: "runhead"}, h("h4", null, e.key), statusBadge(r),
        r.was ? h("span", {class: "small " + (r.reg ? "bad" : "muted")}, "baseline: " + r.was) : null,
        h("span", {class: "small muted"}, r.ms + " ms" + (r.rs ? " · ruleset " + r.rs : ""))),
      r.eds ? h("div", {class: "small editions"}, "per edition: ", r.eds.map(function (x, k) {
        return [k ? " · " : "", h("span", {class: "st " + x[1], title: x[2] || x[1]}, x[0] + " " + x[1])];
      }), h("span", {class: "muted"}, " (shown below: " + (r.rs || "?") + ")")) : null,
      xf, msg, unc, r.dec ? [h("h5", null, "Decisions"), decisionTable(r)] : null,
      r.lv ? levelEvents(c, r) :
        (r.tr !== undefined || r.ctx !== undefined || (c.expect && c.expect.moments.length)) ? traceTable(c, r) : null,
      endState(c, r), h("div", {class: "small muted"}, "reproduce:"), commands(c, e));
  }
  function legend(c) {
    var ids = c.rules.slice();
    c.runs.forEach(function (r) {
      if (r && r.tr !== undefined) tr(r.tr).forEach(function (e) { if (e[3] && ids.indexOf(e[3]) < 0) ids.push(e[3]); });
    });
    return h("dl", {class: "legend"}, ids.map(function (id) {
      var k = CL[id];
      return [h("dt", null, id, c.rules.indexOf(id) >= 0 ? "" : " (in the trace)"),
        h("dd", null, k ? [h("span", {class: "orig"}, k[0]), h("span", {class: "en"}, k[1])] : h("span", {class: "muted"}, "not in the clause catalog"))];
    }));
  }
  function detail(i) {
    var c = C[i], src = c.source;
    var info = h("dl", {class: "kv"},
      h("dt", null, "case"), h("dd", null, h("code", null, c.id), " ", permalink(c, "permalink")),
      h("dt", null, "game"), h("dd", null, c.game),
      c.file ? [h("dt", null, "file"), h("dd", null, h("code", null, c.file))] : null,
      c.rulesets ? [h("dt", null, "rulesets"), h("dd", null, c.rulesets.join(", "))] : null,
      h("dt", null, "clauses"), h("dd", null, c.rules.map(function (id) { return h("span", {class: "chip", title: clauseTitle(id)}, id); })),
      c.features ? [h("dt", null, "features"), h("dd", null, c.features.join(", "))] : null,
      c.assumptions ? [h("dt", null, "assumptions"), h("dd", null, c.assumptions.join(", "))] : null,
      c.ambiguity ? [h("dt", null, "ambiguity"), h("dd", null, c.ambiguity)] : null);
    var source = src ? h("div", {class: "source"},
      h("div", {class: "small muted"}, src.kind === "seed" ? "ruling (seed " + (src.seed || "of the game") + "): " + src.document :
        src.kind === "external" ? "ruling: " + src.document + (src.edition ? ", " + src.edition : "") + (src.page ? ", p. " + src.page : "") + (src.url ? " — " + src.url : "") :
          "generated case: seed " + src.seed + " · " + src.command + " · " + src.date),
      src.quote ? h("blockquote", {lang: c.game === "mtg" ? "en" : "ja"}, src.quote) : null) : null;
    var script = c.script && c.script.length ? h("ol", {class: "script", start: 0}, c.script.map(function (d) {
      return h("li", null, h("b", null, d[1]), ": ", h("code", null, d[2] + (d[3] === null || d[3] === undefined ? "" : " " + val(d[3]))));
    })) : h("p", {class: "muted small"}, "no decisions");
    var order = c.runs.map(function (r, ei) { return ei; });  // failing engines first, then in column order
    order.sort(function (a, b) { return bad(c.runs[b]) - bad(c.runs[a]) || a - b; });
    var td = h("td", {colspan: E.length + 3},
      h("h3", null, c.title),
      h("div", {class: "grid"},
        h("div", null, info, source, c.board ? [h("h4", null, "Board"), board(c.board)] : h("p", {class: "muted"}, "the case could not be loaded, so there is no board"),
          h("h4", null, "Script"), script, h("h4", null, "Clauses"), legend(c)),
        h("div", null, order.map(function (ei) { return runBlock(c, c.runs[ei], ei); }))));
    return h("tr", {class: "detail", "data-for": c.id}, td);
  }

  // ---- state <-> URL fragment and form ----------------------------------------------------------
  function readHash() {
    var raw = location.hash.slice(1);
    if (raw.indexOf("=") < 0) return false;
    var p = new URLSearchParams(raw);
    KEYS.forEach(function (k) { S[k] = p.get(k) || ""; });
    KEYS.forEach(function (k) { if (form.elements[k]) form.elements[k].value = S[k]; });
    return true;
  }
  function writeHash() {
    var p = new URLSearchParams();
    KEYS.forEach(function (k) { if (S[k]) p.set(k, S[k]); });
    var s = p.toString();
    history.replaceState(null, "", s ? "#" + s : location.pathname + location.search);
  }
  var timer = null;
  function fromForm() {
    KEYS.forEach(function (k) { if (form.elements[k]) S[k] = form.elements[k].value.trim(); });
    S["case"] = "";
    writeHash();
    refresh();
  }
  form.addEventListener("change", fromForm);
  form.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(fromForm, 150); });
  form.addEventListener("submit", function (ev) { ev.preventDefault(); fromForm(); });
  form.addEventListener("reset", function () { setTimeout(fromForm, 0); });
  function onHash() {
    if (!readHash()) return;
    refresh();
    var flags = location.hash.slice(1);
    document.body.classList.toggle("focus", /(^|&)focus(=|&|$)/.test(flags));  // the case list alone
    if (/(^|&)noscroll(=|&|$)/.test(flags)) return;  // for screenshots: chromium draws a scrolled page blank
    var target = S["case"] ? tbody.querySelector("tr.detail") : null;
    (target || document.getElementById("cases")).scrollIntoView();
  }
  window.addEventListener("hashchange", onHash);
  if (location.hash.indexOf("=") >= 0) onHash(); else refresh();
  document.body.setAttribute("data-ready", String(Math.round(performance.now())));
  }
})();
