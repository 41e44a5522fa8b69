// The game view: the game lives in localStorage as the Game JSON and is
// posted with every move to the stateless server (/api/game/...); the
// server's last answer is kept too, so that a reload while the server is
// away still shows the game.  Every request carries a sequence number: an
// answer for a position the page has left is dropped.  A computer seat
// plays through one pending timer, cancelled by any person's action.  A
// game shared at the table (share.js) is kept by the server instead.
// Draws the turn, the dice, the advice and the end; the card and the
// totals are card.js's; opens and closes the panels (openPanel).
import {int, lang, locale, num, t} from "./words.js";
import {$, el, showError, store} from "./dom.js";
import {dieFace} from "./dice.js";
import {DELAY, KEY, S, VIEW_KEY, isHuman, mayMove, mayUndo, myTurn} from "./state.js";
import {api, errorText, Superseded} from "./api.js";
import {renderFamily} from "./family.js";
import {renderReview} from "./review.js";

// What other modules do for the game view: card.js draws the card and the
// totals, scorepad.js the pad, share.js the shared table (its seat bar, the
// hint of whose phone is to move, its moves, leaving it).  They import this
// module, so main.js hands them in (plug) rather than this module importing them.
const parts = {};
export function plug(more) { Object.assign(parts, more); }

export function playerName(seat) { return S.view.players[seat].name; }
function computerToMove() { return S.view && !S.view.is_over && !isHuman(S.view.turn_player); }
export function humanToMove() { return S.view && S.live && !S.view.is_over && isHuman(S.view.turn_player) && mayMove(); }
export function cellsOf(c) { return Array.isArray(c) ? c : [c]; }
export function cancelPending() { if (S.pending) { clearTimeout(S.pending); S.pending = null; } }

// A request starts: a pending computer move is cancelled, the page shows it
// waiting; its number (an answer to an older one is dropped).
export function begin(opts = {}) {
  cancelPending();
  if (!opts.auto) S.autoFailed = false;
  const mine = ++S.seq;
  S.inflight = mine;
  render();
  return mine;
}

// Send a game request; the answer becomes the view unless a newer action
// came first.  Returns whether it was taken.
export async function send(path, body, opts = {}) {
  if (S.table) parts.dropTable();                // a game of this phone's own (imported) leaves the table
  const mine = begin(opts);
  try {
    const data = await api(path, body, undefined, mine);
    if (mine !== S.seq) return false;
    showError("");
    setView(data, opts);
    return true;
  } catch (e) {
    if (e instanceof Superseded || mine !== S.seq) return false;
    showError(errorText(e));
    if (opts.auto) S.autoFailed = true;
    if (opts.onError) opts.onError(e);
    return false;
  } finally {
    if (S.inflight === mine) { S.inflight = 0; render(); schedule(); }
  }
}

export function move(text) {
  if (!S.view || S.inflight) return;
  // a verdict stays through its own player's rolls, until their next
  // decision or another person's move
  if (S.verdict && (S.verdict.seat !== S.view.turn_player || !text.startsWith("roll"))) S.verdict = null;
  const seat = S.view.turn_player;
  // the next turn comes into view (followTurn); in check mode the verdict on a keep too
  if (text.startsWith("score")) S.follow = "turn";
  else if (S.mode === "check" && !text.startsWith("roll")) S.follow = "verdict";
  // a keep after dice the server rolled rolls the rest at once (one tap, not two);
  // dice typed in from a real roll wait for the next roll to be typed in
  if (text === "roll") S.drawn = true;
  else if (text.startsWith("roll ")) S.drawn = false;
  const andRoll = S.drawn && (text.startsWith("keep") || text === "reroll all");
  const sent = S.table ? parts.tableSend("move", {move: text}) : send("/api/game/move", {game: S.view.game, move: text}, {by: seat});
  if (!andRoll) return sent;
  return sent.then((ok) => {
    if (ok && humanToMove() && S.view.needs_roll && S.view.turn_player === seat && !S.inflight) return move("roll");
    return ok;
  });
}

export function setView(data, opts = {}) {
  const turnChanged = !S.view || data.turn_player !== S.view.turn_player || data.game.played < S.view.game.played;
  if (data.verdict && S.mode === "check") {
    const v = data.verdict;
    S.verdict = {seat: v.seat, name: data.players[v.seat].name, loss: v.loss, best: v.best};
  }
  if (opts.reset) S.verdict = null;
  const prev = S.view;
  S.view = data;
  S.live = true;
  if (!prev || prev.game.played !== data.game.played || JSON.stringify(prev.game.moves) !== JSON.stringify(data.game.moves)) {
    S.entry = []; S.marked = keptMarks(prev, data); S.showAll = false;
  }
  if (turnChanged) $("dist").replaceChildren();
  if (!S.table) {                                // a shared table is kept by the server
    store(KEY, JSON.stringify(data.game));
    store(VIEW_KEY, JSON.stringify(data));
  }
  render();
  if (S.view.is_over && S.endShownFor !== gameId(S.view.game)) showEnd();
  else if (!S.view.is_over) closeEnd();
}
// The dice kept before a reroll stay marked once it is rolled (the same
// player's turn, one more roll): keeping them again takes no tap.
function keptMarks(prev, data) {
  const marked = new Set();
  if (!prev || !prev.needs_roll || data.needs_roll || data.is_over || !prev.kept || !prev.kept.length
      || prev.turn_player !== data.turn_player || data.game.played !== prev.game.played + 1 || !data.rerolls) return marked;
  const dice = data.dice || [];
  for (const face of prev.kept) {
    const i = dice.findIndex((d, k) => d === face && !marked.has(k));
    if (i >= 0) marked.add(i);
  }
  return marked;
}
function gameId(g) { return `${g.seed}:${g.moves.length}:${g.played}`; }

// The computer's move: one timer, only on a computer's own turn.
export function schedule() {
  cancelPending();
  if (!S.live || S.inflight || S.autoFailed || !computerToMove() || !mayMove()) return;
  const mine = S.seq;
  S.pending = setTimeout(() => {
    S.pending = null;
    if (mine !== S.seq || S.inflight || !computerToMove()) return;
    if (S.table) parts.tableSend("move", {move: "auto"}, {auto: true});   // the first phone's wins, the others' get 409
    else send("/api/game/move", {game: S.view.game, move: "auto"}, {auto: true});
  }, DELAY);
}

export function actionText(a) {
  if (a.action === "score") {
    const name = S.view.labels[lang].boxes[a.box] || a.box;
    return t("scoreBox", {box: name, points: a.points ?? ""});
  }
  return a.dice.length ? t("keepDice", {dice: a.dice.join(" ")}) : t("rerollAll");
}

function lowerFirst(text) { return text.charAt(0).toLocaleLowerCase(locale()) + text.slice(1); }

export function render() {
  document.documentElement.lang = lang;
  document.title = t("title");
  for (const e of document.querySelectorAll("[data-t]")) e.textContent = t(e.dataset.t);
  for (const e of document.querySelectorAll("[data-t-aria]")) e.setAttribute("aria-label", t(e.dataset.tAria));
  for (const e of document.querySelectorAll("[data-t-placeholder]")) e.placeholder = t(e.dataset.tPlaceholder);
  $("mode").replaceChildren(...["full", "check", "off"].map((m) =>
    el("option", {value: m, selected: m === S.mode, text: t("mode" + m[0].toUpperCase() + m.slice(1))})));
  $("lang").value = lang;
  const busy = !!S.inflight;
  $("undo").disabled = !canUndo();
  $("redo").disabled = !canRedo();
  $("share").disabled = $("export").disabled = !S.view;
  $("dist-button").disabled = !S.view || !S.live || S.view.is_over;
  for (const id of ["table", "card", "chart"]) $(id).hidden = !S.view;
  if (S.mode === "off") $("chart").hidden = true;   // the distribution is the solver's
  $("cancel-new").hidden = !S.view;
  // the control focused before a request stands until its answer is drawn
  const had = S.focusWas !== undefined ? S.focusWas : focusKey(document.activeElement);
  renderStatus(); renderDice(busy); renderAdvice(busy); parts.renderCard(busy); parts.renderTotals(); parts.renderTable();
  renderFamily(); parts.renderPad();  // the score pad's lines and mode (family.js, scorepad.js)
  // for tests and for styles: what the page waits for now
  const b = document.body.dataset;
  b.state = !S.view ? "none" : busy ? "busy" : !S.live ? "offline" : S.view.is_over ? "over"
    : computerToMove() ? "computer" : !humanToMove() ? "wait" : S.view.needs_roll ? "roll" : "decide";
  b.moves = S.view ? S.view.game.played : 0;
  if (busy) { S.focusWas = had; return; }       // the focus waits for the answer
  S.focusWas = undefined;
  if (S.follow && S.view) { const kind = S.follow; S.follow = false; followTurn(kind); }
  refocus(had);
}

// ------------------------------------------------------------------ focus
// What the focused control of the game view stands for, so that the same
// control is focused again once render has drawn it anew.
function focusKey(e) {
  if (!e || !e.closest || !e.closest("#table, #card") || e.id === "turn") return null;
  if (e.id) return "#" + e.id;
  if (e.classList.contains("die")) return `#dice .die[data-index="${e.dataset.index}"]`;
  if (e.classList.contains("face")) return `#faces .face[data-face="${e.dataset.face}"]`;
  if (e.classList.contains("option")) return `#advice .option[data-action="${CSS.escape(e.dataset.action)}"]`;
  if (e.classList.contains("cell-btn")) return `#protokoll .cell-btn[data-box="${CSS.escape(e.dataset.box)}"]`;
  return null;
}
function usable(e) { return e && !e.disabled && e.offsetParent !== null && getComputedStyle(e).visibility !== "hidden"; }
// The control a person most likely wants next: roll, the best option,
// the first die to keep, a box to write; the turn's banner otherwise.
function nextControl() {
  if (!S.view || S.view.is_over) return null;
  const ids = humanToMove()
    ? (S.view.needs_roll ? ["#roll", "#faces .face"] : ["#advice .option", "#keep", "#dice .die", "#protokoll .cell-btn.best", "#protokoll .cell-btn"])
    : [];
  for (const sel of ids) { const e = document.querySelector(sel); if (usable(e)) return e; }
  return $("turn");
}
// After a render: focus stays where it was, or, where that control went
// away (or the page had it), goes to the next useful one, never the page.
function refocus(had) {
  if (document.querySelector("dialog[open]") || document.body.classList.contains("practicing")) return;
  const now = document.activeElement;
  if (now && now !== document.body && now !== $("turn") && now.isConnected && usable(now)) return;
  let e = had ? document.querySelector(had) : null;
  if (!usable(e)) e = nextControl();
  if (e && e !== now) e.focus({preventScroll: true});
}
// One panel open (the others closed); a panel closed with the focus in it:
// the focus goes back to the game.
export function openPanel(id, open, focus = true) {
  const inside = [...document.querySelectorAll(".panel")].some((e) => e.contains(document.activeElement));
  for (const other of ["new-game", "import", "share-box", "table-box"]) if (other !== id) $(other).hidden = true;
  $(id).hidden = !open;
  if (inside && !open && S.view) refocus(null);
  $("new-game-button").setAttribute("aria-expanded", String(!$("new-game").hidden));
  $("import-button").setAttribute("aria-expanded", String(!$("import").hidden));
  if (open && focus) { const f = $(id).querySelector("input, select, textarea, button"); if (f) f.focus(); }
}
// After a person wrote a box, or when a move on another phone made it this
// phone's turn: the turn's banner down to its roll button (or the dice to
// tap in, or the dice to keep) comes into view above the totals bar, wherever
// the page had been scrolled; on this phone's turn its first control takes
// the focus.  A wide card (Trippel, many players) scrolls sideways to the
// mover's columns.  (kind "verdict": a check's verdict on a keep.)
function followTurn(kind) {
  const fold = innerHeight - $("totals").offsetHeight;
  showMover();
  const mine = humanToMove();
  const last = mine ? (S.view.needs_roll ? ($("roll").disabled ? $("faces") : $("pad-row")) : $("dice")) : $("sub");
  const top = $("turn").getBoundingClientRect().top, bottom = last.getBoundingClientRect().bottom;
  if (kind !== "verdict" && (top < 0 || bottom > fold)) {
    // the banner near the top; where the phone is too short for both, the control wins
    let by = top - 8;
    if (bottom - by > fold - 4) by = bottom - fold + 8;
    scrollBy({top: by, behavior: "instant"});
  } else if (kind === "verdict") {
    if (top < 0 || $("verdict").getBoundingClientRect().bottom > fold) $("table").scrollIntoView({block: "start"});
    // the table taller than the screen (many lines above the dice, a phone): the verdict on
    // a keep is brought up above the totals bar, the same person's banner scrolling away
    const short = $("verdict").getBoundingClientRect().bottom - fold;
    if (short > 0 && S.verdict && S.view.turn_player === S.verdict.seat) scrollBy(0, short + 4);
  }
  if (kind === "mine" && mine && !document.querySelector("dialog[open]")) {
    const first = nextControl();
    if (first) first.focus({preventScroll: true});
  }
}
// The card's columns of the player to move in view (a card wider than the phone).
function showMover() {
  const box = document.querySelector("#card .scroll"), head = document.querySelector("#protokoll thead th.now");
  if (!box || !head || box.scrollWidth <= box.clientWidth) return;
  const label = document.querySelector("#protokoll thead th.label");
  const left = head.offsetLeft - (label ? label.offsetWidth : 0);
  if (head.offsetLeft < box.scrollLeft + (label ? label.offsetWidth : 0) || head.offsetLeft + head.offsetWidth > box.scrollLeft + box.clientWidth)
    box.scrollLeft = Math.max(0, left);
}
export function canUndo() {
  return !!S.view && S.live && (!S.table || mayUndo()) && (hasHumans() ? S.view.can_undo_human : S.view.can_undo);
}
export function canRedo() { return !!S.view && S.live && (!S.table || mayUndo("redo")) && S.view.can_redo; }
export function hasHumans() { return S.view.players.some((p) => p.kind === "human"); }

function renderStatus() {
  const turn = $("turn"), sub = $("sub");
  turn.className = "turn";
  if (!S.view) { turn.textContent = "\u00a0"; sub.textContent = "\u00a0"; return; }
  const seat = S.view.turn_player;
  if (S.view.is_over) {
    turn.textContent = t("gameOver");
    sub.textContent = winnerText();
    turn.classList.add("over");
    return;
  }
  const name = playerName(seat);
  turn.textContent = isHuman(seat) ? t("turnOf", {name}) : t("computerTurn", {name});
  turn.classList.add("seat" + (seat % 6));
  const bits = [t("turnN", {n: int(S.view.turns_played[seat] + 1), of: int(S.view.turns_each)})];
  if (!S.view.needs_roll) bits.push(t("rerollsLeft", {n: S.view.rerolls}));
  else if (S.view.bank && S.view.bank[seat]) bits.push(t("bankSaved", {n: S.view.bank[seat]}));   // saved rolls, before the roll
  if (S.mode !== "off" && S.view.expected !== null && S.view.expected !== undefined) bits.push(t("expectedFinal", {ev: int(Math.round(S.view.expected))}));
  sub.textContent = bits.join(" · ");
}

function winnerText() {
  // a game of one: nobody beaten, no ranking to read (the coach says no winner either)
  if (S.view.ranking.length === 1) return t("soloScore", {name: playerName(0), score: int(S.view.ranking[0].score)});
  const top = S.view.ranking.filter((r) => r.place === 1);
  if (top.length === 1) return t("wins", {name: playerName(top[0].seat), score: int(top[0].score)});
  const names = top.map((r) => playerName(r.seat));
  return t("tieWin", {names: names.slice(0, -1).join(", ") + " " + t("and") + " " + names[names.length - 1], score: int(top[0].score)});
}

function diceSlots() {
  // What each of the fixed slots shows: {face, state: kept|entered|empty|rolled}
  const n = S.view ? S.view.dice_count : 5;
  const slots = Array.from({length: n}, () => ({face: null, state: "empty"}));
  if (!S.view || S.view.is_over) return slots;
  if (S.view.needs_roll) {
    const kept = S.view.kept || [];
    let order = null;
    if (S.keptSlots && S.keptSlots.length === kept.length) order = S.keptSlots;
    const free = [];
    const used = new Set(order || kept.map((_, i) => i));
    (order || kept.map((_, i) => i)).forEach((slot, k) => { slots[slot] = {face: kept[k], state: "kept"}; });
    for (let i = 0; i < n; i++) if (!used.has(i)) free.push(i);
    S.entry.forEach((face, k) => { slots[free[k]] = {face, state: "entered", k}; });
    return slots;
  }
  (S.view.dice || []).forEach((face, i) => { slots[i] = {face, state: "rolled"}; });
  return slots;
}

function renderDice(busy) {
  const human = humanToMove();
  const rolling = human && S.view.needs_roll;
  const deciding = human && !S.view.needs_roll;
  const slots = diceSlots();
  $("dice").dataset.n = slots.length;           // six dice (Maxi) stand closer
  $("dice").replaceChildren(...slots.map((s, i) => {
    const pressed = deciding && S.marked.has(i);
    let label;
    if (s.state === "empty") label = t("dieEmpty", {i: i + 1});
    else if (s.state === "kept") label = t("dieKept", {i: i + 1, face: s.face});
    else if (s.state === "entered") label = t("dieRemove", {i: i + 1, face: s.face});
    else label = t("die", {i: i + 1, face: s.face});
    const can = (deciding && S.view.rerolls > 0) || (rolling && s.state === "entered");
    const b = el("button", {
      class: `die ${s.state}` + (pressed ? " marked" : ""),
      "aria-pressed": deciding && S.view.rerolls > 0 ? String(pressed) : undefined,
      dataset: {index: i, face: s.face ?? ""}, disabled: !can || busy,
      onclick: () => tapDie(i)},
      el("span", {class: "sr", text: label + " "}), dieFace(s.face), el("span", {class: "mark", text: t("keepMark")}));
    return b;
  }));
  const need = S.view ? S.view.dice_count - (S.view.kept ? S.view.kept.length : 0) : 5;
  const faces = S.view ? S.view.faces : 6;
  $("faces").replaceChildren(...Array.from({length: faces}, (_, k) => el("button", {
    class: "face", dataset: {face: k + 1}, "aria-label": t("addFace", {face: k + 1}),
    disabled: !rolling || busy || S.entry.length >= need, onclick: () => addFace(k + 1)}, dieFace(k + 1))));
  $("back").disabled = !rolling || busy || S.entry.length === 0;
  $("roll").disabled = !rolling || busy || S.entry.length > 0;
  const keep = $("keep");
  keep.disabled = !deciding || busy || S.view.rerolls === 0 || S.marked.size === S.view.dice_count;
  keep.textContent = !deciding ? t("rerollAll") : S.marked.size === S.view.dice_count ? t("keepAll")
    : S.marked.size ? t("keepReroll") : t("rerollAll");
  const pad = $("pad");
  pad.dataset.phase = !S.view || S.view.is_over ? "idle" : rolling ? "roll" : deciding ? "decide" : "wait";
  let hint = "";
  if (S.view && !S.view.is_over) {
    if (!isHuman(S.view.turn_player)) hint = t("waitComputer", {name: playerName(S.view.turn_player)});
    else if (rolling) hint = t("enterDice", {n: need - S.entry.length});
    else if (deciding) hint = (!S.view.rerolls ? t("noRerolls") : S.mode === "full" && S.view.advice ? t("tapToKeep") : t("tapToKeepPlain"))
      + (S.view.bank_if_stopped ? " " + t("bankIfStop", {n: S.view.bank_if_stopped}) : "");   // saved rolls
    else hint = parts.tableHint();
  }
  $("hint").textContent = hint;
}

export function tapDie(i) {
  if (!humanToMove() || S.inflight) return;
  cancelPending();
  if (S.view.needs_roll) {
    const s = diceSlots()[i];
    if (s.state === "entered") { S.entry.splice(s.k, 1); render(); }
    return;
  }
  if (S.view.rerolls === 0) return;
  S.marked.has(i) ? S.marked.delete(i) : S.marked.add(i);
  render();
}
export function addFace(face) {
  if (!humanToMove() || !S.view.needs_roll || S.inflight) return;
  const need = S.view.dice_count - (S.view.kept ? S.view.kept.length : 0);
  if (S.entry.length >= need) return;
  S.entry.push(face);
  render();
  if (S.entry.length === need) move("roll " + S.entry.join(""));
}
export function keepMarked() {
  if (!humanToMove() || S.view.needs_roll || S.inflight) return;
  const slots = [...S.marked].sort((a, b) => a - b);
  if (slots.length === S.view.dice_count) return;
  const dice = slots.map((i) => S.view.dice[i]);
  const order = slots.map((i) => [S.view.dice[i], i]).sort((a, b) => a[0] - b[0]).map((p) => p[1]);
  S.keptSlots = order;
  move(dice.length ? "keep " + dice.join(" ") : "reroll all");
}

function renderAdvice(busy) {
  const v = $("verdict");
  v.className = ""; v.textContent = "";
  if (S.verdict && S.mode === "check") {
    const good = S.verdict.loss < 1e-9;
    v.className = good ? "good" : "bad";
    v.textContent = good ? t("verdictBest", {name: S.verdict.name})
      : t("verdictCost", {name: S.verdict.name, loss: num(S.verdict.loss, 2), best: lowerFirst(actionText(S.verdict.best))});
  }
  const list = $("advice");
  $("all-options").hidden = true;
  const advice = humanToMove() && (!S.table || myTurn()) ? S.view.advice : null;
  const shown_as = S.table && S.mode === "check" ? "full" : S.mode;   // at a table the player asked for it
  $("options-h").hidden = $("advice-head").hidden = !advice || shown_as !== "full";
  if (!advice || S.mode === "off") { list.replaceChildren(); return; }
  if (shown_as === "check") { list.replaceChildren(el("li", {class: "note", text: t("checkHidden")})); return; }
  const shown = S.showAll ? advice : advice.slice(0, 6);
  $("all-options").hidden = S.showAll || advice.length <= 6;
  list.replaceChildren(...shown.map((a, i) => {
    const lossText = i === 0 ? t("best") : a.loss < 1e-9 ? t("tie") : "−" + num(a.loss, 2);
    return el("li", {}, el("button", {class: "option" + (i === 0 ? " top" : ""), dataset: {action: a.text},
      disabled: busy, onclick: () => { S.keptSlots = null; move(a.text); }},
      el("span", {class: "what", text: actionText(a)}),
      el("span", {class: "ev"}, el("span", {class: "sr", text: t("expectedShort") + " "}), num(a.expected_final_score)),
      el("span", {class: "loss"}, el("span", {class: "sr", text: t("loss") + " "}), lossText)));
  }));
}

// ------------------------------------------------------------------ the end
export function showEnd() {
  S.endShownFor = gameId(S.view.game);
  $("winner").textContent = winnerText();
  $("ranking").replaceChildren(...S.view.ranking.map((r) =>
    el("li", {text: t("place", {place: r.place, name: playerName(r.seat), score: int(r.score)})})));
  $("ranking").hidden = S.view.ranking.length === 1;
  renderReview();                     // the end review and the history (review.js)
  const d = $("end");
  if (!d.open) { if (d.showModal) d.showModal(); else d.setAttribute("open", ""); }
  parts.renderTable();                // a table's proposed next game at the dialog's top
}
export function closeEnd() { const d = $("end"); if (d.open) { if (d.close) d.close(); else d.removeAttribute("open"); } }

