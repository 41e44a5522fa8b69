// A game in and out of the page: export as a file, import a pasted or
// chosen file, a link that holds the game (?game=), and the game saved in
// this browser.
import {lang, t} from "./words.js";
import {$, el, params, showError, store, stored} from "./dom.js";
import {KEY, S, VIEW_KEY} from "./state.js";
import {openPanel, render, send} from "./game.js";

function b64url(text) {
  const bytes = new TextEncoder().encode(text);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
function fromB64url(text) {
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}
export function exportGame() {
  if (!S.view) return;
  const blob = new Blob([JSON.stringify(S.view.game, null, 1)], {type: "application/json"});
  const a = el("a", {href: URL.createObjectURL(blob), download: "yatzy-game.json"});
  document.body.append(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
export async function importGame() {
  let text = $("import-text").value.trim();
  const file = $("import-file").files[0];
  if (!text && file) text = await file.text();        // pasted text first, then the file
  let game;
  try { game = JSON.parse(text); } catch (e) { showError(t("err_json")); return; }
  S.verdict = null; S.keptSlots = null;
  if (await send("/api/game/state", {game}, {reset: true})) {
    $("import-text").value = ""; $("import-file").value = "";
    openPanel("import", false);
  }
}
export function shareGame() {
  if (!S.view) return;
  const url = new URL("/", location.href);
  url.searchParams.set("lang", lang);
  url.searchParams.set("game", b64url(JSON.stringify(S.view.game)));
  $("share-url").value = url.href;
  $("share-note").textContent = "";
  openPanel("share-box", true);
  $("share-url").select();
}
export async function copyShare() {
  const input = $("share-url");
  try { await navigator.clipboard.writeText(input.value); $("share-note").textContent = t("copied"); }
  catch (e) { input.select(); $("share-note").textContent = t("copyFailed"); }
}

export async function loadSaved() {
  const link = params.get("game");
  if (link) {
    let game = null;
    try { game = JSON.parse(fromB64url(link)); } catch (e) { showError(t("err_link")); }
    const clean = new URL(location.href);
    clean.searchParams.delete("game");
    history.replaceState(null, "", clean.pathname + clean.search);
    if (game && await send("/api/game/state", {game}, {reset: true})) return true;
  }
  const saved = stored(KEY, null);
  if (!saved) return false;
  let game;
  try { game = JSON.parse(saved); } catch (e) { store(KEY, null); return false; }
  const ok = await send("/api/game/state", {game}, {reset: true, onError: () => { store(KEY, null); store(VIEW_KEY, null); S.view = null; render(); }});
  return ok;
}

