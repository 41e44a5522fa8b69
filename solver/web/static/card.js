// The scorecard ("protokoll") and the totals bar of the game view.
import {int, lang, num, plain, t} from "./words.js";
import {$, el} from "./dom.js";
import {S} from "./state.js";
import {cellsOf, humanToMove, move} from "./game.js";

export function renderCard(busy) {
  const grid = $("protokoll");
  if (!S.view) { grid.replaceChildren(); return; }
  const labels = S.view.labels[lang];
  const now = S.view.is_over ? -1 : S.view.turn_player;
  const ncol = S.view.columns || 1;
  // "box@column" -> points it takes now, for a person to move ("score chance (23)",
  // or with several columns "score chance@2 (46)")
  const open = {};
  if (humanToMove() && !S.view.needs_roll) {
    for (const text of S.view.legal) {
      const m = /^score ([^\s@]+)(?:@(\d+))? \((\d+)\)$/.exec(text);
      if (m) open[`${m[1]}@${m[2] || 1}`] = +m[3];
    }
  }
  const top = S.mode === "full" && S.view.advice && S.view.advice[0].action === "score" ? S.view.advice[0] : null;
  const best = top ? `${top.box}@${top.column || 1}` : null;
  const head = el("tr", {}, el("th", {scope: "col", class: "label", text: t("box")}),
    ...S.view.players.map((p, i) => el("th", {scope: "col", colspan: ncol > 1 ? ncol : undefined,
      class: "name seat" + (i % 6) + (i === now ? " now" : ""), title: p.name},
      el("span", {class: "nm", text: p.name}), i === now ? el("span", {class: "sr", text: " (" + t("toMove") + ")"}) : "")));
  const rows = S.view.protokoll.map((row) => {
    const label = row.kind === "box" ? (labels.boxes[row.key] || row.key) : (labels[row.key] || row.key);
    const cells = [];
    row.cells.forEach((c, seat) => cellsOf(c).forEach((value, col) => {
      const cls = "seat" + (seat % 6) + (seat === now ? " now" : "");
      if (row.key === "bonus" && value === null && S.view.par) {
        // the bonus pace in words: with par (three of each in Nordic) in the
        // boxes left, the upper sum would end this far short of or over the bonus
        const par = cellsOf(S.view.par[seat])[col];
        const known = par !== null && par !== undefined;
        const key = !known ? "" : par < 0 ? "parShort" : par > 0 ? "parOver" : "parEven";
        const n = known ? plain(Math.abs(par)) : "";
        cells.push(el("td", {class: cls + " par", dataset: {box: row.key, seat},
          "aria-label": known ? t(key + "Aria", {n}) : undefined}, known ? t(key, {n}) : ""));
        return;
      }
      const key = `${row.key}@${col + 1}`;
      const can = row.kind === "box" && seat === now && value === null && key in open;
      if (can) {
        const name = ncol > 1 ? `${label} ×${col + 1}` : label;
        const target = ncol > 1 ? `${row.key}@${col + 1}` : row.key;
        cells.push(el("td", {class: cls + " open", dataset: {box: row.key, seat, column: col + 1}},
          el("button", {class: "cell-btn" + (key === best ? " best" : ""), dataset: {box: target},
            disabled: busy, onclick: () => { S.keptSlots = null; move("score " + target); }},
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
    ...S.view.players.flatMap((p, i) => Array.from({length: ncol}, (_, c) =>
      el("th", {scope: "col", class: "seat" + (i % 6) + (i === now ? " now" : ""), text: "×" + (c + 1)})))));
  grid.classList.toggle("columns", ncol > 1);
  grid.replaceChildren(el("caption", {class: "sr", text: t("scorecard")}), el("thead", {}, ...heads), el("tbody", {}, ...rows));
}

export function renderTotals() {
  const bar = $("totals");
  if (!S.view) { bar.replaceChildren(); return; }
  const now = S.view.is_over ? -1 : S.view.turn_player;
  // the expected scores leave the chips where they would not fit (Trippel's are four digits)
  const n = S.view.players.length;
  bar.classList.toggle("many", n > 4 || (n === 4 && (S.view.columns || 1) > 1));
  // several columns (Trippel): the chips are the weighted totals, said here once (not in #family)
  bar.dataset.tAria = (S.view.columns || 1) > 1 ? "totalsWeighted" : "totals";
  bar.setAttribute("aria-label", t(bar.dataset.tAria));
  bar.replaceChildren(el("ul", {}, ...S.view.players.map((p, i) => {
    const ev = S.view.expected_scores && S.view.expected_scores[i];
    const evText = ev === null || ev === undefined || S.view.is_over || S.mode === "off" ? ""   // advice off: no solver value
      : t("expectedAbout", {ev: num(ev, 0)});
    return el("li", {class: "chip seat" + (i % 6) + (i === now ? " now" : ""),
      "aria-current": i === now ? "true" : undefined,
      "aria-label": evText ? t("totalAria", {name: p.name, score: int(S.view.scores[i]), ev: evText})
        : t("totalAriaPlain", {name: p.name, score: int(S.view.scores[i])})},
      el("span", {class: "nm", text: p.name}), el("strong", {text: int(S.view.scores[i])}),
      el("span", {class: "ev", text: evText}));
  })));
}

