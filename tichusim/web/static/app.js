// tichusim serve: the page. Plain JS, no build step: it reads /api/info, sends the JSON API's
// requests, follows their jobs and draws the answers (the commands' --json objects).
"use strict";

const $ = (id) => document.getElementById(id);
const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];
const SUITS = [["j", "Jade"], ["s", "Sword"], ["p", "Pagoda"], ["t", "Star"]];
const SPECIALS = [["Ma", "Mah Jong", "1"], ["Dog", "Dog", "Dog"], ["Ph", "Phoenix", "Ph"], ["Dr", "Dragon", "Dr"]];
const SUIT_MARK = { j: "♣", s: "♠", p: "♦", t: "♥" };
let info = null;
let tab = "gt";
const selected = new Set();

// ---- the card picker ----------------------------------------------------------------------

function canonical(token) {
  const t = token.trim();
  if (!t) return null;
  const low = t.toLowerCase();
  for (const [name] of SPECIALS) if (low === name.toLowerCase()) return name;
  if (low === "1") return "Ma";
  const m = low.match(/^(10|[2-9tjqka])([jspt])$/);
  if (m) return (m[1] === "10" ? "T" : m[1].toUpperCase()) + m[2];
  return null;
}

function buildPicker() {
  const box = $("cards");
  SUITS.forEach(([suit, name], row) => {
    for (const rank of RANKS) {
      const code = rank + suit;
      box.appendChild(cardButton(code, rank + SUIT_MARK[suit], `${rank} of ${name}`, suit));
    }
    const [code, title, face] = SPECIALS[row];
    box.appendChild(cardButton(code, face, title, "x"));
  });
}

function cardButton(code, face, title, cls) {
  const b = document.createElement("div");
  b.className = `card ${cls}`;
  b.dataset.card = code;
  b.title = title;
  b.setAttribute("role", "button");
  b.innerHTML = `${face}<small>${code}</small>`;
  b.addEventListener("click", () => {
    // the text box is the hand: a picked card is added to it, an unpicked one removed
    const tokens = handTokens();
    if (selected.has(code)) {
      const i = tokens.findIndex((t) => canonical(t) === code);
      if (i >= 0) tokens.splice(i, 1);
    } else {
      tokens.push(code);
    }
    $("hand").value = tokens.join(" ");
    syncPicker();
  });
  return b;
}

function handTokens() {
  return $("hand").value.split(/[\s,]+/).filter((t) => t);
}

function syncPicker() {
  selected.clear();
  for (const t of handTokens()) {
    const c = canonical(t);
    if (c) selected.add(c);
  }
  for (const el of document.querySelectorAll(".card")) {
    el.classList.toggle("on", selected.has(el.dataset.card));
  }
  const n = handTokens().length;
  const want = wanted();
  $("count").textContent = `${n} card${n === 1 ? "" : "s"}` + (want ? ` of ${want}` : "");
}

function wanted() {
  const variant = $("variant").value;
  if (tab === "gt") return variant === "tientsin" ? 6 : 8;
  if (tab === "t14") return variant === "tientsin" ? "9–10" : 14;
  return null;
}

// ---- controls, info, tabs -------------------------------------------------------------------

async function loadInfo() {
  const r = await fetch("/api/info");
  info = await r.json();
  const sel = $("variant");
  if (!sel.options.length) {
    for (const v of info.defaults.variants) sel.add(new Option(v, v, v === info.defaults.variant, v === info.defaults.variant));
    const list = $("strategy-names");
    for (const s of info.strategies) {
      const o = document.createElement("option");
      o.value = s.name;
      o.label = s.description;
      list.appendChild(o);
    }
    const d = info.defaults;
    $("seat_strategy").placeholder = `default: ${d.gt_odds.seat_strategy}`;
    $("others").placeholder = `default: ${d.gt_odds.others}`;
    $("deals").max = info.limits.deals;
    $("pass-deals").max = info.limits.pass_deals;
    $("pass-deals").value = Math.min(d.pass_advice.deals, info.limits.pass_deals);
    $("deals").value = d.gt_odds.deals;
    $("p-samples").value = d.advise.samples;
    $("p-samples").max = info.limits.samples;
    $("p-candidates").value = d.advise.candidates;
    $("p-rollout").placeholder = d.advise.rollout;
    for (const v of info.play.variants) $("pl-variant").add(new Option(v, v, v === d.variant, v === d.variant));
    $("pl-partner").placeholder = `default: ${d.gt_odds.seat_strategy}`;
    $("pl-opponents").placeholder = `default: ${d.gt_odds.seat_strategy}`;
  }
  showStatus();
  return info;
}

function showStatus() {
  const s = $("status");
  const t = info.gt_table;
  const compiled = Object.entries(info.compiled).filter(([, v]) => v).map(([k]) => k);
  let text = `${info.workers} worker${info.workers > 1 ? "s" : ""}, ${info.busy} busy`;
  if (t.deals && !t.ready) {
    text = `warming up: compiling the kernels and making gt-table (${t.done.toLocaleString()} of ${t.deals.toLocaleString()} deals)… · ` + text;
    s.classList.add("compiling");
  } else {
    s.classList.remove("compiling");
    text = (compiled.length ? `compiled: ${compiled.join(", ")}` : "kernels compile at the first answer of each kind") + " · " + text;
  }
  s.textContent = text;
}

async function pollInfo() {
  try {
    await loadInfo();
  } catch (e) {
    $("status").textContent = "the server is not answering";
  }
  setTimeout(pollInfo, info && info.gt_table.deals && !info.gt_table.ready ? 1000 : 5000);
}

function setTab(name) {
  tab = name;
  for (const b of document.querySelectorAll(".tabs button")) b.classList.toggle("active", b.dataset.tab === name);
  for (const p of ["gt", "t14", "pos", "play", "review"]) $(`panel-${p}`).hidden = p !== name;
  // the Play and Review tabs have their own controls, and no card picker
  const own = name === "play" || name === "review";
  $("answer-controls").hidden = own;
  $("picker").hidden = own;
  if (name === "play") playShown();
  if (own) return;
  $("hand").placeholder = {
    gt: "click the cards, or type: Dr Ph A A K 9 5 3",
    t14: "14 cards, e.g. Dog Ma 2j 3s 5p 7t 8j 9s Jp Qt Kj Ks Ph Dr",
    pos: "the seat's cards, e.g. Dr Ph Aj As Kj 9j 9s",
  }[name];
  syncPicker();
}

function num(id) {
  const v = $(id).value.trim();
  return v === "" ? null : Number(v);
}

function players(body) {
  const me = $("seat_strategy").value.trim();
  const others = $("others").value.trim();
  if (me) body.seat_strategy = me;
  if (others) body.others = others;
  return body;
}

// ---- asking and following a job ----------------------------------------------------------------

// the link names the players that sat (the defaults too), so it asks the same answer later
function withPlayers(kind, body, result) {
  const q = { ...body };
  if (kind === "advise") {
    if (!q.rollout) q.rollout = result.rollout;
  } else if (result.strategies) {
    if (!q.seat_strategy) q.seat_strategy = result.strategies[0];
    if (!q.others) {
      const rest = result.strategies.slice(1);
      q.others = new Set(rest).size === 1 ? rest[0] : rest.join(",");
    }
  }
  return q;
}

async function ask(kind, body, where, render, button) {
  const err = $(`error-${where}`);
  const prog = $(`progress-${where}`);
  err.hidden = true;
  button.disabled = true;
  prog.hidden = false;
  prog.classList.remove("compiling");
  prog.querySelector(".bar div").style.width = "0";
  prog.querySelector("span").textContent = "sending…";
  try {
    const r = await fetch(`/api/${kind}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    let job = await r.json();
    if (!r.ok) throw new Error(job.error || `HTTP ${r.status}`);
    while (job.state !== "done" && job.state !== "error") {
      showProgress(prog, job);
      await new Promise((ok) => setTimeout(ok, 200));
      const s = await fetch(`/api/jobs/${job.job}`);
      job = await s.json();
      if (!s.ok) throw new Error(job.error || `HTTP ${s.status}`);
    }
    if (job.state === "error") throw new Error(job.error);
    prog.hidden = true;
    render(job);
    // a link asks the answer again; a review's asks the log's whole text: none
    if (kind !== "review") {
      location.hash = new URLSearchParams({ tab, kind, q: JSON.stringify(withPlayers(kind, body, job.result)) }).toString();
    }
  } catch (e) {
    prog.hidden = true;
    err.textContent = e.message;
    err.hidden = false;
    // a refused request leaves no earlier answer shown under its error, as if it were this
    // request's: the panel's answers are cleared
    for (const box of $(`panel-${where}`).querySelectorAll(".answer")) {
      box.hidden = true;
      box.innerHTML = "";
    }
  } finally {
    button.disabled = false;
  }
}

function showProgress(prog, job) {
  const label = prog.querySelector("span");
  const bar = prog.querySelector(".bar div");
  if (job.state === "queued") {
    label.textContent = "queued: waiting for a worker…";
  } else if (job.state === "compiling") {
    prog.classList.add("compiling");
    label.textContent = "compiling the kernels (once per server, about a minute on a cold cache)…";
  } else {
    prog.classList.remove("compiling");
    const pct = job.total ? Math.min(100, (100 * job.done) / job.total) : 50;
    bar.style.width = `${pct}%`;
    const unit = { "pass-advice": "rounds", review: "decisions" }[job.kind] || "deals";
    label.textContent = job.total
      ? `${job.done.toLocaleString()} of ${job.total.toLocaleString()} ${unit}` + (job.note ? ` · ${job.note}` : "")
      : "playing…";
  }
}

// ---- drawing the answers -------------------------------------------------------------------

const fmtPct = (x) => (x === null || x === undefined ? "n/a" : `${(100 * x).toFixed(1)}%`);
const fmtPts = (x) => (x === null || x === undefined ? "n/a" : `${x >= 0 ? "+" : ""}${x.toFixed(1)}`);

function est(e, pct) {
  if (!e || e.value === null) return "n/a";
  const f = pct ? (x) => (100 * x).toFixed(1) : (x) => `${x >= 0 ? "+" : ""}${x.toFixed(1)}`;
  const v = pct ? fmtPct(e.value) : fmtPts(e.value);
  const ci = e.low === null ? "" : ` <span class="ci">[${f(e.low)}, ${f(e.high)}]</span>`;
  return `${v}${ci}`;
}

function escape(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}

function verdict(decision) {
  const cls = decision === "call" ? "call" : decision === "do not call" ? "no" : "close";
  return `<span class="verdict ${cls}" data-decision="${escape(decision)}">${escape(decision)}</span>`;
}

function commandBlock(job) {
  return `<div class="cmd"><a href="${escape(location.href)}" class="permalink">link to this answer</a>
    the same answer on the command line (${job.elapsed ?? "?"} s here):
    <code class="command">${escape(job.command)}</code></div>`;
}

// intervals on one axis: rows of [label, estimate, colour]
function intervalPlot(rows, unit) {
  const w = 460, rowH = 26, left = 170, right = 20, top = 8;
  const h = top + rows.length * rowH + 40;
  const xs = rows.flatMap(([, e]) => (e && e.value !== null ? [e.low ?? e.value, e.high ?? e.value] : []));
  let lo = Math.min(0, ...xs), hi = Math.max(0, ...xs);
  const pad = (hi - lo) * 0.08 || 1;
  lo -= pad; hi += pad;
  const x = (v) => left + ((v - lo) / (hi - lo)) * (w - left - right);
  let svg = `<svg class="plot" width="${w}" height="${h}" role="img">`;
  svg += `<line x1="${x(0)}" x2="${x(0)}" y1="${top - 4}" y2="${h - 36}" stroke="#999" stroke-dasharray="3,3"/>`;
  rows.forEach(([label, e, colour], i) => {
    const y = top + i * rowH + rowH / 2;
    svg += `<text x="${left - 8}" y="${y + 4}" text-anchor="end">${escape(label)}</text>`;
    if (!e || e.value === null) return;
    const l = e.low ?? e.value, r = e.high ?? e.value;
    svg += `<line x1="${x(l)}" x2="${x(r)}" y1="${y}" y2="${y}" stroke="${colour}" stroke-width="3"/>`;
    svg += `<line x1="${x(l)}" x2="${x(l)}" y1="${y - 6}" y2="${y + 6}" stroke="${colour}" stroke-width="2"/>`;
    svg += `<line x1="${x(r)}" x2="${x(r)}" y1="${y - 6}" y2="${y + 6}" stroke="${colour}" stroke-width="2"/>`;
    svg += `<circle cx="${x(e.value)}" cy="${y}" r="4.5" fill="${colour}"/>`;
  });
  const ticks = 5;
  for (let k = 0; k <= ticks; k++) {
    const v = lo + ((hi - lo) * k) / ticks;
    svg += `<text x="${x(v)}" y="${h - 22}" text-anchor="middle">${Math.round(v)}</text>`;
  }
  const mid = (left + w - right) / 2;
  svg += `<text x="${mid}" y="${h - 4}" text-anchor="middle">${escape(unit)} (dot: mean; bar: 95% interval)</text></svg>`;
  return svg;
}

function callAnswer(r, title) {
  const e = r.estimates;
  const rows = [
    ["P(out first | call)", est(e.p_success, true)],
    ["double victory | call", est(e.double_victory_call, true)],
    ["team points/round, call", est(e.ev_call)],
    ["team points/round, no call", est(e.ev_no_call)],
    ["call − no call (same deals)", est(e.ev_diff)],
  ];
  if (e.first_out_no_call) rows.push(["out first, no call", est(e.first_out_no_call, true)]);
  if (e.tichu_no_call) rows.push(["plain Tichu called, no call", est(e.tichu_no_call, true)]);
  if (e.called && e.called.value < 1) rows.push(["the call was made", est(e.called, true)]);
  const table = `<table class="figures">${rows.map(([k, v]) => `<tr><td>${k}</td><td class="num">${v}</td></tr>`).join("")}</table>`;
  const plot = intervalPlot(
    [
      ["points, call", e.ev_call, "#a3322a"],
      ["points, no call", e.ev_no_call, "#2b4f8c"],
      ["gain of calling", e.ev_diff, "#2f7d32"],
    ],
    "points/round",
  );
  const who = `seat ${escape(r.strategies[0])}, others ${escape([...new Set(r.strategies.slice(1))].join(", "))}`;
  return `<h2>${title} for <code>${escape(r.hand)}</code></h2>
    <p>${verdict(r.decision)} <span class="what">${r.deals.toLocaleString()} deals, seed ${r.seed}; ${who}</span></p>
    <div class="cols"><div>${table}</div><div>${plot}</div>__SIDE__</div>`;
}

function gtSide(row) {
  if (row === null || row === undefined) {
    const t = info && info.gt_table;
    const why = t && t.deals && !t.ready ? "gt-table is still being made: ask again in a moment" : "gt-table: the 4-player game without options only";
    return `<div class="side"><h3>gt-table</h3>${why}</div>`;
  }
  const c = row.class;
  const cls = `${c.aces} Ace${c.aces === 1 ? "" : "s"}, ${c.dragon ? "Dragon" : "no Dragon"}, ${c.phoenix ? "Phoenix" : "no Phoenix"}, ${c.bomb ? "a bomb" : "no bomb"}`;
  const e = row.estimates;
  return `<div class="side" id="gt-table-row"><h3>gt-table: the hand's class</h3>${cls}<br>
    <table class="figures"><tr><td>deals of the class</td><td class="num">${row.deals.toLocaleString()} of ${row.table_deals.toLocaleString()}</td></tr>
    <tr><td>P(out first | call)</td><td class="num">${est(e.p_success, true)}</td></tr>
    <tr><td>gain of calling</td><td class="num">${est(e.ev_diff)}</td></tr></table>
    <span class="what">random hands of this class, seat ${escape(row.seat_strategy)}, others ${escape(row.others)}: <code>${escape(row.command)}</code></span></div>`;
}

function renderGT(job) {
  const r = job.result;
  const box = $("answer-gt");
  box.innerHTML = callAnswer(r, "Grand Tichu odds").replace("__SIDE__", gtSide(r.gt_table)) + commandBlock(job);
  box.hidden = false;
}

function renderTichu(job) {
  const r = job.result;
  const box = $("answer-tichu");
  box.innerHTML = callAnswer(r, "Tichu odds").replace("__SIDE__", "") + commandBlock(job);
  box.hidden = false;
}

function renderPass(job) {
  const r = job.result;
  const rows = r.candidates.map((c, i) => {
    const e = c.estimates;
    return `<tr class="${i === 0 ? "best" : ""}"><td>${i + 1}</td><td><code>${escape(c.right)}</code></td>
      <td><code>${escape(c.partner)}</code></td><td><code>${escape(c.left)}</code></td>
      <td class="num">${est(e.points)}</td><td class="num">${i === 0 ? "best" : est(e.diff)}</td>
      <td class="num">${est(e.first_out, true)}</td><td class="num">${est(e.tichu, true)}</td>
      <td class="num">${c.deals.toLocaleString()}</td><td>${escape(c.sources.join(", "))}</td></tr>`;
  });
  const plot = intervalPlot(
    r.candidates.slice(0, 8).map((c) => [`${c.right} · ${c.partner} · ${c.left}`, c.estimates.points, "#a3322a"]),
    "points/round",
  );
  const best = r.candidates[0];
  const box = $("answer-pass");
  box.innerHTML = `<h2>Which pass for <code>${escape(r.hand)}</code></h2>
    <p><span class="verdict call" id="best-pass">${escape(best.right)} → right · ${escape(best.partner)} → partner · ${escape(best.left)} → left</span>
    <span class="what">${r.rounds.toLocaleString()} rounds, seed ${r.seed}; seat ${escape(r.strategies[0])}, others ${escape([...new Set(r.strategies.slice(1))].join(", "))};
    ${r.stages.map((s) => `${s.final ? "final " : ""}${s.candidates} × ${s.deals.toLocaleString()}${s.final ? " fresh deals" : ""}`).join(" → ")}
    (the finalists' figures on the final's deals only)</span></p>
    <div class="cols"><table class="figures"><tr><th></th><th>right</th><th>partner</th><th>left</th><th>team points/round</th>
    <th>vs best, same deals</th><th>out first</th><th>Tichu</th><th>deals</th><th>from</th></tr>${rows.join("")}</table>
    <div>${plot}</div></div>` + commandBlock(job);
  box.hidden = false;
}

function renderAdvise(job) {
  const r = job.result;
  const rows = r.plays.map((p, i) => `<tr class="${i === 0 ? "best" : ""}"><td>${i + 1}</td>
    <td><code>${escape(p.play ?? "pass")}</code></td><td>${escape(p.combination ?? "")}</td>
    <td class="num">${est(p.margin)}</td><td class="num">${i === 0 ? "best" : est(p.vs_best)}</td>
    <td class="num">${est(p.first_out, true)}</td><td>${p.rollout_choice ? `← ${escape(r.rollout)}` : ""}</td></tr>`);
  const plot = intervalPlot(r.plays.slice(0, 10).map((p) => [p.play ?? "pass", p.margin, "#2b4f8c"]), "margin, points");
  const box = $("answer-pos");
  box.innerHTML = `<h2>The plays of seat ${r.seat}, best first</h2>
    <p><span class="verdict call" id="best-play">${escape(r.plays[0].play ?? "pass")}</span>
    <span class="what">${r.samples.toLocaleString()} deals of the unseen cards, ${escape(r.rollout)} at every seat afterwards</span></p>
    <div class="cols"><table class="figures"><tr><th></th><th>play</th><th></th><th>margin (points)</th><th>vs best</th><th>P(team out first)</th><th></th></tr>
    ${rows.join("")}</table><div>${plot}</div></div>` + commandBlock(job);
  box.hidden = false;
}

// ---- the requests -------------------------------------------------------------------------

function odds(body) {
  body.hand = $("hand").value;
  body.deals = num("deals");
  body.seed = num("seed");
  body.variant = $("variant").value;
  return players(body);
}

function position() {
  const seats = (id) => $(id).value.split(/[\s,]+/).filter((t) => t).map(Number);
  const items = (id, sep) => $(id).value.split(sep).map((t) => t.trim()).filter((t) => t);
  const p = { hand: $("hand").value, seat: num("p-seat") ?? 0, variant: $("variant").value };
  if ($("p-trick").value.trim()) p.trick = $("p-trick").value.trim();
  if (items("p-played", /\n/).length) p.played = items("p-played", /\n/);
  if (seats("p-tichu").length) p.tichu = seats("p-tichu");
  if (seats("p-grand").length) p.grand_tichu = seats("p-grand");
  if ($("p-wish").value.trim()) p.wish = $("p-wish").value.trim();
  if (seats("p-out").length) p.out = seats("p-out");
  if (items("p-taken", /[,\n]/).length) p.taken = items("p-taken", /[,\n]/);
  const body = { position: p, samples: num("p-samples"), candidates: num("p-candidates"), seed: num("seed") };
  if ($("p-rollout").value.trim()) body.rollout = $("p-rollout").value.trim();
  return body;
}

const ASKS = {
  "gt-odds": () => ask("gt-odds", odds({}), "gt", renderGT, $("ask-gt")),
  "tichu-odds": () => {
    const body = odds({});
    if ($("received").value.trim()) body.received = $("received").value.trim();
    return ask("tichu-odds", body, "t14", renderTichu, $("ask-tichu"));
  },
  "pass-advice": () => {
    const body = players({ hand: $("hand").value, deals: num("pass-deals"), seed: num("seed") });
    return ask("pass-advice", body, "t14", renderPass, $("ask-pass"));
  },
  advise: () => ask("advise", position(), "pos", renderAdvise, $("ask-pos")),
};

// a link to an answer: the page asks it again
function fromHash() {
  const h = new URLSearchParams(location.hash.slice(1));
  if (h.get("tab") === "play" || h.get("tab") === "review") {
    setTab(h.get("tab"));
    return;
  }
  const kind = h.get("kind");
  if (!kind || !ASKS[kind]) return;
  let q;
  try {
    q = JSON.parse(h.get("q"));
  } catch (e) {
    return;
  }
  setTab(h.get("tab") || "gt");
  const set = (id, v) => { if (v !== undefined && v !== null) $(id).value = v; };
  const src = q.position || q;
  set("hand", src.hand);
  set("variant", src.variant);
  set("seed", q.seed);
  set("seat_strategy", q.seat_strategy);
  set("others", q.others);
  if (kind === "pass-advice") set("pass-deals", q.deals); else set("deals", q.deals);
  set("received", q.received);
  if (q.position) {
    const p = q.position;
    set("p-seat", p.seat); set("p-trick", p.trick); set("p-wish", p.wish);
    set("p-played", (p.played || []).join("\n")); set("p-taken", (p.taken || []).join(", "));
    set("p-tichu", (p.tichu || []).join(",")); set("p-grand", (p.grand_tichu || []).join(","));
    set("p-out", (p.out || []).join(",")); set("p-samples", q.samples); set("p-candidates", q.candidates);
    set("p-rollout", q.rollout);
  }
  syncPicker();
  ASKS[kind]();
}

async function start() {
  buildPicker();
  for (const b of document.querySelectorAll(".tabs button")) b.addEventListener("click", () => setTab(b.dataset.tab));
  $("hand").addEventListener("input", syncPicker);
  $("variant").addEventListener("change", syncPicker);
  $("clear").addEventListener("click", () => { $("hand").value = ""; syncPicker(); });
  $("ask-gt").addEventListener("click", ASKS["gt-odds"]);
  $("ask-tichu").addEventListener("click", ASKS["tichu-odds"]);
  $("ask-pass").addEventListener("click", ASKS["pass-advice"]);
  $("ask-pos").addEventListener("click", ASKS.advise);
  $("ask-review").addEventListener("click", askReview);
  setTab(tab);
  await loadInfo().catch(() => {});
  syncPicker();
  fromHash();
  setTimeout(pollInfo, 1000);
}

start();
