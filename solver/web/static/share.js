// Shared tables: one game kept by the server (/api/table/...), played and
// watched from every phone at the table.  The page holds the table's code,
// its change count (every move is sent "after" it: a phone that is behind
// gets 409 and the current state), the seat this phone claimed (its token
// kept in localStorage per table) and one EventSource that brings every
// change; the browser reconnects a dropped stream and the first event after
// it is the current state, so a phone that was away catches up at once.
// The coach's advice is fetched only on the phone whose seat is to move and
// only when its player asks (the "Ask the coach" toggle).
// Loaded after app.js; it uses app.js's globals (view, render, api, t, ...).
"use strict";

Object.assign(T.en, {
  tableButton: "Share", tableTitle: "Share this game",
  tableIntro: "The game moves to this server: every phone that opens the link or scans the code plays it live.",
  whoMoves: "Who may move", who_any: "Any phone at the table", who_seat: "Only each player's own phone",
  shareStart: "Share", tableLink: "Link to the table", qrAlt: "QR code of the link to the table",
  tableLive: "Shared table", tableLost: "Shared table: reconnecting…",
  whoAny: "Any phone may move.", whoSeat: "Each player moves on their own phone.",
  thisPhone: "This phone is", iAm: "I am {name}", watch: "Just watch", taken: "{name} (taken)",
  phoneOf: "This phone: {name}", phoneWatch: "This phone watches.", changeSeat: "Change",
  coach: "Ask the coach", tableShow: "Link and code", leave: "Leave the table",
  stale: "Another phone moved first; this is the game now.",
  notYours: "Only {name}'s phone may move now.", waitPhone: "{name} moves on their own phone.",
  watching: "You are watching.", seatTaken: "That seat was taken on another phone.",
  noTable: "There is no such table (the link may be old, or the game was deleted).",
  tableGone: "This table was deleted.",
  proposal: "{name} proposes a new game: {players}.", proposalAccept: "Accept",
  proposalSent: "Proposed; it starts when the others accept.", lastMove: "Last: {name}, {move}",
});
Object.assign(T.nb, {
  tableButton: "Del", tableTitle: "Del dette spillet",
  tableIntro: "Spillet flyttes til denne serveren: hver telefon som åpner lenken eller skanner koden, spiller det direkte.",
  whoMoves: "Hvem kan gjøre trekk", who_any: "Hvilken som helst telefon ved bordet", who_seat: "Bare hver spillers egen telefon",
  shareStart: "Del", tableLink: "Lenke til bordet", qrAlt: "QR-kode med lenken til bordet",
  tableLive: "Delt bord", tableLost: "Delt bord: kobler til igjen …",
  whoAny: "Alle telefonene kan gjøre trekk.", whoSeat: "Hver spiller gjør trekk på sin egen telefon.",
  thisPhone: "Denne telefonen er", iAm: "Jeg er {name}", watch: "Bare se på", taken: "{name} (tatt)",
  phoneOf: "Denne telefonen: {name}", phoneWatch: "Denne telefonen ser på.", changeSeat: "Endre",
  coach: "Spør treneren", tableShow: "Lenke og kode", leave: "Forlat bordet",
  stale: "En annen telefon var først; slik står spillet nå.",
  notYours: "Bare telefonen til {name} kan gjøre trekk nå.", waitPhone: "{name} gjør trekket på sin egen telefon.",
  watching: "Du ser på.", seatTaken: "Den plassen ble tatt på en annen telefon.",
  noTable: "Det finnes ikke noe slikt bord (lenken kan være gammel, eller spillet er slettet).",
  tableGone: "Dette bordet er slettet.",
  proposal: "{name} foreslår et nytt spill: {players}.", proposalAccept: "Godta",
  proposalSent: "Foreslått; det starter når de andre godtar.", lastMove: "Sist: {name}, {move}",
});
Object.assign(T.sv, {
  tableButton: "Dela", tableTitle: "Dela det här spelet",
  tableIntro: "Spelet flyttas till den här servern: varje telefon som öppnar länken eller skannar koden spelar det direkt.",
  whoMoves: "Vem får göra drag", who_any: "Vilken telefon som helst vid bordet", who_seat: "Bara varje spelares egen telefon",
  shareStart: "Dela", tableLink: "Länk till bordet", qrAlt: "QR-kod med länken till bordet",
  tableLive: "Delat bord", tableLost: "Delat bord: ansluter igen …",
  whoAny: "Alla telefoner får göra drag.", whoSeat: "Varje spelare gör drag på sin egen telefon.",
  thisPhone: "Den här telefonen är", iAm: "Jag är {name}", watch: "Bara titta", taken: "{name} (tagen)",
  phoneOf: "Den här telefonen: {name}", phoneWatch: "Den här telefonen tittar på.", changeSeat: "Ändra",
  coach: "Fråga tränaren", tableShow: "Länk och kod", leave: "Lämna bordet",
  stale: "En annan telefon hann först; så här står spelet nu.",
  notYours: "Bara {name}s telefon får göra drag nu.", waitPhone: "{name} gör draget på sin egen telefon.",
  watching: "Du tittar på.", seatTaken: "Den platsen togs på en annan telefon.",
  noTable: "Det finns inget sådant bord (länken kan vara gammal, eller spelet raderat).",
  tableGone: "Det här bordet har raderats.",
  proposal: "{name} föreslår ett nytt spel: {players}.", proposalAccept: "Godta",
  proposalSent: "Föreslaget; det börjar när de andra godtar.", lastMove: "Senast: {name}, {move}",
});

let table = null;          // {code, moves, claimed, who, seat (null | number | "watch"), tokens, admin, url, proposal, last}
let source = null;         // the EventSource of the table's changes
let linkUp = false;        // whether the stream is open
let reopen = null;         // the timer that opens a stream the browser gave up on
let picking = false;       // the seat picks are shown again ("Change")
let coachOn = stored("yatzy.coach", "off") === "on";
let asked = -1;            // the change count the coach's advice was fetched for
let following = null;      // the next table this phone is moving on to

function tableUrl(kind) { return `/api/table/${table.code}` + (kind ? "/" + kind : ""); }
function mineOf(code) {
  try { const m = JSON.parse(stored("yatzy.table." + code, "{}")); return m && typeof m === "object" ? m : {}; }
  catch (e) { return {}; }
}
function saveMine() {
  store("yatzy.table." + table.code, JSON.stringify({seat: table.seat, tokens: table.tokens, admin: table.admin}));
}
// The token this phone acts with: its seat's, else the creator's (the server checks what it may do)
function token() { return (typeof table.seat === "number" ? table.tokens[table.seat] : undefined) || table.admin || undefined; }

// Whether this phone may act now (app.js asks before every move).
function mayMove() {
  if (!table) return true;
  if (table.seat === "watch") return false;
  if (table.who === "seat" && view && !view.is_over && isHuman(view.turn_player)) return table.seat === view.turn_player;
  return true;
}
function myTurn() { return !!table && !!view && !view.is_over && table.seat === view.turn_player; }

// ------------------------------------------------------------------ joining
async function enterTable(state, mine = {}) {
  if (source) source.close();
  table = {code: state.code, moves: -1, claimed: state.claimed, who: state.who_moves, url: state.url || null,
           seat: mine.seat ?? null, tokens: mine.tokens || {}, admin: mine.admin || null};
  saveMine();
  const url = new URL(location.href);
  url.searchParams.delete("game");
  url.searchParams.set("table", table.code);
  history.replaceState(null, "", url.pathname + url.search);
  verdict = null; keptSlots = null;
  closeEnd();
  takeState(state);
  listen();
}
async function joinTable(code) {
  let state;
  try { state = await api(`/api/table/${encodeURIComponent(code)}`); }
  catch (e) { showError(e.status === 404 ? t("noTable") : errorText(e)); return false; }
  await enterTable(state, mineOf(state.code));
  return true;
}
// This phone leaves the table (the table stays on the server).
function dropTable() {
  if (source) source.close();
  source = null; clearTimeout(reopen);
  table = null; linkUp = false; picking = false;
  const url = new URL(location.href);
  url.searchParams.delete("table");
  history.replaceState(null, "", url.pathname + url.search);
}
function leaveTable() {
  if (!table) return;
  dropTable();
  view = null;
  openPanel("table-box", false);
  showError("");
  loadSaved().then((ok) => { if (!ok) { view = null; render(); openPanel("new-game", true, false); } });
}

// The table's state as it arrives (an answer, a 409, an event): taken when
// it is not older than the one shown.
function takeState(s) {
  if (!table || !s || s.code !== table.code || s.moves < table.moves) return;
  if (s.next && s.next !== following) { following = s.next; followTable(s.next); return; }
  const same = s.moves === table.moves && view;
  if (same && String(s.claimed) === String(table.claimed) && s.who_moves === table.who
      && JSON.stringify(s.proposal || null) === JSON.stringify(table.proposal)) return;  // seen
  table.claimed = s.claimed; table.who = s.who_moves;
  table.proposal = s.proposal || null; table.last = (s.session && s.session.last) || null;
  if (typeof table.seat === "number" && !(table.seat in table.tokens)) table.seat = null;
  if (same) { render(); return; }
  table.moves = s.moves;
  setView({...s.view, game: s.game, advice: null});
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
async function tableSend(kind, extra = {}, opts = {}) {
  if (!table || !view) return false;
  cancelPending();
  if (!opts.auto) autoFailed = false;
  const mine = ++seq;
  inflight = mine;
  render();
  try {
    const data = await api(tableUrl(kind), {...extra, after: table.moves, token: token()}, undefined, mine);
    showError("");
    takeState(data);
    return true;
  } catch (e) {
    if (e instanceof Superseded) return false;
    if (e.status === 409 && e.data && e.data.state) {
      takeState(e.data.state);
      if (!opts.auto) showError(t("stale"));      // a computer's move made elsewhere first is no news
    } else if (e.status === 403) {
      showError(t("notYours", {name: playerName(view.turn_player)}));
    } else {
      showError(errorText(e));
      if (opts.auto) autoFailed = true;
    }
    return false;
  } finally {
    if (inflight === mine) { inflight = 0; render(); schedule(); }
  }
}
// back to before a person's last move, the computer's moves after it too (one
// change: the server's session takes them back together, if this phone may)
async function tableUndo() { if (view && view.can_undo) await tableSend("undo"); }

// ------------------------------------------------------------------ seats, the coach
async function claimSeat(seat) {
  if (!table) return;
  if (seat === "watch") { table.seat = "watch"; picking = false; saveMine(); view && (view.advice = null); render(); return; }
  try {
    const got = await api(tableUrl("claim"), {seat, token: table.tokens[seat]});
    table.tokens[seat] = got.token;
    table.seat = seat;
    picking = false;
    showError("");
  } catch (e) {
    showError(e.status === 409 ? t("seatTaken") : errorText(e));
  }
  saveMine();
  if (view) view.advice = null;
  asked = -1;
  render();
  askCoach();
}
function toggleCoach() {
  coachOn = !coachOn;
  store("yatzy.coach", coachOn ? "on" : "off");
  if (!coachOn && view && table) view.advice = null;
  asked = -1;
  render();
  askCoach();
}
// The advice for this phone's player, fetched when they asked for it and it
// is their decision (the table's own view holds none).
async function askCoach() {
  if (!table || !coachOn || mode === "off" || !myTurn() || view.needs_roll || !isHuman(view.turn_player)) return;
  const at = table.moves;
  if (asked === at) return;
  asked = at;
  let data;
  try { data = await api("/api/game/state", {game: view.game}); } catch (e) { asked = -1; showError(errorText(e)); return; }
  if (!table || table.moves !== at || !myTurn()) return;
  view.advice = data.advice;
  render();
}

// ------------------------------------------------------------------ sharing
function openTableBox() {
  if (!view && !table) return;
  $("table-make").hidden = !!table;
  $("table-made").hidden = !table;
  if (table) showLink();
  openPanel("table-box", true);
}
async function shareTable() {
  if (!view || table) return;
  const who = $("who-moves").value === "seat" ? "seat" : "any";
  let state;
  try { state = await api("/api/table", {game: view.game, who_moves: who}); }
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
async function newTable(players, rules) {
  const old = table;
  let state;
  try { state = await api(tableUrl("next"), {players, rules, who_moves: old.who, token: token()}); }
  catch (e) { showError(e.status === 403 ? t("notYours", {name: playerName(view.turn_player)}) : errorText(e)); return false; }
  if (!state.next_code) { takeState(state); showError(t("proposalSent")); return true; }
  following = state.next_code;
  await followTable(state.next_code);
  return true;
}
async function acceptNext() {
  if (!table || !table.proposal) return;
  let state;
  try { state = await api(tableUrl("next/accept"), {token: token()}); }
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
  const old = table;
  let state;
  try { state = await api(`/api/table/${encodeURIComponent(code)}`); }
  catch (e) { following = null; showError(errorText(e)); return; }
  if (table !== old) return;
  await enterTable(state, carried(old, state));
}
function showLink() {
  const url = table.url || new URL("/?table=" + table.code, location.href).href;
  $("table-url").value = url;
  const qr = $("table-qr");
  if (qr.dataset.code !== table.code) { qr.src = tableUrl("qr.svg"); qr.dataset.code = table.code; }
  $("table-note").textContent = "";
}
async function copyTableLink() {
  const input = $("table-url");
  try { await navigator.clipboard.writeText(input.value); $("table-note").textContent = t("copied"); }
  catch (e) { input.select(); $("table-note").textContent = t("copyFailed"); }
}

// ------------------------------------------------------------------ drawing
function renderTable() {
  const bar = $("seat-bar");
  document.body.dataset.table = table ? table.code : "";
  document.body.dataset.link = table ? (linkUp ? "up" : "down") : "";
  $("table-button").disabled = !view && !table;
  $("table-qr").alt = t("qrAlt");
  bar.hidden = !table || !view;
  if (bar.hidden) return;
  renderNews();
  $("link-state").textContent = linkUp ? t("tableLive") : t("tableLost");
  $("link-state").className = linkUp ? "up" : "down";
  $("who-text").textContent = table.who === "seat" ? t("whoSeat") : t("whoAny");
  const chosen = table.seat !== null && !picking;
  $("seat-picks").hidden = chosen;
  $("seat-mine").hidden = !chosen;
  if (!chosen) {
    $("seat-choices").replaceChildren(...view.players.map((p, i) => {
      const mine = i in table.tokens, taken = table.claimed.includes(i) && !mine;
      return p.kind !== "human" ? "" : el("button", {class: "seat-pick seat" + (i % 6), dataset: {seat: i},
        "aria-pressed": String(table.seat === i), disabled: taken, onclick: () => claimSeat(i)},
        taken ? t("taken", {name: p.name}) : t("iAm", {name: p.name}));
    }), el("button", {class: "seat-pick", dataset: {seat: "watch"}, "aria-pressed": String(table.seat === "watch"),
      onclick: () => claimSeat("watch")}, t("watch")));
  } else {
    $("seat-name").textContent = table.seat === "watch" ? t("phoneWatch") : t("phoneOf", {name: playerName(table.seat)});
    $("coach").hidden = table.seat === "watch" || mode === "off";
    $("coach").setAttribute("aria-pressed", String(coachOn));
  }
}
// the proposed next game and the last move, in the seat bar
function renderNews() {
  const news = $("table-news") || el("div", {id: "table-news", "aria-live": "polite"});
  const home = $("end").open ? $("end") : $("seat-bar");      // over the end's dialog too
  if (news.parentElement !== home) home.append(news);
  const kids = [];
  if (table.last && view.players[table.last.seat]) {
    const move = table.last.text.startsWith("roll ") ? table.last.text.slice(5) : actionText(parseAction(table.last.text));
    kids.push(el("p", {class: "last-move", text: t("lastMove", {name: table.last.name, move})}));
  }
  const p = table.proposal;
  if (p) {
    const name = p.by === "admin" ? "" : p.by === null ? "" : playerName(p.by);
    const mine = typeof table.seat === "number" && table.seat in table.tokens;
    const agreed = mine && p.agreed.includes(table.seat);
    kids.push(el("p", {class: "proposal", text: t("proposal", {name: name || "—", players: p.players.join(", ")})}));
    if ((mine && !agreed) || table.admin) kids.push(el("button", {class: "primary", onclick: acceptNext}, t("proposalAccept")));
  }
  news.replaceChildren(...kids);
}
// "score full_house (28)", "keep 5 6", "reroll all" as the actionText of app.js reads them
function parseAction(text) {
  const m = /^score (\S+?)(?:@\d+)? \((\d+)\)$/.exec(text);
  if (m) return {action: "score", box: m[1], points: Number(m[2])};
  return {action: "keep", dice: text.startsWith("keep ") ? text.slice(5).split(" ") : []};
}
// the hint under the dice when another phone is to move
function tableHint() {
  if (!table || !view || view.is_over || mayMove() || !isHuman(view.turn_player)) return "";
  return table.seat === "watch" ? t("watching") : t("waitPhone", {name: playerName(view.turn_player)});
}

function setupTable() {
  $("table-button").onclick = () => $("table-box").hidden ? openTableBox() : openPanel("table-box", false);
  $("table-make-ok").onclick = shareTable;
  $("table-make-cancel").onclick = () => openPanel("table-box", false);
  $("table-copy").onclick = () => { if (table) copyTableLink(); };
  $("table-close").onclick = () => openPanel("table-box", false);
  $("seat-change").onclick = () => { if (table) { picking = true; render(); } };
  $("coach").onclick = () => { if (table) toggleCoach(); };
  $("table-show").onclick = () => { if (table) openTableBox(); };
  $("table-leave").onclick = leaveTable;
}
