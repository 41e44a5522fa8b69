// The distribution of the final score of the player to move, drawn as SVG.
import {int, num, t} from "./words.js";
import {$, el, showError, svg} from "./dom.js";
import {S} from "./state.js";
import {api, errorText} from "./api.js";
import {playerName} from "./game.js";

export async function drawDistribution() {
  if (!S.view || S.view.is_over || !S.live) return;
  const seat = S.view.turn_player, at = S.view.game.played;
  const card = cardText(seat);
  $("dist").replaceChildren(el("p", {text: t("computing")}));
  let d;
  try { d = await api("/api/distribution", undefined, {rules: S.view.rules, card}); }
  catch (e) { $("dist").replaceChildren(); showError(errorText(e)); return; }
  if (!S.view || S.view.game.played !== at || S.view.turn_player !== seat) return;   // the game moved on
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
  for (const row of S.view.protokoll) if (row.kind === "box" && row.cells[seat] !== null) parts.push(`${row.key}=${row.cells[seat]}`);
  for (const row of S.view.protokoll) if ((row.key === "yahtzee_bonus" || row.key === "bank") && row.cells[seat]) parts.push(`${row.key}=${row.cells[seat]}`);
  return parts.join(",");
}

