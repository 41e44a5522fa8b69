// The end review on the page, in the game-over dialog: for each person the
// points their decisions lost against the best play and their costliest
// moves ("Kari lost 38 points; worst move turn 7 …"); in Trippel, which has
// no exact solution (the view's values "lower_bound"), against the
// strategy's own estimates, and said so.  The same numbers as
// the coach's review (the server's "family": yatzy.web.family); the turns
// written from a score pad are left out and counted ("3 turns written from
// the score pad are not rated"), a game written wholly from one shows the
// scores only (no dice, nothing to review).  Under it the history of the table and each player's best
// (yatzy.web.history): a shared table's state has it, a game of this page
// alone is recorded once (POST /api/history) when it ends.  game.js's
// showEnd() calls renderReview().
import {int, lang, points, t} from "./words.js";
import {$, el} from "./dom.js";
import {S, estimated} from "./state.js";
import {api} from "./api.js";

const recorded = new Map();          // a page game's key -> its history (asked once)

function boxName(box) { return (S.view.labels[lang].boxes[box]) || box; }
export function decisionText(a) {
  if (a.action === "score") {
    const box = boxName(a.box) + (a.column ? " ×" + a.column : "");
    return t("scoreBox", {box, points: a.points});
  }
  return a.dice.length ? t("keepDice", {dice: a.dice.join(" ")}) : t("rerollAll");
}

const lower = (s) => s.charAt(0).toLocaleLowerCase() + s.slice(1);     // mid-sentence
function personLines(r) {
  const est = estimated();
  // the turns written from the score pad are not rated (yatzy.scorepad.pad_moves)
  const unrated = r.unrated ? [el("p", {class: "review-unrated note", text: t("padUnrated", {n: r.unrated})})] : [];
  if (r.scores_only) return [el("p", {class: "review-pad", text: t("reviewPad", {name: r.name, score: int(r.score)})}), ...unrated];
  if (r.loss < 1e-9) return [el("p", {class: "review-loss", text: est ? t("reviewPerfectEstimate", {name: r.name})
    : t("reviewPerfect", {name: r.name, n: r.decisions})}), ...unrated];
  const args = {name: r.name, loss: points(r.loss), n: r.decisions};
  const out = [el("p", {class: "review-loss", dataset: {seat: r.seat, loss: r.loss},
    text: est ? t("reviewLossEstimate", args) : t("reviewLoss", args)}), ...unrated];
  if (r.worst.length) out.push(el("ul", {class: "review-worst"}, ...r.worst.map((w) => {
    const args = {turn: int(w.turn), dice: w.dice.join(" "), chosen: lower(decisionText(w.chosen)),
      best: lower(decisionText(w.best)), loss: points(w.loss)};
    return el("li", {text: est ? t("reviewWorstEstimate", args) : t("reviewWorst", args)});
  })));
  return out;
}

function historyLines(h) {
  if (!h) return [];
  const out = [el("h3", {text: t("historyTitle")}), el("p", {text: t("historyGames", {n: h.games})})];
  const seen = new Set();             // each player's best once ("Ida 112", not "Ida 112 · Ida 105")
  const top = h.top.filter((x) => !seen.has(x.name.toLocaleLowerCase()) && seen.add(x.name.toLocaleLowerCase()));
  if (top.length) out.push(el("p", {class: "history-top", text: t("historyTop", {list:
    top.map((x) => `${x.name} ${int(x.score)}`).join(" · ")})}));
  for (const p of h.players) {
    const key = p.new && !p.first ? "bestNew" : p.first ? "bestFirst" : "bestOld";
    out.push(el("p", {class: "history-best" + (p.new ? " new" : ""), text: t(key, {name: p.name, score: int(p.best), n: p.games})}));
  }
  return out;
}

function gameKey(g) { return `${g.rules}:${g.seed}:${g.moves.length}:${JSON.stringify(g.players)}`; }

async function pageHistory() {
  const g = S.view.game, key = gameKey(g);
  if (recorded.has(key)) return recorded.get(key);
  recorded.set(key, null);
  try { recorded.set(key, await api("/api/history", {game: g})); } catch (e) { recorded.delete(key); }
  return recorded.get(key);
}

export async function renderReview() {
  let box = $("review");
  // under the buttons: the dialog opens on the winner, the ranking and "New game" (focused)
  if (!box) { box = el("div", {id: "review"}); $("end").querySelector(".col").after(box); }
  const f = S.view && S.view.family;
  if (!f || !S.view.is_over) { box.replaceChildren(); $("to-review").hidden = true; return; }
  const people = (f.review || []);
  // a game of one: "How Kari played", not "each"
  const solo = S.view.players.length === 1 ? {name: S.view.players[0].name} : null;
  const kids = [];
  if (people.length) {
    kids.push(el("h3", {text: solo ? t("reviewTitleSolo", solo) : t("reviewTitle")}));
    if (people.every((r) => r.scores_only)) kids.push(el("p", {class: "note", text: t("reviewPadNote")}));   // the ranking has the scores
    else if (S.mode === "off") kids.push(el("p", {class: "note", text: t("reviewOff")}));   // advice off means off
    else {
      if (estimated() && people.some((r) => !r.scores_only))     // Trippel: what the losses are measured against
        kids.push(el("p", {class: "review-estimates note", text: t("reviewEstimates")}));
      for (const r of people) kids.push(...personLines(r));
    }
  }
  box.replaceChildren(...kids);
  // on a phone the review is below the fold: a way to it near the top (focus stays on "New game")
  const link = $("to-review");
  link.textContent = solo ? t("toReviewSolo", solo) : t("toReview");
  link.hidden = !people.some((r) => !r.scores_only) || S.mode === "off";
  link.onclick = () => {
    const head = box.querySelector("h3");
    head.tabIndex = -1;
    head.scrollIntoView({block: "start"});
    head.focus({preventScroll: true});
  };
  const shown = S.view;
  const h = S.table ? S.view.history : await pageHistory();
  if (S.view !== shown || !h) return;
  box.append(...historyLines(h));
}
