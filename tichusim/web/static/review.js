// tichusim serve: the review of a played round (the Review tab, and the Play tab's finished
// rounds). Reads the answer of POST /api/review or /api/play/{table}/review: the round's
// review (tichusim review --json, one round) and its frames, the table after each action.
"use strict";

const FLAG_ORDER = { blunder: 0, mistake: 1, inaccuracy: 2, "": 3 };
const DECISION_WORDS = {
  grand_tichu: "Grand Tichu?", tichu: "Tichu?", pass: "the passing", play: "play",
  bomb: "bomb out of turn?", wish: "the wish", dragon: "the Dragon's trick", dog: "the Dog's lead",
};
const review = { answer: null, frame: 0, names: [] };

function lossOf(d) {
  return d.loss && d.loss.value !== null && d.loss.value !== undefined ? d.loss.value : 0;
}

// the decisions that lost points, the most first
function worstDecisions(round, seat) {
  return round.decisions
    .filter((d) => lossOf(d) > 0 && d.status !== "forced" && d.status !== "unweighed")
    .filter((d) => seat === undefined || d.seat === seat)
    .sort((a, b) => lossOf(b) - lossOf(a) || a.number - b.number);
}

function seatName(names, seat) {
  const n = names && names[seat];
  return n ? `${escape(n)} (seat ${seat})` : `seat ${seat}`;
}

function decisionRow(d, names, goto) {
  const flag = d.flag ? `<span class="flag ${d.flag}">${d.flag}</span>` : "";
  const where = d.trick ? ` on <code>${escape(d.trick)}</code>` : "";
  const jump = goto ? `<button class="quiet goto" data-frame="${d.frame}">show</button>` : "";
  return `<tr class="decision-row"><td>${seatName(names, d.seat)}</td>` +
    `<td>${DECISION_WORDS[d.decision] || d.decision}${where}<br><small>hand <code>${escape(d.hand)}</code></small></td>` +
    `<td><code>${escape(d.chosen)}</code></td><td><code>${escape(d.best)}</code></td>` +
    `<td class="num">${est(d.loss)}</td><td>${flag}</td><td>${jump}</td></tr>`;
}

function decisionsTable(list, names, goto) {
  if (!list.length) return `<p class="what">No decision lost points at this effort: each was the best answer found, or within its interval.</p>`;
  return `<table class="figures review-worst"><tr><th>who</th><th>decision</th><th>played</th>` +
    `<th>better</th><th>points lost</th><th></th><th></th></tr>` +
    list.map((d) => decisionRow(d, names, goto)).join("") + `</table>`;
}

function parLine(round) {
  const par = round.par;
  const parText = par ? est(par) : "n/a";
  const play = round.play === null || round.play === undefined ? "n/a" : fmtPts(round.play);
  return `Score <b>${round.score[0]} : ${round.score[1]}</b> (team 0's margin ${fmtPts(round.result)}) · ` +
    `par ${parText}: the strong player at every seat with these cards · ` +
    `play ${play} (the margin less its par: what the play made of the deal, luck apart)`;
}

function playersTable(answer) {
  const rows = answer.players.map((p) =>
    `<tr><td>${seatName(answer.names, p.seat)}</td><td class="num">${p.decisions}</td>` +
    `<td class="num">${est(p.loss_per_decision)}</td>` +
    `<td class="num">${p.flags.inaccuracy || 0} / ${p.flags.mistake || 0} / ${p.flags.blunder || 0}</td>` +
    `<td class="num">${p.calls_won} of ${p.calls} (odds said ${p.calls_expected.toFixed(2)})</td></tr>`).join("");
  return `<table class="figures"><tr><th>player</th><th>decisions</th><th>points lost per decision</th>` +
    `<th>inaccuracies / mistakes / blunders</th><th>calls won</th></tr>${rows}</table>`;
}

// ---- the Review tab -------------------------------------------------------------------------

function renderReviewAnswer(job) {
  const a = job.result;
  review.answer = a;
  review.names = a.names;
  const round = a.rounds[0];
  const box = $("answer-review");
  box.innerHTML =
    `<h3>Round ${a.round} of ${a.rounds_in_log} <small>(${a.settings.effort.name || a.settings.effort} effort, ` +
    `${escape(a.settings.rollout)} in the rollouts, ${round.seconds.toFixed(1)} s)</small></h3>` +
    `<p>${parLine(round)}</p>` + playersTable(a) +
    `<h3>The decisions that lost points, the most first</h3>` +
    decisionsTable(worstDecisions(round), a.names, true) +
    (a.problems && a.problems.length ? `<p class="what">Not read: ${a.problems.map(escape).join("; ")}</p>` : "") +
    `<h3>Move by move</h3><div class="stepper">` +
    `<button class="quiet" id="rv-first">first</button><button class="quiet" id="rv-prev">◀</button>` +
    `<input type="range" id="rv-at" min="0" max="${a.frames.length - 1}" value="0">` +
    `<button class="quiet" id="rv-next">▶</button><button class="quiet" id="rv-last">last</button>` +
    `<span id="rv-where" class="what"></span></div><div id="rv-frame" class="frame"></div>` +
    commandBlock(job);
  box.hidden = false;
  for (const b of box.querySelectorAll("button.goto")) b.addEventListener("click", () => showFrame(Number(b.dataset.frame)));
  $("rv-first").onclick = () => showFrame(0);
  $("rv-prev").onclick = () => showFrame(review.frame - 1);
  $("rv-next").onclick = () => showFrame(review.frame + 1);
  $("rv-last").onclick = () => showFrame(a.frames.length - 1);
  $("rv-at").oninput = () => showFrame(Number($("rv-at").value));
  showFrame(0);
}

function showFrame(k) {
  const a = review.answer;
  if (!a) return;
  k = Math.max(0, Math.min(a.frames.length - 1, k));
  review.frame = k;
  const f = a.frames[k];
  $("rv-at").value = k;
  $("rv-where").textContent = `move ${k + 1} of ${a.frames.length}: ${f.action}`;
  const seats = f.hands.map((hand, s) => {
    const calls = (f.grand_tichu.includes(s) ? " GT" : "") + (f.tichu.includes(s) ? " T" : "");
    const out = f.out.includes(s) ? ` · out ${f.out.indexOf(s) + 1}.` : "";
    const mark = s === f.seat ? " acting" : "";
    return `<tr class="seat-row${mark}"><td>${seatName(a.names, s)}<b>${calls}</b></td>` +
      `<td><code>${escape(hand) || "—"}</code></td><td class="num">${f.counts[s]} cards${out}</td>` +
      `<td class="num">${f.taken[s]} points taken</td></tr>`;
  }).join("");
  const trick = f.trick.length
    ? f.trick.map(([s, what]) => `${seatName(a.names, s)}: <code>${escape(what)}</code>`).join(" · ")
    : "(no trick in play)";
  const here = a.rounds[0].decisions.filter((d) => d.frame === k && d.status !== "forced");
  const notes = here.map((d) => {
    const lost = lossOf(d);
    const verdict = lost > 0
      ? `lost ${est(d.loss)}; better: <code>${escape(d.best)}</code>`
      : `no loss found (${d.status})`;
    return `<li>${seatName(a.names, d.seat)}, ${DECISION_WORDS[d.decision] || d.decision}: ` +
      `played <code>${escape(d.chosen)}</code>, ${verdict}` + (d.flag ? ` <span class="flag ${d.flag}">${d.flag}</span>` : "") + `</li>`;
  }).join("");
  $("rv-frame").innerHTML = `<table class="figures seats-open">${seats}</table>` +
    `<p>Trick: ${trick}` + (f.wish ? ` · wish: <b>${f.wish}</b>` : "") + `</p>` +
    (notes ? `<ul class="notes">${notes}</ul>` : "");
}

function readFile(input) {
  return new Promise((ok, fail) => {
    const file = input.files && input.files[0];
    if (!file) return ok(null);
    const reader = new FileReader();
    reader.onload = () => ok(reader.result);
    reader.onerror = () => fail(new Error(`cannot read ${file.name}`));
    reader.readAsText(file); // UTF-8; a Latin-1 log's umlauts may show as replacement marks
  });
}

async function askReview() {
  const text = (await readFile($("rv-file")).catch(() => null)) || $("rv-log").value;
  const body = { log: text, round: Number($("rv-round").value) || 1, effort: $("rv-effort").value, seed: Number($("rv-seed").value) || 0 };
  const player = $("rv-player").value.trim();
  if (player) body.player = /^\d+$/.test(player) ? Number(player) : player;
  return ask("review", body, "review", renderReviewAnswer, $("ask-review"));
}

// ---- the Play tab's finished round ------------------------------------------------------------

async function reviewPlayedRound(round, tableId, box) {
  const button = box.querySelector("button.review-round");
  const out = box.querySelector(".review-out");
  button.disabled = true;
  out.innerHTML = `<p class="what">Reviewing your decisions of round ${round.round}: each played out on fresh deals of the cards you did not see…</p>`;
  try {
    const r = await fetch(`/api/play/${tableId}/review`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ round: round.round }),
    });
    let job = await r.json();
    if (!r.ok) throw new Error(job.error || `HTTP ${r.status}`);
    while (job.state !== "done" && job.state !== "error") {
      await new Promise((ok) => setTimeout(ok, 300));
      const s = await fetch(`/api/jobs/${job.job}`);
      job = await s.json();
      if (!s.ok) throw new Error(job.error || `HTTP ${s.status}`);
    }
    if (job.state === "error") throw new Error(job.error);
    const a = job.result;
    const reviewed = a.rounds[0];
    const me = a.players.find((p) => p.seat === 0);
    const rate = me ? `${me.decisions} decisions weighed; points lost per decision ${est(me.loss_per_decision)}` : "";
    out.innerHTML = `<p>${parLine(reviewed)}</p><p class="what">${rate}</p>` +
      decisionsTable(worstDecisions(reviewed, 0), a.names, false);
  } catch (e) {
    out.innerHTML = `<div class="error">${escape(e.message)}</div>`;
  } finally {
    button.disabled = false;
  }
}
