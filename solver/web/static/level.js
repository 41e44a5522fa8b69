// The Practice rating in plain words ("Level: good, about 14 points a game
// below perfect play"), above the table of means and intervals.  The server
// words the numbers (GET /api/practice/level, yatzy.web.practice.level_of;
// a player's rating on the server carries its "level" already); this module
// asks once per count of answers and draws the line.  practice.js's
// renderStats() calls showLevel(rules, overall, level).
import {int, t} from "./words.js";
import {$, el} from "./dom.js";
import {api} from "./api.js";

let asked = "";             // the rules, count and mean last asked for
let shown = null;           // the server's answer for them

function draw(lv) {
  let p = $("p-level");
  if (!p) { p = el("p", {id: "p-level", "aria-live": "polite"}); $("p-stats-table").before(p); }
  if (!lv) { p.textContent = ""; return; }
  p.dataset.level = lv.level || "";
  p.textContent = lv.level ? t("lvlLine", {level: t("lvl_" + lv.level), points: int(lv.points), n: lv.n})
    : lv.n ? t("lvlFew", {n: lv.more}) : "";
}

export async function showLevel(rules, overall, level) {
  if (level) { draw(level); return; }
  const key = `${rules}|${overall.n}|${overall.mean}`;
  if (key === asked) { draw(shown); return; }
  asked = key; shown = null;
  draw(null);
  try {
    const got = await api("/api/practice/level", undefined, {rules, n: overall.n, mean: overall.mean ?? ""});
    if (asked === key) { shown = got; draw(got); }
  } catch (e) { if (asked === key) asked = ""; }
}
