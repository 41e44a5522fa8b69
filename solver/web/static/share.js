// Shared tables: one game kept by the server (/api/table/...), played and
// watched from every phone at the table.  The page holds the table's code,
// its change count (every move is sent "after" it: a phone that is behind
// gets 409 and the current state), the seat this phone claimed (its token
// kept in localStorage per table) and one EventSource that brings every
// change; the browser reconnects a dropped stream and the first event after
// it is the current state, so a phone that was away catches up at once.
// The coach's advice is fetched only on the phone whose seat is to move and
// only when its player asks (the "Ask the coach" toggle).  The table itself
// is state.js's S.table.
import {locale, t} from "./words.js";
import {$, el, showError, store, stored} from "./dom.js";
import {S, isHuman, mayMove, myTurn} from "./state.js";
import {api, errorText, Superseded} from "./api.js";
import {actionText, begin, closeEnd, openPanel, playerName, render, schedule, setView} from "./game.js";
import {loadSaved} from "./links.js";

let source = null;         // the EventSource of the table's changes
let linkUp = false;        // whether the stream is open
let reopen = null;         // the timer that opens a stream the browser gave up on
let picking = false;       // the seat picks are shown again ("Change")
let coachOn = stored("yatzy.coach", "off") === "on";
let asked = -1;            // the change count the coach's advice was fetched for
let following = null;      // the next table this phone is moving on to

const KEPT = "yatzy.tableState";   // the last state of the table this phone was at (a reload offline shows it)

function tableUrl(kind) { return `/api/table/${S.table.code}` + (kind ? "/" + kind : ""); }
function mineOf(code) {
  try { const m = JSON.parse(stored("yatzy.table." + code, "{}")); return m && typeof m === "object" ? m : {}; }
  catch (e) { return {}; }
}
function saveMine() {
  store("yatzy.table." + S.table.code, JSON.stringify({seat: S.table.seat, tokens: S.table.tokens, admin: S.table.admin}));
}
// The token this phone acts with: its seat's, else the creator's (the server checks what it may do)
function token() { return (typeof S.table.seat === "number" ? S.table.tokens[S.table.seat] : undefined) || S.table.admin || undefined; }

// ------------------------------------------------------------------ joining
async function enterTable(state, mine = {}) {
  if (source) source.close();
  S.table = {code: state.code, short: state.short || null, moves: -1, claimed: state.claimed, who: state.who_moves, url: state.url || null,
           seat: mine.seat ?? null, tokens: mine.tokens || {}, admin: mine.admin || null};
  saveMine();
  const url = new URL(location.href);
  url.searchParams.delete("game");
  url.searchParams.set("table", S.table.code);
  history.replaceState(null, "", url.pathname + url.search);
  S.verdict = null; S.keptSlots = null;
  closeEnd();
  takeState(state);
  listen();
}
// The table as this phone last saw it, shown with its controls off while
// the server is away (a reload without it); joinTable catches up once it answers.
export function showKept(code) {
  let s;
  try { s = JSON.parse(stored(KEPT, "null")); } catch (e) { return false; }
  if (!s || !s.view || (s.code !== code && s.short !== code)) return false;
  const mine = mineOf(s.code);
  S.table = {code: s.code, short: s.short || null, moves: -1, claimed: s.claimed, who: s.who_moves, url: s.url || null,
           seat: mine.seat ?? null, tokens: mine.tokens || {}, admin: mine.admin || null,
           proposal: s.proposal || null, last: (s.session && s.session.last) || null,
           undoSeat: s.session ? s.session.undo_seat : undefined, redoSeat: s.session ? s.session.redo_seat : undefined};
  S.view = {...s.view, game: s.game, advice: null, family: s.family, history: s.history};
  S.live = false;
  render();
  return true;
}
export async function joinTable(code) {
  let state;
  try { state = await api(`/api/table/${encodeURIComponent(code)}`); }
  catch (e) { showError(e.status === 404 ? t("noTable") : errorText(e)); return false; }
  await enterTable(state, mineOf(state.code));
  return true;
}
// This phone leaves the table (the table stays on the server).
export function dropTable() {
  if (source) source.close();
  source = null; clearTimeout(reopen);
  S.table = null; linkUp = false; picking = false;
  const url = new URL(location.href);
  url.searchParams.delete("table");
  history.replaceState(null, "", url.pathname + url.search);
}
function leaveTable() {
  if (!S.table) return;
  dropTable();
  S.view = null;
  openPanel("table-box", false);
  showError("");
  loadSaved().then((ok) => { if (!ok) { S.view = null; render(); openPanel("new-game", true, false); } });
}

// The table's state as it arrives (an answer, a 409, an event): taken when
// it is not older than the one shown.
function takeState(s) {
  if (!S.table || !s || s.code !== S.table.code || s.moves < S.table.moves) return;
  if (s.next && s.next !== following) { following = s.next; followTable(s.next); return; }
  const same = s.moves === S.table.moves && S.view;
  if (same && String(s.claimed) === String(S.table.claimed) && s.who_moves === S.table.who
      && JSON.stringify(s.proposal || null) === JSON.stringify(S.table.proposal)) return;  // seen
  S.table.claimed = s.claimed; S.table.who = s.who_moves;
  S.table.proposal = s.proposal || null; S.table.last = (s.session && s.session.last) || null;
  if (typeof S.table.seat === "number" && !(S.table.seat in S.table.tokens)) S.table.seat = null;
  S.table.undoSeat = s.session ? s.session.undo_seat : undefined;
  S.table.redoSeat = s.session ? s.session.redo_seat : undefined;
  store(KEPT, JSON.stringify(s));
  if (same) { render(); return; }
  const wasMine = myTurn() && S.live;
  if (S.table.moves >= 0 && s.moves > S.table.moves) showError("");   // a refusal is old news once the table moved on
  S.table.moves = s.moves;
  // a move on another phone made it this phone's turn: the turn comes into view and takes the focus
  if (!s.view.is_over && s.view.turn_player === S.table.seat && !wasMine) S.follow = "mine";
  setView({...s.view, game: s.game, advice: null, family: s.family, history: s.history});
  askCoach();
}

function listen() {
  if (source) source.close();
  clearTimeout(reopen);
  const mine = source = new EventSource(tableUrl("events"));
  mine.addEventListener("state", (e) => {
    if (mine !== source) return;
    if (!linkUp) { linkUp = true; render(); }
    try { takeState(JSON.parse(e.data)); } catch (err) { /* a broken event: the next one mends it */ }
  });
  mine.addEventListener("deleted", () => { mine.close(); showError(t("tableGone")); linkUp = false; render(); });
  mine.onerror = () => {
    if (mine !== source) return;
    linkUp = false; render();
    // the browser retries a dropped connection by itself; one it gave up on
    // (an answer other than the stream) is opened again here
    if (mine.readyState === EventSource.CLOSED) reopen = setTimeout(listen, 2000);
  };
}

// ------------------------------------------------------------------ moving
// A move, undo or redo of the table, sent after the change count shown.
export async function tableSend(kind, extra = {}, opts = {}) {
  if (!S.table || !S.view) return false;
  const mine = begin(opts);
  try {
    const data = await api(tableUrl(kind), {...extra, after: S.table.moves, token: token()}, undefined, mine);
    showError("");
    takeState(data);
    return true;
  } catch (e) {
    if (e instanceof Superseded) return false;
    if (e.status === 409 && e.data && e.data.state) {
      takeState(e.data.state);
      if (!opts.auto) showError(t("stale"));      // a computer's move made elsewhere first is no news
    } else if (e.status === 403) {
      showError(refusal(kind, e));
    } else {
      showError(errorText(e));
      if (opts.auto) S.autoFailed = true;
    }
    return false;
  } finally {
    if (S.inflight === mine) { S.inflight = 0; render(); schedule(); }
  }
}
// A refusal in the page's words, naming the player whose right it is: the
// server's name where it gives one, else the seat whose move an undo takes
// back, else the player to move.
function refusal(kind, e) {
  const mover = kind === "undo" ? S.table.undoSeat : kind === "redo" ? S.table.redoSeat : null;
  const seat = typeof mover === "number" ? mover : S.view.turn_player;
  const name = (e.data && typeof e.data.name === "string" && e.data.name) || playerName(seat);
  return kind === "undo" || kind === "redo" ? t("notYoursUndo", {name}) : t("notYours", {name});
}
// back to before a person's last move, the computer's moves after it too (one
// change: the server's session takes them back together, if this phone may)
export async function tableUndo() { if (S.view && S.view.can_undo) await tableSend("undo"); }

// ------------------------------------------------------------------ seats, the coach
async function claimSeat(seat) {
  if (!S.table) return;
  if (seat === "watch") { S.table.seat = "watch"; picking = false; saveMine(); S.view && (S.view.advice = null); render(); return; }
  try {
    const got = await api(tableUrl("claim"), {seat, token: S.table.tokens[seat]});
    S.table.tokens[seat] = got.token;
    S.table.seat = seat;
    picking = false;
    showError("");
  } catch (e) {
    showError(e.status === 409 ? t("seatTaken") : errorText(e));
  }
  saveMine();
  if (S.view) S.view.advice = null;
  asked = -1;
  if (myTurn()) S.follow = "mine";          // this phone's turn now: its banner and roll button come into view
  render();
  askCoach();
}
function toggleCoach() {
  coachOn = !coachOn;
  store("yatzy.coach", coachOn ? "on" : "off");
  if (!coachOn && S.view && S.table) S.view.advice = null;
  asked = -1;
  render();
  askCoach();
}
// The advice for this phone's player, fetched when they asked for it and it
// is their decision (the table's own view holds none).
async function askCoach() {
  if (!S.table || !coachOn || S.mode === "off" || !myTurn() || S.view.needs_roll || !isHuman(S.view.turn_player)) return;
  const at = S.table.moves;
  if (asked === at) return;
  asked = at;
  let data;
  try { data = await api("/api/game/state", {game: S.view.game}); } catch (e) { asked = -1; showError(errorText(e)); return; }
  if (!S.table || S.table.moves !== at || !myTurn()) return;
  S.view.advice = data.advice;
  render();
}

// ------------------------------------------------------------------ sharing
function openTableBox() {
  if (!S.view && !S.table) return;
  $("table-make").hidden = !!S.table;
  $("table-made").hidden = !S.table;
  if (S.table) showLink();
  openPanel("table-box", true);
}
async function shareTable() {
  if (!S.view || S.table) return;
  const who = $("who-moves").value === "seat" ? "seat" : "any";
  let state;
  try { state = await api("/api/table", {game: S.view.game, who_moves: who}); }
  catch (e) { showError(errorText(e)); return; }
  await enterTable(state, {admin: state.admin});
  $("table-make").hidden = true;
  $("table-made").hidden = false;
  showLink();
}
// A new game at the table: the table's next one, with the same way of
// moving, proposed to every phone; it starts when the table's creator or
// every seated player accepts (the creator's own proposal at once), and
// the phones then move on to it, their seats kept.
export async function newTable(players, rules) {
  const old = S.table;
  let state;
  try { state = await api(tableUrl("next"), {players, rules, who_moves: old.who, token: token()}); }
  catch (e) { showError(e.status === 403 ? t("notYours", {name: playerName(S.view.turn_player)}) : errorText(e)); return false; }
  if (!state.next_code) { takeState(state); showError(t("proposalSent")); return true; }
  following = state.next_code;
  await followTable(state.next_code);
  return true;
}
async function acceptNext() {
  if (!S.table || !S.table.proposal) return;
  let state;
  // the proposal shown: if another has replaced it meanwhile, the server says so (409)
  try { state = await api(tableUrl("next/accept"), {token: token(), id: S.table.proposal.id}); }
  catch (e) { showError(errorText(e)); return; }
  takeState(state);
}
// The seat a phone keeps at the next table (the server copies the claims
// when the players are as many), and the creator's token (the same there).
function carried(old, state) {
  const kept = state.claimed.length ? old.tokens : {};
  return {seat: old.seat === "watch" || old.seat in kept ? old.seat : null, tokens: kept, admin: old.admin};
}
async function followTable(code) {
  const old = S.table;
  let state;
  try { state = await api(`/api/table/${encodeURIComponent(code)}`); }
  catch (e) { following = null; showError(errorText(e)); return; }
  if (S.table !== old) return;
  await enterTable(state, carried(old, state));
}
function showLink() {
  const url = S.table.url || new URL("/?S.table=" + S.table.code, location.href).href;
  $("table-url").value = url;
  const qr = $("table-qr");
  if (qr.dataset.code !== S.table.code) { qr.src = tableUrl("qr.svg"); qr.dataset.code = S.table.code; }
  $("table-note").textContent = "";
  let short = $("table-short");
  if (!short) { short = el("p", {id: "table-short"}); $("table-qr").before(short); }
  short.replaceChildren(...(S.table.short ? [t("shortCode") + " ", el("strong", {class: "short-code", text: S.table.short}),
    el("br"), el("span", {class: "note", text: t("shortCodeHint")})] : []));
}
async function copyTableLink() {
  const input = $("table-url");
  try { await navigator.clipboard.writeText(input.value); $("table-note").textContent = t("copied"); }
  catch (e) { input.select(); $("table-note").textContent = t("copyFailed"); }
}

// ------------------------------------------------------------------ drawing
export function renderTable() {
  const bar = $("seat-bar");
  document.body.dataset.table = S.table ? S.table.code : "";
  document.body.dataset.link = S.table ? (linkUp ? "up" : "down") : "";
  $("table-button").disabled = !S.view && !S.table;
  $("table-qr").alt = t("qrAlt");
  renderJoin();
  bar.hidden = !S.table || !S.view;
  if (bar.hidden) return;
  renderNews();
  $("link-state").textContent = linkUp ? t("tableLive") : t("tableLost");
  $("link-state").className = linkUp ? "up" : "down";
  $("who-text").textContent = S.table.who === "seat" ? t("whoSeat") : t("whoAny");
  const chosen = S.table.seat !== null && !picking;
  $("seat-picks").hidden = chosen;
  $("seat-mine").hidden = !chosen;
  if (!chosen) {
    $("seat-choices").replaceChildren(...S.view.players.map((p, i) => {
      const mine = i in S.table.tokens, taken = S.table.claimed.includes(i) && !mine;
      return p.kind !== "human" ? "" : el("button", {class: "seat-pick seat" + (i % 6), dataset: {seat: i},
        "aria-pressed": String(S.table.seat === i), disabled: taken, onclick: () => claimSeat(i)},
        taken ? t("taken", {name: p.name}) : t("iAm", {name: p.name}));
    }), el("button", {class: "seat-pick", dataset: {seat: "watch"}, "aria-pressed": String(S.table.seat === "watch"),
      onclick: () => claimSeat("watch")}, t("watch")));
  } else {
    $("seat-name").textContent = S.table.seat === "watch" ? t("phoneWatch") : t("phoneOf", {name: playerName(S.table.seat)});
    $("coach").hidden = S.table.seat === "watch" || S.mode === "off";
    $("coach").setAttribute("aria-pressed", String(coachOn));
  }
}
// the proposed next game and the last move, in the seat bar
function renderNews() {
  const news = $("table-news") || el("div", {id: "table-news", "aria-live": "polite"});
  // over the end's dialog too, at its top (under its heading, above the reviews) where a phone sees it
  const home = $("end").open ? $("end") : $("seat-bar");
  if (home === $("end") && news.previousElementSibling !== $("end-h")) $("end-h").after(news);
  else if (home !== $("end") && news.parentElement !== home) home.append(news);
  const kids = [];
  // the last move made on another phone (this phone's own is no news), mid-sentence
  if (S.table.last && S.view.players[S.table.last.seat] && S.table.last.seat !== S.table.seat) {
    const said = S.table.last.text.startsWith("roll ") ? S.table.last.text.slice(5) : actionText(parseAction(S.table.last.text));
    const move = said.charAt(0).toLocaleLowerCase(locale()) + said.slice(1);
    kids.push(el("p", {class: "last-move", text: t("lastMove", {name: S.table.last.name, move})}));
  }
  const p = S.table.proposal;
  if (p) {
    const name = p.by === "admin" || p.by === null ? "" : playerName(p.by);
    const mine = typeof S.table.seat === "number" && S.table.seat in S.table.tokens;
    const agreed = mine && p.agreed.includes(S.table.seat);
    kids.push(el("p", {class: "proposal", text: t("proposal", {name: name || "—", players: p.players.join(", ")})}));
    if ((mine && !agreed) || S.table.admin) kids.push(el("button", {class: "primary", onclick: acceptNext}, t("proposalAccept")));
  }
  news.replaceChildren(...kids);
}
// "score full_house (28)", "keep 5 6", "reroll all" as actionText (game.js) reads them
function parseAction(text) {
  const m = /^score (\S+?)(?:@\d+)? \((\d+)\)$/.exec(text);
  if (m) return {action: "score", box: m[1], points: Number(m[2])};
  return {action: "keep", dice: text.startsWith("keep ") ? text.slice(5).split(" ") : []};
}
// the hint under the dice when another phone is to move
export function tableHint() {
  if (!S.table || !S.view || S.view.is_over || mayMove() || !isHuman(S.view.turn_player)) return "";
  if (S.table.seat === null) return t("pickSeatFirst");     // not the mover's phone yet: it may be theirs
  return S.table.seat === "watch" ? t("watching") : t("waitPhone", {name: playerName(S.view.turn_player)});
}

// ------------------------------------------------------------------ joining by code
// A table's short code (6 letters, read aloud and typed): the server answers
// its long code (rate-limited, so a stranger cannot try codes for long).
async function joinByCode() {
  const typed = $("join-code").value.toUpperCase().replace(/[^A-Z]/g, "");
  $("join-note").textContent = "";
  if (typed.length !== 6) { $("join-note").textContent = t("joinBad"); return; }
  let got;
  try { got = await api(`/api/join/${typed}`); }
  catch (e) {
    $("join-note").textContent = e.status === 404 ? t("joinNone") : e.status === 429 ? t("joinSlow") : e.status === 400 ? t("joinBad") : errorText(e);
    return;
  }
  openPanel("new-game", false);
  $("join-code").value = "";
  await joinTable(got.code);
}
function joinForm() {
  const form = el("form", {id: "join", "aria-labelledby": "join-h"},
    el("p", {id: "join-h"}),
    el("div", {class: "row"}, el("label", {for: "join-code", id: "join-label", class: "sr"}),
      el("input", {id: "join-code", autocomplete: "off", autocapitalize: "characters", spellcheck: "false", maxlength: "9",
                   inputmode: "text", size: "8"}),
      el("button", {id: "join-ok", type: "submit"})),
    el("p", {id: "join-note", role: "status"}));
  form.addEventListener("submit", (e) => { e.preventDefault(); joinByCode(); });
  $("new-game-h").after(form);           // first: a phone that came to join sees it at once
}
export function renderJoin() {
  if (!$("join")) return;
  $("join-h").textContent = t("joinTitle");
  $("join-label").textContent = t("joinLabel");
  $("join-ok").textContent = t("joinButton");
}

export function setupTable() {
  joinForm();
  $("table-button").onclick = () => $("table-box").hidden ? openTableBox() : openPanel("table-box", false);
  $("table-make-ok").onclick = shareTable;
  $("table-make-cancel").onclick = () => openPanel("table-box", false);
  $("table-copy").onclick = () => { if (S.table) copyTableLink(); };
  $("table-close").onclick = () => openPanel("table-box", false);
  $("seat-change").onclick = () => { if (S.table) { picking = true; render(); } };
  $("coach").onclick = () => { if (S.table) toggleCoach(); };
  $("table-show").onclick = () => { if (S.table) openTableBox(); };
  $("table-leave").onclick = leaveTable;
}

