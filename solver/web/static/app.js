// The yatzy advisor page.  The game lives in localStorage as the Game JSON and
// is posted with every move to the stateless server (/api/game/...); the
// server's last answer is kept too, so that a reload while the server is away
// still shows the game.  Every request carries a sequence number: an answer
// for a position the page has left is dropped.  A computer seat plays through
// one pending timer, cancelled by any person's action.  A game shared at the
// table (share.js) is kept by the server instead and followed live.
"use strict";

// ------------------------------------------------------------------ words
const T = {
  en: {
    title: "Yatzy advisor", skip: "Skip to the game", language: "Language", adviceLabel: "Advice",
    modeFull: "Advice: shown", modeCheck: "Advice: check my move", modeOff: "Advice: off",
    toolbar: "Game", new: "New game", undo: "Undo", redo: "Redo", more: "More",
    share: "Share link", export: "Export", import: "Import",
    newTitle: "New game", players: "Players", playerN: "Player {n}", nameOf: "Name of player {n}",
    kindOf: "Who plays seat {n}", kind_human: "Person", kind_optimal: "Computer (best)",
    kind_greedy: "Computer (greedy)", kind_simple: "Computer (simple)", kind_step: "Computer (step)",
    computer: "computer", rules: "Rules", spec: "Or a rules spec", start: "Start", cancel: "Cancel",
    close: "Close", unavailableName: "{name} (unavailable)",
    why_columns: "Trippel-Yatzy's three columns cannot be played on this page yet.",
    why_no_table: "This server has no table for these rules: run “{cmd}” on the server first.",
    preset_nordic: "Nordic Yatzy, free order",
    preset_forced: "Nordic Yatzy, top-to-bottom order, bonus at 42",
    preset_upper_first: "Nordic Yatzy, upper boxes first (any order), then the lower",
    preset_yahtzee: "American Yahtzee: 13 boxes, bonus 35 at 63, yahtzee bonus 100, forced joker",
    preset_maxi: "Maxi Yatzy: six dice, 20 boxes, four rolls, bonus 100 at 84, saved rolls",
    preset_triple: "Trippel-Yatzy: three Nordic columns, column c counts c times",
    name_nordic: "Nordic", name_forced: "Nordic, forced order", name_upper_first: "Nordic, upper first",
    name_yahtzee: "Yahtzee", name_maxi: "Maxi Yatzy", name_triple: "Trippel-Yatzy",
    importTitle: "Import a game", importText: "Paste a game (JSON)", importFile: "Or choose a file",
    load: "Load", shareTitle: "Share this game", shareUrl: "Link to this game", copy: "Copy",
    copied: "Copied.", copyFailed: "Select the link and copy it.",
    turnOf: "{name}'s turn", computerTurn: "{name} is playing…", turnN: "Turn {n} of {of}",
    rerollsLeft: {one: "{n} reroll left", other: "{n} rerolls left"},
    enterDice: {one: "Tap the die you rolled, or let the page roll", other: "Tap the {n} dice you rolled, or let the page roll"},
    rollForMe: "Roll for me", removeLast: "Remove last",
    keepReroll: "Keep marked, reroll", rerollAll: "Reroll all", keepAll: "All kept: choose a box",
    tapToKeep: "Tap dice to keep them, then reroll, or choose an option or a box.",
    noRerolls: "No rerolls left: choose a box.", waitComputer: "Wait for {name}.",
    dice: "Dice", facesGroup: "The dice you rolled", addFace: "Rolled a {face}",
    die: "Die {i}: {face}", dieKept: "Die {i}: {face}, kept from the last roll",
    dieRemove: "Die {i}: {face} (tap to remove)", dieEmpty: "Die {i}: not rolled yet", keepMark: "keep",
    options: "Options", option: "Option", expectedShort: "Expected", loss: "Loss", best: "best", tie: "tie",
    allOptions: "All options", keepDice: "Keep {dice}", scoreBox: "Score {box} ({points})",
    points: "points",
    checkHidden: "Choose your move; the check shows after it.",
    verdictBest: "{name}: best choice.", verdictCost: "{name}: that cost {loss} points; best was {best}.",
    scorecard: "Scorecard", box: "Box", column: "Column", scoreAria: "Score {box}:",
    parAria: "{par} against the pace of the bonus", totals: "Totals", expectedAbout: "≈{ev}",
    totalAria: "{name}: {score} points, expected {ev}", toMove: "to move",
    gameOver: "Game over", wins: "{name} wins with {score} points!", tieWin: "A tie: {names}, {score} points each.",
    place: "{place}. {name}: {score}", and: "and", again: "New game with the same players",
    newSetup: "New game…", showCard: "See the card", distribution: "Score distribution",
    showDist: "Show the distribution", computing: "Computing the distribution…", mean: "mean",
    distAria: "Distribution of {name}'s final score, mean {mean}",
    solving: "Preparing the rules {spec}: {pct}", solvingLeft: ", about {time} left", serverDown: "The server cannot be reached; trying again…",
    lastMove: "Last: {name} {move}",
    err_input: "Not accepted: {detail}", err_bad_game: "That is not a game this page can load: {detail}",
    err_no_table: "This server has no table for these rules: run “{cmd}” on the server first.",
    err_columns: "Trippel-Yatzy's three columns cannot be played on this page yet.",
    err_busy: "The server has too many rule sets open; try again later.",
    err_internal: "Something went wrong on the server; please try again.",
    err_table: "The server could not open the table for these rules.",
    err_nothing_undo: "Nothing to undo.", err_nothing_redo: "Nothing to redo.",
    err_not_computer: "It is a person's turn.", err_over: "The game is over.",
    err_players: "Each player needs a name of at most 40 characters.",
    err_http: "The server refused the request ({status}).", err_json: "That is not a JSON document.",
    err_link: "The link does not hold a game.", err_body: "The request was not accepted.",
  },
  nb: {
    title: "Yatzy-rådgiver", skip: "Gå til spillet", language: "Språk", adviceLabel: "Råd",
    modeFull: "Råd: vis", modeCheck: "Råd: sjekk trekket mitt", modeOff: "Råd: av",
    toolbar: "Spill", new: "Nytt spill", undo: "Angre", redo: "Gjør om", more: "Mer",
    share: "Del lenke", export: "Eksporter", import: "Importer",
    newTitle: "Nytt spill", players: "Spillere", playerN: "Spiller {n}", nameOf: "Navn på spiller {n}",
    kindOf: "Hvem spiller plass {n}", kind_human: "Person", kind_optimal: "Datamaskin (best)",
    kind_greedy: "Datamaskin (grådig)", kind_simple: "Datamaskin (enkel)", kind_step: "Datamaskin (steg)",
    computer: "datamaskin", rules: "Regler", spec: "Eller en regelbeskrivelse", start: "Start spillet",
    cancel: "Avbryt", close: "Lukk", unavailableName: "{name} (ikke tilgjengelig)",
    why_columns: "Trippel-Yatzys tre kolonner kan ikke spilles på denne siden ennå.",
    why_no_table: "Serveren har ingen tabell for disse reglene: kjør «{cmd}» på serveren først.",
    preset_nordic: "Nordisk yatzy, fri rekkefølge",
    preset_forced: "Nordisk yatzy, ovenfra og ned, bonus ved 42",
    preset_upper_first: "Nordisk yatzy, øvre del først (fri rekkefølge), så nedre del",
    preset_yahtzee: "Amerikansk Yahtzee: 13 rubrikker, bonus 35 ved 63, yatzybonus 100, tvungen joker",
    preset_maxi: "Maxi-yatzy: seks terninger, 20 rubrikker, fire kast, bonus 100 ved 84, sparte kast",
    preset_triple: "Trippel-yatzy: tre nordiske kolonner, kolonne c teller c ganger",
    name_nordic: "Nordisk", name_forced: "Nordisk, fast rekkefølge", name_upper_first: "Nordisk, øvre først",
    name_yahtzee: "Amerikansk", name_maxi: "Maxi-yatzy", name_triple: "Trippel-yatzy",
    importTitle: "Importer et spill", importText: "Lim inn et spill (JSON)", importFile: "Eller velg en fil",
    load: "Last inn", shareTitle: "Del dette spillet", shareUrl: "Lenke til spillet", copy: "Kopier",
    copied: "Kopiert.", copyFailed: "Merk lenken og kopier den.",
    turnOf: "{name} sin tur", computerTurn: "{name} spiller …", turnN: "Tur {n} av {of}",
    rerollsLeft: {one: "{n} omkast igjen", other: "{n} omkast igjen"},
    enterDice: {one: "Trykk terningen du kastet, eller la siden kaste", other: "Trykk de {n} terningene du kastet, eller la siden kaste"},
    rollForMe: "Kast for meg", removeLast: "Fjern siste",
    keepReroll: "Behold merkede, kast", rerollAll: "Kast alle på nytt", keepAll: "Alle beholdt: velg rubrikk",
    tapToKeep: "Trykk terningene du vil beholde og kast, eller velg et valg eller en rubrikk.",
    noRerolls: "Ingen omkast igjen: velg en rubrikk.", waitComputer: "Vent på {name}.",
    dice: "Terninger", facesGroup: "Terningene du kastet", addFace: "Kastet en {face}",
    die: "Terning {i}: {face}", dieKept: "Terning {i}: {face}, beholdt fra forrige kast",
    dieRemove: "Terning {i}: {face} (trykk for å fjerne)", dieEmpty: "Terning {i}: ikke kastet ennå", keepMark: "behold",
    options: "Valg", option: "Valg", expectedShort: "Forventet", loss: "Tap", best: "best", tie: "likt",
    allOptions: "Alle valg", keepDice: "Behold {dice}", scoreBox: "Før {box} ({points})",
    points: "poeng",
    checkHidden: "Velg trekket ditt; sjekken vises etterpå.",
    verdictBest: "{name}: beste valg.", verdictCost: "{name}: det kostet {loss} poeng; best var {best}.",
    scorecard: "Protokoll", box: "Rubrikk", column: "Kolonne", scoreAria: "Før {box}:",
    parAria: "{par} mot bonustempoet", totals: "Summer", expectedAbout: "≈{ev}",
    totalAria: "{name}: {score} poeng, forventet {ev}", toMove: "i trekket",
    gameOver: "Spillet er slutt", wins: "{name} vinner med {score} poeng!", tieWin: "Uavgjort: {names}, {score} poeng hver.",
    place: "{place}. {name}: {score}", and: "og", again: "Nytt spill med de samme spillerne",
    newSetup: "Nytt spill …", showCard: "Se protokollen", distribution: "Fordeling av sluttsum",
    showDist: "Vis fordelingen", computing: "Regner ut fordelingen …", mean: "snitt",
    distAria: "Fordelingen av sluttsummen til {name}, snitt {mean}",
    solving: "Forbereder reglene {spec}: {pct}", solvingLeft: ", omtrent {time} igjen", serverDown: "Får ikke kontakt med serveren; prøver igjen …",
    lastMove: "Sist: {name} {move}",
    err_input: "Ikke godtatt: {detail}", err_bad_game: "Dette er ikke et spill siden kan laste inn: {detail}",
    err_no_table: "Serveren har ingen tabell for disse reglene: kjør «{cmd}» på serveren først.",
    err_columns: "Trippel-Yatzys tre kolonner kan ikke spilles på denne siden ennå.",
    err_busy: "Serveren har for mange regelsett åpne; prøv igjen senere.",
    err_internal: "Noe gikk galt på serveren; prøv igjen.",
    err_table: "Serveren kunne ikke åpne tabellen for disse reglene.",
    err_nothing_undo: "Ingenting å angre.", err_nothing_redo: "Ingenting å gjøre om.",
    err_not_computer: "Det er en persons tur.", err_over: "Spillet er slutt.",
    err_players: "Hver spiller trenger et navn på høyst 40 tegn.",
    err_http: "Serveren avviste forespørselen ({status}).", err_json: "Dette er ikke et JSON-dokument.",
    err_link: "Lenken inneholder ikke et spill.", err_body: "Forespørselen ble ikke godtatt.",
  },
  sv: {
    title: "Yatzy-rådgivare", skip: "Gå till spelet", language: "Språk", adviceLabel: "Råd",
    modeFull: "Råd: visa", modeCheck: "Råd: kolla mitt drag", modeOff: "Råd: av",
    toolbar: "Spel", new: "Nytt spel", undo: "Ångra", redo: "Gör om", more: "Mer",
    share: "Dela länk", export: "Exportera", import: "Importera",
    newTitle: "Nytt spel", players: "Spelare", playerN: "Spelare {n}", nameOf: "Namn på spelare {n}",
    kindOf: "Vem spelar plats {n}", kind_human: "Människa", kind_optimal: "Dator (bäst)",
    kind_greedy: "Dator (girig)", kind_simple: "Dator (enkel)", kind_step: "Dator (steg)",
    computer: "dator", rules: "Regler", spec: "Eller en regelbeskrivning", start: "Starta",
    cancel: "Avbryt", close: "Stäng", unavailableName: "{name} (inte tillgänglig)",
    why_columns: "Trippel-Yatzys tre kolumner kan inte spelas på den här sidan än.",
    why_no_table: "Servern har ingen tabell för de här reglerna: kör ”{cmd}” på servern först.",
    preset_nordic: "Nordisk yatzy, fri ordning",
    preset_forced: "Nordisk yatzy, uppifrån och ned, bonus vid 42",
    preset_upper_first: "Nordisk yatzy, övre delen först (fri ordning), sedan den nedre",
    preset_yahtzee: "Amerikansk Yahtzee: 13 rutor, bonus 35 vid 63, yatzybonus 100, tvingad joker",
    preset_maxi: "Maxi-yatzy: sex tärningar, 20 rutor, fyra slag, bonus 100 vid 84, sparade slag",
    preset_triple: "Trippel-yatzy: tre nordiska kolumner, kolumn c räknas c gånger",
    name_nordic: "Nordisk", name_forced: "Nordisk, bunden ordning", name_upper_first: "Nordisk, övre först",
    name_yahtzee: "Amerikansk", name_maxi: "Maxi-yatzy", name_triple: "Trippel-yatzy",
    importTitle: "Importera ett spel", importText: "Klistra in ett spel (JSON)", importFile: "Eller välj en fil",
    load: "Läs in", shareTitle: "Dela det här spelet", shareUrl: "Länk till spelet", copy: "Kopiera",
    copied: "Kopierat.", copyFailed: "Markera länken och kopiera den.",
    turnOf: "{name}s tur", computerTurn: "{name} spelar …", turnN: "Omgång {n} av {of}",
    rerollsLeft: {one: "{n} omslag kvar", other: "{n} omslag kvar"},
    enterDice: {one: "Tryck tärningen du slog, eller låt sidan slå", other: "Tryck de {n} tärningar du slog, eller låt sidan slå"},
    rollForMe: "Slå åt mig", removeLast: "Ta bort sista",
    keepReroll: "Behåll markerade, slå", rerollAll: "Slå om alla", keepAll: "Alla behållna: välj en ruta",
    tapToKeep: "Tryck tärningarna du vill behålla och slå, eller välj ett val eller en ruta.",
    noRerolls: "Inga omslag kvar: välj en ruta.", waitComputer: "Vänta på {name}.",
    dice: "Tärningar", facesGroup: "Tärningarna du slog", addFace: "Slog en {face}",
    die: "Tärning {i}: {face}", dieKept: "Tärning {i}: {face}, behållen från förra slaget",
    dieRemove: "Tärning {i}: {face} (tryck för att ta bort)", dieEmpty: "Tärning {i}: inte slagen än", keepMark: "behåll",
    options: "Val", option: "Val", expectedShort: "Förväntat", loss: "Förlust", best: "bäst", tie: "lika",
    allOptions: "Alla val", keepDice: "Behåll {dice}", scoreBox: "Skriv {box} ({points})",
    points: "poäng",
    checkHidden: "Välj ditt drag; kontrollen visas efteråt.",
    verdictBest: "{name}: bästa valet.", verdictCost: "{name}: det kostade {loss} poäng; bäst var {best}.",
    scorecard: "Protokoll", box: "Ruta", column: "Kolumn", scoreAria: "Skriv {box}:",
    parAria: "{par} mot bonustakten", totals: "Summor", expectedAbout: "≈{ev}",
    totalAria: "{name}: {score} poäng, förväntat {ev}", toMove: "vid draget",
    gameOver: "Spelet är slut", wins: "{name} vinner med {score} poäng!", tieWin: "Oavgjort: {names}, {score} poäng var.",
    place: "{place}. {name}: {score}", and: "och", again: "Nytt spel med samma spelare",
    newSetup: "Nytt spel …", showCard: "Se protokollet", distribution: "Fördelning av slutsumman",
    showDist: "Visa fördelningen", computing: "Räknar ut fördelningen …", mean: "medel",
    distAria: "Fördelningen av {name}s slutsumma, medel {mean}",
    solving: "Förbereder reglerna {spec}: {pct}", solvingLeft: ", ungefär {time} kvar", serverDown: "Servern svarar inte; försöker igen …",
    lastMove: "Senast: {name} {move}",
    err_input: "Inte godtaget: {detail}", err_bad_game: "Det är inte ett spel sidan kan läsa in: {detail}",
    err_no_table: "Servern har ingen tabell för de här reglerna: kör ”{cmd}” på servern först.",
    err_columns: "Trippel-Yatzys tre kolumner kan inte spelas på den här sidan än.",
    err_busy: "Servern har för många regeluppsättningar öppna; försök igen senare.",
    err_internal: "Något gick fel på servern; försök igen.",
    err_table: "Servern kunde inte öppna tabellen för de här reglerna.",
    err_nothing_undo: "Inget att ångra.", err_nothing_redo: "Inget att göra om.",
    err_not_computer: "Det är en människas tur.", err_over: "Spelet är slut.",
    err_players: "Varje spelare behöver ett namn på högst 40 tecken.",
    err_http: "Servern avvisade begäran ({status}).", err_json: "Det är inte ett JSON-dokument.",
    err_link: "Länken innehåller inget spel.", err_body: "Begäran godtogs inte.",
  },
};
const LOCALE = {en: "en-GB", nb: "nb-NO", sv: "sv-SE"};
const KEY = "yatzy.game", VIEW_KEY = "yatzy.view";
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

function stored(key, fallback) {
  try { return localStorage.getItem(key) ?? fallback; } catch (e) { return fallback; }
}
function store(key, value) {
  try { if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, value); } catch (e) { /* private mode */ }
}

let lang = T[params.get("lang")] ? params.get("lang") : (T[stored("yatzy.lang", "")] ? stored("yatzy.lang") : guessLang());
let mode = ["full", "check", "off"].includes(stored("yatzy.mode", "full")) ? stored("yatzy.mode", "full") : "full";
const DELAY = Math.max(0, +stored("yatzy.delay", "650") || 0);   // ms before a computer's move
let view = null;           // the server's answer for the current game
let live = false;          // whether view came from the server in this page's life
let entry = [];            // dice tapped in for the roll that is due
let marked = new Set();    // slots of the dice marked to keep
let keptSlots = null;      // slots the kept dice stood in when kept
let verdict = null;        // {seat, name, loss, best} of a person's last decision (check mode)
let showAll = false;
let seq = 0;               // bumped by every request and every action; late answers are dropped
let inflight = 0;          // the seq of the request in flight (0: none)
let pending = null;        // the timer of the computer's next move
let autoFailed = false;    // a computer's move was refused: wait for a person before trying again
let rulesInfo = null;
let endShownFor = null;    // the game whose end screen was shown

function guessLang() {
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const code = l.toLowerCase().slice(0, 2);
    if (code === "nb" || code === "no" || code === "nn") return "nb";
    if (code === "sv") return "sv";
    if (code === "en") return "en";
  }
  return "en";
}
function t(key, args = {}) {
  let s = T[lang][key] ?? T.en[key] ?? key;
  if (typeof s === "object") {
    const form = new Intl.PluralRules(LOCALE[lang]).select(args.n ?? 0);
    s = s[form] ?? s.other;
  }
  return s.replace(/\{(\w+)\}/g, (_, k) => (args[k] ?? ""));
}
function num(x, digits = 1) {
  return new Intl.NumberFormat(LOCALE[lang], {minimumFractionDigits: digits, maximumFractionDigits: digits}).format(x);
}
function int(x) { return new Intl.NumberFormat(LOCALE[lang]).format(x); }
function signed(x) {
  return new Intl.NumberFormat(LOCALE[lang], {signDisplay: "exceptZero", maximumFractionDigits: 1}).format(x);
}
function el(tag, props = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "dataset") Object.assign(e.dataset, v);
    else if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "disabled" || k === "hidden" || k === "selected" || k === "value") e[k] = v;
    else e.setAttribute(k, v === true ? "" : v);
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
function errorText(e) {
  if (!e || !e.code) return t("err_internal");
  if (e.code === "http") return t("err_http", {status: e.status});
  const key = "err_" + e.code;
  return T.en[key] ? t(key, {detail: e.message, cmd: e.command || "", status: e.status}) : t("err_input", {detail: e.message});
}
function playerName(seat) { return view.players[seat].name; }
function isHuman(seat) { return view.players[seat].kind === "human"; }
function computerToMove() { return view && !view.is_over && !isHuman(view.turn_player); }
function humanToMove() { return view && live && !view.is_over && isHuman(view.turn_player) && mayMove(); }
function cellsOf(c) { return Array.isArray(c) ? c : [c]; }

// ------------------------------------------------------------------ the server
class Superseded extends Error {}
class ApiError extends Error {
  constructor(status, data) {
    super(data.error || String(status));
    Object.assign(this, {status, code: data.code || (status >= 500 ? "internal" : "input"), command: data.command, data});
  }
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function net(text, pct) {
  $("net").hidden = !text;
  $("net-text").textContent = text || "";
  $("net-progress").hidden = pct === undefined;
  if (pct !== undefined) { $("net-progress").value = pct; $("net-progress").setAttribute("aria-label", text); }
}

// A build's time left as "40 s", "3:05" or "1:02:05".
function clockText(seconds) {
  const s = Math.round(seconds);
  const two = (n) => String(n).padStart(2, "0");
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)}:${two(s % 60)}`;
  return `${Math.floor(s / 3600)}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
}

// One request; a lost server or a table being solved is waited for (and
// shown), unless a newer action supersedes the request meanwhile.
async function api(path, body, query, mine) {
  let wait = 1000;
  for (;;) {
    if (mine !== undefined && mine !== seq) throw new Superseded();
    const url = path + (query ? "?" + new URLSearchParams(query) : "");
    let res, data;
    try {
      res = await fetch(url, body === undefined ? {} :
        {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
      data = await res.json();
    } catch (e) {
      net(t("serverDown"));
      await sleep(wait);
      wait = Math.min(wait * 2, 8000);
      continue;
    }
    if (res.status === 503 && data.code === "solving") {
      const p = data.progress || {};
      const pct = p.total ? Math.floor(100 * p.done / p.total) : 0;
      const left = typeof p.seconds_left === "number" ? t("solvingLeft", {time: clockText(p.seconds_left)}) : "";
      net(t("solving", {spec: (body && body.rules) || (body && body.game && body.game.rules) || (query && query.rules) || "",
                        pct: new Intl.NumberFormat(LOCALE[lang], {style: "percent"}).format(pct / 100)}) + left, pct);
      await sleep(700);
      continue;
    }
    net("");
    if (!res.ok) throw new ApiError(res.status, data);
    return data;
  }
}

function cancelPending() { if (pending) { clearTimeout(pending); pending = null; } }

// Send a game request; the answer becomes the view unless a newer action
// came first.  Returns whether it was taken.
async function send(path, body, opts = {}) {
  if (table) dropTable();                      // a game of this phone's own (imported) leaves the table
  cancelPending();
  if (!opts.auto) autoFailed = false;
  const mine = ++seq;
  inflight = mine;
  render();
  try {
    const data = await api(path, body, undefined, mine);
    if (mine !== seq) return false;
    showError("");
    setView(data, opts);
    return true;
  } catch (e) {
    if (e instanceof Superseded || mine !== seq) return false;
    showError(errorText(e));
    if (opts.auto) autoFailed = true;
    if (opts.onError) opts.onError(e);
    return false;
  } finally {
    if (inflight === mine) { inflight = 0; render(); schedule(); }
  }
}

function move(text) {
  if (!view || inflight) return;
  // a verdict stays through its own player's rolls, until their next
  // decision or another person's move
  if (verdict && (verdict.seat !== view.turn_player || !text.startsWith("roll"))) verdict = null;
  const seat = view.turn_player;
  if (table) return tableSend("move", {move: text});
  return send("/api/game/move", {game: view.game, move: text}, {by: seat});
}

function setView(data, opts = {}) {
  const turnChanged = !view || data.turn_player !== view.turn_player || data.game.played < view.game.played;
  if (data.verdict && mode === "check") {
    const v = data.verdict;
    verdict = {seat: v.seat, name: data.players[v.seat].name, loss: v.loss, best: v.best};
  }
  if (opts.reset) verdict = null;
  const prev = view;
  view = data;
  live = true;
  if (!prev || prev.game.played !== data.game.played || JSON.stringify(prev.game.moves) !== JSON.stringify(data.game.moves)) {
    entry = []; marked = new Set(); showAll = false;
  }
  if (turnChanged) $("dist").replaceChildren();
  if (!table) {                                // a shared table is kept by the server
    store(KEY, JSON.stringify(data.game));
    store(VIEW_KEY, JSON.stringify(data));
  }
  render();
  if (view.is_over && endShownFor !== gameId(view.game)) showEnd();
  else if (!view.is_over) closeEnd();
}
function gameId(g) { return `${g.seed}:${g.moves.length}:${g.played}`; }

// The computer's move: one timer, only on a computer's own turn.
function schedule() {
  cancelPending();
  if (!live || inflight || autoFailed || !computerToMove() || !mayMove()) return;
  const mine = seq;
  pending = setTimeout(() => {
    pending = null;
    if (mine !== seq || inflight || !computerToMove()) return;
    if (table) tableSend("move", {move: "auto"}, {auto: true});   // the first phone's wins, the others' get 409
    else send("/api/game/move", {game: view.game, move: "auto"}, {auto: true});
  }, DELAY);
}

// ------------------------------------------------------------------ drawing
const PIPS = {1: [[50, 50]], 2: [[28, 28], [72, 72]], 3: [[28, 28], [50, 50], [72, 72]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]], 5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  6: [[28, 26], [72, 26], [28, 50], [72, 50], [28, 74], [72, 74]]};
function dieFace(face) {
  const g = svg("svg", {viewBox: "0 0 100 100", "aria-hidden": "true", focusable: "false", class: "pips"});
  g.append(svg("rect", {x: 4, y: 4, width: 92, height: 92, rx: 16, class: "body"}));
  if (face && PIPS[face]) for (const [cx, cy] of PIPS[face]) g.append(svg("circle", {cx, cy, r: 9, class: "pip"}));
  else if (face) { const x = svg("text", {x: 50, y: 64, "text-anchor": "middle", class: "digit"}); x.textContent = face; g.append(x); }
  return g;
}

function actionText(a) {
  if (a.action === "score") {
    const name = view.labels[lang].boxes[a.box] || a.box;
    return t("scoreBox", {box: name, points: a.points ?? ""});
  }
  return a.dice.length ? t("keepDice", {dice: a.dice.join(" ")}) : t("rerollAll");
}

function render() {
  document.documentElement.lang = lang;
  document.title = t("title");
  for (const e of document.querySelectorAll("[data-t]")) e.textContent = t(e.dataset.t);
  for (const e of document.querySelectorAll("[data-t-aria]")) e.setAttribute("aria-label", t(e.dataset.tAria));
  $("mode").replaceChildren(...["full", "check", "off"].map((m) =>
    el("option", {value: m, selected: m === mode, text: t("mode" + m[0].toUpperCase() + m.slice(1))})));
  $("lang").value = lang;
  const busy = !!inflight;
  $("undo").disabled = !canUndo();
  $("redo").disabled = !canRedo();
  $("share").disabled = $("export").disabled = !view;
  $("dist-button").disabled = !view || !live || view.is_over;
  for (const id of ["table", "card", "chart"]) $(id).hidden = !view;
  $("cancel-new").hidden = !view;
  renderStatus(); renderDice(busy); renderAdvice(busy); renderCard(busy); renderTotals(); renderTable();
  // for tests and for styles: what the page waits for now
  const b = document.body.dataset;
  b.state = !view ? "none" : busy ? "busy" : !live ? "offline" : view.is_over ? "over"
    : computerToMove() ? "computer" : !humanToMove() ? "wait" : view.needs_roll ? "roll" : "decide";
  b.moves = view ? view.game.played : 0;
}
function canUndo() { return !!view && live && (!table || table.seat !== "watch") && (hasHumans() ? view.can_undo_human : view.can_undo); }
function canRedo() { return !!view && live && (!table || table.seat !== "watch") && view.can_redo; }
function hasHumans() { return view.players.some((p) => p.kind === "human"); }

function renderStatus() {
  const turn = $("turn"), sub = $("sub");
  turn.className = "turn";
  if (!view) { turn.textContent = "\u00a0"; sub.textContent = "\u00a0"; return; }
  const seat = view.turn_player;
  if (view.is_over) {
    turn.textContent = t("gameOver");
    sub.textContent = winnerText();
    turn.classList.add("over");
    return;
  }
  const name = playerName(seat);
  turn.textContent = isHuman(seat) ? t("turnOf", {name}) : t("computerTurn", {name});
  turn.classList.add("seat" + (seat % 6));
  const bits = [t("turnN", {n: int(view.turns_played[seat] + 1), of: int(view.turns_each)})];
  if (!view.needs_roll) bits.push(t("rerollsLeft", {n: view.rerolls}));
  if (view.expected !== null && view.expected !== undefined) bits.push(t("expectedAbout", {ev: num(view.expected)}));
  sub.textContent = bits.join(" · ");
}

function winnerText() {
  const top = view.ranking.filter((r) => r.place === 1);
  if (top.length === 1) return t("wins", {name: playerName(top[0].seat), score: int(top[0].score)});
  const names = top.map((r) => playerName(r.seat));
  return t("tieWin", {names: names.slice(0, -1).join(", ") + " " + t("and") + " " + names[names.length - 1], score: int(top[0].score)});
}

function diceSlots() {
  // What each of the fixed slots shows: {face, state: kept|entered|empty|rolled}
  const n = view ? view.dice_count : 5;
  const slots = Array.from({length: n}, () => ({face: null, state: "empty"}));
  if (!view || view.is_over) return slots;
  if (view.needs_roll) {
    const kept = view.kept || [];
    let order = null;
    if (keptSlots && keptSlots.length === kept.length) order = keptSlots;
    const free = [];
    const used = new Set(order || kept.map((_, i) => i));
    (order || kept.map((_, i) => i)).forEach((slot, k) => { slots[slot] = {face: kept[k], state: "kept"}; });
    for (let i = 0; i < n; i++) if (!used.has(i)) free.push(i);
    entry.forEach((face, k) => { slots[free[k]] = {face, state: "entered", k}; });
    return slots;
  }
  (view.dice || []).forEach((face, i) => { slots[i] = {face, state: "rolled"}; });
  return slots;
}

function renderDice(busy) {
  const human = humanToMove();
  const rolling = human && view.needs_roll;
  const deciding = human && !view.needs_roll;
  const slots = diceSlots();
  $("dice").replaceChildren(...slots.map((s, i) => {
    const pressed = deciding && marked.has(i);
    let label;
    if (s.state === "empty") label = t("dieEmpty", {i: i + 1});
    else if (s.state === "kept") label = t("dieKept", {i: i + 1, face: s.face});
    else if (s.state === "entered") label = t("dieRemove", {i: i + 1, face: s.face});
    else label = t("die", {i: i + 1, face: s.face});
    const can = (deciding && view.rerolls > 0) || (rolling && s.state === "entered");
    const b = el("button", {
      class: `die ${s.state}` + (pressed ? " marked" : ""),
      "aria-pressed": deciding && view.rerolls > 0 ? String(pressed) : undefined,
      dataset: {index: i, face: s.face ?? ""}, disabled: !can || busy,
      onclick: () => tapDie(i)},
      el("span", {class: "sr", text: label + " "}), dieFace(s.face), el("span", {class: "mark", text: t("keepMark")}));
    return b;
  }));
  const need = view ? view.dice_count - (view.kept ? view.kept.length : 0) : 5;
  const faces = view ? view.faces : 6;
  $("faces").replaceChildren(...Array.from({length: faces}, (_, k) => el("button", {
    class: "face", dataset: {face: k + 1}, "aria-label": t("addFace", {face: k + 1}),
    disabled: !rolling || busy || entry.length >= need, onclick: () => addFace(k + 1)}, dieFace(k + 1))));
  $("back").disabled = !rolling || busy || entry.length === 0;
  $("roll").disabled = !rolling || busy || entry.length > 0;
  const keep = $("keep");
  keep.disabled = !deciding || busy || view.rerolls === 0 || marked.size === view.dice_count;
  keep.textContent = !deciding ? t("rerollAll") : marked.size === view.dice_count ? t("keepAll")
    : marked.size ? t("keepReroll") : t("rerollAll");
  const pad = $("pad");
  pad.dataset.phase = !view || view.is_over ? "idle" : rolling ? "roll" : deciding ? "decide" : "wait";
  let hint = "";
  if (view && !view.is_over) {
    if (!isHuman(view.turn_player)) hint = t("waitComputer", {name: playerName(view.turn_player)});
    else if (rolling) hint = t("enterDice", {n: need - entry.length});
    else if (deciding) hint = view.rerolls ? t("tapToKeep") : t("noRerolls");
    else hint = tableHint();
  }
  $("hint").textContent = hint;
}

function tapDie(i) {
  if (!humanToMove() || inflight) return;
  cancelPending();
  if (view.needs_roll) {
    const s = diceSlots()[i];
    if (s.state === "entered") { entry.splice(s.k, 1); render(); }
    return;
  }
  if (view.rerolls === 0) return;
  marked.has(i) ? marked.delete(i) : marked.add(i);
  render();
}
function addFace(face) {
  if (!humanToMove() || !view.needs_roll || inflight) return;
  const need = view.dice_count - (view.kept ? view.kept.length : 0);
  if (entry.length >= need) return;
  entry.push(face);
  render();
  if (entry.length === need) move("roll " + entry.join(""));
}
function keepMarked() {
  if (!humanToMove() || view.needs_roll || inflight) return;
  const slots = [...marked].sort((a, b) => a - b);
  if (slots.length === view.dice_count) return;
  const dice = slots.map((i) => view.dice[i]);
  const order = slots.map((i) => [view.dice[i], i]).sort((a, b) => a[0] - b[0]).map((p) => p[1]);
  keptSlots = order;
  move(dice.length ? "keep " + dice.join(" ") : "reroll all");
}

function renderAdvice(busy) {
  const v = $("verdict");
  v.className = ""; v.textContent = "";
  if (verdict && mode === "check") {
    const good = verdict.loss < 1e-9;
    v.className = good ? "good" : "bad";
    v.textContent = good ? t("verdictBest", {name: verdict.name})
      : t("verdictCost", {name: verdict.name, loss: num(verdict.loss, 2), best: actionText(verdict.best)});
  }
  const list = $("advice");
  $("all-options").hidden = true;
  const advice = humanToMove() && (!table || myTurn()) ? view.advice : null;
  const shown_as = table && mode === "check" ? "full" : mode;   // at a table the player asked for it
  $("options-h").hidden = $("advice-head").hidden = !advice || shown_as !== "full";
  if (!advice || mode === "off") { list.replaceChildren(); return; }
  if (shown_as === "check") { list.replaceChildren(el("li", {class: "note", text: t("checkHidden")})); return; }
  const shown = showAll ? advice : advice.slice(0, 6);
  $("all-options").hidden = showAll || advice.length <= 6;
  list.replaceChildren(...shown.map((a, i) => {
    const lossText = i === 0 ? t("best") : a.loss < 1e-9 ? t("tie") : "−" + num(a.loss, 2);
    return el("li", {}, el("button", {class: "option" + (i === 0 ? " top" : ""), dataset: {action: a.text},
      disabled: busy, onclick: () => { keptSlots = null; move(a.text); }},
      el("span", {class: "what", text: actionText(a)}),
      el("span", {class: "ev"}, el("span", {class: "sr", text: t("expectedShort") + " "}), num(a.expected_final_score)),
      el("span", {class: "loss"}, el("span", {class: "sr", text: t("loss") + " "}), lossText)));
  }));
}

function renderCard(busy) {
  const table = $("protokoll");
  if (!view) { table.replaceChildren(); return; }
  const labels = view.labels[lang];
  const now = view.is_over ? -1 : view.turn_player;
  const ncol = view.columns || 1;
  // "box@column" -> points it takes now, for a person to move ("score chance (23)",
  // or with several columns "score chance@2 (46)")
  const open = {};
  if (humanToMove() && !view.needs_roll) {
    for (const text of view.legal) {
      const m = /^score ([^\s@]+)(?:@(\d+))? \((\d+)\)$/.exec(text);
      if (m) open[`${m[1]}@${m[2] || 1}`] = +m[3];
    }
  }
  const top = mode === "full" && view.advice && view.advice[0].action === "score" ? view.advice[0] : null;
  const best = top ? `${top.box}@${top.column || 1}` : null;
  const head = el("tr", {}, el("th", {scope: "col", class: "label", text: t("box")}),
    ...view.players.map((p, i) => el("th", {scope: "col", colspan: ncol > 1 ? ncol : undefined,
      class: "name seat" + (i % 6) + (i === now ? " now" : ""), title: p.name},
      el("span", {class: "nm", text: p.name}), i === now ? el("span", {class: "sr", text: " (" + t("toMove") + ")"}) : "")));
  const rows = view.protokoll.map((row) => {
    const label = row.kind === "box" ? (labels.boxes[row.key] || row.key) : (labels[row.key] || row.key);
    const cells = [];
    row.cells.forEach((c, seat) => cellsOf(c).forEach((value, col) => {
      const cls = "seat" + (seat % 6) + (seat === now ? " now" : "");
      if (row.key === "bonus" && value === null && view.par) {
        const par = cellsOf(view.par[seat])[col];
        cells.push(el("td", {class: cls + " par", dataset: {box: row.key, seat},
          "aria-label": par === null || par === undefined ? undefined : t("parAria", {par: signed(par)})},
          par === null || par === undefined ? "" : signed(par)));
        return;
      }
      const key = `${row.key}@${col + 1}`;
      const can = row.kind === "box" && seat === now && value === null && key in open;
      if (can) {
        const name = ncol > 1 ? `${label} ×${col + 1}` : label;
        const target = ncol > 1 ? `${row.key}@${col + 1}` : row.key;
        cells.push(el("td", {class: cls + " open", dataset: {box: row.key, seat, column: col + 1}},
          el("button", {class: "cell-btn" + (key === best ? " best" : ""), dataset: {box: target},
            disabled: busy, onclick: () => { keptSlots = null; move("score " + target); }},
            el("span", {class: "sr", text: t("scoreAria", {box: name}) + " "}), int(open[key]),
            el("span", {class: "sr", text: " " + t("points")}))));
      } else {
        cells.push(el("td", {class: cls, dataset: {box: row.key, seat}}, value === null ? "" : int(value)));
      }
    }));
    return el("tr", {class: row.kind}, el("th", {scope: "row", class: "label", text: label}), ...cells);
  });
  const heads = [head];
  if (ncol > 1) heads.push(el("tr", {class: "columns"}, el("th", {scope: "col", class: "label", text: t("column")}),
    ...view.players.flatMap((p, i) => Array.from({length: ncol}, (_, c) =>
      el("th", {scope: "col", class: "seat" + (i % 6) + (i === now ? " now" : ""), text: "×" + (c + 1)})))));
  table.classList.toggle("columns", ncol > 1);
  table.replaceChildren(el("caption", {class: "sr", text: t("scorecard")}), el("thead", {}, ...heads), el("tbody", {}, ...rows));
}

function renderTotals() {
  const bar = $("totals");
  if (!view) { bar.replaceChildren(); return; }
  const now = view.is_over ? -1 : view.turn_player;
  bar.classList.toggle("many", view.players.length > 4);
  bar.replaceChildren(el("ul", {}, ...view.players.map((p, i) => {
    const ev = view.expected_scores && view.expected_scores[i];
    const evText = ev === null || ev === undefined || view.is_over ? "" : t("expectedAbout", {ev: num(ev, 0)});
    return el("li", {class: "chip seat" + (i % 6) + (i === now ? " now" : ""),
      "aria-current": i === now ? "true" : undefined,
      "aria-label": t("totalAria", {name: p.name, score: int(view.scores[i]), ev: evText || int(view.scores[i])})},
      el("span", {class: "nm", text: p.name}), el("strong", {text: int(view.scores[i])}),
      el("span", {class: "ev", text: evText}));
  })));
}

// ------------------------------------------------------------------ the end
function showEnd() {
  endShownFor = gameId(view.game);
  $("winner").textContent = winnerText();
  $("ranking").replaceChildren(...view.ranking.map((r) =>
    el("li", {text: t("place", {place: r.place, name: playerName(r.seat), score: int(r.score)})})));
  const d = $("end");
  if (!d.open) { if (d.showModal) d.showModal(); else d.setAttribute("open", ""); }
}
function closeEnd() { const d = $("end"); if (d.open) { if (d.close) d.close(); else d.removeAttribute("open"); } }

// ------------------------------------------------------------------ the distribution
async function drawDistribution() {
  if (!view || view.is_over || !live) return;
  const seat = view.turn_player, at = view.game.played;
  const card = cardText(seat);
  $("dist").replaceChildren(el("p", {text: t("computing")}));
  let d;
  try { d = await api("/api/distribution", undefined, {rules: view.rules, card}); }
  catch (e) { $("dist").replaceChildren(); showError(errorText(e)); return; }
  if (!view || view.game.played !== at || view.turn_player !== seat) return;   // the game moved on
  const pmf = Object.entries(d.pmf).map(([s, p]) => [+s, p]).sort((a, b) => a[0] - b[0]);
  const lo = d.percentiles["1"] ?? pmf[0][0], hi = d.percentiles["99"] ?? pmf[pmf.length - 1][0];
  const W = 320, H = 150, pad = 18, top = Math.max(...pmf.map(([, p]) => p));
  const x = (s) => pad + (W - 2 * pad) * (s - lo) / Math.max(hi - lo, 1);
  const g = svg("svg", {viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-label": t("distAria", {name: playerName(seat), mean: num(d.mean)})});
  const bw = Math.max((W - 2 * pad) / Math.max(hi - lo + 1, 1), 0.5);
  for (const [s, p] of pmf) {
    if (s < lo || s > hi) continue;
    const h = (H - 40) * p / top;
    g.append(svg("rect", {class: "bar", x: x(s), y: H - 22 - h, width: bw, height: h}));
  }
  g.append(svg("line", {x1: x(d.mean), x2: x(d.mean), y1: 12, y2: H - 22, class: "mean"}));
  const label = (s, text, y) => { const e = svg("text", {x: x(s), y, "text-anchor": "middle"}); e.textContent = text; g.append(e); };
  label(d.mean, `${t("mean")} ${num(d.mean)}`, 10);
  for (const q of ["5", "50", "95"]) if (d.percentiles[q] !== undefined) label(d.percentiles[q], `${q} %: ${int(d.percentiles[q])}`, H - 6);
  $("dist").replaceChildren(g);
}
function cardText(seat) {
  const parts = [];
  for (const row of view.protokoll) if (row.kind === "box" && row.cells[seat] !== null) parts.push(`${row.key}=${row.cells[seat]}`);
  for (const row of view.protokoll) if ((row.key === "yahtzee_bonus" || row.key === "bank") && row.cells[seat]) parts.push(`${row.key}=${row.cells[seat]}`);
  return parts.join(",");
}

// ------------------------------------------------------------------ a new game
function presetLabel(p) {
  const name = T.en["name_" + p.name] ? t("name_" + p.name) : p.name;
  return p.available ? name : t("unavailableName", {name});
}
function renderNewGame() {
  if (!rulesInfo) return;
  const count = +$("players-count").value || 2;
  const old = [...document.querySelectorAll("#player-names .seat-row")].map((r) =>
    ({name: r.querySelector("input").value, kind: r.querySelector("select").value}));
  const kinds = rulesInfo.kinds || ["human", "optimal"];
  $("player-names").replaceChildren(...Array.from({length: count}, (_, i) => {
    const was = old[i] || {name: t("playerN", {n: i + 1}), kind: "human"};
    return el("div", {class: "seat-row"},
      el("label", {for: "player-name-" + i, class: "sr", text: t("nameOf", {n: i + 1})}),
      el("input", {id: "player-name-" + i, value: was.name, maxlength: 40, autocomplete: "off"}),
      el("label", {for: "player-kind-" + i, class: "sr", text: t("kindOf", {n: i + 1})}),
      el("select", {id: "player-kind-" + i}, ...kinds.map((k) =>
        el("option", {value: k, selected: k === was.kind, text: T.en["kind_" + k] ? t("kind_" + k) : k}))));
  }));
  const sel = $("rules-select"), chosen = sel.value || rulesInfo.default;
  sel.replaceChildren(...rulesInfo.presets.map((p) =>
    el("option", {value: p.name, text: presetLabel(p), selected: p.name === chosen})));
  renderRulesNote();
}
function renderRulesNote() {
  const p = rulesInfo.presets.find((q) => q.name === $("rules-select").value);
  if (!p) { $("rules-note").textContent = ""; return; }
  const desc = T.en["preset_" + p.name] ? t("preset_" + p.name) : p.description;
  const why = p.unavailable ? " " + t("why_" + p.unavailable.code, {cmd: p.unavailable.command || ""}) : "";
  $("rules-note").textContent = desc + "." + why;
  $("rules-note").className = p.available ? "" : "bad";
  $("start").disabled = !p.available && !$("rules-spec").value.trim();
}
function setupNewGame() {
  $("players-count").replaceChildren(...[1, 2, 3, 4, 5, 6].map((n) => el("option", {value: n, text: int(n)})));
  $("players-count").value = 2;
  $("rules-select").value = rulesInfo.default;
  renderNewGame();
}
function openPanel(id, open, focus = true) {
  for (const other of ["new-game", "import", "share-box", "table-box"]) if (other !== id) $(other).hidden = true;
  $(id).hidden = !open;
  $("new-game-button").setAttribute("aria-expanded", String(!$("new-game").hidden));
  $("import-button").setAttribute("aria-expanded", String(!$("import").hidden));
  if (open && focus) { const f = $(id).querySelector("input, select, textarea, button"); if (f) f.focus(); }
}
async function startGame(players, rules) {
  verdict = null; keptSlots = null;
  closeEnd();
  if (table) {                                 // a new game at the table: a new table
    const made = await newTable(players, rules);
    if (made) openPanel("new-game", false);
    return made;
  }
  const ok = await send("/api/game/new", {rules, players}, {reset: true});
  if (ok) openPanel("new-game", false);        // on an error the panel stays open
  return ok;
}
function startFromPanel() {
  const players = [...document.querySelectorAll("#player-names .seat-row")].map((r, i) => {
    const name = r.querySelector("input").value.trim().replace(/=/g, "-") || t("playerN", {n: i + 1});
    const kind = r.querySelector("select").value;
    return kind === "human" ? name : `${name}=${kind}`;
  });
  const rules = $("rules-spec").value.trim() || $("rules-select").value;
  return startGame(players, rules);
}
function sameAgain() {
  if (!view) return;
  const players = view.players.map((p) => p.kind === "human" ? p.name : `${p.name}=${p.kind}`);
  return startGame(players, view.rules);
}

// ------------------------------------------------------------------ import, export, links
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
function exportGame() {
  if (!view) return;
  const blob = new Blob([JSON.stringify(view.game, null, 1)], {type: "application/json"});
  const a = el("a", {href: URL.createObjectURL(blob), download: "yatzy-game.json"});
  document.body.append(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
async function importGame() {
  let text = $("import-text").value.trim();
  const file = $("import-file").files[0];
  if (!text && file) text = await file.text();        // pasted text first, then the file
  let game;
  try { game = JSON.parse(text); } catch (e) { showError(t("err_json")); return; }
  verdict = null; keptSlots = null;
  if (await send("/api/game/state", {game}, {reset: true})) {
    $("import-text").value = ""; $("import-file").value = "";
    openPanel("import", false);
  }
}
function shareGame() {
  if (!view) return;
  const url = new URL("/", location.href);
  url.searchParams.set("lang", lang);
  url.searchParams.set("game", b64url(JSON.stringify(view.game)));
  $("share-url").value = url.href;
  $("share-note").textContent = "";
  openPanel("share-box", true);
  $("share-url").select();
}
async function copyShare() {
  const input = $("share-url");
  try { await navigator.clipboard.writeText(input.value); $("share-note").textContent = t("copied"); }
  catch (e) { input.select(); $("share-note").textContent = t("copyFailed"); }
}

// ------------------------------------------------------------------ keys
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
  if (view.needs_roll) {
    if (d >= 1 && d <= view.faces) { e.preventDefault(); addFace(d); }
    else if (e.key === "Backspace" && entry.length) { e.preventDefault(); entry.pop(); render(); }
  } else if (d >= 1 && d <= view.dice_count && view.rerolls) { e.preventDefault(); tapDie(d - 1); }
}

// ------------------------------------------------------------------ start
async function loadSaved() {
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
  const ok = await send("/api/game/state", {game}, {reset: true, onError: () => { store(KEY, null); store(VIEW_KEY, null); view = null; render(); }});
  return ok;
}

async function start() {
  if (params.get("lang") && T[params.get("lang")]) store("yatzy.lang", lang);
  $("lang").onchange = () => { lang = $("lang").value; store("yatzy.lang", lang); renderNewGame(); render(); if (view && view.is_over && $("end").open) showEnd(); };
  $("mode").onchange = () => { mode = $("mode").value; store("yatzy.mode", mode); if (mode !== "check") verdict = null; render(); };
  $("new-game-button").onclick = () => openPanel("new-game", $("new-game").hidden);
  $("cancel-new").onclick = () => openPanel("new-game", false);
  $("import-button").onclick = () => { $("more-menu").open = false; openPanel("import", $("import").hidden); };
  $("cancel-import").onclick = () => openPanel("import", false);
  $("import-ok").onclick = importGame;
  $("export").onclick = () => { $("more-menu").open = false; exportGame(); };
  $("share").onclick = () => { $("more-menu").open = false; shareGame(); };
  $("share-copy").onclick = copyShare;
  $("share-close").onclick = () => openPanel("share-box", false);
  $("undo").onclick = () => { if (!canUndo()) return; verdict = null; keptSlots = null;
    if (table) { tableUndo(); return; }
    send("/api/game/undo", {game: view.game, to: hasHumans() ? "human" : "move"}); };
  $("redo").onclick = () => { if (!canRedo()) return; verdict = null; keptSlots = null;
    if (table) { tableSend("redo"); return; }
    send("/api/game/redo", {game: view.game, to: hasHumans() ? "human" : "move"}); };
  $("roll").onclick = () => { if (humanToMove() && view.needs_roll && !entry.length) move("roll"); };
  $("back").onclick = () => { if (entry.length) { entry.pop(); render(); } };
  $("keep").onclick = keepMarked;
  $("all-options").onclick = () => { showAll = true; render(); };
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
    if (e.key !== KEY || !e.newValue || !view || table) return;
    if (e.newValue === JSON.stringify(view.game)) return;
    try { send("/api/game/state", {game: JSON.parse(e.newValue)}, {reset: true}); } catch (err) { /* not ours */ }
  });
  setupTable();
  const cached = params.get("table") ? null : stored(VIEW_KEY, null);   // shown until the server answers
  if (cached) { try { view = JSON.parse(cached); if (!view.labels || !view.labels[lang]) view = null; } catch (e) { view = null; } }
  render();
  if ("serviceWorker" in navigator && window.isSecureContext && stored("yatzy.sw", "on") !== "off") {
    navigator.serviceWorker.register("/sw.js").catch(() => {});
  }
  rulesInfo = await api("/api/rules");
  setupNewGame();
  if (params.get("table") && await joinTable(params.get("table"))) return;
  if (!(await loadSaved())) { view = null; render(); openPanel("new-game", true, false); }
}
document.addEventListener("DOMContentLoaded", start);
