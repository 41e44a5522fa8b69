// A die drawn as SVG: its pips (faces 1 to 6) or its number.
import {svg} from "./dom.js";

const PIPS = {1: [[50, 50]], 2: [[28, 28], [72, 72]], 3: [[28, 28], [50, 50], [72, 72]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]], 5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  6: [[28, 26], [72, 26], [28, 50], [72, 50], [28, 74], [72, 74]]};
export function dieFace(face) {
  const g = svg("svg", {viewBox: "0 0 100 100", "aria-hidden": "true", focusable: "false", class: "pips"});
  g.append(svg("rect", {x: 4, y: 4, width: 92, height: 92, rx: 16, class: "body"}));
  if (face && PIPS[face]) for (const [cx, cy] of PIPS[face]) g.append(svg("circle", {cx, cy, r: 9, class: "pip"}));
  else if (face) { const x = svg("text", {x: 50, y: 64, "text-anchor": "middle", class: "digit"}); x.textContent = face; g.append(x); }
  return g;
}
