// The page's Practice view: the puzzles of `yatzy train`, one at a time, the
// card and dice drawn as the game view draws them.  Tap dice to keep and
// reroll, or a box to score; the server answers the loss, the best action and
// why (/api/puzzles, /api/puzzle/answer).  The rating is kept in this browser
// (localStorage) unless the player asks the server to keep it under a name.
import {has, int, lang, locale, num, plain, t} from "./words.js";
import {$, el, params, showError, store, stored} from "./dom.js";
import {dieFace} from "./dice.js";
import {S} from "./state.js";
import {api, errorText} from "./api.js";
import {showLevel} from "./level.js";

const KINDS = ["first keep", "second keep", "box choice"];
const KIND_KEY = {"first keep": "kind_first", "second keep": "kind_second", "box choice": "kind_box"};
const ANSWERS_KEY = "yatzy.practice.answers", MOST_KEPT = 5000;
const Z95 = 1.959963984540054;

const P = {
  set: null,          // the server's answer of /api/puzzles
  i: 0,               // the puzzle shown
  result: null,       // the server's answer for it, once answered
  marked: new Set(),  // slots of the dice marked to keep
  busy: false,
  build: null,        // the server's build of the explanation table (its 503's progress)
  shownAt: 0,         // when the puzzle was shown (ms)
  losses: [],         // the losses of this practice, in order
  streak: 0,
  serverStats: null,  // the player's rating as the server last answered it
  scale: null,        // the rating scale of the rules (/api/practice/scale)
  seed: /^\d{1,15}$/.test(params.get("seed") || "") ? params.get("seed") : null,   // ?seed=: the first set's
};

function practicing() { return document.body.classList.contains("practicing"); }
function puzzle() { return P.set && P.set.puzzles[P.i]; }
function keepOnServer() { return stored("yatzy.practice.server", "") === "1"; }
function playerName() { return (stored("yatzy.practice.name", "") || "").trim(); }
function pLabels() { return P.set.labels[lang] || P.set.labels.en; }

// ------------------------------------------------------------------ the view
function buildPractice() {
  const levels = [0, 1, 2, 3].map((l) => el("option", {value: l, dataset: {t: "level" + l}}));
  const section = el("section", {id: "practice", hidden: true, "aria-labelledby": "practice-h"},
    el("div", {id: "p-main"}, el("div", {class: "p-head"},
      el("h2", {id: "practice-h", tabindex: "-1", dataset: {t: "practiceTitle"}}),
      el("button", {id: "practice-close", dataset: {t: "backToGame"}, onclick: closePractice})),
    el("div", {class: "p-setup"},
      el("div", {class: "field"}, el("label", {for: "p-source", dataset: {t: "pSource"}}),
        el("select", {id: "p-source", onchange: newSet},
          el("option", {value: "train", dataset: {t: "pRandom"}}), el("option", {value: "daily", dataset: {t: "pDaily"}}))),
      el("div", {class: "field"}, el("label", {for: "p-level", dataset: {t: "pLevel"}}),
        el("select", {id: "p-level", onchange: newSet}, ...levels))),
    el("div", {class: "p-keep"},
      el("label", {class: "p-check"}, el("input", {type: "checkbox", id: "p-server", onchange: onServerTick}),
        el("span", {dataset: {t: "pServer"}})),
      el("div", {class: "field", id: "p-name-field"},
        el("label", {for: "p-name", dataset: {t: "pName"}}),
        el("input", {id: "p-name", maxlength: 32, autocomplete: "nickname", spellcheck: "false",
          "aria-describedby": "p-name-note", onchange: onNameChange}),
        el("p", {id: "p-name-note", class: "p-note", dataset: {t: "pNameNote"}}))),
    el("h3", {id: "p-status", class: "turn"}),
    el("progress", {id: "p-progress", max: 100, hidden: true, "aria-labelledby": "p-status"}),
    el("p", {id: "p-sub"}),
    el("div", {id: "p-dice", role: "group", "aria-labelledby": "p-status"}),
    el("div", {class: "p-decide"},
      el("button", {id: "p-keep", class: "primary", onclick: keepMarkedPractice})),
    el("p", {id: "p-hint"}),
    el("div", {id: "p-result", "aria-live": "polite"}),
    el("div", {class: "p-next"}, el("button", {id: "p-next", class: "primary", hidden: true, onclick: nextPuzzle})),
    el("p", {id: "p-running"})),
    el("div", {class: "scroll", id: "p-side"}, el("table", {id: "p-card"})),
    el("section", {id: "p-stats", "aria-labelledby": "p-stats-h"},
      el("h3", {id: "p-stats-h", dataset: {t: "pStats"}}),
      el("table", {id: "p-stats-table"}),
      el("p", {id: "p-stats-note", class: "p-note"}),
      el("h3", {id: "p-scale-h", dataset: {t: "pScale"}}),
      el("table", {id: "p-scale-table"}),
      el("p", {id: "p-scale-note", class: "p-note"})));
  $("play").append(section);
  const menu = document.querySelector("#more-menu .menu");
  $("practice-button").onclick = () => { $("more-menu").open = false; openPractice(); };
  if (!menu.contains($("practice-button"))) menu.prepend($("practice-button"));
  $("p-server").checked = keepOnServer();
  $("p-name").value = playerName();
}

function openPractice() {
  if (location.hash !== "#practice") history.pushState(null, "", "#practice");
  showPractice();
}
function closePractice() {
  if (location.hash === "#practice") history.pushState(null, "", location.pathname + location.search);
  showPractice();
}
function showPractice() {
  const on = location.hash === "#practice";
  document.body.classList.toggle("practicing", on);
  $("practice").hidden = !on;
  if (on) {
    renderPractice();
    $("practice-h").focus();
    if (!P.set && !P.busy) newSet();
  }
}

function renderPractice() {
  if (!$("practice")) return;
  for (const e of $("practice").querySelectorAll("[data-t]")) e.textContent = t(e.dataset.t);
  $("practice-button").textContent = t("practice");
  $("p-name-field").hidden = !$("p-server").checked;
  const p = puzzle(), r = P.result;
  const status = $("p-status"), sub = $("p-sub");
  document.body.dataset.practice = P.busy ? "busy" : !p ? "none" : r ? "answered" : "puzzle";
  const bar = $("p-progress"), build = P.busy && P.build && P.build.build;
  bar.hidden = !build;
  if (build) bar.value = P.build.total ? Math.floor(100 * P.build.done / P.build.total) : 0;
  if (!p) {                // the first set of a server builds the explanation table: say what
    status.textContent = build ? t("pBuilding", {spec: build.rules, size: sizeText(build.bytes),
                                                 time: aboutText(build.seconds)})
      : P.busy ? t("pPreparing") : "\u00a0";
    sub.textContent = "\u00a0";
    $("p-dice").replaceChildren(); $("p-card").replaceChildren(); $("p-result").replaceChildren();
    $("p-keep").hidden = true; $("p-hint").textContent = ""; $("p-next").hidden = true;
    renderRunning(); renderStats();
    return;
  }
  status.textContent = t("pPuzzle", {i: int(P.i + 1), n: int(P.set.puzzles.length),
    kind: t(KIND_KEY[p.kind]), level: t("level" + p.level)});
  const bits = [];
  if (P.set.date) bits.push(t("pDaily0", {date: P.set.date}));
  if (p.review) bits.push(t("pReview"));
  if (p.rerolls) bits.push(t("rerollsLeft", {n: p.rerolls}));    // none left: the hint says so
  sub.textContent = bits.join(" · ") || "\u00a0";
  renderPracticeDice(p, r);
  const keep = $("p-keep");
  keep.hidden = !p.rerolls;
  keep.disabled = P.busy || !!r || P.marked.size === p.dice.length;
  keep.textContent = P.marked.size === p.dice.length ? t("keepAll") : P.marked.size ? t("keepReroll") : t("rerollAll");
  $("p-hint").textContent = r ? "" : p.rerolls ? t("pAnswerHint") : t("pBoxHint");
  renderPracticeCard(p, r);
  renderResult(r);
  $("p-next").hidden = !r;
  $("p-next").textContent = P.i + 1 < P.set.puzzles.length ? t("pNext") : t("pNewSet");
  $("p-next").disabled = P.busy;
  renderRunning(); renderStats(); renderScale();
}

function renderPracticeDice(p, r) {
  const can = p.rerolls > 0 && !r && !P.busy;
  const kept = r && r.answer.action === "keep" ? [...r.answer.dice] : null;
  $("p-dice").replaceChildren(...p.dice.map((face, i) => {
    let pressed = P.marked.has(i);
    if (kept) { const k = kept.indexOf(face); pressed = k >= 0; if (k >= 0) kept.splice(k, 1); }
    return el("button", {class: "die rolled" + (pressed ? " marked" : ""),
      "aria-pressed": p.rerolls > 0 ? String(pressed) : undefined, dataset: {index: i, face},
      disabled: !can, onclick: () => { if (!can) return; P.marked.has(i) ? P.marked.delete(i) : P.marked.add(i); renderPractice(); }},
      el("span", {class: "sr", text: t("die", {i: i + 1, face}) + " "}), dieFace(face), el("span", {class: "mark", text: t("keepMark")}));
  }));
}

function renderPracticeCard(p, r) {
  const labels = pLabels();
  const best = r && r.best.action === "score" ? r.best.box : null;
  const chosen = r && r.answer.action === "score" ? r.answer.box : null;
  const rows = p.rows.map((row) => {
    const label = row.kind === "box" ? (labels.boxes[row.key] || row.key) : (labels[row.key] || row.key);
    let cell;
    if (row.kind === "box" && row.value === null && row.key in p.scores) {
      const points = p.scores[row.key];
      cell = el("td", {class: "open", dataset: {box: row.key}},
        el("button", {class: "cell-btn" + (row.key === best ? " best" : "") + (row.key === chosen ? " chosen" : ""),
          dataset: {box: row.key}, disabled: P.busy || !!r, onclick: () => answer("score " + row.key)},
          el("span", {class: "sr", text: t("pScoreAria", {box: label}) + " "}), int(points),
          el("span", {class: "sr", text: " " + t("points")})));
    } else {
      cell = el("td", {dataset: {box: row.key}}, row.value === null ? "" : int(row.value));
    }
    return el("tr", {class: row.kind}, el("th", {scope: "row", class: "label", text: label}), cell);
  });
  $("p-card").replaceChildren(el("caption", {class: "sr", text: t("pCard")}),
    el("thead", {}, el("tr", {}, el("th", {scope: "col", class: "label", text: t("box")}),
      el("th", {scope: "col", text: t("pPoints")}))),
    el("tbody", {}, ...rows));
}

function pActionText(a) {
  if (a.action === "score") return t("scoreBox", {box: pLabels().boxes[a.box] || a.box, points: a.points ?? ""});
  return a.dice.length ? t("keepDice", {dice: a.dice.join(" ")}) : t("rerollAll");
}
function lowerFirst(text) { return text.charAt(0).toLocaleLowerCase(locale()) + text.slice(1); }

function renderResult(r) {
  const box = $("p-result");
  if (!r) { box.replaceChildren(); return; }
  const good = r.loss < 1e-9;
  const verdict = el("p", {id: "p-verdict", class: good ? "good" : "bad",
    text: r.best_choice ? t("pBest") : good ? t("pTie") : t("pCost", {loss: num(r.loss, 2), best: lowerFirst(pActionText(r.best))})});
  const kids = [verdict, el("p", {id: "p-sentence", text: r.sentences[lang] || r.sentence})];
  if (r.runner_up) kids.push(el("p", {class: "p-note", text: t("pRunnerUp", {sentence: r.runner_up.sentence[lang]})}));
  const parts = r.breakdown;             // every part of the loss, as the library sums it
  if (!good && parts.length) {
    kids.push(el("table", {id: "p-parts"}, el("caption", {text: t("pParts")}),
      el("tbody", {}, ...parts.map((q) => el("tr", {},
        el("th", {scope: "row", text: q.names[lang] || q.names.en}),
        el("td", {text: ((q.shown || q.points) > 0 ? "−" : "+") + num(Math.abs(q.shown), 2)}))))));
  }
  if (P.i + 1 >= P.set.puzzles.length) kids.push(el("p", {class: "p-note", text: t("pDone")}));
  box.replaceChildren(...kids);
}

function renderRunning() {
  const n = P.losses.length, box = $("p-running");
  const mean = n ? P.losses.reduce((a, b) => a + b, 0) / n : 0;
  box.dataset.n = n; box.dataset.mean = n ? String(mean) : "";
  box.textContent = n ? t("pRunning", {n: int(n), mean: num(mean, 2), streak: int(P.streak)}) : t("pNone");
}

// ------------------------------------------------------------------ the rating
function localAnswers() {
  try { const a = JSON.parse(stored(ANSWERS_KEY, "[]")); return Array.isArray(a) ? a : []; } catch (e) { return []; }
}
function summary(label, losses) {
  const n = losses.length;
  if (!n) return {label, n: 0, mean: null, ci95: null};
  const mean = losses.reduce((a, b) => a + b, 0) / n;
  const sd = n > 1 ? Math.sqrt(losses.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1)) : 0;
  const h = Z95 * sd / Math.sqrt(n);
  return {label, n, mean, ci95: [Math.max(mean - h, 0), mean + h]};     // losses are never negative
}
function localStats(rules) {
  const mine = localAnswers().filter((a) => a.rules === rules);
  return {overall: summary("all", mine.map((a) => a.loss)),
          by_kind: KINDS.map((k) => summary(k, mine.filter((a) => a.kind === k).map((a) => a.loss)))};
}
function renderStats() {
  const rules = P.set ? P.set.rules : (S.rulesInfo && S.rulesInfo.default) || "nordic";
  const onServer = $("p-server").checked && playerName() && P.serverStats && P.serverStats.rules === rules;
  const s = onServer ? P.serverStats : localStats(rules);
  const row = (r, key) => el("tr", {dataset: {kind: r.label}}, el("th", {scope: "row", text: t(key)}),
    el("td", {text: int(r.n)}), el("td", {text: r.n ? num(r.mean, 3) : "–"}),
    el("td", {text: r.n > 1 ? `${num(r.ci95[0], 3)} – ${num(r.ci95[1], 3)}` : "–"}));   // one answer: no spread
  $("p-stats-table").replaceChildren(el("caption", {text: t("pStatsCaption")}),
    el("thead", {}, el("tr", {}, ...["pKind", "pCount", "pMean", "pInterval"].map((k) => el("th", {scope: "col", text: t(k)})))),
    el("tbody", {}, row(s.overall, "kind_all"), ...s.by_kind.map((r) => row(r, KIND_KEY[r.label]))));
  $("p-stats-note").textContent = onServer ? t("pThere", {name: P.serverStats.player}) : t("pHere");
  showLevel(rules, s.overall, onServer ? s.level : null);      // the level in words (level.js)
}
function renderScale() {
  const sc = P.scale, ready = sc && sc.state === "ready";
  $("p-scale-note").textContent = ready ? "" : sc && sc.state === "measuring" ? t("pMeasuring") : "";
  if (!ready) { $("p-scale-table").replaceChildren(); return; }
  const name = (policy) => {
    const m = /^noisy T=(.+)$/.exec(policy);
    return m ? t("pol_noisy", {t: num(+m[1], 2)}) : has("pol_" + policy) ? t("pol_" + policy) : policy;
  };
  const rows = [...sc.anchors].sort((a, b) => a.mean_loss - b.mean_loss);
  $("p-scale-table").replaceChildren(el("caption", {text: t("pScaleCaption", {games: int(sc.games)})}),
    el("thead", {}, el("tr", {}, ...["pPlayer", "pMean", "pFinal"].map((k) => el("th", {scope: "col", text: t(k)})))),
    el("tbody", {}, ...rows.map((a) => el("tr", {dataset: {policy: a.policy}},
      el("th", {scope: "row", text: name(a.policy)}), el("td", {text: num(a.mean_loss, 3)}),
      el("td", {text: num(a.final_mean, 1)})))));
}
async function fetchScale(tries = 0) {
  if (!P.set || (P.scale && P.scale.state === "ready" && P.scale.rules === P.set.rules)) return;
  try { P.scale = await api("/api/practice/scale", undefined, {rules: P.set.rules}); }
  catch (e) { P.scale = null; }
  renderScale();
  if (P.scale && P.scale.state === "measuring" && tries < 120) setTimeout(() => { if (practicing()) fetchScale(tries + 1); }, 5000);
}
async function fetchServerStats() {
  if (!$("p-server").checked || !playerName()) { P.serverStats = null; renderStats(); return; }
  const rules = P.set ? P.set.rules : S.rulesInfo.default;
  try { P.serverStats = await api("/api/practice/stats", undefined, {rules, player: playerName()}); showError(""); }
  catch (e) { P.serverStats = null; showError(errorText(e)); }
  renderStats();
}
function onServerTick() {
  store("yatzy.practice.server", $("p-server").checked ? "1" : null);
  renderPractice();
  if ($("p-server").checked && !playerName()) { showError(t("pNeedName")); $("p-name").focus(); }
  else fetchServerStats();
}
function onNameChange() {
  store("yatzy.practice.name", $("p-name").value.trim() || null);
  showError("");
  fetchServerStats();
}

// ------------------------------------------------------------------ the server
// A size in MiB or GiB and a time in s, min or h, in the page's language.
function sizeText(bytes) {
  return bytes >= 2 ** 30 ? `${plain(bytes / 2 ** 30)} GiB` : `${plain(bytes / 2 ** 20)} MiB`;
}
function aboutText(seconds) {
  if (seconds < 90) return `${int(Math.max(1, Math.round(seconds)))} s`;
  return seconds < 5400 ? `${plain(seconds / 60)} min` : `${plain(seconds / 3600)} h`;
}

// The puzzles; while the server builds the explanation table (a 503
// "solving"), its announcement and progress are shown in the view (P.build).
async function puzzles(query) {
  for (;;) {
    let res, data;
    try {
      res = await fetch("/api/puzzles?" + new URLSearchParams(query));
      data = await res.json();
    } catch (e) { break; }                // the server lost: api() waits for it
    if (res.status !== 503 || data.code !== "solving") {
      if (res.ok) return data;
      break;
    }
    P.build = data.progress || null;
    renderPractice();
    await new Promise((r) => setTimeout(r, 700));
  }
  return api("/api/puzzles", undefined, query);
}

async function newSet() {
  if (P.busy) return;
  const source = $("p-source").value, level = $("p-level").value;
  const query = {rules: (S.rulesInfo && S.rulesInfo.default) || "nordic", level,
                 count: source === "daily" ? 5 : 10};
  if (source === "daily") query.daily = 1;
  else if (P.seed) { query.seed = P.seed; P.seed = null; }
  if (keepOnServer() && playerName()) query.player = playerName();
  P.busy = true; P.result = null; P.marked = new Set();
  renderPractice();
  try {
    const data = await puzzles(query);
    P.set = data; P.i = 0; P.shownAt = Date.now();
    showError("");
  } catch (e) { showError(errorText(e)); }
  P.busy = false; P.build = null;
  renderPractice();
  fetchServerStats();
  fetchScale();
}

async function answer(text) {
  const p = puzzle();
  if (!p || P.busy || P.result) return;
  const server = $("p-server").checked;
  if (server && !playerName()) { showError(t("pNeedName")); $("p-name").focus(); return; }
  const body = {rules: P.set.rules, puzzle: p.key, answer: text, lang,
                source: p.review ? "review" : P.set.source,
                seconds: Math.min((Date.now() - P.shownAt) / 1000, 86400)};
  if (server) body.player = playerName();
  P.busy = true; renderPractice();
  try {
    const r = await api("/api/puzzle/answer", body);
    P.result = r;
    P.losses.push(r.loss);
    P.streak = r.loss < 1e-9 ? P.streak + 1 : 0;
    if (r.stats) P.serverStats = r.stats;
    else {
      const kept = localAnswers();
      kept.push({at: new Date().toISOString(), rules: r.rules, kind: r.kind, loss: r.loss});
      store(ANSWERS_KEY, JSON.stringify(kept.slice(-MOST_KEPT)));
    }
    showError("");
  } catch (e) { showError(errorText(e)); }
  P.busy = false;
  renderPractice();
  if (P.result) $("p-next").focus();
}

function keepMarkedPractice() {
  const p = puzzle();
  if (!p || !p.rerolls || P.result) return;
  const dice = [...P.marked].sort((a, b) => a - b).map((i) => p.dice[i]).sort((a, b) => a - b);
  if (dice.length === p.dice.length) return;
  answer(dice.length ? "keep " + dice.join(" ") : "reroll all");
}

function nextPuzzle() {
  if (!P.result || P.busy) return;
  P.result = null; P.marked = new Set();
  if (P.i + 1 < P.set.puzzles.length) {
    P.i += 1; P.shownAt = Date.now(); renderPractice(); $("practice-h").focus();
    return;
  }
  if ($("p-source").value === "daily") $("p-source").value = "train";   // today's are done
  P.set = null;
  newSet();
}

function onPracticeKey(e) {
  if (!practicing()) return;
  const tag = (e.target && e.target.tagName) || "";
  if (["INPUT", "TEXTAREA", "SELECT"].includes(tag) || e.altKey || e.metaKey) return;
  e.stopPropagation();                         // the hidden game takes no keys
  const p = puzzle(), d = +e.key;
  if (p && !P.result && p.rerolls && d >= 1 && d <= p.dice.length) {
    e.preventDefault();
    P.marked.has(d - 1) ? P.marked.delete(d - 1) : P.marked.add(d - 1);
    renderPractice();
  }
}

export function setupPractice() {
  buildPractice();
  $("lang").addEventListener("change", renderPractice);
  window.addEventListener("keydown", onPracticeKey, true);
  window.addEventListener("popstate", showPractice);
  window.addEventListener("hashchange", showPractice);
  if (location.hash === "#practice") {
    // after main.js has asked for the rules (the puzzles use the server's default rules)
    const wait = () => (S.rulesInfo ? showPractice() : setTimeout(wait, 50));
    wait();
  }
}
