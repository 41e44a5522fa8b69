// Score-pad mode: the family rolls real dice and the page is their paper
// pad.  At the start of a person's turn the dice pad gives way to the open
// boxes: type the points and tap a box (one tap), or tap a box and pick
// its points from the values it can take (the server's "family.pad",
// yatzy.scorepad: only points the box can score).  No dice are entered,
// the advice is not asked for; undo takes a written box back as one step,
// and the review at the end shows the scores only.  A toggle in the
// toolbar turns it on (kept in this browser).  game.js's render() calls
// renderPad().
import {int, lang, t} from "./words.js";
import {$, el, store, stored} from "./dom.js";
import {S} from "./state.js";
import {humanToMove, send} from "./game.js";
import {tableSend} from "./share.js";
import {confirmZero} from "./confirm.js";

let on = stored("yatzy.pad", "off") === "on";
let chosen = null;             // the box tapped, its values shown ("box@column")

export function padOn() { return on; }

function boxLabel(key) {
  const [box, col] = key.split("@");
  const name = S.view.labels[lang].boxes[box] || box;
  return S.view.columns > 1 ? `${name} ×${col}` : name;
}

// the pad's boxes in the card's order
function openBoxes() {
  const pad = (S.view && S.view.family && S.view.family.pad) || {};
  const order = S.view.protokoll.filter((r) => r.kind === "box").map((r) => r.key);
  return Object.keys(pad).sort((a, b) => {
    const [ba, ca] = a.split("@"), [bb, cb] = b.split("@");
    return (+ca - +cb) || (order.indexOf(ba) - order.indexOf(bb));
  });
}

async function write(key, points) {
  const values = S.view.family.pad[key] || [];
  if (!values.includes(points)) {
    $("pad-note").textContent = t("padNoFit", {box: boxLabel(key), points: int(points),
      list: values.length > 8 ? `${values[0]}–${values[values.length - 1]}` : values.join(", ")});
    return;
  }
  if (points === 0 && !(await confirmZero(key))) return;
  const [box, col] = key.split("@");
  const body = {box, points, column: S.view.columns > 1 ? +col : undefined};
  chosen = null;
  $("pad-points").value = "";
  if (S.table) await tableSend("pad", body);
  else await send("/api/game/pad", {game: S.view.game, ...body});
}

function tapBox(key) {
  const typed = $("pad-points").value.trim();
  if (typed !== "" && /^\d+$/.test(typed)) { write(key, +typed); return; }
  chosen = chosen === key ? null : key;
  renderPad();
}

function toggle() {
  on = !on; chosen = null;
  store("yatzy.pad", on ? "on" : "off");
  renderPad();
}

function panel() {
  let p = $("scorepad");
  if (p) return p;
  p = el("div", {id: "scorepad", role: "group", "aria-labelledby": "pad-intro"},
    el("p", {id: "pad-intro"}),
    el("div", {class: "field"}, el("label", {for: "pad-points", id: "pad-points-label"}),
      el("input", {id: "pad-points", inputmode: "numeric", pattern: "[0-9]*", autocomplete: "off", maxlength: "4"})),
    el("div", {id: "pad-boxes"}), el("p", {id: "pad-values-h", hidden: true}),
    el("div", {id: "pad-values", role: "group", "aria-labelledby": "pad-values-h"}),
    el("p", {id: "pad-note", role: "status"}),
    el("button", {id: "pad-off", onclick: toggle}));
  $("pad").before(p);
  return p;
}

export function renderPad() {
  let button = $("pad-toggle");
  if (!button) {
    button = el("button", {id: "pad-toggle", onclick: () => { $("more-menu").open = false; toggle(); }});
    $("more-menu").querySelector(".menu").prepend(button);
  }
  button.textContent = on ? t("padButtonOn") : t("padButton");
  button.setAttribute("aria-pressed", String(on));
  button.disabled = !S.view;
  const p = panel();
  const boxes = S.view && !S.view.is_over && humanToMove() ? openBoxes() : [];
  const active = on && boxes.length > 0 && !S.inflight;
  p.hidden = !(on && boxes.length);
  $("pad").hidden = $("dice").hidden = on && boxes.length > 0;
  document.body.dataset.scorepad = on ? "on" : "off";
  if (p.hidden) return;
  const name = S.view.players[S.view.turn_player].name;
  $("pad-intro").textContent = t("padIntro", {name});
  $("pad-points-label").textContent = t("padPoints");
  $("pad-off").textContent = t("padOff");
  if (chosen && !boxes.includes(chosen)) chosen = null;
  const boxButton = (key, text) => el("button", {class: "pad-box" + (key === chosen ? " chosen" : ""),
    dataset: {box: key}, "aria-pressed": String(key === chosen), disabled: !active, onclick: () => tapBox(key),
    ...(text === boxLabel(key) ? {} : {"aria-label": boxLabel(key)})}, text);
  $("pad-boxes").classList.toggle("columns", S.view.columns > 1);
  if (S.view.columns > 1) {          // Trippel: the open boxes grouped by column (×1, ×2, ×3), as on a paper pad
    const cols = [...new Set(boxes.map((key) => key.split("@")[1]))];
    $("pad-boxes").replaceChildren(...cols.map((c) => el("div", {class: "pad-col", role: "group", "aria-labelledby": "pad-col-h" + c},
      el("p", {class: "pad-col-h", id: "pad-col-h" + c, text: `${t("column")} ×${c}`}),
      el("div", {class: "pad-col-boxes"}, ...boxes.filter((key) => key.split("@")[1] === c)
        .map((key) => boxButton(key, S.view.labels[lang].boxes[key.split("@")[0]] || key))))));
  } else $("pad-boxes").replaceChildren(...boxes.map((key) => boxButton(key, boxLabel(key))));
  const values = chosen ? S.view.family.pad[chosen] : [];
  $("pad-values-h").hidden = !chosen;
  $("pad-values-h").textContent = chosen ? t("padPick", {box: boxLabel(chosen)}) : "";
  $("pad-values").replaceChildren(...values.map((v) => el("button", {class: "pad-value", dataset: {points: v},
    disabled: !active, onclick: () => write(chosen, v)}, int(v))));
  if (!chosen) $("pad-note").textContent = "";
}
