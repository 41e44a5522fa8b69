// The New game panel: players, who plays each seat, the rules.
import {has, int, plain, t} from "./words.js";
import {$, el} from "./dom.js";
import {S} from "./state.js";
import {closeEnd, openPanel, send} from "./game.js";
import {newTable} from "./share.js";

function presetLabel(p) {
  const name = has("name_" + p.name) ? t("name_" + p.name) : p.name;
  return p.available ? name : t("unavailableName", {name});
}
export function renderNewGame() {
  if (!S.rulesInfo) return;
  const count = +$("players-count").value || 2;
  // a name the page filled in ("Player 1") follows the language; a typed one stays
  const old = [...document.querySelectorAll("#player-names .seat-row")].map((r) =>
    ({name: r.querySelector("input").value, kind: r.querySelector("select").value, auto: r.querySelector("input").dataset.auto}));
  const kinds = S.rulesInfo.kinds || ["human", "optimal"];
  $("player-names").replaceChildren(...Array.from({length: count}, (_, i) => {
    const was = old[i] && !old[i].auto ? old[i] : {name: t("playerN", {n: i + 1}), kind: old[i] ? old[i].kind : "human", auto: "1"};
    return el("div", {class: "seat-row"},
      el("label", {for: "player-name-" + i, class: "sr", text: t("nameOf", {n: i + 1})}),
      el("input", {id: "player-name-" + i, value: was.name, maxlength: 40, autocomplete: "off", dataset: was.auto ? {auto: "1"} : undefined,
                   oninput: (e) => { delete e.target.dataset.auto; }}),
      el("label", {for: "player-kind-" + i, class: "sr", text: t("kindOf", {n: i + 1})}),
      el("select", {id: "player-kind-" + i}, ...kinds.map((k) =>
        el("option", {value: k, selected: k === was.kind, text: has("kind_" + k) ? t("kind_" + k) : k}))));
  }));
  const sel = $("rules-select"), chosen = sel.value || S.rulesInfo.default;
  sel.replaceChildren(...S.rulesInfo.presets.map((p) =>
    el("option", {value: p.name, text: presetLabel(p), selected: p.name === chosen})));
  renderRulesNote();
}
// Why rules cannot be played here, with the missing table's size and time
function whyText(why) {
  const size = why.bytes ? t("sizeGiB", {n: plain(Math.max(0.1, Math.round(why.bytes / 2 ** 30 * 10) / 10))}) : "";
  const minutes = why.seconds ? why.seconds / 60 : 0;
  const time = !why.seconds ? "" : minutes < 1.5 ? t("timeSeconds", {n: int(Math.max(1, Math.round(why.seconds)))})
    : minutes < 90 ? t("timeMinutes", {n: int(Math.round(minutes))}) : t("timeHours", {n: plain(Math.round(minutes / 6) / 10)});
  return t("why_" + why.code, {cmd: why.command || "", size, time});
}
let checking = null, checked = {spec: null, why: undefined};     // the typed spec's answer (/api/rules?spec=)
export function renderRulesNote() {
  const spec = $("rules-spec").value.trim();
  if (spec) { renderSpecNote(spec); return; }
  const p = S.rulesInfo.presets.find((q) => q.name === $("rules-select").value);
  if (!p) { $("rules-note").textContent = ""; return; }
  const desc = has("preset_" + p.name) ? t("preset_" + p.name) : p.description;
  const why = p.unavailable ? " " + whyText(p.unavailable) : "";
  $("rules-note").textContent = desc + "." + why;
  $("rules-note").className = p.available ? "" : "bad";
  $("start").disabled = !p.available;
}
// A typed rules spec: Start waits for the server's word on it, and stays
// off for a spec it cannot play (a mistake, or a table it does not have).
function renderSpecNote(spec) {
  if (checked.spec === spec && checked.why !== undefined) {
    const why = checked.why;
    $("rules-note").textContent = why === null ? checked.text : why.code ? whyText(why) : why.text;
    $("rules-note").className = why === null ? "" : "bad";
    $("start").disabled = why !== null;
    return;
  }
  $("start").disabled = true;
  clearTimeout(checking);
  checking = setTimeout(() => checkSpec(spec), 250);
}
async function checkSpec(spec) {
  let why, text = "";
  try {
    const res = await fetch("/api/rules?" + new URLSearchParams({spec}));
    const data = await res.json();
    if (res.ok) { why = data.unavailable || null; text = data.description || spec; }
    else why = {text: t("err_input", {detail: data.error || spec})};
  } catch (e) {                                   // the server away: said, and asked again
    $("rules-note").textContent = t("serverDown");
    checking = setTimeout(() => checkSpec(spec), 2000);
    return;
  }
  checked = {spec, why, text};
  if ($("rules-spec").value.trim() === spec) renderRulesNote();
}
export function setupNewGame() {
  $("players-count").replaceChildren(...[1, 2, 3, 4, 5, 6].map((n) => el("option", {value: n, text: int(n)})));
  $("players-count").value = 2;
  $("rules-select").value = S.rulesInfo.default;
  renderNewGame();
}
async function startGame(players, rules) {
  S.verdict = null; S.keptSlots = null;
  closeEnd();
  if (S.table) {                                 // a new game at the table: a new table
    const made = await newTable(players, rules);
    if (made) openPanel("new-game", false);
    return made;
  }
  const ok = await send("/api/game/new", {rules, players}, {reset: true});
  if (ok) openPanel("new-game", false);        // on an error the panel stays open
  return ok;
}
export function startFromPanel() {
  const players = [...document.querySelectorAll("#player-names .seat-row")].map((r, i) => {
    const name = r.querySelector("input").value.trim().replace(/=/g, "-") || t("playerN", {n: i + 1});
    const kind = r.querySelector("select").value;
    return kind === "human" ? name : `${name}=${kind}`;
  });
  const rules = $("rules-spec").value.trim() || $("rules-select").value;
  return startGame(players, rules);
}
export function sameAgain() {
  if (!S.view) return;
  const players = S.view.players.map((p) => p.kind === "human" ? p.name : `${p.name}=${p.kind}`);
  return startGame(players, S.view.rules);
}

