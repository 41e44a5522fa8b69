// The state of the page's game view, in one object that the modules which
// change it import (no globals): the game shown, what a person has tapped,
// the request in flight, the shared table this phone is at.
import {stored} from "./dom.js";

export const KEY = "yatzy.game", VIEW_KEY = "yatzy.view";
export const DELAY = Math.max(0, +stored("yatzy.delay", "650") || 0);   // ms before a computer's move

export const S = {
  mode: ["full", "check", "off"].includes(stored("yatzy.mode", "full")) ? stored("yatzy.mode", "full") : "full",
  view: null,          // the server's answer for the current game
  live: false,         // whether view came from the server in this page's life
  entry: [],           // dice tapped in for the roll that is due
  marked: new Set(),   // slots of the dice marked to keep
  keptSlots: null,     // slots the kept dice stood in when kept
  verdict: null,       // {seat, name, loss, best} of a person's last decision (check mode)
  showAll: false,
  follow: false,
  focusWas: undefined, // the focused control's selector while a request is answered (focusKey)       // a box was written here: the next turn is brought into view once answered
  seq: 0,              // bumped by every request and every action; late answers are dropped
  inflight: 0,         // the seq of the request in flight (0: none)
  pending: null,       // the timer of the computer's next move
  autoFailed: false,   // a computer's move was refused: wait for a person before trying again
  drawn: false,        // this phone's last roll was the server's ("Roll for me"): a keep rolls the rest too
  rulesInfo: null,     // the server's /api/rules
  endShownFor: null,   // the game whose end screen was shown
  // the shared table (share.js): {code, moves, claimed, who, seat (null | number | "watch"), tokens, admin, url}
  table: null,
};

// Whether the game's losses are the strategy's estimates (Trippel has no
// exact solution: yatzy.rules.play.LOWER_BOUND), not measured against best play.
export function estimated() { return !!S.view && S.view.values === "lower_bound"; }

// Whether a seat is a person's, and what this phone may do at a shared table.
export function isHuman(seat) { return S.view.players[seat].kind === "human"; }
// Whether this phone may act now (the game view asks before every move).
export function mayMove() {
  if (!S.table) return true;
  if (S.table.seat === "watch") return false;
  if (S.table.who === "seat" && S.view && !S.view.is_over && isHuman(S.view.turn_player)) return S.table.seat === S.view.turn_player;
  return true;
}
// Whether this phone may take back the table's last move: the server's
// session names the seat whose move an undo takes back (undo_seat); where
// only each player's own phone moves, only that seat's phone (or the
// table's creator) may.
export function mayUndo(kind = "undo") {
  if (!S.table) return true;
  if (S.table.seat === "watch") return false;
  const seat = kind === "redo" ? S.table.redoSeat : S.table.undoSeat;
  if (S.table.admin || S.table.who !== "seat" || seat === undefined) return true;
  return seat !== null && seat in S.table.tokens;
}
export function myTurn() { return !!S.table && !!S.view && !S.view.is_over && S.table.seat === S.view.turn_player; }
