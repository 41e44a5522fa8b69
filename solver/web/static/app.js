// The yatzy advisor page: the game lives in localStorage as the Game JSON and
// is posted with every move to the stateless server (/api/game/...).
"use strict";

const T = {
  en: {new: "New game", undo: "Undo", redo: "Redo", export: "Export", import: "Import",
       players: "Players", rules: "Rules", spec: "or spec", start: "Start", load: "Load",
       ok: "OK", roll: "Roll for me", keep: "Keep marked, reroll", rerollAll: "Reroll all",
       more: "All options", distribution: "Score distribution", keepWord: "keep",
       scoreWord: "score", best: "best", tie: "tie", turn: "{name}'s turn",
       typeDice: "type or tap {n} dice", left: "{n} reroll(s) left",
       over: "Game over: {text}", cost: "That cost {loss} points; best was {best}.",
       bestChoice: "Best choice.", hidden: "Choose your move; the advice shows after it.",
       modeFull: "Advice: shown", modeCheck: "Advice: check my move", modeOff: "Advice: off",
       solving: "Solving the table for {spec}: {pct}%", computing: "Computing the distribution…",
       mean: "mean", expected: "expected final score {ev}", player: "Player"},
  nb: {new: "Nytt spill", undo: "Angre", redo: "Gjør igjen", export: "Eksporter",
       import: "Importer", players: "Spillere", rules: "Regler", spec: "eller spesifikasjon",
       start: "Start", load: "Last inn", ok: "OK", roll: "Kast for meg",
       keep: "Behold merkede, kast", rerollAll: "Kast alle", more: "Alle valg",
       distribution: "Fordeling av sluttsum", keepWord: "behold", scoreWord: "før",
       best: "best", tie: "likt", turn: "{name} sin tur", typeDice: "skriv eller trykk {n} terninger",
       left: "{n} kast igjen", over: "Spillet er slutt: {text}",
       cost: "Det kostet {loss} poeng; best var {best}.", bestChoice: "Beste valg.",
       hidden: "Velg trekket ditt; rådet vises etterpå.", modeFull: "Råd: vis",
       modeCheck: "Råd: sjekk trekket mitt", modeOff: "Råd: av",
       solving: "Løser tabellen for {spec}: {pct} %", computing: "Regner ut fordelingen…",
       mean: "snitt", expected: "forventet sluttsum {ev}", player: "Spiller"},
  sv: {new: "Nytt spel", undo: "Ångra", redo: "Gör om", export: "Exportera",
       import: "Importera", players: "Spelare", rules: "Regler", spec: "eller specifikation",
       start: "Starta", load: "Läs in", ok: "OK", roll: "Slå åt mig",
       keep: "Behåll markerade, slå om", rerollAll: "Slå om alla", more: "Alla val",
       distribution: "Fördelning av slutsumma", keepWord: "behåll", scoreWord: "skriv",
       best: "bäst", tie: "lika", turn: "{name}s tur", typeDice: "skriv eller tryck {n} tärningar",
       left: "{n} slag kvar", over: "Spelet är slut: {text}",
       cost: "Det kostade {loss} poäng; bäst var {best}.", bestChoice: "Bästa valet.",
       hidden: "Välj ditt drag; rådet visas efteråt.", modeFull: "Råd: visa",
       modeCheck: "Råd: kolla mitt drag", modeOff: "Råd: av",
       solving: "Löser tabellen för {spec}: {pct} %", computing: "Räknar ut fördelningen…",
       mean: "medel", expected: "förväntad slutsumma {ev}", player: "Spelare"},
};
const KEY = "yatzy.game";
const $ = (id) => document.getElementById(id);
let lang = localStorage.getItem("yatzy.lang") || "en";
let mode = localStorage.getItem("yatzy.mode") || "full";
let view = null;           // the server's answer for the current game
let entry = [];            // dice tapped in
let marked = new Set();    // indexes of dice marked to keep
let verdict = null;
let showAll = false;
let busy = false;

function t(key, args = {}) {
  return (T[lang][key] || T.en[key]).replace(/\{(\w+)\}/g, (_, k) => args[k]);
}
function el(tag, props = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "dataset") Object.assign(e.dataset, v); else if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v); else e[k] = v;
  }
  e.append(...kids);
  return e;
}
function svg(tag, attrs = {}) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}
function showError(text) { $("error").textContent = text || ""; }

async function api(path, body, query) {
  for (;;) {
    const url = path + (query ? "?" + new URLSearchParams(query) : "");
    const res = await fetch(url, body === undefined ? {} :
      {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
    const data = await res.json();
    if (res.status === 503 && data.progress) {
      const p = data.progress;
      $("status").textContent = t("solving", {spec: path, pct: p.total ? Math.floor(100 * p.done / p.total) : 0});
      await new Promise((r) => setTimeout(r, 700));
      continue;
    }
    if (!res.ok) throw new Error(data.error || res.statusText);
    return data;
  }
}

async function post(path, body) {
  if (busy) return;
  busy = true;
  try {
    const data = await api(path, body);
    showError("");
    setView(data);
  } catch (e) { showError(e.message); } finally { busy = false; }
  autoplay();
}
function move(text) {
  if (view && mode === "check" && !view.needs_roll) verdict = "pending";
  return post("/api/game/move", {game: view.game, move: text});
}

function setView(data) {
  if (verdict === "pending" || data.verdict) verdict = data.verdict || null;
  if (!data.verdict) verdict = verdict && view && data.game.played > view.game.played ? verdict : null;
  view = data;
  entry = []; marked = new Set(); showAll = false;
  localStorage.setItem(KEY, JSON.stringify(data.game));
  $("dist").replaceChildren();
  render();
}

function autoplay() {
  if (!view || view.is_over || view.players[view.turn_player].kind === "human") return;
  setTimeout(() => { if (!busy) move("auto"); }, 350);
}

// ------------------------------------------------------------------ drawing
function actionText(a) {
  if (a.action === "score") {
    const name = view.labels[lang].boxes[a.box] || a.box;
    return `${t("scoreWord")} ${name}` + (a.points === null || a.points === undefined ? "" : ` (${a.points})`);
  }
  return a.dice.length ? `${t("keepWord")} ${a.dice.join(" ")}` : t("rerollAll");
}

function render() {
  document.documentElement.lang = lang === "nb" ? "no" : lang;
  for (const e of document.querySelectorAll("[data-t]")) e.textContent = t(e.dataset.t);
  $("mode").replaceChildren(...["full", "check", "off"].map((m) =>
    el("option", {value: m, selected: m === mode, textContent: t("mode" + m[0].toUpperCase() + m.slice(1))})));
  $("lang").value = lang;
  if (!view) return;
  $("undo").disabled = !view.can_undo;
  $("redo").disabled = !view.can_redo;
  renderStatus(); renderDice(); renderAdvice(); renderCard();
}

function renderStatus() {
  const p = view.players[view.turn_player];
  let text;
  if (view.is_over) {
    text = t("over", {text: view.ranking.map((r) => `${r.place}. ${view.players[r.seat].name} ${r.score}`).join(", ")});
  } else {
    text = t("turn", {name: p.name});
    if (view.needs_roll) text += " — " + t("typeDice", {n: view.dice_count - (view.kept ? view.kept.length : 0)});
    else text += " — " + t("left", {n: view.rerolls});
    if (view.expected !== null && view.needs_roll && !view.dice) text += " — " + t("expected", {ev: view.expected.toFixed(1)});
  }
  $("status").textContent = text;
}

function renderDice() {
  const human = !view.is_over && view.players[view.turn_player].kind === "human";
  const rolling = human && view.needs_roll;
  const deciding = human && !view.needs_roll;
  $("entry").hidden = !rolling;
  $("decide").hidden = !deciding || view.rerolls === 0;
  const shown = rolling ? [...(view.kept || []), ...entry] : (view.dice || []);
  const dice = shown.map((d, i) => el("button", {
    class: "die" + (marked.has(i) ? " kept" : "") + (rolling && i < (view.kept || []).length ? " old" : ""),
    textContent: d, dataset: {index: i, face: d},
    onclick: () => {
      if (deciding && view.rerolls > 0) { marked.has(i) ? marked.delete(i) : marked.add(i); renderDice(); }
      else if (rolling && i >= (view.kept || []).length) { entry.splice(i - (view.kept || []).length, 1); renderDice(); }
    }}));
  $("dice").replaceChildren(...dice);
  const need = view.dice_count - (view.kept ? view.kept.length : 0);
  $("faces").replaceChildren(...Array.from({length: view.faces}, (_, k) => el("button", {
    class: "face", textContent: k + 1, dataset: {face: k + 1}, disabled: entry.length >= need,
    onclick: () => { entry.push(k + 1); renderDice(); if (entry.length === need) move("roll " + entry.join("")); }})));
  $("keep").textContent = marked.size ? t("keep") : t("rerollAll");
}

function renderAdvice() {
  const v = $("verdict");
  v.className = ""; v.textContent = "";
  if (verdict && verdict !== "pending") {
    const good = verdict.loss === 0;
    v.className = good ? "good" : "bad";
    v.textContent = good ? t("bestChoice") : t("cost", {loss: verdict.loss.toFixed(2), best: actionText(verdict.best)});
  }
  const list = $("advice");
  list.replaceChildren();
  $("more").hidden = true;
  const advice = view.advice;
  if (!advice || mode === "off") return;
  if (mode === "check") { list.replaceChildren(el("p", {textContent: t("hidden")})); return; }
  const shown = showAll ? advice : advice.slice(0, 6);
  $("more").hidden = showAll || advice.length <= 6;
  list.replaceChildren(...shown.map((a, i) => el("li", {dataset: {action: a.text}, onclick: () => move(a.text)},
    actionText(a), el("span", {class: "loss", textContent: i === 0 ? t("best") : a.loss === 0 ? t("tie") : "−" + a.loss.toFixed(2)}))));
}

function renderCard() {
  const labels = view.labels[lang];
  const now = view.is_over ? -1 : view.turn_player;
  const open = {};            // box -> points it takes now (for the player to move)
  for (const text of view.legal) {
    const m = /^score (\S+) \((\d+)\)$/.exec(text);
    if (m) open[m[1]] = m[2];
  }
  const best = view.advice && mode === "full" && view.advice[0].action === "score" ? view.advice[0].box : null;
  const head = el("tr", {}, el("th"), ...view.players.map((p, i) => el("th", {class: i === now ? "now" : "", textContent: p.name})));
  const rows = view.protokoll.map((row) => el("tr", {class: row.kind},
    el("td", {textContent: row.kind === "box" ? labels.boxes[row.key] : labels[row.key]}),
    ...row.cells.map((c, i) => {
      const can = row.kind === "box" && i === now && c === null && row.key in open;
      return el("td", {class: (i === now ? "now" : "") + (can ? " can" : "") + (can && row.key === best ? " best" : ""),
        textContent: c === null ? (can ? open[row.key] : "") : c, dataset: {box: row.key, seat: i},
        onclick: can ? () => move("score " + row.key) : null});
    })));
  $("protokoll").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
}

async function drawDistribution() {
  if (!view || view.is_over) return;
  const card = cardText(view.turn_player);
  $("dist").replaceChildren(el("p", {textContent: t("computing")}));
  let d;
  try { d = await api("/api/distribution", undefined, {rules: view.rules, card}); }
  catch (e) { $("dist").replaceChildren(); showError(e.message); return; }
  const pmf = Object.entries(d.pmf).map(([s, p]) => [+s, p]);
  const lo = d.percentiles["1"] ?? pmf[0][0], hi = d.percentiles["99"] ?? pmf[pmf.length - 1][0];
  const W = 320, H = 150, pad = 18, top = Math.max(...pmf.map(([, p]) => p));
  const x = (s) => pad + (W - 2 * pad) * (s - lo) / Math.max(hi - lo, 1);
  const g = svg("svg", {viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("distribution")});
  const bw = Math.max((W - 2 * pad) / Math.max(hi - lo + 1, 1), 0.5);
  for (const [s, p] of pmf) {
    if (s < lo || s > hi) continue;
    const h = (H - 40) * p / top;
    g.append(svg("rect", {class: "bar", x: x(s), y: H - 22 - h, width: bw, height: h}));
  }
  g.append(svg("line", {x1: x(d.mean), x2: x(d.mean), y1: 8, y2: H - 22, stroke: "#a4161a"}));
  const label = (s, text, y) => { const e = svg("text", {x: x(s), y, "text-anchor": "middle"}); e.textContent = text; g.append(e); };
  label(d.mean, `${t("mean")} ${d.mean.toFixed(1)}`, 8);
  for (const q of ["5", "50", "95"]) if (d.percentiles[q] !== undefined) label(d.percentiles[q], `${q}%: ${d.percentiles[q]}`, H - 6);
  $("dist").replaceChildren(g);
}

function cardText(seat) {
  const parts = [];
  for (const row of view.protokoll) if (row.kind === "box" && row.cells[seat] !== null) parts.push(`${row.key}=${row.cells[seat]}`);
  for (const row of view.protokoll) if ((row.key === "yahtzee_bonus" || row.key === "bank") && row.cells[seat]) parts.push(`${row.key}=${row.cells[seat]}`);
  return parts.join(",");
}

// ------------------------------------------------------------ the new game
let rulesInfo = null;
function renderNewGame() {
  const count = +$("players-count").value || 1;
  const old = [...document.querySelectorAll("#player-names input")].map((i) => i.value);
  $("player-names").replaceChildren(...Array.from({length: count}, (_, i) =>
    el("input", {id: "player-name-" + i, value: old[i] || `${t("player")} ${i + 1}`, "aria-label": "name"})));
}
function setupNewGame() {
  $("players-count").replaceChildren(...[1, 2, 3, 4, 5, 6].map((n) => el("option", {value: n, textContent: n})));
  $("players-count").value = 2;
  $("players-count").onchange = renderNewGame;
  $("rules-select").replaceChildren(...rulesInfo.presets.map((p) =>
    el("option", {value: p.name, textContent: p.name, title: p.description, selected: p.name === rulesInfo.default})));
  renderNewGame();
  $("start").onclick = () => {
    const players = [...document.querySelectorAll("#player-names input")].map((i) => i.value.trim() || t("player"));
    const rules = $("rules-spec").value.trim() || $("rules-select").value;
    $("new-game").hidden = true;
    verdict = null;
    post("/api/game/new", {rules, players});
  };
}

function exportGame() {
  if (!view) return;
  const blob = new Blob([JSON.stringify(view.game, null, 1)], {type: "application/json"});
  const a = el("a", {href: URL.createObjectURL(blob), download: "yatzy-game.json"});
  document.body.append(a); a.click(); a.remove();
}
async function importGame() {
  let text = $("import-text").value.trim();
  const file = $("import-file").files[0];
  if (file) text = await file.text();
  let game;
  try { game = JSON.parse(text); } catch (e) { showError("not a JSON document"); return; }
  $("import").hidden = true;
  verdict = null;
  post("/api/game/state", {game});
}

async function start() {
  $("lang").onchange = () => { lang = $("lang").value; localStorage.setItem("yatzy.lang", lang); renderNewGame(); render(); };
  $("mode").onchange = () => { mode = $("mode").value; localStorage.setItem("yatzy.mode", mode); render(); };
  $("new-game-button").onclick = () => { $("new-game").hidden = !$("new-game").hidden; };
  $("import-button").onclick = () => { $("import").hidden = !$("import").hidden; };
  $("import-ok").onclick = importGame;
  $("export").onclick = exportGame;
  $("undo").onclick = () => { verdict = null; post("/api/game/undo", {game: view.game}); };
  $("redo").onclick = () => { verdict = null; post("/api/game/redo", {game: view.game}); };
  $("roll").onclick = () => move("roll");
  $("dice-ok").onclick = () => move("roll " + $("dice-input").value);
  $("dice-input").onkeydown = (e) => { if (e.key === "Enter") $("dice-ok").click(); };
  $("keep").onclick = () => move(marked.size ? "keep " + [...marked].map((i) => view.dice[i]).join(" ") : "reroll all");
  $("more").onclick = () => { showAll = true; renderAdvice(); };
  $("dist-button").onclick = drawDistribution;
  render();
  try { rulesInfo = await api("/api/rules"); } catch (e) { showError(e.message); return; }
  setupNewGame();
  const saved = localStorage.getItem(KEY);
  if (saved) {
    try { await post("/api/game/state", {game: JSON.parse(saved)}); } catch (e) { showError(e.message); }
    if (view) return;
  }
  $("new-game").hidden = false;
}
document.addEventListener("DOMContentLoaded", start);
