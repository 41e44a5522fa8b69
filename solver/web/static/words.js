// The words of the page: the catalogue of solver/rules/words.py in every
// language, loaded once from the server (GET /words.json; the service
// worker keeps it, and so does localStorage, for a reload while the server
// is away), and the language the page speaks.  No text a person reads is
// written in the scripts: each is a key of the catalogue's "page" section,
// formatted as Python's words.message formats its own: {field}
// placeholders, and plural forms {one, other} chosen by the field n.
import {params, stored, store} from "./dom.js";

export const LANGS = ["en", "nb", "sv"];
const KEPT = "yatzy.words";

async function load() {
  try {
    const res = await fetch("/words.json");
    if (res.ok) {
      const text = await res.text();
      store(KEPT, text);
      return JSON.parse(text);
    }
  } catch (e) { /* the server is away: the copy kept below */ }
  try { const kept = JSON.parse(stored(KEPT, "null")); if (kept && kept.en) return kept; } catch (e) { /* none */ }
  return Object.fromEntries(LANGS.map((l) => [l, {page: {}, boxes: {}}]));   // keys show as themselves
}
const CATALOGUE = await load();

function guessLang() {
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const code = l.toLowerCase().slice(0, 2);
    if (code === "nb" || code === "no" || code === "nn") return "nb";
    if (code === "sv") return "sv";
    if (code === "en") return "en";
  }
  return "en";
}

// The language shown: ?lang=, else the one chosen before, else the browser's.
export let lang = LANGS.includes(params.get("lang")) ? params.get("lang")
  : LANGS.includes(stored("yatzy.lang", "")) ? stored("yatzy.lang") : guessLang();
if (LANGS.includes(params.get("lang"))) store("yatzy.lang", lang);
export function setLang(l) {
  if (!LANGS.includes(l)) return;
  lang = l;
  store("yatzy.lang", l);
}
// The language's locale for numbers and plural forms ("nb-NO").
export function locale() { return CATALOGUE[lang].page.locale || lang; }

// Whether the catalogue has a page text for key (else the server's own text is shown).
export function has(key) { return key in CATALOGUE.en.page; }

// The page text key in the language, its {fields} filled from args.
export function t(key, args = {}) {
  let s = CATALOGUE[lang].page[key] ?? key;
  if (typeof s === "object") s = s[new Intl.PluralRules(locale()).select(args.n ?? 0)] ?? s.other;
  // a Swedish genitive "{name}s" of a name that ends in s, x or z takes no
  // second s ("Jonas tur", not "Jonass tur")
  return s.replace(/\{(\w+)\}(s(?![\p{L}]))?/gu, (_, k, gen) => {
    const v = String(args[k] ?? "");
    return v + (gen && !(lang === "sv" && /[sxz]$/i.test(v)) ? gen : "");
  });
}
export function num(x, digits = 1) {
  return new Intl.NumberFormat(locale(), {minimumFractionDigits: digits, maximumFractionDigits: digits}).format(x);
}
export function int(x) { return new Intl.NumberFormat(locale()).format(x); }
export function signed(x) {
  return new Intl.NumberFormat(locale(), {signDisplay: "exceptZero", maximumFractionDigits: 1}).format(x);
}
// A number as it is, at most one decimal ("4", "2,5").
export function plain(x) { return new Intl.NumberFormat(locale(), {maximumFractionDigits: 1}).format(x); }
// Points a child reads: whole ("17"), one decimal under one point ("0,4").
export function points(x) { return Math.abs(x) < 0.95 ? num(x, 1) : int(Math.round(x)); }
export function percent(p) { return new Intl.NumberFormat(locale(), {style: "percent"}).format(p); }
