// tichusim serve: the Play tab. A seat at a table against the bots, through the JSON API
// (/api/play/...): the server plays the bots and sends the table as the player may know it; the
// page shows the bots' moves one by one at the chosen pace, then the player's decision with only
// its legal options. The table's id and record are kept in localStorage, so a reload resumes
// it (and a table the server no longer has is opened again from its record).
"use strict";

const PLAY_KEY = "tichusim-play";
const SUIT_OF = { j: "j", s: "s", p: "p", t: "t" };
const play = {
  state: null, // the last state the server sent
  shownRound: 0, // the round whose events the page has shown
  shownEvents: 0, // how many of them
  busy: false, // animating or waiting for the server
  selected: [], // cards picked in the hand (a play's filter, or the passing's cards in order)
  hint: null, // the last hint's result
  waitingNext: false, // the end-of-round panel is up
  roundsSeen: 0, // the finished rounds whose end the page has shown
};

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
const pace = () => Number($("pl-pace").value);

function cardFace(code) {
  const special = { Ma: "1", Dog: "Dog", Ph: "Ph", Dr: "Dr" }[code];
  if (special) return [special, "x"];
  const rank = code.slice(0, -1);
  const suit = code.slice(-1);
  return [rank + SUIT_MARK[suit], SUIT_OF[suit] || "x"];
}

function cardEl(code, extra = "") {
  const [face, cls] = cardFace(code);
  const el = document.createElement("div");
  el.className = `card ${cls} ${extra}`;
  el.dataset.card = code;
  el.innerHTML = `${face}<small>${escape(code)}</small>`;
  return el;
}

function cardsHtml(codes) {
  return codes.map((c) => cardEl(c, "small").outerHTML).join("");
}

// ---- talking to the server --------------------------------------------------------------------

async function api(method, path, body) {
  const r = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data;
  try {
    data = await r.json();
  } catch (e) {
    throw Object.assign(new Error(`HTTP ${r.status}`), { status: r.status });
  }
  if (!r.ok) throw Object.assign(new Error(data.error || `HTTP ${r.status}`), { status: r.status });
  return data;
}

function keep(state) {
  localStorage.setItem(PLAY_KEY, JSON.stringify({ table: state.table, record: state.record }));
  const h = new URLSearchParams({ tab: "play", table: state.table });
  history.replaceState(null, "", `#${h}`);
}

function playError(message) {
  const err = $("error-play");
  err.textContent = message || "";
  err.hidden = !message;
}

async function newGame() {
  const body = {
    variant: $("pl-variant").value,
    target: Number($("pl-target").value || 1000),
  };
  if ($("pl-partner").value.trim()) body.partner = $("pl-partner").value.trim();
  if ($("pl-opponents").value.trim()) body.opponents = $("pl-opponents").value.trim();
  if ($("pl-seed").value.trim() !== "") body.seed = Number($("pl-seed").value);
  playError("");
  $("pl-new").disabled = true;
  try {
    const old = play.state;
    if (old && !old.over) api("DELETE", `/api/play/${old.table}`).catch(() => {});
    const state = await api("POST", "/api/play", body);
    play.shownRound = 0;
    play.shownEvents = 0;
    play.roundsSeen = 0;
    play.waitingNext = false;
    $("pl-round-end").hidden = true;
    $("pl-log").innerHTML = "";
    await show(state);
  } catch (e) {
    playError(e.message);
  } finally {
    $("pl-new").disabled = false;
  }
}

// the tab opened: the table of the URL or of localStorage, resumed
let resumed = false;
async function playShown() {
  if (resumed) return;
  resumed = true;
  const h = new URLSearchParams(location.hash.slice(1));
  let kept = null;
  try {
    kept = JSON.parse(localStorage.getItem(PLAY_KEY) || "null");
  } catch (e) {
    kept = null;
  }
  const id = h.get("table") || (kept && kept.table);
  if (!id) return;
  try {
    await show(await api("GET", `/api/play/${encodeURIComponent(id)}`), true);
  } catch (e) {
    if (e.status !== 404 || !kept || !kept.record) {
      playError(e.message);
      return;
    }
    try {
      // the server no longer has the table: it plays the record again
      await show(await api("POST", "/api/play", { resume: kept.record }), true);
    } catch (e2) {
      playError(`the table could not be resumed: ${e2.message}`);
    }
  }
}

async function act(choice) {
  if (play.busy || !play.state || !play.state.decision) return;
  play.busy = true;
  setOptionsEnabled(false);
  try {
    const state = await api("POST", `/api/play/${play.state.table}/act`, { step: play.state.step, choice });
    play.busy = false;
    await show(state);
  } catch (e) {
    play.busy = false;
    playError(e.message);
    setOptionsEnabled(true);
  }
}

// ---- showing a state: the bots' moves one by one, then the decision ---------------------------

async function show(state, reloaded = false) {
  play.state = state;
  keep(state);
  play.hint = null;
  play.selected = [];
  $("pl-hint-box").hidden = true;
  $("error-hint").hidden = true;
  $("pl-table").hidden = false;
  playError(state.error || "");
  drawScore(state);
  if (reloaded) {
    // a reload shows the table as it stands, without replaying the moves
    const r = state.round || state.last_round;
    play.shownRound = r ? r.round : 0;
    play.shownEvents = r ? r.events.length : 0;
    play.roundsSeen = state.rounds.length;
    $("pl-log").innerHTML = "";
    if (r) for (const e of r.events) logEvent(e);
    draw(state);
    if (!state.round && state.last_round) roundEnd(state);
    return;
  }
  play.busy = true;
  $("pl-decision").classList.add("waiting");
  $("pl-options").innerHTML = "";
  $("pl-gives").hidden = true;
  $("pl-prompt").textContent = "";
  try {
    if (state.rounds.length > play.roundsSeen && state.last_round) {
      // the round in play has ended: its last moves, then its end (and the next round's
      // moves once the player goes on)
      await animate(state.last_round.events, state.last_round.round);
      await roundEnd(state);
    }
    if (state.round) await animate(state.round.events, state.round.round);
  } finally {
    play.busy = false;
    $("pl-decision").classList.remove("waiting");
  }
  draw(state);
}

async function animate(events, round) {
  if (round !== play.shownRound) {
    play.shownRound = round;
    play.shownEvents = 0;
    $("pl-log").innerHTML = "";
    $("pl-trick").innerHTML = "";
  }
  for (let i = play.shownEvents; i < events.length; i++) {
    const e = events[i];
    logEvent(e);
    play.shownEvents = i + 1;
    if (["play", "pass", "bomb"].includes(e.kind)) trickEntry(e);
    if (e.kind === "trick" || e.kind === "dog") {
      if (pace()) await sleep(pace());
      $("pl-trick").innerHTML = "";
    }
    if (e.counts) drawCounts(e.counts);
    const bot = e.seat !== 0 && ["play", "pass", "bomb", "grand_tichu", "tichu", "wish", "dragon", "dog"].includes(e.kind);
    if (bot && pace()) await sleep(pace());
  }
}

function logEvent(e) {
  const li = document.createElement("li");
  li.className = `ev ev-${e.kind}${e.seat === 0 ? " mine" : ""}`;
  li.textContent = e.text;
  const log = $("pl-log");
  log.appendChild(li);
  log.scrollTop = log.scrollHeight;
}

function trickEntry(e) {
  const seats = play.state.seats;
  const div = document.createElement("div");
  div.className = `trick-entry ${e.kind}`;
  const who = seats[e.seat] ? seats[e.seat].name : `seat ${e.seat}`;
  div.innerHTML = `<span class="who">${escape(who)}</span>` +
    (e.kind === "pass" ? `<span class="passed">pass</span>` : `<span class="cards-row">${cardsHtml(e.cards)}</span>`) +
    (e.kind === "bomb" ? `<span class="badge bomb">bomb</span>` : "");
  $("pl-trick").appendChild(div);
}

function drawScore(state) {
  $("pl-us").textContent = state.score[0];
  $("pl-them").textContent = state.score[1];
  const strategies = [...new Set(state.seats.slice(1).map((s) => s.strategy))].join(", ");
  $("pl-about").textContent = `${state.variant}, to ${state.target.toLocaleString()} · seed ${state.seed} · bots: ${strategies}` +
    (state.over ? ` · game over: ${state.winner === 0 ? "you win" : "the opponents win"}` : "");
  $("pl-download").href = `/api/play/${state.table}/game?format=tch`;
  $("pl-download-json").href = `/api/play/${state.table}/game?format=json`;
  $("pl-download-tch").hidden = state.variant !== "nanjing"; // a BSW log holds Nanjing games
  const rows = state.rounds.map((r) => `<tr><td>${r.round}</td><td class="num">${r.score[0]}</td><td class="num">${r.score[1]}</td>` +
    `<td class="num">${r.totals[0]} : ${r.totals[1]}</td><td>${escape(r.first_out >= 0 ? state.seats[r.first_out].name : "")}</td></tr>`);
  $("pl-rounds").innerHTML = `<tr><th>round</th><th>you &amp; partner</th><th>opponents</th><th>totals</th><th>out first</th></tr>${rows.join("")}`;
}

function drawCounts(counts) {
  for (const [s, n] of counts.entries()) {
    const el = document.querySelector(`#pl-seat-${s} .count`);
    if (el) el.textContent = `${n} card${n === 1 ? "" : "s"}`;
  }
}

function draw(state) {
  const r = state.round;
  // the seats, in turn order from the player's right
  const seats = $("pl-seats");
  seats.innerHTML = "";
  for (const s of state.seats) {
    if (s.seat === 0) continue;
    const div = document.createElement("div");
    div.className = `seat-box team${s.team}`;
    div.id = `pl-seat-${s.seat}`;
    seats.appendChild(div);
  }
  const mine = document.createElement("div");
  mine.className = "seat-box team0 me";
  mine.id = "pl-seat-0";
  seats.appendChild(mine);
  for (const s of state.seats) {
    const div = $(`pl-seat-${s.seat}`);
    const calls = r ? (r.grand_tichu[s.seat] ? "Grand Tichu" : r.tichu[s.seat] ? "Tichu" : "") : "";
    const out = r ? r.out.indexOf(s.seat) : -1;
    div.innerHTML = `<div class="name">${escape(s.name)}${s.strategy ? ` <span class="what">${escape(s.strategy)}</span>` : ""}</div>
      <div class="count"></div>
      ${calls ? `<span class="badge call">${calls}</span>` : ""}
      ${out >= 0 ? `<span class="badge out">out ${out + 1}${["st", "nd", "rd"][out] || "th"}</span>` : ""}
      <div class="what">${r ? `${r.taken[s.seat]} points taken` : ""}</div>`;
  }
  if (r) drawCounts(r.counts);
  // the trick in play and the wish
  $("pl-trick").innerHTML = "";
  if (r) for (const e of r.trick) trickEntry(e);
  if (r && !r.trick.length) $("pl-trick").innerHTML = `<span class="what">no trick in play</span>`;
  $("pl-wish").hidden = !(r && r.wish);
  $("pl-wish").textContent = r && r.wish ? `wish: ${r.wish}` : "";
  drawHand(state);
  drawDecision(state);
}

function drawHand(state) {
  const box = $("pl-hand");
  box.innerHTML = "";
  const hand = state.round ? state.round.hand : [];
  for (const code of hand) {
    const el = cardEl(code);
    el.setAttribute("role", "button");
    if (play.selected.includes(code)) el.classList.add("on");
    el.addEventListener("click", () => pick(code));
    box.appendChild(el);
  }
}

const PROMPTS = {
  grand_tichu: "Your first cards: call Grand Tichu?",
  tichu: ["Call Tichu before the passing?", "Call Tichu now that the cards are passed?", "Call Tichu before your turn?", "Call Tichu before your bomb?"],
  pass: "Pass one card to each: click a card for each in turn",
  play: ["Your lead or play (you must play)", "Your turn: play or pass"],
  bomb: "A bomb may be played now, out of turn",
  wish: "Your Mah Jong: wish for a rank?",
  dragon: "You won the trick with the Dragon: give it to an opponent",
  dog: "Your Dog: which partner leads?",
};

function drawDecision(state) {
  const d = state.decision;
  const box = $("pl-options");
  box.innerHTML = "";
  $("pl-gives").hidden = true;
  $("pl-hint").disabled = !(d && d.hint);
  if (!d) {
    $("pl-prompt").textContent = state.error ? "The table stopped." : state.over ? "The game is over." : "";
    return;
  }
  const p = PROMPTS[d.kind];
  $("pl-prompt").textContent = Array.isArray(p) ? p[Math.min(d.detail, p.length - 1)] : p;
  if (d.kind === "pass") {
    drawGives(d);
    return;
  }
  d.options.forEach((o, i) => {
    if (d.kind === "play" && play.selected.length && o.cards.length && !play.selected.every((c) => o.cards.includes(c))) return;
    const b = document.createElement("button");
    b.className = "option";
    b.dataset.index = i;
    b.innerHTML = o.cards && o.cards.length
      ? `<span class="cards-row">${cardsHtml(o.cards)}</span><small>${escape(o.combination || "")}</small>`
      : escape(o.label);
    if (play.hint && play.hint.hint.ranked[0] && play.hint.hint.ranked[0].option === i) b.classList.add("hinted");
    b.addEventListener("click", () => act(i));
    box.appendChild(b);
  });
}

function drawGives(d) {
  const box = $("pl-gives");
  box.hidden = false;
  const slots = d.receivers.map((r, i) => {
    const code = play.selected[i];
    return `<div class="give-slot" data-slot="${i}"><span class="what">to ${escape(r.name)}</span>${code ? cardEl(code).outerHTML : `<span class="empty">·</span>`}</div>`;
  });
  const ready = play.selected.length === d.receivers.length;
  box.innerHTML = slots.join("") + `<button id="pl-give" class="ask" ${ready ? "" : "disabled"}>Pass these cards</button>`;
  for (const el of box.querySelectorAll(".give-slot")) {
    el.addEventListener("click", () => {
      play.selected.splice(Number(el.dataset.slot), 1);
      drawHand(play.state);
      drawGives(d);
    });
  }
  $("pl-give").addEventListener("click", () => act(play.selected.slice()));
}

function pick(code) {
  const d = play.state && play.state.decision;
  if (!d || play.busy) return;
  const i = play.selected.indexOf(code);
  if (i >= 0) play.selected.splice(i, 1);
  else if (d.kind !== "pass" || play.selected.length < d.receivers.length) play.selected.push(code);
  drawHand(play.state);
  drawDecision(play.state);
}

function setOptionsEnabled(on) {
  for (const b of document.querySelectorAll("#pl-options button, #pl-give")) b.disabled = !on;
}

// ---- the end of a round --------------------------------------------------------------------

// The round reviewed: your decisions of the finished round weighed on the server
// (review.js), asked with a click, as a review takes some seconds.
function renderReview(round) {
  const box = $("pl-review");
  box.innerHTML = `<button class="quiet review-round">Review my decisions of this round</button>` +
    `<div class="review-out"></div>`;
  box.querySelector("button.review-round").onclick = () => reviewPlayedRound(round, play.state.table, box);
}

function roundEnd(state) {
  const r = state.last_round;
  play.roundsSeen = state.rounds.length;
  $("pl-round-title").textContent = state.over
    ? `Game over after round ${r.round}: ${state.winner === 0 ? "you and your partner win" : "the opponents win"}`
    : `Round ${r.round} is over`;
  const first = r.first_out >= 0 ? state.seats[r.first_out].name : "nobody";
  $("pl-round-score").innerHTML = `This round: you &amp; partner <b id="pl-round-us">${r.score[0]}</b>, opponents <b id="pl-round-them">${r.score[1]}</b>` +
    ` · out first: ${escape(first)} · totals <b id="pl-total-us">${r.totals[0]}</b> : <b id="pl-total-them">${r.totals[1]}</b>`;
  renderReview(r);
  $("pl-round-end").hidden = false;
  $("pl-continue").hidden = !state.round;
  if (!state.round) return Promise.resolve();
  play.waitingNext = true;
  return new Promise((ok) => {
    $("pl-continue").onclick = () => {
      play.waitingNext = false;
      $("pl-round-end").hidden = true;
      ok();
    };
  });
}

// ---- the hint --------------------------------------------------------------------------------

async function askHint() {
  const state = play.state;
  if (!state || !state.decision || play.busy) return;
  const prog = $("progress-play");
  const err = $("error-hint");
  err.hidden = true;
  $("pl-hint-box").hidden = true;
  $("pl-hint").disabled = true;
  prog.hidden = false;
  prog.querySelector(".bar div").style.width = "0";
  prog.querySelector("span").textContent = "sending…";
  try {
    let job = await api("POST", `/api/play/${state.table}/hint`, {});
    while (job.state !== "done" && job.state !== "error") {
      showProgress(prog, job);
      await sleep(200);
      job = await api("GET", `/api/jobs/${job.job}`);
    }
    if (job.state === "error") throw new Error(job.error);
    prog.hidden = true;
    if (!play.state || play.state.step !== job.result.hint.step) return; // an earlier decision's
    play.hint = job.result;
    drawHint(job);
    drawDecision(play.state);
  } catch (e) {
    prog.hidden = true;
    err.textContent = e.message;
    err.hidden = false;
  } finally {
    $("pl-hint").disabled = !(play.state && play.state.decision && play.state.decision.hint);
  }
}

function drawHint(job) {
  const h = job.result.hint;
  const pts = (e) => est(e);
  const rows = h.ranked.slice(0, 12).map((r, i) => `<tr class="${i === 0 ? "best" : ""}" data-rank="${i}">
    <td>${i + 1}</td><td><code>${escape(r.label)}</code></td><td class="num">${pts(r.estimate)}</td>
    <td class="num">${r.vs_best ? (i === 0 ? "best" : pts(r.vs_best)) : ""}</td></tr>`);
  const what = {
    "gt-odds": "team points per round with and without the call (gt-odds)",
    "tichu-odds": "team points per round with and without the call (tichu-odds)",
    "pass-advice": "team points per round of each pass: right · partner · left (pass-advice)",
    advise: "the round's score margin of each play, and its difference to the best on the same deals (advise)",
    search: "the round's score margin of each option, each played out on the same deals of the cards you have not seen, and its difference to the best",
  }[h.kind];
  const box = $("pl-hint-box");
  box.innerHTML = `<p class="what">From what you know only: ${what}; 95% intervals, ${job.elapsed ?? "?"} s.</p>
    <table class="figures" id="pl-hint-table"><tr><th></th><th>option</th><th>points</th><th>${h.kind === "advise" || h.kind === "search" ? "vs best" : ""}</th></tr>${rows.join("")}</table>
    ${h.kind === "search" ? "" : `<div class="cmd">the same answer on the command line: <code class="command">${escape(job.command)}</code></div>`}`;
  box.hidden = false;
  if (h.kind === "pass-advice") {
    for (const tr of box.querySelectorAll("tr[data-rank]")) {
      tr.classList.add("pickable");
      tr.title = "use this pass";
      tr.addEventListener("click", () => {
        play.selected = h.ranked[Number(tr.dataset.rank)].cards.slice();
        drawHand(play.state);
        drawDecision(play.state);
      });
    }
  }
}

// ---- start ---------------------------------------------------------------------------------------

$("pl-new").addEventListener("click", newGame);
$("pl-hint").addEventListener("click", askHint);
