// What a family's score pad shows, under the turn's line: who leads and by
// how much, the bonus in words for the player to move (each column's with
// several), and (advice on) the player's loss so far (Trippel's weighted
// totals are the chips of the totals bar, card.js, not said again).  The
// numbers are the server's (the game's "family": yatzy.web.family, the
// table's session); this module only words them.  game.js's render() calls renderFamily().
import {int, points, t} from "./words.js";
import {$, el} from "./dom.js";
import {S, estimated} from "./state.js";

function names(seats) {
  const n = seats.map((s) => S.view.players[s].name);
  return n.length < 2 ? n.join("") : n.slice(0, -1).join(", ") + " " + t("and") + " " + n[n.length - 1];
}

// "Kari leads by 6", "Kari and Ola share the lead" (nothing before any points, or alone)
export function leadText(f) {
  if (!f || S.view.players.length < 2 || !S.view.scores.some((x) => x > 0)) return "";
  const lead = f.lead;
  if (lead.seats.length === S.view.players.length) return t("leadAll");
  if (lead.seats.length > 1) return t("leadShared", {names: names(lead.seats), n: lead.by});
  return t("leads", {name: names(lead.seats), n: lead.by});
}

// One column's bonus in words: "needs 12 more", "has the bonus (+50)", "cannot reach the bonus"
export function bonusText(b, name, col) {
  if (!b) return "";
  const args = {name, n: b.need, points: int(b.points || 0), col};
  const key = b.state === "made" ? "bonusMade" : b.state === "missed" ? "bonusMissed" : "bonusNeed";
  return t(col ? key + "Col" : key, args);
}

export function renderFamily() {
  let box = $("family");
  if (!box) { box = el("div", {id: "family", "aria-live": "polite"}); $("sub").after(box); }
  const f = S.view && S.view.family;
  if (!f) { box.replaceChildren(); box.hidden = true; return; }
  const lines = [];
  const lead = leadText(f);
  if (lead) lines.push(lead);
  if (!S.view.is_over) {
    const seat = S.view.turn_player, name = S.view.players[seat].name;
    const cols = f.bonus[seat] || [];
    // a column's bonus is news once an upper box is written (its pace known) or it is decided;
    // columns alike are said once ("×1, ×2: bonus out of reach"), so that six seats' lines fit a phone
    const news = cols.map((b, c) => [b, c + 1]).filter(([b]) => b && (b.state !== "need" || b.pace !== null));
    const alike = new Map();
    for (const [b, c] of news) {
      const same = JSON.stringify([b.state, b.need, b.points]);
      alike.set(same, [...(alike.get(same) || []), [b, c]]);
    }
    const words = [...alike.values()].map((group) => bonusText(group[0][0], name, cols.length > 1
      ? group.map(([, c]) => c).join(", ×") : 0));
    if (words.length) lines.push(cols.length > 1 ? t("bonusCols", {name, list: words.join(" · ")}) : words[0]);
    if (f.ledger && S.mode !== "off" && S.view.players[seat].kind === "human" && f.ledger[seat] !== undefined
        && S.view.turns_played[seat] > 0)
    {
      // the turns written from the score pad are not rated: said, and no loss where none was rated
      const unrated = (f.unrated && f.unrated[seat]) || 0, padText = unrated ? t("padUnrated", {n: unrated}) : "";
      // Trippel has no exact solution: its losses are the strategy's estimates, and said so
      const args = {name, loss: points(f.ledger[seat])};
      const loss = estimated() ? t("lossSoFarEstimate", args) : t("lossSoFar", args);
      lines.push(unrated >= S.view.turns_played[seat] ? padText : loss + (padText ? " · " + padText : ""));
    }
  }
  box.hidden = !lines.length;
  box.replaceChildren(...lines.map((text, i) => el("p", {class: "family-line", dataset: {i}, text})));
}
