// A confirmation before writing 0 in a box ("Cross out full house?"), as a
// paper pad's player would pause: a click on a card's box or an advice
// row that writes 0 is held (a capturing listener, before the button's
// own), asked about in a small dialog, and let through once confirmed.
// The score pad (scorepad.js) asks through confirmZero too.  "Don't ask
// again" (kept in this browser: yatzy.zero = write) writes 0 at once.
import {lang, t} from "./words.js";
import {$, el, store, stored} from "./dom.js";
import {S} from "./state.js";

let passing = null;            // the button let through once confirmed

function label(key) {
  const [box, col] = key.split("@");
  const name = (S.view && S.view.labels[lang].boxes[box]) || box;
  return col && S.view && S.view.columns > 1 ? `${name} ×${col}` : name;
}

function dialog() {
  let d = $("zero-confirm");
  if (d) return d;
  d = el("dialog", {id: "zero-confirm", "aria-labelledby": "zero-h"},
    el("h2", {id: "zero-h"}), el("p", {id: "zero-text"}),
    el("label", {class: "check"}, el("input", {type: "checkbox", id: "zero-never"}), el("span", {id: "zero-never-t"})),
    el("div", {class: "row"}, el("button", {id: "zero-yes", class: "primary"}), el("button", {id: "zero-no"})));
  document.body.append(d);
  return d;
}

// Ask before 0 goes in box "box" or "box@column"; resolves to whether to write it.
export function confirmZero(key) {
  if (stored("yatzy.zero", "ask") === "write") return Promise.resolve(true);
  const d = dialog();
  $("zero-never").checked = false;
  $("zero-never-t").textContent = t("zeroNever");
  $("zero-h").textContent = t("zeroTitle", {box: label(key)});
  $("zero-text").textContent = t("zeroText", {box: label(key)});
  $("zero-yes").textContent = t("zeroYes");
  $("zero-no").textContent = t("cancel");
  return new Promise((resolve) => {
    const done = (yes) => { $("zero-yes").onclick = $("zero-no").onclick = d.oncancel = null; if (d.open) d.close(); resolve(yes); };
    $("zero-yes").onclick = () => { if ($("zero-never").checked) store("yatzy.zero", "write"); done(true); };
    $("zero-no").onclick = () => done(false);
    d.oncancel = (e) => { e.preventDefault(); done(false); };
    d.showModal();
    $("zero-no").focus();
  });
}

// the box and points a clicked button would write, or null
function zeroOf(btn) {
  if (btn.classList.contains("cell-btn")) {
    const text = [...btn.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join("").trim();
    return text === "0" ? btn.dataset.box : null;
  }
  const m = /^score (\S+) \(0\)$/.exec(btn.dataset.action || "");
  return m ? m[1] : null;
}

function hold(e) {
  const btn = e.target.closest && e.target.closest("button");
  if (!btn || btn.disabled) return;
  if (passing === btn) { passing = null; return; }
  const key = zeroOf(btn);
  if (!key || stored("yatzy.zero", "ask") === "write") return;
  e.stopPropagation(); e.preventDefault();
  confirmZero(key).then((yes) => { if (yes) { passing = btn; btn.click(); } });
}

export function setupConfirm() {
  for (const id of ["protokoll", "advice"]) $(id).addEventListener("click", hold, true);
}
