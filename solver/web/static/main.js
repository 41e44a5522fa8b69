// The yatzy advisor page: wires the buttons and keys to the modules by job
// (words, api, game, card, chart, newgame, links, share, practice), hands
// the game view its parts and starts.  Loaded as the page's one module
// script; the modules share no globals: the game view's state is state.js's
// S, the language words.js's.
import {lang, setLang} from "./words.js";
import {$, params, store, stored} from "./dom.js";
import {KEY, S, VIEW_KEY} from "./state.js";
import {api} from "./api.js";
import {addFace, canRedo, canUndo, closeEnd, hasHumans, humanToMove, keepMarked, move, openPanel, plug, render, send, showEnd, tapDie} from "./game.js";
import {renderCard, renderTotals} from "./card.js";
import {renderPad} from "./scorepad.js";
import {drawDistribution} from "./chart.js";
import {renderNewGame, renderRulesNote, sameAgain, setupNewGame, startFromPanel} from "./newgame.js";
import {copyShare, exportGame, importGame, loadSaved, shareGame} from "./links.js";
import {dropTable, joinTable, renderTable, setupTable, showKept, tableHint, tableSend, tableUndo} from "./share.js";
import {setupPractice} from "./practice.js";
import {setupConfirm} from "./confirm.js";
import {setupInstall} from "./install.js";

// the game view's parts drawn and done by the modules that import it (game.js's plug)
plug({renderCard, renderTotals, renderPad, renderTable, tableHint, tableSend, dropTable});

function onKey(e) {
  const tag = (e.target && e.target.tagName) || "";
  if (["INPUT", "TEXTAREA", "SELECT"].includes(tag) || e.altKey || e.metaKey) return;
  if (e.ctrlKey) {
    if (e.key === "z" && !$("undo").disabled) { e.preventDefault(); $("undo").click(); }
    else if (e.key === "y" && !$("redo").disabled) { e.preventDefault(); $("redo").click(); }
    return;
  }
  if (!humanToMove()) return;
  const d = +e.key;
  if (S.view.needs_roll) {
    if (d >= 1 && d <= S.view.faces) { e.preventDefault(); addFace(d); }
    else if (e.key === "Backspace" && S.entry.length) { e.preventDefault(); S.entry.pop(); render(); }
  } else if (d >= 1 && d <= S.view.dice_count && S.view.rerolls) { e.preventDefault(); tapDie(d - 1); }
}

async function start() {
  $("lang").onchange = () => { setLang($("lang").value); renderNewGame(); render(); if (S.view && S.view.is_over && $("end").open) showEnd(); };
  $("mode").onchange = () => {
    S.mode = $("mode").value; store("yatzy.mode", S.mode); if (S.mode !== "check") S.verdict = null; render();
    if (S.view && S.view.is_over) showEnd();      // the end review as advice now says: shown, or not
  };
  $("new-game-button").onclick = () => openPanel("new-game", $("new-game").hidden);
  $("cancel-new").onclick = () => openPanel("new-game", false);
  $("import-button").onclick = () => { $("more-menu").open = false; openPanel("import", $("import").hidden); };
  $("cancel-import").onclick = () => openPanel("import", false);
  $("import-ok").onclick = importGame;
  $("export").onclick = () => { $("more-menu").open = false; exportGame(); };
  $("share").onclick = () => { $("more-menu").open = false; shareGame(); };
  $("share-copy").onclick = copyShare;
  $("share-close").onclick = () => openPanel("share-box", false);
  $("undo").onclick = () => { if (!canUndo()) return; S.verdict = null; S.keptSlots = null;
    if (S.table) { tableUndo(); return; }
    send("/api/game/undo", {game: S.view.game, to: hasHumans() ? "human" : "move"}); };
  $("redo").onclick = () => { if (!canRedo()) return; S.verdict = null; S.keptSlots = null;
    if (S.table) { tableSend("redo"); return; }
    send("/api/game/redo", {game: S.view.game, to: hasHumans() ? "human" : "move"}); };
  $("roll").onclick = () => { if (humanToMove() && S.view.needs_roll && !S.entry.length) move("roll"); };
  $("back").onclick = () => { if (S.entry.length) { S.entry.pop(); render(); } };
  $("keep").onclick = keepMarked;
  $("all-options").onclick = () => { S.showAll = true; render(); };
  $("dist-button").onclick = drawDistribution;
  $("start").onclick = startFromPanel;
  $("rules-select").onchange = renderRulesNote;
  $("rules-spec").oninput = renderRulesNote;
  $("players-count").onchange = renderNewGame;
  $("again").onclick = sameAgain;
  $("end-new").onclick = () => { closeEnd(); openPanel("new-game", true); };
  $("end-close").onclick = closeEnd;
  document.addEventListener("keydown", onKey);
  window.addEventListener("storage", (e) => {       // another tab moved in this game
    if (e.key !== KEY || !e.newValue || !S.view || S.table) return;
    if (e.newValue === JSON.stringify(S.view.game)) return;
    try { send("/api/game/state", {game: JSON.parse(e.newValue)}, {reset: true}); } catch (err) { /* not ours */ }
  });
  setupTable();
  setupConfirm();          // a 0 in a box is confirmed first (confirm.js)
  setupInstall();          // "Add to home screen" in the More menu (install.js)
  const cached = params.get("table") ? null : stored(VIEW_KEY, null);   // shown until the server answers
  if (cached) { try { S.view = JSON.parse(cached); if (!S.view.labels || !S.view.labels[lang]) S.view = null; } catch (e) { S.view = null; } }
  if (!params.get("table") || !showKept(params.get("table"))) render();
  if ("serviceWorker" in navigator && window.isSecureContext && stored("yatzy.sw", "on") !== "off") {
    navigator.serviceWorker.register("/sw.js").catch(() => {});
  }
  S.rulesInfo = await api("/api/rules");
  setupNewGame();
  if (params.get("table") && await joinTable(params.get("table"))) return;
  if (!(await loadSaved())) { S.view = null; render(); openPanel("new-game", true, false); }
}
start();
setupPractice();        // after start's first steps, as the page was before

